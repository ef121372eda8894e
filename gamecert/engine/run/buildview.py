"""What a compile step sees of the machine: the compiler's own files, never a home.

A build runs a source's author's code at compile time (Rust's ``include_str!``, C's ``#include``
and ``.incbin``, Java's annotation processors reading files), so whatever its box shows can come
back in the program's answer. :func:`toolchain_view` gives, for a compile command, the command to
run and the paths to bind read-only beside the system folders:

* rustc through a rustup proxy (``~/.cargo/bin/rustc``) is run as the toolchain's own compiler,
  ``SYSROOT/bin/rustc`` with the sysroot ``rustc --print sysroot`` names (asked outside the box,
  of the user's own toolchain, once per process), and only that sysroot is bound: neither the
  cargo home (where ``credentials.toml`` keeps a registry token) nor the rustup home;
* Go's compiler gets its ``GOROOT`` (``go env GOROOT``) and nothing of ``GOPATH``;
* any other compiler outside the system folders gets its installation (the folder above the
  ``bin`` its real file is in: a JDK, a node or gcc installation), unless that folder is a home
  or a home's general-purpose folder (``~``, ``~/.local``, ``~/.cargo``): then only the program's
  own file.

Compilers under ``/usr`` (gcc, g++, the distribution's JDK and node) need nothing more. The
view is the same for plain, instrumented and sanitizer builds: they all start through
:func:`gamecert.engine.run.toolchains._run_build`.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

#: folders of a home that hold more than one tool's files (and their keys); never bound whole
_GENERAL_FOLDERS = (".local", ".cargo", ".rustup", ".config", ".npm", ".m2", ".gradle", "go")
#: the system prefixes already bound by the box
_SYSTEM = ("/usr/", "/bin/", "/sbin/", "/lib")


def _homes() -> list[str]:
    """The user's home (``$HOME`` and the password database's), real paths."""
    out = [os.path.expanduser("~")]
    try:
        import pwd

        out.append(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError):
        pass
    return list(dict.fromkeys(os.path.realpath(h) for h in out if h and h != "/"))


def _too_wide(folder: str) -> bool:
    """Whether ``folder`` is a home, holds one, or is a home's general-purpose folder.

    >>> _too_wide("/")
    True
    >>> _too_wide("/opt/jdk-21")
    False
    """
    real = os.path.realpath(folder)
    if real == "/":
        return True
    for home in _homes():
        if real == home or home.startswith(real.rstrip("/") + "/"):
            return True
        if os.path.dirname(real) == home and os.path.basename(real) in _GENERAL_FOLDERS:
            return True
    return False


@functools.cache
def _ask(argv: tuple[str, ...]) -> str:
    """One line a toolchain prints about itself ("" when it cannot be asked)."""
    try:
        done = subprocess.run(
            list(argv), capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    lines = done.stdout.strip().splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else ""


def rust_sysroot(rustc: str) -> str:
    """The sysroot of the toolchain ``rustc`` runs ("" when it cannot be told)."""
    root = _ask((rustc, "--print", "sysroot"))
    return root if root and os.path.isdir(root) else ""


def toolchain_view(argv: list[str]) -> tuple[list[str], list[str]]:
    """The compile command to run in the box and the paths it needs bound read-only.

    >>> toolchain_view(["/nonexistent/cc", "x.c"])
    (['/nonexistent/cc', 'x.c'], [])
    """
    program = argv[0] if os.path.isabs(argv[0]) else shutil.which(argv[0])
    if not program:
        return list(argv), []
    real = os.path.realpath(program)
    name = os.path.basename(argv[0])
    if name == "rustc" and not real.startswith(_SYSTEM):
        root = rust_sysroot(program)
        own = os.path.join(root, "bin", "rustc")
        if root and os.access(own, os.X_OK):
            return [own, *argv[1:]], [root]
    readable = [program]
    if real != program:
        readable.append(real)
    if name == "go":
        goroot = _ask((program, "env", "GOROOT"))
        if goroot and os.path.isdir(goroot) and not _too_wide(goroot):
            readable.append(goroot)
    if not real.startswith(_SYSTEM):
        prefix = os.path.dirname(os.path.dirname(real))
        if not _too_wide(prefix):
            readable.append(prefix)
    return [program, *argv[1:]], [p for p in dict.fromkeys(readable) if os.path.exists(p)]
