"""Which report folders gamecert wrote itself, for this user: the only ones whose program
``gamecert replay`` runs without being told.

A report.json names a command line and limits; one from someone else (a folder received, a
download) could name anything. So every report gamecert writes has the sha256 of its
report.json remembered in the user's own state (``$GAMECERT_CACHE/written-reports``, else
``${XDG_CACHE_HOME:-~/.cache}/gamecert/written-reports``: one empty file per report, named by
the hash, in a folder only the user may write). :func:`wrote` tells whether a report.json is
byte for byte one of those. A cache cleared, or a report edited since, is then a report of
someone else's: replay asks for the program on the command line.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def _folder() -> Path:
    chosen = os.environ.get("GAMECERT_CACHE")
    if chosen:
        return Path(chosen).expanduser() / "written-reports"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gamecert" / "written-reports"


def _key(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


def remember(report_json: str) -> bool:
    """Note that gamecert wrote this report.json text; False when it could not be noted (the
    report is then replayed only on a program given on the command line)."""
    folder = _folder()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        (folder / _key(report_json.encode("utf-8"))).touch()
    except OSError:
        return False
    return True


def wrote(report_json: Path) -> bool:
    """Whether ``report_json`` is, byte for byte, a report.json gamecert wrote for this user."""
    folder = _folder()
    try:
        if folder.stat().st_uid != os.getuid():
            return False
        return (folder / _key(report_json.read_bytes())).is_file()
    except OSError:
        return False
