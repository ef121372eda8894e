"""Judging one run, and what follows a fault: confirmation, shrinking, narrowing.

Expected answers come from ``game.oracle`` within its reach and otherwise from every registered
fast solver, which must all agree (:class:`HarnessError` if they do not). Judging: the runner's
status gives RE/TLE/MLE/OLE; the output goes through ``game.parse_answer`` (PE if unreadable)
and ``game.judge`` (WA with its reason).

A fault found by a runner that keeps a process across tests is re-run in fresh processes before
it is reported (:meth:`Judge.confirm`): one that does not fail every time is reported as
nondeterministic, with the count, and still fails the certification. Passing runs are re-run
fresh now and then as an isolation audit. A confirmed fault is narrowed to one game of its batch
and shrunk by its structure, then the game's own smaller-input moves (:mod:`.shrinking`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.engine import gamecode, interrupts
from gamecert.engine.judge.expected import (  # noqa: F401 - imported from here too
    _SOLVER_COSTS,
    _SOLVERS_LOCK,
    _TIMED_CALLS,
    CROSS_CHECK_EVERY,
    SLOW_SOLVER_S,
    _cross_checked,
    expected_answer,
    judged_kind,
)
from gamecert.engine.judge.reservoir import Reservoir
from gamecert.engine.judge.stats import Stats
from gamecert.engine.plan.plan import Chunk, HarnessError
from gamecert.engine.report.reports import clip, visible, without_verdict
from gamecert.errors import AnswerError
from gamecert.verdict import Verdict

_STATUS = {"re": Verdict.RE, "tle": Verdict.TLE, "mle": Verdict.MLE, "ole": Verdict.OLE}
#: fresh re-runs of a fault before it is reported
CONFIRM_RUNS = 3
#: plain re-runs, in all, of a fault that did not show in the first CONFIRM_RUNS: if none fails,
#: the fault is not the candidate's (a judge running the program would not see it)
PLAIN_RERUNS = 10
#: faults not reproduced after which a runner runs every test as a judge runs the program
NOT_REPRODUCED_MAX = 3


@dataclass
class Failure:
    """A fault: the verdict and the exact input that shows it."""

    verdict: Verdict
    instance: Any
    input_text: str
    expected_text: str
    got_text: str
    reason: str
    phase: str
    size: int
    result: Any = None
    minimality: str = ""
    notes: list[str] = field(default_factory=list)
    expected_source: str = ""
    #: fresh re-runs: (how many failed, how many were made); None if not re-run
    reruns: tuple[int, int] | None = None
    #: what the shrinker tried: (smaller inputs run, whether it finished without a budget cut)
    shrink: tuple[int, bool] | None = None
    #: when it did not finish, what was cut (a step its time ended in, steps too large to run)
    shrink_cut: str = ""
    #: seconds spent shrinking
    shrink_s: float = 0.0
    #: where in the plan it was found: (search, chunk handed out n-th), set by the executor
    order: tuple[int, int] | None = None
    #: where the re-runs ran (a registered solver runs in-process: no fresh process)
    rerun_where: str = "in fresh processes"
    #: when it fails: the diagnosis's findings (gamecert.engine.judge.diagnose.Diagnosis.to_json)
    diagnosis: dict[str, Any] | None = None
    #: the input as first found, before it was shrunk ("": this one; a sample is named by it)
    found_input: str = ""

    @property
    def nondeterministic(self) -> bool:
        return self.reruns is not None and 0 < self.reruns[0] < self.reruns[1]

    def sort_key(self) -> tuple[int, int, str]:
        return (self.size, len(self.input_text), self.input_text)


@dataclass(frozen=True)
class ChunkOutcome:
    chunk: Chunk
    runs: int
    tests: int
    completed: bool
    failure: Failure | None


class Judge:
    """Runs inputs on a candidate through an open runner and judges each result."""

    #: seconds left for the work on a fault (the executor's fault deadline; None: no bound): the
    #: re-runs that confirm a fault stop there, after the first, whatever a test costs
    time_left: Callable[[], float | None] = staticmethod(lambda: None)

    def __init__(
        self,
        entry: Any,
        runner: Any,
        stats: Stats | None = None,
        on_test: Callable[[int], None] | None = None,
        expected_cache: dict[str, tuple[Any, str]] | None = None,
        on_event: Callable[..., None] | None = None,
        known: Mapping[str, tuple[Any, str]] | None = None,
        wanted: Mapping[str, Any] | None = None,
    ) -> None:
        self.entry = entry
        self.game = entry.game
        self.runner = runner
        self.stats = stats or Stats()
        self.on_test = on_test or (lambda n: None)
        self.on_event = on_event or (lambda text, failure=None: None)
        self._expected = expected_cache if expected_cache is not None else {}
        #: answers computed before this judge existed (input text to (answer, source)), read
        #: only: the oracle's answers on a plan's exhaustive inputs, shared by several solvers
        self.known: Mapping[str, tuple[Any, str]] = known if known is not None else {}
        #: the oracle's answers as texts, run by run, by chunk key, computed with ``known``:
        #: (the chunk's input texts, each run's expected text or None, each run's games), read
        #: only (:mod:`gamecert.engine.judge.inprocess` uses them for the chunk whose texts they are)
        self.wanted: Mapping[str, Any] = wanted if wanted is not None else {}
        self.last_result: Any = None
        #: where re-runs of a fault run: a runner says so (``rerun_where``) when not in fresh processes
        self.rerun_where: str = getattr(runner, "rerun_where", "in fresh processes")
        self._audits = 0
        #: the audits' draws: the system's random source, so that neither the seed nor anything a
        #: program sees tells which passes will be re-run
        self._draw = random.SystemRandom()
        #: set once faults did not reproduce as a judge runs the program (:data:`NOT_REPRODUCED_MAX` times)
        #: or an audit caught one (the note, a str): every later test of this runner runs that way
        self.plain_only: bool | str = False
        #: the smallest failure any run has shown so far, kept for a run that is interrupted
        #: while it shrinks or narrows one (every failure run_one returns is a genuine fault)
        self.smallest_seen: Failure | None = None
        self.passing = Reservoir()  # a uniform sample of the passes, for the diagnosis of a fault

    # -- single runs --
    def expected(self, instance: Any, text: str | None = None) -> tuple[Any, str]:
        key = text if text is not None else self.game.format_input(instance)
        found = self._expected.get(key) or self.known.get(key)
        if found is None:
            # one at a time: oracles and fast solvers keep lazily built tables and caches that
            # are not safe to fill from two threads at once
            with _SOLVERS_LOCK:
                found = self._expected.get(key)
                if found is None:
                    if len(self._expected) > 300_000:
                        self._expected.clear()
                    found = self._expected[key] = expected_answer(self.entry, instance)
        return found

    def run_one(
        self,
        instance: Any,
        phase: str,
        text: str | None = None,
        count: bool = True,
        what: str = "",
        fresh: bool = False,
        quiet: bool = True,
    ) -> Failure | None:
        """Run one input (possibly holding several games) and judge the whole of it; ``fresh``:
        as a judge runs the program (``quiet``: with no other run at the same time)."""
        game = self.game
        text = game.format_input(instance) if text is None else text
        singles = game.split(instance) if game.max_batch > 1 else (instance,)
        if len(singles) > 1:
            expected = [self.expected(s) for s in singles]
        else:
            expected = [self.expected(instance, text)]
        interrupts.checkpoint()
        run = getattr(self.runner, "run_fresh", None) if fresh or self.plain_only else None
        result = (
            run(text, quiet=False)
            if run is not None and not quiet
            else (run or self.runner.run)(text)
        )
        self.last_result = result
        self._account(
            result, len(singles), phase, what or f"{phase}, size {game.size(instance)}", count
        )
        if count:
            with self.stats.lock:
                for _, source in expected:
                    kind = judged_kind(source)
                    self.stats.judged_by[kind] = self.stats.judged_by.get(kind, 0) + 1
        with (
            _SOLVERS_LOCK,
            gamecode.section(game.name, "reading and judging an answer (parse_answer, judge)"),
        ):
            # a game's judge may consult the same caches as its solvers
            found = self._judge(instance, singles, expected, text, result, phase)
        if (
            found is not None
            and isinstance(self.plain_only, str)
            and self.plain_only not in found.notes
        ):
            found.notes.append(self.plain_only)  # why it ran as a judge runs the program
        if found is not None:
            with self.stats.lock:
                if self.smallest_seen is None or found.sort_key() < self.smallest_seen.sort_key():
                    self.smallest_seen = found
        elif count:  # a passing input kept, one in a reservoir: the diagnosis learns from it too
            self.passing.add(instance, text)
        return found

    def _account(self, result: Any, tests: int, phase: str, what: str, count: bool) -> None:
        with self.stats.lock:
            self.stats.runs += 1
            if count:
                self.stats.tests += tests
                self.stats.by_phase[phase] = self.stats.by_phase.get(phase, 0) + tests
            if result.status == "ok":
                cpu = result.cpu_s or 0.0
                if cpu > self.stats.slowest_cpu_s:
                    self.stats.slowest_cpu_s = cpu
                    self.stats.slowest_wall_s = result.wall_s or 0.0
                    self.stats.slowest_what = what
        if count:
            self.on_test(tests)

    def _judge(
        self,
        instance: Any,
        singles: Sequence[Any],
        expected: list[tuple[Any, str]],
        text: str,
        result: Any,
        phase: str,
    ) -> Failure | None:
        found = self._judge_once(instance, singles, expected, text, result, phase)
        if found is None or all(_cross_checked(source) for _, source in expected):
            return found
        # a failure judged against one fast solver's answers: every solver answers those games
        # again (they must agree, else HarnessError) before the verdict stands
        rechecked = []
        for single, (answer, source) in zip(singles, expected):
            if not _cross_checked(source):
                answer, source = expected_answer(self.entry, single, every=True)
                self._expected[self.game.format_input(single)] = (answer, source)
            rechecked.append((answer, source))
        return self._judge_once(instance, singles, rechecked, text, result, phase)

    def _judge_once(
        self,
        instance: Any,
        singles: Sequence[Any],
        expected: list[tuple[Any, str]],
        text: str,
        result: Any,
        phase: str,
    ) -> Failure | None:
        game = self.game
        if len(singles) > 1:
            expected_text = "".join(game.format_answer(e) for e, _ in expected)
        else:
            expected_text = game.format_answer(expected[0][0])
        source = expected[0][1]

        def failure(verdict: Verdict, reason: str, got_text: str) -> Failure:
            return Failure(
                verdict,
                instance,
                text,
                expected_text,
                got_text,
                reason,
                phase,
                game.size(instance),
                result,
                expected_source=source,
            )

        if result.status != "ok":
            verdict = _STATUS.get(result.status, Verdict.RE)
            return failure(
                verdict, _without_status(result.describe(), result.status), clip(result.stdout)
            )
        if (
            result.stdout == expected_text
        ):  # the expected answer's own text, byte for byte: accepted,
            return None  # as a checker accepts the reference's output
        try:
            got = game.parse_answer(result.stdout, instance)
        except (
            AnswerError
        ) as exc:  # PE (a malformed number) or WA (a wrong, missing or extra token)
            return failure(Verdict(exc.verdict), str(exc), clip(result.stdout))
        if len(singles) == 1:
            reason = game.judge(instance, got, expected[0][0])
        else:
            # the canonical answers of the games, one after another, are the batch's answer
            reason = None
            parts = game.split_answer(instance, got)
            for k, (single, part, (exp, _)) in enumerate(zip(singles, parts, expected), 1):
                why = game.judge(single, part, exp)
                if why is not None:
                    reason = f"game {k} of {len(singles)}: {why}"
                    break
        if reason is None:
            return None
        return failure(Verdict.WA, reason, clip(result.stdout))

    # -- chunks --
    def run_chunk(
        self,
        chunk: Chunk,
        stop: Callable[[], bool] = lambda: False,
        shrink_seconds: float | Callable[[], float] = 30.0,
    ) -> ChunkOutcome:
        """Every input of ``chunk`` in order until ``stop()``; a fault is confirmed, narrowed and
        shrunk before it is returned."""
        answer_text = getattr(self.runner, "answer_text", None)
        if answer_text is not None and not self.plain_only:  # an in-process solver: one tight loop
            from gamecert.engine.judge.inprocess import run_chunk_in_process

            runs, tests, found = run_chunk_in_process(
                self, chunk, answer_text, stop, _what, judged_kind
            )
            if found is not None:
                settled = self.settle(found, shrink_seconds)
                if settled is not None:
                    return ChunkOutcome(chunk, runs, tests, False, settled)
            if runs < len(
                chunk.instances
            ):  # stopped, or a fault that did not stand: the rest as below
                return self._rest_of_chunk(chunk, stop, shrink_seconds, runs, tests)
            return self._chunk_done(chunk, runs, tests)
        return self._rest_of_chunk(chunk, stop, shrink_seconds, 0, 0)

    def _rest_of_chunk(
        self,
        chunk: Chunk,
        stop: Callable[[], bool],
        shrink_seconds: float | Callable[[], float],
        start: int,
        tests: int,
    ) -> ChunkOutcome:
        """The inputs of ``chunk`` from ``start`` on, one at a time (``tests`` ran before them),
        then the plain audits drawn among its passes (:mod:`.audit`): after its last input, since
        a plain run in between would drop the tests sent ahead of it."""
        runs, done = start, True
        drawn: list[tuple[Any, str, Any, str]] = []
        for inst, text in zip(chunk.instances[start:], chunk.texts[start:]):
            if stop():
                done = False
                break
            found = self.run_one(inst, chunk.phase, text=text, what=_what(self.game, chunk, inst))
            runs += 1
            tests += len(self.game.split(inst)) if self.game.max_batch > 1 else 1
            if found is None:
                how = self._audit_drawn()
                if how:
                    drawn.append((inst, text, self.last_result, how))
                continue
            settled = self.settle(found, shrink_seconds)
            if (
                settled is not None
            ):  # (None: not reproduced as a judge runs the program, not the candidate's)
                return ChunkOutcome(chunk, runs, tests, False, settled)
        for inst, text, seen, how in drawn:
            found = self._audit(inst, chunk, text, seen, how)
            settled = self.settle(found, shrink_seconds) if found is not None else None
            if settled is not None:
                return ChunkOutcome(chunk, runs, tests, False, settled)
        return (
            self._chunk_done(chunk, runs, tests)
            if done
            else ChunkOutcome(chunk, runs, tests, False, None)
        )

    def _chunk_done(self, chunk: Chunk, runs: int, tests: int) -> ChunkOutcome:
        with self.stats.lock:
            if chunk.phase == "samples":
                self.stats.samples += tests
            elif chunk.phase == "random":
                self.stats.random_examples += tests
                self.stats.random_inputs += runs
            elif chunk.phase == "largest":
                self.stats.largest_sizes.extend(self.game.size(i) for i in chunk.instances)
        return ChunkOutcome(chunk, runs, tests, True, None)

    def _audit_drawn(self) -> str:
        """Whether (and why) the pass just run is to be audited (:func:`.audit.drawn`)."""
        from gamecert.engine.judge.audit import drawn

        return drawn(self)

    def _audit(self, instance: Any, chunk: Chunk, text: str, seen: Any, how: str) -> Failure | None:
        """A pass re-run plainly, its output compared with ``seen`` (:func:`.audit.audit_pass`)."""
        from gamecert.engine.judge.audit import audit_pass

        # (typed here: audit.py imports nothing of this module, which would be a circle)
        audited: Failure | None = audit_pass(self, instance, chunk, text, seen, how)
        return audited

    # -- after a fault --
    def settle(self, found: Failure, shrink_seconds: float | Callable[[], float]) -> Failure | None:
        """Confirm ``found`` by re-running it as a judge runs the program; if it reproduces every
        time, narrow and shrink it. None if a sandbox runner's fault never reproduced in
        :data:`PLAIN_RERUNS` plain runs: it is then not reported as the candidate's (the
        certificate says it was seen).

        ``shrink_seconds`` may be a function: the seconds left for shrinking, asked once the
        fault is confirmed (the executor keeps a fault's work within the budget)."""
        self.on_event("confirming", found)
        confirm_started = time.perf_counter()
        found = self.confirm(found)
        per_run = (time.perf_counter() - confirm_started) / max(
            1, found.reruns[1] if found.reruns else 1
        )
        # a fault seen in a run that was not exactly a judge's (the zygote, a fork server's clone)
        # and never again in plain runs is the runner's, not the candidate's; one seen in a plain
        # run (an exec per test) that never reproduces is the program's: nondeterministic, reported
        started = getattr(found.result, "started", "") if found.result is not None else ""
        if (
            found.reruns is not None
            and found.reruns[0] == 0
            and getattr(self.runner, "run_plain", None)
            and started not in ("exec", "plain")
        ):
            with self.stats.lock:
                self.stats.not_reproduced.append(
                    f"{found.verdict.value} on {clip(visible(found.input_text), 60)!r} ({found.phase}): failed once, "
                    f"then passed {found.reruns[1]} of {found.reruns[1]} runs {self.rerun_where}"
                )
                if len(self.stats.not_reproduced) >= NOT_REPRODUCED_MAX and not self.plain_only:
                    self.plain_only = True
                    self.stats.not_reproduced.append(
                        "from here on every test of this runner ran as a judge runs the program"
                    )
            self.on_event("unconfirmed", found)  # the run goes on (plainly: the executor says)
            return None
        if found.reruns is not None and found.reruns[0] == 0:
            return found  # seen once, never again: reported as it was found (see confirm's note)
        if found.nondeterministic:
            return found
        from gamecert.engine.judge.shrinking import wanted_seconds
        from gamecert.kit.shrink import structure_of

        first = found.input_text
        if structure_of(self.game, found.instance) is None:
            found = self.narrow(found)  # a structure's batch steps do this, and more
        self.on_event("shrinking")
        wanted = wanted_seconds(self.game, found, per_run)
        seconds = _ask(shrink_seconds, wanted) if callable(shrink_seconds) else shrink_seconds
        shrunk = self.minimise(found, seconds)
        shrunk.found_input = shrunk.found_input or first
        return shrunk

    def confirm(self, found: Failure, runs: int = CONFIRM_RUNS) -> Failure:
        """Re-run ``found`` ``runs`` times as a judge runs the program (a sandbox runner's plain
        runs); say how many failed. A sandbox runner's fault that failed none of them gets more
        runs, up to :data:`PLAIN_RERUNS` in all."""
        failed, runs = self._reruns(found, runs)
        if (
            failed == 0
            and runs < PLAIN_RERUNS
            and getattr(self.runner, "run_plain", None)
            and not self._late()
        ):
            more, done = self._reruns(found, PLAIN_RERUNS - runs)
            failed, runs = failed + more, runs + done
        found.reruns = (failed, runs)
        found.rerun_where = self.rerun_where
        if failed == runs:
            return found
        total = runs + 1
        found.notes.append(
            f"nondeterministic: the input failed in {failed + 1} of {total} runs (the first run and "
            f"{failed} of {runs} re-runs {self.rerun_where}); a judge may accept or reject it, so it is "
            "not certified"
        )
        found.minimality = found.minimality or "not shrunk: the fault does not show on every run"
        return found

    def _late(self) -> bool:
        left = self.time_left()
        return left is not None and left <= 0

    def _reruns(self, found: Failure, runs: int) -> tuple[int, int]:
        """(failed, done) of up to ``runs`` re-runs: at least one, the others while time is left."""
        failed = done = 0
        for _ in range(runs):
            if done and self._late():
                break
            done += 1
            if (
                self.run_one(
                    found.instance, found.phase, text=found.input_text, count=False, fresh=True
                )
                is not None
            ):
                failed += 1
        return failed, done

    def narrow(self, found: Failure) -> Failure:
        """Turn a failing multi-game input into a one-game input, or a shortest failing prefix."""
        game = self.game
        singles = list(game.split(found.instance)) if game.max_batch > 1 else []
        if len(singles) <= 1:
            return found
        t = len(singles)
        for k, single in enumerate(singles, 1):
            alone = self.run_one(single, found.phase, count=False)
            if alone:
                alone.notes.append(
                    f"found in a batch of {t} games ({found.verdict}: {_one_line(found.reason)}); "
                    f"game {k} fails on its own, so the reported input holds that game alone"
                )
                alone.reruns, alone.rerun_where = found.reruns, found.rerun_where
                return alone
        for k in range(2, t + 1):
            prefix = game.merge(singles[:k])
            again = self.run_one(prefix, found.phase, count=False)
            if again:
                again.notes.append(
                    f"every game of the failing batch passes on its own; the first {k} games together "
                    f"fail ({again.verdict}), and no shorter prefix of the batch does"
                )
                again.reruns, again.rerun_where = found.reruns, found.rerun_where
                return again
        return found

    def minimise(self, found: Failure, seconds: float) -> Failure:
        """Shrink ``found`` within ``seconds``: by its structure, then the game's ``smaller()``
        moves (:func:`gamecert.engine.judge.shrinking.minimise`). ``found.shrink`` records how
        many smaller inputs ran and whether the search ended by itself or by its budget."""
        from gamecert.engine.judge.shrinking import minimise

        shrunk: Failure = minimise(self, found, seconds)  # (typed here: shrinking imports no judge)
        return shrunk


def _ask(shrink_seconds: Callable[..., float], wanted: float) -> float:
    """The seconds a shrink gets: asked with the seconds it wants, where the caller takes them."""
    import inspect

    takes = bool(inspect.signature(shrink_seconds).parameters)
    return shrink_seconds(wanted) if takes else shrink_seconds()


def _what(game: Any, chunk: Chunk, instance: Any) -> str:
    if chunk.phase == "exhaustive":
        return f"exhaustive, size {chunk.size}"
    return f"{chunk.group}, size {game.size(instance)}"


def _without_status(text: str, status: str) -> str:
    """A run's description without its leading status word (the verdict says it once).

    >>> _without_status("TLE: CPU time 2.1 s > limit 2 s", "tle")
    'CPU time 2.1 s > limit 2 s'
    """
    return without_verdict(text, status.upper())


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return visible(line if len(line) <= 160 else line[:157] + "...")


__all__ = [
    "ChunkOutcome",
    "Failure",
    "HarnessError",
    "Judge",
    "Stats",
    "expected_answer",
    "visible",
]
