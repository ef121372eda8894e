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

This module is the theory: :class:`OctalGame` (a code, its moves and Grundy values),
:class:`Periodicity` and the claims that check it; :mod:`gamecert.kit.octal.game` builds a
registered game from a code.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from gamecert.errors import GamecertError, UsageError
from gamecert.kit.claims import Claim, ClaimRefuted, Evidence
from gamecert.kit.game import (
    mex,
)


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
            raise UsageError(
                f"octal code {code!r}: expected digits around a point, like 0.137 or .07"
            )
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
    gamecert.kit.claims.ClaimRefuted: periodic table: fails at 4: the table gives G(4) = 0, the mex rule gives 2
    """
    values = tuple(values)
    if preperiod < 0 or period < 1:
        raise UsageError(
            f"{claim}: preperiod must be >= 0 and period >= 1, got {preperiod} and {period}"
        )
    if len(values) != preperiod + period:
        raise UsageError(
            f"{claim}: the table must give G(0) .. G(preperiod + period - 1), {preperiod + period} values, got {len(values)}"
        )
    table = Periodicity(preperiod, period, values, theorem_range(preperiod, period, game.k))
    end = table.checked_up_to + period
    seq = game.sequence(end)
    for n in range(end):
        if table.grundy(n) != seq[n]:
            raise ClaimRefuted(
                claim, n, f"the table gives G({n}) = {table.grundy(n)}, the mex rule gives {seq[n]}"
            )
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
    gamecert.kit.claims.ClaimRefuted: period: fails at 69: G(69) = 1 but G(52) = 3
    """
    if preperiod < 0 or period < 1:
        raise UsageError(
            f"{claim}: preperiod must be >= 0 and period >= 1, got {preperiod} and {period}"
        )
    end = theorem_range(preperiod, period, game.k)
    seq = game.sequence(end + period)
    for n in range(preperiod, end):
        if seq[n + period] != seq[n]:
            raise ClaimRefuted(
                claim, n + period, f"G({n + period}) = {seq[n + period]} but G({n}) = {seq[n]}"
            )
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
                raise ClaimRefuted(
                    f"octal {game.code} periodicity",
                    q,
                    f"period {p} is not the smallest: {q} also fits",
                )
        if e > 0 and seq[e - 1 + p] == seq[e - 1]:
            raise ClaimRefuted(
                f"octal {game.code} periodicity", e - 1, f"the preperiod {e} is not the smallest"
            )
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
        from gamecert.kit import smt

        top = n_max
        if top is None:
            per = game.periodicity(limit)
            top = min(cap, per.checked_up_to + per.period - 1)
        seq = game.sequence(top + 1)
        result = smt.mex_recurrence(
            top,
            lambda n: list(game.options(n)),
            seq.__getitem__,
            value_bits=_bits(seq),
            block=block,
        )
        if result.first_mismatch is not None:
            n = result.first_mismatch
            raise ClaimRefuted(
                f"octal {game.code}: z3 recurrence",
                n,
                f"z3's solution has G({n}) = {result.solution[n]}, the sequence {seq[n]}",
            )
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


def plot_data(octal: OctalGame, name: str | None = None, limit: int = 20000) -> Any:
    """The sequence with its preperiod and period, for :mod:`gamecert.kit.plots`."""
    from gamecert.kit.plots import SequencePlot

    per = octal.periodicity(limit)
    length = max(per.checked_up_to + per.period, 3 * per.period + per.preperiod)
    return SequencePlot(
        name=name or "octal_" + octal.code.replace(".", "_"),
        title=f"octal game {octal.code}: Grundy values",
        values=tuple(octal.sequence(length)),
        preperiod=per.preperiod,
        period=per.period,
    )
