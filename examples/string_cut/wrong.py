"""string_cut, wrong: assumes the run game's Grundy values repeat with period 34 from the start.

Dawson's chess (0.137) is only eventually periodic: a few run lengths below 52 break the
period, so reading g(L) as g(L mod 34) is wrong for a run of length 48, for instance. Every
short string is right; `gamecert certify string_cut examples/string_cut/wrong.py` needs its
random phase (long runs) to find it.
"""

import sys

PERIOD = 34


def first_period() -> list[int]:
    g = [0] * PERIOD
    for length in range(1, PERIOD):
        seen = {g[max(0, k - 2)] ^ g[max(0, length - k - 1)] for k in range(1, length + 1)}
        m = 0
        while m in seen:
            m += 1
        g[length] = m
    return g


def main() -> None:
    s = sys.stdin.readline().strip()
    n = len(s)
    g = first_period()

    def value(length: int) -> int:
        return g[length % PERIOD]  # wrong: ignores the preperiod

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
    print("Second")


if __name__ == "__main__":
    main()
