"""``gamecert certify GAME|all`` with no candidate: every registered solver certified in turn or
several at once (the engine's :func:`gamecert.engine.solver_batch.certify_solvers` does the work),
then a table.

``--jobs N`` solvers run at once, each in a process of its own; the table, and a report for each
solver that fails, come at the end.
"""

from __future__ import annotations

import time
from typing import Any

from gamecert.commands.screen import columns, echo
from gamecert.engine.solver_batch import certify_solvers, solver_tasks
from gamecert.engine.solvers import Row
from gamecert.verdict import CERTIFIED, INCOMPLETE

#: the width of a table printed to a file or a pipe with no COLUMNS: not clipped
_UNWRAPPED = 10_000


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


class _Progress:
    """The status line of ``certify all`` with solvers at once: what is being done, the tests run
    of the tests planned, and an estimate of the time left (the time so far, scaled by the tests
    still to run)."""

    def __init__(self, update: Any, solvers: int, start: float) -> None:
        self.update, self.solvers, self.start = update, solvers, start
        self.doing, self.counts = "", ""

    def say(self, text: str) -> None:
        self.doing = text
        self._show()

    def tested(self, done: int, total: int) -> None:
        self.counts = count_line(done, total, time.perf_counter() - self.start)
        self._show()

    def _show(self) -> None:
        self.update(" | ".join(part for part in (self.doing, self.counts) if part))


def count_line(done: int, total: int, elapsed: float) -> str:
    """Tests run of tests planned and the time left, estimated from the time so far (once a
    hundredth of the tests has run: before, the start's own work would make it absurd).

    >>> count_line(250_000, 1_000_000, 10.0)
    '250,000 of 1,000,000 tests, ~30 s left'
    >>> count_line(9, 1_000, 2.0)
    '9 of 1,000 tests'
    """
    if done * 100 < total or total <= done:
        return f"{done:,} of {total:,} tests"
    return f"{done:,} of {total:,} tests, ~{elapsed * (total - done) / done:.0f} s left"


def what_runs(game: str, entries: list[Any], solvers: int, details: str) -> str:
    """The first line of ``certify GAME|all`` with no program: what it is about to do, and for one
    game, how to judge a program instead (a program forgotten on the command line)."""
    if game == "all":
        return (
            f"certify all: certifying the {solvers} registered solvers of "
            f"{', '.join(e.name for e in entries)} against their oracles ({details})"
        )
    names = ", ".join(sorted(entries[0].solvers)) if entries else ""
    return (
        f"no program given: certifying {game}'s {solvers} registered solver{'s' if solvers != 1 else ''} "
        f"({names}) against its oracle ({details}); to judge a program: gamecert certify {game} PROGRAM"
    )


