# kind: a count threshold past 30,000 components whose failure depends on the count's parity: past 50,000 piles the answer is read from the number of piles alone (a shortcut left in), so the inputs that fail are those whose answer differs from "YES at an even count, NO at an odd one"
# expect: WA
# smallest: 50004
# The answer is wrong exactly when n > 50,000 and (the xor of the pile values is 0) differs from
# (n is even). Every pile is worth 1 or more (a pile of 1 or 2 stones is worth 1, 3 to 5 worth 2).
# At an even n >= 50,002 the xor must be nonzero: n piles of 1 or 2 stones xor to 0, so one pile has
# 3 or more stones, and n - 1 piles of 1 and a pile of 3 (xor 1 ^ 2 = 3) reach 50,004 stones. At an
# odd n >= 50,001 the xor must be 0, which n piles all worth 1 never give (xor 1), nor n - 1 of them
# and one pile worth more (xor 1 ^ v or v, not 0): two piles have 3 stones or more, n + 4 >= 50,005
# stones. So 50,004 stones is the smallest failing size. The worst phase's million piles of 47 and a
# last pile of 60 fail; a prefix of them, all of one size, never does: the shrinker must keep the
# end or change the values too.
import sys


def value(s):
    k = 0
    while (k + 1) * (k + 2) // 2 <= s:
        k += 1
    return k


VALUES = [value(s) for s in range(61)]
data = sys.stdin.buffer.read().split()
n = int(data[0])
if n > 50_000:  # "too many piles to xor": judged by their count
    print("YES" if n % 2 == 0 else "NO")
else:
    total = 0
    for token in data[1 : 1 + n]:
        total ^= VALUES[int(token)]
    print("YES" if total == 0 else "NO")
