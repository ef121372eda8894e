"""What the supervisor (``server.py`` in this folder) and its client share, and the process
helpers the server uses: the protocol's constants, resource limits, ``/proc`` scans, killing and
reaping. Standard library only (the server runs inside the sandbox, where gamecert itself is not
importable).

Two ways of finding a test's processes:

* **contained** (the server is PID 1 of the sandbox's own PID namespace): every process in the
  namespace but the server belongs to the test, whatever its session or process group. The
  scan reads the namespace's whole (small) ``/proc``; the end of a test is ``kill(-1, SIGKILL)``,
  which the kernel confines to the namespace, and the server reaps everything (orphans are its
  children, as the namespace's init).
* **not contained**: the test's process group, and what left it re-parented to the server (a child
  subreaper). Best effort: a process that left the group and whose parent still lives is not seen.
"""

from __future__ import annotations

import os
import resource
import signal
import time

#: CPU seconds a native fork server may use for one test besides its start-up (a clone costs
#: well under a millisecond): more, and it is not a pristine image waiting for requests
SERVER_CPU_S = 0.05

_READY = b"READY\n"
#: tests a zygote serves before it ends and the client starts a new one: every zygote has its own
#: hash seed (``PYTHONHASHSEED`` is not set), so that a program whose output depends on the order
#: of a set of strings varies over a certification as it does over runs of ``python FILE``
#: (~0.25 s a new zygote on a quiet machine: ~0.12 ms a test)
ZYGOTE_TESTS = 2000
#: tests in one batch request at most (two descriptors each: a message carries at most 253)
BATCH_MAX = 100
_SETUP_FAILED = 125  # exit status of a child that could not be set up (a harness fault)
_EXEC_FAILED = 127  # exit status when the candidate's program cannot be executed
_FIRST_SCAN_S = 0.01  # fast tests finish before the first /proc scan and never pay for one
_SCAN_INTERVAL_S = 0.01
#: bytes of a test's stderr kept (the last ones); the rest is read and discarded
STDERR_KEEP = 16384
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_DUMPABLE = 4
_PR_SET_PDEATHSIG = 1
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
_TICK = os.sysconf("SC_CLK_TCK")


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


#: ioprio_set(2)'s number per machine (the C setup uses SYS_ioprio_set)
_IOPRIO_SET = {"x86_64": 251, "aarch64": 30}.get(os.uname().machine)


def _fresh_ioprio() -> None:
    """Give the calling process a fresh process's I/O priority (none set: it follows the nice
    value): a test may have set the supervisor's or the fork server's (same user), and a child
    inherits it."""
    if _IOPRIO_SET is None:
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).syscall(
            _IOPRIO_SET, 1, 0, 0
        )  # IOPRIO_WHO_PROCESS, self, none
    except (OSError, AttributeError):
        pass


def _set_dumpable(prctl, on: bool) -> bool:
    """A process that is not dumpable cannot be traced, and its ``/proc`` files (memory,
    descriptors) are closed to processes of the same user: the server is not; children are."""
    return prctl is not None and prctl(_PR_SET_DUMPABLE, 1 if on else 0, 0, 0, 0) == 0


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


#: every resource limit this system has (a test's process inherits them all from the server)
_RLIMITS = sorted({getattr(resource, name) for name in dir(resource) if name.startswith("RLIMIT_")})


def _own_state() -> tuple:
    """What every test's process inherits from this server and a test can change in it: its
    resource limits, scheduling priority and policy and CPU affinity (``prlimit``,
    ``setpriority``, ``sched_setscheduler`` (to SCHED_IDLE: no privilege needed) and
    ``sched_setaffinity`` reach any process of the same user, dumpable or not). A test can only
    lower them, never raise them back: a hard limit lowered would make every later test's setup
    fail (it cannot set its own limits above it)."""
    limits: list[tuple[int, int] | None] = []
    for which in _RLIMITS:
        try:
            limits.append(resource.getrlimit(which))
        except (OSError, ValueError):
            limits.append(None)
    try:
        priority = os.getpriority(os.PRIO_PROCESS, 0)
        policy = os.sched_getscheduler(0)
        cpus = frozenset(os.sched_getaffinity(0))
    except (OSError, AttributeError):
        priority, policy, cpus = None, None, None
    return tuple(limits), priority, policy, cpus


