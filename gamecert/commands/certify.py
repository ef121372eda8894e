"""``gamecert certify GAME CANDIDATE`` and ``gamecert replay``: the commands around the engine.

A certification is a :class:`gamecert.engine.plan.Plan` (samples, coverage, worst cases,
exhaustive sweeps, random blocks, largest inputs), run by :class:`gamecert.engine.execute.Executor`
on ``--jobs`` runners within ``--budget`` seconds, judged by :mod:`gamecert.engine.judge`, and
written up by :mod:`gamecert.engine.evidence` as a report (the smallest fault found) or a
certificate (what was covered, completely or in part).
"""

from __future__ import annotations

import math
import os
import random
import shlex
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from gamecert.engine.contain import probe, stamp
from gamecert.engine.evidence import (
    _block,
    _one_line,
    build_certificate,
    build_report,
    candidate_spec_for_replay,
    compile_error_report,
    failure_lines,
)
from gamecert.engine.execute import Executor, Outcome
from gamecert.engine.interrupts import _signals_deferred
from gamecert.engine.judge import Failure, Judge, Stats, expected_answer, visible
from gamecert.engine.limits import game_limits
from gamecert.engine.plan import (
    PHASES,
    RUNS_ENV,
    SHRINK_SECONDS,
    HarnessError,
    Plan,
    make_plan,
)
from gamecert.engine.plan import exhaustive_tests as exhaustive_tests_by_count
from gamecert.engine.profiles import get_profile
from gamecert.engine.report_files import (
    _write_somewhere,
    atomic_write_text,
    check_report_dir,
    read_report,
    write_certificate,
    write_report,
)
from gamecert.engine.reports import FailureReport, Provenance, timestamp
from gamecert.engine.subjects import (
    IN_PROCESS_NOTE,
    SOLVER_PREFIX,
    SolverRunner,
    SolverSubject,
)
from gamecert.errors import InputError, UsageError
from gamecert.verdict import Verdict

#: the largest time budget accepted: a week
MAX_BUDGET_S = 7 * 86_400.0


def _budget(value: float | None) -> float | None:
    if value is None:
        return None
    if not (value > 0 and math.isfinite(value)) or value > MAX_BUDGET_S:
        raise UsageError(f"--budget must be a positive number of seconds up to {MAX_BUDGET_S:g} (a week), got {value}")
    return value


def _jobs(value: int | None) -> int:
    if value is None:
        return max(1, os.cpu_count() or 1)
    if value < 1 or value > 1024:
        raise UsageError(f"--jobs must be between 1 and 1024, got {value}")
    return value


