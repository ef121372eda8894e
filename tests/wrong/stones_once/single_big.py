# kind: wrong only for a single pile of 55 stones or more (a special case for n == 1)
# expect: WA
import sys


def value(s):
    k = 0
    while (k + 1) * (k + 2) // 2 <= s:
        k += 1
    return k


VALUES = [value(s) for s in range(61)]


data = sys.stdin.buffer.read().split()
n = int(data[0])
if n == 1 and int(data[1]) >= 55:
    print("YES")
else:
    total = 0
    for token in data[1 : 1 + n]:
        total ^= VALUES[int(token)]
    print("YES" if total == 0 else "NO")
