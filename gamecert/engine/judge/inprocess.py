"""A chunk of a registered solver's tests, judged in one tight loop (in-process subjects only).

A registered solver runs in the harness's own interpreter, so a test costs what the solver
costs, plus what the judge wraps around it: per test, two CPU clock reads (system calls), a
result object, three lock round trips and a section of game code. On a million exhaustive
inputs that wrapping was most of a certification's time. Here a chunk goes in three steps:

1. the expected answers of every input of the chunk (:meth:`Judge.expected`, as one at a time:
   the oracle's or the fast solvers', each call in its own section of game code), and their
   texts (``format_answer``, in one section for the chunk);
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
from gamecert.engine.plan.plan import Chunk


def run_chunk_in_process(judge: Any, chunk: Chunk, answer_text: Callable[[str], str | None],
                         stop: Callable[[], bool], what: Callable[[Any, Chunk, Any], str],
                         kind_of: Callable[[str], str]) -> tuple[int, int, Any]:
    """Run ``chunk`` on the in-process solver whose ``answer_text`` is given, until ``stop()``.
    ``what(game, chunk, instance)`` names a test, ``kind_of(source)`` what an expected answer
    rests on (the judge's own functions).

    Returns (runs, tests, the first failure or None); a failure is the one :meth:`Judge.run_one`
    returned, not yet settled, and the counts include its input (as :meth:`Judge.run_chunk`
    counts them)."""
    game = judge.game
    batched = game.max_batch > 1
    singles = [game.split(inst) if batched else (inst,) for inst in chunk.instances]
    expected = [[judge.expected(s) for s in ss] if len(ss) > 1 else [judge.expected(inst, text)]
                for inst, text, ss in zip(chunk.instances, chunk.texts, singles)]
    with gamecode.section(game.name, "format_answer on the expected answers"):
        wanted = ["".join(game.format_answer(e) for e, _ in exp) for exp in expected]
    stats = judge.stats
    slowest = stats.slowest_cpu_s
    clock = time.perf_counter
    runs = tests = 0  # of the chunk
    fast_runs = fast_tests = 0  # of those, accepted here (run_one counts its own in the stats)
    kinds: dict[str, int] = {}
    kinds_seen: dict[str, str] = {}  # kind_of each source seen (a handful of texts)
    try:
        for inst, text, ss, exp, want in zip(chunk.instances, chunk.texts, singles, expected, wanted):
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
                    return runs + 1, tests + len(ss), found
            else:
                if took > slowest:
                    slowest = _timed_again(judge, text, lambda: what(game, chunk, inst))
                fast_runs += 1
                fast_tests += len(ss)
                for _, source in exp:
                    kind = kinds_seen.get(source) or kinds_seen.setdefault(source, kind_of(source))
                    kinds[kind] = kinds.get(kind, 0) + 1
            runs += 1
            tests += len(ss)
    finally:
        _count(judge, chunk.phase, fast_runs, fast_tests, kinds)
    return runs, tests, None


def _timed_again(judge: Any, text: str, named: Callable[[], str]) -> float:
    """Run the input again through the runner, which times the solver's CPU: the slowest test
    if it is; the slowest CPU time so far."""
    result = judge.runner.run(text)
    stats = judge.stats
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
