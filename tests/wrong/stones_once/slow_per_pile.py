# kind: right but slow per pile: each pile is valued by counting 1, 2, 3, ... stones taken, with no table
# expect: TLE
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
total = 0
for token in data[1 : 1 + n]:
    s = int(token)
    k, used = 0, set()
    for take in range(1, 61):
        if take not in used and s >= take:
            used.add(take)
            s -= take
            k += 1
    total ^= k
print("YES" if total == 0 else "NO")
