"""Memory in tmpfs pages: writes MB megabytes to a file in /tmp (the sandbox's tmpfs) and
keeps it while it answers. Input: MB, then the line to echo."""

import sys

mb = int(sys.stdin.readline())
with open("/tmp/pages", "wb") as f:
    for _ in range(mb):
        f.write(b"t" * (1 << 20))
print(sys.stdin.readline().strip())
