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
    """A named statement and the function that checks it."""

    name: str
    statement: str
    check: Callable[[], Evidence]

    def __call__(self) -> Evidence:
        return self.check()
