"""dawson_kayles (octal 0.07): a heap of n becomes heaps a, b with a + b = n - 2 (0: none), so its
Grundy value is g(n) = mex{g(a) ^ g(n-2-a)}, tabled up to the largest heap. The player to move wins
iff the xor X of the values is non-zero, moving on a heap h with g(h) ^ X < g(h) to a split a, b
with g(a) ^ g(b) = g(h) ^ X (one exists, since g(h) is the mex of the splits' values)."""

import sys


def grundy(top: int) -> list[int]:
    g = [0] * (top + 1)
    for n in range(2, top + 1):
        r = n - 2
        seen = {g[a] ^ g[r - a] for a in range(r // 2 + 1)}
        v = 0
        while v in seen:
            v += 1
        g[n] = v
    return g


def main() -> None:
    data = sys.stdin.buffer.read().split()
    m = int(data[0])
    heaps = [int(t) for t in data[1 : 1 + m]]
    g = grundy(max(heaps))
    x = 0
    for h in heaps:
        x ^= g[h]
    if x == 0:
        sys.stdout.write("Second\n")
        return
    for i, h in enumerate(heaps):
        t = g[h] ^ x
        if t < g[h]:
            r = h - 2
            for a in range(r // 2 + 1):
                if g[a] ^ g[r - a] == t:
                    sys.stdout.write(f"First\n{i + 1} {a} {r - a}\n")
                    return
    raise AssertionError("a non-zero xor always has a winning move")


main()
