"""``gamecert certify GAME|all`` with no candidate: every registered solver, through the same
plan, judge and evidence code as a candidate program.

A registered solver is a subject of its own kind (:class:`gamecert.engine.subjects.SolverRunner`,
in-process) and nothing else differs: :func:`certify_solver` builds the plan
(:func:`gamecert.engine.plan.make_plan`: samples, coverage, worst cases, exhaustive, random,
largest), runs it with :class:`gamecert.engine.execute.Executor` and returns its
:class:`gamecert.engine.execute.Outcome`. The plan is fixed by counts, not by time: every
exhaustive space in full (the profile's share of its sizes) and the profile's random examples.

Expected answers come from the oracle within its reach and beyond it from the game's *other*
registered solvers (:func:`reference_entry`): a solver is never its own reference.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, replace
from typing import Any

from gamecert import interrupts
from gamecert.engine.evidence import build_report, family_evidence, space_evidence
from gamecert.engine.execute import Executor, Outcome
from gamecert.engine.plan import Plan, make_plan
from gamecert.engine.subjects import IN_PROCESS_NOTE, SolverRunner, SolverSubject
from gamecert.verdict import Verdict

#: the exhaustive sweep of a registered solver, in single games: more than any space holds, so
#: every space runs in full (``make_plan`` stops a space only at a size that does not fit)
WHOLE_SPACES = sys.maxsize


def reference_entry(entry: Any, name: str) -> Any:
    """``entry`` with the solver ``name`` left out of the references beyond the oracle's reach.

    >>> from gamecert import registry
    >>> entry = registry.get("word_game")
    >>> sorted(reference_entry(entry, "closed_form").solvers)
    ['count_table']
    >>> sorted(reference_entry(entry, "not_registered").solvers) == sorted(entry.solvers)
    True
    """
    return replace(entry, solvers={k: v for k, v in entry.solvers.items() if k != name})


def solver_plan(entry: Any, profile: Any, seed: int, examples: int | None = None) -> Plan:
    """The plan of a registered solver: fixed by counts, every exhaustive space in full."""
    return make_plan(entry, profile, seed, examples=profile.examples if examples is None else examples,
                     exhaustive_tests=WHOLE_SPACES)


def certify_solver(entry: Any, name: str, solver: Any, profile: Any, seed: int, *,
                   examples: int | None = None, display: Any = None) -> Outcome:
    """Run ``solver`` (registered as ``name`` or not: a broken one) through the whole plan.

    In-process solvers share the interpreter, so one runner (``jobs=1``) does the work.
    """
    plan = solver_plan(entry, profile, seed, examples)
    executor = Executor(reference_entry(entry, name), plan, lambda: SolverRunner(entry, name, solver),
                        jobs=1, display=display)
    return executor.run()


@dataclass(frozen=True)
class Row:
    """One line of the table: a solver and what its run showed."""

    game: str
    solver: str
    evidence: str
    tests: int
    seconds: float
    verdict: str
    outcome: Any = None


def evidence_summary(outcome: Outcome) -> str:
    """A few words per phase that ran: what a table cell can hold."""
    stats = outcome.stats
    parts = [f"samples {stats.samples}"] if stats.samples else []
    for phase in ("coverage", "worst"):
        fams = [f for f in family_evidence(outcome) if f.phase == phase]
        if fams:
            parts.append(f"{phase} {sum(f.complete for f in fams)}/{len(fams)} families")
    for ev in space_evidence(outcome):
        if ev.up_to is not None:
            parts.append(f"{ev.name} <= {ev.up_to} ({ev.inputs:,}){'' if ev.complete else ' (part)'}")
    if stats.random_examples:
        parts.append(f"random {stats.random_examples}")
    if stats.largest_sizes:
        parts.append(f"largest {len(stats.largest_sizes)}")
    failure = outcome.failure
    if failure is not None:
        parts.append(f"failed in {failure.phase} at size {failure.size}")
    return "; ".join(parts) or "nothing ran"


class _Status:
    """The executor's display for one solver: a rich status line, refreshed at most 10 times a second."""

    def __init__(self, status: Any, label: str) -> None:
        self.status, self.label = status, label
        self.name, self.done, self.note, self._last = "starting", 0, "", 0.0

    def phase(self, name: str, deadline: float | None) -> None:
        self.name, self.note = name, ""
        self._show(force=True)

    def event(self, text: str) -> None:
        self.note = text
        self._show(force=True)

    def advance(self, tests: int) -> None:
        self.done += tests
        self._show()

    def _show(self, force: bool = False) -> None:
        now = time.perf_counter()
        if force or now - self._last >= 0.1:
            self._last = now
            note = f" ({self.note})" if self.note else ""
            self.status.update(f"{self.label}: {self.name}{note}, {self.done:,} tests")


