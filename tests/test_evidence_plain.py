"""Evidence a judge reproduces: every reported fault fails when the program runs plainly.

A Python candidate runs in the zygote (a child forked per test from a process that compiled it
once); a fault it shows there is re-run as a judge runs the program (`python FILE`) before it is
reported, passes are audited the same way, and a fault that never shows plainly is not the
candidate's. Checked here from outside: the reported input is run with plain `python3`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine.run import contain

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MINE = HERE / "candidates_evidence"


def certify(tmp_path: Path, game: str, program: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    env = dict(os.environ)
    env.pop("GAMECERT_EXHAUSTIVE_RUNS", None)
    proc = subprocess.run([sys.executable, "-m", "gamecert", "certify", game, str(program),
                           "--report-dir", str(tmp_path / "reports"), *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    return proc, Path(last)


@pytest.mark.slow
def test_a_recursion_fault_reproduces_under_plain_python(tmp_path: Path) -> None:
    """A program recursing once per cuttable position: the reported input fails under a plain
    `python3 FILE` (RecursionError), and the report says the plain re-runs failed every time.
    The largest phase alone (samples always run) finds it on its first inputs (runs of 1,000
    positions); with every phase the sweep below a 1,000-letter fault spent the whole 30 s
    budget, which adds nothing to what is checked here."""
    program = ROOT / "tests" / "wrong" / "string_cut" / "recursive_run.py"
    proc, folder = certify(tmp_path, "string_cut", program, "--budget", "10", "--seed", "5", "--jobs", "1",
                           "--phases", "largest")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((folder / "report.json").read_text())
    assert report["verdict"] == "RE"
    assert "re-run 3 times in plain `python FILE` processes, as a judge runs the program: failed 3 of 3" in \
        " ".join(report["notes"])
    plain = subprocess.run([contain.base_python(), str(program)], input=(folder / "input.in").read_text(),
                           capture_output=True, text=True, timeout=60)
    assert plain.returncode != 0 and "RecursionError" in plain.stderr, (plain.returncode, plain.stderr[-300:])


def test_a_program_right_only_under_the_harness_is_caught_by_the_audit(tmp_path: Path) -> None:
    """Right in the zygote, wrong on every input as `python FILE`: the first audit (a plain run
    of the first passing input) finds it."""
    proc, folder = certify(tmp_path, "word_game", MINE / "harness_only_right.py", "--budget", "10", "--seed", "1")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((folder / "report.json").read_text())
    assert report["verdict"] == "WA" and "found by an audit" in " ".join(report["notes"]), report["notes"]


def test_faults_that_never_show_plainly_are_not_the_candidates(tmp_path: Path) -> None:
    """Wrong only in the zygote, right as `python FILE`: each fault (here the two samples) is
    re-run plainly 10 times, never fails, and is not counted; the program is certified, and the
    certificate says what was seen."""
    proc, folder = certify(tmp_path, "word_game", MINE / "harness_only_wrong.py", "--budget", "10", "--seed", "1",
                           "--jobs", "1", "--profile", "quick")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    notes = " ".join(json.loads((folder / "certificate.json").read_text())["notes"])
    assert notes.count("not counted (did not reproduce as a judge runs the program)") >= 2, notes
    assert "passed 10 of 10 runs in plain `python FILE` processes" in notes


@pytest.mark.slow
def test_a_fault_seen_in_a_plain_run_that_does_not_come_back_is_reported(tmp_path: Path) -> None:
    """An executable (exec'd per test: every run is already a judge's) wrong on its very first
    run only, then right: the fault never reproduces in the re-runs, yet it was seen as a judge
    would see it, so it is the program's own: reported as nondeterministic, not certified. (Not
    contained, so that the program can leave a mark outside its box; a shell script is exec'd.)"""
    mark = tmp_path / "seen"
    program = tmp_path / "first_run_wrong.sh"
    program.write_text(f"#!/bin/sh\nread word\nif [ -e {mark} ]; then\n"
                       "  exec /usr/bin/env python3 -c 'import sys; w=sys.argv[1]; t=0\n"
                       "for l in set(w):\n c=w.count(l); t^=3 if c%3==0 else c%3\n"
                       "print(\"Alice\" if t else \"Bob\")' \"$word\"\n"
                       f"fi\ntouch {mark}\necho Nobody\n")
    program.chmod(0o755)
    proc, folder = certify(tmp_path, "word_game", program, "--budget", "10", "--seed", "1", "--jobs", "1",
                           "--profile", "quick", "--no-contain")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((folder / "report.json").read_text())
    assert report["verdict"] == "WA" and mark.exists()
    assert "nondeterministic: the input failed in 1 of 11 runs" in " ".join(report["notes"]), report["notes"]
