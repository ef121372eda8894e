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
import time
import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gamecert.engine.judge.evidence import (
    build_report,
    failure_lines,
    family_evidence,
    space_evidence,
)
from gamecert.engine.execute import Executor
from gamecert.engine.judge.judge import expected_answer
from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.run.limits import game_limits
from gamecert.engine.plan.plan import Plan, exhaustive_sizes, make_plan
from gamecert.engine.report.report_files import _write_somewhere, write_report
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
    return make_plan(entry, profile, seed, examples=profile.examples if examples is None else examples,
                     exhaustive_tests=WHOLE_SPACES, sample_solvers=False, deciding=False)


def certify_solver(entry: Any, name: str, solver: Any, profile: Any, seed: int, *,
                   examples: int | None = None, display: Any = None, known: Any = None) -> Outcome:
    """Run ``solver`` (registered as ``name`` or not: a broken one) through the whole plan.

    In-process solvers share the interpreter, so one runner (``jobs=1``) does the work.
    ``known``: the oracle's answers computed beforehand (:func:`oracle_answers`), read only.
    """
    plan = solver_plan(entry, profile, seed, examples)
    executor = Executor(reference_entry(entry, name), plan, lambda: SolverRunner(entry, name, solver),
                        jobs=1, display=display, known=known)
    return executor.run()


#: the oracle's answers on the exhaustive inputs of each game's solver plan, by game name (filled
#: by :func:`certify_solvers` before its solvers run; forked workers inherit it)
_KNOWN: dict[str, dict[str, tuple[Any, str]]] = {}
#: seconds the answers computed once may take in all (string_cut's: about 13 s on 2 cores)
ANSWERS_MAX_S = 120.0


def oracle_answers(game: str, profile_name: str, seed: int, part: int = 0, parts: int = 1) -> dict[str, tuple[Any, str]]:
    """The oracle's answers on the single games of the solver plan's exhaustive phase, keyed by
    input text: the ``part``-th of every ``parts`` (so that several processes share the work).

    Every registered solver of a game meets the same exhaustive inputs (the plan is fixed by
    counts), and on them the expected answer is the oracle's whoever is certified: computed once
    here, it is not computed again for each solver (string_cut: 1.3 million oracle calls per
    solver). A game whose code fails here gives nothing: its solvers' own runs meet the fault
    and report it as theirs or the game's, as without this."""
    from gamecert.engine import registry
    from gamecert.engine.plan.profiles import get_profile

    try:
        entry = registry.get(game)
        g = entry.game
        answers: dict[str, tuple[Any, str]] = {}
        # the spaces as the plan sweeps them (plan.exhaustive_sizes), without its checks and
        # chunks: an answer here that the plan never asks for is only never looked up; an input
        # is in the part its text's CRC names (an input two spaces share is computed once)
        for space, sizes in exhaustive_sizes(g, get_profile(profile_name)):
            for size in sizes:
                for single in space.instances(size):
                    text = g.format_input(single)
                    if (parts > 1 and zlib.crc32(text.encode()) % parts != part) or text in answers \
                            or g.size(single) > g.oracle_reach:
                        continue
                    found = expected_answer(entry, single)
                    if found[1] == "the oracle":
                        answers[text] = found
        return answers
    except Exception:  # noqa: BLE001 - the solvers' runs meet it again, and say whose it is
        return {}


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
    from gamecert.engine.plan.profiles import get_profile

    entry = registry.get(game)
    outcome = certify_solver(entry, solver, entry.solvers[solver], get_profile(profile_name), seed,
                             examples=examples, display=display, known=_KNOWN.get(game))
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


# ---- every registered solver of some games --------------------------------------------------------

#: (game, solver, profile name, seed, examples, report folder)
Task = tuple[Any, ...]


@dataclass(frozen=True)
class SolverBatch:
    """How ``gamecert certify GAME|all`` ended: a row per solver completed, in the order planned
    (one cut short with nothing found is left out), and whether Ctrl-C stopped it."""

    rows: tuple[Row, ...]
    planned: int
    interrupted: bool

    @property
    def failed(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.verdict != "OK")

    @property
    def tests(self) -> int:
        return sum(r.tests for r in self.rows)


def solver_tasks(entries: list[Any], profile_name: str, seed: int, examples: int | None,
                 report_dir: str) -> list[Task]:
    """One task per registered solver of ``entries`` (by names: a task may run in another process)."""
    return [(e.name, name, profile_name, seed, examples, report_dir) for e in entries for name in sorted(e.solvers)]


