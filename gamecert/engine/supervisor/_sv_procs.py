"""What the supervisor (``server.py`` in this folder) and its client share, and the process
helpers the server uses: the protocol's constants and report line, resource limits, ``/proc``
scans, killing and reaping process groups. Standard library only (the server runs inside the
sandbox, where gamecert itself is not importable).
"""

from __future__ import annotations

import os
import resource
import signal
import time

_READY = b"READY\n"
_SETUP_FAILED = 125  # exit status of a child that could not be set up (a harness fault)
_EXEC_FAILED = 127  # exit status when the candidate's program cannot be executed
_FIRST_SCAN_S = 0.01  # fast tests finish before the first /proc scan and never pay for one
_SCAN_INTERVAL_S = 0.01
_SWEEP_INTERVAL_S = 0.5  # at least this often, look for leftovers that left the group
_PR_SET_CHILD_SUBREAPER = 36
# signals whose handlers a persistent child puts back before each test
_RESET_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGALRM", "SIGUSR1", "SIGUSR2", "SIGHUP", "SIGPIPE", "SIGXFSZ")
    if hasattr(signal, name)
)
# a persistent child is replaced when a test leaves its resident memory this much above its start
_RECYCLE_RSS_GROWTH_KB = 64 << 10
# The pid file: the running test's child at offset 0, the waiting child at offset 13
_PID_RUNNING, _PID_WAITING = 0, 13


def _prctl():
    """libc's prctl, or None where it cannot be reached."""
    try:
        import ctypes  # only here: a client never needs it

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError, ImportError):
        return None


def _become_subreaper(prctl) -> bool:
    """Make orphaned descendants re-parent to this process (Linux); False where unsupported."""
    return prctl is not None and prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def _limit_plan(limits: dict) -> list[tuple[int, tuple[int, int]]]:
    """The (resource, (soft, hard)) pairs a child sets, computed once in the server."""
    wanted = [
        ("RLIMIT_CORE", 0, 0),
        ("RLIMIT_CPU", limits["cpu_soft"], limits["cpu_soft"] + 1),
        ("RLIMIT_AS", limits["as_bytes"], limits["as_bytes"]),
        ("RLIMIT_STACK", limits["stack_bytes"], limits["stack_bytes"]),
        ("RLIMIT_FSIZE", limits["fsize_bytes"], limits["fsize_bytes"]),
    ]
    if limits.get("nproc"):
        wanted.append(("RLIMIT_NPROC", limits["nproc"], limits["nproc"]))
    plan = []
    for name, soft, hard in wanted:
        which = getattr(resource, name, None)
        if which is None:
            continue
        _, current = resource.getrlimit(which)
        if current != resource.RLIM_INFINITY:  # cannot be raised without privilege
            soft, hard = min(soft, current), min(hard, current)
        plan.append((which, (soft, hard)))
    return plan


