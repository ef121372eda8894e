"""Right programs in every language gamecert builds, certified under the default profile (issue 42):
each must end CERTIFIED, its certification core completed, within the budget plus a quarter.

The programs: ``tests/programs/*/word_game_right.*`` and ``right_solution.java`` (word_game) and
``tests/right_langs/GAME/`` (the other games), written here, never seen by the games' authors.
Each certification takes the default minute, so these are long tests; they need the machine
quiet enough for a JVM per test to run about 10 tests a second a runner (the rate the cores are
sized for, ``gamecert.kit.core.SLOWEST_RATE``): on a machine loaded by other work a JVM program
may end PASSED (incomplete), which the message shows with its rate.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamecert.kit.core import DEFAULT_BUDGET_S

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"
RIGHT = ROOT / "tests" / "right_langs"
#: the interpreter's start, the plan and a build, outside the budget's clock
STARTUP_S = 15.0

CASES = [
    ("word_game", PROGRAMS / "c" / "word_game_right.c"),
    ("word_game", PROGRAMS / "cpp" / "word_game_right.cpp"),
    ("word_game", PROGRAMS / "rust" / "word_game_right.rs"),
    ("word_game", PROGRAMS / "java" / "right_solution.java"),
    ("word_game", PROGRAMS / "javascript" / "word_game_right.js"),
    ("word_game", PROGRAMS / "python" / "word_game_right.py"),
    *(
        (game.name, path)
        for game in sorted(RIGHT.iterdir())
        if game.is_dir()
        for path in sorted(game.iterdir())
        if path.suffix in (".c", ".cpp", ".rs", ".java", ".js", ".py")
    ),
]
TOOLS = {
    ".c": "gcc",
    ".cpp": "g++",
    ".rs": "rustc",
    ".java": "javac",
    ".js": "node",
    ".py": "python3",
}


#: a runtime started per test (a JVM, node): its certification needs the cores to itself, so
#: these run one at a time after the other long tests (.ci/run); three at once on 2 cores run a
#: JVM at a third of the rate the cores are sized for
ALONE = (".java", ".js")


@pytest.mark.long
@pytest.mark.parametrize(
    "game, program",
    [
        pytest.param(g, p, marks=pytest.mark.alone) if p.suffix in ALONE else (g, p)
        for g, p in CASES
    ],
    ids=[f"{g}-{p.parent.name}-{p.name}" for g, p in CASES],
)
def test_a_right_program_is_certified_in_the_default_minute(
    tmp_path: Path, game: str, program: Path
) -> None:
    if shutil.which(TOOLS[program.suffix]) is None:
        pytest.skip(f"{TOOLS[program.suffix]} is not installed")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GAMECERT_PROFILE", None)
    start = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "gamecert", "certify", game, str(program), "--seed", "1"]
        + ["--report-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    wall = time.monotonic() - start
    text = out.stdout + out.stderr
    assert out.returncode == 0 and "Traceback" not in text, text
    certificate = json.loads(next(tmp_path.rglob("certificate.json")).read_text())
    assert certificate["elapsed_s"] <= 1.25 * DEFAULT_BUDGET_S, text
    assert wall <= 1.25 * DEFAULT_BUDGET_S + STARTUP_S, f"{wall:.1f} s\n{text}"
    assert "certification core (default profile), completed" in out.stdout, text
    assert ": CERTIFIED;" in out.stdout, text