class _Display:
    """A live line on a terminal's stderr: phase, tests, tests/s, time left; nothing elsewhere."""

    def __init__(self, title: str, budget_s: float) -> None:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn

        self.console = Console(stderr=True)
        self.enabled = self.console.is_terminal
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), console=self.console,
                                 transient=True, disable=not self.enabled)
        self.title = title
        self.budget_s = budget_s
        self.task = self.progress.add_task(title)
        self.started = time.perf_counter()
        self.done = 0
        self.name = "starting"
        self.deadline: float | None = None
        self.note = ""
        self._last = 0.0
        self.reported: set[str] = set()  # phases whose line is already out

    def __enter__(self) -> _Display:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)

    def phase(self, name: str, deadline: float | None) -> None:
        self.name, self.deadline, self.note = name, deadline, ""
        self._refresh(force=True)

    def phase_done(self, outcome: Outcome, name: str) -> None:
        line = _phase_line(outcome, name)
        if line:
            _say(line)

    def sweeping(self, outcome: Outcome, failure: Failure) -> None:
        self.reported.add(failure.phase)
        _say(f"  {failure.phase:<11} FAIL ({failure.verdict}) at size {failure.size}; "
             "sweeping smaller inputs for a minimal one")

    def event(self, text: str) -> None:
        self.note = text
        self._refresh(force=True)

    def advance(self, n: int) -> None:
        self.done += n
        self._refresh()

    def _refresh(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not self.enabled or (not force and now - self._last < 0.1):
            return
        self._last = now
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = max(0.0, self.budget_s - elapsed)
        text = (f"[bold]{self.title}[/]: {self.name}{' (' + self.note + ')' if self.note else ''} | "
                f"{self.done:,} tests, {rate:,.0f}/s | {elapsed:.0f} s of {self.budget_s:g} s, ~{left:.0f} s left")
        self.progress.update(self.task, description=text)


def _say(text: str = "") -> None:
    print(text, flush=True)


@dataclass(frozen=True)
class CandidateResult:
    """How one candidate's certification ended: a row of a batch's summary."""

    spec: str
    name: str
    #: CERTIFIED, INTERRUPTED, a fault's verdict (WA, TLE, ..., CE), or NOT RUN
    verdict: str
    #: the exit status it alone would give: 0 certified, 1 fault found, 130 interrupted
    status: int
    path: str = ""
    #: the smallest failing input, exactly ("" when nothing failed)
    input: str = ""
    size: int | None = None
    tests: int = 0
    elapsed_s: float = 0.0
    interrupted: bool = False
    nondeterministic: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _Settings:
    """What every candidate of one ``gamecert certify`` shares."""

    entry: Any
    profile: Any
    seed: int
    limits: Any
    budget: float | None
    jobs: int
    examples: int | None
    exhaustive_tests: int | None
    report_dir: str
    fork_server: bool
    contain: bool
    compile: str | None
    python: str | None
    phases: tuple[str, ...] | None = None


def certify_candidate_command(args: Any) -> int:
    """``gamecert certify GAME CANDIDATE...``: exit 0 all certified, 1 a fault found, 130 interrupted.

    One candidate (a file or a command line) is certified as it always was. Several, or a folder
    (every file in it whose extension names a known language, sorted by name), are certified one
    after another, each with every ``--jobs`` runner, then summed up in a table and
    ``REPORT_DIR/summary.json`` (see :func:`certify_many`).
    """
    from gamecert.engine import registry

    if args.game == "all":
        raise UsageError("`certify all` certifies the registered solvers; give one game name with a candidate")
    specs = list(getattr(args, "candidates", None) or [args.candidate])
    expanded = expand_candidates(specs)
    entry = registry.get(args.game)
    settings = _settings(entry, args)
    if len(specs) == 1 and expanded == specs:
        return _certify_one(settings, expanded[0]).status
    return certify_many(settings, expanded)


def expand_candidates(specs: list[str]) -> list[str]:
    """``specs`` with every folder replaced by its candidate files (known extensions, sorted by
    name, not recursive). A folder without any is a :class:`UsageError`.

    >>> expand_candidates(["sh -c true"])
    ['sh -c true']
    """
    from gamecert.engine.toolchains import EXTENSIONS, language_of

    out: list[str] = []
    for spec in specs:
        folder = Path(spec.strip()).expanduser()
        if not spec.strip() or not folder.is_dir():
            out.append(spec)
            continue
        files = sorted((p for p in folder.iterdir() if p.is_file() and language_of(p) is not None),
                       key=lambda p: p.name)
        if not files:
            raise UsageError(f"folder {spec!r} holds no candidate file (extensions: {' '.join(sorted(EXTENSIONS))})")
        out.extend(str(p) for p in files)
    return out


def _settings(entry: Any, args: Any) -> _Settings:
    """The options shared by every candidate, checked before anything runs."""
    if args.examples is not None and args.examples < 0:
        raise UsageError(f"--examples must be 0 or more, got {args.examples}")
    profile = get_profile(args.profile)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    limits = game_limits(entry.game, args.time_limit, args.memory_limit)
    budget = _budget(getattr(args, "budget", None))
    jobs = _jobs(getattr(args, "jobs", None))
    runs = getattr(args, "exhaustive_runs", None)
    exhaustive_tests = None
    if runs is not None:
        if runs < 0:
            raise UsageError(f"--exhaustive-runs must be 0 or more, got {runs}")
        exhaustive_tests = runs * max(1, entry.game.max_batch)
    elif os.environ.get(RUNS_ENV):
        exhaustive_tests = exhaustive_tests_by_count(entry.game, profile)
    report_dir = args.report_dir if args.report_dir is not None else "reports"
    check_report_dir(report_dir, entry.game.name)  # now, not after the run has found something
    from gamecert.engine.gamecode import set_traceback_dir

    set_traceback_dir(report_dir)  # a game error's traceback goes beside the reports
    chosen = getattr(args, "phases", None)
    phases = tuple(p.strip() for p in chosen.split(",") if p.strip()) if chosen else None
    return _Settings(entry, profile, seed, limits, budget, jobs, args.examples, exhaustive_tests, report_dir,
                     fork_server=not getattr(args, "no_fork_server", False),
                     contain=not getattr(args, "no_contain", False),
                     compile=getattr(args, "compile", None), python=getattr(args, "python", None),
                     phases=phases)


def _parse(settings: _Settings, spec: str) -> Any:
    """The candidate ``spec`` names, built; a :class:`CompileError` is returned, not raised.
    ``solver:NAME`` names a registered solver, run in-process (:mod:`gamecert.engine.subjects`)."""
    from gamecert.engine.sandbox import Candidate
    from gamecert.engine.toolchains import CompileError

    solver = _registered_solver(settings.entry, spec, settings.compile, settings.python)
    if solver is not None:
        return SolverSubject(settings.entry.name, solver)
    try:
        return Candidate.parse(spec, compile=settings.compile, python=settings.python)
    except CompileError as exc:
        return exc


def _certify_one(settings: _Settings, spec: str, candidate: Any = None,
                 expected_cache: dict[str, Any] | None = None) -> CandidateResult:
    """Certify one candidate (built now unless given) and write its report or certificate."""
    from gamecert.engine.toolchains import CompileError

    candidate = _parse(settings, spec) if candidate is None else candidate
    if isinstance(candidate, CompileError):
        return _compile_error_report(settings, spec, candidate)
    entry = settings.entry
    plan = make_plan(entry, settings.profile, settings.seed, budget_s=settings.budget, examples=settings.examples,
                     exhaustive_tests=settings.exhaustive_tests, phases=settings.phases)
    if isinstance(candidate, SolverSubject):  # in-process: one runner (the interpreter is shared), no sandbox
        from gamecert.engine.solvers import reference_entry

        solver = candidate.name
        function = entry.solvers[solver]
        return run_one_certification(
            reference_entry(entry, solver), candidate, plan, settings.limits, settings.report_dir, jobs=1,
            runner_factory=lambda: SolverRunner(entry, solver, function), expected_cache=None, spec=spec)
    provenance = Provenance.of(candidate, settings.compile, settings.python)
    return run_one_certification(
        entry, candidate, plan, settings.limits, settings.report_dir, jobs=settings.jobs,
        runner_factory=lambda: _open(candidate, settings.limits, settings.fork_server, settings.contain),
        containment=probe(settings.contain), provenance=provenance, expected_cache=expected_cache, spec=spec)


def certify_many(settings: _Settings, specs: list[str]) -> int:
    """Certify ``specs`` one after another (each with every runner), then print the summary table
    and write ``summary.json``. Exit 1 if any failed (CE included), 130 if interrupted, else 0.

    Every candidate is built before the first one runs: one that cannot be used at all (missing,
    not executable, a missing toolchain) stops the command with exit 2 naming it, before any
    time is spent; one that does not compile is a CE row. The inputs are the same for all of them
    (one seed), and the oracle's answers are computed once and shared.
    """
    candidates = []
    for k, spec in enumerate(specs, 1):
        try:
            candidates.append(_parse(settings, spec))
        except UsageError as exc:
            raise UsageError(f"candidate {k} of {len(specs)} ({spec}): {exc}; nothing was run") from None
    _say(f"gamecert certify {settings.entry.game.name}: {len(specs)} candidates, one after another, "
         f"each with {settings.jobs} runner{'s' if settings.jobs > 1 else ''}; seed {settings.seed} for all")
    shared: dict[str, Any] = {}
    results: list[CandidateResult] = []
    for k, (spec, candidate) in enumerate(zip(specs, candidates), 1):
        _say()
        _say(f"[{k}/{len(specs)}] {visible(spec)}")
        result = _certify_one(settings, spec, candidate, expected_cache=shared)
        results.append(result)
        if result.interrupted:
            results += [CandidateResult(s, Path(s).stem or s, "NOT RUN", 130) for s in specs[k:]]
            break
    return _summarise(settings, results)


def _summarise(settings: _Settings, results: list[CandidateResult]) -> int:
    """Print the summary table, write ``summary.json`` atomically; the batch's exit status."""
    interrupted = any(r.interrupted for r in results)
    failed = [r for r in results if r.status == 1]
    status = 130 if interrupted else 1 if failed else 0
    _say()
    print_summary(results)
    game, seed, profile = settings.entry.game.name, settings.seed, settings.profile.name
    path = _write_somewhere(lambda where: write_summary(where, game, seed, profile, results, status),
                            settings.report_dir)
    word = "all certified" if status == 0 else "interrupted" if interrupted else f"{len(failed)} failed"
    _say(f"summary: {len(results)} candidates, {word}; summary.json in")
    _say(str(path))
    return status


def write_summary(report_dir: str, game: str, seed: int, profile: str, results: list[CandidateResult],
                  status: int) -> Path:
    """``report_dir/summary.json``, written atomically: one row per candidate."""
    failed = [r for r in results if r.status == 1]
    data = {
        "kind": "summary", "game": game, "seed": seed, "profile": profile, "created": timestamp(),
        "exit_status": status, "certified": sum(r.verdict == "CERTIFIED" for r in results), "failed": len(failed),
        "interrupted": any(r.interrupted for r in results), "candidates": [r.to_json() for r in results],
    }
    return _write_summary(Path(report_dir) / "summary.json", data)


def _write_summary(path: Path, data: dict[str, Any]) -> Path:
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
    return path


def summary_rows(results: list[CandidateResult], keep: int = 40) -> list[tuple[str, ...]]:
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


_HEADERS = ("candidate", "verdict", "smallest failing input", "tests", "time")


def print_summary(results: list[CandidateResult]) -> None:
    """A rich table on a terminal, aligned plain text otherwise."""
    import sys

    rows = summary_rows(results)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        table = Table(*_HEADERS, title="summary")
        for row in rows:
            style = "green" if row[1] == "CERTIFIED" else "yellow" if row[1] in ("INTERRUPTED", "NOT RUN") else "red"
            table.add_row(Text(row[0]), Text(row[1], style=style), *(Text(c) for c in row[2:]))
        Console(file=sys.stdout).print(table)
        return
    for line in summary_lines(results):
        _say(line)


def summary_lines(results: list[CandidateResult]) -> list[str]:
    """The summary table as aligned plain text."""
    rows = summary_rows(results)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(_HEADERS)]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in (_HEADERS, *rows)]


