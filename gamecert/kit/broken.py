"""Deliberately broken solvers, kept beside each game as fixtures: the harness must catch every one.

A game's broken-solvers module (``tests/broken/NAME.py`` in the project or in a games folder,
``broken`` for an entry-point game; :func:`gamecert.engine.registry.broken_solvers` finds it) defines
``BROKEN``: a dict from a name to a :class:`Broken`, saying what kind of bug it is and, where
the smallest failing input is known from the bug's construction, its size. Every game keeps at
least five, of the kinds ``off-by-one``, ``wrong index base`` and ``large sizes only``, and one
of ``wrong period``, ``rare structure`` or ``multi-game batch``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: the kinds every game's broken solvers must include, and the kinds of which one must appear
REQUIRED_KINDS = frozenset({"off-by-one", "wrong index base", "large sizes only"})
ONE_OF_KINDS = frozenset({"wrong period", "rare structure", "multi-game batch"})


@dataclass(frozen=True)
class Broken:
    """One broken solver: ``solve(instance) -> answer``, its kind and what it gets wrong."""

    solve: Callable[[Any], Any]
    kind: str  # off-by-one, wrong period, wrong index base, large sizes only, rare structure, ...
    what: str
    #: for bugs only random search can reach: the size of the smallest input that shows it
    smallest_size: int | None = None
