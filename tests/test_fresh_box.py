"""Nothing of one test reaches the next, and every byte and CPU second of it is counted by the
kernel (gamecert/engine/run/contain.py, cgroups.py, memcg.py, testio.py, supervisor/).

Hostile programs of ours (tests/hostile/traces.py, ioprio.c, children.c, output.c) leave state
where a test's clean-up used not to look, hold memory where the "base" hid it, burn CPU where no
``wait4`` sees it, and write output and scratch files the caps used to misjudge. Each is checked
from outside (the sandbox's network namespace and box read with ``nsenter``, the kernel's cgroup
figures and I/O priorities read from the host) and each has its control: the same program where
the mechanism is off (``GAMECERT_DARK_NET=0``, ``GAMECERT_CGROUPS=0``, a supervisor told no way to
empty its memory cgroup, the old file cap) or outside any sandbox shows the trace or the miss.
Sizes are small (a 64 MB limit), so that a cap that failed could not take the machine.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamecert.engine.run import cgroups, contain, memcg
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner
from gamecert.engine.run.testio import _read_head_fd

HOSTILE = Path(__file__).resolve().parent / "hostile"
LIMITS = Limits(time_s=1.0, memory_mb=64)
ROOT_SANDBOX = contain.probe().enabled and os.geteuid() == 0
needs_root_sandbox = pytest.mark.skipif(
    not ROOT_SANDBOX, reason="needs the sandbox as root (cgroups, nsenter)"
)
needs_nsenter = pytest.mark.skipif(
    not (ROOT_SANDBOX and shutil.which("nsenter")), reason="needs nsenter as root"
)


def program(tmp_path: Path, name: str) -> Candidate:
    folder = tmp_path / "prog"
    folder.mkdir(exist_ok=True)
    shutil.copyfile(HOSTILE / name, folder / name)
    return Candidate.parse(str(folder / name))


def supervisor(runner) -> int:
    """The host pid of the supervisor itself (PID 1 in the sandbox; not its launcher)."""
    for pid in sorted(runner.supervisor_pids):
        status = Path(f"/proc/{pid}/status").read_text()
        nspid = next(line.split()[1:] for line in status.splitlines() if line.startswith("NSpid:"))
        if nspid[-1] == "1" and len(nspid) > 1:
            return pid
    raise AssertionError(f"no supervisor among {runner.supervisor_pids}")


def inside(runner, *argv: str, ns: str = "--net") -> str:
    """A command run from the host in one of the sandbox's namespaces."""
    return subprocess.run(
        ["nsenter", "-t", str(supervisor(runner)), ns, *argv],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


# -- the network: no connection of one test is there in the next -------------------------------


@needs_nsenter
def test_no_tcp_connection_outlives_a_test(tmp_path: Path) -> None:
    """traces.py connects to itself and closes first (TIME_WAIT for a minute) and answers wrong
    if it finds a TCP socket: the sandbox's loopback is down, so three tests in a row are right,
    and the namespace, read from the host, has no TCP socket and its loopback is down."""
    with open_runner(program(tmp_path, "traces.py"), LIMITS) as runner:
        for word in ("a", "b", "c"):
            result = runner.run(f"net\n{word}\n")
            assert result.status == "ok" and result.stdout == f"{word}\n", result
        assert inside(runner, "cat", "/proc/net/tcp").splitlines()[1:] == []
        lo = inside(runner, "cat", "/proc/net/dev")
        assert "lo:" in lo
        flags = inside(
            runner,
            "python3",
            "-c",
            "import socket,fcntl,struct; s=socket.socket(); "
            "print(struct.unpack('16sH', fcntl.ioctl(s, 0x8913, struct.pack('16sH', b'lo', 0)))[1])",
        )
        assert int(flags) & 1 == 0  # IFF_UP off


@needs_nsenter
def test_the_network_program_does_see_time_wait_with_loopback_up(
    tmp_path: Path, monkeypatch
) -> None:
    """The control: with bubblewrap's own namespace (``GAMECERT_DARK_NET=0``: loopback up, as
    before), the second test finds the first one's connection in TIME_WAIT and answers wrong."""
    monkeypatch.setenv("GAMECERT_DARK_NET", "0")
    with open_runner(program(tmp_path, "traces.py"), LIMITS) as runner:
        first = runner.run("net\na\n")
        second = runner.run("net\nb\n")
        assert first.stdout == "a\n"
        assert second.stdout.startswith("carried: 06"), second  # 06: TIME_WAIT
        assert inside(runner, "cat", "/proc/net/tcp").splitlines()[1:]


# -- the box folders themselves, and the I/O priority ------------------------------------------


@needs_nsenter
@pytest.mark.parametrize("fork_server", [True, False], ids=["zygote", "plain"])
def test_attributes_of_the_box_folders_do_not_outlive_a_test(
    tmp_path: Path, fork_server: bool
) -> None:
    """traces.py sets an extended attribute and a mode on /box and /tmp themselves (no inode is
    added: the old clean-up did not look) and answers wrong if it finds them: every test is
    right, and from the host /box has no attribute and its mode back after the clean-up."""
    with open_runner(program(tmp_path, "traces.py"), LIMITS, fork_server=fork_server) as runner:
        for word in ("a", "b"):
            result = runner.run(f"attrs /tmp\n{word}\n")
            assert result.status == "ok" and result.stdout == f"{word}\n", result
        runner.run("none\nc\n")  # (the clean-up of a test runs before the next one starts)
        seen = inside(
            runner,
            "python3",
            "-c",
            "import os; print(os.listxattr('/box'), os.listxattr('/tmp'), "
            "oct(os.stat('/box').st_mode & 0o7777))",
            ns="--mount",
        )
        assert seen.split() == ["[]", "[]", "0o777"], seen


def test_the_attribute_program_does_see_what_it_left(tmp_path: Path) -> None:
    """The control: run twice outside any sandbox in folders of its own, traces.py finds on its
    second run the attributes and mode it set on its first."""
    work, scratch = tmp_path / "work", tmp_path / "scratch"
    work.mkdir()
    scratch.mkdir()
    runs = [
        subprocess.run(
            [sys.executable, str(HOSTILE / "traces.py")],
            input="attrs\nok\n",
            cwd=work,
            env={**os.environ, "TMPDIR": str(scratch)},
            capture_output=True,
            text=True,
        )
        for _ in range(2)
    ]
    assert runs[0].stdout == "ok\n"
    assert runs[1].stdout.startswith("carried: ") and "user.trace" in runs[1].stdout


def _ioprio(pid: int) -> int:
    return ctypes.CDLL(None, use_errno=True).syscall(
        252 if os.uname().machine == "x86_64" else 31, 1, pid
    )


@needs_root_sandbox
@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="ioprio_get's number")
@pytest.mark.parametrize(
    "name,fork_server",
    [("traces.py", True), ("ioprio.c", True), ("ioprio.c", False)],
    ids=["zygote", "native", "exec"],
)
def test_an_io_priority_set_on_the_supervisor_is_not_inherited(
    tmp_path: Path, name: str, fork_server: bool, monkeypatch
) -> None:
    """The program makes every process it sees idle for I/O (the supervisor and a fork server,
    same user) and answers wrong if it starts idle: the attack lands (the supervisor is idle,
    read from the host), yet every test starts with a fresh process's priority."""
    if not fork_server:
        monkeypatch.setenv("GAMECERT_NATIVE_FORKSERVER", "0")
    line = "ioprio all" if name.endswith(".py") else "all"
    with open_runner(program(tmp_path, name), LIMITS) as runner:
        for word in ("a", "b", "c"):
            result = runner.run(f"{line}\n{word}\n")
            assert result.status == "ok" and result.stdout == f"{word}\n", result
        assert _ioprio(supervisor(runner)) >> 13 == 3  # the attack did reach the supervisor


