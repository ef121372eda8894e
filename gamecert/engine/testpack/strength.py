"""What makes a package strong against wrong programs it was never shown (issue 26).

Besides the tests that kill known mutants and wrong programs (:mod:`.testset`'s set cover), a
package holds, by kind, what certify's plan holds: every deciding-feature family
(:mod:`gamecert.kit.deciding`), the worst-case families, the largest inputs, the inputs that
make slow and memory-hungry programs slowest or largest, and the smallest inputs of every
exhaustive space. Where they do not all fit in ``max_tests``, each kind's queue is ordered so
that its tail is the least useful (:func:`spread_order`: both ends first, then halves, then
quarters) and the queues are taken in turn (:func:`fill`).

May import: the run and judge rooms, the kit, :mod:`.testset`.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Sequence
from typing import Any

from gamecert.engine import gamecode
from gamecert.engine.testpack import selection
from gamecert.engine.testpack import testset as ts
from gamecert.kit.deciding import feature_family

#: CPU seconds below which a right program's or solver's slowest input is noise, not a time test
MEASURABLE_S = 0.1
#: runs of a one-game deciding family in the pool (spread over its settings, both ends in)
FEATURE_SINGLES = 240


def spread_order(n: int) -> list[int]:
    """0..n-1, the last and the first first, then the middle, then the quarters, ...

    >>> spread_order(5)
    [4, 0, 2, 1, 3]
    >>> sorted(spread_order(9)) == list(range(9))
    True
    """
    if n <= 0:
        return []
    out, seen = [], set()
    for k in (n - 1, 0):
        if k not in seen:
            seen.add(k)
            out.append(k)
    step: float = n - 1
    while len(out) < n and step > 1:
        half = step / 2
        x = half
        while x < n - 1:
            k = int(round(x))
            if k not in seen:
                seen.add(k)
                out.append(k)
            x += step
        step = half
    out += [k for k in range(n) if k not in seen]
    return out


def deciding_tests(entry: Any) -> list[ts.Test]:
    """Each deciding feature's family: for a multi-game format every run of it (the family in
    full, packed ``max_batch`` games a run); for a one-game format one test per setting, at most
    :data:`FEATURE_SINGLES` spread over the settings (smallest and largest sizes in), in spread
    order (the most useful first)."""
    game = entry.game
    out: list[ts.Test] = []
    for feature in game.deciding_features():
        name = f"decides-{feature.name}"
        if game.max_batch > 1:
            runs = list(feature_family(game, feature).instances())
            for k in spread_order(len(runs)):
                out.append(
                    ts.Test(
                        runs[k],
                        game.format_input(runs[k]),
                        f"deciding family {name} run {k + 1} of {len(runs)}",
                        f"deciding:{name}",
                    )
                )
            continue
        settings = feature.settings()
        order = spread_order(len(settings))[:FEATURE_SINGLES]
        for k in order:
            size, _, value, place = settings[k]
            for v, inst in enumerate(feature.games(value, place)):
                out.append(
                    ts.Test(
                        inst,
                        game.format_input(inst),
                        f"deciding family {name}: value {value!r} at {place!r} (size {size})"
                        + (f" #{v + 1}" if v else ""),
                        f"deciding:{name}",
                    )
                )
    return out


def packed_smallest(entry: Any, pool: Sequence[ts.Test]) -> list[ts.Test]:
    """The pool's exhaustive inputs, smallest first: for a multi-game format merged ``max_batch``
    games a file (every one of them then fits in a few tests); one a test otherwise."""
    game = entry.game
    small = sorted(
        (t for t in pool if t.group == "exhaustive"), key=lambda t: (game.size(t.instance), t.bytes)
    )
    if game.max_batch <= 1:
        return small
    batch: list[Any]
    out, batch, count = [], [], 0
    for t in small + [None]:
        n = len(game.split(t.instance)) if t is not None else game.max_batch + 1
        if batch and (t is None or count + n > game.max_batch):
            inst = game.merge([b.instance for b in batch]) if len(batch) > 1 else batch[0].instance
            first, last = batch[0].origin, batch[-1].origin
            out.append(
                ts.Test(
                    inst,
                    game.format_input(inst),
                    f"smallest exhaustive inputs packed: {len(batch)} games, {first} .. {last}",
                    "exhaustive-packed",
                )
            )
            batch, count = [], 0
        if t is not None:
            batch.append(t)
            count += n
    return out


def fill(queues: Sequence[Sequence[int]], taken: list[int], room: int) -> list[int]:
    """Up to ``room`` more pool indices, one from each queue in turn (each queue most useful
    first), skipping those already ``taken``.

    >>> fill([[1, 2, 3], [7, 8]], [2], 4)
    [1, 7, 3, 8]
    """
    have = set(taken)
    out: list[int] = []
    its = [iter(q) for q in queues]
    while its and len(out) < room:
        for it in list(its):
            if len(out) >= room:
                break
            for k in it:
                if k not in have:
                    have.add(k)
                    out.append(k)
                    break
            else:
                its.remove(it)
    return out


# ---- slow and memory-hungry variants -----------------------------------------------------------


class _Slow(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Slow


def solver_seconds(entry: Any, tests: Sequence[ts.Test], bound: float) -> dict[str, list[float]]:
    """Each registered fast solver's in-process time on each test (``bound`` where it ran over)."""
    out: dict[str, list[float]] = {}
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for name in sorted(entry.solvers):
            row = []
            for t in tests:
                start = time.perf_counter()
                signal.setitimer(signal.ITIMER_REAL, bound)
                try:
                    entry.solvers[name](t.instance)
                    row.append(time.perf_counter() - start)
                except _Slow:
                    row.append(bound)
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    gamecode.timer_taken()  # the sections' alarm, replaced, is armed again
            out[name] = row
    finally:
        signal.signal(signal.SIGALRM, old)
    return out


