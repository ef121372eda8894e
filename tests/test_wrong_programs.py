"""Deliberately wrong programs (``tests/wrong/``) caught end to end by the designed phases.

``tests/test_families.py`` shows that each wrong program fails on some input of its game's
coverage or worst-case families; here ``gamecert certify`` itself, limited to those phases
(``--phases coverage`` or ``--phases worst``), must report it with the expected verdict, whatever the seed.
The families are deterministic: the phase's inputs under two seeds are compared one by one in
the plan (in process, no candidate run), and the program is certified once. A second
certification under the other seed would run the same inputs in the same order; the control
shows that the comparison sees a seed where one reaches the plan (the random phase).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.plan.plan import make_plan
from gamecert.engine.plan.profiles import get_profile

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "tests" / "wrong"

#: one program per game and kind, each beyond the reach of small exhaustive sweeps
LONG = pytest.mark.long  # a minute or more: left out of the default run (tests/conftest.py)
CASES = [
    pytest.param("word_game", "count39.py", "coverage", marks=LONG),  # a letter exactly 39 times
    ("string_cut", "run51.py", "coverage"),  # a run of exactly 51 cuttable positions
    ("stones_once", "pile47.py", "coverage"),  # a pile of exactly 47 stones
    pytest.param(
        "digit_game", "read100000.py", "worst", marks=LONG
    ),  # reads only the first 100,000 bytes
    ("digit_game", "first500.py", "worst"),  # reads only the first 500 digits of a number
]
IDS = [
    "word_game-count39",
    "string_cut-run51",
    "stones_once-pile47",
    "digit_game-read100000",
    "digit_game-first500",
]


def _expected_verdict(program: Path) -> str:
    line = next(line for line in program.read_text().splitlines() if line.startswith("# expect:"))
    return line.split(":", 1)[1].strip()


def _phase_inputs(
    game: str, phase: str, seed: int, groups: int | None = None
) -> list[tuple[str, tuple[str, ...]]]:
    """Every input of ``phase`` (of its first ``groups`` groups: the random phase is endless) in
    the plan ``gamecert certify GAME --phases PHASE --seed SEED`` makes (the default profile),
    chunk by chunk, in the order the run takes them."""
    plan = make_plan(registry.get(game), get_profile("default"), seed, phases=[phase])
    return [
        (chunk.key, chunk.texts)
        for group in itertools.islice(plan.phase(phase).groups(), groups)
        for chunk in group.iter_chunks()
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "name", "phase"), CASES, ids=IDS)
def test_the_designed_phase_catches_it_whatever_the_seed(tmp_path, game, name, phase):
    """The phase's inputs do not depend on the seed, and ``gamecert certify`` limited to the
    phase reports the program with its expected verdict, found by the phase (or by the sweep
    below the fault it found, which is seed-free too)."""
    first, second = (_phase_inputs(game, phase, seed) for seed in (1, 2))
    assert first and first == second
    program = WRONG / game / name
    env = {k: v for k, v in os.environ.items() if k != "GAMECERT_EXHAUSTIVE_RUNS"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            game,
            str(program),
            "--phases",
            phase,
            "--budget",
            "600",
            "--seed",
            "1",
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((Path(proc.stdout.strip().splitlines()[-1]) / "report.json").read_text())
    assert report["verdict"] == _expected_verdict(program)
    assert report["phase"] in (
        phase,
        "exhaustive",
    )  # exhaustive: a smaller one found by the sweep below


@pytest.mark.parametrize("game", ["string_cut", "digit_game"])
def test_control_the_comparison_sees_a_seed_that_reaches_the_plan(game):
    """Control for the comparison above: the random phase's inputs differ under two seeds."""
    first, second = (_phase_inputs(game, "random", seed, groups=1) for seed in (1, 2))
    assert first and first != second
