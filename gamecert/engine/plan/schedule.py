"""The order in which a phase of designed families hands out its chunks: by runner time.

Families differ in cost by orders of magnitude (string_cut: a ladder of every length in its
cheapest content, a few milliseconds a run, beside families of 5,000-letter strings with long
runs of cuttable positions, tens of milliseconds a run for a Python program). Taking one chunk
of each family in turn gives each the same number of runs, so an expensive family holds a cheap
one back and neither ends within the budget. Instead (:func:`by_time`):

0. **first chunks, then first passes**: the first chunk of every family, in plan order (each
   family's smallest inputs, and its cost measured); then a family marked ``first`` (a size ladder: every input size in a cheap
   content, :func:`gamecert.kit.deciding.size_ladder`) runs before the others, whatever is
   measured: it is cheap enough to end within the phase's share, and a busy machine, where
   nothing is measured to fit, would otherwise give it only its share of what is left (not in
   the quick profile, whose seconds would go to it alone: ``Profile.first_pass``);
1. **families that fit**: the families whose remaining runs, at the time a run of theirs took
   in their last finished chunk, fit together within :data:`FIT_SHARE` of the runner time left
   before the phase's deadline (the cheapest first, counted cumulatively) run to their end, the
   cheapest first; a family once started this way keeps its place while it can still end in
   the time left;
2. **first chunks**: else the first chunk of the next family not yet started, in plan order
   (every family is touched, and its cost measured);
3. **the rest share the time**: else the next chunk comes from the family that has used the
   least runner time, so every unfinished family gets an equal share of what is left.

Without a deadline (a plan fixed by counts) every chunk runs: one chunk of each family in turn.
A phase may so leave an expensive family untouched until the cheap ones have ended; what ran of
each family is its evidence, as before, and the verdict line says what budget would end the
phase (:func:`budgets_wanted`).

The order depends on measured times, not on the seed: the inputs of each family are the same
under every seed, in the same order (the plan); which of them the budget reaches depends on the
machine, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

#: the families run to their end may take at most this share of the runner time left; the rest is
#: kept for the families that cannot end, so that they advance too
FIT_SHARE = 0.9


@dataclass
class Spent:
    """What a group's finished chunks took: runs, runner seconds, and seconds a run in the last."""

    runs: int = 0
    seconds: float = 0.0
    last_per_run: float | None = None

    def add(self, runs: int, seconds: float) -> None:
        self.runs += runs
        self.seconds += seconds
        if runs:
            self.last_per_run = seconds / runs


@dataclass
class _Lane:
    order: int
    key: str
    chunks: Iterator[Any]
    runs: int  # the runs the group holds
    handed_runs: int = 0
    handed_chunks: int = 0
    pending: Any = None
    on_list: Callable[[], None] = field(default=lambda: None)
    on_chunk: Callable[[], None] = field(default=lambda: None)
    first: bool = False

    def peek(self) -> Any:
        if self.pending is None:
            self.pending = next(self.chunks, None)
            if self.pending is None:
                self.on_list()
        return self.pending


def remaining_seconds(lane_runs: int, handed: int, spent: Spent | None) -> float | None:
    """The runner seconds a group still needs at the time its last finished chunk took a run
    (None: no chunk of it has finished yet).

    >>> remaining_seconds(100, 40, Spent(40, 2.0, 0.05))
    3.0
    >>> remaining_seconds(100, 40, None) is None
    True
    """
    if spent is None or spent.last_per_run is None:
        return None
    return max(0, lane_runs - handed) * spent.last_per_run


