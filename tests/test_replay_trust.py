"""Replay never trusts a report.json it did not write (issue 44, point 3).

A report folder from someone else names a command and limits of its choosing. Here the forged
folders are made by writing a report.json straight to disk (as anybody could), and one honest
report is written by gamecert's own :func:`write_report`. Checked from outside: the replay's
exit status and lines, and the verdict under the limits used.

* A forged report without a program on the command line is refused (exit 2, one line saying how
  to name the program) and its command is never run; the control marks the same file as
  gamecert's own and sees it run (a verdict line).
* A forged report that claims a day of CPU and a terabyte replayed on ``tests/hostile/
  replay_burn.py`` (3 s of CPU, word_game's limit is 2 s) is TLE under the game's limit, with a
  line saying the report's limits were not used; the control, replay with the report's limits as
  before, lets the program run its 3 s and answer (no TLE).
* gamecert's own report replays on its own program, and says so.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine import replay as replay_mod
from gamecert.engine.report import report_files
from gamecert.engine.report.reports import FailureReport
from gamecert.engine.run import limits as limits_mod

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "examples" / "word_game" / "wrong.py"
BURN = ROOT / "tests" / "hostile" / "replay_burn.py"

BASE = FailureReport(
    game="word_game",
    candidate="wrong",
    candidate_spec=str(WRONG),
    verdict="WA",
    verdict_meaning="wrong answer",
    input="AAA\n",
    expected="Alice\n",
    got="Bob\n",
    reason="expected 'Alice', got 'Bob'",
    seed=7,
    profile="quick",
    phase="exhaustive",
    size=3,
    explanation="",
    created="20240506-070809-123",
    time_limit_s=2.0,
    memory_limit_mb=256,
)


def _forge(folder: Path, report: FailureReport) -> Path:
    """A report folder written by hand: report.json and input.in, no help from gamecert."""
    folder.mkdir(parents=True)
    (folder / "report.json").write_text(json.dumps(report.to_json(folder), indent=2))
    (folder / "input.in").write_text(report.input)
    return folder


def _replay(folder: Path, *more: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamecert", "replay", str(folder), *more],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def _env(tmp_path: Path) -> dict[str, str]:
    import os

    return {**os.environ, "GAMECERT_CACHE": str(tmp_path / "cache")}


def test_a_forged_report_is_not_run_without_a_program_given(tmp_path, monkeypatch):
    folder = _forge(tmp_path / "forged", BASE)
    done = _replay(folder, env=_env(tmp_path))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "was not written by gamecert" in done.stderr and "--candidate" in done.stderr
    assert "Traceback" not in done.stderr and "verdict" not in done.stdout
    # control: the same file taken as gamecert's own runs the command it names
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    from gamecert.engine.report import written

    written.remember((folder / "report.json").read_text())
    again = _replay(folder, env=_env(tmp_path))
    assert "verdict:  WA" in again.stdout, again.stdout + again.stderr
    assert "program: the report's own" in again.stdout


@pytest.mark.slow
def test_a_reports_limits_are_never_used(tmp_path, monkeypatch):
    forged = dataclasses.replace(BASE, time_limit_s=86_400.0, memory_limit_mb=1_000_000)
    folder = _forge(tmp_path / "forged", forged)
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    out = replay_mod.replay(folder, str(BURN))
    text = "\n".join(out.lines)
    assert "program: given on the command line" in text
    assert "replay runs under the game's, 2 s and 256 MB" in text, text
    assert "verdict:  TLE" in text, text
    # control: replay under the report's limits, as before, lets the burn run and answer
    honest = limits_mod.game_limits
    monkeypatch.setattr(
        replay_mod,
        "game_limits",
        lambda game, *_: honest(game, forged.time_limit_s, 4096),
    )
    text = "\n".join(replay_mod.replay(folder, str(BURN)).lines)
    assert "verdict:  TLE" not in text and "verdict:" in text, text


def test_gamecerts_own_report_replays_its_own_program(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    folder = report_files.write_report(BASE, tmp_path / "reports")
    done = _replay(folder, env=_env(tmp_path))
    assert "program: the report's own" in done.stdout, done.stdout + done.stderr
    assert "verdict:  WA" in done.stdout and done.returncode == 1
    # changed since it was written: someone else's now
    data = json.loads((folder / "report.json").read_text())
    data["candidate_spec"] = "/bin/sh"
    (folder / "report.json").write_text(json.dumps(data))
    assert _replay(folder, env=_env(tmp_path)).returncode == 2
