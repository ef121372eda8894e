"""The sanitizer phase's runs: each input under every sanitizer build in turn, in lanes at once,
until a finding or the phase's time (its core's time for the core's inputs), and the phase's line.

The inputs are :func:`gamecert.engine.judge.sanitize.inputs_that_matter`; the core (:func:`is_core`:
the faults, samples, worst and largest inputs) is what CERTIFIED needs whole, the inputs handed in
(the guided phase's corpus) are its depth, run when the core is done and never required.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from gamecert.engine.judge.sanitize_builds import BUILDS, Check, _why_not
from gamecert.errors import GamecertError

#: the inputs handed in (the guided phase's corpus): the phase's depth, run when the core is done
HANDED_IN = "handed in"
#: the phase's runs go on in this many lanes at once at most (each its own runners), as the
#: certification's runners do
LANES = 2


def is_core(where: str) -> bool:
    """Whether an input from ``where`` is of the phase's core (a fault, a sample, a worst case, a
    largest input), which CERTIFIED needs whole, rather than of its depth (an input handed in)."""
    return where != HANDED_IN


def _search(
    check: Check,
    inputs: list[tuple[str, Any, str]],
    deadline: float,
    kinds: tuple[str, ...],
    core_deadline: float | None = None,
    first: _First | None = None,
    places: list[int] | None = None,
) -> tuple[Any, dict[str, int], int, dict[str, str]]:
    """Every build made first, then each input under every build in turn, until the first finding
    or the deadline (``core_deadline`` for the core's inputs, :func:`is_core`; the same by
    default): (failure, finding, build) or None, the inputs each build ran, the core's runs the
    deadline left out (the depth's are counted in ``check.depth_left``), and the builds that could
    not be made (and why). A run is not started where its build's slowest run so far would not end
    by the deadline (the budget is kept).

    In a lane (``first`` shared by the lanes, ``places`` each input's place in the phase's order):
    an input placed after another lane's finding is not run, one placed before it still is, and
    the place of a finding (or of the judge's build's fault) is kept in ``check.found_at``.

    Input by input rather than build by build: a phase cut by its time has run its first inputs
    (the faults, then the shortest) under every build, never one build on every input and the
    others on none (an uninitialised read only the ``pattern`` build shows went unseen when the
    ``asan`` build took the whole phase)."""
    ran: dict[str, int] = dict.fromkeys(BUILDS, 0)
    why_not: dict[str, str] = {}
    made: list[str] = []
    late = 0  # runs left out because their build was not started before the deadline
    last = deadline if core_deadline is None else max(deadline, core_deadline)
    for kind in kinds:
        if time.monotonic() > last:  # a compiler is never started past the phase's time
            why_not[kind] = "not built: the phase's time was up before its compiler could start"
            late += sum(is_core(where) for where, _, _ in inputs)
            continue
        try:
            check.build(kind)
        except GamecertError as exc:
            why_not[kind] = _why_not(exc, check.candidate)
            continue
        made.append(kind)
    skipped, depth_left = late, 0
    slowest: dict[str, float] = {}  # each build's slowest run so far, in seconds of wall time
    for index, (where, instance, text) in enumerate(inputs):
        core = is_core(where)
        place = places[index] if places is not None else index
        for kind in made:
            if first is not None and place > first.place:
                return None, ran, skipped, why_not
            # a run is not started where its build's slowest run so far would not end in time
            ends = time.monotonic() + slowest.get(kind, 0.0)
            if ends > (core_deadline if core and core_deadline else deadline):
                skipped += core
                depth_left += not core
                continue
            started = time.perf_counter()
            failure, finding = check.run(kind, instance, text)
            slowest[kind] = max(slowest.get(kind, 0.0), time.perf_counter() - started)
            ran[kind] += 1
            if getattr(check, "plain_fault", None) is not None:  # the judge's build: a fault
                check.found_at = place
                if first is not None:
                    first.found(place)
                return None, ran, skipped, why_not
            if finding is not None:
                assert failure is not None  # a finding comes with the failure it makes
                check.found_at = place
                if first is not None:
                    first.found(place)
                failure.notes.append(
                    f"found by the sanitizer phase on an input from {where} (size {failure.size})"
                )
                return (failure, finding, kind), ran, skipped, why_not
    if depth_left:
        check.depth_left = getattr(check, "depth_left", 0) + depth_left
    return None, ran, skipped, why_not


class _First:
    """The earliest place in the phase's order at which a lane found something (the lanes share
    it): inputs placed after it are not run, so the finding reported is the first in the phase's
    order whatever the lanes' timing (the executor's rule for the plan's faults)."""

    def __init__(self) -> None:
        self.place = float("inf")
        self._lock = threading.Lock()

    def found(self, place: int) -> None:
        with self._lock:
            self.place = min(self.place, place)


