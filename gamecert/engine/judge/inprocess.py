"""A chunk of a registered solver's tests, judged in one tight loop (in-process subjects only).

A registered solver runs in the harness's own interpreter, so a test costs what the solver
costs, plus what the judge wraps around it: per test, two CPU clock reads (system calls), a
result object, three lock round trips and a section of game code. On a million exhaustive
inputs that wrapping was most of a certification's time. Here a chunk goes in three steps:

1. the expected answers of every input of the chunk (:meth:`Judge.expected`, as one at a time:
   the oracle's or the fast solvers', each call in its own section of game code), and their
   texts (``format_answer``, in one section for the chunk); where the oracle's answers and
   texts were computed beforehand for this chunk (``Judge.wanted``: once for all of a game's
   solvers), those;
2. each input's text, parsed and solved and the answer written (``SolverRunner.answer_text``),
   compared byte for byte with the expected text: equal is accepted, as :meth:`Judge._judge_once`
   accepts the reference's own text;
3. the counts added to the shared stats once.

Anything else, an answer that differs, a solver that raises, an answer that cannot be written,
goes through :meth:`Judge.run_one` again, which runs and judges that input as every other
subject's is (and so names the fault the same way); it returns what that path returns.

The slowest test is measured as before, by the solver's own CPU time: a test's wall time here
(a cheap clock) bounds its CPU time from above, so only a test whose wall time exceeds the
slowest CPU time seen so far can be slower, and only that one is run again with its CPU timed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from gamecert.engine import gamecode, interrupts
from gamecert.engine.judge.stats import Stats
from gamecert.engine.plan.plan import Chunk


def run_chunk_in_process(
    judge: Any,
    chunk: Chunk,
    answer_text: Callable[[str], str | None],
    stop: Callable[[], bool],
    what: Callable[[Any, Chunk, Any], str],
    kind_of: Callable[[str], str],
) -> tuple[int, int, Any]:
    """Run ``chunk`` on the in-process solver whose ``answer_text`` is given, until ``stop()``.
    ``what(game, chunk, instance)`` names a test, ``kind_of(source)`` what an expected answer
    rests on (the judge's own functions).

    Returns (runs, tests, the first failure or None); a failure is the one :meth:`Judge.run_one`
    returned, not yet settled, and the counts include its input (as :meth:`Judge.run_chunk`
    counts them)."""
    game = judge.game
    batched = game.max_batch > 1
    n = len(chunk.texts)
    given = judge.wanted.get(chunk.key)
    if given is not None and given[0] is chunk.texts:  # computed for this very chunk
        wanted, games = list(given[1]), given[2]
    else:
        wanted, games = [None] * n, [0] * n
    # what a run's expected answers rest on: None for the oracle's computed beforehand
    sources: list[list[str] | None] = [None] * n
    missing = [k for k in range(n) if wanted[k] is None]
    if missing:
        games = list(games)
        expected = {}
        for k in missing:
            inst, text = chunk.instances[k], chunk.texts[k]
            ss = game.split(inst) if batched else (inst,)
            expected[k] = (
                [judge.expected(s) for s in ss] if len(ss) > 1 else [judge.expected(inst, text)]
            )
            sources[k] = [source for _, source in expected[k]]
            games[k] = len(ss)
        with gamecode.section(game.name, "format_answer on the expected answers"):
            for k, exp in expected.items():
                wanted[k] = "".join(game.format_answer(e) for e, _ in exp)
    stats = judge.stats
    slowest = stats.slowest_cpu_s
    clock = time.perf_counter
    runs = tests = 0  # of the chunk
    fast_runs = fast_tests = 0  # of those, accepted here (run_one counts its own in the stats)
    kinds: dict[str, int] = {}
    kinds_seen: dict[str, str] = {}  # kind_of each source seen (a handful of texts)
    oracle = kind_of("the oracle")
    try:
        for inst, text, count, run_sources, want in zip(
            chunk.instances, chunk.texts, games, sources, wanted
        ):
            if stop():
                break
            interrupts.checkpoint()
            started = clock()
            got = answer_text(text)
            took = clock() - started
            if got != want:
                # judged as any subject's run is (a fault, or an answer the game accepts)
                found = judge.run_one(inst, chunk.phase, text=text, what=what(game, chunk, inst))
                if found is not None:
                    return runs + 1, tests + count, found
            else:
                if took > slowest:
                    slowest = _timed_again(judge, text, lambda inst=inst: what(game, chunk, inst))  # type: ignore[misc]  # mypy cannot type a lambda whose default binds a loop variable
                fast_runs += 1
                fast_tests += count
                if run_sources is None:
                    kinds[oracle] = kinds.get(oracle, 0) + count
                else:
                    for source in run_sources:
                        kind = kinds_seen.get(source) or kinds_seen.setdefault(
                            source, kind_of(source)
                        )
                        kinds[kind] = kinds.get(kind, 0) + 1
            runs += 1
            tests += count
    finally:
        _count(judge, chunk.phase, fast_runs, fast_tests, kinds)
    return runs, tests, None


def _timed_again(judge: Any, text: str, named: Callable[[], str]) -> float:
    """Run the input again through the runner, which times the solver's CPU: the slowest test
    if it is; the slowest CPU time so far."""
    result = judge.runner.run(text)
    stats: Stats = judge.stats
    with stats.lock:
        if result.status == "ok" and (result.cpu_s or 0.0) > stats.slowest_cpu_s:
            stats.slowest_cpu_s = result.cpu_s or 0.0
            stats.slowest_wall_s = result.wall_s or 0.0
            stats.slowest_what = named()
        return stats.slowest_cpu_s


def _count(judge: Any, phase: str, runs: int, tests: int, kinds: dict[str, int]) -> None:
    """What the loop ran, added to the shared stats at once (the runs a failure path made
    through :meth:`Judge.run_one` counted themselves)."""
    if not runs:
        return
    stats = judge.stats
    with stats.lock:
        stats.runs += runs
        stats.tests += tests
        stats.by_phase[phase] = stats.by_phase.get(phase, 0) + tests
        for kind, n in kinds.items():
            stats.judged_by[kind] = stats.judged_by.get(kind, 0) + n
    judge.on_test(tests)
