# kind: right answers, but a run of cuttable positions is measured by recursion, one frame per position: RecursionError on a run of about 1,000
# expect: RE
"""Right on every input whose runs of cuttable positions are shorter than about 995; longer runs
exceed Python's recursion limit (1,000 frames), as a contest judge's Python would too."""


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


def run_end(s: str, i: int) -> int:
    """The first position after the run of cuttable positions that holds ``i``."""
    if i < len(s) and s[i - 2] == s[i]:
        return run_end(s, i + 1)
    return i


def main() -> None:
    s = sys.stdin.readline().strip()
    n = len(s)
    runs = []
    i = 2
    while i < n:
        if s[i - 2] == s[i]:
            start = i
            i = run_end(s, i)
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
