"""What the supervisor keeps of a test besides its processes: its memory cgroup, and the IPC
objects it may leave behind. Standard library only (the server runs inside the sandbox).

**Memory.** :class:`Memory` holds the descriptors of the runner's memory cgroup
(``gamecert.engine.run.memcg`` made it): the test's process joins it through ``procs`` first
thing after its fork; per test the peak is reset and the usage left by earlier tests is the base;
the watch reads the usage, and after the test the peak over the base and the OOM kills are the
test's.

**IPC.** The sandbox's IPC namespace lives as long as the runner, so a SysV segment, queue or
semaphore set, or a POSIX message queue, made by one test would be there in the next (state
carried between tests, memory held for the runner's life). After every test :func:`clear_ipc`
removes them all: three ``*ctl(…_INFO)`` calls say whether any SysV object exists (a few
microseconds), ``/proc/sysvipc`` lists them only then; the sandbox mounts its own mqueue file
system at ``/dev/mqueue``, where every queue is a name to unlink, listed only when the folder's
size (one ``fstat``: the kernel counts a fixed size per queue) is not its empty size.
"""

from __future__ import annotations

import ctypes
import os
import time

_IPC_RMID = 0
_SHM_INFO, _MSG_INFO, _SEM_INFO = 14, 12, 19
MQUEUE = "/dev/mqueue"


#: bytes a test may leave charged to the memory cgroup (over what emptying it last left) before
#: the cgroup is emptied for the next one, unless the client says (config ``slack``: half the
#: kernel limit's headroom over the verdict's). A base under the headroom hides nothing: a test
#: whose own memory pushes the cgroup to the kernel's limit, so that the base's reclaimable pages
#: are reclaimed to make room, is then over the verdict's limit whatever was reclaimed. Emptying
#: costs 0.4 to 12 ms and drops the page cache (the next reader reads from disk): only then
EMPTY_SLACK = 1 << 20


class Memory:
    """The memory cgroup's descriptors (``procs``, ``peak``, ``usage``, ``events``, and ``empty``:
    v1's ``memory.force_empty``, v2's ``memory.reclaim``)."""

    def __init__(self, config: dict) -> None:
        self.version = int(config["version"])
        self.procs, self.peak_fd = int(config["procs"]), int(config["peak"])
        self.usage_fd, self.events_fd = int(config["usage"]), int(config["events"])
        self.empty_fd = int(config["empty"]) if config.get("empty") is not None else None
        self.limit = int(config["limit_kb"]) << 10
        self.base = 0
        self.kills = 0
        self.resettable = True
        self.slack = int(config.get("slack") or EMPTY_SLACK)
        #: the usage above which the cgroup is emptied after a test (-1: it cannot be)
        self.clean = -1 if self.empty_fd is None else self.usage() + self.slack

    def empty(self) -> bool:
        """After a test, all of it reaped: if the cgroup holds more than emptying it last left
        (page cache of files the test read, charged to it and reclaimable), reclaim all of it,
        so that the next test's base is what no test can free (a native fork server's own
        pages), not an earlier test's cache. Whether it was emptied."""
        if self.empty_fd is None or self.usage() <= self.clean:
            return False
        try:
            os.write(self.empty_fd, b"0" if self.version == 1 else str(self.usage()).encode())
        except OSError:
            pass  # (v2: EAGAIN when not all of it could be reclaimed; what is left stays the base)
        self.clean = self.usage() + self.slack
        return True

    def _read(self, fd: int) -> bytes:
        return os.pread(fd, 4096, 0)

    def usage(self) -> int:
        """Bytes charged to the cgroup now."""
        return int(self._read(self.usage_fd))

    def oom_kills(self) -> int:
        for line in self._read(self.events_fd).decode().splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def before(self) -> None:
        """Before a test: reset the peak to the usage now, which is the test's base."""
        try:
            os.write(self.peak_fd, b"0" if self.version == 1 else b"reset\n")
        except OSError:
            self.resettable = False  # (v2 before Linux 6.12) the peak is the cgroup's lifetime's
        self.base = self.usage()
        if not self.resettable:
            self.kills = self.oom_kills()

    def over(self) -> bool:
        """Whether the test's memory is at its limit now (the watch's check)."""
        return self.usage() - self.base >= self.limit

    def after(self) -> tuple[int, int]:
        """After a test, all of it reaped: (its peak in kB over the base, OOM kills during it).

        An OOM kill happens only at the kernel's limit, above the test's: the peak says MLE
        then, so the kills are read only where the peak cannot be reset (v2 before Linux 6.12)."""
        if self.resettable:
            return max(0, int(self._read(self.peak_fd)) - self.base) >> 10, 0
        return max(0, self.usage() - self.base) >> 10, self.oom_kills() - self.kills

    def join(self) -> None:
        """In the test's process, right after its fork: into the cgroup."""
        os.write(self.procs, b"0")

    def fds(self) -> list[int]:
        return [self.procs, self.peak_fd, self.usage_fd, self.events_fd]


def _own_cpu_ns() -> int:
    return time.clock_gettime_ns(time.CLOCK_PROCESS_CPUTIME_ID)


