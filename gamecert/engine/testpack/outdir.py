"""Where a package is written: a new or empty folder, or a package gamecert wrote before (its
mark lists every file in it with the sha256 of its content), replaced through a fresh folder and
renames. A folder holding any file gamecert did not write is refused, never emptied (``gamecert
tests GAME --out DIR``). A file gamecert wrote and the setter edited since (its content no longer
has the hash the mark gives) is never lost: the rebuild refuses and names it, unless told to keep
the edit (the edited file goes into the new package in place of gamecert's, and is said) or to
discard it. A mark of the older form (names only) cannot tell an edit; its package is replaced as
before.

May import: the testpack room's own modules, the engine's floor.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from gamecert.engine.testpack.testset import PackageError

#: the file that marks a folder as a package gamecert wrote: its first line names it, the rest
#: lists every file gamecert wrote there (a folder is replaced only if it holds nothing else). Not
#: a dot file: Kattis' verifyproblem refuses any file name that starts with a dot
MARK = "gamecert-package.txt"
#: the mark's older name, still read (a package written before is recognised and replaced)
OLD_MARK = ".gamecert-package"
MARKS = (MARK, OLD_MARK)
MARK_HEAD = "gamecert test package; the files gamecert wrote here:"
#: the head of a mark whose lines are ``SHA256  PATH`` (the content gamecert wrote)
MARK_HEAD_HASHED = "gamecert test package; the files gamecert wrote here, with the sha256 of each:"
#: what a rebuild does with an edited file: refuse (the default), keep the edit, discard it
EDITS = ("refuse", "keep", "discard")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _files_in(out: Path) -> list[str]:
    return sorted(
        str(p.relative_to(out)) for p in out.rglob("*") if not p.is_dir() or not any(p.iterdir())
    )


def written(out: Path) -> dict[str, str | None] | None:
    """The files the mark of ``out`` lists, each with the hash gamecert wrote (None in a mark of
    the older form); None where there is no mark."""
    try:
        where = next((out / m for m in MARKS if (out / m).is_file()), out / MARK)
        lines = where.read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0] not in (MARK_HEAD, MARK_HEAD_HASHED):
        return None
    if lines[0] == MARK_HEAD:
        return dict.fromkeys(lines[1:])
    out_map: dict[str, str | None] = {}
    for line in lines[1:]:
        digest, _, name = line.partition("  ")
        out_map[name] = digest
    return out_map


def edited_files(out: Path) -> list[str]:
    """The files gamecert wrote in ``out`` whose content has changed since (by the mark's hash)."""
    listed = written(out) or {}
    return [
        name
        for name, digest in sorted(listed.items())
        if digest is not None and (out / name).is_file() and _digest(out / name) != digest
    ]


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
    listed = written(out)
    if listed is None:
        return [p for p in present if p not in MARKS] or ["*"]
    return [p for p in present if p not in listed and p not in MARKS]


def check_out(out: Path, edits: str = "refuse") -> None:
    """Refuse ``--out`` where writing would lose a file gamecert did not write, or (``edits``
    ``refuse``) a file of gamecert's the setter has edited (one line, exit 2)."""
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
    changed = edited_files(out) if edits == "refuse" else []
    if changed:
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        raise PackageError(
            f"--out {out}: {changed[0]}{more} edited since gamecert wrote {'them' if more else 'it'} "
            f"(its content is not what gamecert wrote): --keep-edits to keep the edit in the new "
            f"package, --discard-edits to write gamecert's over it"
        )


def mark(out: Path) -> None:
    """Write :data:`MARK`: every file now in ``out`` with the hash of its content, as gamecert
    wrote them."""
    lines = [f"{_digest(out / name)}  {name}" for name in _files_in(out) if name not in MARKS]
    (out / MARK).write_text("\n".join([MARK_HEAD_HASHED, *lines]) + "\n")


def atomic_out(out: Path, edits: str = "refuse") -> Path:
    """A fresh temporary folder beside ``out`` (renamed into place by :func:`commit_out`)."""
    check_out(out, edits)
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))


def commit_out(tmp: Path, out: Path, edits: str = "refuse") -> list[str]:
    """Put the package built in ``tmp`` in ``out`` by renames: into an absent or empty ``out``
    at once; over a package of gamecert's own (checked again now) by moving it aside first, then
    deleting it. A folder holding anything gamecert did not write is never touched. With
    ``edits="keep"``, each file the setter edited replaces gamecert's new one (the mark keeps
    gamecert's hash, so the edit is seen again at the next rebuild): the kept files, returned."""
    mark(tmp)
    check_out(out, edits)
    kept = edited_files(out) if edits == "keep" else []
    for name in kept:
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(out / name, tmp / name)
        listed = written(tmp) or {}
        if name not in listed:  # a file the new build does not write: the mark takes it as it is
            with open(tmp / MARK, "a") as f:
                f.write(f"{_digest(tmp / name)}  {name}\n")
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
    return kept
