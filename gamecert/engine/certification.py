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

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from gamecert.engine.execute import Executor
from gamecert.engine.fault_time import IN_FLIGHT_S, first_origin
from gamecert.engine.interrupts import _signals_deferred
from gamecert.engine.judge.evidence import (
    build_certificate,
    build_report,
    compile_error_report,
    core_lines,
    failure_lines,
    minimality_brief,
)
from gamecert.engine.judge.handback import hand_back
from gamecert.engine.judge.judge import visible
from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.judge.sanitize import applies, phase_seconds, prebuild, run_phase
from gamecert.engine.options import (  # noqa: F401 (certification.options, as before)
    MAX_BUDGET_S,
    Options,
    check_budget,
    check_jobs,
    options,
)
from gamecert.engine.phase_lines import (  # noqa: F401 (certification.phase_line, as before)
    _Lines,
    _NoDisplay,
    _Progress,
    fail_status,
    phase_line,
    phase_lines,
)
from gamecert.engine.plan.plan import SHARES, Plan, make_plan
from gamecert.engine.report.diagnosis import diagnosis_line, diagnosis_short
from gamecert.engine.report.report_files import (
    _write_somewhere,
    write_certificate,
    write_report,
)
from gamecert.engine.report.reports import Provenance
from gamecert.engine.run.contain import probe, stamp
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

Say = Callable[[str], None]


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

    began = first_origin()  # the build is part of the time the budget's overrun bounds
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
        # a program run a process per test gets the game's certification core; an in-process
        # registered solver keeps the deep plan
        core=not isinstance(candidate, SolverSubject),
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
            began=began,
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
        began=began,
    )


def _open(candidate: Any, limits: Any, fork_server: bool, contain: bool) -> Any:
    from gamecert.engine.run.sandbox import open_runner

    return open_runner(candidate, limits, fork_server=fork_server, contain=contain)


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
    began: float | None = None,
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
    if began is not None:  # (``began``: when the certification began, its build included)
        executor.origin = min(began, executor.origin)

    def plain_fault(instance: Any, text: str) -> Any:
        """The sanitizer phase's run of the judge's build, as a judge runs it, failed where the
        plan's runs passed: every later run of the executor's runners runs that way too (as
        after an audit), and the input is judged, confirmed and shrunk as any fault."""
        note = (
            "found by an audit: an input passed as the plan's runs start the program (the fork "
            "server's clone, or the zygote's child) and failed when the sanitizer phase ran the "
            "judge's build as a judge runs the program; every later run of this runner (the "
            "confirmation, the shrinking) ran that way too"
        )
        for judge in executor.judges:
            judge.plain_only = note
        return hand_back(
            executor,
            "sanitizer",
            "sanitizer-plain",
            "an input the judge's build failed when run as a judge runs the program",
            instance,
            text,
        )

    def sanitizer(
        outcome: Outcome, seconds: float, core_seconds: float | None = None, midway: bool = False
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
            core_seconds=core_seconds,
            hand_back=plain_fault if midway else None,
        )

    if not plan.by_counts and not applies(candidate):  # within the budget, before the random phase
        prebuild(candidate, getattr(provenance, "compile_option", "") or None)
        executor.midway_share = sanitizer_s / plan.budget_s  # (taken from the phases before it)

        def midway() -> None:
            # the phase's own share; its core may go on within the depth's time after it
            left = max(
                0.0,
                executor.start
                + cast(float, SHARES["random"]) * plan.budget_s  # (the random phase has one)
                - time.monotonic(),
            )
            sanitizer(executor.outcome, min(sanitizer_s, left), left, midway=True)

        executor.midway = midway
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
                    ends_by=executor.overrun_end() - IN_FLIGHT_S,
                    expected_cache=expected_cache,
                    known=[kept for judge in executor.judges for kept in judge.passing],
                )
            except GamecertError:
                raise
            except Exception as exc:  # noqa: BLE001 - the fault found must be reported whatever the diagnosis did
                assert outcome.failure is not None  # (fault is one)
                outcome.failure.notes.append(
                    f"the diagnosis stopped on an internal error of gamecert's "
                    f"({type(exc).__name__}: {exc}); the fault stands as found"
                )
        if plan.by_counts:
            sanitizer(outcome, sanitizer_s)  # after the plan
        elif fault is not None and fault.verdict != Verdict.UB:  # its input under asan
            # within what the budget's overrun leaves (the diagnosis has had its reserve)
            left = executor.overrun_end() - IN_FLIGHT_S - time.monotonic()
            sanitizer(outcome, max(0.0, min(sanitizer_s, left)))
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
        for line in core_lines(outcome):
            if not line.startswith("the core's reason"):  # (the certificate holds the reason)
                out(f"  {line}")
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
