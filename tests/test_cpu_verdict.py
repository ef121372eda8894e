"""A test one of whose processes the CPU limit ended is TLE (issue 44, point 6).

``tests/hostile/clone_parent_cpu.c`` answers right at once, then waits for a sibling made with
``clone(CLONE_PARENT)`` (a child of the test's parent, not of the test) that burns 3.5 s of CPU
against a 2 s limit. The CPU backstop (``RLIMIT_CPU``) ends the sibling with SIGXCPU, the test's
main process then exits 0: the verdict was OK. Now the supervisor counts the processes it reaps
that SIGXCPU ended, and such a test is TLE. Checked from outside: the verdict, and the
supervisor's report. The control: the same report without that count classifies as OK.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gamecert.engine.run import results, sandbox
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner

HOSTILE = Path(__file__).resolve().parent / "hostile"
LIMITS = Limits(time_s=2.0, memory_mb=256)


@pytest.mark.slow
@pytest.mark.parametrize("native", [True, False], ids=["native", "exec"])
def test_a_sibling_ended_by_the_cpu_limit_makes_the_test_tle(tmp_path, monkeypatch, native):
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    if not native:
        monkeypatch.setenv("GAMECERT_NATIVE_FORKSERVER", "0")
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "prog" / "clone_parent_cpu.c"
    source.parent.mkdir()
    shutil.copyfile(HOSTILE / "clone_parent_cpu.c", source)
    reports: list[dict] = []
    real = results.classify

    def keep(report, *args, **kwargs):
        reports.append(dict(report))
        return real(report, *args, **kwargs)

    monkeypatch.setattr(sandbox, "classify", keep)
    with open_runner(Candidate.parse(str(source)), LIMITS) as runner:
        result = runner.run("ZADACHA\n")
    assert result.status == "tle" and result.stdout == "Alice\n", result.describe()
    first = reports[0]
    charged = max(first["utime"] + first["stime"], first.get("cg_cpu", 0.0))
    sibling = first.get("others_xcpu", 0) >= 1 and first["status"] == 0
    if "CPU-time limit" not in result.detail or not sibling:
        # the other route to the same verdict, by timing: the test's charged CPU (all its
        # processes, the kernel's figure) passed the limit before the sibling's backstop fired,
        # and the supervisor ended the test (CI, busy: the main process killed, status 9, with
        # 1.05 s user and 0.95 s system charged), or a re-run near the limit did
        assert max(result.cpu_s, charged) > LIMITS.time_s, (result.describe(), first)
        assert "CPU" in result.detail, result.describe()
        return
    assert result.exit_code == 0, result.describe()
    # control: without the count of processes SIGXCPU ended, the same figures (the charged CPU
    # time under the limit: the backstop ended the sibling at its own 2 s) are a pass
    old = {k: v for k, v in first.items() if k != "others_xcpu"}
    expected = "ok" if charged <= LIMITS.time_s else "tle"
    assert real(old, 6, "Alice\n", "", LIMITS, "exec").status == expected
