"""Claims a game's proofs module states, and the evidence that checking one produces.

A claim is checked by calling it; it returns :class:`Evidence` or raises :class:`ClaimRefuted`
naming the first index where it breaks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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

    def __post_init__(self) -> None:
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(f"claim {self.name!r}: level must be one of {LEVELS}, got {self.level!r}")

    def __call__(self) -> Evidence:
        return self.check()
