"""The registered solvers as subjects: each certified through the same plan, judge and evidence
code as a candidate program (the command is :mod:`gamecert.commands.certify_all`).

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
from dataclasses import dataclass, replace
from typing import Any

from gamecert.engine.evidence import (
    build_report,
    failure_lines,
    family_evidence,
    space_evidence,
)
from gamecert.engine.execute import Executor, Outcome
from gamecert.engine.limits import game_limits
from gamecert.engine.plan import Plan, make_plan
from gamecert.engine.report_files import _write_somewhere, write_report
from gamecert.engine.subjects import IN_PROCESS_NOTE, SolverRunner, SolverSubject

#: the exhaustive sweep of a registered solver, in single games: more than any space holds, so
#: every space runs in full (``make_plan`` stops a space only at a size that does not fit)
WHOLE_SPACES = sys.maxsize


def reference_entry(entry: Any, name: str) -> Any:
    """``entry`` with the solver ``name`` left out of the references beyond the oracle's reach.

    >>> from gamecert.engine import registry
    >>> entry = registry.get("word_game")
    >>> sorted(reference_entry(entry, "closed_form").solvers)
    ['count_table']
    >>> sorted(reference_entry(entry, "not_registered").solvers) == sorted(entry.solvers)
    True
    """
    return replace(entry, solvers={k: v for k, v in entry.solvers.items() if k != name})


def solver_plan(entry: Any, profile: Any, seed: int, examples: int | None = None) -> Plan:
    """The plan of a registered solver: fixed by counts, every exhaustive space in full. The
    samples are checked against the oracle only: a solver under test that is wrong on a sample
    is a verdict on the solver (its report), not a mistake of the game's. The deciding-feature
    families are for programs: run whole by counts they would take a quadratic solver half an hour
    (string_cut's 14,972 strings of up to 4,998 letters); the solvers are checked against each other
    at full size in the random and largest phases, and against the oracle on every exhaustive
    space."""
    return make_plan(entry, profile, seed, examples=profile.examples if examples is None else examples,
                     exhaustive_tests=WHOLE_SPACES, sample_solvers=False, deciding=False)


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
    """One line of the table: a solver and what its run showed (picklable: a row may come from
    another process)."""

    game: str
    solver: str
    evidence: str
    tests: int
    seconds: float
    verdict: str
    #: a failing solver: the failure as a program's is shown, the minimality claim, the report's path
    failure: tuple[str, ...] = ()
    #: Ctrl-C reached the run before it ended
    interrupted: bool = False


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
            size = ev.measure or "size"  # say what the bound counts ("bit length", "letters"...)
            parts.append(f"{ev.name}: {size} <= {ev.up_to}, {ev.inputs:,} inputs{'' if ev.complete else ' (part)'}")
    if stats.random_examples:
        parts.append(f"random {stats.random_examples}")
    if stats.largest_sizes:
        parts.append(f"largest {len(stats.largest_sizes)}")
    failure = outcome.failure
    if failure is not None:
        parts.append(f"failed in {failure.phase} at size {failure.size}")
    return "; ".join(parts) or "nothing ran"


def certify_one(game: str, solver: str, profile_name: str, seed: int, examples: int | None, report_dir: str,
                display: Any = None) -> Row:
    """One registered solver, by names (it may run in another process): its row, and its report
    written if it fails. A solver cut short with nothing found is a row marked ``interrupted``."""
    from gamecert.engine import registry
    from gamecert.engine.profiles import get_profile

    entry = registry.get(game)
    outcome = certify_solver(entry, solver, entry.solvers[solver], get_profile(profile_name), seed,
                             examples=examples, display=display)
    failure = outcome.failure
    lines = _write_failure(entry, solver, outcome, report_dir) if failure is not None else ()
    return Row(game, solver, evidence_summary(outcome), outcome.stats.tests, outcome.stats.elapsed,
               "OK" if failure is None else failure.verdict.value, lines, outcome.interrupted)


def _write_failure(entry: Any, solver: str, outcome: Outcome, report_dir: str) -> tuple[str, ...]:
    """The failure as ``gamecert certify GAME CANDIDATE`` shows it, and its report, written."""

    failure = outcome.failure
    report = build_report(entry, SolverSubject(entry.name, solver), failure, outcome, game_limits(entry.game, None, None),
                          outcome.stats.tests, interrupted=outcome.interrupted, extra_notes=(IN_PROCESS_NOTE,))
    path = _write_somewhere(lambda where: write_report(report, where), report_dir)
    return (*failure_lines(entry.game, failure), f"  {'minimal:':<9} {report.minimality}",
            f"  report and replay command in {path}")
