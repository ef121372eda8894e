"""The strength of the default test packages (issue 26), judged as a contest judge judges them.

For each game named (default: the four contest games): ``gamecert tests GAME --out DIR`` with the
default knobs (timed, wall clock), then every wrong and right program the project keeps judged
on the package by the plain judge (:mod:`gamecert.engine.testpack.plainjudge`: plain builds, runs
under the problem's rlimits, the package's own checker.py; the same judge as
``gamecert tests GAME --check DIR --against FILES``). Wrong: tests/wrong/GAME,
examples/GAME/wrong*, tests/programs/LANG/GAME_wrong.*, tests/unseen_wrong/GAME,
tests/shrink_wrong/GAME; right: examples/GAME/correct*, tests/programs/LANG/GAME_right.*,
tests/slow_right/GAME (a language whose compiler is not installed is left out). Prints, per
game: the package's size, the build time, wrong programs killed / total (and which survive),
right programs passed, and each right program's CPU time on its slowest test against the limit
(a package keeps a 2x margin for the right programs the build is given; tests/slow_right/ burns
CPU on purpose and is not one of them).

    .venv/bin/python bench/testpack_strength.py [GAME ...] [--keep DIR [--judge-only]]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gamecert.engine import registry
from gamecert.engine.run import toolchains
from gamecert.engine.testpack import plainjudge
from gamecert.engine.testpack import testset as ts

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("word_game", "string_cut", "digit_game", "stones_once")


def _sources(folder: Path, pattern: str = "*") -> list[Path]:
    return sorted(
        p for p in folder.glob(pattern) if p.is_file() and toolchains.language_of(p) is not None
    )


def programs(game: str) -> tuple[list[Path], list[Path]]:
    wrong = (
        _sources(ROOT / "tests" / "wrong" / game)
        + _sources(ROOT / "examples" / game, "wrong*")
        + [
            p
            for p in sorted(ROOT.glob(f"tests/programs/*/{game}_wrong.*"))
            if ts._toolchain_present(p)
        ]  # noqa: SLF001
        + _sources(ROOT / "tests" / "unseen_wrong" / game)
        + _sources(ROOT / "tests" / "shrink_wrong" / game)
    )
    right = (
        _sources(ROOT / "examples" / game, "correct*")
        + [
            p
            for p in sorted(ROOT.glob(f"tests/programs/*/{game}_right.*"))
            if ts._toolchain_present(p)
        ]  # noqa: SLF001
        + _sources(ROOT / "tests" / "slow_right" / game)
    )
    return wrong, right


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--keep", default=None, help="build the packages in DIR/GAME (kept)")
    ap.add_argument(
        "--judge-only", action="store_true", help="judge the packages already in --keep DIR"
    )
    args = ap.parse_args()
    where = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="gamecert-strength-"))
    for name in args.games:
        game = registry.get(name).game
        out = where / name
        start = time.perf_counter()
        done = subprocess.CompletedProcess([], 0, "", "")
        if not args.judge_only:
            done = subprocess.run(
                [sys.executable, "-m", "gamecert", "tests", name, "--out", str(out)],
                capture_output=True,
                text=True,
            )
            (where / f"{name}.log").write_text(done.stderr)
        build_s = time.perf_counter() - start
        if not (out / "tests").is_dir():
            print(
                f"{name}: the build failed (exit {done.returncode}): {done.stderr.strip()[-300:]}"
            )
            continue
        tests = len(plainjudge.tests_of(out))
        wrong, right = programs(name)
        survivors = []
        for p in wrong:
            verdicts = plainjudge.judge(
                out, p, game.time_limit, game.memory_limit_mb, stop_at_first=True
            )
            if all(v == "OK" for v in verdicts):
                survivors.append(str(p.relative_to(ROOT)))
        passed, slowest = 0, {}
        for p in right:
            usage: list[tuple[float, float]] = []
            verdicts = plainjudge.judge(out, p, game.time_limit, game.memory_limit_mb, usage=usage)
            passed += all(v == "OK" for v in verdicts)
            slowest[str(p.relative_to(ROOT))] = max((cpu for cpu, _ in usage), default=0.0)
        times = ", ".join(f"{p} {cpu:.2f} s" for p, cpu in slowest.items())
        print(
            f"{name}: {tests} tests; build {build_s:.0f} s (exit {done.returncode}); wrong killed "
            f"{len(wrong) - len(survivors)}/{len(wrong)}; right passed {passed}/{len(right)}; slowest test of each "
            f"right program (limit {game.time_limit:g} s): {times}"
            + (f"; SURVIVE: {', '.join(survivors)}" if survivors else ""),
            flush=True,
        )
    print(f"packages in {where}")


if __name__ == "__main__":
    main()
