"""The caps a compile step runs under, beside its wall-clock limit (``toolchains.BUILD_TIMEOUT_S``).

A judge compiles under limits of its own: a compiler fed ``#include "/dev/zero"``, a constant
of gigabytes or a constant string doubled forty times would otherwise take the machine's memory
before the time limit stops it. Every compile step gets

* **memory**: :data:`BUILD_MEMORY_MB` (``GAMECERT_BUILD_MEMORY_MB`` to change it), as a cgroup v1
  memory controller's ``memory.limit_in_bytes`` where one can be made (root), which charges
  every process of the step together, page cache and tmpfs pages included, and has the kernel
  kill the step at the cap; elsewhere as ``RLIMIT_AS`` per process (a JVM then gets a smaller
  heap and class space through ``JAVA_TOOL_OPTIONS``, as it reserves more address space than
  the cap at start, and glibc at most two malloc arenas; javac needs about 768 MB then);
* **processes**: :data:`BUILD_PROCESSES` processes and threads, as a cgroup v1 pids
  controller's ``pids.max`` where one can be made; none elsewhere;
* **file size**: :data:`BUILD_FILE_BYTES` per file written (``RLIMIT_FSIZE``); core dumps off.

:func:`build_cap` makes the cgroups (neutral names, removed by :meth:`BuildCap.close`) and
:meth:`BuildCap.launcher` the command prefix that enters them, sets the limits and runs the
step. After the step, :meth:`BuildCap.stopped` says which cap stopped it, in one line that
leads the compile error's message. cgroup v2 is not used here yet.
"""

from __future__ import annotations

import os
import re
import secrets
import sys
import time
from dataclasses import dataclass

#: the memory a compile step may use, all its processes together (MB)
BUILD_MEMORY_MB = 2048
#: the processes and threads a compile step may have at once (a JVM or rustc on a machine with
#: many cores starts dozens of threads)
BUILD_PROCESSES = 256
#: the largest file a compile step may write (its executable, objects, class files)
BUILD_FILE_BYTES = 256 << 20
MEMORY_ENV = "GAMECERT_BUILD_MEMORY_MB"
V1_MEMORY = "/sys/fs/cgroup/memory"
V1_PIDS = "/sys/fs/cgroup/pids"
PREFIX = "build-"
#: the JVM options a compiler running on the JVM (javac) gets under an address-space cap:
#: without them it cannot start below about 3 GB of address space
JVM_UNDER_AS = (
    "-Xmx{heap}m -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=64m -XX:+UseSerialGC"
)

#: what a compiler says when an allocation failed (gcc, rustc, the JVM)
_OUT_OF_MEMORY = re.compile(
    r"out of memory|memory exhausted|cannot allocate memory|memory allocation of \d+ "
    r"bytes failed|more memory than available|OutOfMemoryError|insufficient memory",
    re.IGNORECASE,
)

#: enters the cgroups, sets the limits, runs the step: argv is
#: ``python -I -S -c LAUNCHER FSIZE AS CGROUP_PROCS_FILES... -- COMMAND...``
_LAUNCHER = """\
import os, resource, sys
args = sys.argv[1:]
cut = args.index("--")
fsize, space, files, command = int(args[0]), int(args[1]), args[2:cut], args[cut + 1:]
for path in files:
    with open(path, "w") as f:
        f.write(str(os.getpid()))
resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
if space:
    resource.setrlimit(resource.RLIMIT_AS, (space, space))
try:
    os.execvp(command[0], command)
except OSError as exc:
    sys.stderr.write(f"cannot start {command[0]}: {exc.strerror or exc}\\n")
    os._exit(127)
"""


