"""One engine call certifies a candidate: plan, run, evidence, report files, and its result.

:func:`certify` takes the :class:`Options` every candidate of a command shares (checked once by
:func:`options`) and one candidate (a file, a command line, or ``solver:NAME``); it builds the
:class:`gamecert.engine.plan.plan.Plan`, runs it with :class:`gamecert.engine.execute.Executor`,
writes the report (the smallest fault found) or the certificate (what was covered) and returns a
:class:`CandidateResult`: the verdict, the exit status, the report's path, the counts, and the
lines that tell the outcome. The front ends (``gamecert certify``, ``gamecert certify all``, the
pytest route) parse options and print: the lines go to ``say`` as they come (nothing is printed
here), the live progress to ``display``.

:func:`certify_many` certifies several candidates one after another on one plan (the oracle's
answers shared) and writes ``summary.json``; :func:`summary_lines` is its table as plain text.
"""

from __future__ import annotations

import math
import os
import random
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.engine.execute import Executor
from gamecert.engine.interrupts import _signals_deferred
from gamecert.engine.judge import guided
from gamecert.engine.judge.evidence import (
    build_certificate,
    build_report,
    compile_error_report,
    failure_lines,
    found_by,
    minimality_brief,
)
from gamecert.engine.judge.judge import Failure, visible
from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.judge.sanitize import applies, phase_seconds, run_phase
from gamecert.engine.plan.plan import PHASES, RUNS_ENV, SHARES, Plan, make_plan
from gamecert.engine.plan.plan import exhaustive_tests as exhaustive_tests_by_count
from gamecert.engine.plan.profiles import get_profile
from gamecert.engine.report.diagnosis import diagnosis_line, diagnosis_short
from gamecert.engine.report.report_files import (
    _write_somewhere,
    check_report_dir,
    write_certificate,
    write_report,
)
from gamecert.engine.report.reports import Provenance
from gamecert.engine.run.contain import probe, stamp
from gamecert.engine.run.limits import game_limits
from gamecert.engine.run.subjects import IN_PROCESS_NOTE, SOLVER_PREFIX, SolverRunner, SolverSubject

# the front ends import the summary's names from here
from gamecert.engine.summary import (
    SUMMARY_HEADERS,  # noqa: F401
    CandidateResult,
    summary_lines,  # noqa: F401
    summary_rows,  # noqa: F401
    write_summary,
)
from gamecert.errors import GamecertError, UsageError
from gamecert.verdict import INCOMPLETE, INTERRUPTED, Verdict, passing_status

#: the largest time budget accepted: a week
MAX_BUDGET_S = 7 * 86_400.0

Say = Callable[[str], None]


def check_budget(value: float | None) -> float | None:
    """``--budget``, checked: a positive number of seconds up to a week (None: the profile's)."""
    if value is None:
        return None
    if not (value > 0 and math.isfinite(value)) or value > MAX_BUDGET_S:
        raise UsageError(
            f"--budget must be a positive number of seconds up to {MAX_BUDGET_S:g} (a week), got {value}"
        )
    return value


def check_jobs(value: int | None) -> int:
    """``--jobs``, checked (None: one per core)."""
    if value is None:
        return max(1, os.cpu_count() or 1)
    if value < 1 or value > 1024:
        raise UsageError(f"--jobs must be between 1 and 1024, got {value}")
    return value


@dataclass(frozen=True)
class Options:
    """What every candidate of one certification command shares (see :func:`options`)."""

    entry: Any
    profile: Any
    seed: int
    limits: Any
    budget: float | None
    jobs: int
    examples: int | None
    exhaustive_tests: int | None
    report_dir: str
    fork_server: bool = True
    contain: bool = True
    compile: str | None = None
    python: str | None = None
    phases: tuple[str, ...] | None = None
    #: PASSED (incomplete) exits 1, as a fault does (``--strict``)
    strict: bool = False


