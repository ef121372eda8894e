"""What all judges of one certification ran (:class:`Stats`), shared between worker threads."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gamecert.engine.plan.plan import PHASES

#: the plain audits' figures that add up across judges
_AUDIT_SUMS = ("audits", "audit_pool", "audits_drawn", "audit_differed", "audit_s", "plain_passes")


@dataclass
class Stats:
    """What all judges of one certification ran, shared between worker threads."""

    tests: int = 0
    runs: int = 0
    by_phase: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PHASES, 0))
    slowest_cpu_s: float = 0.0
    slowest_wall_s: float = 0.0
    slowest_what: str = ""
    largest_sizes: list[int] = field(default_factory=list)
    random_examples: int = 0
    #: inputs (Hypothesis examples) the random phase ran; random_examples counts the games in them
    random_inputs: int = 0
    samples: int = 0
    #: games judged against the oracle, against every fast solver (agreeing), against one fast
    #: solver alone (the cheapest, beyond the oracle's reach; see judge.CROSS_CHECK_EVERY)
    judged_by: dict[str, int] = field(default_factory=dict)
    audits: int = 0
    #: plain audits (:mod:`.audit`): passes not started plainly (the pool), audits drawn among them (the
    #: bound's n; ``audits`` adds each runner's first pass), differing yet passing, the pool's kind
    audit_pool: int = 0
    audits_drawn: int = 0
    audit_differed: int = 0
    audit_kind: str = ""
    plain_passes: int = 0  # passes of runs started as a judge starts the program: nothing to audit
    audit_s: float = (
        0.0  # seconds the audits' plain runs took (wall clock, summed over the runners)
    )
    #: faults seen once that did not reproduce in any plain run (as a judge runs the program)
    not_reproduced: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    # the name older callers use
    @property
    def slowest_s(self) -> float:
        return self.slowest_cpu_s

    def audit_counts(self) -> dict[str, Any]:
        """The plain audits' figures, to be added to another judge's (:meth:`add_audits`)."""
        return {name: getattr(self, name) for name in _AUDIT_SUMS + ("audit_kind",)}

    def add_audits(self, counts: Mapping[str, Any]) -> None:
        for name in _AUDIT_SUMS:
            setattr(
                self, name, getattr(self, name) + type(getattr(self, name))(counts.get(name, 0))
            )
        self.audit_kind = self.audit_kind or str(counts.get("audit_kind", ""))
