# kind: a late component position: reads at most 63 heaps (an array of 63), the heaps from the 64th on are lost
# expect: WA
# smallest: 65
# A failing input has 64 heaps or more (else nothing is lost): 64 tokens at least. 64 heaps of one
# token are all of value 0 and the program, seeing 63 of them, is right (Second); so some heap has 2
# tokens or more: 65 at least. 63 heaps of 1 and a 64th of 2 (value 1) fail: First wins by taking the
# 64th heap, this program sees only zeros and says Second. The smallest size is 65.
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
m = min(int(data[0]), 63)
print(solve([int(t) for t in data[1 : 1 + m]]))
