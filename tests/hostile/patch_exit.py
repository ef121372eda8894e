"""Right answers, then exit status 3 on every test, after rewriting what a harness inside its
process would use to report a status: os._exit, os.write, sys.exit, atexit, and (if it finds one)
any harness object in the garbage collector's view with a ``finish`` or ``take`` method. A judge
gives RE (exit code 3) on every test, and so must gamecert."""

import gc
import os
import sys

word = sys.stdin.readline().strip()
counts = {}
for ch in word:
    counts[ch] = counts.get(ch, 0) + 1
value = 0
for c in counts.values():
    value ^= 3 if c % 3 == 0 else c % 3
print("Alice" if value else "Bob")
sys.stdout.flush()

real_exit = os._exit
os._exit = lambda code: real_exit(0)
os.write = lambda fd, data: len(data)
for obj in gc.get_objects():
    if isinstance(obj, type) and obj.__name__ not in ("SystemExit",):
        for name in ("finish", "take"):
            if name in getattr(obj, "__dict__", {}):
                try:
                    setattr(obj, name, staticmethod(lambda *a, **k: real_exit(0)))
                except (TypeError, AttributeError):
                    pass
sys.excepthook = lambda *a: real_exit(0)
raise SystemExit(3)
