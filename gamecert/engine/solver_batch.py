"""Many registered solvers certified in one command (``gamecert certify GAME|all``): one after
another in this process, or several at once in forked processes, each started when a core is
free (:class:`_Scheduler`); the plans and the oracle's answers that several solvers of a game
share are built once, here, before the processes that need them are forked. The table of rows
is written to ``solvers.md``. Each solver's own certification is
:func:`gamecert.engine.solvers.certify_one`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.engine.plan.plan import Plan
from gamecert.engine.solvers import (
    _KNOWN,
    _PLANS,
    _WANTED,
    ANSWERS_MAX_S,
    Row,
    certify_one,
    listed_plan,
    plan_answers,
    solver_plan,
)
from gamecert.verdict import PASSING

#: (game, solver, profile name, seed, examples, report folder)
Task = tuple[str, str, str, int, int | None, str]


@dataclass(frozen=True)
class SolverBatch:
    """How ``gamecert certify GAME|all`` ended: a row per solver completed, in the order planned
    (one cut short with nothing found is left out), and whether Ctrl-C stopped it."""

    rows: tuple[Row, ...]
    planned: int
    interrupted: bool

    @property
    def failed(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.verdict not in PASSING)

    @property
    def tests(self) -> int:
        return sum(r.tests for r in self.rows)


def solver_tasks(
    entries: list[Any], profile_name: str, seed: int, examples: int | None, report_dir: str
) -> list[Task]:
    """One task per registered solver of ``entries`` (by names: a task may run in another process)."""
    return [
        (e.name, name, profile_name, seed, examples, report_dir)
        for e in entries
        for name in sorted(e.solvers)
    ]


def certify_solvers(
    tasks: list[Task],
    jobs: int,
    *,
    display: Any = None,
    done: Any = None,
    progress: Any = None,
    tested: Any = None,
) -> SolverBatch:
    """Certify every task's solver: one after another in this process (``jobs`` 1; ``display(label)``
    makes each one's executor display), or ``jobs`` at a time, each in a forked process
    (``done(count, row)`` is told as each ends, ``tested(done, total)`` the tests run so far and
    the tests planned, a few times a second). Ctrl-C keeps the rows already finished.

    First, for every game with more than one solver to certify, once for all of them: the plan
    (:func:`listed_plan`) and the oracle's answers on its inputs within reach
    (:func:`plan_answers`, ``jobs`` processes sharing the work); ``progress(text)`` is told how
    far it is."""
    import gc

    from gamecert.engine import interrupts

    try:
        if jobs == 1:
            try:
                _share_plans_and_answers(tasks, progress)
            except KeyboardInterrupt:
                interrupts.delivered()
                return SolverBatch((), len(tasks), True)
            rows, interrupted = _in_turn(tasks, display, interrupts)
        else:
            rows, interrupted = _Scheduler(tasks, jobs, done, progress, tested).run(interrupts)
        # the table in the order the solvers were handed out: the longest first
        tasks = sorted(tasks, key=lambda t: -_planned_tests(t))
    finally:  # the shared plans and answers are let go
        _PLANS.clear()
        _KNOWN.clear()
        _WANTED.clear()
        gc.unfreeze()
    order = {(t[0], t[1]): i for i, t in enumerate(tasks)}
    kept = sorted(
        (r for r in rows if not r.interrupted or r.failure), key=lambda r: order[r.game, r.solver]
    )
    return SolverBatch(tuple(kept), len(tasks), interrupted or any(r.interrupted for r in rows))


def _in_turn(tasks: list[Task], display: Any, interrupts: Any) -> tuple[list[Row], bool]:
    rows: list[Row] = []
    try:
        for task in tasks:
            row = certify_one(
                *task, display=display(f"{task[0]}/{task[1]}") if display is not None else None
            )
            rows.append(row)
            if row.interrupted:
                interrupts.delivered()
                return rows, True
    except KeyboardInterrupt:  # between two solvers: keep the rows completed
        interrupts.delivered()
        return rows, True
    return rows, False


def _planned_tests(task: Task) -> int:
    plan = _PLANS.get(_plan_key(task))
    return (
        0 if plan is None else sum(group.tests for phase in plan.phases for group in phase.groups())
    )


def _plan_key(task: Task) -> tuple[Any, ...]:
    game, _, profile_name, seed, examples, *_ = task
    return game, profile_name, seed, examples


def _shared_keys(tasks: list[Task]) -> list[tuple[Any, ...]]:
    """The plans two or more tasks share (with one, the solver's own run computes each answer
    once anyway)."""
    counts: dict[tuple[Any, ...], int] = {}
    for task in tasks:
        counts[_plan_key(task)] = counts.get(_plan_key(task), 0) + 1
    return [key for key, n in counts.items() if n > 1]


def _build_plan(key: tuple[Any, ...], tell: Any) -> bool:
    """:data:`_PLANS` ``[key]`` listed (:func:`listed_plan`); False if the plan cannot be built
    here (a game's mistake): it is not shared, and each solver's run builds it and meets the
    mistake, as without this."""
    import gc

    from gamecert.engine import registry
    from gamecert.engine.plan.profiles import get_profile

    game, profile_name, seed, examples = key
    tell(f"the plan of {game}, built once for its solvers")
    try:
        entry = registry.get(game)
        _PLANS[key] = listed_plan(solver_plan(entry, get_profile(profile_name), seed, examples))
    except Exception:  # noqa: BLE001 - each solver's run builds the plan and meets it, as before
        return False
    # a plan's million objects are never garbage: kept out of every later collection, here and
    # in the forked processes (which would otherwise copy their pages as a collection visits them)
    gc.freeze()
    return True


def _share_plans_and_answers(tasks: list[Task], progress: Any) -> None:
    """:data:`_PLANS`, :data:`_KNOWN` and :data:`_WANTED` filled in this process for every plan
    two or more tasks share (the solvers then run one after another here)."""
    _PLANS.clear()
    _KNOWN.clear()
    _WANTED.clear()
    tell = progress or (lambda text: None)
    for key in _shared_keys(tasks):
        if _build_plan(key, tell):
            tell(f"the oracle's answers on {key[0]}, once for its solvers")
            _merge(key, [plan_answers(key[0], key)])


class _Scheduler:
    """``jobs`` forked processes at a time, each started for one piece of work when a core is
    free: the oracle's answers on a part of a shared plan, or one solver's certification. A
    process forked now inherits what this one holds now, so each shared plan is built here
    (while the processes already started run) before its answers' processes start, and a
    game's solvers are started only once every part of its answers is merged here. Answers go
    first, then the solvers, the longest first (by the tests of its plan), so that no core waits
    at the end while another runs a long one. Ctrl-C stops every process; the rows already
    finished are kept. An answers process past :data:`ANSWERS_MAX_S` is stopped and its game's
    solvers run without the answers (they meet the hang themselves and name it the game's)."""

    def __init__(
        self, tasks: list[Task], jobs: int, done: Any, progress: Any, tested: Any = None
    ) -> None:
        self.tasks, self.jobs, self.done = tasks, jobs, done
        self.tell = progress or (lambda text: None)
        self.tested = tested
        #: tests run by each running solver's process, and the tests of its plan (as it says)
        self.live: dict[Any, tuple[int, int]] = {}
        self.planned: dict[tuple[str, str], int]
        self.tests_done, self.planned = 0, {}
        self.shared = _shared_keys(tasks)
        self.ready: list[tuple[str, tuple[Any, ...]]] = [
            ("solver", t) for t in tasks if _plan_key(t) not in self.shared
        ]
        self.running: dict[Any, tuple[Any, str, tuple[Any, ...], float]] = {}
        self.parts: dict[tuple[Any, ...], list[Any]] = {}
        self.rows: list[Row] = []

    def run(self, interrupts: Any) -> tuple[list[Row], bool]:
        from multiprocessing.connection import wait

        _PLANS.clear()
        _KNOWN.clear()
        _WANTED.clear()
        to_build = list(self.shared)
        try:
            while to_build or self.ready or self.running:
                self._start()
                if to_build:  # the next plan, built while the processes started run
                    key = to_build.pop(0)
                    if _build_plan(key, self.tell):
                        self.parts[key] = [None] * self.jobs
                        self.ready[:0] = [
                            ("answers", (key[0], key, part, self.jobs)) for part in range(self.jobs)
                        ]
                    else:
                        self._solvers_of(key)
                    timeout = 0.0
                else:
                    timeout = 1.0
                for conn in wait(list(self.running), timeout):
                    self._finished(conn)
                self._overdue()
        except KeyboardInterrupt:
            interrupts.delivered()
            return self.rows, True
        finally:
            for conn, (proc, *_rest) in self.running.items():
                proc.terminate()
                proc.join()
                conn.close()
            self.running.clear()
        return self.rows, False

    def _start(self) -> None:
        import multiprocessing

        while self.ready and len(self.running) < self.jobs:
            kind, args = self.ready.pop(0)
            receive, send = multiprocessing.Pipe(duplex=False)
            proc = multiprocessing.get_context("fork").Process(
                target=_child, args=(send, kind, args), daemon=True
            )
            proc.start()
            send.close()
            self.running[receive] = (proc, kind, args, time.monotonic())

    def _finished(self, conn: Any) -> None:
        try:
            status, value = conn.recv()
        except EOFError:  # died without a word
            status, value = (
                "error",
                RuntimeError(
                    f"a process of `certify all` ({self.running[conn][1]} "
                    f"{self.running[conn][2][:2]}) ended unexpectedly"
                ),
            )
        if status == "progress":  # a running solver's tests so far, and its plan's
            self.live[conn] = value
            self._tested()
            return
        proc, kind, args, _started = self.running.pop(conn)
        self.live.pop(conn, None)
        conn.close()
        proc.join()
        if kind == "answers":
            self._answers(args, value if status == "ok" else None)
        elif status == "ok":
            self.rows.append(value)
            self.tests_done += value.tests
            if self.done is not None:
                self.done(len(self.rows), value)
            self._tested()
        else:
            raise value

    def _tested(self) -> None:
        """``tested(done, total)``: the tests of the solvers finished and those running so far;
        the total, the tests of every plan built here and of every plan a running solver built
        itself (a plan not built yet counts once it is)."""
        if self.tested is None:
            return
        finished = {(r.game, r.solver) for r in self.rows}
        running = {
            self.running[c][2][:2]: t for c, (_, t) in self.live.items() if c in self.running
        }
        total = self.tests_done
        for task in (t for t in self.tasks if (t[0], t[1]) not in finished):
            if (task[0], task[1]) not in self.planned and _plan_key(task) in _PLANS:  # counted once
                self.planned[task[0], task[1]] = _planned_tests(task)
            total += running.get((task[0], task[1]), self.planned.get((task[0], task[1]), 0))
        self.tested(self.tests_done + sum(d for d, _ in self.live.values()), total)

    def _answers(self, args: tuple[Any, ...], result: Any) -> None:
        import gc

        game, key, part, _ = args
        parts = self.parts[key]
        parts[part] = result if result is not None else False
        if any(p is None for p in parts):
            return
        if all(p is not False for p in parts):
            _merge(key, parts)
            gc.freeze()
        self._solvers_of(key)
        self.tell(
            f"the oracle's answers on {game} in: {sum(1 for k in self.parts if None not in self.parts[k])} of "
            f"{len(self.shared)} games"
        )

    def _solvers_of(self, key: tuple[Any, ...]) -> None:
        queued = self.ready + [("solver", t) for t in self.tasks if _plan_key(t) == key]
        # answers first (in their order), then the solvers, the longest first
        self.ready = sorted(
            queued,
            key=lambda r: (r[0] == "solver", -_planned_tests(r[1]) if r[0] == "solver" else 0),
        )

    def _overdue(self) -> None:
        now = time.monotonic()
        for conn, (proc, kind, args, started) in list(self.running.items()):
            if kind == "answers" and now - started > ANSWERS_MAX_S:
                del self.running[conn]
                proc.terminate()
                proc.join()
                conn.close()
                self._answers(args, None)


class _PipeDisplay:
    """A solver's executor display in a forked process: its tests so far and its plan's, sent to
    :class:`_Scheduler` at most :data:`PROGRESS_EVERY_S` apart."""

    def __init__(self, conn: Any) -> None:
        self.conn, self.done, self.total, self.last = conn, 0, 0, 0.0

    def plan(self, plan: Plan) -> None:
        self.total = sum(group.tests for phase in plan.phases for group in phase.groups())

    def advance(self, tests: int) -> None:
        self.done += tests
        now = time.monotonic()
        if now - self.last >= PROGRESS_EVERY_S:
            self.last = now
            self.conn.send(("progress", (self.done, max(self.total, self.done))))


#: how often a solver's process says how far it is
PROGRESS_EVERY_S = 0.25


def _child(conn: Any, kind: str, args: tuple[Any, ...]) -> None:
    """One piece of :class:`_Scheduler`'s work, in a forked process: its result (or the exception
    it raised) sent back."""
    _worker_signals()
    try:
        result: tuple[str, Any] = (
            "ok",
            plan_answers(*args)
            if kind == "answers"
            else certify_one(*args, display=_PipeDisplay(conn)),  # type: ignore[misc]  # (args: a Task, six values)
        )
    except BaseException as exc:  # noqa: BLE001 - handed to the command, which raises it
        result = ("error", exc)
    try:
        conn.send(result)
    except Exception as exc:  # noqa: BLE001 - an exception that cannot be sent is named
        conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
    conn.close()


def _merge(key: tuple[Any, ...], results: list[Any]) -> None:
    """The answers of ``results`` (:func:`plan_answers` of every part) kept for the game of
    ``key``: all of them or, if any part gave nothing (a game's mistake), none."""
    game = key[0]
    if any(result is None for result in results):
        return
    chunks = {
        c.key: c for phase in _PLANS[key].phases for group in phase.groups() for c in group.chunks
    }
    known_into = _KNOWN.setdefault(game, {})
    into = _WANTED.setdefault(game, {})
    for known, wanted in results:
        known_into.update(known)
        for chunk_key, (texts, games) in wanted.items():
            into[chunk_key] = (chunks[chunk_key].texts, texts, games)


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

    lines = [
        f"# Registered solvers against the oracle (seed {seed}, profile {profile})",
        "",
        f"Created {timestamp()}; beyond the oracle's reach the expected answers come from the other "
        "solvers." + (" INTERRUPTED: the solvers completed so far." if batch.interrupted else ""),
        "",
        "| game | solver | verdict | tests | time | evidence |",
        "|---|---|---|---:|---:|---|",
    ]
    for r in batch.rows:
        lines.append(
            f"| {cell(r.game)} | {cell(r.solver)} | {r.verdict} | {r.tests:,} | {r.seconds:.1f} s "
            f"| {cell(r.evidence)} |"
        )
    path = Path(report_dir) / "solvers.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, "\n".join(lines) + "\n")
    return path
