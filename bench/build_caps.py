"""What the build caps cost, and what they save (gamecert.engine.run.buildcap).

Part one: each compiled language's right word_game program (tests/programs/) is built from a
fresh cache ROUNDS times in each of three ways, in alternating rounds so that a change in the
machine's load affects all alike: with the caps of today (a memory and a pids cgroup where they
can be made), with the address-space cap in place of the cgroups (GAMECERT_CGROUPS=0), and with
no caps at all (the launcher, the cgroups and the environment taken away: the build as it ran
before the caps). Prints the median seconds per build.

Part two, with --bomb: the C++ /dev/zero bomb (tests/hostile/build_bomb_zero.cpp) under the
default caps, with the machine's MemAvailable sampled every 10 ms from this process, and the
compile error's first line. Run it only where the memory cgroup holds (root, cgroup v1): with
the address-space cap too the bomb stops at the cap, but do not run it with no caps.

    .venv/bin/python bench/build_caps.py [--rounds N] [--bomb]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from gamecert.engine.run import buildcap, toolchains

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = {
    "c": "c/word_game_right.c",
    "cpp": "cpp/word_game_right.cpp",
    "rust": "rust/word_game_right.rs",
    "java": "java/right_solution.java",
}


class NoCap(buildcap.BuildCap):
    """The build as it ran before the caps: no launcher, no cgroups, the environment unchanged."""

    def launcher(self) -> list[str]:
        return []

    def environment(self, base: dict[str, str]) -> dict[str, str]:
        return dict(base)


def build_once(language: str, how: str) -> float:
    real = buildcap.build_cap
    os.environ["GAMECERT_CGROUPS"] = "0" if how == "address space" else "1"
    if how == "no caps":
        buildcap.build_cap = lambda: NoCap(0, 0, 0)  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["GAMECERT_CACHE"] = cache
            start = time.perf_counter()
            toolchains.prepare(ROOT / "tests" / "programs" / PROGRAMS[language])
            return time.perf_counter() - start
    finally:
        buildcap.build_cap = real  # type: ignore[assignment]
        os.environ.pop("GAMECERT_CGROUPS", None)


def mem_available_mb() -> int:
    with open("/proc/meminfo") as f:
        return next(int(line.split()[1]) >> 10 for line in f if line.startswith("MemAvailable:"))


def bomb() -> None:
    before = mem_available_mb()
    lowest = [before]
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(0.01):
            lowest[0] = min(lowest[0], mem_available_mb())

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["GAMECERT_CACHE"] = cache
        try:
            toolchains.prepare(ROOT / "tests" / "hostile" / "build_bomb_zero.cpp")
            first = "(it compiled)"
        except toolchains.CompileError as exc:
            first = exc.output.splitlines()[0]
    took = time.perf_counter() - start
    stop.set()
    thread.join()
    print(
        f"bomb: {took:.2f} s; MemAvailable before {before} MB, lowest during {lowest[0]} MB "
        f"(down {before - lowest[0]} MB); cap {buildcap.memory_mb()} MB"
    )
    print(f"bomb: {first}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bomb", action="store_true")
    args = parser.parse_args()
    hows = ("caps", "address space", "no caps")
    times: dict[tuple[str, str], list[float]] = {}
    toolchains.prepare(ROOT / "tests" / "programs" / PROGRAMS["c"])  # probes, caches warm
    for _ in range(args.rounds):
        for language in PROGRAMS:
            for how in hows:
                times.setdefault((language, how), []).append(build_once(language, how))
    print(f"median seconds per build over {args.rounds} rounds (fresh cache each)")
    print(f"{'language':10}" + "".join(f"{h:>16}" for h in hows))
    for language in PROGRAMS:
        print(
            f"{language:10}"
            + "".join(f"{statistics.median(times[language, h]):16.2f}" for h in hows)
        )
    if args.bomb:
        bomb()


if __name__ == "__main__":
    main()