def certify_registered_command(args: Any) -> int:
    """``gamecert certify GAME|all`` with no candidate: every registered solver, a table, and a
    report for each solver that fails. ``--jobs N`` solvers run at once, each in a process of
    its own (default: one per core).

    Exit 0 all certified or passed (incomplete), 1 a solver fails (or, with ``--strict``, one passed
    on incomplete evidence), 130 interrupted with nothing found (the table of the solvers completed
    so far is printed first).
    """
    import random

    from rich.console import Console

    from gamecert.engine import registry
    from gamecert.engine.certification import check_jobs
    from gamecert.engine.plan.profiles import get_profile
    from gamecert.engine.report.report_files import _write_somewhere, check_report_dir
    from gamecert.engine.solver_batch import write_solver_table
    from gamecert.errors import UsageError

    # options only a candidate program uses: with no candidate they are refused, not ignored
    candidate_only = (
        ("time_limit", "--time-limit"),
        ("memory_limit", "--memory-limit"),
        ("exhaustive_runs", "--exhaustive-runs"),
        ("no_fork_server", "--no-fork-server"),
        ("budget", "--budget"),
        ("no_contain", "--no-contain"),
        ("compile", "--compile"),
        ("python", "--python"),
        ("phases", "--phases"),
    )
    given = [
        flag for attr, flag in candidate_only if getattr(args, attr, None) not in (None, False)
    ]
    if given:
        raise UsageError(
            f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} only to a candidate "
            "program (`gamecert certify GAME CANDIDATE`); the registered solvers run in-process"
        )
    if args.examples is not None and args.examples < 1:
        raise UsageError(
            f"--examples must be at least 1 for the registered solvers, got {args.examples}"
        )
    profile = get_profile(args.profile)
    jobs = check_jobs(getattr(args, "jobs", None))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    report_dir = args.report_dir if args.report_dir is not None else "reports"
    entries, problems = registry.load_all(args.game)
    for problem in problems:  # an unfinished game: one line, and the others go on
        echo(problem.describe())
    for entry in entries:
        check_report_dir(report_dir, entry.name)  # now, not after the run has found something
    tasks = solver_tasks(entries, profile.name, seed, args.examples, report_dir)
    jobs = min(jobs, len(tasks))
    console = Console(width=columns() or _UNWRAPPED)
    console.print(
        what_runs(
            args.game, entries, len(tasks), f"profile {profile.name}, seed {seed}, {jobs} at a time"
        ),
        markup=False,
        highlight=False,
    )
    start = time.perf_counter()
    # a status line on a terminal only: rich's live display draws nothing to a pipe or a file
    with console.status("") as status:
        line = _Progress(status.update, len(tasks), start)
        if jobs != 1:
            line.say(f"0 of {len(tasks)} solvers done")

        def done(count: int, row: Row) -> None:
            line.say(
                f"{count} of {len(tasks)} solvers done (last: {row.game}/{row.solver} {row.verdict})"
            )

        batch = certify_solvers(
            tasks,
            jobs,
            display=lambda label: _Status(status, label),
            done=done,
            progress=line.say,
            tested=line.tested,
        )
    rows, interrupted = list(batch.rows), batch.interrupted
    _print_table(console, rows, seed, profile.name, interrupted)
    table = _write_somewhere(
        lambda where: write_solver_table(where, batch, seed, profile.name), report_dir
    )
    echo(f"the evidence in full: {table}")
    failed = batch.failed
    for row in failed:
        echo(f"\n{row.game}/{row.solver}:")
        for text in row.failure:
            echo(text)
    incomplete = sum(r.verdict == INCOMPLETE for r in rows)
    outcome = (
        f"{len(failed)} failed"
        if failed
        else "all certified"
        if not incomplete
        else f"{len(rows) - incomplete} certified, {incomplete} passed (incomplete)"
    )
    if interrupted:
        outcome = f"INTERRUPTED after {len(rows)} of {len(tasks)} solvers, " + (
            "nothing found so far" if not failed else f"{len(failed)} failed"
        )
    console.print(
        f"{len(rows)} solvers, {batch.tests} tests in {time.perf_counter() - start:.1f} s; {outcome} (seed {seed})"
    )
    if failed:
        return 1
    if interrupted:
        return 130
    if problems:
        return 2
    return 1 if incomplete and getattr(args, "strict", False) else 0


def _print_table(console: Any, rows: list[Row], seed: int, profile: str, interrupted: bool) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(
        title=f"Registered solvers against the oracle (beyond its reach: the other solvers) "
        f"(seed {seed}, profile {profile})"
        + (" - INTERRUPTED, the solvers completed so far" if interrupted else "")
    )
    columns = ("game", "solver", "evidence", "tests", "time", "verdict")
    cells = [
        [r.game, r.solver, r.evidence, f"{r.tests:,}", f"{r.seconds:.1f} s", r.verdict]
        for r in rows
    ]
    widths = [max([len(column), *(len(c[k]) for c in cells)]) for k, column in enumerate(columns)]
    # the evidence is the one cell clipped to the width, never wrapped (solvers.md has it whole):
    # what is left of the width once the other columns, the borders and the padding are in
    room = max(8, console.width - (sum(widths) - widths[2]) - (len(columns) + 1) - 2 * len(columns))
    for c in cells:
        c[2] = c[2] if len(c[2]) <= room else c[2][: room - 3].rstrip() + "..."
    for column in columns:
        table.add_column(
            column, justify="right" if column in ("tests", "time") else "left", no_wrap=True
        )
    for c in cells:
        style = "green" if c[5] == CERTIFIED else "yellow" if c[5] == INCOMPLETE else "red"
        table.add_row(*(Text(x) for x in c[:5]), Text(c[5], style=style))
    console.print(table)
