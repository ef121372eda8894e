"""Oracle throughput and fast-solver times at maximum constraints, with ratios in one run.

    python bench/solvers.py [--repeat R]

For each game:
- oracle throughput: the exhaustive spaces' inputs answered per second by the memoised oracle
  and by the plain minimax (caches cleared first), and the distinct positions each search
  evaluated per second; the ratio oracle/minimax;
- each fast solver on the game's maximum-size inputs (``strategies.largest()``): seconds per
  input, against a baseline measured in the same run on the same inputs (the oracle where it
  reaches the maximum size, else the slowest honest method that does: a cold quadratic DP).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamecert.engine import registry  # noqa: E402
from gamecert.kit.game import ensure_recursion  # noqa: E402


def _clear_caches(module) -> int:
    """Clear every lru_cache in ``module``; return how many entries they held."""
    held = 0
    for value in vars(module).values():
        info = getattr(value, "cache_info", None)
        if info is not None and hasattr(value, "cache_clear"):
            held += info().currsize
            value.cache_clear()
    return held


def _timed(fn, items, repeat=1):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return best


def oracle_throughput(entry, limit_size):
    game = entry.game
    oracle_module = sys.modules[type(game).__module__]
    items = [
        i
        for space in game.exhaustive_spaces()
        for s in space.sizes
        if s <= limit_size
        for i in space.instances(s)
    ]
    _clear_caches(oracle_module)
    t_oracle = _timed(game.oracle, items)
    oracle_positions = _clear_caches(oracle_module)
    t_minimax = _timed(game.minimax, items)
    minimax_positions = _clear_caches(oracle_module)
    return len(items), t_oracle, oracle_positions, t_minimax, minimax_positions


def _max_size_inputs(entry):
    """Maximum-size inputs and the baseline each solver is compared with on them."""
    game = entry.game
    module = sys.modules[type(game).__module__]
    if game.name == "string_cut":
        import gamecert.fast.string_cut as fs

        def cold_dp(s):
            del fs._DP[1:]  # the quadratic table is rebuilt for every input
            return fs.quadratic_dp(s)

        return entry.strategies.largest(), "the quadratic DP with a cold table", cold_dp
    if game.name == "digit_game":
        # the reduced-position oracle, one 1000-digit game at a time (past its declared reach,
        # which exists because a random batch of 100 such games takes it about a minute)
        rng = random.Random(1)
        games = [
            ("1" + "".join(rng.choice("0123456789") for _ in range(998 + k % 2)),) for k in range(6)
        ]

        def cold_oracle(inst):
            _clear_caches(module)
            ensure_recursion(game.size(inst))
            return tuple(module._reduced(*module.reduce_digits(d), module.RAZE) for d in inst)

        return games, "the reduced-position oracle (cold cache)", cold_oracle

    def cold(inst):
        _clear_caches(module)
        return game.oracle(inst)

    return entry.strategies.largest(), "the oracle (cold cache)", cold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name in ("word_game", "string_cut", "digit_game"):
        entry = registry.get(name)
        game = entry.game
        print(f"== {name} ==")
        limit = game.minimax_reach if name != "string_cut" else 10
        n, t_o, p_o, t_m, p_m = oracle_throughput(entry, limit)
        print(
            f"oracle : {n / t_o:12,.0f} inputs/s {p_o / t_o:12,.0f} positions/s  ({n} inputs of size <= {limit}, {p_o} positions)"
        )
        print(
            f"minimax: {n / t_m:12,.0f} inputs/s {p_m / t_m:12,.0f} positions/s  ({p_m} positions)"
        )
        print(f"oracle/minimax speed ratio: {t_m / t_o:.1f}x")
        inputs, base_name, base = _max_size_inputs(entry)
        t_base = _timed(base, inputs, 1) / len(inputs)
        sizes = sorted({game.size(i) for i in inputs})
        for solver_name, solve in sorted(entry.solvers.items()):
            t = _timed(solve, inputs, args.repeat) / len(inputs)
            print(
                f"{solver_name:>16}: {t * 1e3:9.3f} ms per max-size input (sizes {sizes}); "
                f"{t_base / t:,.0f}x faster than {base_name}"
            )
        print(f"{'baseline':>16}: {t_base * 1e3:9.3f} ms per input, {base_name}")
        print()


if __name__ == "__main__":
    main()