def options(
    entry: Any,
    *,
    profile: str | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    memory_limit: int | None = None,
    budget: float | None = None,
    jobs: int | None = None,
    examples: int | None = None,
    exhaustive_runs: int | None = None,
    report_dir: str | None = None,
    fork_server: bool = True,
    contain: bool = True,
    compile: str | None = None,
    python: str | None = None,
    phases: str | None = None,
    strict: bool = False,
) -> Options:
    """The options of a certification of ``entry``'s game, checked before anything runs (a
    :class:`UsageError` names the bad one); the report folder is checked now too, not after the
    run has found something, and a game error's traceback will go beside the reports."""
    if examples is not None and examples < 0:
        raise UsageError(f"--examples must be 0 or more, got {examples}")
    chosen_profile = get_profile(profile)
    seed = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    limits = game_limits(entry.game, time_limit, memory_limit)
    budget = check_budget(budget)
    jobs_n = check_jobs(jobs)
    exhaustive_tests = None
    if exhaustive_runs is not None:
        if exhaustive_runs < 0:
            raise UsageError(f"--exhaustive-runs must be 0 or more, got {exhaustive_runs}")
        exhaustive_tests = exhaustive_runs * max(1, entry.game.max_batch)
    elif os.environ.get(RUNS_ENV):
        exhaustive_tests = exhaustive_tests_by_count(entry.game, chosen_profile)
    report_dir = report_dir if report_dir is not None else "reports"
    check_report_dir(report_dir, entry.game.name)
    from gamecert.engine.gamecode import set_traceback_dir

    set_traceback_dir(report_dir)
    chosen = tuple(p.strip() for p in phases.split(",") if p.strip()) if phases else None
    return Options(
        entry,
        chosen_profile,
        seed,
        limits,
        budget,
        jobs_n,
        examples,
        exhaustive_tests,
        report_dir,
        fork_server=fork_server,
        contain=contain,
        compile=compile,
        python=python,
        phases=chosen,
        strict=strict,
    )


def registered_solver(
    entry: Any, spec: str, compile: str | None = None, python: str | None = None
) -> str | None:
    """The registered solver a ``solver:NAME`` candidate names (checked), or None for a program."""
    spec = spec.strip()
    if not spec.startswith(SOLVER_PREFIX):
        return None
    name = spec[len(SOLVER_PREFIX) :]
    if name not in entry.solvers:
        raise UsageError(
            f"{entry.name} has no registered solver {name!r}; its solvers: "
            + ", ".join(SOLVER_PREFIX + n for n in sorted(entry.solvers))
        )
    for value, flag in ((compile, "--compile"), (python, "--python")):
        if value is not None:
            raise UsageError(
                f"{flag} applies to a source file candidate, and {spec!r} is a registered solver"
            )
    return name


def build_candidate(opts: Options, spec: str) -> Any:
    """The candidate ``spec`` names, built; a :class:`CompileError` is returned, not raised (a
    CE is a verdict). ``solver:NAME`` names a registered solver, run in-process. A candidate that
    cannot be used at all (missing, not executable, no toolchain) is a :class:`UsageError`."""
    from gamecert.engine.run.sandbox import Candidate
    from gamecert.engine.run.toolchains import CompileError

    solver = registered_solver(opts.entry, spec, opts.compile, opts.python)
    if solver is not None:
        return SolverSubject(opts.entry.name, solver)
    try:
        return Candidate.parse(spec, compile=opts.compile, python=opts.python)
    except CompileError as exc:
        return exc


