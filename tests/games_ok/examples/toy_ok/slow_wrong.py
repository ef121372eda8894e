"""As slow_right.py, but wrong (WA) on every n of 90 or more, and over the 2 s limit (TLE) on
n = 100: every test that finds or confirms a fault is a slow one."""
import sys
import time

n = int(sys.stdin.readline())
assert 1 <= n <= 100
end = time.process_time() + (2.5 if n == 100 else 1.2 if n >= 50 else 0.05)
while time.process_time() < end:
    pass
right = "First" if n % 3 else "Second"
print(("Second" if right == "First" else "First") if n >= 90 else right)
