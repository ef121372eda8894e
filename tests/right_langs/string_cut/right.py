"""string_cut: a sum of runs of cuttable positions (s[i-1] == s[i+1]); cutting the k-th of L leaves
runs of max(0, k-2) and max(0, L-k-1), i.e. Dawson's chess (octal 0.137). Its Grundy sequence is
periodic with period 34 from length 52 on (Guy and Smith), so the mex recurrence runs up to 300 and
the rest follows the period. First wins iff the runs' xor is non-zero; the answer is the leftmost
cut that leaves xor zero."""

import sys

DIRECT = 300
PERIOD = 34


def run_values(n: int) -> list[int]:
    g = [0]
    for length in range(1, min(n, DIRECT) + 1):
        seen = {g[max(0, k - 2)] ^ g[max(0, length - k - 1)] for k in range(1, (length + 1) // 2 + 1)}
        m = 0
        while m in seen:
            m += 1
        g.append(m)
    for length in range(len(g), n + 1):
        g.append(g[length - PERIOD])
    return g


def main() -> None:
    tokens = sys.stdin.read().split()
    s = tokens[0] if tokens else ""
    n = len(s)
    g = run_values(n)
    runs: list[list[int]] = []  # [first 1-based position, length]
    for j in range(1, n - 1):
        if s[j - 1] == s[j + 1]:
            if runs and runs[-1][0] + runs[-1][1] == j + 1:
                runs[-1][1] += 1
            else:
                runs.append([j + 1, 1])
    total = 0
    for _, length in runs:
        total ^= g[length]
    if total:
        for start, length in runs:
            rest = total ^ g[length]
            for k in range(1, length + 1):
                if g[max(0, k - 2)] ^ g[max(0, length - k - 1)] == rest:
                    sys.stdout.write(f"First\n{start + k - 1}\n")
                    return
    sys.stdout.write("Second\n")


main()
