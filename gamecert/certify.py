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
from pathlib import Path
from typing import Any

from gamecert.engine.evidence import build_certificate, build_report, candidate_spec_for_replay
from gamecert.engine.execute import Executor, Outcome
from gamecert.engine.judge import Failure, Judge, Stats, expected_answer, visible
from gamecert.engine.plan import PHASES, RUNS_ENV, SHRINK_SECONDS, HarnessError, Plan, make_plan
from gamecert.engine.plan import exhaustive_tests as exhaustive_tests_by_count
from gamecert.engine.subjects import IN_PROCESS_NOTE, SOLVER_PREFIX, SolverRunner, SolverSubject
from gamecert.contain import probe, stamp
from gamecert.errors import InputError, UsageError
from gamecert.game import Game
from gamecert.profiles import get_profile
from gamecert.reports import FailureReport, check_report_dir, read_report, timestamp, write_certificate, write_report
from gamecert.verdict import Verdict

#: the largest limits accepted: a day per test, a terabyte (the OS cannot take much more)
MAX_TIME_LIMIT_S = 86_400.0
MAX_MEMORY_LIMIT_MB = 1 << 20
#: the largest time budget accepted: a week
MAX_BUDGET_S = 7 * 86_400.0


def _limits(game: Game, time_limit: float | None, memory_limit: int | None) -> Any:
    from gamecert.sandbox import Limits

    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise UsageError(f"--time-limit must be a positive number of seconds, got {time_limit}")
    if time_limit is not None and time_limit > MAX_TIME_LIMIT_S:
        raise UsageError(f"--time-limit must be at most {MAX_TIME_LIMIT_S:g} seconds (a day), got {time_limit:g}")
    if memory_limit is not None and memory_limit < 16:
        raise UsageError(f"--memory-limit must be at least 16 (MB), got {memory_limit}")
    if memory_limit is not None and memory_limit > MAX_MEMORY_LIMIT_MB:
        raise UsageError(f"--memory-limit must be at most {MAX_MEMORY_LIMIT_MB} (MB, a terabyte), got {memory_limit}")
    return Limits(time_s=time_limit if time_limit is not None else game.time_limit,
                  memory_mb=memory_limit if memory_limit is not None else game.memory_limit_mb)


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


def certify_candidate_command(args: Any) -> int:
    """``gamecert certify GAME CANDIDATE``: exit 0 certified, 1 fault found, 130 interrupted."""
    from gamecert import registry
    from gamecert.sandbox import Candidate
    from gamecert.toolchains import CompileError

    if args.game == "all":
        raise UsageError("`certify all` certifies the registered solvers; give one game name with a candidate")
    entry = registry.get(args.game)
    solver = _registered_solver(entry, args)
    if solver is not None:
        candidate = SolverSubject(entry.name, solver)
    else:
        try:
            candidate = Candidate.parse(args.candidate, compile=getattr(args, "compile", None),
                                        python=getattr(args, "python", None))
        except CompileError as exc:
            return _compile_error_report(entry, args, exc)
    if args.examples is not None and args.examples < 0:
        raise UsageError(f"--examples must be 0 or more, got {args.examples}")
    profile = get_profile(args.profile)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    limits = _limits(entry.game, args.time_limit, args.memory_limit)
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
    plan = make_plan(entry, profile, seed, budget_s=budget, examples=args.examples,
                     exhaustive_tests=exhaustive_tests)
    if solver is not None:  # in-process: one runner (the interpreter is shared), no sandbox
        from gamecert.certify_solvers import reference_entry

        function = entry.solvers[solver]
        return run_certification(reference_entry(entry, solver), candidate, plan, limits, report_dir, jobs=1,
                                 runner_factory=lambda: SolverRunner(entry, solver, function))
    fork_server = not getattr(args, "no_fork_server", False)
    contain = not getattr(args, "no_contain", False)
    return run_certification(entry, candidate, plan, limits, report_dir, jobs=jobs,
                             runner_factory=lambda: _open(candidate, limits, fork_server, contain),
                             containment=probe(contain))


def _registered_solver(entry: Any, args: Any) -> str | None:
    """The registered solver a ``solver:NAME`` candidate names (checked), or None for a program."""
    spec = args.candidate.strip()
    if not spec.startswith(SOLVER_PREFIX):
        return None
    name = spec[len(SOLVER_PREFIX):]
    if name not in entry.solvers:
        raise UsageError(f"{entry.name} has no registered solver {name!r}; its solvers: "
                         + ", ".join(SOLVER_PREFIX + n for n in sorted(entry.solvers)))
    for attr, flag in (("compile", "--compile"), ("python", "--python")):
        if getattr(args, attr, None) is not None:
            raise UsageError(f"{flag} applies to a source file candidate, and {spec!r} is a registered solver")
    return name


