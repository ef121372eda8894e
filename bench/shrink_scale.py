"""What shrinking a fault found on a million parts costs (gamecert/kit/shrink.py, judge/shrinking.py).

Part one: the structural shrinker alone, on stones_once's worst-case shape (999,999 piles of 47
and a pile of 60) against an in-process predicate that fails past 50,000 piles by the parity of
the count (the fault of tests/shrink_wrong/stones_once/parity50004.py). A prefix of that input
never fails, so the binary search on the count keeping the start climbs back near a million
piles at every step; halving first follows the failing half down. Run with halving and with
halving off (the step replaced by nothing), in alternating rounds so that a change in the
machine's load affects both alike. Prints, per way, the median seconds and CPU seconds, the
runs, the piles held by the candidates run (all, and those over 100,000 piles), where it ended.

Part two, with --certify: the whole certification of the broken solver many_piles_by_parity
(tests/broken/stones_once.py) in process, as tests/test_broken.py runs it (default profile):
wall and CPU seconds, the reported size and the shrink's runs.

    .venv/bin/python bench/shrink_scale.py [--rounds N] [--certify]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamecert.kit.shrink import Shrinker  # noqa: E402
from oracles.stones_once import GAME as STONES  # noqa: E402

PILES = (47,) * 999_999 + (60,)
THRESHOLD = 50_000


def _fails(run: list[int]):
    def fails(inst, text):
        run.append(len(inst))
        return len(inst) > THRESHOLD and (STONES.grundy(inst) == 0) != (len(inst) % 2 == 0)

    return fails


def _shrink_once(halving: bool) -> tuple[float, float, int, list[int], tuple]:
    run: list[int] = []
    shrinker = Shrinker(STONES, STONES.structure(), _fails(run))
    if not halving:
        shrinker._halve = lambda *args: None  # the step left out: the binary searches alone
    wall, cpu = time.perf_counter(), time.process_time()
    result = shrinker.shrink(PILES)
    return time.perf_counter() - wall, time.process_time() - cpu, result.runs, run, result.instance


def part_one(rounds: int) -> None:
    ways = {"halving": True, "no halving": False}
    seen: dict[str, list[tuple]] = {w: [] for w in ways}
    for _ in range(rounds):
        for way, halving in ways.items():
            seen[way].append(_shrink_once(halving))
    for way, results in seen.items():
        wall = statistics.median(r[0] for r in results)
        cpu = statistics.median(r[1] for r in results)
        _, _, runs, run, inst = results[-1]
        print(
            f"{way}: {wall:.1f} s wall, {cpu:.1f} s CPU (median of {rounds}); {runs} runs holding "
            f"{sum(run):,} piles ({sum(n for n in run if n > 100_000):,} in runs over 100,000 piles); "
            f"ended at {len(inst):,} piles, {STONES.size(inst):,} stones"
        )


def part_two() -> None:
    from gamecert.engine import registry
    from gamecert.engine.plan.profiles import get_profile
    from gamecert.engine.solvers import certify_solver

    entry = registry.get("stones_once")
    broken = registry.broken_solvers("stones_once")["many_piles_by_parity"]
    wall, cpu = time.perf_counter(), time.process_time()
    outcome = certify_solver(
        entry, "many_piles_by_parity", broken.solve, get_profile("default"), 20261130
    )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    found = outcome.failure
    print(
        f"certify many_piles_by_parity: {wall:.1f} s wall, {cpu:.1f} s CPU; found by {found.phase}, "
        f"reported size {found.size:,}, shrink {found.shrink} in {found.shrink_s:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--certify", action="store_true")
    args = parser.parse_args()
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    part_one(args.rounds)
    if args.certify:
        part_two()
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
