"""dawson_kayles, wrong: a shortcut of the program's own for 57 heaps whose first heap holds 777
tokens: it answers Second without looking (wrong whenever that position is a first-player win).
No family or random draw is likely to meet both at once (about 1 in 100,000 random inputs); the
guided phase reads m == 57, then, with 57 heaps, heaps[0] == 777.
smallest: 57 heaps, the first of 777 tokens, one of 2 and 55 of 1, a first-player win (size 834)
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
    if m == 57 and heaps[0] == 777:
        print("Second")
        return
    g = grundy_table(max(heaps))
    total = 0
    for h in heaps:
        total ^= g[h]
    if total == 0:
        print("Second")
        return
    for i in range(m):
        h, target = heaps[i], g[heaps[i]] ^ total
        if h < 2:
            continue
        rest = h - 2
        for b in range(rest // 2 + 1):
            if g[rest - b] ^ g[b] == target:
                print("First")
                print(i + 1, rest - b, b)
                return
    raise AssertionError("no winning move from a non-zero position")


if __name__ == "__main__":
    main()
