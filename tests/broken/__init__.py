"""Deliberately broken solvers, kept as fixtures: the harness must catch every one.

Each game module defines ``BROKEN``: a dict from a name to a :class:`Broken`, saying what kind of
bug it is and, where the smallest failing input is known from the bug's construction, its size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Broken:
    solve: Callable[[Any], Any]
    kind: str  # off-by-one, wrong period, wrong index base, large sizes only, rare structure, ...
    what: str
    #: for bugs only random search can reach: the size of the smallest input that shows it
    smallest_size: int | None = None