def _compile_error_report(settings: _Settings, spec: str, exc: Any) -> CandidateResult:
    """A candidate that does not compile: verdict CE with the compiler's message, written as a
    report (empty input) through :func:`write_report`."""
    report = compile_error_report(settings.entry, exc, seed=settings.seed, profile=settings.profile.name,
                                  limits=settings.limits, compile_option=settings.compile,
                                  python_option=settings.python)
    command = shlex.join(exc.command) if exc.command else "(none)"
    _say(f"{Verdict.CE} ({Verdict.CE.meaning}): {visible(str(exc))}")
    _say(f"  {'command:':<9} {visible(command)}")
    for line in exc.output.splitlines()[:20]:
        _say(f"  | {visible(line)}")
    path = _write_somewhere(lambda where: write_report(report, where), settings.report_dir)
    _say("summary: 0 tests: CE; report in")
    _say(str(path))
    return CandidateResult(spec, report.candidate, Verdict.CE.value, 1, str(path))


def _open(candidate: Any, limits: Any, fork_server: bool, contain: bool) -> Any:
    from gamecert.engine.sandbox import open_runner

    return open_runner(candidate, limits, fork_server=fork_server, contain=contain)


def run_certification(entry: Any, candidate: Any, plan: Plan, limits: Any, report_dir: str, *,
                      jobs: int = 1, runner_factory: Callable[[], Any], containment: Any = None) -> int:
    """Certify ``candidate`` on ``plan``; the exit status (see :func:`run_one_certification`)."""
    return run_one_certification(entry, candidate, plan, limits, report_dir, jobs=jobs,
                                 runner_factory=runner_factory, containment=containment).status


