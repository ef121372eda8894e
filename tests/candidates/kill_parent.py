"""Kills whatever started it: the sandbox must survive its own supervisor's death."""

import os
import signal
import sys

sys.stdin.read()
os.kill(os.getppid(), signal.SIGKILL)
print("Alice")
