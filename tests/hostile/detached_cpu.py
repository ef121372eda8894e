"""Leaves a detached grandchild (setsid, re-parented away from it) burning CPU while the main
process only sleeps, then answers once the grandchild has used the CPU seconds given on its input
(read from outside, in /proc). Every CPU second of a test is charged to it: with a limit below
that figure this is TLE, not OK."""

import os
import sys
import time

wanted = float(sys.stdin.readline())
r, w = os.pipe()
if os.fork() == 0:
    os.setsid()
    pid = os.fork()
    if pid == 0:
        end = time.monotonic() + 30
        while time.monotonic() < end:
            pass
        os._exit(0)
    os.write(w, b"%d" % pid)
    os._exit(0)
os.wait()
grandchild = int(os.read(r, 32))
tick = os.sysconf("SC_CLK_TCK")
while True:
    fields = open(f"/proc/{grandchild}/stat").read().rsplit(")", 1)[1].split()
    if (int(fields[11]) + int(fields[12])) / tick >= wanted:
        break
    time.sleep(0.01)
print("Bob")