def certify_registered_command(args: Any) -> int:
    """``gamecert certify GAME|all`` with no candidate: every registered solver, a table, and a
    report for each solver that fails.

    Exit 0 all certified, 1 a solver fails, 130 interrupted with nothing found (the table of the
    solvers completed so far is printed first).
    """
    import random

    from rich.console import Console

    from gamecert import registry
    from gamecert.errors import UsageError
    from gamecert.profiles import get_profile
    from gamecert.reports import check_report_dir

    # options only a candidate program uses: with no candidate they are refused, not ignored
    candidate_only = (("time_limit", "--time-limit"), ("memory_limit", "--memory-limit"),
                      ("exhaustive_runs", "--exhaustive-runs"), ("no_fork_server", "--no-fork-server"),
                      ("budget", "--budget"), ("jobs", "--jobs"), ("no_contain", "--no-contain"),
                      ("compile", "--compile"), ("python", "--python"))
    given = [flag for attr, flag in candidate_only if getattr(args, attr, None) not in (None, False)]
    if given:
        raise UsageError(f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} only to a candidate "
                         "program (`gamecert certify GAME CANDIDATE`); the registered solvers run in-process")
    if args.examples is not None and args.examples < 1:
        raise UsageError(f"--examples must be at least 1 for the registered solvers, got {args.examples}")
    profile = get_profile(args.profile)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    report_dir = args.report_dir if args.report_dir is not None else "reports"
    entries = registry.resolve(args.game)
    for entry in entries:
        check_report_dir(report_dir, entry.name)  # now, not after the run has found something
    console = Console()
    console.print(f"certifying the registered solvers of {', '.join(e.name for e in entries)} "
                  f"(profile {profile.name}, seed {seed})")
    start = time.perf_counter()
    rows, interrupted = _run_all(console, entries, profile, seed, args.examples)
    _print_table(console, rows, seed, profile.name, interrupted)
    failed = [r for r in rows if r.verdict != "OK"]
    for row in failed:
        _write_failure(entries, row, report_dir)
    total = sum(r.tests for r in rows)
    planned = sum(len(e.solvers) for e in entries)
    outcome = "all certified" if not failed else f"{len(failed)} failed"
    if interrupted:
        outcome = f"INTERRUPTED after {len(rows)} of {planned} solvers, " + (
            "nothing found so far" if not failed else f"{len(failed)} failed")
    console.print(f"{len(rows)} solvers, {total} tests in {time.perf_counter() - start:.1f} s; {outcome} (seed {seed})")
    if failed:
        return 1
    return 130 if interrupted else 0


def _run_all(console: Any, entries: list[Any], profile: Any, seed: int, examples: int | None) -> tuple[list[Row], bool]:
    rows: list[Row] = []
    try:
        return _run_rows(console, entries, profile, seed, examples, rows)
    except KeyboardInterrupt:  # between two solvers: keep the rows completed
        interrupts.delivered()
        return rows, True


def _run_rows(console: Any, entries: list[Any], profile: Any, seed: int, examples: int | None,
              rows: list[Row]) -> tuple[list[Row], bool]:
    with console.status("") as status:
        for entry in entries:
            for name in sorted(entry.solvers):
                label = f"{entry.name}/{name}"
                outcome = certify_solver(entry, name, entry.solvers[name], profile, seed, examples=examples,
                                         display=_Status(status, label))
                if outcome.interrupted and outcome.failure is None:
                    interrupts.delivered()
                    return rows, True  # a solver cut short is not a row: its evidence is partial
                failure = outcome.failure
                verdict = "OK" if failure is None else failure.verdict.value
                rows.append(Row(entry.name, name, evidence_summary(outcome), outcome.stats.tests,
                                outcome.stats.elapsed, verdict, outcome))
                if outcome.interrupted:
                    interrupts.delivered()
                    return rows, True
    return rows, False


def _print_table(console: Any, rows: list[Row], seed: int, profile: str, interrupted: bool) -> None:
    from rich.table import Table

    table = Table(title=f"Registered solvers against the oracle (beyond its reach: the other solvers) "
                        f"(seed {seed}, profile {profile})"
                        + (" - INTERRUPTED, the solvers completed so far" if interrupted else ""))
    for column in ("game", "solver", "evidence", "tests", "time", "verdict"):
        table.add_column(column, justify="right" if column in ("tests", "time") else "left")
    for r in rows:
        style = "green" if r.verdict == "OK" else "red"
        table.add_row(r.game, r.solver, r.evidence, f"{r.tests:,}", f"{r.seconds:.1f} s",
                      f"[{style}]{r.verdict}[/{style}]")
    console.print(table)


def _write_failure(entries: list[Any], row: Row, report_dir: str) -> None:
    """The failure as ``gamecert certify GAME CANDIDATE`` shows it, and its report."""
    from gamecert.certify import _limits, _say, _write_somewhere, say_failure
    from gamecert.reports import write_report

    entry = next(e for e in entries if e.name == row.game)
    outcome = row.outcome
    failure = outcome.failure
    subject = SolverSubject(entry.name, row.solver)
    _say()
    _say(f"{entry.name}/{row.solver}:")
    say_failure(entry.game, failure)
    limits = _limits(entry.game, None, None)
    report = build_report(entry, subject, failure, outcome, limits, outcome.stats.tests,
                          interrupted=outcome.interrupted, extra_notes=(IN_PROCESS_NOTE,))
    _say(f"  {'minimal:':<9} {report.minimality}")
    path = _write_somewhere(lambda where: write_report(report, where), report_dir)
    _say(f"  report and replay command in {path}")


__all__ = ["Row", "certify_registered_command", "certify_solver", "evidence_summary",
           "reference_entry", "solver_plan"]
