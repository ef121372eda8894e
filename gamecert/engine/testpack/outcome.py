"""What a package build is asked (:class:`Knobs`) and what it found (:class:`Outcome`), and how
its tests are named (:func:`tn`): shared by the build (:mod:`.testpack`) and the write-up
(:mod:`.writeup`).

May import: the testpack room's own modules, the engine's floor.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamecert.engine.testpack import polygon
from gamecert.engine.testpack import testset as ts


@dataclass
class Knobs:
    max_tests: int = 100
    per_family: int = 24
    per_space: int = 300
    search_seconds: float = 60.0
    mutant_budget: float = 10.0
    max_mutants: int | None = None
    #: run ``gamecert certify --profile quick`` on each wrong program the package misses
    certify_survivors: bool = True
    #: the package's layout: ``polygon`` or ``plain`` (:mod:`.polygon`)
    format: str = "polygon"


@dataclass
class Outcome:
    """What a build or a check found; ``faults`` make the exit status 1."""

    tests: list[ts.Test]
    mutant_names: list[str]
    mutant_rows: dict[str, list[str]]
    equivalent: list[str]
    undecided: list[str]
    survivors: dict[str, str]
    programs: list[ts.Program]
    program_rows: dict[str, list[str]]
    right_rows: dict[str, list[str]]
    faults: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: the project's broken solvers (tests/broken/GAME.py), in-process: verdict per test
    broken_rows: dict[str, list[str]] = field(default_factory=dict)
    #: mutants a planned input kills that no test of the package kills
    pool_killed: list[str] = field(default_factory=list)
    #: (right program, test index) -> (CPU seconds, peak MB) as the runner measured them
    usage: dict[tuple[str, int], tuple[float, float]] = field(default_factory=dict)
    #: the package's layout (:data:`.polygon.FORMATS`)
    layout: str = "plain"

    def killed(self, name: str, rows: dict[str, list[str]]) -> list[int]:
        return [k for k, v in enumerate(rows[name]) if ts.is_kill(v)]


def tn(k: int, count: int) -> str:
    """Test ``k`` (from 1) of ``count`` as its file is named: ``tests/01`` .. ``tests/NN``."""
    return f"{k:0{polygon.width(count)}d}"
