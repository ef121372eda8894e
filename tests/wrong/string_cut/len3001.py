# kind: wrong at one length only: a 3001-letter string is answered Second
# expect: WA
# family: decides-input-size
"""string_cut, wrong for one length only (a 3001-letter string is answered Second), else as the
right program, O(n): runs of cuttable positions are heaps of Dawson's chess (0.137).

Position i (1-based) is cuttable when s[i-1] == s[i+1]. A cut at the k-th of L consecutive
cuttable positions leaves runs of max(0, k-2) and max(0, L-k-1), so the Grundy value of a run
depends only on L; it is computed by mex for small L and repeats with period 34 after that
(checked below on the computed range before it is used).
"""

import sys

DIRECT = 400
PERIOD = 34


def run_values(limit: int) -> list[int]:
    g = [0] * (limit + 1)
    for length in range(1, limit + 1):
        seen = set()
        for k in range(1, length + 1):
            seen.add(g[max(0, k - 2)] ^ g[max(0, length - k - 1)])
        m = 0
        while m in seen:
            m += 1
        g[length] = m
    return g


def main() -> None:
    s = sys.stdin.readline().strip()
    if len(s) == 3001:
        print("Second")
        return
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
    longest = max((length for _, length in runs), default=0)
    g = run_values(min(longest, DIRECT))
    if longest > DIRECT:
        assert all(g[i] == g[i - PERIOD] for i in range(200, DIRECT + 1)), "period check failed"

    def value(length: int) -> int:
        while length > DIRECT:
            length -= PERIOD
        return g[length]

    total = 0
    for _, length in runs:
        total ^= value(length)
    if total == 0:
        print("Second")
        return
    for start, length in runs:
        rest = total ^ value(length)
        for k in range(1, length + 1):
            if rest ^ value(max(0, k - 2)) ^ value(max(0, length - k - 1)) == 0:
                print("First")
                print(start + k - 1)
                return
    raise AssertionError("a nonzero total always has a winning cut")


if __name__ == "__main__":
    main()
