"""After a fault: the sweep of the inputs below its size (the exhaustive spaces and the
deciding-feature families, the cheapest space first, each size listed only when reached), the
sweep at its size, and what the fault's time left unfinished; a mixin of
:class:`gamecert.engine.execute.Executor`, whose state it uses."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from gamecert.engine.judge.judge import ChunkOutcome, Failure
from gamecert.engine.plan.plan import Group

if TYPE_CHECKING:
    import threading

    from gamecert.engine.judge.judge import Judge, Stats
    from gamecert.engine.judge.outcome import GroupOutcome, Outcome
    from gamecert.engine.plan.plan import Plan

#: a space of at most this many inputs below a fault is first checked for sizes that need no run
#: (every input already ran and passed), which are counted swept even when the budget is spent
FREE_SWEEP_INPUTS = 5_000


#: single games remembered as passed (a digest each), for the sweep below a fault to leave out;
#: past this many, no more are remembered (the sweep runs them again)
PASSED_MAX = 300_000


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _call(display: Any, name: str, *args: Any) -> None:
    (getattr(display, name, None) or (lambda *a: None))(*args)


class SweepBelow:
    """The executor's work below (and at) a fault's size, the passes it need not run again, and
    the run's going on (plainly) after a fault that did not stand."""

    # the executor's state this mixin reads and sets (declared for type checking; each is set in
    # Executor.__init__, sweep_ended in _sweep_below, and described there)
    entry: Any
    plan: Plan
    jobs: int
    display: Any
    stats: Stats
    outcome: Outcome
    stop: threading.Event
    judges: list[Judge]
    by_key: dict[str, GroupOutcome]
    shrink_s: float
    error: BaseException | None
    stop_after: int | None
    segment: int
    start: float
    fault_deadline: float | None
    unextended: float | None
    passed: set[bytes]
    _structured: set[str]
    confirming: set[int]
    plain_reason: str | None
    sweep_ended: str

    if TYPE_CHECKING:

        def _run_phase(
            self,
            groups: Iterator[Group],
            interleave: bool,
            deadline: float | None,
            name: str,
            depth: bool = False,
        ) -> None: ...

    def _remember_passed(self, outcome: ChunkOutcome) -> None:
        """The single games of ``outcome``'s runs that passed, if the sweep below a fault may meet
        them again (:meth:`_sweep_below`): an exhaustive size or a deciding-feature family."""
        chunk = outcome.chunk
        if (
            chunk.phase != "exhaustive"
            and chunk.group not in self._structured
            or len(self.passed) >= PASSED_MAX
        ):
            return
        game = self.entry.game
        ran = outcome.runs - (
            1 if outcome.failure is not None else 0
        )  # the last run ran is the failing one
        for inst, text in zip(chunk.instances[:ran], chunk.texts[:ran]):
            # only a game that ran as a whole input of its own: one that passed inside a batch
            # says nothing of the input holding it alone (a program wrong on batches of one)
            if game.max_batch <= 1 or len(game.split(inst)) == 1:
                self.passed.add(_digest(text))

    def _was_passed(self, text: str) -> bool:
        return _digest(text) in self.passed

    def _go_on_plainly(self, seq: int) -> None:
        """A fault seen in the zygote or a fork server's clone that never failed in plain runs is
        not the candidate's: the run goes on (the stop it set lifted, when no other fault is
        being confirmed or was found), and every later test of every runner runs as a judge runs
        the program (a fresh ``python FILE`` or exec per test) for the rest of the plan."""
        with self.stats.lock:
            self.confirming.discard(seq)
            if not self.confirming and not self.outcome.failures and self.error is None:
                self.stop_after = None
                self.fault_deadline = None
                self.stop.clear()
            if self.plain_reason is None:
                self.plain_reason = (
                    "a fault seen in the fast runner (the zygote or a fork server's clone) did not "
                    "reproduce as a judge runs the program: every later test ran as a judge runs it "
                    "(a fresh process per test, plain `python FILE` or an exec)"
                )
                self.outcome.notes.append(self.plain_reason)
            for judge in self.judges:
                if not judge.plain_only:
                    judge.plain_only = True

    def _sweep_below(self, failure: Failure) -> None:
        """Every input below a fault's size in the exhaustive spaces and the deciding-feature
        families (the structured families), space by space, the cheapest first; a smaller failing
        input found there is swept below in turn, until none is smaller or the fault's time is up.
        A structured family the coverage phase ran whole is not run again, nor a size that ran
        whole, nor a single game that already ran and passed in this run; each size is listed
        only when the sweep reaches it (a space too large for the time left costs nothing)."""
        from gamecert.engine.plan.plan import below_spaces

        game = self.entry.game
        first = failure
        if (
            self.unextended is not None
        ):  # what a shrink was granted past the budget and left unused is not the sweep's
            assert self.fault_deadline is not None  # (set with unextended)
            self.fault_deadline = min(self.fault_deadline, max(self.unextended, time.monotonic()))
        # by counts there is no budget: the sweep gets the profile's shrinking time
        swept_until = time.monotonic() + self.shrink_s if self.plan.by_counts else None
        while True:
            deadline = swept_until if self.plan.by_counts else self.fault_deadline
            if deadline is None:
                deadline = self.start + self.plan.budget_s
            late = deadline is not None and time.monotonic() >= deadline
            # by counts (the pytest route, registered solvers): the exhaustive spaces only, as
            # before; a structured family below a long input is too dear without a deadline
            whole = [
                name
                for name, _, _ in self.plan.structured
                if self.plan.by_counts
                or (g := self.by_key.get(f"coverage-{name}")) is not None
                and g.completed
            ]
            # without the exhaustive phase (--phases), or after a fault the exhaustive phase found
            # (every size below it has run there): the structured families only
            if self.plan.phase("exhaustive") is None or (
                failure is first and first.phase == "exhaustive"
            ):
                skip = [*whole, *(sp.name for sp in game.exhaustive_spaces())]
            else:
                skip = whole
            spaces = below_spaces(game, failure.size, self.plan.profile.exhaustive, skip=skip)
            planned = [f"exhaustive-{name}-size-{s}" for name, sizes, _, _ in spaces for s in sizes]
            if not planned:
                break
            self.segment += 1
            self.stop.clear()
            self.stop_after, self.sweep_ended = None, ""
            if late:
                # what needs no run is still shown: sizes of small spaces whose every game passed
                self._run_phase(self._fresh_sizes(spaces, deadline), False, deadline, "sweep")
                self.outcome.cut.pop("sweep", None)
                self.outcome.unfinished.append(
                    f"the sweep for a smaller failing input below size {failure.size} did not start: the budget "
                    "was spent (sizes whose every input had already run and passed in this run are counted swept)"
                )
                break
            _call(
                self.display,
                "phase",
                "smaller inputs (exhaustive and structured families)",
                deadline,
            )
            before = len(self.outcome.failures)
            self._run_phase(self._fresh_sizes(spaces, deadline), False, deadline, "sweep")
            self.outcome.cut.pop("sweep", None)
            ran = self._completed()
            left = [k for k in planned if k not in ran]
            found = self.outcome.failure
            smaller = len(self.outcome.failures) > before and found is not failure
            if left and not smaller:
                self.outcome.unfinished.append(
                    f"the sweep for a smaller failing input below size {failure.size} was cut by "
                    f"{'its time (the profile shrinking time)' if self.plan.by_counts else 'the budget'} "
                    f"({len(planned) - len(left)} of {len(planned)} sizes of spaces and structured families ran "
                    f"whole; the minimal line says which spaces were swept{self.sweep_ended})"
                )
            # (when smaller, found is the new failure: `found is None` only tells mypy so)
            if not smaller or found is None or found.size >= failure.size:
                break
            failure = found
        self._sweep_at(failure)
        found = self.outcome.failure
        if found is not first:
            self.outcome.notes.append(
                f"a {first.verdict} was first found by {first.phase} at size {first.size} "
                f"({first.input_text.strip()[:40]!r}); the sweep of smaller inputs that followed found the input "
                "reported here, which comes first in size and order"
            )

    def _completed(self) -> set[str]:
        return {g.key for g in self.outcome.groups if g.completed}

    def _fresh_sizes(
        self, spaces: list[tuple[str, tuple[int, ...], Any, int]], deadline: float | None
    ) -> Iterator[Group]:
        """The groups of ``spaces`` size by size (:func:`gamecert.engine.plan.plan.size_group`), those
        that ran whole before left out, none built once ``deadline`` has passed. First, even past
        the deadline, the sizes of small spaces (:data:`FREE_SWEEP_INPUTS`) that need no run:
        every game of theirs already ran and passed in this run (a deciding-feature family the
        coverage phase ran smallest first, up to the fault)."""
        from gamecert.engine.plan.plan import size_group

        game = self.entry.game
        for _name, sizes, sp, count in spaces:
            if count > FREE_SWEEP_INPUTS:
                continue
            for size in sizes:
                if self.stop.is_set():
                    return
                if f"exhaustive-{sp.name}-size-{size}" in self._completed():
                    continue
                group = size_group(game, sp, size, passed=self._was_passed, jobs=self.jobs)
                if next(group.iter_chunks(), None) is not None:
                    break  # this size needs runs: the sweep below runs it in its turn
                yield group
        for _name, sizes, sp, _count in spaces:
            per_run = None  # seconds a run of this space's size before took, handed out to done
            for size in sizes:
                now = time.monotonic()
                if deadline is not None and now >= deadline or self.stop.is_set():
                    return
                if f"exhaustive-{sp.name}-size-{size}" in self._completed():
                    continue
                group = size_group(game, sp, size, passed=self._was_passed, jobs=self.jobs)
                if (
                    per_run is not None
                    and deadline is not None
                    and group.runs * per_run > deadline - now
                ):
                    # a size cut part-way claims nothing: the sweep ends now, with the claim it would have
                    runs = f"{group.runs:,} run{'' if group.runs == 1 else 's'}"
                    self.sweep_ended = (
                        f"; {sp.name} size {size} was not started: its {runs} at "
                        f"{per_run * 1e3:.2f} ms each need about {group.runs * per_run:.1f} s, "
                        f"and {deadline - now:.1f} s were left"
                    )
                    return
                started = time.monotonic()
                yield group
                per_run = (time.monotonic() - started) / max(1, group.runs)

    def _sweep_at(self, failure: Failure) -> None:
        """The exhaustive spaces at the fault's own size, when nothing smaller failed: the first
        failing input there in sweep order is reported instead (the same input whatever found it)."""
        from gamecert.engine.plan.plan import below_spaces

        if (
            self.plan.phase("exhaustive") is None
            or failure.phase == "exhaustive"
            or self.outcome.failure is not failure
        ):
            return
        deadline = self.fault_deadline if not self.plan.by_counts else None
        spaces = below_spaces(self.entry.game, failure.size, self.plan.profile.exhaustive, at=True)
        if not spaces or deadline is not None and time.monotonic() >= deadline:
            return
        self.segment += 1
        self.stop.clear()
        self.stop_after = None
        self._run_phase(self._fresh_sizes(spaces, deadline), False, deadline, "sweep")
        self.outcome.cut.pop("sweep", None)

    def _note_unfinished(self) -> None:
        failure = self.outcome.failure
        if (
            failure is not None
            and failure.shrink is not None
            and not failure.shrink[1]
            and not self.outcome.interrupted
        ):
            granted = getattr(self, "shrink_granted", self.shrink_s)
            given = getattr(self, "shrink_given", granted)
            cut = getattr(failure, "shrink_cut", "") or "its time was up"
            steps = failure.shrink[0]
            had = f"{given:.1f} s it had"
            bound = getattr(self, "shrink_bound", "budget")
            if bound == "brief":
                had += (
                    " (what a shrink at its size asks for: it was found by a near-constant input "
                    "of the guided search, whose near-constant families below it, swept count by count "
                    "from their fewest parts, are the way down)"
                )
            elif given < granted - 0.5 and bound == "share":
                had += (
                    f" (its share was {granted:.0f} s from the run's first shrink; the larger "
                    "faults found before it were shrunk in it first)"
                )
            elif given < granted - 0.5:  # the fault's deadline came before the shrink's own time
                had += f" (its share was {granted:.0f} s; the budget's end came first)"
            self.outcome.unfinished.append(
                f"shrinking stopped at size {failure.size} ({cut}), after trying {steps:,} smaller "
                f"input{'' if steps == 1 else 's'} in {failure.shrink_s:.1f} s of the {had}; "
                "a smaller failing input may exist"
            )
