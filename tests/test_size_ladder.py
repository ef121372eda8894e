"""Programs wrong at one input size only, caught under the default profile and its default budget
whatever the seed: string_cut's size ladder (``decides-input-size``: every length 1..5000 once, in
a content cheap to answer) runs to its end because the designed phases are scheduled by runner
time (``gamecert/engine/plan/schedule.py``). Before both, ``len3001.py`` was CERTIFIED with seeds 1
and 2 (tests/uncaught/README.md). Each certification takes its whole minute and more: ``long``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "tests" / "wrong" / "string_cut"


def _budget() -> list[str]:
    """The default budget as a lone certification has it: under pytest-xdist, W workers run
    certifications at once, each of which would have every core alone, so each gets W times the
    default budget (seen: with 3 workers on 2 cores, load average 8, len4700 at seed 2 was
    CERTIFIED in 60 s, its coverage cut at 3,929 tests)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    return ["--budget", str(60 * workers)] if workers > 1 else []


def _certify(tmp_path: Path, program: Path, seed: str) -> tuple[subprocess.CompletedProcess, dict]:
    env = {k: v for k, v in os.environ.items() if k != "GAMECERT_EXHAUSTIVE_RUNS"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            "string_cut",
            str(program),
            "--seed",
            seed,
            "--report-dir",
            str(tmp_path),
            *_budget(),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=900,
    )
    where = Path(proc.stdout.strip().splitlines()[-1])
    name = "report.json" if (where / "report.json").exists() else "certificate.json"
    return proc, json.loads((where / name).read_text())


@pytest.mark.long
@pytest.mark.parametrize("seed", ["1", "2"])
@pytest.mark.parametrize("program", ["len3001.py", "len4700_short_scan.py", "len4096.cpp"])
def test_a_program_wrong_at_one_length_is_caught_by_default(tmp_path, program, seed):
    """Default profile, default budget (60 s), every core: WA, on an input of exactly the length
    the program mishandles (the sweep below the fault finds nothing smaller: every shorter
    ladder string passed)."""
    proc, report = _certify(tmp_path, WRONG / program, seed)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert report["verdict"] == "WA"
    assert (
        report["size"]
        == {"len3001.py": 3001, "len4700_short_scan.py": 4700, "len4096.cpp": 4096}[program]
    )


@pytest.mark.long
def test_the_right_program_stays_certified_and_says_what_budget_would_end_the_cut_phases(tmp_path):
    """The right example passes under the default profile (exit 0); where the budget cut a designed
    phase, it is not called CERTIFIED and the run says the budget that would complete it."""
    proc, report = _certify(tmp_path, ROOT / "examples" / "string_cut" / "correct.py", "1")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    if "coverage" in report["cut_phases"]:
        assert report["verdict"] == "PASSED (incomplete)" and "CERTIFIED" not in proc.stdout
        assert (
            "  incomplete: left out: coverage" in proc.stdout
            and "would complete it (--budget " in proc.stdout
        )
        assert "would complete it (--budget " in report["incomplete"]
    else:
        assert report["verdict"] in ("CERTIFIED", "PASSED (incomplete)")
