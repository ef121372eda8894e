"""The native fork server's shim, built once: ``supervisor/shim.c`` compiled with the system C
compiler into a shared library that the supervisor preloads into a candidate program (see
``supervisor/_sv_native.py``). The supervisor's per-test loop for fast native tests,
``supervisor/testloop.c`` (see ``supervisor/_sv_fast.py``), is built and kept the same way.

The library is kept in ``$GAMECERT_CACHE/shim`` (default ``${XDG_CACHE_HOME:-~/.cache}/gamecert/shim``),
a folder of mode 0700 owned by the harness user, under a name made of the sha256 of the source,
the compile flags and the compiler's version; beside it, its own sha256, checked before every
reuse (a file that differs is built anew). A build is written to a temporary file and renamed
into place, so parallel harnesses never see half a library.

>>> is_dynamic_elf(__file__)
False
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from gamecert.engine.run.supervisor._sv_native import early_code, is_dynamic_elf

SOURCE = Path(__file__).resolve().parent / "supervisor" / "shim.c"
#: the supervisor's per-test loop for fast native tests (``supervisor/_sv_fast.py`` loads it)
TESTLOOP_SOURCE = Path(__file__).resolve().parent / "supervisor" / "testloop.c"
FLAGS = ("-O2", "-shared", "-fPIC", "-Wall")
_COMPILERS = ("cc", "gcc", "clang")
_COMPILE_TIMEOUT_S = 60


def cache_dir() -> Path:
    """``$GAMECERT_CACHE/shim``, else ``${XDG_CACHE_HOME:-~/.cache}/gamecert/shim``."""
    chosen = os.environ.get("GAMECERT_CACHE")
    if chosen:
        return Path(chosen).expanduser() / "shim"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gamecert" / "shim"


def find_compiler() -> str | None:
    """The first C compiler found on ``PATH`` among cc, gcc, clang."""
    for name in _COMPILERS:
        found = shutil.which(name)
        if found:
            return found
    return None


@functools.lru_cache(maxsize=8)
def _compiler_version(compiler: str) -> str:
    done = subprocess.run(
        [compiler, "--version"], capture_output=True, text=True, timeout=30, check=False
    )
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0] if lines else ""


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _private_dir(folder: Path) -> str:
    """Make ``folder`` (mode 0700, ours); a reason if it cannot be, else ""."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
        if info.st_uid != os.geteuid():
            return f"{folder} belongs to another user"
        if info.st_mode & 0o077:
            os.chmod(folder, 0o700)
    except OSError as exc:
        return f"cannot use {folder}: {exc.strerror or exc}"
    return ""


def _write_atomically(folder: Path, name: str, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, folder / name)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _build(compiler: str, folder: Path, name: str, source: Path = SOURCE) -> str:
    """Compile ``source`` to ``folder/name`` and record its sha256; a reason on failure, else ""."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    os.close(fd)
    try:
        done = subprocess.run(
            [compiler, *FLAGS, "-o", tmp, str(source)],
            capture_output=True,
            text=True,
            timeout=_COMPILE_TIMEOUT_S,
            check=False,
        )
        if done.returncode != 0:
            return f"{compiler} could not compile {source.name}: {(done.stderr or done.stdout).strip()[:400]}"
        os.chmod(tmp, 0o755)
        digest = _sha256(Path(tmp))
        os.replace(tmp, folder / name)
        _write_atomically(folder, name + ".sha256", digest.encode() + b"\n")
    except (OSError, subprocess.SubprocessError) as exc:
        return f"could not build {source.name}: {exc}"
    finally:
        Path(tmp).unlink(missing_ok=True)
    return ""


def shim_status() -> tuple[str | None, str]:
    """The shim library's path and "", or None and why there is none (no C compiler, the
    cache folder unusable, the source not compiling)."""
    return library_status(SOURCE, "shim")


def testloop_status() -> tuple[str | None, str]:
    """The per-test loop library's path and "", or None and why there is none (then the
    supervisor runs every test through its Python path); ``GAMECERT_TESTLOOP=0`` turns it off."""
    if os.environ.get("GAMECERT_TESTLOOP", "").strip() == "0":
        return None, "GAMECERT_TESTLOOP=0"
    return library_status(TESTLOOP_SOURCE, "testloop")


def library_status(source_path: Path, stem: str) -> tuple[str | None, str]:
    """The library built from the C source ``source_path`` (cached as ``STEM-KEY.so``), or None and why."""
    compiler = find_compiler()
    if compiler is None:
        return None, "no C compiler (cc, gcc, clang) on PATH"
    try:
        source = source_path.read_bytes()
        version = _compiler_version(compiler)
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"cannot prepare {source_path.name}: {exc}"
    key = hashlib.sha256(
        b"\0".join([source, " ".join(FLAGS).encode(), version.encode()])
    ).hexdigest()
    folder = cache_dir()
    reason = _private_dir(folder)
    if reason:
        return None, reason
    name = f"{stem}-{key[:24]}.so"
    path = folder / name
    for attempt in range(2):
        try:
            recorded = (folder / (name + ".sha256")).read_text().strip()
            if recorded and _sha256(path) == recorded:
                return str(path), ""
        except OSError:
            pass
        if attempt == 0:
            reason = _build(compiler, folder, name, source_path)
            if reason:
                return None, reason
    return None, f"the shim in {folder} does not match its recorded sha256 after a rebuild"


def plan(language: str, argv: list[str], languages: tuple[str, ...]) -> tuple[str | None, str]:
    """The shim for running ``argv`` (a candidate in ``language``) through the native fork
    server, or None and why each test is exec'd instead."""
    if os.environ.get("GAMECERT_NATIVE_FORKSERVER", "").strip() == "0":
        return None, "GAMECERT_NATIVE_FORKSERVER=0"
    if language not in languages:
        return None, f"a {language} candidate runs through its interpreter"
    if not argv or not is_dynamic_elf(argv[0]):
        return None, "not a dynamically linked program"
    why = early_code(argv[0])
    if why:
        return None, why
    return shim_status()


def shim_path() -> str | None:
    """The shim library's path, built if needed; None where it cannot be (see :func:`shim_status`)."""
    return shim_status()[0]


__all__ = [
    "SOURCE",
    "TESTLOOP_SOURCE",
    "cache_dir",
    "early_code",
    "find_compiler",
    "is_dynamic_elf",
    "library_status",
    "plan",
    "shim_path",
    "shim_status",
    "testloop_status",
]
