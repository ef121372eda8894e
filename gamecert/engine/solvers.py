"""The registered solvers as subjects: each certified through the same plan, judge and evidence
code as a candidate program (the command is :mod:`gamecert.commands.certify_all`).

A registered solver is a subject of its own kind (:class:`gamecert.engine.run.subjects.SolverRunner`,
in-process) and nothing else differs: :func:`certify_solver` builds the plan
(:func:`gamecert.engine.plan.plan.make_plan`: samples, coverage, worst cases, exhaustive, random,
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

from gamecert.engine.execute import Executor
from gamecert.engine.judge.evidence import (
    build_report,
    failure_lines,
    family_evidence,
    minimality_brief,
    passing_word,
    space_evidence,
)
from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.plan.plan import Plan, make_plan
from gamecert.engine.report.report_files import _write_somewhere, write_report
from gamecert.engine.run.limits import game_limits
from gamecert.engine.run.subjects import IN_PROCESS_NOTE, SolverRunner, SolverSubject

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
    return make_plan(
        entry,
        profile,
        seed,
        examples=profile.examples if examples is None else examples,
        exhaustive_tests=WHOLE_SPACES,
        sample_solvers=False,
        deciding=False,
    )


def certify_solver(
    entry: Any,
    name: str,
    solver: Any,
    profile: Any,
    seed: int,
    *,
    examples: int | None = None,
    display: Any = None,
    known: Any = None,
    plan: Plan | None = None,
    wanted: Any = None,
) -> Outcome:
    """Run ``solver`` (registered as ``name`` or not: a broken one) through the whole plan.

    In-process solvers share the interpreter, so one runner (``jobs=1``) does the work.
    ``known`` and ``wanted``: the oracle's answers computed beforehand (:func:`plan_answers`),
    read only; ``plan``: the solver plan built beforehand (:func:`listed_plan`), the same as
    the one built here.
    """
    if plan is None:
        plan = solver_plan(entry, profile, seed, examples)
    elif hasattr(display, "plan"):  # a listed plan: its tests are counted without building anything
        display.plan(plan)
    executor = Executor(
        reference_entry(entry, name),
        plan,
        lambda: SolverRunner(entry, name, solver),
        jobs=1,
        display=display,
        known=known,
        wanted=wanted,
    )
    return executor.run()


def listed_plan(plan: Plan) -> Plan:
    """``plan`` with every group and every chunk listed now, once: the executor meets the same
    groups in the same order, each as lazy or eager as it was, so that several solvers' runs
    share one plan (a plan fixed by counts, whose random phase is a fixed number of examples,
    is finite; any other is refused)."""
    if not (plan.by_counts and plan.random_fixed):
        raise ValueError("only a plan fixed by counts can be listed whole")
    phases = []
    for phase in plan.phases:
        groups = tuple(_listed_group(g) for g in phase.groups())
        phases.append(replace(phase, groups=lambda groups=groups: iter(groups)))  # type: ignore[misc]  # mypy cannot type a lambda whose default binds a loop variable
    return replace(plan, phases=tuple(phases))


def _listed_group(group: Any) -> Any:
    if group.lazy is None:
        return group
    chunks = group.chunks
    return replace(group, lazy=lambda chunks=chunks: iter(chunks))


#: each game's solver plan, listed once before its solvers' processes fork (read only there),
#: by (game, profile name, seed, examples)
_PLANS: dict[tuple[Any, ...], Plan] = {}
#: the oracle's answers on the inputs of each shared plan within its reach, by game: single
#: games by input text, as the judge keys its own
_KNOWN: dict[str, dict[str, tuple[Any, str]]] = {}
#: and each chunk's expected texts, by game and chunk key: (the chunk's own input texts, each
#: run's expected text or None where a game of it is beyond the oracle, each run's games)
_WANTED: dict[str, dict[str, tuple[Any, tuple[str | None, ...], tuple[int, ...]]]] = {}
#: seconds the answers computed once may take in all (string_cut's: about 10 s on 2 cores)
ANSWERS_MAX_S = 120.0


def plan_answers(
    game: str, key: tuple[Any, ...], part: int = 0, parts: int = 1
) -> tuple[dict[str, tuple[Any, str]], dict[str, Any]] | None:
    """The oracle's answers on every input of the listed plan ``_PLANS[key]`` within its reach:
    the ``part``-th of every ``parts`` chunks (so that several processes share the work).

    Every registered solver of a game meets the same inputs (the plan is fixed by counts), and
    within the oracle's reach the expected answer is the oracle's whoever is certified: computed
    once here, with its text, it is not computed again for each solver (string_cut: 1.3 million
    oracle calls per solver). Returns (single games' answers by input text, where the game is
    not packed several to a run; each chunk's expected texts run by run and games per run, by
    chunk key). A game whose code fails here gives None: its solvers' own runs meet the fault
    and report it as theirs or the game's, as without this."""
    from gamecert.engine import gamecode, registry

    try:
        g = registry.get(game).game
        known: dict[str, tuple[Any, str]] = {}
        wanted: dict[str, Any] = {}
        chunks = [
            c for phase in _PLANS[key].phases for group in phase.groups() for c in group.chunks
        ]
        for chunk in chunks[part::parts]:
            # one section per chunk: past its limit (or on any error) the game's answers are
            # dropped, never wrong
            with gamecode.section(g.name, "the oracle and format_answer on a chunk's inputs"):
                wanted[chunk.key] = _chunk_answers(g, chunk, known)
        return known, wanted
    except Exception:  # noqa: BLE001 - the solvers' runs meet it again, and say whose it is
        return None


