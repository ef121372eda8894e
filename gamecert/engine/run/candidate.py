"""A candidate as the user named it (a source file, an executable, or a command line), with its
provenance: :class:`Candidate`."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.errors import UsageError


def _safe_name(text: str) -> str:
    """A short, filesystem-safe name.

    >>> _safe_name("my solution (v2)")
    'my_solution_v2'
    """
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")[:60]
    return name or "candidate"


def _absolutise_args(words: list[str]) -> list[str]:
    """Arguments naming existing files or folders become absolute (candidates run elsewhere).

    Only words that exist relative to the current folder and look like paths (contain ``/`` or
    ``.``, or are folders) are changed, so ``java -cp build Main`` keeps ``Main``.
    """
    out = []
    for word in words:
        path_like = os.path.isdir(word) or "/" in word or "." in word
        if not word.startswith("-") and os.path.exists(word) and path_like:
            word = os.path.abspath(word)
        out.append(word)
    return out


@dataclass(frozen=True)
class Candidate:
    """A program to certify, as the user named it, with its provenance.

    ``language`` is the source language (see :mod:`gamecert.engine.run.toolchains`), ``executable`` for a
    program file, ``command`` for a command line. ``source``, ``binary``, ``compile_command``,
    ``compiler_version``, ``source_sha256`` and ``binary_sha256`` say what was built from what
    (empty where they do not apply).
    """

    spec: str
    name: str
    argv: tuple[str, ...]
    python_file: Path | None
    language: str = "command"
    source: Path | None = None
    binary: Path | None = None
    compile_command: tuple[str, ...] = ()
    compiler_version: str = ""
    source_sha256: str = ""
    binary_sha256: str = ""

    @classmethod
    def parse(
        cls, spec: str, *, compile: str | None = None, python: str | None = None
    ) -> Candidate:
        """A source file (compiled once, see :mod:`gamecert.engine.run.toolchains`), an executable file, or
        a command line whose first word is on PATH. ``compile`` overrides the compile command of
        a compiled source; ``python`` names the interpreter of a ``.py`` source (default: this
        Python, through the fork server). A source that does not compile raises
        :class:`gamecert.engine.run.toolchains.CompileError`.

        >>> Candidate.parse("sh -c true").argv[1:]
        ('-c', 'true')
        >>> Candidate.parse("sh -c true").name
        'sh'
        """
        from gamecert.engine.run import sources, toolchains

        text = spec.strip()
        if not text:
            raise UsageError(
                "the candidate is empty: give a source file, an executable or a command line"
            )
        path = Path(text).expanduser()
        if path.exists():
            if path.is_dir():
                raise UsageError(
                    f"candidate {spec!r} is a folder; give a program file or a command line"
                )
            if toolchains.language_of(path) is not None:
                return cls._from_build(
                    spec, path, sources.prepare(path, compile=compile, python=python), python
                )
        if compile is not None or python is not None:
            option = "--compile" if compile is not None else "--python"
            raise UsageError(
                f"{option} applies to a source file candidate, and {spec!r} is not one"
            )
        if path.exists():
            if not path.is_file():
                raise UsageError(f"candidate {spec!r} is not a regular file")
            if not os.access(path, os.X_OK):
                from gamecert.engine.run.sources import run_hint

                raise UsageError(f"candidate {spec!r} is not executable; {run_hint(text)}")
            resolved = path.resolve()
            return cls(
                spec,
                _safe_name(path.stem),
                (str(resolved),),
                None,
                language="executable",
                binary=resolved,
                binary_sha256=_sha256_file(resolved),
            )
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise UsageError(f"candidate {spec!r} is not a valid command line: {exc}") from None
        if len(words) == 1 and ("/" in text or toolchains.language_of(text) is not None):
            raise UsageError(f"candidate file {spec!r} does not exist")
        program = shutil.which(words[0])
        if program is None:
            raise UsageError(
                f"candidate {spec!r}: command {words[0]!r} not found (not a file, and not on PATH)"
            )
        argv = (os.path.abspath(program), *_absolutise_args(words[1:]))
        return cls(spec, _safe_name(Path(words[0]).name), argv, None)

    @classmethod
    def _from_build(cls, spec: str, path: Path, build: Any, python: str | None) -> Candidate:
        """A candidate from a :class:`gamecert.engine.run.toolchains.Build`; a ``.py`` source without
        ``python`` keeps ``python_file`` (run by the fork server)."""
        python_file = build.source if build.language == "python" and python is None else None
        return cls(
            spec,
            _safe_name(path.stem),
            build.argv,
            python_file,
            language=build.language,
            source=build.source,
            binary=build.binary,
            compile_command=build.compile_command,
            compiler_version=build.compiler_version,
            source_sha256=build.source_sha256,
            binary_sha256=build.binary_sha256,
        )


def _sha256_file(path: Path) -> str:
    """The file's sha256, or "" if it cannot be read (an executable without read permission)."""
    from gamecert.engine.run import toolchains

    try:
        return toolchains._sha256_file(path)
    except OSError:
        return ""
