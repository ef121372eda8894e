"""Find the games: one module name in each of the part folders, and nothing half-registered.

A game ``NAME`` is the four modules ``oracles/NAME.py``, ``fast/NAME.py``, ``strategies/NAME.py``
and ``proofs/NAME.py``. Modules whose names start with ``_`` are helpers, not games. What each
module must define:

- ``oracles/NAME.py``: ``GAME``, an instance of :class:`gamecert.game.Game` with ``name == NAME``;
- ``fast/NAME.py``: ``SOLVERS``, a non-empty dict from solver name to ``solve(instance)``;
- ``strategies/NAME.py``: ``instances()``, a Hypothesis strategy over the whole input space;
  ``oracle_instances()``, one within the oracle's reach; ``features(instance)``, the labels a
  coverage histogram counts; ``largest()``, a few instances at the maximum sizes;
- ``proofs/NAME.py``: ``CLAIMS``, a list of claims (see :mod:`gamecert.claims`).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from gamecert.errors import RegistryError
from gamecert.game import Game, Solver

PARTS = ("oracles", "fast", "strategies", "proofs")

#: what each part module must define, and a hint shown when it does not
REQUIRED: dict[str, tuple[tuple[str, str], ...]] = {
    "oracles": (("GAME", "an instance of a gamecert.game.Game subclass"),),
    "fast": (("SOLVERS", "a dict {solver name: solve(instance) -> answer}"),),
    "strategies": (
        ("instances", "a function returning a Hypothesis strategy over the whole input space"),
        ("oracle_instances", "a function returning a strategy within the oracle's reach"),
        ("features", "a function instance -> iterable of feature labels (coverage histogram)"),
        ("largest", "a function returning a few instances at the maximum sizes the constraints allow"),
    ),
    "proofs": (("CLAIMS", "a list of gamecert.claims.Claim"),),
}


@dataclass(frozen=True)
class Entry:
    """Everything registered for one game."""

    name: str
    game: Game
    solvers: dict[str, Solver]
    strategies: ModuleType
    proofs: ModuleType

    def instances(self) -> Any:
        return self.strategies.instances()

    def oracle_instances(self) -> Any:
        return self.strategies.oracle_instances()

    def features(self, instance: Any) -> list[str]:
        return list(self.strategies.features(instance))

    @property
    def claims(self) -> list[Any]:
        return list(self.proofs.CLAIMS)


def _module_names(part: str) -> set[str]:
    package = importlib.import_module(part)
    return {info.name for info in pkgutil.iter_modules(package.__path__) if not info.name.startswith("_")}


def game_names() -> list[str]:
    """Every game name found in any part folder, sorted. Does not import the games."""
    names: set[str] = set()
    for part in PARTS:
        names |= _module_names(part)
    return sorted(names)


def missing_parts(name: str) -> list[str]:
    """The part files ``name`` lacks, as paths (``fast/NAME.py``), in folder order."""
    return [f"{part}/{name}.py" for part in PARTS if name not in _module_names(part)]


def _load_part(part: str, name: str) -> ModuleType:
    try:
        module = importlib.import_module(f"{part}.{name}")
    except RegistryError:
        raise
    except Exception as exc:  # the module's own bug: name it, keep the cause chained
        raise RegistryError(f"{part}/{name}.py failed to import: {type(exc).__name__}: {exc}") from exc
    unfinished = getattr(module, "UNFINISHED", None)
    if unfinished:
        raise RegistryError(f"{part}/{name}.py is not finished: {unfinished}")
    for attr, hint in REQUIRED[part]:
        if not hasattr(module, attr):
            raise RegistryError(f"{part}/{name}.py must define {attr}: {hint}")
    return module


@cache
def get(name: str) -> Entry:
    """The registered game ``name``; a :class:`RegistryError` naming what is missing otherwise."""
    known = game_names()
    if name not in known:
        raise RegistryError(f"unknown game {name!r}; registered games: {', '.join(known) or 'none'}")
    missing = missing_parts(name)
    if missing:
        present = [f"{p}/{name}.py" for p in PARTS if f"{p}/{name}.py" not in missing]
        raise RegistryError(
            f"game {name!r} is incomplete: {', '.join(missing)} missing "
            f"(found {', '.join(present)}); run `gamecert new-game {name}` to scaffold the missing parts"
        )
    modules = {part: _load_part(part, name) for part in PARTS}
    game = modules["oracles"].GAME
    if not isinstance(game, Game):
        raise RegistryError(f"oracles/{name}.py: GAME must be an instance of gamecert.game.Game, got {type(game).__name__}")
    if game.name != name:
        raise RegistryError(f"oracles/{name}.py defines a game named {game.name!r}; the module and GAME.name must agree")
    solvers = modules["fast"].SOLVERS
    if not isinstance(solvers, dict) or not solvers or not all(callable(s) for s in solvers.values()):
        raise RegistryError(f"fast/{name}.py: SOLVERS must be a non-empty dict of callables")
    return Entry(name, game, dict(solvers), modules["strategies"], modules["proofs"])


def all_entries() -> list[Entry]:
    """Every game, sorted by name; the first incomplete one raises."""
    return [get(name) for name in game_names()]


def resolve(selector: str) -> list[Entry]:
    """``all`` or one game name."""
    return all_entries() if selector == "all" else [get(selector)]


def solver_ids(entries: list[Entry] | None = None) -> list[tuple[str, str]]:
    """(game, solver) pairs, sorted, for parametrising."""
    return [(e.name, s) for e in (entries or all_entries()) for s in sorted(e.solvers)]


def lookup_solver(name: str, solver: str) -> Callable[[Any], Any]:
    entry = get(name)
    if solver not in entry.solvers:
        raise RegistryError(f"game {name!r} has no solver {solver!r}; it has {', '.join(sorted(entry.solvers))}")
    return entry.solvers[solver]
