"""Where a package is written: a new or empty folder, or a package gamecert wrote before (its
mark lists every file in it), replaced through a fresh folder and renames. A folder holding any
file gamecert did not write is refused, never emptied (``gamecert tests GAME --out DIR``).

May import: the testpack room's own modules, the engine's floor.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from gamecert.engine.testpack.testset import PackageError

#: the file that marks a folder as a package gamecert wrote: its first line names it, the rest
#: lists every file gamecert wrote there (a folder is replaced only if it holds nothing else)
MARK = ".gamecert-package"
MARK_HEAD = "gamecert test package; the files gamecert wrote here:"


def foreign_files(out: Path) -> list[str]:
    """The files and folders in ``out`` that gamecert did not write (``[]``: empty, or a package
    of gamecert's own holding only what its mark lists); ``["*"]`` stands for a folder with no mark."""
    if not out.is_dir():
        return []
    present = sorted(
        str(p.relative_to(out)) for p in out.rglob("*") if not p.is_dir() or not any(p.iterdir())
    )
    if not present:
        return []
    mark = out / MARK
    try:
        lines = mark.read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    if not lines or lines[0] != MARK_HEAD:
        return [p for p in present if p != MARK] or ["*"]
    written = set(lines[1:]) | {MARK}
    return [p for p in present if p not in written]


def check_out(out: Path) -> None:
    """Refuse ``--out`` where writing would lose a file gamecert did not write (one line, exit 2)."""
    if out.exists() and not out.is_dir():
        raise PackageError(f"--out {out}: exists and is not a folder")
    foreign = foreign_files(out)
    if foreign:
        what = (
            "it holds files gamecert did not write"
            if foreign == ["*"]
            else f"it holds {foreign[0]!r}"
            + (f" and {len(foreign) - 1} more files" if len(foreign) > 1 else "")
            + ", which gamecert did not write"
        )
        raise PackageError(
            f"--out {out}: not empty and not a gamecert package ({what}); "
            "choose an empty or new folder"
        )


def mark(out: Path) -> None:
    """Write :data:`MARK`: every file now in ``out``, as gamecert wrote them."""
    files = sorted(
        str(p.relative_to(out)) for p in out.rglob("*") if not p.is_dir() or not any(p.iterdir())
    )
    (out / MARK).write_text("\n".join([MARK_HEAD, *files]) + "\n")


def atomic_out(out: Path) -> Path:
    """A fresh temporary folder beside ``out`` (renamed into place by :func:`commit_out`)."""
    check_out(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))


def commit_out(tmp: Path, out: Path) -> None:
    """Put the package built in ``tmp`` in ``out`` by renames: into an absent or empty ``out``
    at once; over a package of gamecert's own (checked again now) by moving it aside first, then
    deleting it. A folder holding anything gamecert did not write is never touched."""
    mark(tmp)
    check_out(out)
    if out.exists() and any(out.iterdir()):
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
        os.rename(out, old / "package")
        try:
            os.rename(tmp, out)
        except OSError:
            os.rename(old / "package", out)  # put the old package back
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(tmp, out)  # an empty folder is replaced by the rename itself
