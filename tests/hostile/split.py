"""Memory split over processes: children each touch MB megabytes (each under the limit) and
hold them together for a moment. Input: children and MB each, then the line to echo."""

import os
import sys
import time

children, mb = (int(word) for word in sys.stdin.readline().split())
line = sys.stdin.readline().strip()
pids = []
for _ in range(children):
    pid = os.fork()
    if pid == 0:
        block = bytearray(mb << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(0.4)
        os._exit(0)
    pids.append(pid)
for pid in pids:
    os.waitpid(pid, 0)
print(line)
