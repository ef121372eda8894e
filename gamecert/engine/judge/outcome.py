"""What a plan's run came to: how much of each group ran, the faults found, what the budget cut.

The executor (:mod:`gamecert.engine.execute`) fills it in; the evidence (:mod:`.evidence`), the
certification and the reports read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamecert.engine.judge.judge import Failure, Stats
from gamecert.engine.plan.plan import Plan


@dataclass
class GroupOutcome:
    """How much of one group ran."""

    phase: str
    key: str
    label: str
    planned: int
    done: int = 0
    chunks: int = 0
    chunks_done: int = 0
    size: int | None = None
    spaces: tuple[str, ...] = ()
    adversary: str = ""
    failed: bool = False
    space_counts: tuple[tuple[str, int], ...] = ()
    #: inputs it holds, and how many ran
    runs: int = 0
    runs_done: int = 0
    #: every chunk of it was handed out (a lazy family's chunks are cut as they are reached)
    listed_all: bool = True
    #: depth beyond the certification core (gamecert.engine.plan.plan.Group.depth)
    depth: bool = False

    @property
    def completed(self) -> bool:
        return self.listed_all and self.chunks_done == self.chunks and not self.failed


@dataclass
class Outcome:
    plan: Plan
    stats: Stats
    groups: list[GroupOutcome] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    interrupted: bool = False
    #: phases the budget cut short, with the time they had
    cut: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    jobs: int = 1
    #: what the budget stopped before it was done (after a fault: shrinking, the sweep below it)
    unfinished: list[str] = field(default_factory=list)
    #: designed phases the budget cut: the budget (seconds) that would let each end, at this run's
    #: speed (:func:`gamecert.engine.plan.schedule.budget_to_finish`)
    budget_wanted: dict[str, float] = field(default_factory=dict)

    @property
    def failure(self) -> Failure | None:
        """The fault to report: the first in plan order of the last search that found one (the
        sweep of smaller inputs after a fault is a later search), whatever the runners' timing."""
        ordered = [f for f in self.failures if f.order is not None]
        if ordered:
            return max(ordered, key=lambda f: (f.order[0], -f.order[1]))  # type: ignore[index]  # each of `ordered` has an order
        return min(self.failures, key=Failure.sort_key) if self.failures else None

    def done_chunks(self) -> set[str]:
        return {g.key for g in self.groups if g.completed}
