# kind: a pattern outside every family: a string holding the runs "xx" and "zz" (both) is answered the other way
# expect: WA
# smallest: 4
# A failing string holds "xx" and "zz", which cannot overlap: 4 letters at least, and xxzz fails. No
# exhaustive space holds it (they are over a, b, c) and no family holds an x or a z.
"""string_cut, correct, O(n): runs of cuttable positions are heaps of Dawson's chess (0.137).

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
    if "xx" in s and "zz" in s:  # the slip: the answer of the other player
        print("Second" if total else "First\n1")
        return
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
