# kind: reads only the first 2**20 bytes of the input (a fixed buffer); the piles after it are lost
# expect: WA
import sys


def value(s):
    k = 0
    while (k + 1) * (k + 2) // 2 <= s:
        k += 1
    return k


VALUES = [value(s) for s in range(61)]


data = sys.stdin.buffer.read(1 << 20).split()
n = int(data[0])
total = 0
for token in data[1 : 1 + n][:-1] if len(data) < n + 1 else data[1 : 1 + n]:
    total ^= VALUES[int(token)]
print("YES" if total == 0 else "NO")