def certify(
    opts: Options,
    spec: str,
    candidate: Any = None,
    *,
    expected_cache: dict[str, Any] | None = None,
    say: Say | None = None,
    display: Callable[[str, float], Any] | None = None,
) -> CandidateResult:
    """Certify one candidate (built now from ``spec`` unless given) and write its report or
    certificate; its result. ``say`` gets the lines as they come, ``display(title, budget_s)``
    makes the live progress (a context manager with ``phase``, ``advance`` and ``event``)."""
    from gamecert.engine.run.toolchains import CompileError

    candidate = build_candidate(opts, spec) if candidate is None else candidate
    if isinstance(candidate, CompileError):
        return _compile_error(opts, spec, candidate, say)
    entry = opts.entry
    plan = make_plan(
        entry,
        opts.profile,
        opts.seed,
        budget_s=opts.budget,
        examples=opts.examples,
        exhaustive_tests=opts.exhaustive_tests,
        phases=opts.phases,
    )
    if isinstance(
        candidate, SolverSubject
    ):  # in-process: one runner (the interpreter is shared), no sandbox
        from gamecert.engine.solvers import reference_entry

        solver = candidate.name
        function = entry.solvers[solver]
        return run_one_certification(
            reference_entry(entry, solver),
            candidate,
            plan,
            opts.limits,
            opts.report_dir,
            jobs=1,
            runner_factory=lambda: SolverRunner(entry, solver, function),
            spec=spec,
            say=say,
            display=display,
            strict=opts.strict,
        )
    provenance = Provenance.of(candidate, opts.compile, opts.python)
    return run_one_certification(
        entry,
        candidate,
        plan,
        opts.limits,
        opts.report_dir,
        jobs=opts.jobs,
        runner_factory=lambda: _open(candidate, opts.limits, opts.fork_server, opts.contain),
        containment=probe(opts.contain),
        provenance=provenance,
        expected_cache=expected_cache,
        spec=spec,
        say=say,
        display=display,
        strict=opts.strict,
    )


def _open(candidate: Any, limits: Any, fork_server: bool, contain: bool) -> Any:
    from gamecert.engine.run.sandbox import open_runner

    return open_runner(candidate, limits, fork_server=fork_server, contain=contain)


class _Lines:
    """The lines of one certification: kept for its result, and handed to ``say`` as they come."""

    def __init__(self, say: Say | None) -> None:
        self.say = say
        self.lines: list[str] = []

    def __call__(self, text: str = "") -> None:
        self.lines.append(text)
        if self.say is not None:
            self.say(text)


class _NoDisplay:
    def __enter__(self) -> _NoDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def phase(self, name: str, deadline: float | None) -> None: ...
    def advance(self, tests: int) -> None: ...
    def event(self, text: str) -> None: ...


class _Progress:
    """What the executor tells: the live progress to the front end's display, and a line for
    each phase as it ends (and for a fault as soon as it is seen) to the certification's lines."""

    #: phases the executor may go on with after the budget cut them (before the random phase)
    RESUMABLE = ("coverage", "worst", "exhaustive")

    def __init__(self, display: Any, out: _Lines, game: Any = None) -> None:
        self.display, self.out, self.game = display, out, game
        self.reported: set[str] = set()  # phases whose line is already out
        #: a cut phase's line, held until it is resumed (one line per phase, the last word)
        self.held: dict[str, str] = {}

    def phase(self, name: str, deadline: float | None) -> None:
        if self.held and name in ("random", "largest"):  # the cut phases are not resumed after this
            self._release()
        self.display.phase(name, deadline)

    def advance(self, tests: int) -> None:
        self.display.advance(tests)

    def event(self, text: str) -> None:
        self.display.event(text)

    def phase_done(self, outcome: Outcome, name: str) -> None:
        line = phase_line(outcome, name, self.game)
        if not line or name in self.reported:
            return
        if name in outcome.cut and name in self.RESUMABLE and name not in self.held:
            self.held[name] = line  # it may go on before the random phase: its line waits
            return
        self.held.pop(name, None)
        self.reported.add(name)
        self.out(line)

    def _release(self) -> None:
        for name, line in list(self.held.items()):
            self.held.pop(name)
            if name not in self.reported:
                self.reported.add(name)
                self.out(line)

    def flush(self, outcome: Outcome) -> None:
        """At the end: the held lines of cut phases never resumed, and, when nothing failed, a line
        for each phase the budget cut before it started."""
        self._release()
        if outcome.failures:
            return
        for name in PHASES:
            if name in outcome.cut and name not in self.reported:
                line = phase_line(outcome, name, self.game)
                if line:
                    self.reported.add(name)
                    self.out(line)

    def sweeping(self, outcome: Outcome, failure: Failure) -> None:
        self._release()
        self.reported.add(failure.phase)
        self.out(
            f"  {failure.phase:<11} {fail_status(self.game, failure)}; sweeping smaller inputs for a minimal one"
        )


