"""Holds memory beside itself: anonymous files (memfd_create) filled with write(), never mapped,
held while it answers. Input: the number of files and MB per file, then the line to echo."""

import os
import sys

count, mb = (int(word) for word in sys.stdin.readline().split())
held = []
for i in range(count):
    fd = os.memfd_create(f"m{i}")
    for _ in range(mb):
        os.write(fd, b"m" * (1 << 20))
    held.append(fd)
print(sys.stdin.readline().strip())
