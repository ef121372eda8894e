"""string_cut: right, printing 'First 7' on one line (accepted after whitespace normalisation).

O(n) with the run values of Dawson's chess, period 34 beyond a directly computed range.
"""

import sys

s = sys.stdin.readline().strip()
n = len(s)
direct = 200
g = [0] * (direct + 1)
for length in range(1, direct + 1):
    seen = {g[max(0, k - 2)] ^ g[max(0, length - k - 1)] for k in range(1, length + 1)}
    m = 0
    while m in seen:
        m += 1
    g[length] = m


def value(length):
    while length > direct:
        length -= 34
    return g[length]


runs, i = [], 2
while i < n:
    if s[i - 2] == s[i]:
        start = i
        while i < n and s[i - 2] == s[i]:
            i += 1
        runs.append((start, i - start))
    else:
        i += 1
total = 0
for _, length in runs:
    total ^= value(length)
answer = "Second"
if total:
    for start, length in runs:
        rest = total ^ value(length)
        cut = next((k for k in range(1, length + 1)
                    if rest ^ value(max(0, k - 2)) ^ value(max(0, length - k - 1)) == 0), None)
        if cut is not None:
            answer = f"First {start + cut - 1}"
            break
print(answer)
