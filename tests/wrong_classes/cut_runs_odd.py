# kind: wrong when the number of runs of cuttable positions is odd (the winner said backwards)
# class: runs%2 == 1
import sys

def run_values(limit):
    g = [0] * (limit + 1)
    for length in range(1, limit + 1):
        seen = {g[max(0, k - 2)] ^ g[max(0, length - k - 1)] for k in range(1, length + 1)}
        m = 0
        while m in seen:
            m += 1
        g[length] = m
    return g


def value(g, length):
    while length >= len(g):
        length -= 34
    return g[length]


def solve(s, flip):
    n = len(s)
    runs = []
    i = 2
    while i < n:
        if s[i - 2] == s[i]:
            start = i
            while i < n and s[i - 2] == s[i]:
                i += 1
            runs.append((start, i - start))
        else:
            i += 1
    g = run_values(400)
    total = 0
    for _, length in runs:
        total ^= value(g, length)
    if (total == 0) != flip(s, runs):
        print("Second")
        return
    if total == 0:  # flipped: a cut that cannot win
        print("First")
        print(1)
        return
    for start, length in runs:
        rest = total ^ value(g, length)
        for k in range(1, length + 1):
            if rest ^ value(g, max(0, k - 2)) ^ value(g, max(0, length - k - 1)) == 0:
                print("First")
                print(start + k - 1)
                return


solve(sys.stdin.readline().strip(), lambda s, runs: len(runs) % 2 == 1)
