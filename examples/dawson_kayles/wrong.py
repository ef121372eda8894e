"""dawson_kayles, wrong: right winner, right Grundy values, but looks for a winning move only
among the moves that leave at most one row (it forgets that taking two pins from the middle
splits the row). When every winning move splits a row (one row of 4: only 4 -> 1 + 1 wins),
it names the first move it sees, a losing one.
"""

import sys


def grundy_table(top: int) -> list[int]:
    g = [0] * (top + 1)
    for n in range(2, top + 1):
        rest = n - 2
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
    first_legal = None
    for i, h in enumerate(heaps, 1):
        if h < 2:
            continue
        if first_legal is None:
            first_legal = (i, h - 2, 0)
        if g[h - 2] ^ g[h] ^ total == 0:  # take two from the end: one row of h - 2 left
            print("First")
            print(i, h - 2, 0)
            return
    print("First")
    print(*first_legal)


if __name__ == "__main__":
    main()