def _chunk_answers(
    g: Any, chunk: Any, known: dict[str, tuple[Any, str]]
) -> tuple[tuple[str | None, ...], tuple[int, ...]]:
    """The expected text of each run of ``chunk`` (None where a game of it is beyond the oracle),
    and the games of each run; ``known`` given the answer of each run of a single game."""
    from gamecert.errors import OutOfReach

    texts: list[str | None] = []
    games: list[int] = []
    batched, reach, oracle, written = g.max_batch > 1, g.oracle_reach, g.oracle, g.format_answer
    for inst, text in zip(chunk.instances, chunk.texts):
        singles = g.split(inst) if batched else (inst,)
        games.append(len(singles))
        try:  # as expected_answer asks the oracle
            answers = [
                oracle(single) if g.size(single) <= reach else _beyond(OutOfReach)
                for single in singles
            ]
        except OutOfReach:
            texts.append(None)
            continue
        texts.append("".join(written(a) for a in answers) if batched else written(answers[0]))
        if not batched:
            known[text] = (answers[0], "the oracle")
    return tuple(texts), tuple(games)


def _beyond(error: type[Exception]) -> Any:
    raise error("beyond the oracle's reach")


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
            parts.append(
                f"{ev.name}: {size} <= {ev.up_to}, {ev.inputs:,} inputs{'' if ev.complete else ' (part)'}"
            )
    if stats.random_examples:
        parts.append(f"random {stats.random_examples}")
    if stats.largest_sizes:
        parts.append(f"largest {len(stats.largest_sizes)}")
    failure = outcome.failure
    if failure is not None:
        parts.append(f"failed in {failure.phase} at size {failure.size}")
    return "; ".join(parts) or "nothing ran"


def certify_one(
    game: str,
    solver: str,
    profile_name: str,
    seed: int,
    examples: int | None,
    report_dir: str,
    display: Any = None,
) -> Row:
    """One registered solver, by names (it may run in another process): its row, and its report
    written if it fails. A solver cut short with nothing found is a row marked ``interrupted``."""
    from gamecert.engine import registry
    from gamecert.engine.plan.profiles import get_profile

    entry = registry.get(game)
    plan = _PLANS.get((game, profile_name, seed, examples))
    outcome = certify_solver(
        entry,
        solver,
        entry.solvers[solver],
        get_profile(profile_name),
        seed,
        examples=examples,
        display=display,
        known=_KNOWN.get(game) if plan else None,
        plan=plan,
        wanted=_WANTED.get(game) if plan else None,
    )
    failure = outcome.failure
    lines = _write_failure(entry, solver, outcome, report_dir) if failure is not None else ()
    return Row(
        game,
        solver,
        evidence_summary(outcome),
        outcome.stats.tests,
        outcome.stats.elapsed,
        passing_word(outcome) if failure is None else failure.verdict.value,
        lines,
        outcome.interrupted,
    )


def _write_failure(entry: Any, solver: str, outcome: Outcome, report_dir: str) -> tuple[str, ...]:
    """The failure as ``gamecert certify GAME CANDIDATE`` shows it, and its report, written."""

    failure = outcome.failure
    assert failure is not None  # (called only on a failure)
    report = build_report(
        entry,
        SolverSubject(entry.name, solver),
        failure,
        outcome,
        game_limits(entry.game, None, None),
        outcome.stats.tests,
        interrupted=outcome.interrupted,
        extra_notes=(IN_PROCESS_NOTE,),
    )
    path = _write_somewhere(lambda where: write_report(report, where), report_dir)
    return (
        *failure_lines(entry.game, failure),
        f"  {'minimal:':<9} {minimality_brief(outcome, failure)}",
        f"  report and replay command in {path}",
    )


# ---- every registered solver of some games --------------------------------------------------------
