"""Running a plan on ``jobs`` runners at once, within its time budget.

The main thread walks the plan phase by phase and hands chunks to ``jobs`` worker threads, each with
its own runner (its own supervisor and candidate processes) and judge. A phase stops starting chunks
at its deadline (its cumulative share of the budget, :data:`gamecert.engine.plan.plan.SHARES`) and a
running chunk stops between two tests, so a slow program still ends near the budget. The first fault
stops every worker at its next test; the worker that found it confirms and shrinks it. A fault is
followed by the exhaustive sizes below its size, so that a smaller failing input is found instead.
"""

from __future__ import annotations

import dataclasses
import itertools
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from gamecert.engine import gamecode
from gamecert.engine.fault_time import FaultTime
from gamecert.engine.judge import guided_phase
from gamecert.engine.judge.judge import ChunkOutcome, Failure, Judge, Stats
from gamecert.engine.judge.outcome import GroupOutcome, Outcome
from gamecert.engine.plan.plan import (
    CORE_SHARES,
    DEPTH_SHARES,
    SHARES,
    SHRINK_SECONDS,
    Chunk,
    Group,
    Plan,
)
from gamecert.engine.plan.schedule import Spent, budgets_wanted, by_time
from gamecert.engine.sweep_below import (  # noqa: F401 (execute.FREE_SWEEP_INPUTS, as before)
    FREE_SWEEP_INPUTS,
    PASSED_MAX,
    SweepBelow,
    _call,
    _digest,
)
from gamecert.errors import GameError

#: phases the budget cut short go on before the random phase, until this share of the budget
RESUME_SHARE = 0.90
RESUMABLE = ("coverage", "worst", "exhaustive")
STOP_GRACE_S = (
    3.0  # after Ctrl-C or SIGTERM, how long the runners get to stop before they are left behind
)


