"""The plain judge runs the programs it is handed in a box (issue 44, point 2).

``gamecert tests --check PKG --against PROG`` judges PROG without gamecert's engine
(:mod:`gamecert.engine.testpack.plainjudge`); PROG is the untrusted program. The hostile
programs ``tests/hostile/judge_home.py`` and ``judge_home.c`` write a file into the user's home
(``HOME`` points at a folder of the test's own) and echo their input. Checked from outside:
after judging, the home holds no file, and the verdicts are still the judge's (OK: the
package's checker accepts the echo, so the box did not break the program). The control runs
the same programs with the box taken away (the plain subprocess of before) and finds the file.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gamecert.engine.testpack import plainbox, plainjudge

HOSTILE = Path(__file__).parent / "hostile"
#: accepts any output: exit 0
CHECKER = "import sys\nsys.exit(0)\n"


def _package(tmp_path: Path) -> Path:
    package = tmp_path / "pkg"
    (package / "tests").mkdir(parents=True)
    for name in ("01", "02"):
        (package / "tests" / name).write_text(f"3 {name}\n")
        (package / "tests" / f"{name}.a").write_text("secret answer\n")
    (package / "checker.py").write_text(CHECKER)
    return package


@pytest.mark.parametrize("name", ["judge_home.py", "judge_home.c"])
def test_the_plain_judge_keeps_programs_out_of_the_home(tmp_path, monkeypatch, name):
    if name.endswith(".c") and shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    package = _package(tmp_path)
    verdicts = plainjudge.judge(package, HOSTILE / name, 2.0, 256)
    assert verdicts == ["OK", "OK"], verdicts
    assert list(home.iterdir()) == []
    # control: without the box the same program writes into the home
    monkeypatch.setattr(plainbox, "box", lambda argv, **_: list(argv))
    assert plainjudge.judge(package, HOSTILE / name, 2.0, 256) == ["OK", "OK"]
    assert (home / "gamecert_was_here").is_file()


def test_the_plain_judge_limits_still_hold_in_the_box(tmp_path):
    """The problem's CPU limit is set inside the box: a program that burns is TLE."""
    package = _package(tmp_path)
    burn = tmp_path / "burn.py"
    burn.write_text("while True:\n    pass\n")
    assert plainjudge.judge(package, burn, 1.0, 256, stop_at_first=True)[0] == "TLE"


def test_no_box_no_run(tmp_path, monkeypatch):
    """Where no box can be made the untrusted program is not run: a clear error, not a bare run."""
    monkeypatch.setattr(plainbox, "_bwrap", lambda: None)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    with pytest.raises(plainbox.NoBox, match="not run outside a box"):
        plainjudge.judge(_package(tmp_path), HOSTILE / "judge_home.py", 2.0, 256)
    assert list(home.iterdir()) == []


@pytest.mark.slow
def test_the_plain_judges_memory_is_the_kernels_figure(tmp_path, monkeypatch):
    """``tests/hostile/forkmem.c``: eight children hold 64 MB each at once (512 MB) under a 128 MB
    limit, each under it alone. The plain judge's verdict is MLE: the run's memory cgroup (root)
    charged all of it, or its OOM killer fired. The control, with no cgroup
    (``GAMECERT_CGROUPS=0``: the program's own peak resident memory, as before), passes it."""
    if shutil.which("gcc") is None or os.geteuid() != 0:
        pytest.skip("needs gcc and root (a memory cgroup)")
    probe = plainbox.MemoryBox.make(16)
    if probe is None:
        pytest.skip("no memory controller here")
    probe.close()
    package = _package(tmp_path)
    usage: list[tuple[float, float]] = []
    verdicts = plainjudge.judge(package, HOSTILE / "forkmem.c", 2.0, 128, usage=usage)
    assert verdicts == ["MLE", "MLE"], (verdicts, usage)
    assert all(mb >= 128 for _, mb in usage), usage
    monkeypatch.setenv("GAMECERT_CGROUPS", "0")
    usage.clear()
    assert plainjudge.judge(package, HOSTILE / "forkmem.c", 2.0, 128, usage=usage) == ["OK", "OK"]
    assert all(mb < 128 for _, mb in usage), usage
