"""Prints exactly n bytes (n is the input), then exits 0; the caller compares n with the cap."""

import sys

n = int(sys.stdin.read())
chunk = "x" * 65536
while n > 0:
    sys.stdout.write(chunk[: min(n, len(chunk))])
    n -= len(chunk)
