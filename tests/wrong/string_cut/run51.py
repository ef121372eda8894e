# kind: a bug at one component size beyond small reach: a run of exactly 51 cuttable positions is valued 0
# expect: WA
# smallest: 53
# Every input that fails holds a run of 51 cuttable positions (53 letters at least); the run alone fails
# (its value is 2: First is right, this program says Second).
import sys


def grundy_table():
    g = [0]
    for size in range(1, 200):
        seen = {g[max(0, k - 2)] ^ g[max(0, size - k - 1)] for k in range(1, size + 1)}
        m = 0
        while m in seen:
            m += 1
        g.append(m)
    return g


G = grundy_table()


def value(length):
    return G[length] if length < 200 else G[52 + (length - 52) % 34]


def runs_of(s, last=None):
    """Maximal runs of cuttable 1-based positions 2..last (default len(s) - 1)."""
    last = len(s) - 1 if last is None else last
    out = []
    i = 2
    while i <= last:
        if s[i - 2] == s[i]:
            start = i
            while i <= last and s[i - 2] == s[i]:
                i += 1
            out.append((start, i - start))
        else:
            i += 1
    return out


def answer(runs, val=value):
    total = 0
    for _, length in runs:
        total ^= val(length)
    if total == 0:
        return "Second"
    for start, length in runs:
        rest = total ^ val(length)
        for k in range(1, length + 1):
            if rest ^ val(max(0, k - 2)) ^ val(max(0, length - k - 1)) == 0:
                return "First\n%d" % (start + k - 1)
    return "Second"


s = sys.stdin.readline().strip()
print(answer(runs_of(s), lambda n: 0 if n == 51 else value(n)))
