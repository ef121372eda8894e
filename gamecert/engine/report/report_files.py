"""Reports and certificates on disk: written atomically (a directory built under a hidden name and
renamed into place; single files through a temporary file and :func:`os.replace`), read back
and checked for ``gamecert replay``, and never lost (:func:`_write_somewhere` falls back to a
fresh temporary directory when the report folder cannot be written). The documents themselves
are :mod:`gamecert.engine.report.reports`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gamecert.engine.report.reports import (
    Certificate,
    FailureReport,
    safe_name,
)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise


def _unlink_quietly(path: str | os.PathLike[str]) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def publish_directory(
    report_dir: str | os.PathLike[str],
    game: str,
    candidate: str,
    files: Mapping[str, str],
    created: str,
) -> Path:
    """Write ``files`` into a fresh ``report_dir/game/<candidate>-<created>/`` all at once.

    The files go into a hidden temporary directory beside the target, which is then renamed
    into place: the target appears complete or not at all. A clash of names (two runs in the
    same millisecond) gets a numeric suffix.
    """
    parent = Path(report_dir) / game
    parent.mkdir(parents=True, exist_ok=True)
    base = f"{safe_name(candidate)}-{created}"
    staging = Path(tempfile.mkdtemp(prefix=f".{base}.", suffix=".tmp", dir=parent))
    try:
        for name, text in files.items():
            atomic_write_text(staging / name, text)
        os.chmod(staging, 0o755)
        for attempt in range(1000):
            target = parent / (base if attempt == 0 else f"{base}-{attempt + 1}")
            try:
                os.rename(staging, target)  # fails if target exists and is not empty
                return target
            except OSError:
                if not target.exists():
                    raise
        raise OSError(f"could not find a free report directory name under {parent}")
    except BaseException:
        for child in staging.glob("*") if staging.exists() else ():
            _unlink_quietly(child)
        try:
            staging.rmdir()
        except OSError:
            pass
        raise


def _dump(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write_report(report: FailureReport, report_dir: str | os.PathLike[str]) -> Path:
    """Write ``report`` as a new report directory; return its path."""
    # the directory name is known only after the rename, so the texts that mention it are
    # rendered with the name it will most likely get and fixed up if a clash renamed it
    parent = Path(report_dir) / report.game
    guess = parent / f"{safe_name(report.candidate)}-{report.created}"
    files = _report_files(report, guess)
    from gamecert.engine.report.written import remember

    remember(files["report.json"])  # before it is published: replay may follow at once
    path = publish_directory(report_dir, report.game, report.candidate, files, report.created)
    if path != guess:
        files = _report_files(report, path)
        remember(files["report.json"])
        for name, text in files.items():
            atomic_write_text(path / name, text)
    return path


def _report_files(report: FailureReport, directory: Path) -> dict[str, str]:
    return {
        "report.json": _dump(report.to_json(directory)),
        "report.md": report.describe(directory),
        "input.in": report.input,
        "expected.ans": report.expected,
    }


def check_report_dir(report_dir: str | os.PathLike[str], game: str) -> Path:
    """Make ``report_dir/game/`` and show it takes new directories, before any run starts.

    A report directory that cannot be used must be found out at once (a :class:`UsageError`),
    not after a long certification has found something it then cannot write.

    >>> check_report_dir("", "word_game")
    Traceback (most recent call last):
    gamecert.errors.UsageError: --report-dir is empty; give a directory (default: reports)
    """
    from gamecert.errors import UsageError

    if not str(report_dir).strip():
        raise UsageError("--report-dir is empty; give a directory (default: reports)")
    root = Path(report_dir)
    parent = root / game
    try:
        parent.mkdir(parents=True, exist_ok=True)
        probe = tempfile.mkdtemp(prefix=".gamecert-probe-", dir=parent)
        os.rmdir(probe)
    except OSError as exc:
        why = exc.strerror or str(exc)
        try:  # a folder above it that this user cannot search raises here too
            if root.exists() and not root.is_dir():
                why = "it is a file, not a directory"
            elif parent.exists() and not parent.is_dir():
                why = f"{parent} is a file, not a directory"
        except OSError:
            pass
        raise UsageError(f"--report-dir {report_dir}: cannot write reports there: {why}") from None
    return parent


def fallback_report_dir() -> str:
    """A fresh directory in the system's temporary folder, for reports the chosen one refused."""
    return tempfile.mkdtemp(prefix="gamecert-reports-")


