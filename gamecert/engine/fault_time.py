"""The time of the work on a fault (a part of :class:`gamecert.engine.execute.Executor`): the
fault's deadline (the budget, or a reserve for a fault found late), how late that work may go at
most (:data:`OVERRUN` of the budget, whatever happens), and the seconds each shrink gets: the
profile's share counted from the run's first shrink, more for a large fault found early, and
less for a fault the guided search goes on below (:meth:`FaultTime._brief_shrink_seconds`).
"""

from __future__ import annotations

import time
from typing import Any

from gamecert.engine.plan.plan import Plan

#: once a fault is found, the work on it (confirming, narrowing, shrinking, the sweep for a smaller
#: one) may run to the end of the budget, and at least this share of it (between the two bounds,
#: in seconds) when the fault comes late: the run ends within the budget plus this reserve
FAULT_RESERVE = 0.10
FAULT_RESERVE_S = (3.0, 10.0)
#: a fault found before this share of the budget whose shrink asks for more than the profile's
#: shrinking time gets it, past the budget if need be (gamecert.engine.judge.shrinking.wanted_seconds)
EXTEND_BEFORE = 0.5
#: every run, fault or not, ends within this multiple of the budget, counted from the command's
#: start (builds and the runners' start included): a fault's extension for shrinking stops
#: :data:`IN_FLIGHT_S` and the diagnosis's reserve before it, and the diagnosis and the
#: sanitizer runs after it stop :data:`IN_FLIGHT_S` before it
OVERRUN = 1.25
IN_FLIGHT_S = 2.0


#: what the report's writing and the exit take after the work on a fault: kept off the overrun
WRITE_UP_S = 1.0

_command_start: list[float] = []


def command_started(at: float | None) -> None:
    """The command line's start (``gamecert certify ...`` run as a command: the time gamecert was
    imported), from which the first certification's overrun is counted; None when the command
    ends (a later certification in the same process counts from its own start)."""
    _command_start[:] = [] if at is None else [at]


def first_origin() -> float:
    """When a certification began: the first of a command counts from the command's start
    (parsing, the containment probe and the build come after it), any other from now."""
    now = time.monotonic()
    if _command_start:
        return min(now, _command_start.pop())
    return now


class FaultTime:
    """The fault's deadline and the shrinks' seconds, for the executor (by its attributes)."""

    plan: Plan
    stats: Any
    start: float
    #: when this candidate's certification began (its build included; for a process's first, the
    #: command's start): the overrun's cap counts from it, so the command as a user times it
    #: ends within OVERRUN of the budget
    origin: float
    shrink_s: float
    fault_deadline: float | None
    shrink_until: float | None
    unextended: float | None

    def reserve_s(self) -> float:
        """The time kept for a fault found late (:data:`FAULT_RESERVE`)."""
        low, high = FAULT_RESERVE_S
        return min(high, max(low, FAULT_RESERVE * self.plan.budget_s))

    def hard_end(self) -> float:
        """How late the work on a fault may go at most: the whole run (the diagnosis after it,
        which gets at least the reserve, and a test in flight included) ends within
        :data:`OVERRUN` of the budget (issue 42: a shrink that asked for 180 s took a 60 s run to
        4 min 15 s)."""
        return self.overrun_end() - self.reserve_s() - IN_FLIGHT_S

    def overrun_end(self) -> float:
        """The latest the work of a certification may end: :data:`OVERRUN` of the budget from its
        :attr:`origin` (the command's start, or this candidate's), less the report's writing."""
        return min(self.origin, self.start) + OVERRUN * self.plan.budget_s - WRITE_UP_S

    def _mark_fault(self) -> None:
        if self.fault_deadline is None and not self.plan.by_counts:
            self.fault_at = time.monotonic()
            self.fault_deadline = max(
                self.start + self.plan.budget_s, self.fault_at + self.reserve_s()
            )

    def _fault_seconds(self) -> float | None:
        """Seconds left for the work on a fault (its confirming re-runs): to the fault's deadline;
        None by counts (no budget)."""
        if self.fault_deadline is None:
            return None
        return max(0.0, self.fault_deadline - time.monotonic())

    def _shrink_seconds(self, wanted: float = 0.0) -> float:
        """Seconds shrinking may take now: the profile's, or what a fault at its size asks for
        (``wanted``: a run's cost times the runs a shrink from that size takes; at most
        :data:`~gamecert.engine.judge.shrinking.WANTED_MAX_FACTOR` times the profile's), counted
        from the first shrink of the run (a smaller fault the sweep finds later shrinks in what is
        left), within the fault's deadline (the budget, or the reserve of a fault found late)."""
        from gamecert.engine.judge.shrinking import WANTED_MAX_FACTOR

        now = time.monotonic()
        with self.stats.lock:
            if self.shrink_until is None:
                asked = min(wanted, WANTED_MAX_FACTOR * self.shrink_s)
                self.shrink_granted = max(self.shrink_s, asked)
                self.shrink_until = now + self.shrink_granted
                early = (
                    getattr(self, "fault_at", now) - self.start < EXTEND_BEFORE * self.plan.budget_s
                )
                if asked > self.shrink_s and self.fault_deadline is not None and early:
                    # a fault at a large size found early gets the time it asks for, past the budget
                    # if need be; one found later keeps what the budget and the reserve allow
                    self.unextended, self.fault_deadline = (
                        self.fault_deadline,
                        max(self.fault_deadline, min(now + asked, self.hard_end())),
                    )
        left = self.shrink_until - now
        # what ended its time (its note says so): the share, counted from the run's first shrink
        # (a larger fault found before it was shrunk in it), or the fault's deadline
        self.shrink_bound = "share"
        if self.fault_deadline is not None and self.fault_deadline - now < left:
            left, self.shrink_bound = self.fault_deadline - now, "budget"
        self.shrink_given = max(0.0, left)  # what the shrink had (its note says so)
        return self.shrink_given

    def _brief_shrink_seconds(self, wanted: float = 0.0) -> float:
        """Seconds the shrink of a fault found by a near-constant input of the guided search gets
        while the search goes on below it: what a shrink of its size asks for (``wanted``), no more,
        within the run's share (:meth:`_shrink_seconds`). The families the search sweeps below
        such a fault, from their smallest counts up, are the cheaper way down: the shrinker's scan
        of the common part's count from the top took 21 to 30 s of a 60 s run to go from 201,461
        stones to 149,171, where a family's run took about 3 ms (300 counts in 0.9 s, unloaded)
        and three families, some 1,200 counts, hold the way to 129,277."""
        left = self._shrink_seconds(wanted)
        if wanted < left:
            self.shrink_bound, self.shrink_given = "brief", wanted
            return wanted
        return left


__all__ = [
    "EXTEND_BEFORE",
    "FAULT_RESERVE",
    "FAULT_RESERVE_S",
    "IN_FLIGHT_S",
    "OVERRUN",
    "FaultTime",
]
