# kind: a run's Grundy value by recursion over its cuts with a small memo (lru_cache of 128): right, slow only on long runs
# expect: TLE
import sys
from functools import lru_cache

sys.setrecursionlimit(20000)


@lru_cache(maxsize=128)
def g(length):
    if length <= 0:
        return 0
    seen = {g(max(0, k - 2)) ^ g(max(0, length - k - 1)) for k in range(1, length + 1)}
    m = 0
    while m in seen:
        m += 1
    return m


s = sys.stdin.readline().strip()
n = len(s)
runs = []
i = 2
while i < n:
    if s[i - 2] == s[i]:
        st = i
        while i < n and s[i - 2] == s[i]:
            i += 1
        runs.append((st, i - st))
    else:
        i += 1
for _, length in sorted(runs, key=lambda r: r[1]):
    for x in range(1, length + 1):
        g(x)
total = 0
for _, length in runs:
    total ^= g(length)
if total == 0:
    print("Second")
else:
    for st, length in runs:
        rest = total ^ g(length)
        k = next((k for k in range(1, length + 1) if rest ^ g(max(0, k - 2)) ^ g(max(0, length - k - 1)) == 0), None)
        if k is not None:
            print("First")
            print(st + k - 1)
            break
