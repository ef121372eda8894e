"""A test's memory is all of it, and nothing of a test outlives it (gamecert/engine/run/memcg.py,
supervisor/_sv_box.py).

Hostile programs (tests/hostile/) hold memory where a per-process limit does not look: anonymous
files filled with ``write`` (memfd.py, memfd.c), memory split over processes each under the limit
(split.py), tmpfs pages (tmpfs.py), a SysV segment (ipc.c), socket and pipe buffers
(buffers.c); and ipc.c leaves SysV objects and a
POSIX queue for the next test. Each is checked from outside: the verdict, the kernel's own
figures for the runner's cgroup read from the host, and the sandbox's IPC namespace read with
``nsenter``. Sizes are small (a 64 MB limit, at most 128 MB asked for), so that a cap that failed
could not take the machine.

The control: with the memory controller turned off (``GAMECERT_CGROUPS=0``) the same memfd flood
passes, and the certificate's accounting line says memory was limited per process only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gamecert.engine.run import contain, memcg
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner

HOSTILE = Path(__file__).resolve().parent / "hostile"
LIMITS = Limits(time_s=2.0, memory_mb=64)
contained = contain.probe().enabled
needs_controller = pytest.mark.skipif(
    not (contained and memcg.available()),
    reason="no memory controller gamecert can use here (root, cgroup v1 or v2)",
)


def program(tmp_path: Path, name: str) -> Candidate:
    folder = tmp_path / "prog"
    folder.mkdir(exist_ok=True)
    shutil.copyfile(HOSTILE / name, folder / name)
    return Candidate.parse(str(folder / name))


def kernel_figures(runner) -> dict[str, int]:
    """The runner's memory cgroup as the kernel sees it, read from the host."""
    path = Path(runner.memory.path)
    if runner.memory.version == 1:
        return {
            "limit": int((path / "memory.limit_in_bytes").read_text()),
            "max_usage": int((path / "memory.max_usage_in_bytes").read_text()),
        }
    return {
        "limit": int((path / "memory.max").read_text()),
        "max_usage": int((path / "memory.peak").read_text()),
    }


MEMFD = [("memfd.py", True), ("memfd.py", False), ("memfd.c", True)]


@needs_controller
@pytest.mark.parametrize(
    "name,fork_server", MEMFD, ids=["python-zygote", "python-plain", "c-native"]
)
def test_anonymous_files_are_the_tests_memory(tmp_path: Path, name: str, fork_server: bool) -> None:
    """128 MB in eight unmapped anonymous files, under a 64 MB limit: MLE; the kernel never let the
    cgroup past the limit and its headroom; the next test on the same runner starts from zero."""
    with open_runner(program(tmp_path, name), LIMITS, fork_server=fork_server) as runner:
        flood = runner.run("8 16\nhello\n")
        small = runner.run("1 1\nhello\n")
        figures = kernel_figures(runner)
    assert flood.status == "mle", flood
    assert "memory" in flood.detail
    assert flood.started == (
        "native" if name.endswith(".c") else "zygote" if fork_server else "exec"
    )
    assert figures["limit"] == (64 + memcg.HEADROOM_MB) << 20
    assert figures["max_usage"] <= figures["limit"]
    assert small.status == "ok" and small.stdout.strip() == "hello", small
    assert small.max_rss_mb < 64


@needs_controller
@pytest.mark.parametrize("kind", [0, 1, 2], ids=["unix-stream", "unix-datagram", "pipes"])
def test_socket_and_pipe_buffers_are_the_tests_memory(tmp_path: Path, kind: int) -> None:
    """Socket pairs or pipes filled until they take no more, as many as the descriptor limit
    allows: the kernel's buffers are charged to the test's cgroup, so the flood is MLE, a few of
    them are not (the figure is the test's), and the next test starts from zero."""
    with open_runner(program(tmp_path, "buffers.c"), LIMITS) as runner:
        few = runner.run(f"{kind} 2\n")
        flood = runner.run(f"{kind} 0\n")
        after = runner.run(f"{kind} 1\n")
        figures = kernel_figures(runner)
    assert few.status == "ok" and few.stdout.startswith("2 made"), few
    assert flood.status == "mle", (flood, flood.stdout)
    assert after.status == "ok" and after.stdout.startswith("1 made"), after
    assert figures["max_usage"] <= figures["limit"]


@pytest.mark.skipif(not contained, reason="the control compares with a contained run")
def test_the_buffer_flood_passes_where_only_pages_are_counted(tmp_path: Path, monkeypatch) -> None:
    """The control: without the memory controller (limits per process) the same flood of socket
    buffers passes, over the limit by what the kernel holds for it."""
    monkeypatch.setenv("GAMECERT_CGROUPS", "0")
    with open_runner(program(tmp_path, "buffers.c"), LIMITS) as runner:
        flood = runner.run("0 400\n")  # (bounded: without the cgroup nothing stops it but the time)
    assert flood.status == "ok", flood
    assert int(flood.stdout.split()[2]) > 64 << 10, flood.stdout  # KB queued: more than the limit


