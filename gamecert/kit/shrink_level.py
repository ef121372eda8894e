"""Structural shrinking of a near-constant game: every part but a few equal (a mixin of
:class:`gamecert.kit.shrink.Shrinker`).

A program that derives a number from many nearly equal parts (a mean, a variance, a sum taken
modulo something) fails at counts that follow no order: a float variance of thousands of equal
piles and one a step off rounds to 0 at some counts and not at the next. No halving or chunk
removal lands on such a count from another, so the count of the common part is searched one by
one, from the count found down to half of it (each failing count taken, and the search goes on
below it; the next pass counts down from where this one got). A common part
and another are then exchanged (every part equal to one becomes the other, and the other way
round) and the count of the new common part searched the same way: the two levels of a fault
that needs one part a step off the rest (54 among 55s, or 55 among 54s) are one input apart
only in that exchange. Neither step is reached from an input whose common part holds more than
:data:`COUNT_SCAN` parts (noted as not run, so the shrink does not claim it).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

#: a game is near-constant when all but at most this many of its parts are equal
ODD_PARTS = 4
#: the most parts the common part of a near-constant game may hold for its count to be searched
#: one by one (each count is one run)
COUNT_SCAN = 16_384


class NearConstant:
    """The near-constant steps of the shrinker (see the module's words)."""

    state: list[tuple[Any, ...]]
    st: Any
    skipped: list[str]
    step: str

    if False:  # the shrinker's own (declared for type checking)

        def _try(self, state: Any) -> bool: ...

        def _with_game(self, g: int, parts: tuple[Any, ...]) -> list[tuple[Any, ...]]: ...

    def _near_constant(self, g: int) -> None:
        """Game ``g``'s common part counted down one by one, then each other part exchanged with
        it and the count searched again, where the game is near-constant."""
        parts = self.state[g]
        if len(parts) <= ODD_PARTS + 1:
            return
        common, count = Counter(parts).most_common(1)[0]
        if len(parts) - count > ODD_PARTS:
            return
        name = self.st.part_name
        if count > COUNT_SCAN:
            self.skipped.append(
                f"the count of the common {name} searched one by one ({count:,} of them, over "
                f"the {COUNT_SCAN:,} this runs on)"
            )
            return
        self.step = f"the count of the common {name} searched down one by one"
        self._counted_down(g, parts, common)
        for other in dict.fromkeys(p for p in self.state[g] if p != common):
            parts = self.state[g]
            if common not in parts or other not in parts:
                continue
            self.step = f"the common {name} exchanged with another, its count searched down"
            swap = {common: other, other: common}
            self._counted_down(g, tuple(swap.get(p, p) for p in parts), other)
            common = Counter(self.state[g]).most_common(1)[0][0]

    def _counted_down(self, g: int, parts: tuple[Any, ...], common: Any) -> None:
        """``parts`` with its parts equal to ``common`` kept at each count from all of them down
        to half of them (the last ones taken off first), each a candidate (the shrinker runs only
        those smaller than the current input). Below half, halving and ddmin's chunks reach (and
        the next pass counts down from where this one got)."""
        places = [k for k, p in enumerate(parts) if p == common]
        odd = [(k, p) for k, p in enumerate(parts) if p != common]
        for keep in range(len(places), len(places) // 2, -1):
            cut = places[keep] if keep < len(places) else len(parts)
            kept = parts[:cut] + tuple(p for k, p in odd if k > cut)
            self._try(self._with_game(g, kept))


__all__ = ["COUNT_SCAN", "ODD_PARTS", "NearConstant"]