def _setup_failed(exc: BaseException) -> None:
    """End a forked child whose setup raised ``exc`` (a harness fault): say why on its stderr
    and exit with :data:`_SETUP_FAILED`; never returns."""
    try:
        os.write(2, f"sandbox setup failed: {exc!r}\n".encode())
    finally:
        os._exit(_SETUP_FAILED)


def _read_stat(pid: str) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("ascii", "replace")
    except OSError:
        return None
    return raw[raw.rfind(")") + 2 :].split()


def _scan(pgid: int | None, keep: int | None = None) -> tuple[int, float, int, int]:
    """Tasks (threads included), CPU seconds and resident memory (kB) of a test's processes:
    with ``pgid`` None (contained) every process of the namespace but this server (and ``keep``,
    a native fork server), else process group ``pgid``. CPU counts each process's own time and
    what it reaped of its children's, and exited processes not yet reaped (zombies keep their
    times); the fourth figure is how many of the processes are running or waiting to run (state
    R): a test that is behind only because the machine is busy, not one that is idle or blocked."""
    tasks, ticks, pages, running = 0, 0, 0, 0
    skip = {str(os.getpid()), str(keep)}
    want = None if pgid is None else str(pgid)
    for name in os.listdir("/proc"):
        if not name.isdigit() or name in skip:
            continue
        fields = _read_stat(name)
        # fields: 0 state, 1 ppid, 2 pgrp, 11 utime, 12 stime, 13 cutime, 14 cstime, 17 threads, 21 rss
        if not fields or (want is not None and fields[2] != want):
            continue
        ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        if fields[0] != "Z":
            tasks += int(fields[17])
            pages += int(fields[21])
            running += fields[0] == "R"
    return tasks, ticks / _TICK, pages * _PAGE_KB, running


def limit_hit(limits: dict, tasks: int, cpu: float, rss_kb: int, files: int) -> str | None:
    """The limit a test's scan found passed (the watch kills the test), or None."""
    if tasks > limits["processes"]:
        return "processes"
    if cpu > limits["time_s"]:
        return "cpu"
    if rss_kb >= limits.get("memory_kb", float("inf")):
        return "memory"
    if limits.get("files") and files > limits["files"]:
        return "files"
    return None


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


#: processes reaped by :func:`_kill_everything` that the CPU backstop (``RLIMIT_CPU``'s SIGXCPU)
#: had ended, since the watch last reset it: a test one of whose processes hit the CPU limit is
#: TLE even when its main process then exits 0 (a sibling made with ``CLONE_PARENT`` is not the
#: main process's child, and the main process may only wait for it to end)
XCPU_REAPED = [0]


