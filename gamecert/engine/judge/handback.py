"""An input a side search found failing, handed back to the executor's workers.

The guided phase (an input its instrumented build failed) and the sanitizer phase (an input the
judge's build failed when run as a judge runs it) find inputs outside the plan's chunks; each is
handed back as a chunk of its own (:func:`hand_back`), judged, confirmed and shrunk by a worker as
any fault, so that its report is made as every report is.
"""

from __future__ import annotations

from typing import Any


def hand_back(executor: Any, phase: str, key: str, what: str, instance: Any, text: str) -> Any:
    """Run ``instance`` (its ``text``) as a chunk ``key`` of ``phase`` on ``executor``'s workers
    (a :class:`gamecert.engine.execute.Executor`, by duck typing; ``what`` describes its group):
    the fault it makes (the newest of ``executor.outcome.failures``), or None if it passed. A
    fault the run already holds is searched below as a later search's chunk is."""
    from gamecert.engine.plan.plan import Chunk, Group

    outcome, game = executor.outcome, executor.entry.game
    games = len(game.split(instance)) if game.max_batch > 1 else 1
    chunk = Chunk(phase, key, key, (instance,), (text,), games)
    executor._register(Group(phase, key, what, (chunk,), runs=1))
    before = len(outcome.failures)
    if outcome.failures:  # the search below a fault: its chunk runs as a later search's
        executor.segment += 1
        executor.stop.clear()
        executor.stop_after = None
    executor._submit(chunk, None)
    executor._drain()
    if len(outcome.failures) <= before:
        return None
    return outcome.failures[-1]
