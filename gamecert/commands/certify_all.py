"""``gamecert certify GAME|all`` with no candidate: every registered solver certified in turn or
several at once (:mod:`gamecert.engine.solvers` does the work), then a table.

``--jobs N`` solvers run at once, each in a process of its own; the table, and a report for each
solver that fails, come at the end.
"""

from __future__ import annotations

import time
from typing import Any

from gamecert.engine import interrupts
from gamecert.engine.solvers import Row, certify_one


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
    report for each solver that fails. ``--jobs N`` solvers run at once, each in a process of
    its own (default: one per core).

    Exit 0 all certified, 1 a solver fails, 130 interrupted with nothing found (the table of the
    solvers completed so far is printed first).
    """
    import random

    from rich.console import Console

    from gamecert.commands.certify import _jobs
    from gamecert.engine import registry
    from gamecert.engine.profiles import get_profile
    from gamecert.engine.report_files import check_report_dir
    from gamecert.errors import UsageError

    # options only a candidate program uses: with no candidate they are refused, not ignored
    candidate_only = (("time_limit", "--time-limit"), ("memory_limit", "--memory-limit"),
                      ("exhaustive_runs", "--exhaustive-runs"), ("no_fork_server", "--no-fork-server"),
                      ("budget", "--budget"), ("no_contain", "--no-contain"),
                      ("compile", "--compile"), ("python", "--python"))
    given = [flag for attr, flag in candidate_only if getattr(args, attr, None) not in (None, False)]
    if given:
        raise UsageError(f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} only to a candidate "
                         "program (`gamecert certify GAME CANDIDATE`); the registered solvers run in-process")
    if args.examples is not None and args.examples < 1:
        raise UsageError(f"--examples must be at least 1 for the registered solvers, got {args.examples}")
    profile = get_profile(args.profile)
    jobs = _jobs(getattr(args, "jobs", None))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    report_dir = args.report_dir if args.report_dir is not None else "reports"
    entries, problems = registry.load_all(args.game)
    for problem in problems:  # an unfinished game: one line, and the others go on
        print(problem.describe(), flush=True)
    for entry in entries:
        check_report_dir(report_dir, entry.name)  # now, not after the run has found something
    tasks = [(e.name, name, profile.name, seed, args.examples, report_dir) for e in entries for name in sorted(e.solvers)]
    jobs = min(jobs, len(tasks))
    console = Console()
    console.print(f"certifying the registered solvers of {', '.join(e.name for e in entries)} "
                  f"(profile {profile.name}, seed {seed}, {jobs} at a time)")
    start = time.perf_counter()
    run = _run_in_turn if jobs == 1 else _run_at_once
    done, interrupted = run(console, tasks, jobs)
    order = {(t[0], t[1]): i for i, t in enumerate(tasks)}
    rows = sorted((r for r in done if not r.interrupted or r.failure), key=lambda r: order[r.game, r.solver])
    interrupted = interrupted or any(r.interrupted for r in done)
    _print_table(console, rows, seed, profile.name, interrupted)
    failed = [r for r in rows if r.verdict != "OK"]
    for row in failed:
        print(f"\n{row.game}/{row.solver}:", *row.failure, sep="\n", flush=True)
    total = sum(r.tests for r in rows)
    outcome = "all certified" if not failed else f"{len(failed)} failed"
    if interrupted:
        outcome = f"INTERRUPTED after {len(rows)} of {len(tasks)} solvers, " + (
            "nothing found so far" if not failed else f"{len(failed)} failed")
    console.print(f"{len(rows)} solvers, {total} tests in {time.perf_counter() - start:.1f} s; {outcome} (seed {seed})")
    if failed:
        return 1
    if interrupted:
        return 130
    return 2 if problems else 0


def _run_in_turn(console: Any, tasks: list[tuple[Any, ...]], jobs: int) -> tuple[list[Row], bool]:
    """One solver after another in this process, with a live status line."""
    rows: list[Row] = []
    try:
        with console.status("") as status:
            for task in tasks:
                row = certify_one(*task, display=_Status(status, f"{task[0]}/{task[1]}"))
                rows.append(row)
                if row.interrupted:
                    interrupts.delivered()
                    return rows, True
    except KeyboardInterrupt:  # between two solvers: keep the rows completed
        interrupts.delivered()
        return rows, True
    return rows, False


def _run_at_once(console: Any, tasks: list[tuple[Any, ...]], jobs: int) -> tuple[list[Row], bool]:
    """``jobs`` solvers at a time, each in a forked process (in-process solvers share one
    interpreter, so threads would not run them in parallel). Ctrl-C stops the workers; the rows
    already finished are kept."""
    import multiprocessing

    rows: list[Row] = []
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_signals)
    try:
        with console.status("") as status:
            status.update(f"0 of {len(tasks)} solvers done")
            for row in pool.imap_unordered(_certify_task, tasks):
                rows.append(row)
                status.update(f"{len(rows)} of {len(tasks)} solvers done (last: {row.game}/{row.solver} {row.verdict})")
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


def _certify_task(task: tuple[Any, ...]) -> Row:
    return certify_one(*task)


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the command (which stops it) and dies on SIGTERM."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


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

