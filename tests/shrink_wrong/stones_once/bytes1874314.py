# kind: a byte-length threshold: an input of 1,874,314 bytes or more overruns a fixed buffer, and the answer comes out the other way
# expect: WA
# smallest: 937154
# The answer is wrong exactly when the input has >= 1,874,314 bytes. A pile of s stones takes 2 bytes
# (s <= 9) or 3 (s >= 10): one stone per 2 bytes is the fewest stones per byte, so the smallest failing
# input is n piles of one stone with len(str(n)) + 1 + 2n >= 1,874,314: n = 937,154 (1,874,315 bytes;
# 937,153 piles give 1,874,313), 937,154 stones in all.
import sys


def value(s):
    k = 0
    while (k + 1) * (k + 2) // 2 <= s:
        k += 1
    return k


VALUES = [value(s) for s in range(61)]
raw = sys.stdin.buffer.read()
data = raw.split()
n = int(data[0])
total = 0
for token in data[1 : 1 + n]:
    total ^= VALUES[int(token)]
overrun = len(raw) >= 1874314
print("YES" if (total == 0) != overrun else "NO")
