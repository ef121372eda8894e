# kind: a count threshold past 30,000 components: a signed 16-bit pile counter wraps at 32,768, and with 32,769 piles or more the answer comes out the other way
# expect: WA
# smallest: 32769
# The answer is wrong exactly when n >= 32,769, whatever the piles; each pile has at least one stone,
# so the smallest failing input is 32,769 piles of one stone: 32,769 stones in all.
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
wrapped = n > 32768  # the counter went negative: the program takes the other branch
print("YES" if (total == 0) != wrapped else "NO")