def write_certificate(cert: Certificate, report_dir: str | os.PathLike[str]) -> Path:
    """Write ``cert`` as a new certificate directory; return its path."""
    files = {"certificate.json": _dump(cert.to_json()), "certificate.md": cert.describe()}
    return publish_directory(report_dir, cert.game, cert.candidate, files, cert.created)


def read_report(directory: str | os.PathLike[str]) -> FailureReport:
    """The :class:`FailureReport` stored in ``directory`` (a :class:`UsageError` if none)."""
    from gamecert.errors import UsageError

    if not Path(directory).is_dir():
        what = "not a directory" if Path(directory).exists() else "no such directory"
        raise UsageError(
            f"{directory}: {what}; give a report directory written by `gamecert certify`"
        )
    path = Path(directory) / "report.json"
    if not path.is_file():
        if (Path(directory) / "certificate.json").is_file():
            raise UsageError(
                f"{directory} holds a certificate, not a failure report: there is nothing to replay"
            )
        raise UsageError(
            f"no report.json in {directory}: give a directory written by `gamecert certify`"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise UsageError(f"cannot read {path}: {exc}") from None
    problem = _report_problem(data)
    if problem:
        raise UsageError(f"{path} is not a gamecert report: {problem}")
    # what replay does not need may be missing (a report trimmed by hand)
    filled = {**dict.fromkeys(_TEXT_KEYS, ""), "size": 0, **data}
    return FailureReport.from_json(filled)


_TEXT_KEYS = (
    "verdict_meaning",
    "got",
    "reason",
    "profile",
    "explanation",
    "created",
    "minimality",
    "stderr_tail",
    "containment",
    "fault",
    "found_by",
    "reproduce",
)


def _report_problem(data: Any) -> str:
    """What makes ``data`` unusable as a report ("" if nothing).

    >>> _report_problem([1, 2])
    'expected a JSON object, got a list'
    >>> _report_problem({"game": "word_game"})[:29]
    'missing keys: candidate, cand'
    """
    if not isinstance(data, dict):
        return f"expected a JSON object, got a {type(data).__name__}"
    missing = [k for k in _REPLAY_KEYS if k not in data]
    if missing:
        return "missing keys: " + ", ".join(missing)
    for key, kind in [
        *_REPLAY_KEYS.items(),
        *((k, t) for k, t in _OPTIONAL_KEYS.items() if k in data),
    ]:
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"{key!r} has the wrong type ({type(value).__name__}: {str(value)[:40]!r})"
    if "notes" in data and not (
        isinstance(data["notes"], list) and all(isinstance(n, str) for n in data["notes"])
    ):
        return "'notes' must be a list of strings"
    return ""


def _write_somewhere(write: Callable[[str], Path], report_dir: str) -> Path:
    """``write(report_dir)``; if that fails (the directory was removed, the disk is full...),
    into a fresh temporary directory instead, saying so on stderr: a finding is never lost."""
    import sys

    try:
        return write(report_dir)
    except OSError as exc:
        pass

        fallback = fallback_report_dir()
        path = write(fallback)
        print(
            f"gamecert: warning: cannot write to {report_dir} ({exc.strerror or exc}); written to {fallback} instead",
            file=sys.stderr,
            flush=True,
        )
        return path


#: the keys ``gamecert replay`` needs, with the types they must have
_REPLAY_KEYS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "candidate": str,
    "candidate_spec": str,
    "verdict": str,
    "input": str,
    "expected": str,
    "seed": int,
    "phase": str,
}


_OPTIONAL_KEYS: dict[str, type | tuple[type, ...]] = {
    **dict.fromkeys(_TEXT_KEYS, str),
    "size": int,
    "tests_run": int,
    "time_limit_s": (int, float),
    "memory_limit_mb": int,
}
