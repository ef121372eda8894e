"""Claims a game's proofs module states, and the evidence that checking one produces.

A claim is checked by calling it; it returns :class:`Evidence` or raises :class:`ClaimRefuted`
naming the first index where it breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from gamecert.errors import GamecertError

LEVELS = ("bounded", "exhaustive", "all sizes")


class ClaimRefuted(GamecertError):
    """A claim is false; ``index`` is the first size (or position) where it breaks."""

    def __init__(self, claim: str, index: object, detail: str) -> None:
        self.claim = claim
        self.index = index
        self.detail = detail
        super().__init__(f"{claim}: fails at {index}: {detail}")


@dataclass(frozen=True)
class Evidence:
    """What a checked claim rests on: its level and, in words, the range or argument."""

    level: str
    detail: str

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"evidence level must be one of {LEVELS}, got {self.level!r}")

    def describe(self) -> str:
        return f"{self.level}: {self.detail}"


@dataclass(frozen=True)
class Claim:
    """A named statement and the function that checks it.

    ``level`` is the evidence level the check establishes when the claim holds, stated up front
    so ``gamecert show`` can name it without running the check; ``gamecert prove`` does not
    count a claim as holding when its check returns another level.
    """

    name: str
    statement: str
    check: Callable[[], Evidence]
    level: str | None = None
    #: the range ``(first, last)`` a bounded or exhaustive check runs over, when it can be cut
    span: tuple[int, int] | None = None
    #: ``part(first, last)``: the same check on the sub-range ``first..last`` alone
    part: Callable[[int, int], Callable[[], Evidence]] | None = None
    #: the relative cost of index ``i`` of the span (default: every index alike)
    cost: Callable[[int], float] | None = None

    def __post_init__(self) -> None:
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(
                f"claim {self.name!r}: level must be one of {LEVELS}, got {self.level!r}"
            )
        if (self.span is None) != (self.part is None):
            raise ValueError(f"claim {self.name!r}: span and part go together")

    def __call__(self) -> Evidence:
        return self.check()

    def slices(self, count: int) -> tuple[Claim, ...]:
        """The claim as at most ``count`` claims over consecutive sub-ranges of its span, of
        about equal cost, which hold together exactly when it holds (itself if it cannot be cut).

        >>> c = Claim("c", "s", lambda: Evidence("bounded", "0..9"), "bounded", (0, 9),
        ...           lambda a, b: (lambda: Evidence("bounded", f"{a}..{b}")))
        >>> [x.span for x in c.slices(3)], c.slices(3)[1].name
        ([(0, 2), (3, 6), (7, 9)], 'c [3..6]')
        >>> c.slices(1) == (c,)
        True
        """
        if self.span is None or self.part is None or count <= 1:
            return (self,)
        first, last = self.span
        bounds = split_range(first, last, count, self.cost)
        if len(bounds) <= 1:
            return (self,)
        return tuple(
            replace(self, name=f"{self.name} [{a}..{b}]", check=self.part(a, b), span=(a, b))
            for a, b in bounds
        )


def split_range(
    first: int, last: int, count: int, cost: Callable[[int], float] | None = None
) -> list[tuple[int, int]]:
    """``first..last`` as at most ``count`` consecutive ranges of about equal total ``cost``.

    >>> split_range(1, 10, 2)
    [(1, 5), (6, 10)]
    >>> split_range(1, 4, 2, cost=lambda i: 10 ** i)  # the last index alone outweighs the rest
    [(1, 3), (4, 4)]
    >>> split_range(5, 5, 3)
    [(5, 5)]
    """
    weights: Sequence[float] = [cost(i) if cost else 1.0 for i in range(first, last + 1)]
    total = sum(weights)
    out: list[tuple[int, int]] = []
    start, done = first, 0.0
    for offset, w in enumerate(weights):
        i = first + offset
        done += w
        following = weights[offset + 1] / 2 if i < last else 0.0
        if i < last and len(out) < count - 1 and done + following >= total * (len(out) + 1) / count:
            out.append((start, i))
            start = i + 1
    out.append((start, last))
    return out
