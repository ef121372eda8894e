# kind: reads the piles' order: when the first pile equals the mean pile, the piles are taken to be equal (value of the first pile if their count is odd, else 0)
# expect: WA
# smallest: 8
# (its smallest failing inputs are 4 piles, 8 stones in all, the first pile 2 (`2 1 1 4`); no input
# that lists piles largest first fails, since there the first pile is the mean only when all are
# equal: no designed family and neither the pile multisets nor the one or two piles space shows it,
# the pile sequences space (every order, to 12 stones) does, at its smallest: tests/test_deciding.py;
# the whole default profile may still certify it: tests/uncaught/README.md)
import sys


def value(s):
    k = 0
    while (k + 1) * (k + 2) // 2 <= s:
        k += 1
    return k


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    piles = [int(x) for x in data[1 : 1 + n]]
    if sum(piles) == piles[0] * n:
        total = value(piles[0]) if n % 2 else 0
    else:
        total = 0
        for s in piles:
            total ^= value(s)
    print("YES" if total == 0 else "NO")


main()
