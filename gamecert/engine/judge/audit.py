"""Plain audits: passes of runs that did not start as a judge starts the program, re-run plainly.

A test through the native fork server is a clone of a program stopped before ``main``, with the
fork server's library preloaded; a Python test is a child of the zygote that compiled the
program once. A program can tell (``/proc/self/maps``, the frame below its own) and answer right
there and wrong when a judge execs it. Every pass of such a run is re-run plainly with a
probability fixed per start (:data:`AUDIT_RATE`), drawn from the system's random source, and its
output compared; the certificate then states the least share of inputs on which a program
behaving differently outside the fork server would have been caught with probability 99%
(:func:`audit_statement`). Faults are all re-run plainly anyway (:meth:`Judge.confirm`).
"""

from __future__ import annotations

import math
import os
import time
from typing import Any

from gamecert.engine.plan.plan import Chunk

#: a pass in a run that did not start as a judge starts the program (a clone from the native fork
#: server, a child of the Python zygote) is re-run plainly (an exec of the program, ``python
#: FILE``) with this probability, drawn for each such pass independently of the seed and of
#: everything the program can see: an audit. A plain run costs about 7 to 10 native clones, or
#: 10 to 20 zygote forks (measured on a loaded 2-core machine), so the audits take about 5 to 8%
#: of the tests' time
AUDIT_RATE = {"native": 1 / 128, "zygote": 1 / 256}
#: a rate for every start instead (a number in 0..1; 0: no audit at all, and no bound)
RATE_VARIABLE = "GAMECERT_AUDIT_RATE"
#: the certificate's bound: with n audits drawn uniformly, a program answering differently on a
#: share x of the tests is caught with probability 1-(1-x)^n; the x at which that is this
AUDIT_CONFIDENCE = 0.99


def audit_rate(kind: str) -> float:
    """The probability a pass of a run started as ``kind`` is audited: :data:`AUDIT_RATE`, or
    ``$GAMECERT_AUDIT_RATE`` (clamped to 0..1; a value that is not a number is ignored).

    >>> audit_rate("native") == AUDIT_RATE["native"], audit_rate("exec")
    (True, 0.0)
    """
    if kind not in AUDIT_RATE:
        return 0.0
    try:
        return min(1.0, max(0.0, float(os.environ[RATE_VARIABLE])))
    except (KeyError, ValueError):
        return AUDIT_RATE[kind]


def drawn(judge: Any) -> str:
    """Whether the pass ``judge`` just ran is to be re-run plainly: a pass of a run that did not
    start as a judge starts the program (a native fork server's clone, a zygote's child), drawn
    with probability :func:`audit_rate` ("drawn"), or else each runner's first such pass
    ("first", unless the rate is 0); "" if not. Counted in the pool either way."""
    kind = getattr(judge.last_result, "started", "")
    if kind in ("exec", "plain"):
        with judge.stats.lock:
            judge.stats.plain_passes += 1
    if kind not in AUDIT_RATE or getattr(judge.runner, "run_plain", None) is None:
        return ""
    rate = audit_rate(kind)
    chosen = judge._draw.random() < rate
    with judge.stats.lock:
        judge.stats.audit_pool += 1
        judge.stats.audit_kind = judge.stats.audit_kind or kind
    if not chosen and (judge._audits or not rate):
        return ""
    judge._audits += 1
    return "drawn" if chosen else "first"


