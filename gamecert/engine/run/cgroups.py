"""A process cap that holds: a pids cgroup per runner, where the machine lets gamecert make one.

A sandbox's processes are counted by the supervisor's watch, but a count sampled every ~10 ms
is no cap: a fork bomb outruns it. The kernel's caps are

* ``RLIMIT_NPROC``, per user and user namespace, which holds inside the sandbox when gamecert
  runs as an ordinary user (the sandbox's user maps to it), but not as root: the kernel exempts
  processes of the real root user, which the sandbox's user maps to then;
* the pids controller of a cgroup (v1, or v2 where the controller is enabled below the root),
  writable by root: every process of the sandbox, whatever its session or group, is in it, and a
  ``fork`` past ``pids.max`` fails. isolate caps its boxes this way.

:func:`process_cap` makes such a cgroup (a neutral name: the candidate can read its cgroup path)
and gives the command prefix that starts the sandbox inside it; :meth:`ProcessCap.close` removes
it. :func:`accounting` says in one line which cap a runner has, for certificates.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass, field

V1_PIDS = "/sys/fs/cgroup/pids"
V1_CPUACCT = "/sys/fs/cgroup/cpuacct"
V2_ROOT = "/sys/fs/cgroup"


@dataclass
class ProcessCap:
    """A pids cgroup made for one runner: ``path``, its ``limit`` and the launch ``prefix``."""

    path: str
    limit: int
    kind: str
    _events: int | None = field(default=None, repr=False, compare=False)
    _current: int | None = field(default=None, repr=False, compare=False)
    _touched: float = field(default=0.0, repr=False, compare=False)

    @property
    def prefix(self) -> list[str]:
        """Put the launching shell in the cgroup, then run the rest of the command line there."""
        return join_prefix([self.path])

    def current(self) -> int:
        """Tasks in the cgroup now."""
        try:
            with open(os.path.join(self.path, "pids.current")) as f:
                return int(f.read())
        except (OSError, ValueError):
            return -1

    def current_fd(self) -> int | None:
        """A descriptor on ``pids.current``, kept open (the supervisor reads it after each test:
        whether anything of the test is left), or None."""
        if self._current is None:
            try:
                self._current = os.open(
                    os.path.join(self.path, "pids.current"), os.O_RDONLY | os.O_CLOEXEC
                )
            except OSError:
                return None
        return self._current

    def fds(self, current: bool) -> list[int]:
        """The descriptors the supervisor inherits: ``pids.events``, and ``pids.current`` if asked."""
        return [fd for fd in (self._events, self._current if current else None) if fd is not None]

    def refused(self) -> int:
        """How many forks the cap has refused so far (``pids.events``' ``max``): one ``pread``
        of a descriptor kept open (read once per test)."""
        try:
            if self._events is None:
                self._events = os.open(
                    os.path.join(self.path, "pids.events"), os.O_RDONLY | os.O_CLOEXEC
                )
            for line in os.pread(self._events, 4096, 0).decode().splitlines():
                key, _, value = line.partition(" ")
                if key == "max":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def keep_alive(self) -> None:
        """Mark the cgroup as in use (its folder's time), at most once a minute: a cgroup is
        swept as a leftover only when nobody marked it for :data:`STALE_S` seconds."""
        now = time.monotonic()
        if now - self._touched > 60:
            self._touched = now
            try:
                os.utime(self.path)
            except OSError:
                pass

    def close(self) -> None:
        """Remove the cgroup (it is empty once the sandbox is gone; retried briefly)."""
        for fd in (self._events, self._current):
            if fd is not None:
                os.close(fd)
        self._events = self._current = None
        remove(self.path)


@dataclass
class CpuGroup:
    """A cpuacct cgroup made for one runner's sandbox: every process of the sandbox is in it, so
    its ``cpuacct.usage`` counts the CPU time of processes no ``wait4`` reports (the children of
    a process that ignores SIGCHLD, reaped by the kernel itself). ``fd`` is what the supervisor
    inherits; it reads it before and after each test, less its own CPU time."""

    path: str
    fd: int

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        remove(self.path)


def cpu_group() -> CpuGroup | None:
    """A new cpuacct cgroup (cgroup v1, as root), or None where none can be made (not root, no
    v1 cpuacct controller, ``GAMECERT_CGROUPS=0``): then a test's CPU time is what ``wait4`` and
    the watch's scans report."""
    if os.environ.get("GAMECERT_CGROUPS", "").strip() == "0" or os.geteuid() != 0:
        return None
    if not (
        os.path.isfile(os.path.join(V1_CPUACCT, "cpuacct.usage")) and os.access(V1_CPUACCT, os.W_OK)
    ):
        return None
    _sweep(V1_CPUACCT)
    path = os.path.join(V1_CPUACCT, f"box-{secrets.token_hex(6)}")
    try:
        os.mkdir(path)
        fd = os.open(os.path.join(path, "cpuacct.usage"), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        remove(path, tries=1)
        return None
    os.set_inheritable(fd, True)
    return CpuGroup(path, fd)


def join_prefix(folders: list[str]) -> list[str]:
    """The command prefix that puts the launching shell in each cgroup folder, then runs the rest
    of the command line there (every process of the sandbox is born in them).

    >>> join_prefix(["/a", "/b"])[-2:]
    ['/a/cgroup.procs', '/b/cgroup.procs']
    """
    script = (
        'echo $$ > "$0" && '
        + "".join('echo $$ > "$1" && shift && ' for _ in folders[1:])
        + 'exec "$@"'
    )
    return ["/bin/sh", "-c", script, *(os.path.join(folder, "cgroup.procs") for folder in folders)]


def remove(path: str, tries: int = 200) -> None:
    """Remove a cgroup of ours: it is empty once its processes are gone (the kernel may take a
    moment to see them gone, so ``rmdir`` is retried every 10 ms)."""
    for _ in range(tries):
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)


def user_task_count() -> int:
    """Tasks (threads) of the current real user, for a per-user RLIMIT_NPROC."""
    uid, count = os.getuid(), 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{name}/task"))
            except OSError:
                continue
    return count


def _writable_root() -> tuple[str, str] | None:
    """Where a pids cgroup can be made here: (folder, kind), or None."""
    v1 = os.path.isfile(os.path.join(V1_PIDS, "pids.max")) or os.path.isfile(
        os.path.join(V1_PIDS, "cgroup.procs")
    )
    if v1 and os.access(V1_PIDS, os.W_OK):
        return V1_PIDS, "cgroup v1 pids controller"
    if v2_writable("pids"):
        return V2_ROOT, "cgroup v2 pids controller"
    return None


def v2_writable(controller: str) -> bool:
    """Whether ``controller`` is enabled below the unified hierarchy's root, and the root is
    writable here (a cgroup of ours can be made with it)."""
    try:
        with open(os.path.join(V2_ROOT, "cgroup.subtree_control")) as f:
            enabled = f.read().split()
    except OSError:
        return False
    return controller in enabled and os.access(V2_ROOT, os.W_OK)


def process_cap(limit: int) -> ProcessCap | None:
    """A new pids cgroup whose ``pids.max`` is ``limit``, or None where none can be made (not
    root, no pids controller, or ``GAMECERT_CGROUPS=0``)."""
    if os.environ.get("GAMECERT_CGROUPS", "").strip() == "0":
        return None
    found = _writable_root()
    if found is None:
        return None
    root, kind = found
    _sweep(root)
    path = os.path.join(root, f"box-{secrets.token_hex(6)}")
    try:
        os.mkdir(path)
    except OSError:
        return None
    try:
        with open(os.path.join(path, "pids.max"), "w") as f:
            f.write(str(limit))
    except OSError:
        try:
            os.rmdir(path)
        except OSError:
            pass
        return None
    return ProcessCap(path, limit, kind)


#: a cgroup of ours unmarked for this long and empty is a leftover (a gamecert process killed
#: before it could remove it); a live runner marks its own (:meth:`ProcessCap.keep_alive`), and a
#: young one may be about to be entered by its launching shell
STALE_S = 600


def _sweep(root: str) -> int:
    """Remove leftover ``box-*`` cgroups: empty (``rmdir`` refuses a cgroup with processes) and
    older than :data:`STALE_S`; how many were removed."""
    removed = 0
    now = time.time()
    try:
        names = [n for n in os.listdir(root) if n.startswith("box-")]
    except OSError:
        return 0
    for name in names:
        path = os.path.join(root, name)
        try:
            if now - os.stat(path).st_mtime > STALE_S:
                os.rmdir(path)
                removed += 1
        except OSError:
            pass
    return removed


def accounting(cap: ProcessCap | None, contained: bool, nproc: int, cpu: bool = False) -> str:
    """One line: how a runner's processes are counted and capped, and CPU time charged."""
    if not contained:
        return (
            "NOT contained: processes found by process group and as orphans (a process that left "
            "the group while its parent lives is missed); no process cap that holds as root"
        )
    counted = (
        "every process of the sandbox's PID namespace counted by the supervisor's watch and "
        "killed at the end of each test; CPU time of all of them charged (wait4"
        f"{', and a cpuacct cgroup for those no wait4 reports' if cpu else ''})"
    )
    if cap is not None:
        return f"{counted}; processes capped by a {cap.kind} (pids.max {cap.limit})"
    if nproc:
        return (
            f"{counted}; processes capped by RLIMIT_NPROC in the sandbox's user namespace ({nproc}; "
            "a fork it refuses is not counted: a program that goes on after one is judged by what "
            "it does)"
        )
    return (
        f"{counted}; NO process cap that holds (running as root without a writable pids cgroup): "
        "the watch kills a test past the limit within ~10 ms"
    )


def expected_accounting(contained: bool) -> str:
    """The :func:`accounting` line a runner made now would have (without making a cgroup)."""
    if not contained:
        return accounting(None, False, 0)
    if os.geteuid() == 0:
        found = None if os.environ.get("GAMECERT_CGROUPS", "").strip() == "0" else _writable_root()
        cap = ProcessCap("", 0, found[1]) if found else None
        cpu = os.environ.get("GAMECERT_CGROUPS", "").strip() != "0" and os.access(
            V1_CPUACCT, os.W_OK
        )
        line = accounting(cap, True, 0, cpu)
        return line.replace(" (pids.max 0)", "")
    return accounting(None, True, 1).replace(" (1; ", " (")
