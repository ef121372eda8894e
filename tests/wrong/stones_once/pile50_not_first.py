# kind: a pile of exactly 50 stones is valued 8 (it is 9) unless it is the first pile
# expect: WA
# smallest: 86
# A failing input has a pile of 50 after the first pile, and the rest's values xor to 8 or 9, which
# takes a pile of value 8 or more (36 stones at least): 86 stones at least. 36 50 fails (values
# 8 and 9: Jon loses, NO; this program says YES). A value of 8 or more from piles under 36 stones
# is impossible (their values are at most 7).
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
for i, token in enumerate(data[1 : 1 + n]):
    s = int(token)
    total ^= 8 if s == 50 and i > 0 else VALUES[s]
print("YES" if total == 0 else "NO")
