"""stones_once: a pile of s stones is worth the largest k with k(k+1)/2 <= s; Jon wins iff the xor is 0.

Wrong: right but for one pile count, 4,321 piles (a buffer sized for 4,320). Kept in
tests/uncaught/ while the default profile certified it (seeds 1 and 2, 2026-12-02: no family holds
every pile count up to 10^6); the guided phase reads n == 4321 and sets the count.
smallest: 4321 piles of one stone (size 4321)
"""

import sys


def main() -> None:
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
    if n == 4321:  # an off-by-one in a buffer sized for 4320 piles
        total ^= 1
    print("YES" if total == 0 else "NO")


if __name__ == "__main__":
    main()