def _compile_error_report(entry: Any, args: Any, exc: Any) -> int:
    """A candidate that does not compile: verdict CE with the compiler's message, written as a
    report (empty input) through :func:`write_report`; exit 1."""
    from gamecert.sandbox import _safe_name

    report_dir = args.report_dir if args.report_dir is not None else "reports"
    check_report_dir(report_dir, entry.game.name)
    limits = _limits(entry.game, args.time_limit, args.memory_limit)
    source = Path(exc.source)
    command = shlex.join(exc.command) if exc.command else "(none)"
    report = FailureReport(
        game=entry.game.name, candidate=_safe_name(source.stem), candidate_spec=str(source),
        verdict=Verdict.CE.value, verdict_meaning=Verdict.CE.meaning, input="", expected="", got="",
        reason=f"{exc}", seed=args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31),
        profile=get_profile(args.profile).name, phase="compile", size=0,
        explanation="(the candidate did not compile; no input was run)", created=timestamp(),
        stderr_tail=exc.output, time_limit_s=limits.time_s, memory_limit_mb=limits.memory_mb,
        notes=(f"compile command: {command}",),
    )
    _say(f"{Verdict.CE} ({Verdict.CE.meaning}): {visible(str(exc))}")
    _say(f"  {'command:':<9} {visible(command)}")
    for line in exc.output.splitlines()[:20]:
        _say(f"  | {line}")
    path = _write_somewhere(lambda where: write_report(report, where), report_dir)
    _say("summary: 0 tests: CE; report in")
    _say(str(path))
    return 1


def _open(candidate: Any, limits: Any, fork_server: bool, contain: bool) -> Any:
    from gamecert.sandbox import open_runner

    return open_runner(candidate, limits, fork_server=fork_server, contain=contain)


def run_certification(entry: Any, candidate: Any, plan: Plan, limits: Any, report_dir: str, *,
                      jobs: int = 1, runner_factory: Callable[[], Any], containment: Any = None) -> int:
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
    executor = Executor(entry, plan, runner_factory, jobs=jobs, display=display)
    with display:
        outcome = executor.run()
    if outcome.failures:
        for line in _phase_lines(outcome, only_failed=True, skip=display.reported):
            _say(line)
    return _write_up(entry, candidate, outcome, limits, report_dir, containment)


def _write_up(entry: Any, candidate: Any, outcome: Outcome, limits: Any, report_dir: str,
              containment: Any = None) -> int:
    stats = outcome.stats
    game = entry.game
    elapsed = stats.elapsed
    rate = stats.tests / elapsed if elapsed > 0 else 0.0
    interrupted = outcome.interrupted
    with _signals_deferred():  # a second Ctrl-C must not cut the report off half written
        failure = outcome.failure
        if failure is not None:
            _say()
            say_failure(game, failure)
            extra = (IN_PROCESS_NOTE,) if isinstance(candidate, SolverSubject) else ()
            report = stamp(build_report(entry, candidate, failure, outcome, limits, stats.tests,
                                        interrupted=interrupted, extra_notes=extra), containment)
            _say(f"  {'minimal:':<9} {report.minimality}")
            path = _write_somewhere(lambda where: write_report(report, where), report_dir)
            _say(f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs: "
                 f"{failure.verdict}{' (interrupted)' if interrupted else ''}; report and replay command in")
            _say(str(path))
            return 1
        notes = ["interrupted by the user (Ctrl-C); the evidence below is what was completed"] if interrupted else []
        if isinstance(candidate, SolverSubject):
            notes.append(IN_PROCESS_NOTE)
        cert = stamp(build_certificate(entry, candidate, outcome, limits, notes), containment)
        path = _write_somewhere(lambda where: write_certificate(cert, where), report_dir)
        verdict = "INTERRUPTED, nothing found so far" if interrupted else "CERTIFIED"
        share = 100 * stats.slowest_cpu_s / limits.time_s
        _say(f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs, "
             f"slowest {stats.slowest_cpu_s:.3f} s CPU ({share:.0f}% of the limit): {verdict}; certificate in")
        _say(str(path))
        return 130 if interrupted else 0


def say_failure(game: Game, failure: Failure) -> None:
    """Print :func:`failure_lines`."""
    for line in failure_lines(game, failure):
        _say(line)


def failure_lines(game: Game, failure: Failure) -> list[str]:
    """The verdict, input, expected and got answers and why, as every certification shows them."""
    kind = " (nondeterministic)" if failure.nondeterministic else ""
    lines = [f"{failure.verdict}{kind} ({failure.verdict.meaning}) on a {game.name} input of size "
             f"{failure.size}, found by {failure.phase}:"]
    for label, text in (("input", failure.input_text), ("expected", failure.expected_text),
                        ("got", failure.got_text or "(no output)")):
        lines.append(_block(label, text))
    lines.append(f"  {'why:':<9} {_one_line(failure.reason)}")
    return lines


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
        what = f"{stats.random_examples} Hypothesis examples, seed {outcome.plan.seed}"
    elif phase == "largest":
        what = f"{len(stats.largest_sizes)} inputs at sizes {', '.join(map(str, stats.largest_sizes))}"
    else:
        what = f"{stats.samples}" if phase not in failed else ""
    return f"  {phase:<11} {what}: {status}" if what else f"  {phase:<11} {status}"


