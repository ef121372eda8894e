"""Octal heap games as a family: the code is the game.

An octal code ``d0.d1d2d3...`` says, for each number ``j`` of tokens removed from one heap, how
the rest may be left: digit ``d_j`` is a sum of 1 (may leave no heap, i.e. take the whole heap),
2 (may leave one non-empty heap) and 4 (may leave two non-empty heaps). ``d0`` concerns moves
that take nothing and only split a heap, so only its 4 bit has a meaning. Examples: Kayles is
``0.77``, Dawson's Kayles ``0.07``, Dawson's chess ``0.137``.

Periodicity (Guy and Smith, 1956; Berlekamp, Conway and Guy, *Winning Ways*, ch. 4, "The
Periodicity Theorem"; Siegel, *Combinatorial Game Theory*, AMS 2013, Thm. IV.2.7): for an octal
game whose code has finitely many non-zero digits, the largest index of one being ``k``, if
``G(n + p) = G(n)`` for every ``n`` with ``e <= n < 2e + p + k`` then it holds for every ``n >= e``.
Why (so that the cases the textbook form states loosely are seen to be covered): a move from a
heap ``n`` leaves heaps ``a`` and ``b`` with ``a + b = n - j`` for some ``0 <= j <= k``; once
``n >= 2e + p + k``, ``a + b >= 2e + p`` so one of them, say ``a``, is ``>= e + p``; by induction
``G(a) = G(a - p)`` and the options of ``n`` and ``n - p`` pair up with equal values. The
argument needs only that every option splits into at most two heaps whose sizes add up to
``n - j`` with ``j <= k``, so it covers splitting moves (``d0 = 4``, where ``j = 0``) and codes
whose first non-zero digit is late; it does not cover codes with infinitely many non-zero
digits, nor "hexadecimal" digits (splitting into three or more heaps): :meth:`OctalGame.parse`
rejects both.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from gamecert.errors import GamecertError, UsageError
from gamecert.game import mex


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
        if n < self.preperiod + self.period:
            return self.values[n]
        return self.values[self.preperiod + (n - self.preperiod) % self.period]


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
        """
        text = code.strip()
        head, dot, tail = text.partition(".")
        if not dot or not tail:
            raise UsageError(f"octal code {code!r}: expected digits around a point, like 0.137")
        head = head or "0"
        if not (head + tail).isdigit() or any(ch in "89" for ch in head + tail):
            raise UsageError(f"octal code {code!r}: digits must be 0-7 (8 and above would be hexadecimal games)")
        if len(head) != 1 or head not in "04":
            raise UsageError(f"octal code {code!r}: the digit before the point must be 0 or 4 (split without taking)")
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
        """
        for j, d in enumerate(self.digits):
            rest = n - j
            if rest < 0 or (j == 0 and rest == n and not d & 4):
                continue
            if d & 1 and rest == 0 and j > 0:
                yield ()
            if d & 2 and rest > 0 and j > 0:
                yield (rest,)
            if d & 4 and rest >= 2:
                for a in range(1, rest // 2 + 1):
                    yield (a, rest - a)

    def sequence(self, length: int) -> list[int]:
        """``G(0) .. G(length - 1)`` by the mex rule (quadratic; cached prefix reused)."""
        seq = self._seq
        for n in range(len(seq), length):
            values = []
            for heaps in self.options(n):
                v = 0
                for h in heaps:
                    v ^= seq[h]
                values.append(v)
            seq.append(mex(values))
        return seq[:length]

    @cached_property
    def _seq(self) -> list[int]:
        return []

    def periodicity(self, limit: int = 20000) -> Periodicity:
        """Smallest period and its preperiod, established by the periodicity theorem.

        Computes ``G`` on growing ranges (up to ``limit`` values) until, for the smallest ``p``
        that fits the data, the theorem's finite condition holds.

        >>> p = OctalGame.parse("0.137").periodicity()
        >>> (p.preperiod, p.period)
        (52, 34)
        """
        length = 256
        while True:
            length = min(length, limit)
            seq = self.sequence(length)
            found = _first_proved_period(seq, self.k)
            if found is not None:
                e, p = found
                return Periodicity(e, p, tuple(seq[: e + p]), 2 * e + p + self.k)
            if length >= limit:
                raise NotPeriodicYet(
                    f"octal game {self.code}: no period established within the first {limit} values"
                )
            length *= 2

    def grundy(self, n: int) -> int:
        return self.periodicity().grundy(n)


def _first_proved_period(seq: list[int], k: int) -> tuple[int, int] | None:
    """(preperiod, period) for the smallest period the theorem proves from ``seq``, if any."""
    n = len(seq)
    for p in range(1, n // 2):
        # smallest e with seq[m + p] == seq[m] for all e <= m < n - p
        e = n - p
        while e > 0 and seq[e - 1 + p] == seq[e - 1]:
            e -= 1
        # the theorem needs G(m + p) == G(m) for e <= m < 2e + p + k, i.e. n - p >= 2e + p + k
        if 2 * e + p + k <= n - p:
            return e, p
    return None
