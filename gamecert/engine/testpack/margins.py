"""Kills that hold on any machine: how a wrong program's time reads against the problem's limit.

A wrong program runs under :data:`STRETCH` times the limit. A TLE kill counts only where its CPU
time is at least :data:`TLE_MARGIN` times the limit, or it never ends within :data:`STRETCH`
times it; a right output between the limit and twice it is ``slow`` (not a kill: a judge 3%
faster would accept it), and the package looks for another input that kills the program.

May import: the run room (a runner under the stretched limit).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any


def is_kill(verdict: str) -> bool:
    """Whether a cell of the matrix kills its program: not OK, not ``-`` (not run), not ``slow``
    (over the time limit by less than twice: a kill that would not hold on a faster judge).

    >>> [is_kill(v) for v in ("OK", "-", "WA", "TLE 2.4x", "slow 1.6x")]
    [False, False, True, True, False]
    """
    return verdict not in ("OK", "-") and not verdict.startswith("slow")


def is_timed_out(verdict: str) -> bool:
    return verdict.startswith(("TLE", "slow"))


#: a wrong program runs under this many times the problem's time limit, so that a TLE kill is
#: measured: one counts only where the program's CPU time is at least :data:`TLE_MARGIN` times
#: the limit, or it never ends within :data:`STRETCH` times the limit
STRETCH, TLE_MARGIN = 3.0, 2.0


def timed(verdict: str, why: str, cpu: float, limit: float | None) -> tuple[str, str]:
    """A wrong program's verdict with its time against the problem's ``limit`` (None: a run under
    the limit itself, nothing to add): a run killed at :data:`STRETCH` times the limit is
    ``TLE >3x``; one right but at least twice the limit is ``TLE 2.4x``; one right and over the
    limit by less than twice is ``slow 1.6x`` (no kill: a faster judge would accept it); a wrong
    output stays WA or PE whatever its time (any judge rejects it: by its time or its output).

    >>> timed("OK", "", 5.0, 2.0), timed("OK", "", 3.0, 2.0), timed("OK", "", 1.0, 2.0), timed("WA", "x", 3.0, 2.0)
    (('TLE 2.5x', 'CPU time 5.00 s, 2.5 times the 2 s limit'), ('slow 1.5x', 'CPU time 3.00 s, 1.5 times the 2 s limit: no 2x margin, not a kill'), ('OK', ''), ('WA', 'x'))
    """
    if limit is None:
        return verdict, why
    if verdict == "TLE":
        return (
            f"TLE >{STRETCH:g}x",
            f"not done within {STRETCH:g} times the {limit:g} s limit ({why})",
        )
    if verdict != "OK" or cpu <= limit:
        return verdict, why
    ratio = cpu / limit
    if ratio >= TLE_MARGIN:
        return f"TLE {ratio:.1f}x", f"CPU time {cpu:.2f} s, {ratio:.1f} times the {limit:g} s limit"
    return (
        f"slow {ratio:.1f}x",
        f"CPU time {cpu:.2f} s, {ratio:.1f} times the {limit:g} s limit: no 2x margin, not a kill",
    )


def open_stretched(candidate: Any, limits: Any) -> Any:
    """A runner for a wrong program: :data:`STRETCH` times the limit, its verdicts read against
    the problem's limit (``testpack_limit``, see :func:`timed`)."""
    from gamecert.engine.run.sandbox import open_runner

    # (Any: the runner is given an attribute and its run() is replaced, below)
    runner: Any = open_runner(candidate, replace(limits, time_s=STRETCH * limits.time_s))
    runner.testpack_limit = limits.time_s
    confirming = runner.run

    def run(text: str) -> Any:
        # a run stopped at 3x the limit needs no confirming re-run (the runner re-runs a TLE within
        # 20% of its limit, which at 3x would double the cost of every TLE for nothing); a wall-clock
        # stop with CPU time under the limit is still re-run by the runner itself
        first, killed = runner._run_once(text, plain=False)  # noqa: SLF001
        if first.status == "tle" and killed == "wall" and first.cpu_s < runner.limits.time_s:
            return confirming(text)
        return first

    runner.run = run
    return runner
