"""A test's memory as one figure: a memory cgroup for the test's processes, where the machine lets
gamecert make one.

A per-process limit (``RLIMIT_AS``, the sampled RSS) misses what lies beside a process: anonymous
files (``memfd_create``) filled with ``write``, SysV and POSIX shared memory, tmpfs pages, and
memory split over several processes each under the limit. The kernel's memory controller charges
all of these to the cgroup of the process that made them, as isolate's boxes do.

One cgroup per runner, made here (a neutral name: the candidate can read its cgroup path). A
zygote's test process joins it first thing after its fork (it writes ``0`` to ``cgroup.procs``
through a descriptor the supervisor holds and the test closes before the candidate's code runs);
the native fork server joins it once, before its exec, so that every clone is born there; an
exec'd test joins before its exec. The supervisor and the zygote's image stay outside, and the
fork server's image was charged before it joined: their pages are never the test's. Per test the supervisor resets the peak, notes the usage left from earlier tests
(page cache of files a test read first: reclaimable, never the next test's), and after the test
reads the peak and the OOM kills: the test's memory is the peak over that base. The cgroup's
hard limit is the problem's limit plus :data:`HEADROOM_MB`, so that the kernel stops a runaway,
and the supervisor's watch and its verdict decide MLE at the problem's limit itself.

cgroup v1's memory controller as root (this kind of machine), or v2's where ``memory`` is enabled
in a writable ``cgroup.subtree_control`` (root on the unified hierarchy). Nowhere else: then
memory is limited per process only, and the certificate's accounting line says so.
``GAMECERT_CGROUPS=0`` turns both cgroup caps off.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field

V1_MEMORY = "/sys/fs/cgroup/memory"
V2_ROOT = "/sys/fs/cgroup"
#: MB over the problem's limit where the kernel's own limit lies (the verdict is at the limit)
HEADROOM_MB = 64
#: bytes earlier tests may leave charged (page cache they read first) before the supervisor
#: empties the cgroup: half the headroom, so that no base can hide a test's memory (see
#: supervisor/_sv_box.py, EMPTY_SLACK)
EMPTY_SLACK = HEADROOM_MB << 19


@dataclass
class MemoryCap:
    """A memory cgroup made for one runner's tests; ``fds`` are what its supervisor inherits."""

    path: str
    version: int
    limit_mb: int
    fds: dict[str, int] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return f"cgroup v{self.version} memory controller"

    def config(self) -> dict[str, int | str]:
        """What the supervisor is told: the descriptors' numbers (inherited as they are), the
        controller's version and the limit the verdict is at."""
        return {
            **self.fds,
            "version": self.version,
            "limit_kb": self.limit_mb << 10,
            "slack": EMPTY_SLACK,
        }

    def inherited(self) -> list[int]:
        return list(self.fds.values())

    def close(self) -> None:
        """Close the descriptors and remove the cgroup (empty once its tests are gone)."""
        for fd in self.fds.values():
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds = {}
        from gamecert.engine.run.cgroups import remove

        remove(self.path)


def _root() -> tuple[str, int] | None:
    """Where a memory cgroup can be made: (folder, version), or None."""
    if os.path.isfile(os.path.join(V1_MEMORY, "memory.limit_in_bytes")) and os.access(
        V1_MEMORY, os.W_OK
    ):
        return V1_MEMORY, 1
    from gamecert.engine.run.cgroups import v2_writable

    return (V2_ROOT, 2) if v2_writable("memory") else None


