"""The guided search's steps for values the program derives (issue 47): a comparison whose
operand no number of the input holds (a sum, a residue, a variance) gives a difference to put
back, or a level to move to.

* the difference added to a game's count, and to its values, to one part or spread over several
  (none past the greatest value the input holds), whole and in parts (1/2, 1/4, 1/8: a value that
  grows faster than a sum overshoots with the whole);
* the count changed with the values' total kept (what parts copied or dropped added or took,
  spread back), or with parts of the smallest value put in or taken out (a 0 adds nothing to a
  sum of squares): a residue of the count met without losing a sum met before;
* every value of a game moved by one amount (its differences kept, its level changed: a float
  computed from the values rounds otherwise at another level).

:class:`Derived` is a part of :class:`gamecert.engine.judge.guided.Search` (its ``st``, ``rng``,
``numbers`` and ``put``); each step gives a state, or None where it does not fit (an input the game
refuses is never run: the search builds and checks each).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

#: inputs longer than this (characters) are not made by the search
MAX_TEXT = 8 << 20


class Derived:
    """The steps for derived values, on the search's state (see the module's words)."""

    st: Any
    rng: random.Random
    numbers: list[int]

    #: the search's own (:class:`gamecert.engine.judge.guided_mutate.Mutations`)
    put: Callable[[list[tuple[Any, ...]], tuple[Any, ...], int], list[tuple[Any, ...]] | None]

    def differences(
        self, state: list[tuple[Any, ...]], delta: int, residue: bool = False
    ) -> list[Callable[[], list[tuple[Any, ...]] | None]]:
        """Candidates that add ``delta`` (the difference of a comparison's derived operands) to
        the input: to each game's count, and to its values, one part or spread over parts; the
        count changed with its values' total kept, or with parts of the smallest value. Where both
        operands are small (``residue``: a residue of the count, whose modulus the comparison
        does not show) the count is changed by every step from -3 to +16."""
        if not delta or abs(delta) > 4 * MAX_TEXT:
            return []
        out: list[Callable[[], list[tuple[Any, ...]] | None]] = []
        games = list(range(len(state)))
        if len(games) > 4:  # the game whose value it is is not known: four of them
            games = self.rng.sample(games, 4)
        for g in games:
            parts = state[g]
            out.append(functools.partial(self.put, state, ("count", g), len(parts) + delta))
            if self.st.value is not None and parts:
                # the whole difference, and parts of it (a value derived by more than a sum,
                # squares say, overshoots with the whole)
                for part in sorted({delta, delta // 2, delta // 4, delta // 8} - {0}, key=abs):
                    out.append(functools.partial(self.spread, state, g, part))
                steps = set(range(-3, 17)) if residue else {-2, -1, 1, 2}
                for d in sorted((steps | {delta}) - {0}, key=abs):
                    out.append(functools.partial(self.recount, state, g, len(parts) + d))
                    out.append(functools.partial(self.pad, state, g, d))
        return out

    def shift(self, state: list[tuple[Any, ...]], g: int) -> list[tuple[Any, ...]] | None:
        """Every value of game ``g`` moved by one amount (its differences kept, its level changed:
        a float computed from the values rounds otherwise at another level), most often so that
        its greatest value becomes a dictionary number; None if a value cannot be taken."""
        parts = state[g][: 1 << 16]
        got = [_number(self.st.value, p) for p in parts]
        values = [v for v in got if v is not None]
        if self.st.with_value is None or len(values) != len(got) or not values:
            return None
        low, high = min(values), max(values)
        rng = self.rng
        if self.numbers and rng.random() < 0.7:
            by = rng.choice(self.numbers) - high + rng.randint(-1, 1)
        else:
            by = rng.randint(self.st.smallest - low, max(self.st.smallest - low, 2 * high))
        if not by or low + by < self.st.smallest:
            return None
        try:
            moved = tuple(self.st.with_value(p, v + by) for p, v in zip(parts, values))
        except Exception:  # noqa: BLE001 - a value the part cannot take
            return None
        out = list(state)
        out[g] = moved + state[g][len(parts) :]
        return out

    def pad(self, state: list[tuple[Any, ...]], g: int, by: int) -> list[tuple[Any, ...]] | None:
        """Game ``g`` with ``by`` parts of the smallest value put in at random places (or, ``by``
        below 0, as many of its smallest-valued parts taken out): a count changed with what the
        smallest value adds to a sum, a sum of squares, kept (nothing, for a 0)."""
        parts = list(state[g])
        if self.st.with_value is None or not parts or not by or len(parts) + by < 1:
            return None
        if by > 0:
            try:
                extra = self.st.with_value(parts[0], self.st.smallest)
            except Exception:  # noqa: BLE001 - a value the part cannot take
                return None
            for _ in range(by):
                parts.insert(self.rng.randrange(len(parts) + 1), extra)
        else:
            least = [
                i for i, p in enumerate(parts) if _number(self.st.value, p) == self.st.smallest
            ]
            if len(least) < -by:
                return None
            for i in sorted(self.rng.sample(least, -by), reverse=True):
                parts.pop(i)
        out = list(state)
        out[g] = tuple(parts)
        return out

    def recount(
        self, state: list[tuple[Any, ...]], g: int, count: int
    ) -> list[tuple[Any, ...]] | None:
        """Game ``g`` with ``count`` parts and its values' total kept: parts copied or dropped at
        random, then what they added or took spread over the parts (a count's residue met
        without losing a sum already met); None if the total cannot be kept."""
        parts = state[g]
        if count < 1 or not parts or count == len(parts) or count > 4 * MAX_TEXT:
            return None
        total = sum(_number(self.st.value, p) or 0 for p in parts)
        made = self.put(state, ("count", g), count)
        if made is None:
            return None
        now = sum(_number(self.st.value, p) or 0 for p in made[g])
        return self.spread(made, g, total - now) if now != total else made

    def spread(
        self, state: list[tuple[Any, ...]], g: int, delta: int
    ) -> list[tuple[Any, ...]] | None:
        """``delta`` added to game ``g``'s values, part by part in a random order, each kept
        between the structure's smallest value and the greatest the game's parts hold (a value
        the game refuses is never run: :meth:`build` checks); None if it does not fit."""
        parts = list(state[g])
        values = [_number(self.st.value, p) for p in parts]
        known = [v for v in values if v is not None]
        if not known or self.st.with_value is None:
            return None
        low, high = self.st.smallest, max(known)
        order = list(range(len(parts)))
        self.rng.shuffle(order)
        left = delta
        for i in order[:4096]:
            v = values[i]
            if v is None or not left:
                continue
            w = min(high, max(low, v + left))
            if w != v:
                try:
                    parts[i] = self.st.with_value(parts[i], w)
                except Exception:  # noqa: BLE001 - a value the part cannot take
                    continue
                left -= w - v
        if left:
            return None
        out = list(state)
        out[g] = tuple(parts)
        return out


def _number(value: Callable[[Any], Any], part: Any) -> int | None:
    """A part's value as an integer, or None (a game's parts may hold letters beside numbers)."""
    try:
        return int(value(part))
    except (TypeError, ValueError):
        return None


__all__ = ["MAX_TEXT", "Derived"]