def by_time(
    groups: list[tuple[str, Iterator[Any], int, Callable[[], None], Callable[[], None], bool]],
    spent: Mapping[str, Spent],
    capacity: Callable[[], float | None],
) -> Iterator[Any]:
    """The chunks of ``groups`` ((key, chunk iterator, runs, called when listed whole, called per
    chunk handed out, whether it is a first pass) in plan order) in the order described above; ``spent`` (read as the run
    goes on) holds what each group's finished chunks took, ``capacity()`` the runner seconds
    left before the phase's deadline (None: no deadline, the order is then plan order, a chunk of
    each in turn)."""
    lanes = [
        _Lane(i, key, chunks, runs, on_list=listed, on_chunk=counted, first=first)
        for i, (key, chunks, runs, listed, counted, first) in enumerate(groups)
    ]
    committed: set[str] = set()

    def hand(lane: _Lane) -> Any:
        chunk = lane.pending
        lane.pending = None
        lane.handed_runs += len(chunk.instances)
        lane.handed_chunks += 1
        lane.on_chunk()
        return chunk

    while True:
        active = [lane for lane in lanes if lane.peek() is not None]
        if not active:
            return
        left = capacity()
        if left is None:  # no deadline: every chunk runs; plan order, one of each in turn
            for lane in active:
                if lane.peek() is not None:
                    yield hand(lane)
            continue
        untouched = [lane for lane in active if not lane.handed_chunks]
        if untouched:  # the first chunk of every family (its smallest inputs; its cost measured)
            yield hand(untouched[0])
            continue
        first = next((lane for lane in active if lane.first), None)
        if first is not None:  # then a first pass, to its end
            yield hand(first)
            continue
        need = {
            lane.key: remaining_seconds(lane.runs, lane.handed_runs, spent.get(lane.key))
            for lane in active
        }
        fitting = _fitting(active, need, max(0.0, left), committed)
        untouched = [lane for lane in active if not lane.handed_chunks]
        if fitting:
            lane = min(fitting, key=lambda ln: (need[ln.key], ln.order))
            committed.add(lane.key)
        elif untouched:
            lane = untouched[0]
        else:
            lane = min(
                active, key=lambda ln: (_used(spent.get(ln.key)), ln.handed_chunks, ln.order)
            )
        yield hand(lane)


def _used(spent: Spent | None) -> float:
    return 0.0 if spent is None else spent.seconds


def _fitting(
    active: list[_Lane], need: Mapping[str, float | None], left: float, committed: set[str]
) -> list[_Lane]:
    """The groups run to their end: those already committed that can still end in the time
    ``left``, then the cheapest others while the total fits in :data:`FIT_SHARE` of it. A group
    with no finished chunk yet is not known to fit."""
    known = sorted(
        (lane for lane in active if need[lane.key] is not None),
        key=lambda ln: (need[ln.key], ln.order),
    )
    needs = cast(Mapping[str, float], need)  # every lane of `known` has its need
    chosen, total = [], 0.0
    for lane in known:
        if lane.key in committed and total + needs[lane.key] <= left:
            chosen.append(lane)
            total += needs[lane.key]
    for lane in known:
        if lane.key not in committed and total + needs[lane.key] <= FIT_SHARE * left:
            chosen.append(lane)
            total += needs[lane.key]
    committed.intersection_update(lane.key for lane in chosen)
    return chosen


def budget_to_finish(
    groups: list[Any], spent: Mapping[str, Spent], jobs: int, share: float
) -> float | None:
    """The budget (seconds) under which a designed phase whose ``groups`` (the executor's group
    outcomes: ``key``, ``runs``, ``runs_done``, ``completed``) the budget cut would end, at the
    time its runs took in this run: the runner time it took plus what its unfinished groups still
    need (a group never measured at the dearest rate measured), over ``jobs`` runners and the
    phase's ``share`` of the budget. None when nothing was measured.

    >>> class G: key, runs, runs_done, completed = "a", 100, 40, False
    >>> budget_to_finish([G()], {"a": Spent(40, 4.0, 0.1)}, jobs=2, share=0.4)
    12.5
    """
    rates = [s.last_per_run for s in spent.values() if s.last_per_run is not None]
    if not rates:
        return None
    need = 0.0
    for g in groups:
        s = spent.get(g.key)
        need += s.seconds if s is not None else 0.0
        if not g.completed:
            rate = s.last_per_run if s is not None and s.last_per_run is not None else max(rates)
            need += max(0, g.runs - g.runs_done) * rate
    return need / max(1, jobs) / share


def budgets_wanted(outcome: Any, spent: Mapping[str, Spent], jobs: int) -> dict[str, float]:
    """For each designed phase of ``outcome`` the budget cut (coverage, worst), the budget that
    would let it end (:func:`budget_to_finish`, within the phase's own share of the budget:
    :data:`gamecert.engine.plan.plan.SHARES` less the share of the phase before it)."""
    from gamecert.engine.plan.plan import SHARES

    out = {}
    for phase, before in (("coverage", 0.0), ("worst", SHARES["coverage"])):
        if phase in outcome.cut:
            groups = [g for g in outcome.groups if g.phase == phase]
            share = SHARES[phase]
            assert share is not None and before is not None  # the designed phases have shares
            wanted = budget_to_finish(groups, spent, jobs, share - before)
            if wanted is not None:
                out[phase] = wanted
    return out


__all__ = [
    "FIT_SHARE",
    "Spent",
    "budget_to_finish",
    "budgets_wanted",
    "by_time",
    "remaining_seconds",
]