def certify_solvers(tasks: list[Task], jobs: int, *, display: Any = None, done: Any = None,
                    progress: Any = None) -> SolverBatch:
    """Certify every task's solver: one after another in this process (``jobs`` 1; ``display(label)``
    makes each one's executor display), or ``jobs`` at a time, each in a forked process
    (``done(count, row)`` is told as each ends). Ctrl-C keeps the rows already finished.

    First the oracle's answers on the exhaustive inputs of every game with more than one solver
    to certify, once for all of them (:func:`oracle_answers`, ``jobs`` processes sharing the work;
    ``progress(text)`` is told how far it is)."""
    from gamecert.engine import interrupts

    try:
        _share_oracle_answers(tasks, jobs, progress)
    except KeyboardInterrupt:
        interrupts.delivered()
        return SolverBatch((), len(tasks), True)
    if jobs == 1:
        rows, interrupted = _in_turn(tasks, display, interrupts)
    else:
        # the longest first (by the exhaustive inputs a solver meets), so that no long one starts last
        tasks = sorted(tasks, key=lambda t: -len(_KNOWN.get(t[0], ())))
        rows, interrupted = _at_once(tasks, jobs, done, interrupts)
    order = {(t[0], t[1]): i for i, t in enumerate(tasks)}
    kept = sorted((r for r in rows if not r.interrupted or r.failure), key=lambda r: order[r.game, r.solver])
    return SolverBatch(tuple(kept), len(tasks), interrupted or any(r.interrupted for r in rows))


def _in_turn(tasks: list[Task], display: Any, interrupts: Any) -> tuple[list[Row], bool]:
    rows: list[Row] = []
    try:
        for task in tasks:
            row = certify_one(*task, display=display(f"{task[0]}/{task[1]}") if display is not None else None)
            rows.append(row)
            if row.interrupted:
                interrupts.delivered()
                return rows, True
    except KeyboardInterrupt:  # between two solvers: keep the rows completed
        interrupts.delivered()
        return rows, True
    return rows, False


def _at_once(tasks: list[Task], jobs: int, done: Any, interrupts: Any) -> tuple[list[Row], bool]:
    """In-process solvers share one interpreter, so threads would not run them in parallel:
    forked processes do. Ctrl-C stops the workers; the rows already finished are kept."""
    import multiprocessing

    rows: list[Row] = []
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_signals)
    try:
        for row in pool.imap_unordered(_certify_task, tasks):
            rows.append(row)
            if done is not None:
                done(len(rows), row)
        pool.close()
    except KeyboardInterrupt:
        interrupts.delivered()
        pool.terminate()
        return rows, True
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
    return rows, False


def _share_oracle_answers(tasks: list[Task], jobs: int, progress: Any) -> None:
    """:data:`_KNOWN` filled for every game two or more tasks certify (with one, the solver's own
    run computes each answer once anyway)."""
    counts: dict[tuple[str, str, int], int] = {}
    for game, _, profile_name, seed, *_ in tasks:
        counts[game, profile_name, seed] = counts.get((game, profile_name, seed), 0) + 1
    shared = [key for key, n in counts.items() if n > 1]
    _KNOWN.clear()
    if not shared:
        return
    parts = max(1, jobs)
    work = [(game, profile_name, seed, part, parts) for game, profile_name, seed in shared for part in range(parts)]
    tell = progress or (lambda text: None)
    what = "the oracle's answers on the exhaustive inputs, once for every solver"
    tell(f"{what}: 0 of {len(shared)} games")

    def merge(results: Any) -> None:
        for k, ((game, *_), answers) in enumerate(zip(work, results), 1):
            _KNOWN.setdefault(game, {}).update(answers)
            if k % parts == 0:
                tell(f"{what}: {k // parts} of {len(shared)} games")

    if parts == 1:
        merge(oracle_answers(*w) for w in work)
        return
    import multiprocessing

    pool = multiprocessing.get_context("fork").Pool(parts, initializer=_worker_signals)
    try:
        pending = [pool.apply_async(_answers_task, (w,)) for w in work]
        until = time.monotonic() + ANSWERS_MAX_S
        # a game's code that hangs here (no section guard in a pool's worker) must not hang the
        # command: past the bound the answers are dropped, and the solvers' own runs meet the
        # hang and name it as the game's, as without them
        merge(p.get(timeout=max(0.1, until - time.monotonic())) for p in pending)
        pool.close()
    except multiprocessing.TimeoutError:
        pool.terminate()
        _KNOWN.clear()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _answers_task(work: tuple[Any, ...]) -> dict[str, tuple[Any, str]]:
    return oracle_answers(*work)


def _certify_task(task: Task) -> Row:
    return certify_one(*task)


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the command (which stops it) and dies on SIGTERM."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def write_solver_table(report_dir: str, batch: SolverBatch, seed: int, profile: str) -> Path:
    """``report_dir/solvers.md``, written atomically: every row with its evidence in full (the
    terminal's table clips that cell to its width)."""
    from gamecert.engine.report.report_files import atomic_write_text
    from gamecert.engine.report.reports import timestamp

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = [f"# Registered solvers against the oracle (seed {seed}, profile {profile})", "",
             f"Created {timestamp()}; beyond the oracle's reach the expected answers come from the other "
             "solvers." + (" INTERRUPTED: the solvers completed so far." if batch.interrupted else ""), "",
             "| game | solver | verdict | tests | time | evidence |", "|---|---|---|---:|---:|---|"]
    for r in batch.rows:
        lines.append(f"| {cell(r.game)} | {cell(r.solver)} | {r.verdict} | {r.tests:,} | {r.seconds:.1f} s "
                     f"| {cell(r.evidence)} |")
    path = Path(report_dir) / "solvers.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, "\n".join(lines) + "\n")
    return path
