"""How long the guided search takes to reach a wrong program's fault, run outside a certification.

The program's instrumented build (:func:`gamecert.engine.run.instrument.instrument`: C, C++,
Rust; not Python, whose rewrite runs through the zygote) runs outside the sandbox, one process per
input; the guided search
(:class:`gamecert.engine.judge.guided.Search`) starts from the game's samples and the phase's 24
drawn seeds, and each answer is judged against the game's expected answer
(:func:`gamecert.engine.judge.expected.expected_answer`). No confirmation, no shrinking: the
first failing input, and the search below it, as the phase does. For comparing routes and forms
of one special case on the same machine in one run; the figures are wall time on a shared machine.

    .venv/bin/python bench/guided_search_offline.py GAME PROGRAM [PROGRAM...] [--seeds 1 2] [--seconds 30]

Prints per program and seed: ``found at T s (size S) after R runs`` or ``not found in T s (R runs)``.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from types import SimpleNamespace
from typing import Any

from gamecert.engine import registry
from gamecert.engine.judge import guided
from gamecert.engine.judge.expected import expected_answer
from gamecert.engine.run import instrument as inst
from gamecert.engine.run.candidate import Candidate


class _Judge:
    """Runs the instrumented build on one input and judges its answer (the search's judge)."""

    def __init__(self, entry: Any, argv: tuple[str, ...]) -> None:
        self.entry, self.argv = entry, argv
        self.last_result: Any = None

    def run_one(self, instance: Any, phase: str, text: str = "", what: str = "") -> Any:
        done = subprocess.run(
            list(self.argv), input=text, capture_output=True, text=True, timeout=60, check=False
        )
        self.last_result = SimpleNamespace(
            stderr_tail=done.stderr[-65536:], status="ok", cpu_s=0.0, max_rss_mb=0.0
        )
        game = self.entry.game
        expected, _ = expected_answer(self.entry, instance)
        try:
            got = game.parse_answer(done.stdout, instance)
        except Exception:  # noqa: BLE001 - a malformed answer is a fault too
            return SimpleNamespace(verdict="PE")
        return SimpleNamespace(verdict="WA") if game.judge(instance, got, expected) else None


def one(entry: Any, built: Any, seed: int, seconds: float) -> str:
    game = entry.game
    found: list[tuple[float, int, int]] = []
    start = time.monotonic()
    search: Any = None

    def suspect(instance: Any, text: str) -> Any:
        found.append((time.monotonic() - start, game.size(instance), search.report.runs))
        return SimpleNamespace(size=game.size(instance))

    plan = SimpleNamespace(seed=seed, phase=lambda name: None)
    seeds = [game.parse_input(t) for t, _ in game.samples] + guided.seeds_of(entry, plan)
    search = guided.Search(entry, _Judge(entry, built.candidate.argv), built, seed, suspect)
    search.search(seeds, start + seconds)
    if not found:
        return f"not found in {seconds:g} s ({search.report.runs} runs)"
    t, size, runs = found[0]
    line = f"found at {t:.1f} s (size {size}) after {runs} runs"
    if len(found) > 1:
        line += f"; the smallest found below it: size {min(s for _, s, _ in found)}"
    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("programs", nargs="+")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    entry = registry.get(args.game)
    for program in args.programs:
        built = inst.instrument(Candidate.parse(program))
        if built.language not in ("c", "cpp", "rust"):
            print(f"{program}: a native build (C, C++, Rust) only", flush=True)
            continue
        for seed in args.seeds:
            print(f"{program} seed {seed}: {one(entry, built, seed, args.seconds)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
