# kind: wrong from five piles on (the answer said backwards)
# class: parts >= 5
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
value = [0] * 61
k = 0
for s in range(1, 61):
    if (k + 1) * (k + 2) // 2 <= s:
        k += 1
    value[s] = k
total = 0
for token in data[1 : 1 + n]:
    total ^= value[int(token)]
print("YES" if (total == 0) != (n >= 5) else "NO")
