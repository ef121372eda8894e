"""stones_once: a pile of s stones is worth the largest k with k(k+1)/2 <= s; Jon wins iff the xor is 0.

Wrong: a "known position" table of one entry, the piles 5, 17, 29, 42, 58 in any order, answered
YES (its xor is 2 ^ 5 ^ 7 ^ 8 ^ 10 = 2, so NO is right). The program compares the sorted piles with
the entry: a list, which no number of the input equals. Before issue 47 the guided phase recorded
no list operand; now the comparison of two lists of numbers is recorded and, where one holds the
values of a game's parts in some order, the parts are set to the other.
smallest: the five piles, 151 stones (size 151)
"""

import sys

KNOWN = [5, 17, 29, 42, 58]


def main() -> None:
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    value = [0] * 61
    k = 0
    for s in range(1, 61):
        if (k + 1) * (k + 2) // 2 <= s:
            k += 1
        value[s] = k
    piles = [int(t) for t in data[1 : 1 + n]]
    if sorted(piles) == KNOWN:  # a table entry written with the wrong answer
        print("YES")
        return
    total = 0
    for s in piles:
        total ^= value[s]
    print("YES" if total == 0 else "NO")


if __name__ == "__main__":
    main()
