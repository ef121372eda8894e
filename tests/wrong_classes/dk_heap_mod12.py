# kind: wrong when some heap is 6 mod 12 (the winner said backwards)
# class: count[v%12=6] >= 1
# (a residue: the shrunk input is the heap 6, the class holds 18, 30, 42 ... as well)
import sys


def grundy_table(top):
    g = [0] * (top + 1)
    for n in range(2, top + 1):
        rest = n - 2
        seen = {g[a] ^ g[rest - a] for a in range(rest // 2 + 1)}
        m = 0
        while m in seen:
            m += 1
        g[n] = m
    return g


def main():
    data = sys.stdin.buffer.read().split()
    m = int(data[0])
    heaps = [int(t) for t in data[1 : 1 + m]]
    g = grundy_table(max(heaps))
    total = 0
    for h in heaps:
        total ^= g[h]
    flip = any(h % 12 == 6 for h in heaps)
    if (total == 0) != flip:
        print("Second")
        return
    if total == 0:  # flipped: a First with a move that cannot win
        print("First")
        print(1, 0, 0)
        return
    for i in range(m - 1, -1, -1):
        h, target = heaps[i], g[heaps[i]] ^ total
        if h < 2:
            continue
        rest = h - 2
        for b in range(rest // 2, -1, -1):
            if g[rest - b] ^ g[b] == target:
                print("First")
                print(i + 1, rest - b, b)
                return


main()