def _redirect(io_paths: dict) -> None:
    """Point fds 0, 1, 2 at the test's files (stdin is opened, stdout and stderr made anew).

    stdout and stderr are unlinked and created fresh, never truncated: a process an earlier
    test left behind (a daemon that escaped every sweep) may still hold the old files open, and
    whatever it writes then goes to an inode nobody reads, not into this test's output.
    """
    fd_in = os.open(io_paths["stdin"], os.O_RDONLY | os.O_CREAT, 0o644)
    for name in ("stdout", "stderr"):
        try:
            os.unlink(io_paths[name])
        except FileNotFoundError:
            pass
    fd_out = os.open(io_paths["stdout"], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    fd_err = os.open(io_paths["stderr"], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    for fd, target in ((fd_in, 0), (fd_out, 1), (fd_err, 2)):
        os.dup2(fd, target)
        os.close(fd)


def _setup_failed(exc: BaseException) -> None:
    """End a forked child whose setup raised ``exc`` (a harness fault): say why on its stderr
    and exit with :data:`_SETUP_FAILED`; never returns."""
    try:
        os.write(2, f"gamecert: sandbox setup failed: {exc!r}\n".encode())
    finally:
        os._exit(_SETUP_FAILED)


def _read_stat(pid: str) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("ascii", "replace")
    except OSError:
        return None
    return raw[raw.rfind(")") + 2 :].split()


_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def _scan_group(pgid: int) -> tuple[int, float, int]:
    """Live tasks (threads included) in process group ``pgid``, their CPU seconds and the sum
    of their resident memory in kB."""
    tick = os.sysconf("SC_CLK_TCK")
    tasks, ticks, pages = 0, 0, 0
    want = str(pgid)
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        fields = _read_stat(name)
        # fields: 0 state, 1 ppid, 2 pgrp, 11 utime, 12 stime, 13 cutime, 14 cstime, 17 threads, 21 rss
        if not fields or fields[2] != want or fields[0] == "Z":
            continue
        tasks += int(fields[17])
        ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        pages += int(fields[21])
    return tasks, ticks / tick, pages * _PAGE_KB


def _children_of(pid: int) -> list[int]:
    found = []
    want = str(pid)
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _read_stat(name)
            if fields and fields[1] == want:
                found.append(int(name))
    return found


def _killpg(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_group_and_wait(pgid: int, timeout_s: float = 2.0) -> None:
    """Kill a group that is not ours to reap, and wait until none of it is still running."""
    end = time.monotonic() + timeout_s
    while True:
        _killpg(pgid)
        if _scan_group(pgid)[0] == 0 or time.monotonic() > end:
            return
        time.sleep(0.001)


def _reap_leftovers(keep: int | None = None, deadline_s: float = 2.0, also_keep: int | None = None) -> bool:
    """Kill and reap every child of this server but ``keep`` (the waiting child) and
    ``also_keep`` (a persistent Python child between tests), boundedly.

    Returns False if ``keep`` turned out to have died (it is reaped then, too).
    """
    keep_alive = True
    spared = {keep, also_keep}
    end = time.monotonic() + deadline_s
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return keep_alive  # no children at all
        if pid:
            keep_alive = keep_alive and pid != keep
            continue
        others = [child for child in _children_of(os.getpid()) if child not in spared]
        if not others:
            return keep_alive
        for child in others:
            try:
                os.kill(child, signal.SIGKILL)
                _killpg(os.getpgid(child))
            except (ProcessLookupError, PermissionError):
                pass
        if time.monotonic() > end:
            return keep_alive
        time.sleep(0.001)


def _open_children_list() -> int | None:
    """A descriptor on ``/proc/self/task/<tid>/children`` (this server is single-threaded), kept
    open for :func:`_has_strays`; None where the kernel does not offer the file."""
    try:
        return os.open(f"/proc/self/task/{os.getpid()}/children", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


def _has_strays(children_fd: int | None, waiting: int | None, live: int | None = None) -> bool:
    """Whether this server has a child other than ``waiting`` (a leftover of a test).

    Reads the children list through ``children_fd`` (see :func:`_open_children_list`); the kernel
    lists the children anew on every read from offset 0, so one descriptor serves every test.
    Where the file is missing, False, and the periodic sweep finds leftovers instead.
    """
    if children_fd is None:
        return False
    listed = b""
    try:
        while True:
            chunk = os.pread(children_fd, 65536, len(listed))
            if not chunk:
                break
            listed += chunk
    except OSError:
        return False
    return any(int(child) not in (waiting, live) for child in listed.split())


class _Child:
    """A forked Python child held by the server: its pid, the pipe that starts its tests and
    the pipe a persistent child reports on; while persistent, its pidfd, its test count and the
    CPU seconds (user, system) it had used before its current test."""

    __slots__ = ("pid", "go_w", "done_r", "pidfd", "tests", "base_u", "base_s", "base_total")

    def __init__(self, pid: int, go_w: int, done_r: int) -> None:
        self.pid, self.go_w, self.done_r = pid, go_w, done_r
        self.pidfd: int | None = None
        self.tests = 0
        self.base_u = self.base_s = self.base_total = 0.0


def _threads_remain(task_links: int) -> bool:
    """Whether this process has more threads than when ``/proc/self/task`` had ``task_links``
    links (2 + its threads), allowing a joined thread up to ~2 ms to finish exiting."""
    for _ in range(20):
        if os.stat("/proc/self/task").st_nlink == task_links:
            return False
        time.sleep(0.0001)
    return True


def _status_kb(status: bytes, key: bytes) -> int:
    """A number from ``/proc/PID/status`` text (kB for memory lines); 0 if missing.

    >>> _status_kb(b"Name:\\tx\\nVmHWM:\\t  10836 kB\\nThreads:\\t1\\n", b"VmHWM:")
    10836
    >>> _status_kb(b"Threads:\\t3\\n", b"Threads:"), _status_kb(b"", b"VmRSS:")
    (3, 0)
    """
    at = status.find(key)
    if at < 0:
        return 0
    return int(status[at + len(key) : status.find(b"\n", at)].split()[0])


def _group_exists(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _report(pid, status, utime, stime, maxrss_kb, wall, killed, peak, fresh, sampled_kb) -> bytes:
    """The report line a test ends with (see :func:`_parse_report`)."""
    return b"%d %d %.6f %.6f %d %.6f %s %d %d %d\n" % (
        pid, status, utime, stime, maxrss_kb, wall, (killed or "-").encode(), peak, fresh, sampled_kb,
    )  # fmt: skip


def _read_done(fd: int) -> tuple[int, float, float, int, int, float] | None:
    """A persistent child's report line (see :meth:`_Server._python_child`), or None if it
    died before writing all of it."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 256)
        if not chunk:
            return None
        data += chunk
    status, utime, stime, peak_kb, recycle, total = data.split()
    return int(status), float(utime), float(stime), int(peak_kb), int(recycle), float(total)


def _read_line(fd: int, buf: bytearray) -> bytes | None:
    while b"\n" not in buf:
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        buf += chunk
    line, _, rest = bytes(buf).partition(b"\n")
    buf[:] = rest
    return line


def _parse_report(line: bytes) -> dict:
    """The server's report line as a dict.

    >>> r = _parse_report(b"41 256 0.010000 0.002000 9800 0.015000 - 1 0 9500")
    >>> r["pid"], r["status"], r["killed"], r["maxrss_kb"], r["peak_tasks"], r["fresh"], r["sampled_kb"]
    (41, 256, None, 9800, 1, False, 9500)
    """
    pid, status, utime, stime, maxrss, wall, killed, peak, fresh, sampled = line.split()
    return {
        "pid": int(pid),
        "status": int(status),
        "utime": float(utime),
        "stime": float(stime),
        "maxrss_kb": int(maxrss),
        "wall": float(wall),
        "killed": None if killed == b"-" else killed.decode(),
        "peak_tasks": int(peak),
        "fresh": fresh == b"1",
        "sampled_kb": int(sampled),
    }


def _child_pids(pid: int) -> list[int]:
    """The children of a single-threaded process, from ``/proc/PID/task/PID/children``."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
            return [int(word) for word in f.read().split()]
    except (OSError, ValueError):
        return []
