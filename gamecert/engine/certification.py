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
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from gamecert.engine.run.contain import probe, stamp
from gamecert.engine.judge.evidence import build_certificate, build_report, compile_error_report, failure_lines
from gamecert.engine.execute import Executor
from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.interrupts import _signals_deferred
from gamecert.engine.judge.judge import Failure, visible
from gamecert.engine.run.limits import game_limits
from gamecert.engine.plan.plan import PHASES, RUNS_ENV, Plan, make_plan
from gamecert.engine.plan.plan import exhaustive_tests as exhaustive_tests_by_count
from gamecert.engine.plan.profiles import get_profile
from gamecert.engine.report.report_files import (
    _write_somewhere,
    atomic_write_text,
    check_report_dir,
    write_certificate,
    write_report,
)
from gamecert.engine.report.reports import Provenance, timestamp
from gamecert.engine.run.subjects import IN_PROCESS_NOTE, SOLVER_PREFIX, SolverRunner, SolverSubject
from gamecert.errors import UsageError
from gamecert.verdict import Verdict

#: the largest time budget accepted: a week
MAX_BUDGET_S = 7 * 86_400.0

Say = Callable[[str], None]


def check_budget(value: float | None) -> float | None:
    """``--budget``, checked: a positive number of seconds up to a week (None: the profile's)."""
    if value is None:
        return None
    if not (value > 0 and math.isfinite(value)) or value > MAX_BUDGET_S:
        raise UsageError(f"--budget must be a positive number of seconds up to {MAX_BUDGET_S:g} (a week), got {value}")
    return value


def check_jobs(value: int | None) -> int:
    """``--jobs``, checked (None: one per core)."""
    if value is None:
        return max(1, os.cpu_count() or 1)
    if value < 1 or value > 1024:
        raise UsageError(f"--jobs must be between 1 and 1024, got {value}")
    return value