def test_the_io_priority_program_does_see_an_inherited_one(tmp_path: Path) -> None:
    """The control: under a shell of its own (nothing resets it), the second run inherits the
    idle priority the first gave the shell, and says so."""
    folder = tmp_path / "prog"
    folder.mkdir()
    binary = folder / "ioprio"
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    subprocess.run([cc, "-O1", "-o", str(binary), str(HOSTILE / "ioprio.c")], check=True)
    out = subprocess.run(
        ["/bin/sh", "-c", f"echo 'parent a' | {binary}; echo 'parent b' | {binary}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["a", "carried"]


# -- memory: children of a C program, and no earlier test's page cache as the base ------------


@needs_root_sandbox
@pytest.mark.parametrize("native", [True, False], ids=["native", "exec"])
def test_children_of_a_c_program_are_charged(tmp_path: Path, native: bool, monkeypatch) -> None:
    """Six children each holding 40 MB at once (240 MB under a 64 MB limit): MLE, with the fork
    server and exec'd; the kernel never let the cgroup past its limit; four children of 10 MB
    are fine (the figure is the test's, not the runner's)."""
    if not native:
        monkeypatch.setenv("GAMECERT_NATIVE_FORKSERVER", "0")
    with open_runner(program(tmp_path, "children.c"), LIMITS) as runner:
        flood = runner.run("6 40 hello\n")
        small = runner.run("4 10 hello\n")
        limit = int((Path(runner.memory.path) / "memory.limit_in_bytes").read_text())
        peak = int((Path(runner.memory.path) / "memory.max_usage_in_bytes").read_text())
    assert flood.status == "mle" and flood.started == ("native" if native else "exec"), flood
    assert peak <= limit == (64 + memcg.HEADROOM_MB) << 20
    assert small.status == "ok" and small.stdout == "hello\n", small


def _cold_files(tmp_path: Path) -> Path:
    """Two 40 MB files on disk, written, synced and dropped from the page cache."""
    data = tmp_path / "data"
    data.mkdir()
    for name in ("a.bin", "b.bin"):
        path = data / name
        path.write_bytes(os.urandom(1 << 20) * 40)
        fd = os.open(path, os.O_RDONLY)
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
    return data


def _cache_then_hold(tmp_path: Path) -> tuple[list, int]:
    data = _cold_files(tmp_path)
    with open_runner(program(tmp_path, "traces.py"), LIMITS) as runner:
        results = [
            runner.run(f"cache {data / 'a.bin'}\na\n"),
            runner.run(f"cache {data / 'b.bin'}\nb\n"),
            runner.run("hold 70\nc\n"),
        ]
        peak = int((Path(runner.memory.path) / "memory.max_usage_in_bytes").read_text())
    return results, peak


@needs_root_sandbox
def test_earlier_tests_page_cache_is_not_the_next_tests_base(tmp_path: Path, monkeypatch) -> None:
    """Two tests read 40 MB files each (their page cache charged to the runner's cgroup), then a
    test holds 70 MB in anonymous files under a 64 MB limit: MLE, because the cgroup is emptied
    after a test that left something (its base is not 80 MB of others' cache); the kernel's peak
    for the last test, read from the host, is its own 70 MB."""
    monkeypatch.setenv("GAMECERT_READABLE", str(tmp_path / "data"))
    (cache_a, cache_b, hold), peak = _cache_then_hold(tmp_path)
    assert cache_a.status == cache_b.status == "ok", (cache_a, cache_b)
    assert hold.status == "mle" and hold.max_rss_mb >= 64, hold
    assert 64 << 20 <= peak <= (64 + memcg.HEADROOM_MB) << 20


@needs_root_sandbox
def test_without_emptying_the_cache_hides_the_memory(tmp_path: Path, monkeypatch) -> None:
    """The control: a supervisor given no way to empty its cgroup (the config's ``empty``
    descriptor left out) measures the 70 MB test against 80 MB of earlier cache and passes it."""
    monkeypatch.setenv("GAMECERT_READABLE", str(tmp_path / "data"))
    config = memcg.MemoryCap.config
    monkeypatch.setattr(
        memcg.MemoryCap,
        "config",
        lambda self: {k: v for k, v in config(self).items() if k != "empty"},
    )
    (_, _, hold), peak = _cache_then_hold(tmp_path)
    assert hold.status == "ok" and hold.max_rss_mb < 64, hold
    assert peak > 64 << 20  # the kernel saw more than the limit; the base hid it


# -- CPU: children reaped by the kernel ---------------------------------------------------------


@needs_root_sandbox
def test_cpu_of_children_reaped_by_the_kernel_is_charged(tmp_path: Path) -> None:
    """traces.py ignores SIGCHLD and burns CPU in children of 0.1 s each, which no ``wait4``
    reports: 0.6 s of it is charged (at a 1 s limit), 2 s of it is TLE, killed at the limit by
    the sandbox's cpuacct figure; the runner's cpuacct cgroup, read from the host, counted both."""
    with open_runner(program(tmp_path, "traces.py"), LIMITS) as runner:
        counted = runner.run("sigchld 0.6\nok\n")
        burner = runner.run("sigchld 2\nok\n")
        used = int((Path(runner.cpu.path) / "cpuacct.usage").read_text()) / 1e9
    assert counted.status == "ok" and counted.cpu_s >= 0.55, counted
    assert burner.status == "tle" and burner.cpu_s > 1.0 and "CPU time" in burner.detail, burner
    assert used > 1.6


@needs_root_sandbox
def test_without_cpuacct_the_kernel_reaped_children_go_uncounted(
    tmp_path: Path, monkeypatch
) -> None:
    """The control: without the cgroups (``GAMECERT_CGROUPS=0``) the same 0.6 s is charged as a
    few milliseconds."""
    monkeypatch.setenv("GAMECERT_CGROUPS", "0")
    with open_runner(program(tmp_path, "traces.py"), LIMITS) as runner:
        assert runner.cpu is None
        result = runner.run("sigchld 0.6\nok\n")
    assert result.status == "ok" and result.cpu_s < 0.3, result


# -- output by the bytes written, scratch under its own cap -------------------------------------


def test_output_is_read_by_the_bytes_written() -> None:
    """A 32 MB standard output with one byte written (a hole before it) is one page of output to
    the reader, not 32 MB; the same file read by its apparent size (the control) is 32 MB."""
    fd = os.memfd_create("out")
    try:
        os.lseek(fd, (32 << 20) - 1, os.SEEK_SET)
        os.write(fd, b"\n")
        os.write(fd, b"word\n")
        size, data = _read_head_fd(fd, 32 << 20)
        assert size <= 8192 and data.endswith(b"\nword\n")
        assert os.fstat(fd).st_size == (32 << 20) + 5  # what reading by the file's size would take
    finally:
        os.close(fd)
    dense = os.memfd_create("dense")
    try:
        os.write(dense, b"x" * 10000)
        assert _read_head_fd(dense, 100) == (10000, b"x" * 100)
    finally:
        os.close(dense)


@needs_root_sandbox
def test_sparse_output_costs_nothing_and_scratch_has_its_own_cap(tmp_path: Path) -> None:
    """output.c: a sparse 32 MB standard output is read in well under a second (one page); a
    40 MB scratch file is fine (the box's 64 MB cap, not the output's); 70 MB of scratch fails
    at the box's cap (exit 3: RE); 33 MB written to the output is OLE."""
    with open_runner(program(tmp_path, "output.c"), Limits(time_s=2.0, memory_mb=256)) as runner:
        start = time.monotonic()
        sparse = runner.run("sparse 32 a\n")
        took = time.monotonic() - start
        scratch = runner.run("scratch 40 b\n")
        full = runner.run("scratch 70 c\n")
        flood = runner.run("dense 33 d\n")
    assert (
        sparse.status == "ok" and len(sparse.stdout) <= 8192 and sparse.stdout.endswith("\na\n")
    ), sparse.status
    assert took < 5
    assert scratch.status == "ok" and scratch.stdout == "b\n", scratch
    assert full.status == "re" and full.exit_code == 3, full
    assert flood.status == "ole", flood.status


@needs_root_sandbox
def test_with_the_output_cap_on_every_file_scratch_is_ole(tmp_path: Path, monkeypatch) -> None:
    """The control: with every file capped at the output limit (the file cap as it was), the
    harmless 40 MB scratch file is OLE."""
    own = Limits.supervisor_limits
    monkeypatch.setattr(
        Limits, "supervisor_limits", lambda self, **kw: own(self, **{**kw, "scratch_bytes": 0})
    )
    with open_runner(program(tmp_path, "output.c"), Limits(time_s=2.0, memory_mb=256)) as runner:
        scratch = runner.run("scratch 40 b\n")
    assert scratch.status == "ole", scratch


def test_the_cgroup_join_prefix_enters_every_group() -> None:
    """The launcher shell writes its pid to each cgroup's ``cgroup.procs`` before the command;
    checked with plain files standing for them."""
    return_code = None
    with __import__("tempfile").TemporaryDirectory() as folder:
        groups = [os.path.join(folder, name) for name in ("a", "b")]
        for group in groups:
            os.mkdir(group)
        out = subprocess.run(
            [*cgroups.join_prefix(groups), "/bin/sh", "-c", "echo $$"],
            capture_output=True,
            text=True,
        )
        return_code = out.returncode
        pids = [Path(group, "cgroup.procs").read_text().strip() for group in groups]
    assert return_code == 0 and pids[0] == pids[1] == out.stdout.strip()


# -- a stopped fork server -------------------------------------------------------------------


def _states(runner) -> list[str]:
    """The states of the sandbox's processes (its pids cgroup's, read from the host)."""
    states = []
    for pid in Path(runner.cap.path, "cgroup.procs").read_text().split():
        try:
            states.append(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0])
        except OSError:
            pass
    return states


@needs_root_sandbox
def test_a_stopped_fork_server_is_replaced_within_the_next_test(tmp_path: Path) -> None:
    """stopper.c stops every process it sees with SIGSTOP: the native fork server is stopped
    (the attack lands: read from the host, a process of the sandbox is in state T), and the next
    tests are still right, cloned from a fork server, each well within its wall limit, and the
    stopped one is gone."""
    with open_runner(program(tmp_path, "stopper.c"), LIMITS) as runner:
        first = runner.run("none a\n")
        attack = runner.run("stop b\n")
        time.sleep(0.05)
        stopped = _states(runner)
        after = [runner.run(f"none {word}\n") for word in "cde"]
        left = _states(runner)
    assert first.started == "native" and attack.status == "ok", (first, attack)
    assert "T" in stopped, stopped
    assert [r.stdout for r in after] == ["c\n", "d\n", "e\n"] and all(
        r.status == "ok" for r in after
    ), after
    assert all(r.started == "native" and r.wall_s < LIMITS.wall_s for r in after), after
    assert "T" not in left, left


@needs_root_sandbox
def test_no_write_reaches_the_fork_servers_memory(tmp_path: Path) -> None:
    """poison.c writes into every other process it sees (process_vm_writev, /proc/PID/mem,
    ptrace's POKEDATA) at the address of its own global, which the native fork server holds too:
    no write lands, and the tests cloned after it find the global as the program started it. The
    control, in the same sandbox: the same three routes into a child of its own all land."""
    with open_runner(program(tmp_path, "poison.c"), LIMITS) as runner:
        results = [
            runner.run(f"{what} {word}\n")
            for what, word in (
                ("none", "a"),
                ("poison", "b"),
                ("none", "c"),
                ("none", "d"),
                ("child", "e"),
            )
        ]
    assert all(r.status == "ok" and r.started == "native" for r in results), results
    assert [r.stdout for r in results] == ["a 0 0\n", "b 0 0\n", "c 0 0\n", "d 0 0\n", "e 7 3\n"], (
        results
    )


# -- the zygote's hash seed --------------------------------------------------------------------


def _first_letters(tmp_path: Path, tests: int, **kw) -> tuple[set[str], list[str]]:
    with open_runner(program(tmp_path, "set_order.py"), LIMITS, **kw) as runner:
        results = [runner.run("x\n") for _ in range(tests)]
    assert all(r.status == "ok" for r in results), results
    return {r.stdout for r in results}, [r.started for r in results]


@pytest.mark.skipif(
    not contain.probe().enabled, reason="the zygote's turnover is the contained supervisor's"
)
def test_the_hash_seed_varies_over_a_zygotes_tests(tmp_path: Path, monkeypatch) -> None:
    """set_order.py answers with a set's first letter, which the hash seed decides: with a new
    zygote every 4 tests (each with its own seed, as ZYGOTE_TESTS does every 2000) 32 tests give
    more than one answer, as 32 runs of ``python FILE`` would (each of 8 zygotes has 1 chance
    in 8 or so to agree with the first); the control: one zygote for all 32 gives one answer."""
    from gamecert.engine.run import limits

    monkeypatch.setattr(limits, "ZYGOTE_TESTS", 4)
    varied, started = _first_letters(tmp_path, 32)
    assert set(started) == {"zygote"} and len(varied) > 1, varied
    monkeypatch.setattr(limits, "ZYGOTE_TESTS", 1000)
    same, _ = _first_letters(tmp_path, 32)
    assert len(same) == 1, same


@needs_root_sandbox
def test_an_output_flood_is_ole_before_its_memory_is_mle(tmp_path: Path) -> None:
    """output.c writes 100 MB to its output under a 64 MB memory limit: the output's pages are
    the test's memory (an anonymous file it fills), so the cgroup reaches the limit (its peak
    read from the host: the case where memory would speak first), and the verdict is OLE, what
    the program did first, as with the output capped at the file limit before."""
    with open_runner(program(tmp_path, "output.c"), LIMITS) as runner:
        flood = runner.run("dense 100 a\n")
        peak = int((Path(runner.memory.path) / "memory.max_usage_in_bytes").read_text())
    assert flood.status == "ole", flood.status
    assert peak >= 60 << 20, peak