def available() -> str | None:
    """The kind of memory controller a runner made now would get, or None."""
    if os.environ.get("GAMECERT_CGROUPS", "").strip() == "0" or os.geteuid() != 0:
        return None
    found = _root()
    return f"cgroup v{found[1]} memory controller" if found else None


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def memory_cap(limit_mb: int) -> MemoryCap | None:
    """A new memory cgroup for tests with a ``limit_mb`` limit, or None where none can be made."""
    if available() is None:
        return None
    root, version = _root()  # type: ignore[misc]
    from gamecert.engine.run.cgroups import _sweep

    _sweep(root)
    path = os.path.join(root, f"box-{secrets.token_hex(6)}")
    try:
        os.mkdir(path)
    except OSError:
        return None
    cap = MemoryCap(path, version, limit_mb)
    hard = (limit_mb + HEADROOM_MB) << 20
    try:
        if version == 1:
            _write(os.path.join(path, "memory.limit_in_bytes"), str(hard))
            swap = os.path.join(path, "memory.memsw.limit_in_bytes")
            if os.path.exists(swap):  # no way around the limit through swap
                _write(swap, str(hard))
            tcp = os.path.join(path, "memory.kmem.tcp.limit_in_bytes")
            if os.path.exists(
                tcp
            ):  # v1 charges TCP buffers only once a limit is set (not to usage)
                _write(tcp, str(hard))
            names = {
                "procs": ("cgroup.procs", os.O_WRONLY),
                "peak": ("memory.max_usage_in_bytes", os.O_RDWR),
                "usage": ("memory.usage_in_bytes", os.O_RDONLY),
                "events": ("memory.oom_control", os.O_RDONLY),
                "empty": ("memory.force_empty", os.O_WRONLY),
            }
        else:
            _write(os.path.join(path, "memory.max"), str(hard))
            if os.path.exists(os.path.join(path, "memory.swap.max")):
                _write(os.path.join(path, "memory.swap.max"), "0")
            _write(os.path.join(path, "memory.oom.group"), "1")
            names = {
                "procs": ("cgroup.procs", os.O_WRONLY),
                "peak": ("memory.peak", os.O_RDWR),
                "usage": ("memory.current", os.O_RDONLY),
                "events": ("memory.events", os.O_RDONLY),
            }
            if os.path.exists(os.path.join(path, "memory.reclaim")):
                names["empty"] = ("memory.reclaim", os.O_WRONLY)
        for key, (name, flags) in names.items():
            fd = os.open(os.path.join(path, name), flags | os.O_CLOEXEC)
            os.set_inheritable(fd, True)
            cap.fds[key] = fd
    except OSError:
        cap.close()
        return None
    return cap


def oom_kills(text: str) -> int:
    """The OOM kill count in ``memory.oom_control`` (v1) or ``memory.events`` (v2).

    >>> oom_kills("oom_kill_disable 0\\nunder_oom 0\\noom_kill 3\\n")
    3
    >>> oom_kills("low 0\\nhigh 0\\nmax 7\\noom 1\\noom_kill 1\\noom_group_kill 0\\n")
    1
    """
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key == "oom_kill":
            return int(value)
    return 0


def line(cap: MemoryCap | None, contained: bool) -> str:
    """How a test's memory is measured and limited, for the accounting line."""
    if cap is not None:
        return (
            f"memory of every process of the test, anonymous files, shared memory and tmpfs pages "
            f"charged to a {cap.kind} (MLE at {cap.limit_mb} MB; the peak reset for every test)"
        )
    if not contained:
        return "memory limited per process only"
    return f"memory limited per process only ({_why_none()})"


def _why_none() -> str:
    """Why no runner gets a memory cgroup here, in a few words.

    >>> isinstance(_why_none(), str)
    True
    """
    if os.environ.get("GAMECERT_CGROUPS", "").strip() == "0":
        return "GAMECERT_CGROUPS=0"
    if os.geteuid() != 0:
        if os.path.isdir(V1_MEMORY):
            return "not root: cgroup v1 delegates no memory cgroup of one's own"
        return "not root: a cgroup v2 memory controller delegated by systemd is not used"
    return "no usable memory controller here"


def expected_line(contained: bool) -> str:
    """The :func:`line` a runner made now would say (without making a cgroup)."""
    kind = available() if contained else None
    if kind is None:
        return line(None, contained)
    return (
        f"memory of every process of the test, anonymous files, shared memory and tmpfs pages "
        f"charged to a {kind} (MLE at the limit; the peak reset for every test)"
    )
