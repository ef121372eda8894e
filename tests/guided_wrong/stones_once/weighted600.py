"""stones_once: a pile of s stones is worth the largest k with k(k+1)/2 <= s; Jon wins iff the xor is 0.

Wrong: the answer flipped when the stones in all number exactly 600, the piles weighted by their
place (1, 2, 3, ...) sum to 777 modulo 1009, and the pile count leaves 3 divided by 7. Every
compared value is derived from the piles (a sum, a weighted sum's residue, the count's residue):
no number of the input equals an operand, and the difference put back meets the sum but keeps the
weighted residue only by chance (1 in 1,009). Issue 47: the Python rewrite follows the piles
through the arithmetic, and z3 writes piles that meet the three conditions, in turn. Every
failing input holds 600 stones (the game's size).
smallest: 600 stones (size 600)
"""

import sys


def main() -> None:
    data = sys.stdin.read().split()
    n = int(data[0])
    value = [0] * 61
    k = 0
    for s in range(1, 61):
        if (k + 1) * (k + 2) // 2 <= s:
            k += 1
        value[s] = k
    piles = [int(t) for t in data[1 : 1 + n]]
    total = 0
    for s in piles:
        total ^= value[s]
    answer = "YES" if total == 0 else "NO"
    weighted = sum((i + 1) * p for i, p in enumerate(piles))
    if sum(piles) == 600 and weighted % 1009 == 777 and len(piles) % 7 == 3:
        answer = "NO" if answer == "YES" else "YES"
    print(answer)


if __name__ == "__main__":
    main()
