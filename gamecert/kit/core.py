"""A game's certification core: the bounded evidence a ``CERTIFIED`` of a user's program rests on.

A program gamecert certifies answers through a fresh process per test; a JVM or node start costs
about 40 ms, so a runner manages about 25 tests a second, and the default minute on 2 runners about
3,000. The whole plan of a game (its coverage families, every exhaustive space to its declared reach)
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
#: JVM started per test), and the runners and seconds of the default profile
SLOWEST_RATE = 25.0
DEFAULT_RUNNERS = 2
DEFAULT_BUDGET_S = 60.0


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


__all__ = ["DEFAULT_BUDGET_S", "DEFAULT_RUNNERS", "SLOWEST_RATE", "Core"]
