"""Tests per second for a Python candidate: a fresh process per test versus the default runner.

The fresh path execs `python FILE` for every test; the default runner runs the candidate in a
persistent forked child (many tests per process, see gamecert.forkserver). Both use the same
sandbox (limits, scratch folder, output capture, verdict); only the way the candidate starts
differs. They are measured in alternating rounds, so that a change in
the machine's load during the run affects both alike. Every answer is checked against the
word_game oracle, so a fast but wrong path cannot look good.

    .venv/bin/python bench/candidate_throughput.py [--seconds S] [--seed N]

The last line is ``speedup: X`` (default-runner rate / fresh-process rate).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from gamecert.sandbox import Candidate, Limits, open_runner
from oracles.word_game import GAME, LETTERS

CANDIDATE = Path(__file__).resolve().parent.parent / "examples" / "word_game" / "correct.py"


def random_inputs(rng: random.Random, n: int) -> list[tuple[str, str]]:
    cases = []
    for _ in range(n):
        word = "".join(rng.choice(LETTERS[: rng.randint(1, 26)]) for _ in range(rng.randint(1, 40)))
        cases.append((GAME.format_input(word), GAME.oracle(word)))
    return cases


def timed_round(runner, cases) -> float:
    start = time.perf_counter()
    for text, expected in cases:
        result = runner.run(text)
        if result.status != "ok" or result.stdout.split() != [expected]:
            raise SystemExit(f"wrong result on {text!r}: {result.describe()} {result.stdout!r}")
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="rough total budget (default 8)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    candidate = Candidate.parse(str(CANDIDATE))
    limits = Limits(time_s=1.0, memory_mb=256)
    fresh_n = fork_n = 0
    fresh_t = fork_t = 0.0
    with open_runner(candidate, limits, fork_server=False) as fresh, open_runner(candidate, limits) as fork:
        assert fresh.mode == "fresh-process" and fork.mode == "fork-server"
        timed_round(fresh, random_inputs(rng, 3))  # warm up both
        timed_round(fork, random_inputs(rng, 30))
        end = time.perf_counter() + args.seconds
        while time.perf_counter() < end:
            cases = random_inputs(rng, 10)
            fresh_t += timed_round(fresh, cases)
            fresh_n += len(cases)
            cases = random_inputs(rng, 200)
            fork_t += timed_round(fork, cases)
            fork_n += len(cases)
    fresh_rate, fork_rate = fresh_n / fresh_t, fork_n / fork_t
    print(f"candidate: {candidate.spec} (word_game, every answer checked against the oracle)")
    print(f"fresh process per test: {fresh_n} tests in {fresh_t:.2f} s = {fresh_rate:.1f} tests/s")
    print(f"persistent (default):   {fork_n} tests in {fork_t:.2f} s = {fork_rate:.1f} tests/s")
    print(f"speedup: {fork_rate / fresh_rate:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
