"""string_cut: prints First without the position of the cut (a missing token: WA)."""

import sys

s = sys.stdin.readline().strip()
n = len(s)
g = [0] * (n + 1)
for length in range(1, n + 1):
    seen = {g[max(0, k - 2)] ^ g[max(0, length - k - 1)] for k in range(1, length + 1)}
    m = 0
    while m in seen:
        m += 1
    g[length] = m
total, i = 0, 2
while i < n:
    if s[i - 2] == s[i]:
        start = i
        while i < n and s[i - 2] == s[i]:
            i += 1
        total ^= g[i - start]
    else:
        i += 1
print("First" if total else "Second")
