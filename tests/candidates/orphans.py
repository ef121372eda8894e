"""Answers, but leaves double-forked children running (in its process group) after it exits."""

import os
import sys
import time

sys.stdin.read()
for _ in range(3):
    if os.fork() == 0:  # child: fork again and let the middle process exit at once
        if os.fork() == 0:
            time.sleep(10**6)
        os._exit(0)
print("Bob", flush=True)
