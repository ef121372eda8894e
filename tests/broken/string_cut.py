"""Broken string_cut solvers."""

from __future__ import annotations

from gamecert.fast.string_cut import (
    _solve,
    cuttable_runs,
    quadratic_dp,
    run_grundy_dp,
    run_grundy_periodic,
)

from gamecert.kit.octal import OctalGame
from tests.broken import Broken


def zero_based_position(s):
    answer = quadratic_dp(s)
    return None if answer is None else answer - 1


def largest_winning_cut(s):
    answer = quadratic_dp(s)
    if answer is None:
        return answer
    total = 0
    for _, length in cuttable_runs(s):
        total ^= run_grundy_dp(length)
    best = answer
    for start, length in cuttable_runs(s):
        for k in range(1, length + 1):
            rest = total ^ run_grundy_dp(length) ^ run_grundy_dp(max(0, k - 2)) ^ run_grundy_dp(max(0, length - k - 1))
            if rest == 0:
                best = start + k - 1
    return best


#: parsed once: a game object keeps its computed values, and a new one per call would recompute
#: the Grundy sequence up to the period's proof each time (about 20 ms a call)
RUNS = OctalGame.parse("0.137")


def _periodic_part_only(n):
    p = RUNS.periodicity()
    e, period = p.preperiod, p.period
    # exceptions before periodicity dropped: the periodic part extended backwards
    return p.grundy(e + (n - e) % period)


def exceptions_dropped(s):
    return _solve(s, _periodic_part_only)


def period_seventeen(s):
    return _solve(s, lambda n: run_grundy_periodic(n if n < 52 else 52 + (n - 52) % 17))


def gives_up_on_long_input(s):
    if len(s) > 3000:  # "too long to win anyway": a guard left in from debugging
        return None
    return quadratic_dp(s)


def same_letter_runs_missed(s):
    # treats "aaa" as no palindrome centre: only t[i-1] == t[i+1] != t[i]
    masked = list(s)
    for i in range(1, len(s) - 1):
        if s[i - 1] == s[i] == s[i + 1]:
            masked[i] = "#" if masked[i] != "#" else "$"
    result = quadratic_dp("".join(masked))
    return result


def seed_editorial(s):
    """The seed editorial's algorithm, transcribed as a function (O(n^3): small inputs only)."""
    n = len(s)
    grundy = [[0] * n for _ in range(n)]
    for length in range(1, n + 1):
        for l in range(n - length + 1):
            r = l + length - 1
            reachable = set()
            for i in range(l, r + 1):
                low = high = i
                while low >= l and high <= r and s[low] == s[high]:
                    left = grundy[l][low - 1] if low > l else 0
                    right = grundy[high + 1][r] if high < r else 0
                    reachable.add(left ^ right)
                    low -= 1
                    high += 1
            m = 0
            while m in reachable:
                m += 1
            grundy[l][r] = m
    if grundy[0][n - 1] == 0:
        return None
    for i in range(n):
        low = high = i
        while low >= 0 and high < n and s[low] == s[high]:
            left = grundy[0][low - 1] if low > 0 else 0
            right = grundy[high + 1][n - 1] if high < n - 1 else 0
            if left ^ right == 0:
                return i + 1
            low -= 1
            high += 1
    return None


BROKEN = {
    "zero_based_position": Broken(zero_based_position, "wrong index base", "prints the 0-based cut position"),
    "largest_winning_cut": Broken(largest_winning_cut, "off-by-one", "prints the largest winning cut, not the smallest"),
    "exceptions_dropped": Broken(exceptions_dropped, "wrong period", "periodic table with the exceptions before periodicity dropped"),
    "period_seventeen": Broken(period_seventeen, "wrong period", "period 17 instead of 34 past the preperiod"),
    "gives_up_on_long_input": Broken(gives_up_on_long_input, "large sizes only", "answers Second for every string over 3000 letters", smallest_size=3001),
    "same_letter_runs_missed": Broken(same_letter_runs_missed, "rare structure", "misses cuts inside runs of one letter"),
    "seed_editorial": Broken(seed_editorial, "wrong rules", "the seed editorial's DP (single letters as moves)"),
}
