"""string_cut's fast solvers, both on the reduction to runs of cuttable positions.

Position ``i`` is cuttable while its piece has ``t[i-1] == t[i+1]`` inside it. Cutting at ``i``
makes ``i - 1`` and ``i + 1`` piece ends (never cuttable again) and leaves every other position
as it was, so the game is a sum over maximal runs of consecutive cuttable positions, and a cut
at the ``k``-th of ``L`` positions of a run leaves runs of ``max(0, k - 2)`` and
``max(0, L - k - 1)``: the octal game 0.137 (Dawson's chess). The reduction is checked against
the rules-only oracle exhaustively (``proofs/string_cut.py`` and the conformance tests).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache

from gamecert.kit.game import mex
from gamecert.kit.octal import OctalGame

RUN_GAME_CODE = "0.137"


#: a byte to 0 if it is 0 (equal letters two places apart), to 1 otherwise
_EQUAL_OR_NOT = bytes([0] + [1] * 255)


def _gaps(s: str) -> list[bytes] | None:
    """The runs of cuttable positions, in order, as the pieces between the positions that are not
    cuttable (empty where two of those are neighbours); None for text that is not one byte per
    letter.

    The string's bytes XOR the same bytes two places on are zero exactly where ``t[i-1] ==
    t[i+1]``: one XOR of two big integers, a translation and a split, all in C, where a loop over
    5,000 letters in Python was most of a certification's time. Piece ``j`` starts at 1-based
    position ``2 + sum(len(p) + 1 for p in pieces[:j])``.
    """
    n = len(s)
    if not s.isascii():
        return None
    if n < 3:
        return []
    b = s.encode("ascii")
    x = (int.from_bytes(b[:-2], "big") ^ int.from_bytes(b[2:], "big")).to_bytes(n - 2, "big")
    return x.translate(_EQUAL_OR_NOT).split(b"\x01")


def cuttable_runs(s: str) -> list[tuple[int, int]]:
    """Maximal runs of cuttable positions, as (first 1-based position, length).

    >>> cuttable_runs("abacaba")
    [(2, 1), (4, 1), (6, 1)]
    >>> cuttable_runs("aaaaa")
    [(2, 3)]
    >>> cuttable_runs("ab"), cuttable_runs("abab"), cuttable_runs("abcbcab")
    ([], [(2, 2)], [(3, 2)])
    """
    gaps = _gaps(s)
    return _cuttable_runs_by_letters(s) if gaps is None else list(_starts(gaps))


def _cuttable_runs_by_letters(s: str) -> list[tuple[int, int]]:
    """:func:`cuttable_runs`, one letter at a time (any text)."""
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


#: strings up to this long are split into runs by a loop (quicker than :func:`_gaps` on them)
_SHORT = 48


def _solve(s: str, g: Callable[[int], int]) -> int | None:
    """The smallest winning cut of ``s`` (None if the first player loses), with ``g`` the Grundy
    value of a run of cuttable positions by its length.

    Runs of the same length count once per length: their values cancel in pairs, and whether a
    run has a winning cut, and which, depends on its length alone (the rest of the position is
    the total without it). So the first winning run is the first whose length has one."""
    gaps = _gaps(s) if len(s) > _SHORT else None
    if gaps is None:  # a short string (or not one byte per letter): a loop is quicker
        starts = _cuttable_runs_by_letters(s)
        if len(starts) <= 8:  # a few runs: each run's value in turn (the pairs cancel all the same)
            return _solve_few(starts, g)
        lengths = [length for _, length in starts]
    else:
        starts = None
        lengths = [len(p) for p in gaps if p]
    if len(lengths) > 32:
        counts = Counter(lengths)
    else:
        counts = {}
        for length in lengths:
            counts[length] = counts.get(length, 0) + 1
    total = 0
    for length, count in counts.items():
        if count & 1:
            total ^= g(length)
    if total == 0:
        return None
    winning: dict[int, int] = {}
    found = _WINNING.get(g)
    if found is None:
        found = _WINNING.setdefault(g, {})
    for length in counts:
        rest = total ^ g(length)
        k = found.get((length, rest), 0)
        if k == 0:  # not searched yet
            k = found[length, rest] = _winning_cut(length, rest, g)
        if k is not None:
            winning[length] = k
    for start, length in (
        _starts(gaps) if starts is None else starts
    ):  # in increasing position order
        if length in winning:
            return start + winning[length] - 1
    raise AssertionError("a non-zero Grundy value always has a move to zero")


def _solve_few(runs: list[tuple[int, int]], g: Callable[[int], int]) -> int | None:
    """:func:`_solve` on a few runs (first 1-based position, length), in position order: the
    total is the XOR of every run's value (runs of the same length cancel in pairs as they are
    met), and the first run whose length has a winning cut holds the smallest."""
    total = 0
    for _, length in runs:
        total ^= g(length)
    if total == 0:
        return None
    found = _WINNING.get(g)
    if found is None:
        found = _WINNING.setdefault(g, {})
    for start, length in runs:
        rest = total ^ g(length)
        k = found.get((length, rest), 0)
        if k == 0:  # not searched yet
            k = found[length, rest] = _winning_cut(length, rest, g)
        if k is not None:
            return start + k - 1
    raise AssertionError("a non-zero Grundy value always has a move to zero")


#: by Grundy function: the smallest winning cut of a run of each length (None: none), by the value
#: of the rest of the position (every input of a certification asks it again, for a few lengths)
_WINNING: dict[Callable[[int], int], dict[tuple[int, int], int | None]] = {}


def _winning_cut(length: int, rest: int, g: Callable[[int], int]) -> int | None:
    """The smallest ``k`` for which cutting the ``k``-th position of a run of ``length`` leaves
    value 0 with the rest's value ``rest`` (None: no cut of this run wins)."""
    # cuts k and length + 1 - k leave the same two runs: the first half holds the smallest
    for k in range(1, (length + 1) // 2 + 1):
        if (
            rest ^ g(k - 2 if k > 2 else 0) ^ g(length - k - 1 if length > k + 1 else 0) == 0
        ):  # _run_options
            return k
    return None


def _starts(gaps: list[bytes]) -> Iterator[tuple[int, int]]:
    """(first 1-based position, length) of each run of :func:`_gaps`' pieces, lazily."""
    position = 2
    for piece in gaps:
        if piece:
            yield position, len(piece)
        position += len(piece) + 1


_DP: list[int] = [0]


def run_grundy_dp(length: int) -> int:
    """Grundy value of a run, by the O(n^2) mex recurrence over every cut (table grown as needed).

    Cutting the k-th or the (L+1-k)-th position of a run leaves the same two runs, so half the
    cuts suffice.
    """
    g = _DP
    for size in range(len(g), length + 1):
        g.append(
            mex({g[max(0, k - 2)] ^ g[max(0, size - k - 1)] for k in range(1, (size + 1) // 2 + 1)})
        )
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


#: the periodic table's values for the lengths of a run in a string of up to 5,000 letters,
#: listed once (a certification asks millions of times)
_PERIODIC: list[int] = []


def run_grundy_periodic(length: int) -> int:
    """Grundy value of a run from the periodic table the periodicity theorem establishes."""
    if 0 <= length < len(_PERIODIC):
        return _PERIODIC[length]
    if not _PERIODIC:
        table = _period_table()
        _PERIODIC.extend(table.grundy(n) for n in range(5001))
    return _period_table().grundy(length)


def periodic_table(s: str) -> int | None:
    """O(n): the run game's preperiod and period are computed (and proved) once, then looked up.

    >>> periodic_table("abacaba"), periodic_table("abcde")
    (2, None)
    """
    return _solve(s, run_grundy_periodic)


SOLVERS = {"quadratic_dp": quadratic_dp, "periodic_table": periodic_table}
