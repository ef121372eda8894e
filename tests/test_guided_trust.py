"""The guided phase judges by the problem's limits and reads a candidate's text as the candidate's
(issue 44, points 4 and 6).

* ``tests/hostile/cov_forge.py`` answers right and writes a coverage record of its own whose
  branch id is not a number. ``certify --phases guided`` ends as usual (exit 0), and the
  certificate says the record was ignored and came from the program; no "internal error of
  gamecert's". The control: the same record read by the old parser raises, which stopped the
  phase as an internal error.
* The guided phase's instrumented runner has three times the CPU limit (instrumented code is
  slower). A run it let pass whose charged CPU time (all of the test's processes, the cgroup's
  figure) passed the problem's limit, or whose memory reached it, goes to the plain build to be
  judged; the control, a search without the problem's limits (as before), lets it pass.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.judge import guided, guided_phase
from gamecert.engine.run import instrument
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import RunResult

ROOT = Path(__file__).resolve().parent.parent
FORGE = ROOT / "tests" / "hostile" / "cov_forge.py"


@pytest.mark.slow
def test_a_forged_coverage_record_is_the_programs(tmp_path):
    env = {**os.environ, "GAMECERT_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "gamecert", "certify", "word_game", str(FORGE), "--phases", "guided",
         "--budget", "30", "--report-dir", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    cert = json.loads((Path(done.stdout.strip().splitlines()[-1]) / "certificate.json").read_text())
    notes = "\n".join(cert["notes"])
    assert guided_phase.STOPPED not in notes and "internal error" not in done.stdout, notes
    assert "came from the program" in notes, notes


def test_the_old_reader_raised_on_the_forged_record():
    """The control: the record cov_forge.py writes, read by the parser alone (no guard), raises."""
    import base64

    forged = base64.b64encode(json.dumps([["not-a-number", 1, 1]]).encode()).decode()
    with pytest.raises(ValueError):
        instrument._read_python({"br": forged, "cmps": ""})
    cov = instrument.read_coverage(f"@@gcov br={forged} cmps=\n", "python")
    assert cov is not None and cov.malformed and not cov.sites


class _Judge:
    """A judge whose instrumented run passed (under the looser limits) with these figures."""

    def __init__(self, result: RunResult) -> None:
        self.last_result = result

    def run_one(self, *args, **kwargs):
        return None


def _result(cpu_s: float, rss_mb: float) -> RunResult:
    return RunResult("ok", "Alice\n", "", 0, None, cpu_s, cpu_s + 0.1, rss_mb, "")


@pytest.mark.parametrize(
    "cpu_s,rss_mb,verdict", [(3.517, 4.0, "TLE"), (0.2, 262.0, "MLE"), (1.5, 100.0, "")]
)
def test_a_run_past_the_problems_limits_goes_to_the_plain_build(cpu_s, rss_mb, verdict):
    entry = registry.get("word_game")
    built = instrument.Instrumented(None, "c", "test")
    sent: list[str] = []

    def suspect(inst, text):
        sent.append(text)
        return "the plain build's failure"

    search = guided.Search(
        entry, _Judge(_result(cpu_s, rss_mb)), built, 1, suspect, Limits(2.0, 256)
    )
    assert search.run(("AB",), "AB\n") is bool(verdict)
    assert sent == (["AB\n"] if verdict else [])
    assert search.over_limits(_result(cpu_s, rss_mb)) == verdict
    # control: without the problem's limits (the search as it was) the run passes unjudged
    old = guided.Search(entry, _Judge(_result(cpu_s, rss_mb)), built, 1, suspect)
    sent.clear()
    assert old.run(("AB",), "AB\n") is False and sent == []