def slow_programs(wrong: Sequence[ts.Program]) -> list[ts.Program]:
    """The wrong programs that are slow or memory-hungry by their own account (a first line
    ``# expect: TLE`` / ``MLE``, or a kind saying slow, exponential, quadratic, memory)."""
    out = []
    for p in wrong:
        try:
            with open(p.spec, errors="replace") as f:
                head = "\n".join(f.read(400).splitlines()[:3]).lower()
        except OSError:
            continue
        if any(
            w in head
            for w in ("expect: tle", "expect: mle", "slow", "exponential", "quadratic", "memory")
        ):
            out.append(p)
    return out


def pick_time_tests(
    entry: Any,
    pool: Sequence[ts.Test],
    answers: Sequence[Any],
    slow: Sequence[ts.Program],
    right: Sequence[ts.Program],
    say: Callable[[str], None],
) -> tuple[list[int], dict[int, str]]:
    """The worst kind's tests: among the pool's largest and worst-case inputs, for each slow
    variant (every slow wrong program through the runner, every right program, every registered
    fast solver in-process) the input on which it used the most CPU time, and the one on which
    it used the most memory. Returns the pool indices and why each was kept."""
    game = entry.game
    candidates = [
        k
        for k, t in enumerate(pool)
        if t.group == "largest" or t.group.startswith("family:") and t.origin.startswith("worst")
    ]
    biggest = sorted(range(len(pool)), key=lambda k: -pool[k].bytes)[:6]
    candidates = sorted(set(candidates) | set(biggest))
    if not candidates:
        return [], {}
    chosen: dict[int, str] = {}
    tests = [pool[k] for k in candidates]
    say(
        f"time tests: {len(slow)} slow programs and {len(right)} right ones on {len(candidates)} large and worst-case inputs"
    )
    for p in [*slow, *right]:
        # a slow program's first TLE is its slowest input: no more of its TLE runs are needed here
        ts.runs_matrix(
            entry,
            [p],
            tests,
            [answers[k] for k in candidates],
            tle_cap=1 if p in slow else ts.TLE_CAP,
        )
        usage = [ts.USAGE.get((p.spec, t.text)) for t in tests]
        timed = [(u[0], k) for u, k in zip(usage, candidates) if u is not None]
        if timed and (p in slow or max(timed)[0] >= MEASURABLE_S):
            cpu, k = max(timed)
            chosen.setdefault(k, f"the most CPU time of {p.name} ({cpu:.2f} s)")
        mem = [(u[1], k) for u, k in zip(usage, candidates) if u is not None]
        if mem and p in slow:
            rss, k = max(mem)
            chosen.setdefault(k, f"the most memory of {p.name} ({rss:.0f} MB)")
    limit = game.time_limit
    for name, row in solver_seconds(entry, tests, 4 * limit).items():
        best = max(range(len(row)), key=row.__getitem__)
        if row[best] >= MEASURABLE_S:
            chosen.setdefault(
                candidates[best],
                f"the most time of the registered solver {name} ({row[best]:.2f} s in-process)",
            )
    return sorted(chosen), chosen