@dataclass(frozen=True)
class CandidateResult:
    """How one candidate's certification ended: a row of a batch's summary."""

    spec: str
    name: str
    #: CERTIFIED, INTERRUPTED, a fault's verdict (WA, TLE, ..., CE), or NOT RUN
    verdict: str
    #: the exit status it alone would give: 0 certified, 1 fault found, 130 interrupted
    status: int
    #: the report's or the certificate's folder ("" when nothing was written)
    path: str = ""
    #: the smallest failing input, exactly ("" when nothing failed)
    input: str = ""
    size: int | None = None
    tests: int = 0
    elapsed_s: float = 0.0
    interrupted: bool = False
    nondeterministic: bool = False
    #: the lines that told the outcome (the evidence per phase, the fault, the summary), as said
    lines: tuple[str, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        """The row of ``summary.json`` (the lines are for the terminal, not the file)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "lines"}


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


def options(entry: Any, *, profile: str | None = None, seed: int | None = None, time_limit: float | None = None,
            memory_limit: int | None = None, budget: float | None = None, jobs: int | None = None,
            examples: int | None = None, exhaustive_runs: int | None = None, report_dir: str | None = None,
            fork_server: bool = True, contain: bool = True, compile: str | None = None, python: str | None = None,
            phases: str | None = None) -> Options:
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
    return Options(entry, chosen_profile, seed, limits, budget, jobs_n, examples,
                   exhaustive_tests, report_dir, fork_server=fork_server, contain=contain, compile=compile,
                   python=python, phases=chosen)


def registered_solver(entry: Any, spec: str, compile: str | None = None, python: str | None = None) -> str | None:
    """The registered solver a ``solver:NAME`` candidate names (checked), or None for a program."""
    spec = spec.strip()
    if not spec.startswith(SOLVER_PREFIX):
        return None
    name = spec[len(SOLVER_PREFIX):]
    if name not in entry.solvers:
        raise UsageError(f"{entry.name} has no registered solver {name!r}; its solvers: "
                         + ", ".join(SOLVER_PREFIX + n for n in sorted(entry.solvers)))
    for value, flag in ((compile, "--compile"), (python, "--python")):
        if value is not None:
            raise UsageError(f"{flag} applies to a source file candidate, and {spec!r} is a registered solver")
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


def certify(opts: Options, spec: str, candidate: Any = None, *, expected_cache: dict[str, Any] | None = None,
            say: Say | None = None, display: Callable[[str, float], Any] | None = None) -> CandidateResult:
    """Certify one candidate (built now from ``spec`` unless given) and write its report or
    certificate; its result. ``say`` gets the lines as they come, ``display(title, budget_s)``
    makes the live progress (a context manager with ``phase``, ``advance`` and ``event``)."""
    from gamecert.engine.run.toolchains import CompileError

    candidate = build_candidate(opts, spec) if candidate is None else candidate
    if isinstance(candidate, CompileError):
        return _compile_error(opts, spec, candidate, say)
    entry = opts.entry
    plan = make_plan(entry, opts.profile, opts.seed, budget_s=opts.budget, examples=opts.examples,
                     exhaustive_tests=opts.exhaustive_tests, phases=opts.phases)
    if isinstance(candidate, SolverSubject):  # in-process: one runner (the interpreter is shared), no sandbox
        from gamecert.engine.solvers import reference_entry

        solver = candidate.name
        function = entry.solvers[solver]
        return run_one_certification(
            reference_entry(entry, solver), candidate, plan, opts.limits, opts.report_dir, jobs=1,
            runner_factory=lambda: SolverRunner(entry, solver, function), spec=spec, say=say, display=display)
    provenance = Provenance.of(candidate, opts.compile, opts.python)
    return run_one_certification(
        entry, candidate, plan, opts.limits, opts.report_dir, jobs=opts.jobs,
        runner_factory=lambda: _open(candidate, opts.limits, opts.fork_server, opts.contain),
        containment=probe(opts.contain), provenance=provenance, expected_cache=expected_cache, spec=spec,
        say=say, display=display)


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

    def __init__(self, display: Any, out: _Lines) -> None:
        self.display, self.out = display, out
        self.reported: set[str] = set()  # phases whose line is already out

    def phase(self, name: str, deadline: float | None) -> None:
        self.display.phase(name, deadline)

    def advance(self, tests: int) -> None:
        self.display.advance(tests)

    def event(self, text: str) -> None:
        self.display.event(text)

    def phase_done(self, outcome: Outcome, name: str) -> None:
        line = phase_line(outcome, name)
        if line:
            self.out(line)

    def sweeping(self, outcome: Outcome, failure: Failure) -> None:
        self.reported.add(failure.phase)
        self.out(f"  {failure.phase:<11} FAIL ({failure.verdict}) at size {failure.size}; "
                 "sweeping smaller inputs for a minimal one")


def run_certification(entry: Any, candidate: Any, plan: Plan, limits: Any, report_dir: str, *,
                      jobs: int = 1, runner_factory: Callable[[], Any], containment: Any = None) -> int:
    """Certify ``candidate`` on ``plan``; the exit status (see :func:`run_one_certification`)."""
    return run_one_certification(entry, candidate, plan, limits, report_dir, jobs=jobs,
                                 runner_factory=runner_factory, containment=containment).status


def run_one_certification(entry: Any, candidate: Any, plan: Plan, limits: Any, report_dir: str, *,
                          jobs: int = 1, runner_factory: Callable[[], Any], containment: Any = None,
                          provenance: Provenance | None = None, expected_cache: dict[str, Any] | None = None,
                          spec: str | None = None, say: Say | None = None,
                          display: Callable[[str, float], Any] | None = None) -> CandidateResult:
    """Run ``plan`` on ``candidate`` (a runner from ``runner_factory`` per job), write the report
    or certificate; the result, its lines handed to ``say`` as they come."""
    out = _Lines(say)
    game = entry.game
    by = "fixed counts" if plan.by_counts else f"budget {plan.budget_s:g} s"
    limited = ("in-process, no time or memory limit" if isinstance(candidate, SolverSubject)
               else f"{limits.time_s:g} s CPU per test, {limits.memory_mb} MB")
    out(
        f"gamecert certify {game.name} {candidate.spec}: profile {plan.profile.name}, {by}, "
        f"{jobs} runner{'s' if jobs > 1 else ''}, seed {plan.seed}, {limited}"
        + (f"; {_brief(containment)}" if containment is not None else "")
    )
    shown = display(game.name, plan.budget_s) if display is not None else _NoDisplay()
    progress = _Progress(shown, out)
    executor = Executor(entry, plan, runner_factory, jobs=jobs, display=progress, expected_cache=expected_cache)
    with shown:
        outcome = executor.run()
    if outcome.failures:
        for line in phase_lines(outcome, only_failed=True, skip=progress.reported):
            out(line)
    return _write_up(entry, candidate, outcome, limits, report_dir, containment, provenance,
                     spec if spec is not None else candidate.spec, out)


def _brief(containment: Any) -> str:
    """How the candidate runs, in a few words: what contains it is in full in the report and the
    certificate (their containment line)."""
    text = containment.describe()
    return text.partition(": ")[0] if containment.enabled else text


def _write_up(entry: Any, candidate: Any, outcome: Outcome, limits: Any, report_dir: str,
              containment: Any, provenance: Provenance | None, spec: str, out: _Lines) -> CandidateResult:
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
            report = stamp(build_report(entry, candidate, failure, outcome, limits, stats.tests,
                                        interrupted=interrupted, provenance=provenance, extra_notes=extra),
                           containment)
            out(f"  {'minimal:':<9} {report.minimality}")
            for what in outcome.unfinished:
                out(f"  {'not done:':<9} {what}")
            path = _write_somewhere(lambda where: write_report(report, where), report_dir)
            out(f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs: "
                f"{failure.verdict}{' (interrupted)' if interrupted else ''}; report and replay command in")
            out(str(path))
            return CandidateResult(spec, candidate.name, failure.verdict.value, 1, str(path), failure.input_text,
                                   failure.size, stats.tests, round(elapsed, 3), interrupted,
                                   failure.nondeterministic, tuple(out.lines))
        notes = ["interrupted by the user (Ctrl-C); the evidence below is what was completed"] if interrupted else []
        if isinstance(candidate, SolverSubject):
            notes.append(IN_PROCESS_NOTE)
        finish = wanted_budget_text(outcome)
        if finish and not interrupted:
            notes.append(f"the budget cut designed phases short: {finish}")
        cert = stamp(build_certificate(entry, candidate, outcome, limits, notes, provenance), containment)
        path = _write_somewhere(lambda where: write_certificate(cert, where), report_dir)
        verdict = "INTERRUPTED, nothing found so far" if interrupted else "CERTIFIED"
        if cert.cut_phases and not interrupted:
            verdict += f" (the budget cut {', '.join(cert.cut_phases)} short: the certificate lists what ran)"
            if finish:
                out(f"  {'budget:':<9} {finish}")
        share = 100 * stats.slowest_cpu_s / limits.time_s
        out(f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs, "
            f"slowest {stats.slowest_cpu_s:.3f} s CPU ({share:.0f}% of the limit): {verdict}; certificate in")
        out(str(path))
        return CandidateResult(spec, candidate.name, "INTERRUPTED" if interrupted else "CERTIFIED",
                               130 if interrupted else 0, str(path), tests=stats.tests, elapsed_s=round(elapsed, 3),
                               interrupted=interrupted, lines=tuple(out.lines))


def _compile_error(opts: Options, spec: str, exc: Any, say: Say | None) -> CandidateResult:
    """A candidate that does not compile: verdict CE with the compiler's message, written as a
    report (empty input)."""
    out = _Lines(say)
    report = compile_error_report(opts.entry, exc, seed=opts.seed, profile=opts.profile.name, limits=opts.limits,
                                  compile_option=opts.compile, python_option=opts.python)
    command = shlex.join(exc.command) if exc.command else "(none)"
    out(f"{Verdict.CE} ({Verdict.CE.meaning}): {visible(str(exc))}")
    out(f"  {'command:':<9} {visible(command)}")
    for line in exc.output.splitlines()[:20]:
        out(f"  | {visible(line)}")
    path = _write_somewhere(lambda where: write_report(report, where), opts.report_dir)
    out("summary: 0 tests: CE; report in")
    out(str(path))
    return CandidateResult(spec, report.candidate, Verdict.CE.value, 1, str(path), lines=tuple(out.lines))


def wanted_budget_text(outcome: Outcome) -> str:
    """What budget would let each designed phase the budget cut end ("" if none was cut), e.g.
    "coverage would end within a budget of about 410 s (--budget 410), at this run's speed"."""
    parts = [f"{phase} would end within a budget of about {math.ceil(seconds):,} s (--budget {math.ceil(seconds)})"
             for phase, seconds in outcome.budget_wanted.items()]
    return "; ".join(parts) + ", at this run's speed" if parts else ""


def phase_lines(outcome: Outcome, only_failed: bool = False, skip: set[str] = frozenset()) -> list[str]:
    """One line per phase that ran: what ran, and whether the budget cut it short or it failed."""
    failed = {f.phase for f in outcome.failures}
    lines = []
    for phase in PHASES:
        if (only_failed and phase not in failed) or phase in skip:
            continue
        line = phase_line(outcome, phase)
        if line:
            lines.append(line)
    return lines


def phase_line(outcome: Outcome, phase: str) -> str:
    """What ``phase`` ran, in a few words, and how it ended ("" if it did not run)."""
    from gamecert.engine.judge.evidence import family_evidence, space_evidence

    stats = outcome.stats
    failed = {f.phase: f for f in sorted(outcome.failures, key=Failure.sort_key, reverse=True)}
    groups = [g for g in outcome.groups if g.phase == phase]
    if not groups and phase not in outcome.cut:
        return ""
    if phase in failed:
        status = f"FAIL ({failed[phase].verdict}) at size {failed[phase].size}"
    elif phase in outcome.cut:
        status = "cut short by the budget"
    else:
        status = "ok"
    tests = stats.by_phase.get(phase, 0)
    if phase in ("coverage", "worst"):
        fams = [f for f in family_evidence(outcome) if f.phase == phase]
        whole = sum(f.complete for f in fams)
        what = f"{len(fams)} families, {whole} complete, {tests} tests"
    elif phase == "exhaustive":
        what = "; ".join(ev.describe() for ev in space_evidence(outcome))
    elif phase == "random":
        counted = (f"{stats.random_examples} Hypothesis examples" if stats.random_inputs == stats.random_examples
                   else f"{stats.random_examples} games in {stats.random_inputs} Hypothesis examples")
        what = f"{counted}, seed {outcome.plan.seed}" + ("" if outcome.plan.random_fixed else " (as many as the time allowed)")
    elif phase == "guided":
        what = f"{tests} tests on the instrumented build, steered by its coverage and comparisons"
    elif phase == "largest":
        what = f"{len(stats.largest_sizes)} inputs at sizes {', '.join(map(str, stats.largest_sizes))}"
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
        return sum(r.status == 1 for r in self.results)


def batch_status(results: list[CandidateResult] | tuple[CandidateResult, ...]) -> int:
    """130 if interrupted, 1 if any failed (CE included), else 0."""
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
            raise UsageError(f"candidate {k} of {len(specs)} ({spec}): {exc}; nothing was run") from None
    return candidates


def certify_many(opts: Options, specs: list[str], *, say: Say | None = None,
                 display: Callable[[str, float], Any] | None = None,
                 before_summary: Callable[[list[CandidateResult]], None] | None = None) -> Batch:
    """Certify ``specs`` one after another (each with every runner) on the same inputs (one seed;
    the oracle's answers computed once and shared), then write ``summary.json``. One that does not
    compile is a CE row; after an interruption the rest are NOT RUN. ``before_summary`` gets the
    results before the file is written (a front end prints its table there)."""
    out = say or (lambda text: None)
    candidates = build_all(opts, specs)
    out(f"gamecert certify {opts.entry.game.name}: {len(specs)} candidates, one after another, "
        f"each with {opts.jobs} runner{'s' if opts.jobs > 1 else ''}; seed {opts.seed} for all")
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
    path = _write_somewhere(lambda where: write_summary(where, game, seed, profile, results, status), opts.report_dir)
    return Batch(tuple(results), status, path)


def write_summary(report_dir: str, game: str, seed: int, profile: str,
                  results: list[CandidateResult] | tuple[CandidateResult, ...], status: int) -> Path:
    """``report_dir/summary.json``, written atomically: one row per candidate."""
    import json

    failed = [r for r in results if r.status == 1]
    data = {
        "kind": "summary", "game": game, "seed": seed, "profile": profile, "created": timestamp(),
        "exit_status": status, "certified": sum(r.verdict == "CERTIFIED" for r in results), "failed": len(failed),
        "interrupted": any(r.interrupted for r in results), "candidates": [r.to_json() for r in results],
    }
    path = Path(report_dir) / "summary.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
    return path


SUMMARY_HEADERS = ("candidate", "verdict", "smallest failing input", "tests", "time")


def summary_rows(results: list[CandidateResult] | tuple[CandidateResult, ...], keep: int = 40) -> list[tuple[str, ...]]:
    r"""The table's rows: candidate, verdict, smallest failing input (escaped, clipped), tests, time.

    >>> summary_rows([CandidateResult("a.py", "a", "WA", 1, input="1\n2\x1b\n", tests=5, elapsed_s=1.25)])
    [('a.py', 'WA', '1\\n2\\x1b', '5', '1.2 s')]
    """
    rows = []
    for r in results:
        shown = visible(r.input.rstrip("\n"))
        if len(shown) > keep:
            shown = shown[:keep - 3] + "..."
        verdict = r.verdict + (" (nondeterministic)" if r.nondeterministic else "")
        rows.append((visible(r.spec), verdict, shown or "-", str(r.tests), f"{r.elapsed_s:.1f} s"))
    return rows


def summary_lines(results: list[CandidateResult] | tuple[CandidateResult, ...]) -> list[str]:
    """The summary table as aligned plain text."""
    rows = summary_rows(results)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(SUMMARY_HEADERS)]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in (SUMMARY_HEADERS, *rows)]
