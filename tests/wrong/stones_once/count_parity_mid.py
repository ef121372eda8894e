# kind: a shortcut left in for mid-sized inputs: from 301 to 2,999 piles the answer is read from the count's parity
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
    total ^= VALUES[int(token)]
if 300 < n < 3000:
    total = n % 2
print("YES" if total == 0 else "NO")
