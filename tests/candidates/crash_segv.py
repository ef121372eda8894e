import os
import signal
import sys

sys.stdin.read()
print("Alice", flush=True)
os.kill(os.getpid(), signal.SIGSEGV)
