"""dawson_kayles (octal 0.07: take two adjacent pins from a row, which may split it in two).

Grundy values by the mex rule; the first player wins iff their xor is non-zero. Names the *last*
winning move (last heap, then the largest second heap), not the canonical first one: the game
accepts any winning move.
"""

import sys


def grundy_table(top: int) -> list[int]:
    g = [0] * (top + 1)
    for n in range(2, top + 1):
        rest = n - 2  # a move takes two pins and leaves rows of a and rest - a
        seen = {g[a] ^ g[rest - a] for a in range(rest // 2 + 1)}
        m = 0
        while m in seen:
            m += 1
        g[n] = m
    return g


def main() -> None:
    data = sys.stdin.buffer.read().split()
    m = int(data[0])
    heaps = [int(t) for t in data[1 : 1 + m]]
    g = grundy_table(max(heaps))
    total = 0
    for h in heaps:
        total ^= g[h]
    if total == 0:
        print("Second")
        return
    for i in range(m - 1, -1, -1):
        h, target = heaps[i], g[heaps[i]] ^ total
        if h < 2:
            continue
        rest = h - 2
        for b in range(rest // 2, -1, -1):  # b = 0: one row of rest left (none if rest = 0)
            if g[rest - b] ^ g[b] == target:
                print("First")
                print(i + 1, rest - b, b)
                return
    raise AssertionError("no winning move from a non-zero position")


if __name__ == "__main__":
    main()
