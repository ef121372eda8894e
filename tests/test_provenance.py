"""Provenance in reports and certificates, and what ``gamecert replay`` does with it.

The hashes are recomputed here with hashlib on the files themselves; the compiler's version
with the compiler itself; the judge's fields with ``platform``. The report of the wrong Python
program is made once per module (a certification of seconds) and read by the three tests that
only read it or replay it.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RIGHT = ROOT / "examples" / "word_game" / "correct.py"
WRONG = ROOT / "examples" / "word_game" / "wrong.py"
C_RIGHT = ROOT / "tests" / "programs" / "c" / "word_game_right.c"


def run(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="40")
    proc = subprocess.run(
        [sys.executable, "-m", "gamecert", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc


def certify(tmp_path: Path, candidate: Path, *extra: str) -> Path:
    proc = run(
        "certify",
        "word_game",
        str(candidate),
        "--profile",
        "quick",
        "--examples",
        "0",
        "--seed",
        "2",
        "--jobs",
        "1",
        "--report-dir",
        str(tmp_path / "reports"),
        *extra,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return Path(proc.stdout.strip().splitlines()[-1])


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def judge_fields_are_right(prov: dict) -> None:
    assert prov["gamecert_version"] == version("gamecert")
    assert prov["python_version"].startswith(platform.python_version())
    assert prov["os"] == platform.platform()


@pytest.fixture(scope="module")
def wrong_report(tmp_path_factory) -> tuple[Path, Path]:
    """A copy of the wrong program (``w.py``) and the report of its certification. A test that
    edits the copy puts its bytes back before it ends."""
    tmp = tmp_path_factory.mktemp("wrong-report")
    src = tmp / "w.py"
    shutil.copy(WRONG, src)
    return src, certify(tmp, src)


@pytest.mark.slow
def test_a_report_records_the_source_hash_and_the_judge(wrong_report):
    src, path = wrong_report
    data = json.loads((path / "report.json").read_text())
    prov = data["provenance"]
    assert prov["language"] == "python" and prov["source"] == str(src.resolve())
    assert prov["source_sha256"] == sha256(src)
    assert prov["binary_sha256"] == "" and prov["compile_command"] == ""
    judge_fields_are_right(prov)
    md = (path / "report.md").read_text()
    assert sha256(src) in md and f"gamecert {version('gamecert')}" in md


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_a_certificate_records_the_binary_the_compile_command_and_the_compiler(tmp_path):
    path = certify(tmp_path, C_RIGHT)
    data = json.loads((path / "certificate.json").read_text())
    prov = data["provenance"]
    assert data["verdict"] in (
        "CERTIFIED",
        "PASSED (incomplete)",
    )  # passed: the evidence is not this test's
    assert prov["language"] == "c" and prov["source_sha256"] == sha256(C_RIGHT)
    words = prov["compile_command"].split()
    binary = Path(words[words.index("-o") + 1])
    assert binary.is_file() and prov["binary_sha256"] == sha256(binary)
    assert "-DONLINE_JUDGE" in words and "-O2" in words
    first = (
        subprocess.run(["gcc", "--version"], capture_output=True, text=True)
        .stdout.splitlines()[0]
        .strip()
    )
    assert prov["compiler_version"] == first
    judge_fields_are_right(prov)


@pytest.mark.slow
def test_replay_warns_once_the_program_changed(wrong_report):
    src, path = wrong_report
    same = run("replay", str(path))
    assert same.returncode == 1 and "changed" not in same.stdout
    original = src.read_bytes()
    src.write_bytes(original + b"# edited\n")
    try:
        changed = run("replay", str(path))
    finally:
        src.write_bytes(original)
    warnings = [line for line in changed.stdout.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "changed since the report" in warnings[0]
    assert sha256(src)[:12] in warnings[0]


@pytest.mark.slow
def test_replay_on_another_candidate_says_so(wrong_report, tmp_path):
    src, path = wrong_report
    other = run("replay", str(path), "--candidate", str(RIGHT))
    assert other.returncode == 0, other.stdout + other.stderr
    assert "ANOTHER program" in other.stdout and str(RIGHT) in other.stdout
    assert "got:      Alice" in other.stdout
    again = run("replay", str(path), "--candidate", str(src))
    assert again.returncode == 1 and "got:      Bob" in again.stdout
    missing = run("replay", str(path), "--candidate", str(tmp_path / "none.py"))
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_replay_builds_with_the_reports_compile_command(tmp_path):
    """A program wrong only when built with -DBUG: the report made with --compile adding it must
    replay as WA (built the same way), though the default build of the same source is right."""
    src = tmp_path / "bug.c"
    src.write_text(
        C_RIGHT.read_text().replace(
            'puts(x ? "Alice" : "Bob");',
            "#ifdef BUG\n    if (strlen(word) == 3) x = !x;\n#endif\n"
            '    puts(x ? "Alice" : "Bob");',
        )
    )
    path = certify(tmp_path, src, "--compile", "gcc -O2 -DBUG -o {exe} {src}")
    data = json.loads((path / "report.json").read_text())
    assert (
        data["verdict"] == "WA"
        and data["provenance"]["compile_option"] == "gcc -O2 -DBUG -o {exe} {src}"
    )
    assert "-DBUG" in data["provenance"]["compile_command"]
    replay = run("replay", str(path))
    assert replay.returncode == 1 and "verdict:  WA" in replay.stdout, replay.stdout + replay.stderr
    default = run("replay", str(path), "--candidate", str(src))  # the default build: right
    assert default.returncode == 0, default.stdout
