"""Several candidates at once: ``gamecert certify GAME A B C``, a folder, and several
``pytest --candidate``; the summary table, ``summary.json`` and the exit statuses.

Each check is paired with a program that must be told apart: a right and a wrong word_game
program, and a C++ source that does not compile (a CE row).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RIGHT = ROOT / "examples" / "word_game" / "correct.py"
#: a right program's word here: these runs leave the designed families out (--phases exhaustive)
PASSED = "PASSED (incomplete)"
WRONG = ROOT / "examples" / "word_game" / "wrong.py"


def run(*args: str, cwd: Path = ROOT, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="40")
    return subprocess.run(
        [sys.executable, "-m", "gamecert", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )


def certify(tmp_path: Path, *candidates: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Samples and the exhaustive phase only: these tests are about rows, the table and exit
    statuses, which the wrong program's AAA (found by the sweep) and a certificate of the right
    one decide; the families (over 1,000 runs a candidate) add nothing to them."""
    proc = run(
        "certify",
        "word_game",
        *candidates,
        "--profile",
        "quick",
        "--examples",
        "0",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--phases",
        "exhaustive",
        "--report-dir",
        str(tmp_path / "reports"),
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc, tmp_path / "reports" / "summary.json"


@pytest.fixture()
def broken_cpp(tmp_path: Path) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    path = tmp_path / "src" / "broken.cpp"
    path.parent.mkdir()
    path.write_text("int main( { return 0 }\n")
    return path


@pytest.mark.slow
def test_several_candidates_give_a_row_each_and_exit_1(tmp_path, broken_cpp):
    proc, summary = certify(tmp_path, str(WRONG), str(broken_cpp), str(RIGHT))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == str(summary)
    data = json.loads(summary.read_text())
    rows = data["candidates"]
    assert [r["spec"] for r in rows] == [str(WRONG), str(broken_cpp), str(RIGHT)]  # the order given
    assert [r["verdict"] for r in rows] == ["WA", "CE", PASSED]
    assert data["exit_status"] == 1 and data["failed"] == 2 and data["seed"] == 3
    assert data["certified"] == 0 and data["incomplete"] == 1
    # each row points at its own report or certificate, and the failing input is the report's, exactly
    wrong_report = json.loads((Path(rows[0]["path"]) / "report.json").read_text())
    assert rows[0]["input"] == wrong_report["input"] == "AAA\n"
    assert json.loads((Path(rows[1]["path"]) / "report.json").read_text())["verdict"] == "CE"
    assert (Path(rows[2]["path"]) / "certificate.json").is_file()
    assert rows[2]["input"] == "" and rows[2]["tests"] > 0
    # the plain-text table (stdout is not a terminal): header, then one line per candidate
    lines = proc.stdout.splitlines()
    head = next(
        i for i, line in enumerate(lines) if line.startswith("candidate ") and "verdict" in line
    )
    table = lines[head + 1 : head + 4]
    assert [line.split()[:2] for line in table] == [
        [str(WRONG), "WA"],
        [str(broken_cpp), "CE"],
        [str(RIGHT), "PASSED"],
    ]
    assert "PASSED (incomplete)" in table[2]
    assert "AAA" in table[0] and "/" not in table[0].split("WA", 1)[1].split()[0]


@pytest.mark.slow
def test_a_folder_is_every_candidate_file_in_it_sorted(tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    shutil.copy(WRONG, folder / "b_wrong.py")
    shutil.copy(RIGHT, folder / "a_right.py")
    (folder / "notes.txt").write_text("not a candidate\n")
    proc, summary = certify(tmp_path, str(folder))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    rows = json.loads(summary.read_text())["candidates"]
    assert [Path(r["spec"]).name for r in rows] == ["a_right.py", "b_wrong.py"]
    assert [r["verdict"] for r in rows] == [PASSED, "WA"]


def test_all_passed_exits_0_and_strict_exits_1_on_incomplete_evidence(tmp_path):
    """Two right programs on a partial plan: both PASSED (incomplete), exit 0, the summary says
    so (never "all certified"); with --strict the same batch exits 1, and no row is counted failed."""
    folder = tmp_path / "subs"
    folder.mkdir()
    shutil.copy(RIGHT, folder / "one.py")
    shutil.copy(RIGHT, folder / "two.py")
    proc, summary = certify(tmp_path, str(folder))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(summary.read_text())
    assert [r["verdict"] for r in data["candidates"]] == [PASSED, PASSED] and data[
        "exit_status"
    ] == 0
    assert "2 passed (incomplete)" in proc.stdout and "all certified" not in proc.stdout
    strict, summary = certify(tmp_path / "strict", str(folder), "--strict")
    assert strict.returncode == 1, strict.stdout + strict.stderr
    data = json.loads(summary.read_text())
    assert data["exit_status"] == 1 and data["failed"] == 0 and data["incomplete"] == 2


def test_one_bad_path_among_several_is_exit_2_naming_it_before_anything_runs(tmp_path):
    missing = tmp_path / "nope.py"
    proc, summary = certify(tmp_path, str(RIGHT), str(missing), str(WRONG))
    assert proc.returncode == 2
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and "candidate 2 of 3" in err[0] and str(missing) in err[0], proc.stderr
    assert "nothing was run" in err[0]
    assert not summary.exists() and proc.stdout == ""
    assert not list((tmp_path / "reports" / "word_game").iterdir())


def test_an_empty_folder_is_a_usage_error(tmp_path):
    (tmp_path / "empty").mkdir()
    proc, _ = certify(tmp_path, str(tmp_path / "empty"))
    assert proc.returncode == 2 and "holds no candidate file" in proc.stderr


@pytest.mark.slow
def test_pytest_route_with_several_candidates_writes_the_summary(tmp_path, broken_cpp):
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="20", PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "2",
            "--candidate",
            f"word_game={WRONG}",
            "--candidate",
            f"word_game={broken_cpp}",
            "--candidate",
            f"word_game={RIGHT}",
            "--candidate-profile",
            "quick",
            "--candidate-examples",
            "0",
            "--candidate-seed",
            "5",
            "--candidate-report-dir",
            str(tmp_path / "reports"),
            "--candidate-phases",
            "exhaustive,random,largest",
        ],  # the summary's rows: the designed families add nothing
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=240,
    )
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "gamecert summary" in proc.stdout
    data = json.loads((tmp_path / "reports" / "summary.json").read_text())
    rows = data["candidates"]
    assert [r["verdict"] for r in rows] == ["WA", "CE", PASSED]
    assert rows[0]["input"] == "AAA\n" and data["seed"] == 5
    assert "candidate/word_game/broken::compile" in proc.stdout
