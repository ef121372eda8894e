"""A game's certification core: the bounded evidence a ``CERTIFIED`` of a user's program rests on.

A program gamecert certifies answers through a fresh process per test; a JVM started per test
manages about 10 tests a second a runner, so the default minute on 2 runners about 1,200. The whole plan of a game (its coverage families, every exhaustive space to its declared reach)
is sized for the registered solvers, which answer in process; a user's program cannot finish it.

The game's author therefore states, per profile, a *core*: the samples, every worst case and the
largest inputs (always), every coverage family whole or its first ``families[NAME]`` inputs (a
family lists its inputs in priority order: a deciding-feature family smallest first), and each
exhaustive space swept whole up to ``exhaustive[NAME]`` (a space the core does not name: to its
declared reach). ``reason`` says why those sizes show every deciding feature of the game (the size
ladder, the proofs' period, a bound the game states). The plan runs the core first; what time is left
buys depth (the families' rest, the exhaustive sizes beyond the core, random and guided inputs),
and the certificate states the core and the depth reached. A game without a core for a profile
keeps the whole plan as its core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

#: the rate a core is sized for: tests a second a runner for the slowest supported language (a
#: JVM started per test: about 20 tests/s on 2 runners on a quiet 2-core machine), the runners
#: and seconds of the default profile, and the share of those seconds a default core may take at
#: that rate (the rest is the margin for a loaded machine, and buys depth)
SLOWEST_RATE = 10.0
DEFAULT_RUNNERS = 2
DEFAULT_BUDGET_S = 60.0
CORE_SHARE = 0.6


def default_core_bound() -> int:
    """The most runs a default core may hold: 720 (10 tests/s x 2 runners x 60 s x 0.6)."""
    return int(SLOWEST_RATE * DEFAULT_RUNNERS * DEFAULT_BUDGET_S * CORE_SHARE)


@dataclass(frozen=True)
class Core:
    """What one profile's certification core holds beyond the samples, worst cases and largest."""

    #: family name -> how many of its first inputs the core runs (a family not named: all of it)
    families: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    #: exhaustive space name -> the largest size the core sweeps whole (not named: every size)
    exhaustive: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    #: why these sizes show every deciding feature of the game, in the author's words
    reason: str = ""

    def family_cap(self, name: str, count: int) -> int:
        """Inputs of the family ``name`` (of ``count``) the core runs."""
        cap = self.families.get(name)
        return count if cap is None else max(0, min(count, cap))

    def space_reach(self, name: str, sizes: tuple[int, ...]) -> tuple[int, ...]:
        """The sizes of the space ``name`` the core sweeps whole."""
        reach = self.exhaustive.get(name)
        return sizes if reach is None else tuple(s for s in sizes if s <= reach)


__all__ = [
    "CORE_SHARE",
    "DEFAULT_BUDGET_S",
    "DEFAULT_RUNNERS",
    "SLOWEST_RATE",
    "Core",
    "default_core_bound",
]
