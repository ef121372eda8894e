"""The asan build's box is fit to the problem's limit (issue 44, points 5 and 8).

Round 3 saw, from the host, a box cgroup with a 2,214,592,512-byte limit (2048 MB and the
memory controller's 64 MB headroom) hold a test's thirteen processes: the sanitizer phase's
``asan`` runner, whose cap was max(4 x the limit, 2 GB) whatever the problem said. Its cap is now
three times the problem's limit and 128 MB (:func:`gamecert.engine.judge.sanitize.asan_memory_mb`).
``tests/hostile/asan_fill.c`` touches 1200 MB and then answers right. Checked from outside: the
runner's memory cgroup limit read from the host, and the run's own figures: stopped by the cap
(not judged, counted as capped), with the cgroup never past it. The control, the old cap, lets
the run touch all of it and answer.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.judge import sanitize, sanitize_builds
from gamecert.engine.run import contain, memcg
from gamecert.engine.run.limits import game_limits
from gamecert.engine.run.sandbox import Candidate

FILL = Path(__file__).resolve().parent / "hostile" / "asan_fill.c"
needs = pytest.mark.skipif(
    shutil.which("gcc") is None or not (contain.probe().enabled and memcg.available()),
    reason="needs gcc, a sandbox and a memory controller gamecert can use (root)",
)


def _fill(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int, float]:
    """(the run's status, the runner's cgroup limit in bytes, its peak in MB) for asan_fill.c."""
    entry = registry.get("word_game")
    copy = tmp_path / "asan_fill.c"
    copy.write_text(FILL.read_text())
    check = sanitize.Check(entry, Candidate.parse(str(copy)), game_limits(entry.game))
    try:
        found = check.run("asan", entry.game.parse_input("ABBA"), "ABBA\n")
        assert found == (None, None)
        b = check.open["asan"]
        limit = int((Path(b.runner.memory.path) / "memory.limit_in_bytes").read_text())
        result = b.judge.last_result
        return result.status, limit, result.max_rss_mb
    finally:
        check.close()


@needs
@pytest.mark.slow
def test_the_asan_box_is_fit_to_the_problems_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    status, limit, peak = _fill(tmp_path, monkeypatch)
    cap = sanitize.asan_memory_mb(256)
    assert limit == (cap + memcg.HEADROOM_MB) << 20 and limit < 2_214_592_512
    assert status == "mle" and peak <= cap + memcg.HEADROOM_MB, (status, peak)
    # control: the old cap (at least 2 GB) lets the run hold all of its 1200 MB and answer
    monkeypatch.setattr(sanitize_builds, "asan_memory_mb", lambda mb: max(4 * mb, 2048))
    (tmp_path / "old").mkdir()
    status, limit, peak = _fill(tmp_path / "old", monkeypatch)
    assert limit == 2_214_592_512 and status == "ok" and peak > 1100, (status, limit, peak)
