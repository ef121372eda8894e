# kind: a strict-token slip: right answers, but with 10 heaps or more the heap of the winning move is written with a leading zero (01..09), which a testlib judge's readInt refuses
# expect: PE
# smallest: 11 (ten heaps, nine of 1 and one of 2: the move is on heap 1, written 01)
"""dawson_kayles, wrong in form only: the right winner and a right winning move, but the move's
heap index is zero-padded to two digits when m >= 10 (a table-aligned print left in)."""

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
                print(f"{i + 1:02d}" if m >= 10 else i + 1, rest - b, b)  # the slip: 01..09 with 10 heaps or more
                return
    raise AssertionError("no winning move from a non-zero position")


if __name__ == "__main__":
    main()
