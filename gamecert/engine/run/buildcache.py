"""The build cache's housekeeping: where builds are kept, the sha256 a cached build is checked
against, and the rename that publishes a finished build (:mod:`gamecert.engine.run.toolchains`
builds into it)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from gamecert.errors import UsageError

#: the executable's name in a build folder
EXE = "prog"


def cache_root() -> Path:
    """Where builds are kept: ``$GAMECERT_CACHE/build``, else ``${XDG_CACHE_HOME:-~/.cache}/gamecert/build``."""
    chosen = os.environ.get("GAMECERT_CACHE")
    if chosen:
        return Path(chosen).expanduser() / "build"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gamecert" / "build"


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _tree_sha256(folder: Path, skip: set[str]) -> str:
    """One sha256 over the files of a build folder (names and contents), for Java's class files."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name not in skip):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + _sha256_file(path).encode())
    return digest.hexdigest()


def _intact(entry: Path, language: str) -> bool:
    """Whether a cached build is what was built: its files' sha256 is the one recorded when it
    was built. An entry that changed since (a program, or anybody, wrote into the cache) is
    moved aside and built again, so a report's sha256 is always that of what runs."""
    try:
        meta = json.loads((entry / "build.json").read_text())
        now = (
            _tree_sha256(entry, {meta["source_name"], "build.json"})
            if language == "java"
            else _sha256_file(entry / EXE)
        )
        if now and now == meta["binary_sha256"]:
            return True
    except (OSError, ValueError, KeyError):
        pass
    shutil.rmtree(_set_aside(entry), ignore_errors=True)
    return False


def _set_aside(entry: Path) -> Path:
    """Move a cache entry out of its place, into a fresh ``.stale-*`` folder (returned, for
    removal), so that no other process can take it for a finished build meanwhile."""
    trash = Path(tempfile.mkdtemp(prefix=".stale-", dir=entry.parent))
    try:
        os.rename(entry, trash / "entry")
    except OSError:
        pass
    return trash


def _complete(entry: Path) -> bool:
    return (entry / "build.json").is_file()  # a cache entry is complete once renamed into place


def work_folder(
    root: Path, prefix: str
) -> Path:  # a fresh folder in the build cache, or a clear error
    try:
        root.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=prefix, dir=root))
    except OSError as exc:
        raise UsageError(
            f"cannot use the build cache {root}: {exc.strerror or exc} (set $GAMECERT_CACHE)"
        ) from None


def _publish(work: Path, final: Path) -> None:
    """Rename the finished build into place; a finished entry already there is kept, an
    incomplete one (files removed by hand) is replaced."""
    try:
        os.rename(work, final)
        return
    except OSError:
        if _complete(final):
            return
    trash = _set_aside(final)
    try:
        os.rename(work, final)
    except OSError:
        if not _complete(final):
            raise
    finally:
        shutil.rmtree(trash, ignore_errors=True)
