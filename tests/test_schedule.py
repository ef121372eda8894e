"""The designed phases scheduled by runner time (``gamecert/engine/plan/schedule.py``), on a
simulated clock: a cheap family that fits the time left runs to its end while expensive ones
wait; families that cannot end share the time equally; without a deadline, plan order. The
control shows that the old rule (a chunk of each family in turn) leaves the cheap family unended
on the same clock."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from gamecert.engine.plan import schedule
from gamecert.engine.plan.schedule import Spent, by_time


@dataclass(frozen=True)
class FakeChunk:
    group: str
    instances: tuple[int, ...]


def _lanes(groups: dict[str, int], per_chunk: int = 100, first: frozenset[str] = frozenset()):
    """(key, chunks, runs, on_list, on_chunk, first pass) per group of ``groups`` (key: runs)."""

    def chunks(key: str, runs: int):
        for start in range(0, runs, per_chunk):
            yield FakeChunk(key, tuple(range(start, min(runs, start + per_chunk))))

    return [
        (key, chunks(key, runs), runs, lambda: None, lambda: None, key in first)
        for key, runs in groups.items()
    ]


def _simulate(
    groups: dict[str, int],
    cost: dict[str, float],
    runner_s: float,
    order=by_time,
    first: frozenset[str] = frozenset(),
) -> dict[str, int]:
    """Runs handed out per group before ``runner_s`` seconds of one runner are spent, each run of
    group g costing ``cost[g]`` seconds."""
    clock = 0.0
    spent: dict[str, Spent] = {}
    done = dict.fromkeys(groups, 0)
    chunks = order(_lanes(groups, first=first), spent, lambda: max(0.0, runner_s - clock))
    for chunk in chunks:
        if clock >= runner_s:
            break
        took = len(chunk.instances) * cost[chunk.group]
        clock += took
        spent.setdefault(chunk.group, Spent()).add(len(chunk.instances), took)
        done[chunk.group] += len(chunk.instances)
    return done


def _round_robin(lanes, spent, capacity):
    """The old order: one chunk of each group in turn."""
    iters = [chunks for _key, chunks, _runs, _listed, _counted, _first in lanes]
    for chunk in itertools.chain.from_iterable(itertools.zip_longest(*iters)):
        if chunk is not None:
            yield chunk


GROUPS = {"expensive-a": 15_000, "ladder": 5_000, "expensive-b": 5_000, "small": 40}
COST = {"expensive-a": 0.030, "ladder": 0.006, "expensive-b": 0.050, "small": 0.01}


def test_a_cheap_family_that_fits_runs_to_its_end():
    """The ladder needs 30 s of the 48 s: it ends, and the small family too; the expensive ones
    share what is left, each touched."""
    done = _simulate(GROUPS, COST, 48.0)
    assert done["ladder"] == GROUPS["ladder"] and done["small"] == GROUPS["small"]
    assert (
        0 < done["expensive-a"] < GROUPS["expensive-a"]
        and 0 < done["expensive-b"] < GROUPS["expensive-b"]
    )


def test_control_one_chunk_of_each_in_turn_leaves_the_ladder_unended():
    """The old order on the same clock: the ladder gets no more runs than an expensive family."""
    done = _simulate(GROUPS, COST, 48.0, order=_round_robin)
    assert done["ladder"] < GROUPS["ladder"]


def test_a_first_pass_ends_where_nothing_is_measured_to_fit():
    """A busy machine: the ladder's runs cost 9.8 ms, 49 s of the 60 s: once the first chunk of
    every family has run (9.4 s), more than the share that families run to their end may take.
    Marked a first pass (a size ladder), it runs next and ends; the control, the same ladder
    unmarked, is time-shared and does not."""
    cost = {**COST, "ladder": 0.0098}
    marked = _simulate(GROUPS, cost, 60.0, first=frozenset({"ladder"}))
    assert marked["ladder"] == GROUPS["ladder"] and all(
        marked[k] >= 100 or marked[k] == GROUPS[k] for k in GROUPS
    )
    assert _simulate(GROUPS, cost, 60.0)["ladder"] < GROUPS["ladder"]


def test_with_nothing_fitting_the_families_share_the_time_equally():
    """Neither family can end: each gets about half of the runner time."""
    groups = {"a": 100_000, "b": 100_000}
    cost = {"a": 0.01, "b": 0.05}
    done = _simulate(groups, cost, 100.0)
    seconds = {k: done[k] * cost[k] for k in groups}
    assert (
        abs(seconds["a"] - seconds["b"]) <= 100 * 0.05 + 1e-9
    )  # within one chunk of the dearer one


def test_no_fit_share_means_no_family_is_run_to_its_end(monkeypatch):
    """With no share for families run to their end (FIT_SHARE 0) the ladder is time-shared and
    does not end: the rule above is what ends it."""
    monkeypatch.setattr(schedule, "FIT_SHARE", 0.0)
    done = _simulate(GROUPS, COST, 48.0)
    assert done["ladder"] < GROUPS["ladder"]


def test_without_a_deadline_every_chunk_comes_in_plan_order():
    """By counts (no deadline) every chunk is handed out, one of each group in turn."""
    spent: dict[str, Spent] = {}
    got = [
        (c.group, c.instances[0])
        for c in by_time(_lanes({"a": 250, "b": 120}), spent, lambda: None)
    ]
    assert got == [("a", 0), ("b", 0), ("a", 100), ("b", 100), ("a", 200)]


@pytest.mark.parametrize(
    "runs,handed,spent,want", [(10, 4, Spent(4, 1.0, 0.25), 1.5), (10, 10, Spent(10, 1, 0.1), 0.0)]
)
def test_remaining_seconds(runs, handed, spent, want):
    """What a group still needs, at the time its last finished chunk took a run."""
    assert schedule.remaining_seconds(runs, handed, spent) == pytest.approx(want)
