"""Take one or two, right answers, slow: about 1.2 s of CPU time on every n of 50 or more (a 2 s
limit), 0.05 s below (issue 27: the budget must hold whatever each test costs)."""
import sys
import time

n = int(sys.stdin.readline())
assert 1 <= n <= 100
end = time.process_time() + (1.2 if n >= 50 else 0.05)
while time.process_time() < end:
    pass
print("First" if n % 3 else "Second")