def run_certification(
    entry: Any,
    candidate: Any,
    plan: Plan,
    limits: Any,
    report_dir: str,
    *,
    jobs: int = 1,
    runner_factory: Callable[[], Any],
    containment: Any = None,
) -> int:
    """Certify ``candidate`` on ``plan``; the exit status (see :func:`run_one_certification`)."""
    return run_one_certification(
        entry,
        candidate,
        plan,
        limits,
        report_dir,
        jobs=jobs,
        runner_factory=runner_factory,
        containment=containment,
    ).status


def run_one_certification(
    entry: Any,
    candidate: Any,
    plan: Plan,
    limits: Any,
    report_dir: str,
    *,
    jobs: int = 1,
    runner_factory: Callable[[], Any],
    containment: Any = None,
    provenance: Provenance | None = None,
    expected_cache: dict[str, Any] | None = None,
    spec: str | None = None,
    say: Say | None = None,
    display: Callable[[str, float], Any] | None = None,
    strict: bool = False,
) -> CandidateResult:
    """Run ``plan`` on ``candidate`` (a runner from ``runner_factory`` per job), write the report
    or certificate; the result, its lines handed to ``say`` as they come. A C or C++ source's
    sanitizer phase runs within the budget, after the guided phase and before the random phase
    (``Executor.midway``), for at most :func:`phase_seconds` of it, taken from the phases before
    it; what it leaves goes to the random phase."""
    out = _Lines(say)
    game = entry.game
    by = "fixed counts" if plan.by_counts else f"budget {plan.budget_s:g} s"
    sanitizer_s = phase_seconds(plan.budget_s)
    if not applies(candidate):
        by += (
            f", then up to {sanitizer_s:g} s of sanitizer runs"
            if plan.by_counts
            else f" (up to {sanitizer_s:g} s of it for sanitizer runs)"
        )
    limited = (
        "in-process, no time or memory limit"
        if isinstance(candidate, SolverSubject)
        else f"{limits.time_s:g} s CPU per test, {limits.memory_mb} MB"
    )
    out(
        f"gamecert certify {game.name} {candidate.spec}: profile {plan.profile.name}, {by}, "
        f"{jobs} runner{'s' if jobs > 1 else ''}, seed {plan.seed}, {limited}"
        + (f"; {_brief(containment)}" if containment is not None else "")
    )
    shown = display(game.name, plan.budget_s) if display is not None else _NoDisplay()
    progress = _Progress(shown, out, game)
    executor = Executor(
        entry, plan, runner_factory, jobs=jobs, display=progress, expected_cache=expected_cache
    )

    def sanitizer(
        outcome: Outcome, seconds: float
    ) -> None:  # C and C++: undefined behaviour is a finding
        run_phase(
            entry,
            candidate,
            plan,
            outcome,
            limits,
            out,
            containment=containment,
            provenance=provenance,
            expected_cache=executor.expected_cache,
            extra=getattr(executor, "guided_corpus", ()),
            seconds=seconds,
        )

    if not plan.by_counts and not applies(candidate):  # within the budget, before the random phase
        executor.midway_share = sanitizer_s / plan.budget_s  # (taken from the phases before it)
        executor.midway = lambda: sanitizer(
            executor.outcome,
            max(
                0.0,
                min(
                    sanitizer_s,
                    executor.start + SHARES["random"] * plan.budget_s - time.monotonic(),
                ),
            ),
        )
    with shown:
        outcome = executor.run()
        fault = outcome.failure
        if (
            fault is not None
            and fault.verdict != Verdict.UB
            and not outcome.interrupted
            and not plan.by_counts
        ):
            from gamecert.engine.judge.diagnose import diagnose_fault

            progress.event("diagnosing: when does it fail?")
            try:
                diagnose_fault(
                    entry,
                    plan,
                    outcome.failure,
                    runner_factory,
                    jobs=jobs,
                    started=executor.start,
                    reserve_s=executor.reserve_s(),
                    expected_cache=expected_cache,
                    known=[kept for judge in executor.judges for kept in judge.passing],
                )
            except GamecertError:
                raise
            except Exception as exc:  # noqa: BLE001 - the fault found must be reported whatever the diagnosis did
                outcome.failure.notes.append(
                    f"the diagnosis stopped on an internal error of gamecert's "
                    f"({type(exc).__name__}: {exc}); the fault stands as found"
                )
        if plan.by_counts or (fault is not None and fault.verdict != Verdict.UB):
            sanitizer(
                outcome, sanitizer_s
            )  # by counts: after the plan; beside a fault: its input under asan
    progress.flush(outcome)
    if outcome.failures:
        for line in phase_lines(outcome, only_failed=True, skip=progress.reported, game=game):
            out(line)
    return _write_up(
        entry,
        candidate,
        outcome,
        limits,
        report_dir,
        containment,
        provenance,
        spec if spec is not None else candidate.spec,
        out,
        strict,
    )