def audit_pass(
    judge: Any, instance: Any, chunk: Chunk, text: str, seen: Any, how: str = "drawn"
) -> Any:
    """The plain run of a pass chosen by :func:`drawn` (``how``) for ``judge`` (a
    :class:`.judge.Judge`): its failure or None. Its output is compared with ``seen``, the fork
    server's run: a program that behaves differently when it sees the fork server around it (its
    preloaded library, the frame below its own) must not pass on the fork server's word. A plain
    run that fails is a fault; one that passes with another output is counted
    (``audit_differed``). Only the runs drawn at random count in the bound's n."""
    with judge.stats.lock:
        judge.stats.audits += 1
        judge.stats.audits_drawn += how == "drawn"
    started = time.perf_counter()
    found = judge.run_one(instance, chunk.phase, text=text, count=False, fresh=True, quiet=False)
    with judge.stats.lock:
        judge.stats.audit_s += time.perf_counter() - started
    if found is not None:
        where = (
            "in the zygote runner"
            if getattr(seen, "started", "") == "zygote"
            else "as a clone from the native fork server"
        )
        # the program behaves otherwise there: a smaller input must fail plainly, and says so
        judge.plain_only = (
            f"found by an audit: an input passed {where} and failed when run as a judge runs "
            "the program; every later run of this runner (the confirmation, the shrinking) "
            "ran that way too"
        )
        found.notes.append(judge.plain_only)
    elif judge.last_result is not None and judge.last_result.stdout != seen.stdout:
        with judge.stats.lock:
            judge.stats.audit_differed += 1
    return found


def caught_share(n: int, confidence: float = AUDIT_CONFIDENCE) -> float:
    """The least share x of the tests on which a program must answer differently to be caught
    by ``n`` uniform draws with probability ``confidence``: 1-(1-x)^n >= confidence.

    >>> round(caught_share(1), 4), round(caught_share(100), 4), round(caught_share(459), 4)
    (0.99, 0.045, 0.01)
    """
    return float(1.0 - (1.0 - confidence) ** (1.0 / n))  # (float ** float is Any to mypy)


def audit_statement(stats: Any) -> str:
    """The certificate's line on the plain audits ("" when no run was audited): how many ran of
    how many passes, and the share of tests a program answering differently outside the fork
    server must have had to be caught with probability :data:`AUDIT_CONFIDENCE`."""
    kind, n, pool = stats.audit_kind, stats.audits_drawn, stats.audit_pool
    execs = getattr(stats, "plain_passes", 0)
    if (kind not in AUDIT_RATE or not pool) and execs:
        return (
            f"plain audits: none needed: each of the {execs:,} passing tests ran as a judge runs the "
            "program (a fresh exec, or `python FILE`)"
        )
    if kind not in AUDIT_RATE or not pool:
        return ""
    where, plain = (
        ("the native fork server", "an exec of the program")
        if kind == "native"
        else ("the Python zygote", "`python FILE`")
    )
    differed = (
        f"; {stats.audit_differed} answered differently, and were accepted"
        if stats.audit_differed
        else ", same answers"
    )
    rate = audit_rate(kind)
    if not rate:
        return (
            f"plain audits: none ({RATE_VARIABLE}=0): the {pool:,} passing tests run through {where} were "
            "never re-run as a judge runs the program, and nothing bounds how the program behaves outside it"
        )
    share = f"1/{round(1 / rate)}" if abs(1 / rate - round(1 / rate)) < 1e-9 else f"{rate:g}"
    head = (
        f"plain audits: {n} of the {pool:,} passing tests run through {where} drawn at random "
        f"(each with probability {share}) and re-run as {plain}{differed}"
    )
    if stats.audits > n:
        head += f" (and {stats.audits - n} first passes of a runner, audited always)"
    if execs:
        head += f" ({execs:,} more passing tests ran plainly, as a judge runs the program)"
    head += f"; they took {stats.audit_s:.1f} s of the runners' time"
    if not n:
        return head + "; too few tests for a bound"
    x = caught_share(n)
    shown = math.ceil(x * 1e5) / 1e3  # the percentage, rounded up at its third decimal
    return (
        f"{head}: a program that behaves differently outside the fork server on at least {shown:g}% "
        f"of the inputs would have been caught with probability {AUDIT_CONFIDENCE:.0%} "
        f"(1-(1-x)^{n} >= {AUDIT_CONFIDENCE:g} for x >= {shown:g}%)"
    )


__all__ = [
    "AUDIT_CONFIDENCE",
    "AUDIT_RATE",
    "RATE_VARIABLE",
    "audit_pass",
    "audit_rate",
    "drawn",
    "audit_statement",
    "caught_share",
]