def run_one_certification(entry: Any, candidate: Any, plan: Plan, limits: Any, report_dir: str, *,
                          jobs: int = 1, runner_factory: Callable[[], Any], containment: Any = None,
                          provenance: Provenance | None = None, expected_cache: dict[str, Any] | None = None,
                          spec: str | None = None) -> CandidateResult:
    """Run ``plan`` on ``candidate``, print the outcome, write the report or certificate."""
    game = entry.game
    by = "fixed counts" if plan.by_counts else f"budget {plan.budget_s:g} s"
    limited = ("in-process, no time or memory limit" if isinstance(candidate, SolverSubject)
               else f"{limits.time_s:g} s CPU per test, {limits.memory_mb} MB")
    _say(
        f"gamecert certify {game.name} {candidate.spec}: profile {plan.profile.name}, {by}, "
        f"{jobs} runner{'s' if jobs > 1 else ''}, seed {plan.seed}, {limited}"
        + (f"; {containment.describe()}" if containment is not None else "")
    )
    display = _Display(game.name, plan.budget_s)
    executor = Executor(entry, plan, runner_factory, jobs=jobs, display=display, expected_cache=expected_cache)
    with display:
        outcome = executor.run()
    if outcome.failures:
        for line in _phase_lines(outcome, only_failed=True, skip=display.reported):
            _say(line)
    return _write_up(entry, candidate, outcome, limits, report_dir, containment, provenance,
                     spec if spec is not None else candidate.spec)


