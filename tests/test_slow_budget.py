"""The budget kept when every test is slow (issue 27, item 5): a right program and a wrong one
that burn about 1.2 s of CPU time on every n of 50 or more (2 s limit, the wrong one 2.5 s on
n = 100: a TLE), certified on the outside toy game (``GAMECERT_GAMES``) with a short budget.
Checked from outside: the wall time of the whole ``gamecert certify`` process.

The bound is the budget, plus the fault reserve (``fault_time.FAULT_RESERVE_S``'s floor at this
budget), plus what may be in flight when the budget ends: one test started before the end, and
the one re-run that confirms a fault, each within the wall limit (``Limits.wall_s``), plus a
start-up allowance for the interpreter, the sandbox and the game's plan on a busy machine.
Before the fix (largest always run whole, three to ten confirming re-runs whatever they cost)
the wrong program's run took 43 s here, the right one's 20.6 s."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamecert.engine.fault_time import FAULT_RESERVE, FAULT_RESERVE_S
from gamecert.engine.run.limits import Limits

ROOT = Path(__file__).resolve().parent.parent
OK = ROOT / "tests" / "games_ok"
PROGRAMS = OK / "examples" / "toy_ok"
BUDGET_S = 8.0
#: the interpreter, the sandbox and the plan, before the budget's clock starts and after it ends
STARTUP_S = 10.0
RESERVE_S = min(FAULT_RESERVE_S[1], max(FAULT_RESERVE_S[0], FAULT_RESERVE * BUDGET_S))
IN_FLIGHT_S = 2 * Limits(time_s=2.0).wall_s
BOUND_S = BUDGET_S + RESERVE_S + IN_FLIGHT_S + STARTUP_S


def _certify(program: str, report_dir: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {**os.environ, "GAMECERT_GAMES": str(OK), "PYTHONPATH": str(ROOT)}
    env.pop("GAMECERT_PROFILE", None)
    start = time.monotonic()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            "toy_ok",
            str(PROGRAMS / program),
            "--seed",
            "1",
            "--budget",
            f"{BUDGET_S:g}",
            "--report-dir",
            str(report_dir),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    return out, time.monotonic() - start


@pytest.mark.slow
@pytest.mark.parametrize(
    "program, code, verdict",
    [("slow_right.py", 0, "PASSED (incomplete)"), ("slow_wrong.py", 1, "TLE")],
)
def test_a_slow_program_ends_within_the_budget_and_says_what_ran(tmp_path, program, code, verdict):
    out, wall = _certify(program, tmp_path)
    text = out.stdout + out.stderr
    assert out.returncode == code and verdict in out.stdout, text
    assert "Traceback" not in text
    assert wall <= BOUND_S, f"{program}: {wall:.1f} s > {BOUND_S:g} s\n{text}"
    if code == 0:  # what the budget cut is listed, never called run
        # coverage alone (100 inputs, half of them 1.2 s each) cannot fit: it is listed as cut
        assert "left out: coverage" in out.stdout and "cut short by the budget" in out.stdout, text
        assert "CERTIFIED" not in out.stdout, text  # the word is kept for complete evidence
    else:
        why = next(line for line in out.stdout.splitlines() if line.strip().startswith("why:"))
        over = re.search(
            r"CPU time ([0-9.]+) s > limit 2 s", why
        )  # literally over, or said otherwise
        assert (float(over.group(1)) > 2.0) if over else "CPU-time limit of 2 s" in why, why
