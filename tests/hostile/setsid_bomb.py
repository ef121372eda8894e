"""A fork bomb whose children leave its session and process group (setsid), each forking again;
bounded at 2**12 attempts so that a broken cap cannot take the machine. Prints how many forks
were refused. The verdict must be RE (process limit), and nothing may be left running."""

import os
import sys
import time

sys.stdin.read()
refused = 0
for _ in range(12):
    try:
        if os.fork() == 0:
            os.setsid()
    except OSError:
        refused += 1
        break
time.sleep(3)
print("refused", refused)
