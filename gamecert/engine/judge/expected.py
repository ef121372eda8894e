"""Expected answers: ``game.oracle`` within its reach, beyond it the registered fast solvers,
which must agree (:class:`HarnessError` if they do not), all of them on a sample of the inputs
and on every failing one, else the cheapest (see :data:`CROSS_CHECK_EVERY`)."""

from __future__ import annotations

import math
import threading
import time
from typing import Any

from gamecert.engine import gamecode
from gamecert.engine.plan.plan import HarnessError
from gamecert.errors import OutOfReach

_SOLVERS_LOCK = threading.RLock()

#: beyond the oracle's reach, one input in this many (per game), and every input that fails, is
#: answered by every registered fast solver, which must agree; the others by the cheapest one
CROSS_CHECK_EVERY = 16
#: calls of each solver timed (in full cross-checks) before the cheapest is trusted alone
_TIMED_CALLS = 4
#: per game: [inputs answered beyond the reach, {solver: [seconds, calls, slow from size]}]
_SOLVER_COSTS: dict[str, list[Any]] = {}
#: a solver that took longer than this on an input is left out of the sampled cross-checks of
#: inputs that large or larger (never of a failing input's): a quadratic solver on the largest
#: inputs would hold every runner for seconds and break the budget
SLOW_SOLVER_S = 1.0


def expected_answer(entry: Any, instance: Any, every: bool = False) -> tuple[Any, str]:
    """The right answer for ``instance`` and where it came from.

    The oracle within ``game.oracle_reach``. Beyond it the registered fast solvers: all of them,
    which must agree (else :class:`HarnessError`), for the first inputs, one input in
    :data:`CROSS_CHECK_EVERY` and whenever ``every`` is set (the judge sets it for an input a
    candidate fails, before the verdict stands); otherwise the cheapest of them as measured in
    those full checks. Call it with ``_SOLVERS_LOCK`` held when threads share the entry.
    """
    game = entry.game
    if game.size(instance) <= game.oracle_reach:
        try:
            return gamecode.call(game.name, "the oracle", game.oracle, instance), "the oracle"
        except OutOfReach:
            pass
    state = _SOLVER_COSTS.setdefault(game.name, [0, {}])
    state[0] += 1
    costs = state[1]
    known = [(*costs.get(name, (0.0, 0)), math.inf)[1:3] for name in entry.solvers]
    timed = all(
        calls >= _TIMED_CALLS or game.size(instance) >= slow_from for calls, slow_from in known
    )
    if len(entry.solvers) > 1 and not every and timed and state[0] % CROSS_CHECK_EVERY:
        name = min(sorted(entry.solvers), key=lambda n: costs[n][0] / costs[n][1])
        return gamecode.call(game.name, f"the fast solver {name}", entry.solvers[name], instance), (
            f"the fast solver {name} (every registered fast solver answers one input in "
            f"{CROSS_CHECK_EVERY} and every failing input, and they must agree)"
        )
    answers: dict[str, Any] = {}
    size = game.size(instance)
    slow = (
        []
        if every
        else [
            name
            for name in sorted(entry.solvers)
            if size >= (*costs.get(name, (0.0, 0)), math.inf)[2]
        ]
    )
    if len(slow) == len(entry.solvers):
        slow = slow[1:]  # one answers, whatever it costs
    for name in sorted(entry.solvers):
        if name in slow:
            continue
        start = time.perf_counter()
        answers[name] = gamecode.call(
            game.name, f"the fast solver {name}", entry.solvers[name], instance
        )
        spent = costs.setdefault(name, [0.0, 0, math.inf])
        took = time.perf_counter() - start
        spent[0] += took
        spent[1] += 1
        if took > SLOW_SOLVER_S and len(spent) > 2:
            spent[2] = min(spent[2], size)
    first = next(iter(answers.values()))
    # agreement as the game judges it: a game with several right answers accepts each of them
    if any(game.judge(instance, other, first) is not None for other in answers.values()):
        shown = "; ".join(
            f"{name}: {game.format_answer(a).strip()!r}" for name, a in answers.items()
        )
        text = game.format_input(instance)
        raise HarnessError(
            f"HARNESS ERROR: the registered fast solvers of {game.name} disagree on an input of size "
            f"{game.size(instance)} beyond the oracle's reach ({shown}); input starts {text[:80]!r}. "
            "Fix the fast solvers (`pytest -n auto` cross-checks them) before judging candidates here."
        )
    if slow:  # not every solver: the verdict on such an input, if it fails, asks them all again
        return first, (
            f"the fast solvers {', '.join(answers)} (agree; {', '.join(slow)} left out at this size: "
            f"over {SLOW_SOLVER_S:g} s on an input as large)"
        )
    return first, "the fast solvers " + ", ".join(answers) + " (all agree)"


def judged_kind(source: str) -> str:
    """What an expected answer rests on, from its source's words.

    >>> judged_kind("the oracle"), judged_kind("the fast solvers a, b (all agree)")
    ('oracle', 'all fast solvers')
    """
    if source == "the oracle":
        return "oracle"
    return "all fast solvers" if source.endswith("(all agree)") else "one fast solver"


def _cross_checked(source: str) -> bool:
    return source == "the oracle" or source.endswith("(all agree)")