def _lanes(
    checks: list[Check],
    inputs: list[tuple[str, Any, str]],
    deadline: float,
    kinds: tuple[str, ...],
    core_deadline: float,
) -> tuple[Any, dict[str, int], int, dict[str, str], Check]:
    """:func:`_search` in one lane per check at once, the inputs dealt to them in turn (the first
    to each lane first). A finding (or the judge's build's fault) stops the runs of the inputs
    placed after it; those placed before it go on, and of what was found the first in the
    phase's order is reported, with the check whose lane found it (the first, if none did), and
    the merged figures."""
    if len(checks) == 1 or len(inputs) < 2:
        found, ran, skipped, why_not = _search(checks[0], inputs, deadline, kinds, core_deadline)
        return found, ran, skipped, why_not, checks[0]
    first = _First()
    results: list[Any] = [None] * len(checks)
    lanes = len(checks)

    def lane(k: int) -> None:
        places = list(range(k, len(inputs), lanes))
        try:
            results[k] = _search(
                checks[k], inputs[k::lanes], deadline, kinds, core_deadline, first, places
            )
        except BaseException as exc:  # noqa: BLE001 - raised again in the phase's thread
            results[k] = exc
            first.found(-1)  # every lane stops

    threads = [
        threading.Thread(target=lane, args=(k,), daemon=True, name=f"gamecert-sanitizer-{k}")
        for k in range(lanes)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        if isinstance(r, BaseException):
            raise r
    ran = dict.fromkeys(BUILDS, 0)
    skipped, why_not = 0, {}
    for r, sk, wn in ((r, sk, wn) for _, r, sk, wn in results):
        for kind, n in r.items():
            ran[kind] += n
        skipped += sk
        why_not.update(wn)
    finders = [
        (getattr(check, "found_at", 0), k)
        for k, (check, got) in enumerate(zip(checks, results))
        if got[0] is not None or check.plain_fault is not None
    ]
    if not finders:
        return None, ran, skipped, why_not, checks[0]
    _, k = min(finders)
    return results[k][0], ran, skipped, why_not, checks[k]


def _summary(
    inputs: list[tuple[str, Any, str]],
    ran: dict[str, int],
    skipped: int,
    why_not: dict[str, str],
    checks: list[Check],
    kinds: tuple[str, ...],
) -> str:
    counts: dict[str, int] = {}
    for where, _, _ in inputs:
        key = "worst" if where.startswith("worst-") else where.split(" (")[0]
        counts[key] = counts.get(key, 0) + 1
    made = [k for k in kinds if k not in why_not]
    parts = [
        f"{len(inputs)} input{'s' if len(inputs) != 1 else ''} ({', '.join(f'{n} {k}' for k, n in counts.items())})"
    ]
    if any(ran[k] for k in made):
        parts.append(
            "run under "
            + ", ".join(f"{BUILDS[k]} ({ran[k]})" for k in made)
            + ": no undefined behaviour seen"
        )
    elif made:
        parts.append("built, but no input ran under the sanitizer builds within the phase's time")
    capped = sum(sum(c.capped.values()) for c in checks)
    if capped:
        parts.append(f"{capped} runs past their generous caps (not judged)")
    asan_wrong = sum(c.asan_wrong for c in checks)
    if asan_wrong:
        parts.append(
            f"{asan_wrong} runs of the {BUILDS['asan']} build failed (a wrong answer or an exit) "
            "without a sanitizer's report (not counted)"
        )
    plain_wrong = sum(c.plain_wrong for c in checks)
    if plain_wrong:
        parts.append(
            f"{plain_wrong} inputs the judge's build answers wrong too (a fault the plan did not reach)"
        )
    if skipped:
        parts.append(f"{skipped} runs of its core left out at the phase's time cap")
    depth_left = sum(c.depth_left for c in checks)
    if depth_left:
        parts.append(
            f"{depth_left} runs of the inputs handed in (its depth, not required) left out at the "
            "phase's time"
        )
    parts += [f"{BUILDS[k]} not run: {why}" for k, why in why_not.items()]
    return "; ".join(parts)
