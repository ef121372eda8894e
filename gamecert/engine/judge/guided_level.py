"""Near-constant inputs for the guided search (issue 47): a game's parts all at one level but one
or two a step off it, at a count drawn from a ladder of large counts.

A program that compares a float it derives from the input (a mean, a variance, a ratio) with a
constant rounds: over many nearly equal parts the float keeps too few bits to tell them apart,
and the comparison meets a constant the exact value never meets (a variance of one part off
among ten thousand rounds to 0). The comparison's operands are derived, so input to state has
nothing to write back, and the distance in ulps climbs the wrong way (toward small levels, whose
floats are finer). What makes the rounding is the shape: many parts, nearly equal. So once a
kept input shows the program comparing floats, the search spends a share of its time
(:data:`SHARE`) on such shapes, as a designed family would but only where a float is compared:

* the **levels**: the :data:`LEVELS` least values a part may have, the kept inputs' values and
  the dictionary's numbers, those a part may take (the game's parse says: a small input with
  the value, written and read back);
* the **shapes**: one part one above the level, one part one below (its first pass), then one
  below and one above together (the mean kept exact); the odd parts last;
* the **counts**: drawn log-uniformly in [:data:`LOW`, :data:`HIGH`] (below the size of the
  smallest fault found, once one stands), a fresh count for every run.

Once a fault stands (the search goes on below its size), the pairs whose odd parts change the
right answer are **swept**, each a *family*: its counts one by one from :data:`LOW` up to the
largest whose input is smaller than the fault, the family with the fewest such counts first
(the cheapest space first, as the sweep below a fault takes the exhaustive spaces), and a share
:data:`SHARE_BELOW` of the time. The rounding that makes the fault is met at counts that follow
no order (a float variance of 54s and one 55 rounds to 0 at 2,394 piles and 2,460, not between),
so a drawn count finds a smaller one by chance; a family swept finds its least failing count,
and a cheaper family may hold a smaller input than the fault's own (55s with one 54 fail at
2,486 piles, 136,729 stones, where 35s with one 36 need 4,262 piles, 149,171 stones).

The (level, shape) pairs are taken in a shuffled order, one pass after another: the answer may
depend on the level (the parts' own values), the rounding on the count, and neither is known in
advance. A program that takes nearly equal parts for equal ones answers as for equal ones, so a
pair whose right answer (the oracle's or the fast solvers', as for any run) is that of the
constant input (every part at the level, as many) waits for the end of its pass: the pairs whose
odd parts change the answer go first. :class:`Levels` is a part of
:class:`gamecert.engine.judge.guided.Search`.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

#: the counts of parts drawn (log-uniformly) for a near-constant input
LOW, HIGH = 1 << 11, 1 << 15
#: the least values a part may have tried as levels (twice as many levels at most in all)
LEVELS = 256
#: the share of the guided phase's time, from the first float comparison seen, given to them
SHARE = 0.5
#: their share once a fault stands (the families swept below it)
SHARE_BELOW = 0.8
#: the parts whose values are read to find the levels (per kept input, its games in turn)
READ = 4096
#: near-constant inputs not made in a row (the game refuses such counts or levels) after which
#: the search stops making them
REFUSED = 64
#: pairs looked at, at most, for one whose odd parts change the right answer
PUT_OFF = 64
#: the odd parts' offsets from the level: one above, one below, then one of each
SHAPES: tuple[tuple[int, ...], ...] = ((1,), (-1,), (-1, 1))

State = list[tuple[Any, ...]]


def floats_compared(cmps: Any) -> bool:
    """Whether a run's comparisons hold one of two floats that differ (a derived float the
    program compares: a mean, a variance).

    >>> floats_compared([("i", 1, 2), ("f", 0.5, 0.0)]), floats_compared([("f", 1.0, 1.0)])
    (True, False)
    """
    return any(kind == "f" and a != b for kind, a, b in cmps)


def count_drawn(rng: random.Random, below: int | None, parts: int) -> int | None:
    """A count of parts for a near-constant input with ``parts`` odd ones: log-uniform in
    [LOW, HIGH], under ``below`` (the smallest fault's size) when one stands; None if no count
    of more than ``parts`` fits.

    >>> LOW <= count_drawn(random.Random(1), None, 1) <= HIGH
    True
    >>> count_drawn(random.Random(1), 3, 2) is None, count_drawn(random.Random(1), 100, 1) < 100
    (True, True)
    """
    high = HIGH if below is None else min(HIGH, below - 1)
    low = min(LOW, max(parts + 1, high // 2))
    if high <= parts:
        return None
    return min(high, max(low, int(math.exp(rng.uniform(math.log(low), math.log(high + 1))))))


class Levels:
    """The near-constant inputs of a guided search (see the module's words)."""

    st: Any
    game: Any
    judge: Any
    built: Any
    rng: random.Random
    corpus: list[Any]
    numbers: list[int]
    below: int | None

    def level_init(self) -> None:
        #: the (level, offsets) pairs in the order taken, the next's index, the template part
        self.level_pairs: list[tuple[int, tuple[int, ...]]] = []
        self.level_at = 0
        #: the pairs of this pass put off to its end (their answer was the constant input's)
        self.level_put_off: set[tuple[int, tuple[int, ...]]] = set()
        self.level_part: Any = None
        #: the parts of the smallest kept game (at most 64 of them): each level tried on it
        self.level_game: tuple[Any, ...] = ()
        self.level_began = 0.0
        self.level_spent = 0.0
        self.level_runs = 0
        self.level_failed = 0
        #: the values the kept inputs hold (for the levels)
        self.level_values: set[int] = set()
        #: below a fault: each family's next count, the families in their order (with the largest
        #: count under the fault's size) for the size they were ordered for, the families swept
        self.level_cursor: dict[tuple[int, tuple[int, ...]], int] = {}
        self.level_families: list[tuple[tuple[int, tuple[int, ...]], int]] = []
        self.level_families_for: int | None = None
        self.level_swept = 0
        #: whether a pair's odd parts change the right answer (at two counts, for the parity)
        self.level_matter: dict[tuple[int, tuple[int, ...]], bool] = {}

    def level_note(self, item: Any) -> None:
        """Note a kept input: whether it shows a float compared (the start: the inputs kept
        before are read then), and once begun, its values and its smallest game."""
        if self.st is None or self.st.value is None or self.st.with_value is None:
            return
        if self.level_began:
            self.level_read(item)
        elif floats_compared(item.cov.cmps) or getattr(self.built, "floats_unseen", False):
            self.level_began = time.monotonic()
            for kept in self.corpus:
                self.level_read(kept)
            if not any(kept is item for kept in self.corpus):
                self.level_read(item)

    def level_read(self, item: Any) -> None:
        """The values of a kept input (its first :data:`READ` parts), and its smallest game."""
        left = READ
        for parts in item.state:
            if left <= 0:
                break
            for p in parts[:left]:
                try:
                    self.level_values.add(int(self.st.value(p)))
                except Exception:  # noqa: BLE001 - a part without a number: left out
                    pass
            left -= len(parts)
            if parts and (self.level_part is None or len(parts) < len(self.level_game)):
                self.level_part, self.level_game = parts[0], parts[:64]

    def level_reason(self) -> str:
        """Why the near-constant inputs ran: a float compared, or a source that uses floats on a
        route that reports no float comparison."""
        if getattr(self.built, "floats_unseen", False):
            return "the source uses floats (its route reports no float comparison)"
        return "a float compared"

    def level_due(self) -> bool:
        """Whether the near-constant inputs' share of the time since they began is unspent."""
        if not self.level_began or self.level_part is None or self.level_failed >= REFUSED:
            return False
        share = SHARE if self.below is None else SHARE_BELOW
        return self.level_spent < share * (time.monotonic() - self.level_began)

    def level_sweeping(self) -> bool:
        """Whether, below a fault, near-constant families may be left to sweep: the inputs began
        (a float compared), the game takes them, and the families are not all swept yet."""
        return (
            self.below is not None
            and bool(self.level_began)
            and self.level_part is not None
            and self.level_failed < REFUSED
            and (self.level_families_for is None or bool(self.level_families))
        )

    def level_ran(self, ran: bool) -> bool:
        """Count a near-constant input made and run (``ran``) or not (the game refused it, or
        it ran before); after :data:`REFUSED` in a row not made, they stop."""
        self.level_runs += ran
        self.level_failed = 0 if ran else self.level_failed + 1
        return ran

    def level_levels(self) -> list[int]:
        """The levels of a pass: of the structure's :data:`LEVELS` least values, then of the kept
        inputs' values and the dictionary's numbers, those a part may take (each tried on a small
        input of its own: the game's parse of it gives it back)."""
        smallest = self.st.smallest
        pool = sorted(
            {*range(smallest, smallest + LEVELS)}
            | {v for v in (*self.level_values, *self.numbers) if v >= smallest}
        )
        return [v for v in pool if self.level_valid(v)][: 2 * LEVELS]

    def level_valid(self, v: int) -> bool:
        """Whether a part may take the value ``v``: the kept game ``level_game`` with its first
        part set to it is a valid input."""
        game = self.level_game
        try:
            inst = self.st.build((self.st.with_value(game[0], v), *game[1:]))
            return bool(self.game.parse_input(self.game.format_input(inst)) == inst)
        except Exception:  # noqa: BLE001 - a value the game refuses
            return False

    def level_pass(self) -> None:
        """The (level, offsets) pairs of one pass (the odd parts' values valid levels too): the
        single odd parts first, then the pairs, each in a shuffled order."""
        levels = self.level_levels()
        valid = dict.fromkeys(levels, True)

        def ok(v: int) -> bool:
            if v not in valid:
                valid[v] = self.level_valid(v)
            return valid[v]

        made = [(v, s) for v in levels for s in SHAPES if all(ok(v + d) for d in s)]
        singles = [(v, s) for v, s in made if len(s) == 1]
        pairs = [(v, s) for v, s in made if len(s) > 1]
        self.rng.shuffle(singles)
        self.rng.shuffle(pairs)
        self.level_pairs, self.level_at = singles + pairs, 0
        self.level_put_off = set()

    def level_next(self) -> State | None:
        """The next near-constant input's state (a game of its own), or None (a level or an
        offset its part cannot take: the search makes the next). A pair whose input's right
        answer is the constant input's (every part at the level, as many) is put off to the end
        of the pass, once, if that of one part fewer is too: a program that takes the parts for
        equal answers those right, so the pairs whose odd parts change the answer go first
        (within :data:`PUT_OFF` looks)."""
        if self.below is not None:
            return self.level_below()
        state: State | None = None
        for _ in range(PUT_OFF):
            if self.level_at >= len(self.level_pairs):
                self.level_pass()
                if not self.level_pairs:
                    return None
            pair = self.level_pairs[self.level_at]
            self.level_at += 1
            n = count_drawn(self.rng, self.below, len(pair[1]))
            if n is None:
                return None
            state = self.level_made(*pair, n)
            if state is None or pair in self.level_put_off or self.level_matters(state[0]):
                return state
            other = self.level_made(*pair, n - 1)  # (an answer may go by the count's parity)
            if other is not None and self.level_matters(other[0]):
                return other
            self.level_put_off.add(pair)
            self.level_pairs.append(pair)
        return state

    def level_below(self) -> State | None:
        """Below a fault: the next count of the family first in order (see the module's words);
        None once every family is swept."""
        if self.level_families_for != self.below:
            self.level_order()
        while self.level_families:
            pair, cap = self.level_families[0]
            n = self.level_cursor.get(pair, LOW)
            if n > cap:
                self.level_families.pop(0)
                self.level_swept += 1
                continue
            self.level_cursor[pair] = n + 1
            return self.level_made(*pair, n)
        return None

    def level_order(self) -> None:
        """The families below the fault's size (:attr:`below`): the pairs of a pass whose odd
        parts change the right answer, each with its largest count whose input is smaller than
        the fault's, those with the fewest counts left first."""
        self.level_families_for = self.below
        if not self.level_pairs:
            self.level_pass()
        families = []
        for pair in dict.fromkeys(self.level_pairs):
            if not self.level_matters_pair(pair):
                continue
            cap = self.level_cap(pair)
            first = self.level_cursor.get(pair, LOW)
            if cap is not None and cap >= first:
                families.append((cap - first, -pair[0], pair, cap))
        families.sort()
        self.level_families = [(pair, cap) for _, _, pair, cap in families]

    def level_matters_pair(self, pair: tuple[int, tuple[int, ...]]) -> bool:
        if pair not in self.level_matter:
            made = [self.level_made(*pair, n) for n in (LOW, LOW + 1)]
            self.level_matter[pair] = any(m is not None and self.level_matters(m[0]) for m in made)
        return self.level_matter[pair]

    def level_cap(self, pair: tuple[int, tuple[int, ...]]) -> int | None:
        """The largest count (at most :data:`HIGH`) whose input of ``pair`` is smaller than the
        fault's size, by a binary search on the count (None if not even :data:`LOW`'s is)."""
        assert self.below is not None  # (set: a fault stands)

        def smaller(n: int) -> bool:
            made = self.level_made(*pair, n)
            try:
                return made is not None and self.game.size(self.st.build(made[0])) < self.below
            except Exception:  # noqa: BLE001 - an input the game refuses
                return False

        if not smaller(LOW):
            return None
        lo, hi = LOW, HIGH
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if smaller(mid) else (lo, mid - 1)
        return lo

    def level_made(self, level: int, offsets: tuple[int, ...], n: int) -> State | None:
        if n <= len(offsets):
            return None
        try:
            same = self.st.with_value(self.level_part, level)
            odd = tuple(self.st.with_value(self.level_part, level + d) for d in offsets)
        except Exception:  # noqa: BLE001 - a value the part cannot take
            return None
        return [(same,) * (n - len(odd)) + odd]

    def level_matters(self, parts: tuple[Any, ...]) -> bool:
        """Whether the right answer for ``parts`` differs from that for as many parts all at the
        first one's value (True where it cannot be told: the input is run)."""
        try:
            made = self.st.build(parts)
            same = self.st.build((parts[0],) * len(parts))
            return bool(self.judge.expected(made)[0] != self.judge.expected(same)[0])
        except Exception:  # noqa: BLE001 - the input is run, and judged, as any other
            return True


__all__ = [
    "HIGH",
    "LEVELS",
    "LOW",
    "SHAPES",
    "SHARE",
    "SHARE_BELOW",
    "Levels",
    "count_drawn",
    "floats_compared",
]