@needs_controller
def test_memory_split_over_processes_is_one_figure(tmp_path: Path) -> None:
    """Six children of 20 MB each, every one under the 64 MB limit, together 120 MB: MLE."""
    with open_runner(program(tmp_path, "split.py"), LIMITS) as runner:
        split = runner.run("6 20\nhello\n")
        alone = runner.run("1 20\nhello\n")
    assert split.status == "mle", split
    assert alone.status == "ok", alone


@needs_controller
def test_tmpfs_pages_are_the_tests_memory(tmp_path: Path) -> None:
    """48 MB written to the sandbox's /tmp (its size cap is 64 MB) under a 32 MB limit: MLE; the
    file is gone for the next test, and so is its charge."""
    limits = Limits(time_s=2.0, memory_mb=32)
    with open_runner(program(tmp_path, "tmpfs.py"), limits) as runner:
        big = runner.run("48\nhello\n")
        small = runner.run("1\nhello\n")
    assert big.status == "mle", big
    assert small.status == "ok" and small.max_rss_mb < 32, small


def _namespace_objects(runner) -> str:
    """The SysV objects in the sandbox's IPC namespace, read from the host."""
    pid = runner.server_pid
    out = []
    for kind in ("shm", "msg", "sem"):
        text = subprocess.run(
            ["nsenter", "-t", str(pid), "--ipc", "cat", f"/proc/sysvipc/{kind}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        out += text.splitlines()[1:]
    return "\n".join(out)


@pytest.mark.skipif(
    not contained or os.geteuid() != 0 or not shutil.which("nsenter"),
    reason="needs the sandbox, root and nsenter to look into its IPC namespace",
)
def test_sysv_and_posix_ipc_do_not_outlive_a_test(tmp_path: Path) -> None:
    """ipc.c makes a SysV segment, queue and semaphore set and a POSIX queue, and answers wrong if
    an earlier test left them: three tests in a row on one runner are all right, and the sandbox's
    IPC namespace is empty after each, read from outside."""
    with open_runner(program(tmp_path, "ipc.c"), LIMITS) as runner:
        for _ in range(3):
            result = runner.run("4\nhello\n")
            assert result.status == "ok" and result.stdout == "hello\n", result
            assert _namespace_objects(runner) == ""


@pytest.mark.skipif(not contained, reason="the control compares with a contained run")
def test_the_ipc_program_does_see_state_left_where_nothing_clears_it(tmp_path: Path) -> None:
    """The control: not contained (the host's IPC namespace, nothing cleared), the second test
    says "carried 15": the program detects every kind it leaves behind."""
    candidate = program(tmp_path, "ipc.c")
    try:
        with open_runner(candidate, LIMITS, contain=False) as runner:
            first = runner.run("1\nhello\n")
            second = runner.run("1\nhello\n")
    finally:
        subprocess.run(candidate.argv, input="cleanup\n", text=True, check=False)
    assert first.stdout == "hello\n", first
    assert second.stdout.strip() == "carried 15", second


@needs_controller
def test_a_sysv_segment_is_the_tests_memory(tmp_path: Path) -> None:
    """A 100 MB SysV segment, touched and detached (held by no process), under a 64 MB limit: MLE."""
    with open_runner(program(tmp_path, "ipc.c"), LIMITS) as runner:
        held = runner.run("100\nhello\n")
        after = runner.run("1\nhello\n")
    assert held.status == "mle", held
    assert after.status == "ok" and after.stdout == "hello\n", after


@pytest.mark.skipif(not contained, reason="needs the sandbox")
def test_without_the_controller_memory_is_per_process_and_the_line_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: no memory cgroup (GAMECERT_CGROUPS=0): the 128 MB memfd flood under a 64 MB
    limit passes, and the accounting line says memory was limited per process only."""
    monkeypatch.setenv("GAMECERT_CGROUPS", "0")
    with open_runner(program(tmp_path, "memfd.py"), LIMITS) as runner:
        flood = runner.run("8 16\nhello\n")
        line = runner.accounting
    assert flood.status == "ok", flood
    assert "memory limited per process only" in line


@needs_controller
def test_the_accounting_line_names_the_memory_controller(tmp_path: Path) -> None:
    with open_runner(program(tmp_path, "memfd.py"), LIMITS) as runner:
        line = runner.accounting
        members_during = Path(runner.memory.path, "cgroup.procs").read_text().split()
    assert runner.memory is None  # closed with the runner
    assert "cgroup v" in line and "memory controller" in line and "MLE at 64 MB" in line
    assert members_during == [], (
        "between tests the memory cgroup holds no process (the supervisor stays out)"
    )
