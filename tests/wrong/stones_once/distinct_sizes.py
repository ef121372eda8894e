# kind: distinct sizes instead of piles: a size seen twice is xored once, not cancelled
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
total = 0
for s in set(int(token) for token in data[1 : 1 + n]):
    total ^= VALUES[s]
print("YES" if total == 0 else "NO")
