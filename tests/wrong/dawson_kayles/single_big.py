# kind: wrong only for one heap alone of more than 100 pins (a special case answers Second)
# expect: WA
# class: parts == 1 and max_value >= 101 and xor_class >= 1
# (a single heap over 100 is answered Second, wrong when its Grundy value is not 0; gamecert's diagnosis must find this class: tests/test_diagnose.py)
import sys


def grundy_table(top):
    """The mex rule up to 200; past it the values repeat with period 34 (from 53 on)."""
    g = [0] * 201
    for n in range(2, 201):
        rest = n - 2
        seen = {g[a] ^ g[rest - a] for a in range(rest // 2 + 1)}
        m = 0
        while m in seen:
            m += 1
        g[n] = m
    return [g[n] if n <= 200 else g[53 + (n - 53) % 34] for n in range(top + 1)]


G = grundy_table(1000)


def moves(h):
    """Heaps (a, b) a move can leave from a heap of h: take two pins, leave 0, 1 or 2 rows."""
    rest = h - 2
    if rest < 0:
        return
    if rest == 0:
        yield (0, 0)
        return
    yield (rest, 0)
    for b in range(1, rest // 2 + 1):
        yield (rest - b, b)


def solve(heaps, g=G, only=None):
    total = 0
    for h in heaps:
        total ^= g[h]
    if total == 0:
        return "Second"
    first = None
    for i, h in enumerate(heaps, 1):
        if only is not None and i > only:
            break
        for a, b in moves(h):
            if first is None:
                first = (i, a, b)
            if total ^ g[h] ^ g[a] ^ g[b] == 0:
                return "First\n%d %d %d" % (i, a, b)
    return "First\n%d %d %d" % first


data = sys.stdin.buffer.read().split()
m = int(data[0])
heaps = [int(t) for t in data[1 : 1 + m]]
print("Second" if m == 1 and heaps[0] > 100 else solve(heaps))