def broken_rows(
    entry: Any,
    broken: dict[str, Any],
    tests: Sequence[ts.Test],
    answers: Sequence[Any],
    bound: float = 2.0,
    kill_cap: int = 0,
    budget: float = 20.0,
) -> dict[str, list[str]]:
    """The project's broken solvers (``tests/broken/GAME.py``), in-process, on each test,
    smallest first: their answers formatted, read back and judged as a program's. A call over
    ``bound`` seconds is ``-`` (not judged: in-process time says nothing of a judge's), and so is
    every test after ``kill_cap`` kills (0: no cap) or after ``budget`` seconds of a solver."""
    from gamecert.engine.testpack.mutants import _alarm as m_alarm
    from gamecert.engine.testpack.mutants import _verdict

    order = sorted(range(len(tests)), key=lambda k: tests[k].bytes)
    rows: dict[str, list[str]] = {}
    old = signal.signal(signal.SIGALRM, m_alarm)
    try:
        for name, b in sorted(broken.items()):
            row = ["-"] * len(tests)
            killed = 0
            start = time.perf_counter()
            for k in order:
                if (kill_cap and killed >= kill_cap) or time.perf_counter() - start > budget:
                    break
                found = _verdict(entry.game, tests[k].instance, b.solve, answers[k], bound)
                row[k] = "OK" if found is None else "-" if found[0].startswith("TLE") else found[0]
                killed += ts.is_kill(row[k])
            rows[name] = row
            if ts.ON_STEP is not None:
                ts.ON_STEP("broken solvers judged", len(rows), len(broken))
    finally:
        signal.signal(signal.SIGALRM, old)
    return rows


def choose(
    entry: Any,
    pool: Sequence[ts.Test],
    kills: dict[int, set[str]],
    time_roles: dict[int, str],
    max_tests: int,
) -> list[int]:
    """The package's pool indices, each with its ``role`` set: the must-haves (the samples, the
    largest inputs, one test per designed family, the time tests), then the set cover (what
    still kills a mutant or broken solver), then the queues taken in turn until ``max_tests``:
    the worst-case families in full, each deciding-feature family, the smallest exhaustive
    inputs, the rest of each coverage family."""
    sizes = {k: t.bytes for k, t in enumerate(pool)}

    def best(indices: list[int]) -> int:
        return max(indices, key=lambda k: (len(kills.get(k, ())), -sizes[k], -k))

    roles: dict[int, str] = {}
    for k, t in enumerate(pool):
        if t.group in ("samples", "largest"):
            roles[k] = "sample" if t.group == "samples" else "largest input"
    families: dict[str, list[int]] = {}
    deciding: dict[str, list[int]] = {}
    for k, t in enumerate(pool):
        if t.group.startswith("family:"):
            families.setdefault(t.group, []).append(k)
        elif t.group.startswith("deciding:"):
            deciding.setdefault(t.group, []).append(k)
    for ix in families.values():
        roles.setdefault(best(ix), "family representative")
    for k, why in time_roles.items():
        roles[k] = f"time/memory: {why}" if k not in roles else roles[k] + f"; time/memory: {why}"
    chosen = list(roles)
    if len(chosen) > max_tests:
        raise ts.PackageError(
            f"--max-tests {max_tests} is below the {len(chosen)} tests every package holds (the "
            "samples, the largest inputs, one test per family and the time tests)"
        )
    covered = set().union(*(kills.get(k, set()) for k in chosen))
    rest = sorted((k for k in range(len(pool)) if k not in roles), key=lambda k: (sizes[k], k))
    for k in selection.greedy_cover(rest, kills, sizes, covered, max_tests - len(chosen)):
        roles[k] = "kills a mutant or broken solver"
        chosen.append(k)
    worst = [k for ix in families.values() for k in ix if pool[k].origin.startswith("worst")]
    spreads = [
        [ix[j] for j in spread_order(len(ix))]
        for ix in families.values()
        if not pool[ix[0]].origin.startswith("worst")
    ]
    coverage = fill(spreads, [], len(pool))  # the coverage families in turn, as one queue
    if entry.game.max_batch > 1:
        smallest = [k for k, t in enumerate(pool) if t.group == "exhaustive-packed"]
    else:
        smallest = sorted(
            (k for k, t in enumerate(pool) if t.group == "exhaustive"),
            key=lambda k: (entry.game.size(pool[k].instance), sizes[k], k),
        )
    queues = [worst, *deciding.values(), smallest, coverage]
    for k in fill(queues, chosen, max_tests - len(chosen)):
        t = pool[k]
        roles[k] = (
            "worst case"
            if k in worst
            else "deciding feature"
            if t.group.startswith("deciding:")
            else "smallest exhaustive"
            if k in smallest
            else "coverage"
        )
        chosen.append(k)
    for k in chosen:
        pool[k].role = roles[k]
    return chosen