class Executor(SweepBelow, FaultTime):
    """Runs a plan; ``expected_cache`` (input text to expected answer) may be shared by the
    certifications of several candidates on the same plan, so the oracle answers each input once;
    ``known`` and ``wanted`` (read only) hold answers computed before the run
    (:func:`gamecert.engine.solvers.plan_answers`)."""

    def __init__(
        self,
        entry: Any,
        plan: Plan,
        open_runner: Callable[[], Any],
        jobs: int = 1,
        display: Any = None,
        expected_cache: dict[str, Any] | None = None,
        known: Any = None,
        wanted: Any = None,
    ) -> None:
        self.entry = entry
        self.plan = plan
        self.open_runner = open_runner
        self.jobs = max(1, jobs)
        self.display = display  # phase(name, deadline), advance(tests), event(text): each optional
        self.stats = Stats()
        self.outcome = Outcome(plan, self.stats, jobs=self.jobs)
        self.stop = threading.Event()
        self.tasks: queue.Queue[tuple[Chunk, float | None, int] | None] = queue.Queue()
        self.results: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.expected_cache: dict[str, Any] = expected_cache if expected_cache is not None else {}
        self.known = known
        self.wanted = wanted
        self.judges: list[Judge] = []
        self.threads: list[threading.Thread] = []
        self.in_flight = 0
        self.by_key: dict[str, GroupOutcome] = {}
        self.shrink_s = SHRINK_SECONDS.get(plan.profile.name, 30.0)
        self.error: BaseException | None = None
        #: after a fault found by the chunk handed out n-th, chunks handed out before it go on, so the
        #: fault reported is the first in plan order whatever the timing (None: no fault; -1: stop all)
        self.stop_after: int | None = None
        self.seq = 0
        #: a new segment starts with the sweep of smaller inputs that follows a fault
        self.segment = 0
        #: what the budget cut short, per phase: chunks (or their rests) and the chunks not yet cut
        self.leftover: dict[str, list[Chunk]] = {}
        self.rest: dict[str, Iterator[Chunk]] = {}
        self._local = threading.local()
        self.start = time.monotonic()
        #: when the certification began (FaultTime.origin; the caller sets an earlier one)
        self.origin = self.start
        #: set when the first fault is seen: the end of everything done about it (None: by counts)
        self.fault_deadline: float | None = None
        #: when shrinking must end (set by the first shrink of the run); the fault's deadline before
        self.shrink_until: float | None = None  # that shrink's extension past it, if it had one
        #: the chunks whose fault shrinks briefly (:meth:`_brief_shrink_seconds`)
        self.brief_keys: set[str] = set()
        self.unextended: float | None = None
        #: set when the runners may be stuck (game code past its limit, Ctrl-C): stop waiting soon
        self.abandon = False
        self._interrupted_at: float | None = None
        #: digests of the single games that ran and passed in the groups the sweep below a fault
        #: may run again (exhaustive sizes, deciding-feature families): the sweep leaves them out
        self.passed: set[bytes] = set()
        self._structured = {f"coverage-{name}" for name, _, _ in plan.structured}
        #: runner time each group's finished chunks took (the designed phases are scheduled by it)
        self.spent: dict[str, Spent] = {}
        self.deadline: float | None = None  # the deadline of the chunks being handed out
        self.midway: Callable[[], None] | None = None  # once, before random (see :meth:`run`)
        self.midway_share = 0.0  # its part of the budget, taken from the phases before it
        #: chunks (by the order they were handed out) whose fault is being confirmed
        self.confirming: set[int] = set()
        #: why every test runs as a judge runs the program (:meth:`_go_on_plainly`), once it does
        self.plain_reason: str | None = None

    # ---- workers --------------------------------------------------------------------------
    def _event(self, text: str, failure: Failure | None = None) -> None:
        if text == "confirming":
            seq = getattr(self._local, "seq", -1)
            with self.stats.lock:
                self._mark_fault()
                self.confirming.add(seq)
                if self.stop_after is None or (0 <= seq < self.stop_after):
                    self.stop_after = seq
            self.stop.set()  # the chunks handed out after this one stop at their next test
        elif text == "unconfirmed":
            self._go_on_plainly(getattr(self._local, "seq", -1))
            return
        _call(self.display, "event", text)

    def _stopped(self, seq: int, deadline: float | None) -> bool:
        if deadline is not None and time.monotonic() >= deadline:
            return True
        if not self.stop.is_set():
            return False
        after = self.stop_after
        return after is None or after < 0 or seq > after

    def _say_how(self, runner: Any) -> None:
        """Once per run: how the runner starts each test and counts its processes (a sandbox
        runner says; the certificate and report carry it as notes)."""
        lines = [
            f"each test started as: {runner.startup}" if getattr(runner, "startup", "") else "",
            f"processes, CPU and memory: {runner.accounting}"
            if getattr(runner, "accounting", "")
            else "",
        ]
        with self.stats.lock:
            for line in lines:
                if line and line not in self.outcome.notes:
                    self.outcome.notes.append(line)

    def _worker(self) -> None:
        runner = judge = None
        try:
            while True:
                item = self.tasks.get()
                if item is None:
                    return
                chunk, deadline, seq = item
                self._local.seq = seq
                try:
                    if runner is None:
                        runner = self.open_runner()
                        judge = Judge(
                            self.entry,
                            runner,
                            self.stats,
                            on_test=getattr(self.display, "advance", None),
                            expected_cache=self.expected_cache,
                            on_event=self._event,
                            known=self.known,
                            wanted=self.wanted,
                        )
                        judge.time_left = self._fault_seconds
                        if self.plain_reason is not None:
                            judge.plain_only = True
                        self.judges.append(judge)
                        self._say_how(runner)

                    def stop(seq: int = seq, deadline: float | None = deadline) -> bool:
                        return self._stopped(seq, deadline)

                    ahead = getattr(runner, "expect", None)
                    if ahead is not None:  # the chunk's inputs in order: each sent ahead of its run
                        ahead(chunk.texts)
                    assert judge is not None  # (made with the runner)
                    try:
                        began = time.monotonic()
                        shrink = (
                            self._brief_shrink_seconds
                            if chunk.key in self.brief_keys
                            else self._shrink_seconds
                        )
                        outcome = judge.run_chunk(chunk, stop, shrink)
                    finally:
                        # nothing left sent ahead once the chunk is over: a test sent ahead holds
                        # the gate, and another runner's quiet re-run waits for the gate to empty
                        if ahead is not None:
                            ahead(())
                except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which decides
                    self.results.put(("error", exc))
                    continue
                self.results.put(("done", (outcome, seq, time.monotonic() - began)))
        finally:
            if runner is not None:
                runner.close()

    def _start(self) -> None:
        for i in range(self.jobs):
            t = threading.Thread(target=self._worker, name=f"gamecert-runner-{i}", daemon=True)
            t.start()
            self.threads.append(t)

    def _shutdown(self) -> None:
        self.stop.set()
        for _ in self.threads:
            self.tasks.put(None)
        # a runner stuck in game code (a hang there is reported, not waited for) is left behind:
        # its thread is a daemon and its processes end with this one
        until = time.monotonic() + (STOP_GRACE_S if self.abandon else 1e9)
        for t in self.threads:
            t.join(None if not self.abandon else max(0.0, until - time.monotonic()))

    # ---- results ----------------------------------------------------------------------------
    def _collect(self, block: bool) -> None:
        while self.in_flight:
            try:
                kind, value = self.results.get(timeout=0.2) if block else self.results.get_nowait()
            except queue.Empty:
                late = gamecode.overdue()
                # game code hangs in a runner: it cannot be stopped, only reported
                if late is not None:
                    self.abandon = True
                    self.stop.set()
                    raise late from None
                if (
                    self._interrupted_at is not None
                    and time.monotonic() - self._interrupted_at > STOP_GRACE_S
                ):
                    self.abandon = True
                    return
                if block:
                    continue
                return
            self.in_flight -= 1
            if kind == "error":
                if isinstance(value, KeyboardInterrupt):
                    raise KeyboardInterrupt
                self.error = self.error or gamecode.blame(value) or value
                self.stop.set()
            else:
                self._record(*value)
            block = False

    def _record(self, outcome: ChunkOutcome, seq: int, took: float = 0.0) -> None:
        group = self.by_key[outcome.chunk.group]
        chunk = outcome.chunk
        self.spent.setdefault(chunk.group, Spent()).add(outcome.runs, took)
        if (
            not outcome.completed
            and outcome.failure is None
            and not self.stop.is_set()
            and chunk.phase in RESUMABLE
            and not group.depth  # the depth beyond a core is open-ended: its rest is not resumed
            and len(chunk.instances) - outcome.runs > 0
        ):
            # stopped by its deadline part-way: the rest may run later
            left = dataclasses.replace(
                chunk,
                instances=chunk.instances[outcome.runs :],
                texts=chunk.texts[outcome.runs :],
                games=max(1, chunk.games - outcome.tests),
            )
            self.leftover.setdefault(chunk.phase, []).append(left)
        group.done += outcome.tests
        group.runs_done += outcome.runs
        self._remember_passed(outcome)
        if outcome.completed:
            group.chunks_done += 1
        if outcome.failure is not None:
            group.failed = True
            outcome.failure.order = (self.segment, seq)
            self.outcome.failures.append(outcome.failure)

    def _drain(self) -> None:
        while self.in_flight and not self.abandon:
            self._collect(block=True)

    def _submit(self, chunk: Chunk, deadline: float | None) -> None:
        while self.in_flight >= self.jobs:
            self._collect(block=True)
        self.tasks.put((chunk, deadline, self.seq))
        self.seq += 1
        self.in_flight += 1

    def run(self) -> Outcome:
        """Run the plan; KeyboardInterrupt ends it early with what was found (``interrupted``).
        :attr:`midway` (the sanitizer phase) runs once, faultless, before random or largest."""
        plan = self.plan
        start = self.start = time.monotonic()
        self._start()
        try:
            for phase in [*plan.phases, None]:
                if (
                    self.midway
                    and (
                        getattr(phase, "name", "end") in ("random", "largest", "end")
                        and plan.core is None
                        or getattr(phase, "name", "end") in ("random", "end")
                        or getattr(phase, "depth", False)
                    )
                    and not self.outcome.failures
                    and self.error is None
                ):
                    self.midway, _ = None, self.midway()  # type: ignore[misc]  # (called before the None is stored; mypy reads it after)
                if (
                    phase is None
                    or self.outcome.failures
                    or self.error is not None
                    or self.outcome.interrupted
                ):
                    break
                share = self._share(phase)
                # a sweep fixed by counts runs whole; the designed families keep their time shares
                fixed = (phase.name == "exhaustive" and plan.by_counts) or (
                    phase.name == "random" and plan.random_fixed
                )
                deadline = (
                    None
                    if fixed or plan.by_counts and share is None
                    else start + (1.0 if share is None else share) * plan.budget_s
                )  # samples, largest: the budget's end
                if deadline is not None and time.monotonic() >= deadline:
                    if not phase.depth:  # the depth beyond a core is open-ended: never a cut
                        self.outcome.cut[phase.name] = 0.0
                        self._note_skipped(phase)
                    continue
                if phase.name == "random" and not self.outcome.failures and self.error is None:
                    self._resume(start)
                _call(self.display, "phase", phase.name, deadline)
                (
                    guided_phase.run_phase(self, deadline)
                    if phase.name == "guided"  # a search that drives itself
                    else self._run_phase(
                        phase.groups(), phase.interleave, deadline, phase.name, phase.depth
                    )
                )
                if not self.outcome.failures and self.error is None:
                    _call(self.display, "phase_done", self.outcome, phase.name)
            failure = self.outcome.failure
            if (
                failure is not None and self.error is None and failure.phase != "sanitizer"
            ):  # (shrunk by its builds)
                _call(self.display, "sweeping", self.outcome, failure)
                self._sweep_below(failure)
        except KeyboardInterrupt:
            self.outcome.interrupted = True
            self.stop_after = -1
            self.stop.set()
            self._interrupted_at = time.monotonic()
            try:
                self._drain()
            except (KeyboardInterrupt, GameError):
                self.abandon = True
        except BaseException:
            self.abandon = True  # the main thread stops on an error: the runners get a grace period
            raise
        finally:
            self._shutdown()
        self._note_unfinished()
        self.outcome.budget_wanted = budgets_wanted(self.outcome, self.spent, self.jobs)
        if self.outcome.interrupted:
            for judge in self.judges:
                pending = judge.smallest_seen
                if pending is not None and all(pending is not f for f in self.outcome.failures):
                    pending.notes.append(
                        "the run was interrupted while this fault was being confirmed or "
                        "minimised; a smaller failing input may exist"
                    )
                    self.outcome.failures.append(pending)
        if self.error is not None and not self.outcome.interrupted:
            raise self.error
        return self.outcome

    def _share(self, phase: Any) -> float | None:
        """The cumulative share of the budget by which ``phase`` stops starting chunks: with a
        certification core, the core's bounded phases first (:data:`CORE_SHARES`: not cut to
        make room for the guided or sanitizer phases, which come after the core) and the depth's
        (:data:`DEPTH_SHARES`); else :data:`SHARES`, less when a guided phase will run."""
        # (the guided phase's instrumented build starts with the first phase, core or not)
        guided_phase.applies(self)
        if self.plan.core is not None and phase.name != "guided":
            if phase.depth:
                return DEPTH_SHARES.get(phase.name, SHARES.get("random"))
            if phase.name in CORE_SHARES:
                return CORE_SHARES[phase.name]
        return guided_phase.share(self, phase.name, SHARES.get(phase.name))

    def _resume(self, start: float) -> None:
        """Before the random phase: go on with the phases the budget cut short, in priority order,
        until :data:`RESUME_SHARE` of the budget; a phase that now ends whole is no longer cut."""
        deadline = start + RESUME_SHARE * self.plan.budget_s
        for name in RESUMABLE:
            if name not in self.leftover and name not in self.rest:
                continue
            if time.monotonic() >= deadline or self.outcome.failures:
                return
            chunks = itertools.chain(self.leftover.pop(name, []), self.rest.pop(name, iter(())))
            _call(self.display, "phase", f"{name} (resumed)", deadline)
            self.outcome.cut.pop(name, None)
            self._submit_all(chunks, deadline, name, False)
            self._drain()
            if name not in self.outcome.cut and self.leftover.get(name):
                self.outcome.cut[name] = deadline  # a chunk stopped part-way at the deadline
            if not self.outcome.failures:
                _call(self.display, "phase_done", self.outcome, name)

    def _note_skipped(self, phase: Any) -> None:
        if phase.name not in ("coverage", "worst"):
            return  # the evidence lists spaces not swept from the plan; random blocks are endless
        for group in phase.groups():
            self._register(group)

    def _run_phase(
        self,
        groups: Iterator[Group],
        interleave: bool,
        deadline: float | None,
        name: str,
        depth: bool = False,
    ) -> None:
        # random blocks by time are endless: running until the deadline is the plan, not a cut;
        # so is the depth beyond a certification core
        endless = depth or name == "random" and not self.plan.random_fixed
        chunks = self._interleaved(groups) if interleave else self._in_order(groups)
        self._submit_all(chunks, deadline, name, endless)

    def _submit_all(
        self, chunks: Iterator[Chunk], deadline: float | None, name: str, endless: bool
    ) -> None:
        self.deadline = deadline
        while True:
            while (
                self.in_flight >= self.jobs
            ):  # a runner free first: the next chunk chosen with what is known now
                self._collect(block=True)
            chunk = next(chunks, None)
            if chunk is None or self.stop.is_set():
                break
            if deadline is not None and time.monotonic() >= deadline:
                if not endless:
                    self.outcome.cut[name] = deadline
                    # kept, to go on with if time is left once the later phases are done
                    self.leftover.setdefault(name, []).append(chunk)
                    self.rest[name] = chunks
                break
            self._submit(chunk, deadline)
            self._collect(block=False)
        self._drain()
        if (
            not endless
            and deadline is not None
            and time.monotonic() >= deadline
            and any(
                g.phase == name and not g.completed and not g.failed for g in self.outcome.groups
            )
        ):
            self.outcome.cut[name] = deadline

    def _register(self, group: Group) -> GroupOutcome:
        lazy = group.lazy is not None
        outcome = GroupOutcome(
            group.phase,
            group.key,
            group.label,
            group.tests,
            chunks=0 if lazy else len(group.eager),
            size=group.size,
            spaces=group.spaces,
            adversary=group.adversary,
            space_counts=group.space_counts,
            runs=group.runs,
            listed_all=not lazy,
            depth=group.depth,
        )
        self.by_key[group.key] = outcome
        self.outcome.groups.append(outcome)
        return outcome

    def _in_order(self, groups: Iterator[Group]) -> Iterator[Chunk]:
        for group in groups:
            outcome = self._register(group)
            for chunk in group.iter_chunks():
                if group.lazy is not None:
                    outcome.chunks += 1
                yield chunk
            outcome.listed_all = True
            if self.stop.is_set():
                return

    def _interleaved(self, groups: Iterator[Group]) -> Iterator[Chunk]:
        """The families' chunks by runner time (:func:`gamecert.engine.plan.schedule.by_time`), cut as reached."""
        first = self.plan.profile.first_pass
        lanes = [
            (
                g.key,
                g.iter_chunks(),
                g.runs,
                lambda o=o: setattr(o, "listed_all", True),
                lambda o=o: setattr(o, "chunks", o.chunks + (not o.listed_all)),
                g.first and first,
            )
            for g in groups
            for o in [self._register(g)]
        ]
        yield from by_time(
            lanes,  # type: ignore[arg-type]  # mypy types the lambdas above by their loop-binding defaults
            self.spent,
            lambda: (
                None
                if self.deadline is None
                else max(0.0, self.deadline - time.monotonic()) * self.jobs
            ),
        )


__all__ = ["Executor", "GroupOutcome", "Outcome"]
