# kind: counts piles in a 16-bit integer: with more than 65,535 piles it reads n mod 65,536 of them
# expect: WA
import sys


def value(s):
    k = 0
    while (k + 1) * (k + 2) // 2 <= s:
        k += 1
    return k


VALUES = [value(s) for s in range(61)]


data = sys.stdin.buffer.read().split()
n = int(data[0]) % 65536
total = 0
for token in data[1 : 1 + n]:
    total ^= VALUES[int(token)]
print("YES" if total == 0 else "NO")