def memory_mb() -> int:
    """The build's memory cap in MB: ``GAMECERT_BUILD_MEMORY_MB`` if set to a whole number of at
    least 64, else :data:`BUILD_MEMORY_MB`.

    >>> memory_mb() == int(os.environ.get(MEMORY_ENV) or BUILD_MEMORY_MB)
    True
    """
    text = os.environ.get(MEMORY_ENV, "").strip()
    if text:
        from gamecert.errors import UsageError

        if not text.isdigit() or int(text) < 64:
            raise UsageError(f"{MEMORY_ENV}={text!r} must be a whole number of MB, at least 64")
        return int(text)
    return BUILD_MEMORY_MB


@dataclass
class BuildCap:
    """The caps of one compile step: the cgroups made for it ("" where none could be made)."""

    memory_bytes: int
    processes: int
    file_bytes: int
    memory_cgroup: str = ""
    pids_cgroup: str = ""

    def describe(self) -> str:
        """One line: the caps and how each is held.

        >>> BuildCap(1 << 30, 8, 1 << 20).describe()
        'memory 1024 MB (RLIMIT_AS per process), file size 1 MB (RLIMIT_FSIZE), no process cap'
        """
        how = "a memory cgroup" if self.memory_cgroup else "RLIMIT_AS per process"
        line = f"memory {self.memory_bytes >> 20} MB ({how}), file size {self.file_bytes >> 20} MB (RLIMIT_FSIZE), "
        return line + (
            f"{self.processes} processes and threads (a pids cgroup)"
            if self.pids_cgroup
            else "no process cap"
        )

    def launcher(self) -> list[str]:
        """The command prefix that runs a step under these caps (the step's argv follows it)."""
        files = [
            os.path.join(path, "cgroup.procs")
            for path in (self.memory_cgroup, self.pids_cgroup)
            if path
        ]
        space = 0 if self.memory_cgroup else self.memory_bytes
        return [
            sys.executable,
            "-I",
            "-S",
            "-c",
            _LAUNCHER,
            str(self.file_bytes),
            str(space),
            *files,
            "--",
        ]

    def environment(self, base: dict[str, str]) -> dict[str, str]:
        """The step's environment: ``base``, and under an address-space cap JVM options that fit
        it and at most two malloc arenas (glibc reserves 64 MB of address space per arena, up
        to one per thread of a many-threaded compiler)."""
        env = dict(base)
        if not self.memory_cgroup:
            env.setdefault("MALLOC_ARENA_MAX", "2")
            heap = max(32, (self.memory_bytes >> 20) // 4)
            env["JAVA_TOOL_OPTIONS"] = " ".join(
                filter(None, (env.get("JAVA_TOOL_OPTIONS", ""), JVM_UNDER_AS.format(heap=heap)))
            )
        return env

    def _read(self, folder: str, name: str) -> str:
        try:
            with open(os.path.join(folder, name)) as f:
                return f.read()
        except OSError:
            return ""

    def stopped(self, rc: int, output: str, workdir: str) -> str:
        """The line naming the cap that stopped a failed step ("" if none did, or ``rc`` is 0)."""
        if rc == 0:
            return ""
        mb = self.memory_bytes >> 20
        if self.memory_cgroup:
            control = dict(
                line.split()
                for line in self._read(self.memory_cgroup, "memory.oom_control").splitlines()
                if len(line.split()) == 2
            )
            peak = self._read(self.memory_cgroup, "memory.max_usage_in_bytes").strip()
            if control.get("oom_kill", "0") != "0":
                return (
                    f"compilation stopped by the build's memory cap: its processes together reached {mb} MB "
                    "(a memory cgroup) and the kernel killed the compiler"
                )
            if (
                peak.isdigit()
                and int(peak) >= self.memory_bytes - (1 << 20)
                and _OUT_OF_MEMORY.search(output)
            ):
                return f"compilation stopped by the build's memory cap: the compiler ran out of memory at {mb} MB (a memory cgroup)"
        elif _OUT_OF_MEMORY.search(output):
            return (
                f"compilation stopped by the build's memory cap: the compiler could not get more memory under "
                f"its address-space cap of {mb} MB (RLIMIT_AS; no memory cgroup here)"
            )
        if self.pids_cgroup and _events_max(self._read(self.pids_cgroup, "pids.events")) > 0:
            return (
                f"compilation stopped by the build's process cap: it tried to have more than {self.processes} "
                "processes and threads (a pids cgroup)"
            )
        if (
            rc == -25
            or "file size limit exceeded" in output.lower()
            or _reached(workdir, self.file_bytes)
        ):
            return f"compilation stopped by the build's file-size cap: a file it wrote reached {self.file_bytes >> 20} MB"
        return ""

    def close(self) -> None:
        """Kill what is left in the cgroups, then remove them (retried briefly)."""
        for path in (self.memory_cgroup, self.pids_cgroup):
            for pid in self._read(path, "cgroup.procs").split() if path else ():
                try:
                    os.kill(int(pid), 9)
                except (OSError, ValueError):
                    pass
        for path in (self.memory_cgroup, self.pids_cgroup):
            for _ in range(200):
                try:
                    os.rmdir(path) if path else None
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def _events_max(text: str) -> int:
    """The ``max`` count of a ``pids.events`` file's text.

    >>> _events_max("max 3\\n"), _events_max("")
    (3, 0)
    """
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key == "max" and value.strip().isdigit():
            return int(value)
    return 0


def _reached(workdir: str, cap: int) -> bool:
    """Whether a file in ``workdir`` (not below) is as large as the file-size cap."""
    try:
        with os.scandir(workdir) as entries:
            return any(
                e.is_file(follow_symlinks=False) and e.stat(follow_symlinks=False).st_size >= cap
                for e in entries
            )
    except OSError:
        return False


def _cgroup(root: str, limits: dict[str, int]) -> str:
    """A new cgroup under ``root`` (a v1 controller's hierarchy) with ``limits`` written, or ""."""
    if os.environ.get("GAMECERT_CGROUPS", "").strip() == "0" or not os.access(root, os.W_OK):
        return ""
    if not os.path.isfile(os.path.join(root, "cgroup.procs")):
        return ""
    _sweep(root)
    path = os.path.join(root, PREFIX + secrets.token_hex(6))
    try:
        os.mkdir(path)
    except OSError:
        return ""
    try:
        for name, value in limits.items():
            if os.path.exists(os.path.join(path, name)):
                with open(os.path.join(path, name), "w") as f:
                    f.write(str(value))
            elif name in ("memory.limit_in_bytes", "pids.max"):
                raise OSError(f"{name} missing")
    except OSError:
        try:
            os.rmdir(path)
        except OSError:
            pass
        return ""
    return path


#: an empty cgroup of ours older than this is a leftover of a gamecert process killed mid-build
#: (a build's own cgroup lives as long as the build, at most its time limit)
STALE_S = 600


def _sweep(root: str) -> None:
    """Remove leftover, empty ``build-*`` cgroups older than :data:`STALE_S`."""
    now = time.time()
    try:
        names = [n for n in os.listdir(root) if n.startswith(PREFIX)]
    except OSError:
        return
    for name in names:
        path = os.path.join(root, name)
        try:
            if now - os.stat(path).st_mtime > STALE_S:
                os.rmdir(path)
        except OSError:
            pass


def build_cap() -> BuildCap:
    """The caps for one compile step, with cgroups made for it where the machine allows."""
    memory = memory_mb() << 20
    cap = BuildCap(memory, BUILD_PROCESSES, BUILD_FILE_BYTES)
    # no swap for the step: memsw, where the kernel accounts swap, gets the same limit
    cap.memory_cgroup = _cgroup(
        V1_MEMORY, {"memory.limit_in_bytes": memory, "memory.memsw.limit_in_bytes": memory}
    )
    cap.pids_cgroup = _cgroup(V1_PIDS, {"pids.max": BUILD_PROCESSES})
    return cap
