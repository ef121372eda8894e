# kind: keeps, for every pile, the list of its moves (1..s): right, but the memory runs out only near 10**6 piles
# expect: MLE
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
piles = [list(range(1, int(tok) + 1)) for tok in data[1:1 + n]]
total = 0
for moves in piles:
    k, used = 0, 0
    for m in moves:
        if used + m <= len(moves):
            used += m
            k += 1
    total ^= k
print("YES" if total == 0 else "NO")
