"""How far a certification got through each exhaustive space and each designed family: the
certificate's evidence items (re-exported by :mod:`.reports`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SpaceEvidence:
    """How far one exhaustive space was swept: every input of sizes ``<= up_to``."""

    name: str
    description: str
    up_to: int | None
    inputs: int
    complete: bool
    #: what the game's size counts (``Game.size_measure``: "letters", "bit length"...), if it says
    measure: str = ""

    def describe(self) -> str:
        if self.up_to is None:
            return f"{self.name}: not swept (the budget did not cover its smallest size)"
        whole = " (the whole space)" if self.complete else ""
        size = f"size ({self.measure})" if self.measure else "size"
        inputs = f"{self.inputs} input{'' if self.inputs == 1 else 's'}"
        return f"{self.name}: exhaustive up to {size} {self.up_to} ({inputs}){whole}"


@dataclass(frozen=True)
class FamilyEvidence:
    """How much of one designed family (coverage or worst case) ran."""

    phase: str
    name: str
    description: str
    planned: int
    done: int
    complete: bool
    adversary: str = ""

    def describe(self) -> str:
        how = "complete" if self.complete else f"sampled: {self.done} of {self.planned} inputs"
        return f"{self.name} ({self.planned} inputs, {how}): {self.description.split(': ', 1)[-1]}"
