"""string_cut's fast solvers, both on the reduction to runs of cuttable positions.

Position ``i`` is cuttable while its piece has ``t[i-1] == t[i+1]`` inside it. Cutting at ``i``
makes ``i - 1`` and ``i + 1`` piece ends (never cuttable again) and leaves every other position
as it was, so the game is a sum over maximal runs of consecutive cuttable positions, and a cut
at the ``k``-th of ``L`` positions of a run leaves runs of ``max(0, k - 2)`` and
``max(0, L - k - 1)``: the octal game 0.137 (Dawson's chess). The reduction is checked against
the rules-only oracle exhaustively (``proofs/string_cut.py`` and the conformance tests).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from gamecert.kit.game import mex
from gamecert.kit.octal import OctalGame

RUN_GAME_CODE = "0.137"


def cuttable_runs(s: str) -> list[tuple[int, int]]:
    """Maximal runs of cuttable positions, as (first 1-based position, length).

    >>> cuttable_runs("abacaba")
    [(2, 1), (4, 1), (6, 1)]
    >>> cuttable_runs("aaaaa")
    [(2, 3)]
    """
    runs: list[tuple[int, int]] = []
    start = None
    for i in range(2, len(s)):
        if s[i - 2] == s[i]:
            if start is None:
                start = i
        elif start is not None:
            runs.append((start, i - start))
            start = None
    if start is not None:
        runs.append((start, len(s) - start))
    return runs


def _run_options(length: int, k: int) -> tuple[int, int]:
    return max(0, k - 2), max(0, length - k - 1)


def _solve(s: str, g: Callable[[int], int]) -> int | None:
    runs = cuttable_runs(s)
    total = 0
    for _, length in runs:
        total ^= g(length)
    if total == 0:
        return None
    for start, length in runs:  # runs are in increasing position order
        rest = total ^ g(length)
        for k in range(1, length + 1):
            a, b = _run_options(length, k)
            if rest ^ g(a) ^ g(b) == 0:
                return start + k - 1
    raise AssertionError("a non-zero Grundy value always has a move to zero")


_DP: list[int] = [0]


def run_grundy_dp(length: int) -> int:
    """Grundy value of a run, by the O(n^2) mex recurrence over every cut (table grown as needed).

    Cutting the k-th or the (L+1-k)-th position of a run leaves the same two runs, so half the
    cuts suffice.
    """
    g = _DP
    for size in range(len(g), length + 1):
        g.append(mex({g[max(0, k - 2)] ^ g[max(0, size - k - 1)] for k in range(1, (size + 1) // 2 + 1)}))
    return g[length]


def quadratic_dp(s: str) -> int | None:
    """O(n^2) dynamic programme over run lengths, then one pass for the smallest winning cut.

    >>> quadratic_dp("abacaba"), quadratic_dp("abcde")
    (2, None)
    """
    return _solve(s, run_grundy_dp)


@cache
def _period_table():
    return OctalGame.parse(RUN_GAME_CODE).periodicity()


def run_grundy_periodic(length: int) -> int:
    """Grundy value of a run from the periodic table the periodicity theorem establishes."""
    return _period_table().grundy(length)


def periodic_table(s: str) -> int | None:
    """O(n): the run game's preperiod and period are computed (and proved) once, then looked up.

    >>> periodic_table("abacaba"), periodic_table("abcde")
    (2, None)
    """
    return _solve(s, run_grundy_periodic)


SOLVERS = {"quadratic_dp": quadratic_dp, "periodic_table": periodic_table}