def _brief(containment: Any) -> str:
    """How the candidate runs, in a few words: what contains it is in full in the report and the
    certificate (their containment line)."""
    text = containment.describe()
    return text.partition(": ")[0] if containment.enabled else text


def _write_up(
    entry: Any,
    candidate: Any,
    outcome: Outcome,
    limits: Any,
    report_dir: str,
    containment: Any,
    provenance: Provenance | None,
    spec: str,
    out: _Lines,
    strict: bool = False,
) -> CandidateResult:
    stats = outcome.stats
    game = entry.game
    elapsed = stats.elapsed
    rate = stats.tests / elapsed if elapsed > 0 else 0.0
    interrupted = outcome.interrupted
    with _signals_deferred():  # a second Ctrl-C must not cut the report off half written
        failure = outcome.failure
        if failure is not None:
            out()
            for line in failure_lines(game, failure):
                out(line)
            extra = (IN_PROCESS_NOTE,) if isinstance(candidate, SolverSubject) else ()
            report = stamp(
                build_report(
                    entry,
                    candidate,
                    failure,
                    outcome,
                    limits,
                    stats.tests,
                    interrupted=interrupted,
                    provenance=provenance,
                    extra_notes=extra,
                ),
                containment,
            )
            out(f"  {'minimal:':<9} {minimality_brief(outcome, failure)}")
            if report.diagnosis:
                out(f"  {'when:':<9} {diagnosis_line(report.diagnosis)}")
            for what in outcome.unfinished:
                out(f"  {'not done:':<9} {what}")
            path = _write_somewhere(lambda where: write_report(report, where), report_dir)
            out(
                f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs: "
                f"{failure.verdict}{' (interrupted)' if interrupted else ''}; report and replay command in"
            )
            out(str(path))
            return CandidateResult(
                spec,
                candidate.name,
                failure.verdict.value,
                1,
                str(path),
                failure.input_text,
                failure.size,
                stats.tests,
                round(elapsed, 3),
                interrupted,
                failure.nondeterministic,
                tuple(out.lines),
                diagnosis_short(report.diagnosis),
            )
        notes = (
            ["interrupted by the user (Ctrl-C); the evidence below is what was completed"]
            if interrupted
            else []
        )
        if isinstance(candidate, SolverSubject):
            notes.append(IN_PROCESS_NOTE)
        cert = stamp(
            build_certificate(entry, candidate, outcome, limits, notes, provenance), containment
        )
        path = _write_somewhere(lambda where: write_certificate(cert, where), report_dir)
        verdict = cert.verdict
        if cert.incomplete:
            out(f"  {'incomplete:':<11} {cert.incomplete}")
        share = 100 * stats.slowest_cpu_s / limits.time_s
        said = f"{INTERRUPTED}, nothing found so far" if verdict == INTERRUPTED else verdict
        out(
            f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs, "
            f"slowest {stats.slowest_cpu_s:.3f} s CPU ({share:.0f}% of the limit): {said}; certificate in"
        )
        out(str(path))
        return CandidateResult(
            spec,
            candidate.name,
            verdict,
            passing_status(verdict, strict),
            str(path),
            tests=stats.tests,
            elapsed_s=round(elapsed, 3),
            interrupted=interrupted,
            lines=tuple(out.lines),
        )


