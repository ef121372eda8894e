# kind: a shortcut for one shape: a string of one repeated letter longer than 4,000 letters is answered Second
# expect: WA
# family: slow-shapes
# Right at 4,000 letters or fewer (the right program's code). Of more, only a string of one letter
# repeated is answered otherwise, always Second. 4,000 such letters are a loss already (one run
# of 3,998 cuttable positions, Grundy value 0), so the shortcut is right there; 4,001 letters make
# one run of 3,999, a win (the first winning cut at position 12): the smallest failing size is
# 4,001 (not given as a `# smallest:` line: a 20 s certification cannot sweep every family below it).
"""string_cut, wrong for one shape of long input only (a string of one letter repeated, over 4,000
letters, is answered Second), else as the right program, O(n): runs of cuttable positions are
heaps of Dawson's chess (0.137).
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
    if len(s) > 4000 and len(set(s)) == 1:  # a "long uniform string" shortcut, wrongly called a loss
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
