# kind: a bug at one component size: a pile of exactly 47 stones is valued 8 (it is 9)
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
for token in data[1 : 1 + n]:
    s = int(token)
    total ^= 8 if s == 47 else VALUES[s]
print("YES" if total == 0 else "NO")