def _kill_everything(
    contained: bool, pgid: int | None, deadline_s: float = 3.0, keep: int | None = None
) -> tuple[float, float, int]:
    """Kill whatever a test left running and reap it; (user, system) CPU seconds of what was
    reaped (each with the children it had reaped itself) and how many processes that was.

    Contained, ``kill(-1, SIGKILL)`` from PID 1 reaches every other process of the namespace
    (the kernel confines it there, and a process being killed cannot fork), so nothing of the
    test survives; with ``keep`` (a native fork server to spare) every other process is killed
    by pid, again until none is left. Not contained, the group ``pgid`` and the server's other
    children are killed. ``keep`` is never reaped here.
    """
    utime = stime = 0.0
    reaped = 0
    if contained and keep is None and not _has_children():
        # PID 1 of the namespace with no child at all, running or not: every other process of
        # the namespace would be a descendant of one (orphans re-parent here), so none is left
        return utime, stime, reaped
    end = time.monotonic() + deadline_s
    me = os.getpid()
    if contained and keep is not None and not _others_alive(me, keep, contained):
        return utime, stime, reaped  # the test's process was the only one, and it is reaped
    while True:
        if contained and keep is not None:
            for name in os.listdir("/proc"):
                if name.isdigit() and int(name) not in (me, keep):
                    try:
                        os.kill(int(name), signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
        elif contained:
            if (
                os.getpid() != 1
            ):  # never outside a namespace of our own: -1 would mean every process
                raise RuntimeError("kill(-1) outside a PID namespace")
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass
        else:
            if pgid is not None:
                _killpg(pgid)
            for child in _children_of(me):
                if child != keep:
                    try:
                        os.kill(child, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
        others = (
            [child for child in _children_of(me) if child != keep] if keep is not None else None
        )
        while True:
            if others is not None:  # reap by pid: a wait for any child would reap the fork server
                if not others:
                    break
                try:
                    pid, status, usage = os.wait4(others[-1], os.WNOHANG)
                except ChildProcessError:
                    others.pop()
                    continue
                if not pid:
                    break
                others.pop()
            else:
                try:
                    pid, status, usage = os.wait4(-1, os.WNOHANG)
                except ChildProcessError:
                    return utime, stime, reaped
                if not pid:
                    break
            reaped += 1
            utime += usage.ru_utime
            stime += usage.ru_stime
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU:
                XCPU_REAPED[0] += 1
        if others is not None and not others and not _others_alive(me, keep, contained):
            return utime, stime, reaped
        if time.monotonic() > end:
            return utime, stime, reaped
        time.sleep(0.0005)


def _has_children() -> bool:
    """Whether this process has a child, running or ended and not yet reaped (one ``waitid``,
    which reaps nothing)."""
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


def _others_alive(me: int, keep: int | None, contained: bool) -> bool:
    """Whether a process other than this server and ``keep`` is left (contained: in the
    namespace; not contained: among this server's children)."""
    if contained:
        return any(n.isdigit() and int(n) not in (me, keep) for n in os.listdir("/proc"))
    return any(child != keep for child in _children_of(me))


def _box_files(fds: list[int]) -> int:
    """Files and folders in use on the scratch folders' own file systems (tmpfs of the sandbox)."""
    used = 0
    for fd in fds:
        try:
            st = os.fstatvfs(fd)
        except OSError:
            continue
        used += max(0, st.f_files - st.f_ffree - 1)
    return used


def _empty_folder(fd: int) -> None:
    """Remove everything inside the folder open on ``fd`` (never following symbolic links, never
    entering another file system: the read-only binds inside the sandbox's /tmp stay)."""
    import shutil
    import stat

    device = os.fstat(fd).st_dev
    for name in os.listdir(fd):
        try:
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        if info.st_dev != device:
            continue
        mode = info.st_mode
        try:
            if stat.S_ISDIR(mode):
                sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
                try:
                    os.fchmod(sub, 0o700)
                    _empty_folder(sub)
                finally:
                    os.close(sub)
                os.rmdir(name, dir_fd=fd)
            else:
                os.unlink(name, dir_fd=fd)
        except OSError:
            shutil.rmtree(os.path.join(f"/proc/self/fd/{fd}", name), ignore_errors=True)


def _drain(fd: int, tail: bytearray) -> int:
    """Read what is waiting on the stderr pipe, keeping the last :data:`STDERR_KEEP` bytes in
    ``tail``; the bytes read, or -1 at end of file."""
    total = 0
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return total
        if not chunk:
            return total if total else -1
        total += len(chunk)
        tail += chunk
        if len(tail) > STDERR_KEEP:
            del tail[: len(tail) - STDERR_KEEP]


def _fork_floor(count: int) -> tuple[float, float, float]:
    """Seconds per ``fork`` + ``wait`` of this process's image (the zygote's, once it is ready),
    the child ending at once: what a fresh process per test cannot go below (the bench's floor);
    and per child its minor page faults and CPU seconds."""
    count = max(1, min(count, 10_000))
    faults = cpu = 0.0
    start = time.perf_counter()
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        _, _, usage = os.wait4(pid, 0)
        faults += usage.ru_minflt
        cpu += usage.ru_utime + usage.ru_stime
    return (time.perf_counter() - start) / count, faults / count, cpu / count
