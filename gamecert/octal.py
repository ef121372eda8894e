"""Octal heap games as a family: the code is the game.

An octal code ``d0.d1d2d3...`` says, for each number ``j`` of tokens removed from one heap, how
the rest may be left: digit ``d_j`` is a sum of 1 (may leave no heap, i.e. take the whole heap),
2 (may leave one non-empty heap) and 4 (may leave two non-empty heaps). ``d0`` concerns moves
that take nothing and only split a heap, so only its 4 bit has a meaning (1 or 2 there would be
a move from a heap to itself: a loopy game, which the theory below does not cover). Examples:
Kayles is ``0.77``, Dawson's Kayles ``0.07``, Dawson's chess ``0.137``.

The periodicity theorem (R. K. Guy and C. A. B. Smith, "The G-values of various games", Proc.
Cambridge Philos. Soc. 52 (1956); E. R. Berlekamp, J. H. Conway and R. K. Guy, *Winning Ways*,
ch. 4; A. N. Siegel, *Combinatorial Game Theory*, AMS 2013, ch. IV): for an octal game whose code
has finitely many non-zero digits, the last of them ``d_k``, if ``G(n + p) = G(n)`` for every
``n`` with ``e <= n < 2e + p + k``, then ``G(n + p) = G(n)`` for every ``n >= e``.

Proof, so the corner cases are seen (by induction on ``n >= 2e + p + k``). A move from a heap
``m`` takes ``j <= k`` tokens and leaves heaps ``a >= b`` with ``a + b = m - j`` (``b = 0`` and
possibly ``a = 0`` for moves leaving one heap or none). Pair the moves of ``n + p`` and ``n``:

- leaving one heap ``c`` from ``n + p`` <-> leaving ``c - p`` from ``n``: ``c - p = n - j >= 2e + p``
  is a non-empty heap and ``G(c) = G(c - p)`` by induction;
- leaving two heaps ``a >= b`` from ``n + p`` <-> ``(a - p, b)`` from ``n``: ``a >= e + p`` since
  ``a + b >= 2e + 2p``, so ``G(a) = G(a - p)`` by induction -- **but** ``(a - p, b)`` is a legal
  two-heap move only if ``a - p >= 1``. With ``e >= 1`` that holds. With ``e = 0`` it fails for
  ``a = b = p``: the textbook condition with ``e = 0`` is *false* in general. Counterexample
  ``0.004`` (take 3 and split the rest in two): ``G = 0, 0, 0, 0, 0, 1, ...``; ``p = 1, e = 0``
  meets ``G(n + 1) = G(n)`` on ``0 <= n < 4`` but ``G(5) != G(4)``. So here the finite condition
  is checked on ``e <= n < 2 max(e, 1) + p + k`` (the theorem with ``e' = max(e, 1)`` plus the
  directly checked ``n = 0``), see :func:`theorem_range`.
- taking the whole heap cannot happen from ``n`` or ``n + p``, both larger than ``k``.

The argument uses only that each option leaves at most two heaps adding up to ``m - j`` with
``j <= k``, so it covers ``d0 = 4`` (``j = 0``) and codes whose first digits are zero. It does
not cover codes with infinitely many non-zero digits (such as "take the whole heap, whatever its
size"), nor "hexadecimal" digits (splitting into three or more heaps): :meth:`OctalGame.parse`
rejects those with a message saying so.

Besides the theory, this module builds every part of a registered game from a code
(:func:`octal_parts`): the :class:`~gamecert.game.Game`, the solvers, the Hypothesis strategies
and the claims, so a new heap game is a few lines per folder.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from gamecert.claims import Claim, ClaimRefuted, Evidence
from gamecert.errors import GamecertError, InputError, OutOfReach, UsageError
from gamecert.game import (
    ExhaustiveSpace,
    Explanation,
    Family,
    Game,
    drop_chunks,
    input_lines,
    mex,
    parse_int,
    partitions,
    reject_spaces,
    reject_trailing,
    require_line,
    shrink_targets,
)
from gamecert.tokens import INT32, AnswerReader


class NotPeriodicYet(GamecertError):
    """No period was established within the search limit (the game may still be periodic)."""


@dataclass(frozen=True)
class Periodicity:
    """``G(n + period) = G(n)`` for all ``n >= preperiod``, established by the theorem."""

    preperiod: int
    period: int
    #: G(0) .. G(preperiod + period - 1): enough to give every value
    values: tuple[int, ...]
    #: the theorem's finite condition was checked on ``preperiod <= n < checked_up_to``
    checked_up_to: int

    def grundy(self, n: int) -> int:
        """The value at any heap size.

        >>> Periodicity(1, 3, (0, 1, 2, 3), 6).grundy(1000)
        1
        """
        if n < 0:
            raise ValueError(f"a heap size is never negative, got {n}")
        if n < self.preperiod + self.period:
            return self.values[n]
        return self.values[self.preperiod + (n - self.preperiod) % self.period]

    def describe(self) -> str:
        return (
            f"preperiod {self.preperiod}, period {self.period}; finite condition checked on "
            f"{self.preperiod} <= n < {self.checked_up_to}"
        )


def theorem_range(preperiod: int, period: int, k: int) -> int:
    """End (exclusive) of the range of ``n`` the finite condition ``G(n + p) = G(n)`` is checked on.

    ``2 max(e, 1) + p + k``: the textbook ``2e + p + k`` is wrong for ``e = 0`` (module docstring).

    >>> theorem_range(52, 34, 3), theorem_range(0, 1, 3)
    (141, 6)
    """
    return 2 * max(preperiod, 1) + period + k


@dataclass(frozen=True)
class OctalGame:
    code: str
    #: digits[j] for j = 0, 1, 2, ...; digits[0] is the digit before the point
    digits: tuple[int, ...]

    @classmethod
    def parse(cls, code: str) -> OctalGame:
        """Read an octal code such as ``0.137``, ``.07`` or ``4.07``.

        >>> OctalGame.parse("0.137").digits
        (0, 1, 3, 7)
        >>> OctalGame.parse("0.8")
        Traceback (most recent call last):
        ...
        gamecert.errors.UsageError: octal code '0.8': digit 8 at place 1 is not octal (0-7); digits 8-f would be hexadecimal games (splitting into 3+ heaps), which the periodicity theorem used here does not cover
        """
        if not isinstance(code, str):
            raise UsageError(f"octal code must be text like '0.137', got {code!r}")
        text = code.strip()
        head, dot, tail = text.partition(".")
        if not dot or not tail:
            raise UsageError(f"octal code {code!r}: expected digits around a point, like 0.137 or .07")
        head = head or "0"
        for place, ch in enumerate(head[-1:] + tail):
            if "0" <= ch <= "7":
                continue
            if ch in "89" or "a" <= ch.lower() <= "f":
                raise UsageError(
                    f"octal code {code!r}: digit {ch} at place {place} is not octal (0-7); digits 8-f would be "
                    "hexadecimal games (splitting into 3+ heaps), which the periodicity theorem used here does not cover"
                )
            raise UsageError(
                f"octal code {code!r}: {ch!r} at place {place} is not an octal digit; write a finite code like 0.137 "
                "(codes with infinitely many non-zero digits, such as 'take the whole heap, any size', are not covered)"
            )
        if len(head) != 1 or head not in "04":
            raise UsageError(
                f"octal code {code!r}: the digit before the point must be 0 or 4 (4: split a heap in two without "
                "taking); 1, 2 or 3 there would be a move that leaves the heap as it was, a loopy game"
            )
        digits = (int(head),) + tuple(int(ch) for ch in tail)
        if not any(digits):
            raise UsageError(f"octal code {code!r} allows no move at all")
        return cls(code=text, digits=digits)

    @property
    def k(self) -> int:
        """Largest number of tokens one move may take (index of the last non-zero digit)."""
        return max(j for j, d in enumerate(self.digits) if d)

    def options(self, n: int) -> Iterator[tuple[int, ...]]:
        """Heaps left after each move from one heap of ``n`` (each tuple sorted, no zeros).

        >>> sorted(set(OctalGame.parse("0.137").options(4)))
        [(1,), (2,)]
        >>> sorted(OctalGame.parse("4.0").options(4))
        [(1, 3), (2, 2)]
        """
        for j, d in enumerate(self.digits):
            rest = n - j
            if rest < 0:
                break
            if d & 1 and rest == 0 and j > 0:
                yield ()
            if d & 2 and rest > 0 and j > 0:
                yield (rest,)
            if d & 4 and rest >= 2:
                for a in range(1, rest // 2 + 1):
                    yield (a, rest - a)

    def sequence(self, length: int) -> list[int]:
        """``G(0) .. G(length - 1)`` by the mex rule (quadratic for splitting games; prefix cached).

        >>> OctalGame.parse("0.07").sequence(10)
        [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]
        """
        seq = self._seq
        for n in range(len(seq), length):
            values = set()
            for heaps in self.options(n):
                v = 0
                for h in heaps:
                    v ^= seq[h]
                values.add(v)
            seq.append(mex(values))
        return seq[:length]

    @cached_property
    def _seq(self) -> list[int]:
        return []

    @cached_property
    def _periodicities(self) -> dict[int, Periodicity]:
        return {}

    def periodicity(self, limit: int = 20000) -> Periodicity:
        """Smallest period and its preperiod, established by the periodicity theorem.

        Computes ``G`` on growing ranges (up to ``limit`` values) until, for the smallest ``p``
        that fits the data, the theorem's finite condition holds.

        >>> p = OctalGame.parse("0.137").periodicity()
        >>> (p.preperiod, p.period)
        (52, 34)
        """
        if limit in self._periodicities:
            return self._periodicities[limit]
        length = 256
        while True:
            length = min(length, limit)
            seq = self.sequence(length)
            found = _first_proved_period(seq, self.k)
            if found is not None:
                e, p = found
                result = Periodicity(e, p, tuple(seq[: e + p]), theorem_range(e, p, self.k))
                self._periodicities[limit] = result
                return result
            if length >= limit:
                raise NotPeriodicYet(
                    f"octal game {self.code}: no period established within the first {limit} values "
                    f"(the theorem needs G(n + p) = G(n) on e <= n < 2 max(e, 1) + p + {self.k}); "
                    "raise the limit, or the game may not be periodic at all"
                )
            length *= 2

    def grundy(self, n: int) -> int:
        return self.periodicity().grundy(n)


def _first_proved_period(seq: list[int], k: int) -> tuple[int, int] | None:
    """(preperiod, period) for the smallest period the theorem proves from ``seq``, if any.

    The smallest such ``p`` is the sequence's smallest eventual period: if ``q`` is an eventual
    period and ``p`` one from ``e``, then ``q`` is one from ``e`` too, and its condition fits in
    the data whenever ``p``'s does (``q <= p``, the same ``e`` or a smaller one).

    >>> _first_proved_period([0, 0, 0, 0, 0], 3) is None  # 0.004: e = 0, p = 1 is not enough
    True
    """
    n = len(seq)
    for p in range(1, n // 2):
        # smallest e with seq[m + p] == seq[m] for all e <= m < n - p
        e = n - p
        while e > 0 and seq[e - 1 + p] == seq[e - 1]:
            e -= 1
        # the condition needs G(m + p) == G(m) for e <= m < theorem_range: m + p < n
        if theorem_range(e, p, k) + p <= n:
            return e, p
    return None


# ---- claims about a heap game's sequence -------------------------------------------------------

def check_periodic_table(
    game: OctalGame,
    preperiod: int,
    period: int,
    values: Sequence[int],
    claim: str = "periodic table",
) -> Evidence:
    """Prove a claimed table for every heap size, or refute it at the first size where it breaks.

    The claim: ``G(n) = values[n]`` for ``n < preperiod + period`` and ``G(n) = G(n - period)``
    after. Compared with the mex sequence on ``0 <= n < theorem_range + period``, in order (so a
    :class:`ClaimRefuted` names the smallest wrong ``n``); if all agree, the finite condition of the
    theorem holds there and the claim holds for every ``n``.

    >>> g = OctalGame.parse("0.07")
    >>> check_periodic_table(g, 0, 4, [0, 0, 1, 1])
    Traceback (most recent call last):
    ...
    gamecert.claims.ClaimRefuted: periodic table: fails at 4: the table gives G(4) = 0, the mex rule gives 2
    """
    values = tuple(values)
    if preperiod < 0 or period < 1:
        raise UsageError(f"{claim}: preperiod must be >= 0 and period >= 1, got {preperiod} and {period}")
    if len(values) != preperiod + period:
        raise UsageError(
            f"{claim}: the table must give G(0) .. G(preperiod + period - 1), {preperiod + period} values, got {len(values)}"
        )
    table = Periodicity(preperiod, period, values, theorem_range(preperiod, period, game.k))
    end = table.checked_up_to + period
    seq = game.sequence(end)
    for n in range(end):
        if table.grundy(n) != seq[n]:
            raise ClaimRefuted(claim, n, f"the table gives G({n}) = {table.grundy(n)}, the mex rule gives {seq[n]}")
    return Evidence(
        "all sizes",
        f"octal {game.code}: G(n + {period}) = G(n) for all n >= {preperiod} by the periodicity theorem, its finite "
        f"condition checked on {preperiod} <= n < {table.checked_up_to} (table matches the mex rule on 0..{end - 1})",
    )


def check_period(game: OctalGame, preperiod: int, period: int, claim: str = "period") -> Evidence:
    """Prove or refute ``G(n + period) = G(n)`` for all ``n >= preperiod``; refutation names the
    first ``n + period`` where the sequence does not repeat.

    >>> check_period(OctalGame.parse("0.137"), 52, 17)
    Traceback (most recent call last):
    ...
    gamecert.claims.ClaimRefuted: period: fails at 69: G(69) = 1 but G(52) = 3
    """
    if preperiod < 0 or period < 1:
        raise UsageError(f"{claim}: preperiod must be >= 0 and period >= 1, got {preperiod} and {period}")
    end = theorem_range(preperiod, period, game.k)
    seq = game.sequence(end + period)
    for n in range(preperiod, end):
        if seq[n + period] != seq[n]:
            raise ClaimRefuted(claim, n + period, f"G({n + period}) = {seq[n + period]} but G({n}) = {seq[n]}")
    return Evidence(
        "all sizes",
        f"octal {game.code}: periodicity theorem, finite condition checked on {preperiod} <= n < {end}",
    )


def periodicity_claim(game: OctalGame, limit: int = 20000) -> Claim:
    """The game's sequence is periodic from its preperiod with its smallest period, for all sizes.

    Guards the periodic-table solvers: their table comes from here. The check re-derives the
    theorem's finite condition, the minimality of the period (every smaller ``q`` fails somewhere
    past the preperiod) and of the preperiod (``G(e - 1 + p) != G(e - 1)``).
    """

    def check() -> Evidence:
        per = game.periodicity(limit)
        e, p = per.preperiod, per.period
        check_periodic_table(game, e, p, per.values, claim=f"octal {game.code} periodicity")
        seq = game.sequence(e + 2 * p)
        for q in range(1, p):  # a smaller eventual period would hold from e as well
            if all(seq[n + q] == seq[n] for n in range(e, e + p)):
                raise ClaimRefuted(f"octal {game.code} periodicity", q, f"period {p} is not the smallest: {q} also fits")
        if e > 0 and seq[e - 1 + p] == seq[e - 1]:
            raise ClaimRefuted(f"octal {game.code} periodicity", e - 1, f"the preperiod {e} is not the smallest")
        return Evidence(
            "all sizes",
            f"periodicity theorem (Guy-Smith 1956; Winning Ways ch. 4), n0 >= 1 form: G(n + {p}) = G(n) for all "
            f"n >= {e}; condition checked on {e} <= n < {per.checked_up_to}; {p} is the smallest period, {e} the "
            "smallest preperiod",
        )

    return Claim(
        f"octal {game.code}: periodicity",
        f"the Grundy sequence of octal game {game.code} is eventually periodic; its smallest period and preperiod, "
        "for every heap size",
        check,
        level="all sizes",
    )


def recurrence_claim(
    game: OctalGame, n_max: int | None = None, cap: int = 400, block: int = 25, limit: int = 20000
) -> Claim:
    """z3 confirms, with mex as constraints, that the sequence is the recurrence's only solution on
    ``0..n_max`` (default: the range the periodicity theorem reads, at most ``cap``).

    Guards the Python mex computation the theorem's finite condition is checked on.
    """

    def check() -> Evidence:
        from gamecert import smt

        top = n_max
        if top is None:
            per = game.periodicity(limit)
            top = min(cap, per.checked_up_to + per.period - 1)
        seq = game.sequence(top + 1)
        result = smt.mex_recurrence(top, lambda n: list(game.options(n)), seq.__getitem__, value_bits=_bits(seq), block=block)
        if result.first_mismatch is not None:
            n = result.first_mismatch
            raise ClaimRefuted(f"octal {game.code}: z3 recurrence", n, f"z3's solution has G({n}) = {result.solution[n]}, the sequence {seq[n]}")
        return Evidence(
            "bounded",
            f"0 <= n <= {top}: z3 shows the mex recurrence's only solution is the computed sequence "
            f"({result.constraints} constraints, {result.blocks} blocks, {_bits(seq)}-bit values)",
        )

    return Claim(
        f"octal {game.code}: z3 recurrence",
        f"the computed Grundy sequence of octal game {game.code} is the only solution of the mex recurrence (z3, bounded)",
        check,
        level="bounded",
    )


def _bits(seq: Sequence[int]) -> int:
    """Bit-vector width holding every value and their xors, with room for one more value."""
    return max(2, (max(seq, default=0) + 1).bit_length() + 1)


# ---- a registered game from a code ---------------------------------------------------------------

MAX_HEAPS = 100
MAX_HEAP = 1000
#: winning moves an explanation lists (all are counted)
SHOWN_MOVES = 12
#: moves of an explanation's line of play before it is cut
LINE_STEPS = 60


class OctalAnswer(NamedTuple):
    """An answer of a heap game: who wins and, when the first player does, a winning move.

    ``move`` is ``(i, a, b)``: heap ``i`` (1-based, in input order) is replaced by heaps of ``a``
    and ``b`` tokens, ``a >= b``, 0 standing for no heap; the move takes ``h_i - a - b`` tokens.
    Written ``Second``, or ``First`` and a line ``i a b`` (see :class:`OctalHeapGame`).
    """

    winner: str
    move: tuple[int, int, int] | None = None


def _pair(left: tuple[int, ...]) -> tuple[int, int]:
    """Heaps left by a move (an :meth:`OctalGame.options` tuple) as ``(a, b)``, ``a >= b``, 0 for none.

    >>> _pair(()), _pair((5,)), _pair((2, 3))
    ((0, 0), (5, 0), (3, 2))
    """
    if not left:
        return (0, 0)
    if len(left) == 1:
        return (left[0], 0)
    return (max(left), min(left))


def _shown(a: int, b: int) -> str:
    return f"{a} + {b}" if b else str(a) if a else "nothing"


def _mex_dp(digits: tuple[int, ...], table: list[int], upto: int) -> None:
    """Extend ``table`` (Grundy values) to ``upto``, enumerating moves straight from the digits.

    Written apart from :meth:`OctalGame.options` so the two solvers are independent.
    """
    for n in range(len(table), upto + 1):
        seen = set()
        for j in range(min(n, len(digits) - 1) + 1):
            d, r = digits[j], n - j
            if j and d & 1 and r == 0:
                seen.add(0)
            if j and d & 2 and r:
                seen.add(table[r])
            if d & 4:
                seen.update(table[a] ^ table[r - a] for a in range(1, r))
        table.append(mex(seen))


def _first_move_to(digits: tuple[int, ...], g: Callable[[int], int], h: int, target: int) -> tuple[int, int] | None:
    """The first move from a heap of ``h`` to value ``target`` in the canonical order (fewest
    tokens taken, then smallest second heap), as ``(a, b)``; ``None`` if there is none.

    >>> _first_move_to((0, 0, 7), [0, 0, 1, 1, 2, 0, 3, 1].__getitem__, 7, 0)  # 0.07: 7 -> 5
    (5, 0)
    """
    for j, d in enumerate(digits):
        r = h - j
        if r < 0:
            break
        if j and r == 0 and d & 1 and target == 0:
            return (0, 0)
        if j and r and d & 2 and g(r) == target:
            return (r, 0)
        if d & 4:
            for b in range(1, r // 2 + 1):
                if g(r - b) ^ g(b) == target:
                    return (r - b, b)
    return None


def _last_move_to(digits: tuple[int, ...], table: list[int], h: int, target: int) -> tuple[int, int] | None:
    """The last move from a heap of ``h`` to value ``target`` in the canonical order (most tokens
    taken, then largest second heap), as ``(a, b)``; ``None`` if there is none.

    >>> _last_move_to((0, 0, 7), [0, 0, 1, 1, 2, 0, 3, 1], 7, 0)  # 0.07: 7 -> 3 + 2, not 7 -> 5
    (3, 2)
    """
    for j in range(min(h, len(digits) - 1), -1, -1):
        d, r = digits[j], h - j
        if d & 4:
            for b in range(r // 2, 0, -1):
                if table[r - b] ^ table[b] == target:
                    return (r - b, b)
        if j and r and d & 2 and table[r] == target:
            return (r, 0)
        if j and not r and d & 1 and target == 0:
            return (0, 0)
    return None


class OctalHeapGame(Game):
    """Heaps of tokens under an octal code; the player who cannot move loses.

    Input: line 1 ``m`` (1..100), line 2 the ``m`` heap sizes (1..1000), single spaces.
    Output: ``Second`` if the player to move loses; otherwise ``First`` and, on the next line, a
    winning move ``i a b``: heap ``i`` (1-based) becomes heaps of ``a`` and ``b`` tokens, 0 for
    no heap (so ``i 0 0`` takes the whole heap, ``i a 0`` leaves one heap of ``a``); the move
    takes ``h_i - a - b`` tokens, and ``a`` and ``b`` may come in either order. Any winning move
    is right (:meth:`judge` checks it against the position); the canonical answer names the
    first in input order: smallest ``i``, then fewest tokens taken, then smallest second heap.

    Size is the total number of tokens. The oracle is Sprague-Grundy (heaps are independent),
    the minimax searches whole positions (sorted heap tuples) from the rules.
    """

    time_limit = 1.0
    memory_limit_mb = 256
    minimax_reach = 12
    max_batch = 1

    def __init__(self, name: str, octal: OctalGame, max_heaps: int = MAX_HEAPS, max_heap: int = MAX_HEAP) -> None:
        self.name = name  # type: ignore[misc]  # per instance: one class serves every code
        self.title = f"octal game {octal.code}"  # type: ignore[misc]
        self.rules = _octal_rules(octal)  # type: ignore[misc]
        self.input_format = (  # type: ignore[misc]
            f"Line 1: m (1 <= m <= {max_heaps}), the number of heaps. Line 2: the m heap sizes "
            f"(1 to {max_heap} each), separated by single spaces."
        )
        self.output_format = (  # type: ignore[misc]
            "Second if the player to move loses; otherwise First and, on the next line, a winning move "
            "'i a b': heap i (1-based) becomes heaps of a and b tokens (0: no heap; either order). "
            "Any winning move is accepted."
        )
        self.octal = octal
        self.max_heaps = max_heaps
        self.max_heap = max_heap
        self.max_size = max_heaps * max_heap  # type: ignore[misc]
        self.oracle_reach = self.max_size  # type: ignore[misc]
        #: heap size -> {Grundy value of an option: [how many moves reach it, the first few (a, b)]}
        self._index: dict[int, dict[int, list[Any]]] = {}

    @cached_property
    def samples(self) -> tuple[tuple[str, str], ...]:  # type: ignore[override]
        """Small positions answered by the plain minimax (an independent route: the samples
        check compares them with the oracle, winning move included), and one large position
        answered by the oracle, to show the format at full heap sizes."""
        out = []
        for heaps in ((1,), (2,), (3,), (1, 2), (2, 2), (4, 5), (1, 2, 3, 4), (3, 4, 5)):
            if len(heaps) <= self.max_heaps and max(heaps) <= self.max_heap and sum(heaps) <= self.minimax_reach:
                out.append((self.format_input(heaps), self.format_answer(self.minimax(heaps))))
        top = self.max_heap
        big = tuple(h for h in (top, top - 1, top // 2 + 1, 7) if 1 <= h <= top)[: self.max_heaps]
        out.append((self.format_input(big), self.format_answer(self.oracle(big))))
        return tuple(out)

    def parse_input(self, text: str) -> tuple[int, ...]:
        lines = input_lines(text)
        m = parse_int(require_line(lines, 0, "m, the number of heaps"), 1, "m", 1, self.max_heaps)
        line = require_line(lines, 1, f"{m} heap sizes separated by single spaces")
        reject_spaces(line, 2)
        tokens = line.split(" ")
        if len(tokens) != m:
            raise InputError(2, f"expected m = {m} heap sizes separated by single spaces, got {len(tokens)} fields")
        heaps = []
        column = 1
        for tok in tokens:
            if not tok:
                raise InputError(2, "two spaces in a row", column=column)
            try:
                heaps.append(parse_int(tok, 2, "a heap size", 1, self.max_heap))
            except InputError as exc:
                raise InputError(2, exc.rule, column=column) from None
            column += len(tok) + 1
        reject_trailing(lines, 2)
        return tuple(heaps)

    def format_input(self, instance: tuple[int, ...]) -> str:
        return f"{len(instance)}\n{' '.join(map(str, instance))}\n"

    def size(self, instance: tuple[int, ...]) -> int:
        return sum(instance)

    # ---- answers -------------------------------------------------------------------------
    def parse_answer(self, text: str, instance: tuple[int, ...]) -> OctalAnswer:
        """``Second``, or ``First`` and three integers ``i a b``: ``i`` positive (the judge says
        when there is no heap ``i``), ``a`` and ``b`` in ``0..max_heap`` (:mod:`gamecert.tokens`).

        >>> g = octal_parts("0.07").game
        >>> g.parse_answer("First\\n2 0 3\\n", (1, 5))
        OctalAnswer(winner='First', move=(2, 3, 0))
        """
        reader = AnswerReader(text)
        if reader.word(("First", "Second"), "First or Second") == "Second":
            reader.finish()
            return OctalAnswer("Second")
        i = reader.integer(1, INT32[1], "the heap i of the move 'i a b'")
        x = reader.integer(0, self.max_heap, "the heap a of the move 'i a b'")
        y = reader.integer(0, self.max_heap, "the heap b of the move 'i a b'")
        reader.finish()
        return OctalAnswer("First", (i, max(x, y), min(x, y)))

    def format_answer(self, answer: OctalAnswer) -> str:
        if answer.move is None:
            return f"{answer.winner}\n"
        i, a, b = answer.move
        return f"{answer.winner}\n{i} {a} {b}\n"

    def first_player_wins(self, answer: OctalAnswer) -> bool:
        return answer.winner == "First"

    def judge(self, instance: tuple[int, ...], got: Any, expected: Any) -> str | None:
        """``None`` if ``got`` names the right winner and, for the first player, a legal move that
        leaves a position of Grundy value 0; else why not. ``expected`` is not compared: any
        winning move is right.

        >>> g = octal_parts("0.07").game
        >>> g.judge((4,), OctalAnswer("First", (1, 2, 0)), g.oracle((4,)))
        'losing move: heap 1 (4) -> 2 leaves Grundy xor 1, not 0 (the second player wins from there); a winning move is 1 1 1'
        """
        if not isinstance(got, OctalAnswer) or got.winner not in ("First", "Second"):
            return f"not an answer of this game: {got!r}"
        seq = self._values(max(instance, default=0))
        total = 0
        for h in instance:
            total ^= seq[h]
        best = self.oracle(instance)
        canonical = " ".join(map(str, best.move)) if best.move else ""
        if got.winner == "Second":
            if not total:
                return None
            return f"wrong winner: the first player wins (Grundy xor {total}), e.g. with the move {canonical}; got Second"
        if not total:
            return (
                f"wrong winner: the second player wins (Grundy xor 0: every move leaves a non-zero xor); got First "
                f"with {' '.join(map(str, got.move or ()))}"
            )
        if got.move is None or len(got.move) != 3:
            return f"First needs a winning move 'i a b'; got {got!r}"
        i, a, b = got.move
        a, b = max(a, b), min(a, b)
        if not 1 <= i <= len(instance):
            return f"illegal move: there is no heap {i} (heaps are numbered 1..{len(instance)})"
        h = instance[i - 1]
        why = self._illegal(h, a, b)
        if why:
            return f"illegal move: heap {i} ({h}) -> {_shown(a, b)}: {why}"
        after = total ^ seq[h] ^ seq[a] ^ seq[b]
        if after:
            return (
                f"losing move: heap {i} ({h}) -> {_shown(a, b)} leaves Grundy xor {after}, not 0 (the second player "
                f"wins from there); a winning move is {canonical}"
            )
        return None

    def _illegal(self, h: int, a: int, b: int) -> str | None:
        """Why heap ``h`` -> heaps ``a >= b`` (0 for none) is not a move of the code, or ``None``."""
        taken = h - a - b
        if taken < 0:
            return f"the heap has only {h} tokens, {a + b} cannot be left"
        parts = (a > 0) + (b > 0)
        bit, what = ((1, "no heap"), (2, "one heap"), (4, "two heaps"))[parts]
        digit = self.octal.digits[taken] if taken < len(self.octal.digits) else 0
        if parts < 2 and taken == 0:
            return "that takes nothing and leaves the heap as it was"
        if not digit & bit:
            return (
                f"taking {taken} and leaving {what} is not a move of octal {self.octal.code} "
                f"(digit {taken} of the code is {digit}, which lacks the {bit})"
            )
        return None

    # ---- the searches ----------------------------------------------------------------------
    def minimax(self, instance: tuple[int, ...]) -> OctalAnswer:
        """Whole positions from the rules, no Grundy values: the first move (canonical order)
        that leaves a position where the player to move loses, else ``Second``."""
        if self.size(instance) > self.minimax_reach:
            raise OutOfReach(f"{self.name} minimax is built for at most {self.minimax_reach} tokens in all")
        heaps = tuple(instance)
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1 :]
            for left in self.octal.options(h):
                if not _to_move_wins(self.octal, tuple(sorted(rest + left))):
                    return OctalAnswer("First", (i + 1, *_pair(left)))
        return OctalAnswer("Second")

    def _values(self, upto: int) -> list[int]:
        """The Grundy values ``G(0..)``, grown to cover heap ``upto`` (shared: read only)."""
        seq = self.octal._seq
        if len(seq) <= upto:
            self.octal.sequence(upto + 1)
        return seq

    def grundy(self, heap: int) -> int:
        return self._values(heap)[heap]

    def _moves_by_value(self, h: int) -> dict[int, list[Any]]:
        """For a heap of ``h``: each option value -> [number of moves reaching it, the first
        :data:`SHOWN_MOVES` of them as ``(a, b)`` in canonical order]."""
        found = self._index.get(h)
        if found is None:
            seq = self._values(h)
            found = {}
            for left in self.octal.options(h):  # each move once, in canonical order
                v = 0
                for x in left:
                    v ^= seq[x]
                entry = found.get(v)
                if entry is None:
                    entry = found[v] = [0, []]
                entry[0] += 1
                if len(entry[1]) < SHOWN_MOVES:
                    entry[1].append(_pair(left))
            self._index[h] = found
        return found

    def oracle(self, instance: tuple[int, ...]) -> OctalAnswer:
        """Sprague-Grundy: the xor of the heaps' values; the canonical winning move from each
        heap's table of option values."""
        seq = self._values(max(instance, default=0))
        total = 0
        for h in instance:
            total ^= seq[h]
        if not total:
            return OctalAnswer("Second")
        for i, h in enumerate(instance, 1):
            entry = self._moves_by_value(h).get(seq[h] ^ total)
            if entry:
                return OctalAnswer("First", (i, *entry[1][0]))
        raise AssertionError(f"{self.name}: a non-zero xor with no move to zero contradicts Sprague-Grundy")

    def explain(self, instance: tuple[int, ...]) -> Explanation:
        seq = self._values(max(instance, default=0))
        components = tuple((f"heap {i} ({h} tokens)", seq[h]) for i, h in enumerate(instance, 1))
        total = 0
        for h in instance:
            total ^= seq[h]
        winning: list[str] = []
        count = heaps_with = 0
        if total:
            for i, h in enumerate(instance, 1):
                entry = self._moves_by_value(h).get(seq[h] ^ total)
                if entry:
                    count += entry[0]
                    heaps_with += 1
                    room = SHOWN_MOVES - len(winning)
                    winning.extend(f"{i} {a} {b} (heap {i}: {h} -> {_shown(a, b)})" for a, b in entry[1][:room])
        notes = [
            "A move 'i a b' replaces heap i by heaps of a and b tokens (0: no heap); any winning move is a right answer, "
            "the first listed is the canonical one."
        ]
        if count > len(winning):
            notes.append(f"{count} winning moves in all, on {heaps_with} heap(s); the first {len(winning)} are listed.")
        outcome = f"{'First' if total else 'Second'} wins (xor {total})"
        return Explanation(outcome, components, total, tuple(winning), self._line_of_play(instance), tuple(notes),
                           first_player_wins=bool(total))

    def _line_of_play(self, instance: tuple[int, ...]) -> tuple[str, ...]:
        """Both sides play the canonical winning move when they have one, else the first legal
        move; heaps are renumbered left to right after each move. Cut after LINE_STEPS moves."""
        heaps = list(instance)
        line: list[str] = []
        player, other = "First", "Second"
        for _ in range(LINE_STEPS):
            seq = self._values(max(heaps, default=0))
            x = 0
            for h in heaps:
                x ^= seq[h]
            move = None
            for k, h in enumerate(heaps):
                if x:
                    entry = self._moves_by_value(h).get(seq[h] ^ x)
                    first = entry[1][0] if entry else None
                else:
                    left = next(iter(self.octal.options(h)), None)
                    first = None if left is None else _pair(left)
                if first is not None:
                    move = (k, first)
                    break
            if move is None:
                line.append(f"{player} has no move and loses")
                return tuple(line)
            k, (a, b) = move
            line.append(f"{player}: heap {k + 1} ({heaps[k]}) -> {_shown(a, b)}")
            heaps[k : k + 1] = [h for h in (a, b) if h]
            player, other = other, player
        line.append(f"... (cut after {LINE_STEPS} moves, {sum(heaps)} tokens left in {len(heaps)} heaps)")
        return tuple(line)

    def exhaustive_spaces(self) -> list[ExhaustiveSpace]:
        reach = min(self.minimax_reach, self.max_size)
        return [
            ExhaustiveSpace(
                "heap-multisets",
                f"every multiset of heap sizes with at most {self.max_heaps} heaps and {reach} tokens in all",
                tuple(range(1, reach + 1)),
                lambda total: partitions(total, min(total, self.max_heap), self.max_heaps),
            )
        ]

    def smaller(self, instance: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Smaller inputs, largest cuts first: chunks of heaps dropped (halving sizes), two heaps
        merged into the smallest heap of their xor, then one heap made smaller, to 1, 2, ... up
        to one less. Every candidate is a valid input with fewer heaps, or as many and fewer tokens.

        >>> list(octal_parts("0.07").game.smaller((4, 1)))  # G(4) ^ G(1) = 2, first at heap 4
        [(1,), (4,), (4,), (1, 1), (2, 1), (3, 1)]
        """
        heaps = tuple(instance)
        if len(heaps) > 1:
            yield from drop_chunks(heaps)
            yield from self._merged(heaps)
        for k, h in enumerate(heaps):
            for less in shrink_targets(h):
                yield heaps[:k] + (less,) + heaps[k + 1 :]

    def _merged(self, heaps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Two heaps replaced by the smallest heap of the xor of their Grundy values (both
        dropped when it is 0): one heap fewer, the same winner for a right solver."""
        seq = self._values(self.max_heap)
        smallest: dict[int, int] = {}
        for h in range(self.max_heap, 0, -1):
            smallest[seq[h]] = h
        for i, j in itertools.combinations(range(len(heaps)), 2):
            value = seq[heaps[i]] ^ seq[heaps[j]]
            rest = heaps[:i] + heaps[i + 1 : j] + heaps[j + 1 :]
            if value == 0 and rest:
                yield rest
            elif value in smallest:
                yield heaps[:i] + (smallest[value],) + heaps[i + 1 : j] + heaps[j + 1 :]


def _octal_rules(octal: OctalGame) -> str:
    """The rules of a heap game in words, from its code's digits.

    >>> print(_octal_rules(OctalGame.parse("0.07")))
    Heaps of tokens (octal game 0.07); players alternate and the player who cannot move loses. A move takes 2 tokens from a heap, leaving nothing, one heap or two heaps.
    """
    kinds = ("nothing", "one heap", "two heaps")
    moves = []
    for k, digit in enumerate(octal.digits):
        leaves = [kinds[bit] for bit in range(3) if digit >> bit & 1]
        if not leaves:
            continue
        what = "splits a heap in two without taking any" if k == 0 else f"takes {k} token{'s' if k > 1 else ''} from a heap, leaving"
        moves.append(what if k == 0 else f"{what} {_or(leaves)}")
    return (f"Heaps of tokens (octal game {octal.code}); players alternate and the player who cannot move loses. "
            f"A move {'; or '.join(moves)}.")


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


@functools.lru_cache(maxsize=None)
def _to_move_wins(octal: OctalGame, heaps: tuple[int, ...]) -> bool:
    """Plain minimax over whole positions (sorted heap tuples), from the rules."""
    for i, h in enumerate(heaps):
        for left in set(octal.options(h)):
            after = tuple(sorted(heaps[:i] + heaps[i + 1 :] + left))
            if not _to_move_wins(octal, after):
                return True
    return False


def _tiled(args: tuple[int, list[int]]) -> tuple[int, ...]:
    """``m`` heaps repeating a short drawn block: a large input from a few drawn values."""
    m, block = args
    return tuple(block[k % len(block)] for k in range(m))


def _seeded(args: tuple[int, int, int, int]) -> tuple[int, ...]:
    """``m`` heaps drawn in ``low..high`` by a seeded generator: varied large inputs from four draws."""
    import random

    m, low, high, seed = args
    rng = random.Random(seed)
    return tuple(rng.randint(low, high) for _ in range(m))


@dataclass(frozen=True)
class OctalParts:
    """Every part of a registered heap game, built from its octal code. See :func:`octal_parts`."""

    name: str
    octal: OctalGame
    game: OctalHeapGame
    #: how many values the period search may compute (quadratic for splitting games)
    limit: int = 4096
    _table: list[int] = field(default_factory=lambda: [], repr=False)
    #: (heap, target value) -> winning move (a, b) or None, one cache per solver
    _table_moves: dict[tuple[int, int], Any] = field(default_factory=dict, repr=False)
    _dp_moves: dict[tuple[int, int], Any] = field(default_factory=dict, repr=False)

    # ---- fast/ ----------------------------------------------------------------------------
    def periodic_table(self, instance: tuple[int, ...]) -> OctalAnswer:
        """Grundy values from the table the periodicity theorem establishes: O(1) a heap; the
        canonical winning move (first heap, fewest tokens taken, smallest second heap), found by
        enumerating the moves of each heap from the digits.

        For a code not shown periodic within ``limit`` values this raises
        :class:`NotPeriodicYet`; ``mex_dp`` still works.
        """
        per = self.octal.periodicity(self.limit)
        g = per.grundy
        total = 0
        for h in instance:
            total ^= g(h)
        if not total:
            return OctalAnswer("Second")
        for i, h in enumerate(instance, 1):
            key = (h, g(h) ^ total)
            if key not in self._table_moves:
                self._table_moves[key] = _first_move_to(self.octal.digits, g, *key)
            move = self._table_moves[key]
            if move is not None:
                return OctalAnswer("First", (i, *move))
        raise AssertionError(f"{self.name}: no move to xor 0 from a non-zero position")

    def mex_dp(self, instance: tuple[int, ...]) -> OctalAnswer:
        """Direct mex dynamic programme over heap sizes, grown to the largest heap asked. Names
        the *last* winning move (last heap, most tokens taken, largest second heap): a different
        right answer from the canonical one, which only the game's judge accepts."""
        _mex_dp(self.octal.digits, self._table, max(instance))
        table = self._table
        total = 0
        for h in instance:
            total ^= table[h]
        if not total:
            return OctalAnswer("Second")
        for i in range(len(instance), 0, -1):
            h = instance[i - 1]
            key = (h, table[h] ^ total)
            if key not in self._dp_moves:
                self._dp_moves[key] = _last_move_to(self.octal.digits, table, *key)
            move = self._dp_moves[key]
            if move is not None:
                return OctalAnswer("First", (i, *move))
        raise AssertionError(f"{self.name}: no move to xor 0 from a non-zero position")

    @property
    def solvers(self) -> dict[str, Callable[[Any], Any]]:
        return {"periodic_table": self.periodic_table, "mex_dp": self.mex_dp}

    # ---- strategies/ ----------------------------------------------------------------------
    def instances(self) -> Any:
        """Heap lists over the whole input space, corners weighted in: one heap, many heaps,
        heaps at the largest size, heaps around the end of the preperiod.

        Large inputs are built from a few drawn values (a short block tiled to ``m`` heaps, or
        ``m`` heaps from a seeded generator), so Hypothesis draws and shrinks them cheaply.
        """
        from hypothesis import strategies as st

        g = self.game
        size = st.integers(1, g.max_heap)
        count = st.one_of(st.integers(1, g.max_heaps), st.just(g.max_heaps))  # the maximum weighted in
        small = st.integers(1, min(g.max_heap, 40))
        corners = [
            st.tuples(count, st.lists(size, min_size=1, max_size=4)).map(_tiled),
            st.tuples(count, st.just(1), size, st.integers(0, 2**32 - 1)).map(_seeded),
            st.lists(small, min_size=1, max_size=8).map(tuple),
            size.map(lambda h: (h,)),
            st.just(tuple([g.max_heap] * g.max_heaps)),
            st.tuples(count, st.lists(st.sampled_from([1, 2, 3, g.max_heap]), min_size=1, max_size=4)).map(_tiled),
        ]
        edge = self._edge_sizes()
        if edge:
            corners.append(st.lists(st.sampled_from(edge), min_size=1, max_size=6).map(tuple))
        return st.one_of(corners)

    def oracle_instances(self) -> Any:
        """The oracle's tables reach every allowed heap (and it is O(m) a position once they are
        built): the same space."""
        return self.instances()

    def features(self, instance: tuple[int, ...]) -> Iterator[str]:
        from gamecert.coverage import bucket

        g = self.game
        yield "heaps " + bucket(len(instance), (1, 2, 8, g.max_heaps - 1, g.max_heaps))
        yield "largest heap " + bucket(max(instance), (1, 3, 40, g.max_heap - 1, g.max_heap))
        edge = self._edge_sizes()
        if edge and any(h >= max(edge) for h in instance):
            yield "a heap past the preperiod"
        answer = g.oracle(instance)
        if answer.move is None:
            yield "second player wins"
        else:
            yield "first player wins"
            _, a, b = answer.move
            yield "the canonical winning move " + ("splits a heap" if b else "leaves one heap" if a else "takes a whole heap")

    def largest(self) -> list[tuple[int, ...]]:
        g = self.game
        return [tuple([g.max_heap] * g.max_heaps), tuple(range(g.max_heap, g.max_heap - g.max_heaps, -1)), (g.max_heap,)]

    # ---- designed families (component coverage and worst cases) -----------------------------
    def coverage(self) -> list[Family]:
        """Every heap size alone and beside a heap of the same value (xor 0); every heap count."""
        g = self.game
        top, most = g.max_heap, g.max_heaps

        def mixed() -> Iterator[tuple[int, ...]]:
            for h in range(1, top + 1):
                twin = next((t for t in range(1, top + 1) if t != h and g.grundy(t) == g.grundy(h)), h)
                yield (h, twin) if most >= 2 else (h,)

        def counts() -> Iterator[tuple[int, ...]]:
            import random

            rng = random.Random(8_18)
            return (tuple(rng.randint(1, top) for _ in range(m)) for m in range(1, most + 1))

        return [
            Family("heap-size-alone", f"every heap size 1..{top} as the only heap",
                   lambda: ((h,) for h in range(1, top + 1)), top),
            Family("heap-size-mixed", f"every heap size 1..{top} beside another heap of the same Grundy value "
                   "(xor 0: the second player wins)", mixed, top),
            Family("heap-count", f"every number of heaps 1..{most}, random sizes", counts, most),
        ]

    def worst_cases(self) -> list[Family]:
        """Maximal inputs with varied heaps, and a position whose only winning moves are in the
        last heap."""
        g = self.game
        top, most = g.max_heap, g.max_heaps

        def varied() -> list[tuple[int, ...]]:
            import random

            rng = random.Random(8_19)
            return [tuple([top] * most), tuple(rng.randint(max(1, top // 10), top) for _ in range(most))]

        return [
            Family("max-varied", f"{most} heaps of {top}; {most} random heaps", varied, 2, kind="worst",
                   adversary="input size: the most heaps at the largest sizes, varied"),
            Family("late-winning-move", "heaps of value 0 none of which can move to the last heap's value, then that "
                   "heap: every winning move is in the last heap", lambda: self._late_move()[:1],
                   len(self._late_move()[:1]), kind="worst",
                   adversary="a winning move as late as possible (a search that gives up early)"),
        ]

    def _late_move(self) -> list[tuple[int, ...]]:
        """One input (none if the code allows no such shape): ``max_heaps - 1`` heaps of the
        largest size ``h`` with value 0 that has no move to value ``v``, then the largest heap
        of value ``v > 0``."""
        g = self.game
        for last in range(g.max_heap, 0, -1):
            v = g.grundy(last)
            if not v:
                continue
            for h in range(g.max_heap, 0, -1):
                if g.grundy(h) == 0 and v not in g._moves_by_value(h):
                    return [(h,) * (g.max_heaps - 1) + (last,)]
            return []
        return []

    def _edge_sizes(self) -> list[int]:
        try:
            per = self.octal.periodicity(self.limit)
        except NotPeriodicYet:
            return []
        e, p = per.preperiod, per.period
        return sorted({h for h in (e - 1, e, e + 1, e + p - 1, e + p, e + 2 * p) if 1 <= h <= self.game.max_heap})

    # ---- proofs/ --------------------------------------------------------------------------
    @property
    def claims(self) -> list[Claim]:
        return [periodicity_claim(self.octal, self.limit), recurrence_claim(self.octal, limit=self.limit)]

    @property
    def plots(self) -> list[Callable[[], Any]]:
        return [functools.partial(plot_data, self.octal, self.name, self.limit)]

    def exports(self, part: str) -> dict[str, Any]:
        """What the module of ``part`` (``oracles``, ``fast``, ``strategies``, ``proofs``) defines.

        >>> sorted(octal_parts("0.07", "dawson_kayles").exports("strategies"))
        ['coverage', 'features', 'instances', 'largest', 'oracle_instances', 'worst_cases']
        """
        table = {
            "oracles": {"GAME": self.game},
            "fast": {"SOLVERS": self.solvers},
            "strategies": {
                "instances": self.instances,
                "oracle_instances": self.oracle_instances,
                "features": self.features,
                "largest": self.largest,
                "coverage": self.coverage,
                "worst_cases": self.worst_cases,
            },
            "proofs": {"CLAIMS": self.claims, "PLOTS": self.plots},
        }
        if part not in table:
            raise UsageError(f"unknown part {part!r}; the parts are {', '.join(table)}")
        return table[part]


@functools.cache
def octal_parts(code: str, name: str | None = None) -> OctalParts:
    """Every part of the heap game with octal ``code``, registered as ``name``.

    The same object is returned for the same arguments, so the four modules share it. Each
    module of the game is two lines, for example ``oracles/dawson_kayles.py``::

        from gamecert.octal import octal_parts
        globals().update(octal_parts("0.07", "dawson_kayles").exports("oracles"))

    (``fast``, ``strategies`` and ``proofs`` the same with their folder name.) The default name
    is ``octal_`` and the code's digits: ``octal_0_07``.

    >>> parts = octal_parts("0.07", "dawson_kayles")
    >>> parts.game.name, parts.game.solve_text("2\\n3 4\\n")  # G(3) ^ G(4) = 1 ^ 2; 4 -> 2 leaves 1 ^ 1
    ('dawson_kayles', 'First\\n2 2 0\\n')
    """
    octal = OctalGame.parse(code)
    if name is None:
        name = "octal_" + octal.code.replace(".", "_")
    if not name.isidentifier():
        raise UsageError(f"game name {name!r} must be a Python identifier (it is a module name)")
    return OctalParts(name, octal, OctalHeapGame(name, octal))


def plot_data(octal: OctalGame, name: str | None = None, limit: int = 20000) -> Any:
    """The sequence with its preperiod and period, for :mod:`gamecert.plots`."""
    from gamecert.plots import SequencePlot

    per = octal.periodicity(limit)
    length = max(per.checked_up_to + per.period, 3 * per.period + per.preperiod)
    return SequencePlot(
        name=name or "octal_" + octal.code.replace(".", "_"),
        title=f"octal game {octal.code}: Grundy values",
        values=tuple(octal.sequence(length)),
        preperiod=per.preperiod,
        period=per.period,
    )