class CpuAccount:
    """The sandbox's cpuacct cgroup (``cpuacct.usage`` on a descriptor the client passed): every
    process of the sandbox is in it, so what a test's processes used is the sandbox's CPU time
    over the test less this supervisor's own, including processes that no ``wait4`` reports (the
    children of a process that ignores SIGCHLD are reaped by the kernel, their CPU time added to
    nobody's)."""

    def __init__(self, fd: int) -> None:
        self.fd = int(fd)

    def now(self) -> tuple[int, int]:
        """(the sandbox's CPU ns, this process's), at a test's start."""
        own = _own_cpu_ns()
        try:
            return int(os.pread(self.fd, 64, 0)), own
        except (OSError, ValueError):
            return -1, own

    def since(self, start: tuple[int, int] | None) -> float:
        """CPU seconds of the sandbox's processes but this one since ``start`` (0 if unknown)."""
        if start is None or start[0] < 0:
            return 0.0
        try:
            total = int(os.pread(self.fd, 64, 0))
        except (OSError, ValueError):
            return 0.0
        return max(0, total - start[0] - (_own_cpu_ns() - start[1])) / 1e9


def scratch_state(fd: int) -> int:
    """A scratch folder's own mode (its permission bits)."""
    return os.fstat(fd).st_mode & 0o7777


def restore_scratch(fd: int, mode: int) -> None:
    """Take off every extended attribute of the scratch folder itself and give it back its
    ``mode``: neither is an inode a test leaves, and both would carry to the next test."""
    try:
        for name in os.listxattr(fd):
            try:
                os.removexattr(fd, name)
            except OSError:
                pass
    except OSError:
        pass
    if scratch_state(fd) != mode:
        os.fchmod(fd, mode)


class RefusedForks:
    """The pids cgroup's ``pids.events`` on a descriptor the client passed: :meth:`read` gives
    the forks refused (its ``max`` count) since the previous read."""

    def __init__(self, fd: int) -> None:
        self.fd, self.seen = int(fd), 0
        self.read()

    def read(self) -> int:
        try:
            data = os.pread(self.fd, 4096, 0)
            at = data.index(b"max ") + 4 if data.startswith(b"max ") else data.index(b"\nmax ") + 5
            count = int(data[at : data.index(b"\n", at)])
        except (OSError, ValueError):
            return 0
        refused, self.seen = count - self.seen, count
        return refused


class _Info(ctypes.Structure):
    _fields_ = [("words", ctypes.c_int * 16)]


_libc = None


def _calls():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def sysv_in_use() -> bool:
    """Whether any SysV shared-memory segment, message queue or semaphore set exists in this IPC
    namespace (``used_ids``, ``msgpool`` and ``semusz`` of the ``…_INFO`` calls)."""
    libc = _calls()
    info = _Info()
    if libc.shmctl(0, _SHM_INFO, ctypes.byref(info)) >= 0 and info.words[0]:
        return True
    info = _Info()
    if libc.msgctl(0, _MSG_INFO, ctypes.byref(info)) >= 0 and info.words[0]:
        return True
    info = _Info()
    return libc.semctl(0, 0, _SEM_INFO, ctypes.byref(info)) >= 0 and bool(info.words[7])


def mqueue_size(mqueue_fd: int | None) -> int | None:
    """The size of the mqueue file system's folder: the kernel adds a fixed amount per queue
    and takes it off when the queue is unlinked, so at its empty size the folder is empty."""
    if mqueue_fd is None:
        return None
    try:
        return os.fstat(mqueue_fd).st_size
    except OSError:
        return None


#: keyctl(2): its operations, and the user's keyrings, which outlive a test's processes (the
#: sandbox's user namespace is the runner's: a key one test adds, the next one finds)
_SYS_KEYCTL, _KEYCTL_CLEAR, _USER_KEYRINGS = 250, 7, (-4, -5)


def clear_ipc(mqueue_fd: int | None, mqueue_empty: int | None = None) -> int:
    """Remove every SysV IPC object of this namespace and every POSIX message queue under
    ``mqueue_fd``, and empty the user's keyrings; how many were removed (keyrings not counted).
    ``mqueue_empty``: the folder's size when it was empty (:func:`mqueue_size`); at that size it
    is not listed."""
    removed = 0
    if os.uname().machine == "x86_64":  # (the call's number is the architecture's)
        for ring in _USER_KEYRINGS:
            _calls().syscall(_SYS_KEYCTL, _KEYCTL_CLEAR, ring)
    if sysv_in_use():
        libc = _calls()
        for kind, remove in (
            ("shm", lambda i: libc.shmctl(i, _IPC_RMID, None)),
            ("msg", lambda i: libc.msgctl(i, _IPC_RMID, None)),
            ("sem", lambda i: libc.semctl(i, 0, _IPC_RMID)),
        ):
            try:
                with open(f"/proc/sysvipc/{kind}") as f:
                    rows = f.read().splitlines()[1:]
            except OSError:
                continue
            for row in rows:
                words = row.split()
                if len(words) > 1 and words[1].isdigit() and remove(int(words[1])) == 0:
                    removed += 1
    if mqueue_fd is not None and (mqueue_empty is None or mqueue_size(mqueue_fd) != mqueue_empty):
        for name in os.listdir(mqueue_fd):
            try:
                os.unlink(name, dir_fd=mqueue_fd)
                removed += 1
            except OSError:
                pass
    return removed