def _block(label: str, text: str, keep: int = 600) -> str:
    """A labelled value: one line inline, several lines as an indented block (never joined)."""
    body = text.rstrip("\n")
    clipped = body if len(body) <= keep else body[:keep] + f"\n... ({len(body) - keep} more characters)"
    lines = [visible(line) for line in clipped.split("\n")]
    if len(lines) == 1:
        return f"  {label + ':':<9} {lines[0]}"
    shown = lines[:12] + ([f"... ({len(lines) - 12} more lines)"] if len(lines) > 12 else [])
    return f"  {label}:\n" + "\n".join(f"    {line}" for line in shown)


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return visible(line if len(line) <= 160 else line[:157] + "...")


def _inline(text: str, keep: int = 200) -> str:
    flat = text.rstrip("\n").replace("\n", " / ")
    return visible(flat) if len(flat) <= keep else visible(flat[:keep]) + f"... ({len(flat) - keep} more characters)"


def _write_somewhere(write: Callable[[str], Path], report_dir: str) -> Path:
    """``write(report_dir)``; if that fails (the directory was removed, the disk is full...),
    into a fresh temporary directory instead, saying so on stderr: a finding is never lost."""
    import sys

    try:
        return write(report_dir)
    except OSError as exc:
        from gamecert.reports import fallback_report_dir

        fallback = fallback_report_dir()
        path = write(fallback)
        print(f"gamecert: warning: cannot write to {report_dir} ({exc.strerror or exc}); written to {fallback} instead",
              file=sys.stderr, flush=True)
        return path


class _signals_deferred:
    """Hold Ctrl-C and SIGTERM off while a report is written (it takes milliseconds; the run is
    over and its result is being saved, so they are then dropped). Only in the main thread."""

    def __enter__(self) -> _signals_deferred:
        import signal
        import threading

        self.previous: dict[int, Any] = {}
        self.caught: list[int] = []
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.previous[sig] = signal.signal(sig, lambda number, frame: self.caught.append(number))
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        for sig, handler in self.previous.items():
            signal.signal(sig, handler)


# ---- replay ---------------------------------------------------------------------------------------

def replay_command(args: Any) -> int:
    """``gamecert replay REPORT_DIR``: re-run the input, print expected, got and the verdict.

    Exit 1 if the fault shows again, 0 if the candidate now answers right.
    """
    from gamecert import registry
    from gamecert.sandbox import Candidate, open_runner

    report = read_report(args.report_dir)
    entry = registry.get(report.game)
    game = entry.game
    spec = report.candidate_spec.strip()
    solver = spec[len(SOLVER_PREFIX):] if spec.startswith(SOLVER_PREFIX) else None
    if solver is not None and solver not in entry.solvers:
        raise UsageError(f"the report's candidate cannot be run any more: {game.name} has no registered "
                         f"solver {solver!r}")
    try:
        candidate = None if solver is not None else Candidate.parse(report.candidate_spec)
    except UsageError as exc:
        raise UsageError(f"the report's candidate cannot be run any more: {exc}") from None
    try:
        limits = _limits(game, report.time_limit_s, report.memory_limit_mb)
    except UsageError as exc:
        raise UsageError(f"the report's limits are unusable: {exc}") from None
    try:
        instance = game.parse_input(report.input)
    except InputError as exc:
        raise UsageError(f"the report's input is not a valid {game.name} input: {exc}") from None
    if solver is not None:
        from gamecert.certify_solvers import reference_entry

        opened, judged = SolverRunner(entry, solver, entry.solvers[solver]), reference_entry(entry, solver)
    else:
        opened, judged = open_runner(candidate, limits, fork_server=False), entry
    with opened as runner:
        judge = Judge(judged, runner)
        failure = judge.run_one(instance, report.phase, text=report.input)
        expected, source = judge.expected(instance, report.input)
    expected_text = game.format_answer(expected)
    print(f"replay {report.game} {report.candidate_spec} (reported {report.verdict}, seed {report.seed})")
    print(f"input:    {_inline(report.input)}")
    print(f"expected: {_inline(expected_text)}   (from {source})")
    if expected_text.split() != report.expected.split():
        print(f"note: the report expected {_inline(report.expected)}; the oracle now says otherwise")
    if failure is None:
        print(f"got:      {_inline(judge.last_result.stdout)}")
        print("verdict:  OK (the fault did not show again)")
        return 0
    print(f"got:      {_inline(failure.got_text or '(no output)')}")
    print(f"verdict:  {failure.verdict} ({failure.verdict.meaning}): {_one_line(failure.reason)}")
    return 1


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