def _compile_error(opts: Options, spec: str, exc: Any, say: Say | None) -> CandidateResult:
    """A candidate that does not compile: verdict CE with the compiler's message, written as a
    report (empty input)."""
    out = _Lines(say)
    report = compile_error_report(
        opts.entry,
        exc,
        seed=opts.seed,
        profile=opts.profile.name,
        limits=opts.limits,
        compile_option=opts.compile,
        python_option=opts.python,
    )
    command = shlex.join(exc.command) if exc.command else "(none)"
    out(f"{Verdict.CE} ({Verdict.CE.meaning}): {visible(str(exc))}")
    out(f"  {'command:':<9} {visible(command)}")
    for line in exc.output.splitlines()[:20]:
        out(f"  | {visible(line)}")
    path = _write_somewhere(lambda where: write_report(report, where), opts.report_dir)
    out("summary: 0 tests: CE; report in")
    out(str(path))
    return CandidateResult(
        spec, report.candidate, Verdict.CE.value, 1, str(path), lines=tuple(out.lines)
    )


def phase_lines(
    outcome: Outcome, only_failed: bool = False, skip: set[str] = frozenset(), game: Any = None
) -> list[str]:
    """One line per phase that ran: what ran, and whether the budget cut it short or it failed."""
    failed = {f.phase for f in outcome.failures}
    lines = []
    for phase in PHASES:
        if (only_failed and phase not in failed) or phase in skip:
            continue
        line = phase_line(outcome, phase, game)
        if line:
            lines.append(line)
    return lines


def fail_status(game: Any, failure: Failure) -> str:
    """FAIL, the verdict and where: a sample by its number and text, else the size."""
    where = found_by(game, failure) if game is not None else failure.phase
    if where.startswith("sample "):
        return f"FAIL ({failure.verdict}) on {where}"
    return f"FAIL ({failure.verdict}) at size {failure.size}"


def phase_line(outcome: Outcome, phase: str, game: Any = None) -> str:
    """What ``phase`` ran, in a few words, and how it ended ("" if it did not run)."""
    from gamecert.engine.judge.evidence import family_evidence, space_evidence

    stats = outcome.stats
    failed = {f.phase: f for f in sorted(outcome.failures, key=Failure.sort_key, reverse=True)}
    groups = [g for g in outcome.groups if g.phase == phase]
    if not groups and phase not in outcome.cut:
        return ""
    if phase in failed:
        status = fail_status(game, failed[phase])
    elif phase in outcome.cut:
        status = "cut short by the budget"
    else:
        status = "ok"
    tests = stats.by_phase.get(phase, 0)
    if phase in ("coverage", "worst"):
        fams = [f for f in family_evidence(outcome) if f.phase == phase]
        whole = sum(f.complete for f in fams)
        what = f"{len(fams)} families, {whole} complete, {tests} tests"
    elif phase == "exhaustive":  # a fault's line names what was swept, never what was not
        what = "; ".join(
            ev.describe()
            for ev in space_evidence(outcome)
            if phase not in failed or ev.up_to is not None
        )
    elif phase == "random":
        counted = (
            f"{stats.random_examples} Hypothesis examples"
            if stats.random_inputs == stats.random_examples
            else f"{stats.random_examples} games in {stats.random_inputs} Hypothesis examples"
        )
        what = f"{counted}, seed {outcome.plan.seed}" + (
            "" if outcome.plan.random_fixed else " (as many as the time allowed)"
        )
    elif phase == "guided":
        what = f"{tests} tests on the instrumented build, steered by its coverage and comparisons"
        if status == "ok" and any(note.startswith(guided.STOPPED) for note in outcome.notes):
            status = "stopped on an internal error (the notes say which)"
    elif phase == "largest":
        what = (
            f"{len(stats.largest_sizes)} inputs at sizes {', '.join(map(str, stats.largest_sizes))}"
            if stats.largest_sizes
            else "none run"
        )
    else:
        what = f"{stats.samples}" if phase not in failed else ""
    return f"  {phase:<11} {what}: {status}" if what else f"  {phase:<11} {status}"