def _write_up(entry: Any, candidate: Any, outcome: Outcome, limits: Any, report_dir: str,
              containment: Any = None, provenance: Provenance | None = None, spec: str = "") -> CandidateResult:
    stats = outcome.stats
    game = entry.game
    elapsed = stats.elapsed
    rate = stats.tests / elapsed if elapsed > 0 else 0.0
    interrupted = outcome.interrupted
    with _signals_deferred():  # a second Ctrl-C must not cut the report off half written
        failure = outcome.failure
        if failure is not None:
            _say()
            for line in failure_lines(game, failure):
                _say(line)
            extra = (IN_PROCESS_NOTE,) if isinstance(candidate, SolverSubject) else ()
            report = stamp(build_report(entry, candidate, failure, outcome, limits, stats.tests,
                                        interrupted=interrupted, provenance=provenance, extra_notes=extra),
                           containment)
            _say(f"  {'minimal:':<9} {report.minimality}")
            for what in outcome.unfinished:
                _say(f"  {'not done:':<9} {what}")
            path = _write_somewhere(lambda where: write_report(report, where), report_dir)
            _say(f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs: "
                 f"{failure.verdict}{' (interrupted)' if interrupted else ''}; report and replay command in")
            _say(str(path))
            return CandidateResult(spec, candidate.name, failure.verdict.value, 1, str(path), failure.input_text,
                                   failure.size, stats.tests, round(elapsed, 3), interrupted,
                                   failure.nondeterministic)
        notes = ["interrupted by the user (Ctrl-C); the evidence below is what was completed"] if interrupted else []
        if isinstance(candidate, SolverSubject):
            notes.append(IN_PROCESS_NOTE)
        cert = stamp(build_certificate(entry, candidate, outcome, limits, notes, provenance), containment)
        path = _write_somewhere(lambda where: write_certificate(cert, where), report_dir)
        verdict = "INTERRUPTED, nothing found so far" if interrupted else "CERTIFIED"
        if cert.cut_phases and not interrupted:
            verdict += f" (the budget cut {', '.join(cert.cut_phases)} short: the certificate lists what ran)"
        share = 100 * stats.slowest_cpu_s / limits.time_s
        _say(f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs, "
             f"slowest {stats.slowest_cpu_s:.3f} s CPU ({share:.0f}% of the limit): {verdict}; certificate in")
        _say(str(path))
        return CandidateResult(spec, candidate.name, "INTERRUPTED" if interrupted else "CERTIFIED",
                               130 if interrupted else 0, str(path), tests=stats.tests, elapsed_s=round(elapsed, 3),
                               interrupted=interrupted)


