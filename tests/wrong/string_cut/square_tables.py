# kind: right answers, but memory grows with the square of the length: two n x n tables (over 256 MB at 5,000 letters)
# expect: MLE
"""Right on every input; a substring table per pair of positions, as a quadratic DP keeps, is
built before the O(n) answer: about 400 MB at 5,000 letters, under 256 MB up to about 4,000."""


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
    same = [[False] * n for _ in range(n)]  # same[i][j]: s[i] == s[j]
    centre = [[0] * n for _ in range(n)]
    for i in range(2, n):
        same[i - 2][i] = s[i - 2] == s[i]
        centre[i - 2][i] = int(same[i - 2][i])
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