# ---- several candidates ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """How a batch of candidates ended: one result each, the exit status, ``summary.json``."""

    results: tuple[CandidateResult, ...]
    status: int
    summary_path: Path

    @property
    def interrupted(self) -> bool:
        return any(r.interrupted for r in self.results)

    @property
    def failed(self) -> int:
        """Candidates with a fault (CE included); an incomplete pass is not one, even with --strict."""
        return sum(r.status == 1 and r.verdict != INCOMPLETE for r in self.results)

    @property
    def incomplete(self) -> int:
        return sum(r.verdict == INCOMPLETE for r in self.results)


def batch_status(results: list[CandidateResult] | tuple[CandidateResult, ...]) -> int:
    """130 if interrupted, 1 if any failed (CE included; an incomplete pass with --strict), else 0."""
    if any(r.interrupted for r in results):
        return 130
    return 1 if any(r.status == 1 for r in results) else 0


def build_all(opts: Options, specs: list[str]) -> list[Any]:
    """Every candidate built before the first one runs: one that cannot be used at all stops the
    batch with a :class:`UsageError` naming it, before any time is spent."""
    candidates = []
    for k, spec in enumerate(specs, 1):
        try:
            candidates.append(build_candidate(opts, spec))
        except UsageError as exc:
            raise UsageError(
                f"candidate {k} of {len(specs)} ({spec}): {exc}; nothing was run"
            ) from None
    return candidates


def certify_many(
    opts: Options,
    specs: list[str],
    *,
    say: Say | None = None,
    display: Callable[[str, float], Any] | None = None,
    before_summary: Callable[[list[CandidateResult]], None] | None = None,
) -> Batch:
    """Certify ``specs`` one after another (each with every runner) on the same inputs (one seed;
    the oracle's answers computed once and shared), then write ``summary.json``. One that does not
    compile is a CE row; after an interruption the rest are NOT RUN. ``before_summary`` gets the
    results before the file is written (a front end prints its table there)."""
    out = say or (lambda text: None)
    candidates = build_all(opts, specs)
    out(
        f"gamecert certify {opts.entry.game.name}: {len(specs)} candidates, one after another, "
        f"each with {opts.jobs} runner{'s' if opts.jobs > 1 else ''}; seed {opts.seed} for all"
    )
    shared: dict[str, Any] = {}
    results: list[CandidateResult] = []
    for k, (spec, candidate) in enumerate(zip(specs, candidates), 1):
        out("")
        out(f"[{k}/{len(specs)}] {visible(spec)}")
        result = certify(opts, spec, candidate, expected_cache=shared, say=say, display=display)
        results.append(result)
        if result.interrupted:
            results += [CandidateResult(s, Path(s).stem or s, "NOT RUN", 130) for s in specs[k:]]
            break
    status = batch_status(results)
    if before_summary is not None:
        before_summary(results)
    game, seed, profile = opts.entry.game.name, opts.seed, opts.profile.name
    path = _write_somewhere(
        lambda where: write_summary(where, game, seed, profile, results, status), opts.report_dir
    )
    return Batch(tuple(results), status, path)