def _phase_lines(outcome: Outcome, only_failed: bool = False, skip: set[str] = frozenset()) -> list[str]:
    """One line per phase that ran: what ran, and whether the budget cut it short or it failed."""
    failed = {f.phase for f in outcome.failures}
    lines = []
    for phase in PHASES:
        if (only_failed and phase not in failed) or phase in skip:
            continue
        line = _phase_line(outcome, phase)
        if line:
            lines.append(line)
    return lines


def _phase_line(outcome: Outcome, phase: str) -> str:
    from gamecert.engine.evidence import family_evidence, space_evidence

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
    elif phase == "largest":
        what = f"{len(stats.largest_sizes)} inputs at sizes {', '.join(map(str, stats.largest_sizes))}"
    else:
        what = f"{stats.samples}" if phase not in failed else ""
    return f"  {phase:<11} {what}: {status}" if what else f"  {phase:<11} {status}"


# ---- replay ---------------------------------------------------------------------------------------

def _registered_solver(entry: Any, spec: str, compile: str | None, python: str | None) -> str | None:
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


def _replay_solver(report: Any, entry: Any, solver: str, other: str | None) -> int:
    """Replay a report's input on a registered solver, in-process."""
    from gamecert.engine.solvers import reference_entry

    game = entry.game
    if solver not in entry.solvers:
        raise UsageError(f"the report's candidate cannot be run any more: {game.name} has no registered "
                         f"solver {solver!r}")
    try:
        instance = game.parse_input(report.input)
    except InputError as exc:
        raise UsageError(f"the report's input is not a valid {game.name} input: {exc}") from None
    print(_replay_head(report, other))
    with SolverRunner(entry, solver, entry.solvers[solver]) as runner:
        judge = Judge(reference_entry(entry, solver), runner)
        failure = judge.run_one(instance, report.phase, text=report.input)
        expected, source = judge.expected(instance, report.input)
    print(_block("input", report.input).lstrip())
    print(_block("expected", game.format_answer(expected)).lstrip() + f"   (from {source})")
    if failure is None:
        print(_block("got", judge.last_result.stdout).lstrip())
        print("verdict:  OK (the fault did not show again)")
        return 0
    print(_block("got", failure.got_text or "(no output)").lstrip())
    print(f"verdict:  {failure.verdict} ({failure.verdict.meaning}): {_one_line(failure.reason)}")
    return 1


def replay_command(args: Any) -> int:
    """``gamecert replay REPORT_DIR [--candidate OTHER]``: re-run the input, print expected, got
    and the verdict.

    The report's program is built as it was (its ``--compile`` and ``--python``); a line warns
    when its sha256 differs from the one the report recorded. ``--candidate OTHER`` runs the
    saved input on another program instead (built with the defaults), and says so.
    Exit 1 if the fault shows (again), 0 if the program answers right.
    """
    from gamecert.engine import registry
    from gamecert.engine.sandbox import Candidate, open_runner
    from gamecert.engine.toolchains import CompileError

    report = read_report(args.report_dir)
    entry = registry.get(report.game)
    game = entry.game
    other = getattr(args, "candidate", None)
    prov = report.provenance
    spec = (other if other is not None else report.candidate_spec).strip()
    if spec.startswith(SOLVER_PREFIX):
        return _replay_solver(report, entry, spec[len(SOLVER_PREFIX):], other)
    try:
        if other is not None:
            candidate = Candidate.parse(other)
        else:
            candidate = Candidate.parse(report.candidate_spec, compile=prov.compile_option or None,
                                        python=prov.python_option or None)
    except CompileError as exc:
        print(_replay_head(report, other))
        print(f"verdict:  {Verdict.CE} ({Verdict.CE.meaning}): {visible(str(exc))}")
        return 1
    except UsageError as exc:
        if other is not None:
            raise
        raise UsageError(f"the report's candidate cannot be run any more: {exc}") from None
    print(_replay_head(report, other))
    if other is None:
        now = Provenance.of(candidate).program_sha256()
        then = prov.program_sha256()
        if then and now and now != then:
            print(f"warning: the program changed since the report (sha256 {then[:12]}... then, {now[:12]}... now)")
    if report.phase == "compile" and not report.input:
        print("verdict:  OK (it compiles now; `gamecert certify` judges it)" if other is None else
              "verdict:  OK (it compiles; the report has no input to run)")
        return 0
    try:
        limits = game_limits(game, report.time_limit_s, report.memory_limit_mb)
    except UsageError as exc:
        raise UsageError(f"the report's limits are unusable: {exc}") from None
    try:
        instance = game.parse_input(report.input)
    except InputError as exc:
        raise UsageError(f"the report's input is not a valid {game.name} input: {exc}") from None
    with open_runner(candidate, limits, fork_server=False) as runner:
        judge = Judge(entry, runner)
        failure = judge.run_one(instance, report.phase, text=report.input)
        expected, source = judge.expected(instance, report.input)
    expected_text = game.format_answer(expected)
    print(_block("input", report.input).lstrip())
    expected_block = _block("expected", expected_text).lstrip()
    print(expected_block + (f"\n  (expected answer from {source})" if "\n" in expected_block else f"   (from {source})"))
    if expected_text.split() != report.expected.split():
        print(_block("note: the report expected", report.expected).lstrip() + "; the oracle now says otherwise")
    if failure is None:
        print(_block("got", judge.last_result.stdout or "(no output)").lstrip())
        print("verdict:  OK (the fault did not show" + (" on this program)" if other else " again)"))
        return 0
    print(_block("got", failure.got_text or "(no output)").lstrip())
    print(f"verdict:  {failure.verdict} ({failure.verdict.meaning}): {_one_line(failure.reason)}")
    return 1


def _replay_head(report: FailureReport, other: str | None) -> str:
    """The first line of a replay: whose input, run on which program."""
    head = f"replay {report.game} {visible(report.candidate_spec)} (reported {report.verdict}, seed {report.seed})"
    if other is not None:
        head += f"\nrunning the report's input on ANOTHER program: {visible(other)} (not the one reported)"
    return head


__all__ = [
    "Failure",
    "HarnessError",
    "Judge",
    "Plan",
    "SHRINK_SECONDS",
    "Stats",
    "build_certificate",
    "build_report",
    "candidate_spec_for_replay",
    "certify_candidate_command",
    "expected_answer",
    "make_plan",
    "replay_command",
    "run_certification",
]
