"""Where a report or certificate came from: the candidate program (its source, build and
command line) and the judge (gamecert's version, the Python and OS running it)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamecert.engine.report.text import visible


@dataclass(frozen=True)
class Provenance:
    """What was judged and by what: the program (its language, the sha256 of its source and of its
    binary, how it was compiled) and the judge (gamecert's version, Python, the OS).

    ``compile_option`` and ``python_option`` are the ``--compile`` and ``--python`` given ("" for
    the defaults), so that ``gamecert replay`` builds the program the same way again.
    """

    language: str = ""
    source: str = ""
    source_sha256: str = ""
    binary_sha256: str = ""
    compile_command: str = ""
    compiler_version: str = ""
    compile_option: str = ""
    python_option: str = ""
    gamecert_version: str = ""
    python_version: str = ""
    os: str = ""

    @classmethod
    def of(
        cls, candidate: Any, compile_option: str | None = None, python_option: str | None = None
    ) -> Provenance:
        """The provenance of a :class:`gamecert.engine.run.sandbox.Candidate` (any object with its fields),
        judged by this gamecert on this machine."""
        source = getattr(candidate, "source", None)
        command = tuple(getattr(candidate, "compile_command", ()) or ())
        return cls(
            language=str(getattr(candidate, "language", "") or ""),
            source=str(source) if source else "",
            source_sha256=str(getattr(candidate, "source_sha256", "") or ""),
            binary_sha256=str(getattr(candidate, "binary_sha256", "") or ""),
            compile_command=shlex.join(command) if command else "",
            compiler_version=str(getattr(candidate, "compiler_version", "") or ""),
            compile_option=compile_option or "",
            python_option=python_option or "",
            **judge_provenance(),
        )

    @classmethod
    def from_json(cls, data: Any) -> Provenance:
        """From a report's ``provenance`` object; unknown keys and non-text values are dropped."""
        if not isinstance(data, Mapping):
            return cls()
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in names and isinstance(v, str)})

    def program_sha256(self) -> str:
        """The hash that identifies the program run: the source's, else the binary's."""
        return self.source_sha256 or self.binary_sha256

    def lines(self) -> list[str]:
        """Markdown list items for report.md and certificate.md (what is known, nothing blank)."""
        out = []
        if self.language:
            what = f"{self.language}" + (
                f", source `{visible(self.source)}`" if self.source else ""
            )
            out.append(f"- **Program:** {what}")
        if self.source_sha256:
            out.append(f"- **Source sha256:** `{self.source_sha256}`")
        if self.binary_sha256:
            out.append(f"- **Binary sha256:** `{self.binary_sha256}`")
        if self.compile_command:
            out.append(
                f"- **Compiled with:** `{visible(self.compile_command)}`"
                + (" (from --compile)" if self.compile_option else "")
            )
        if self.compiler_version:
            out.append(
                f"- **Compiler/interpreter:** {visible(self.compiler_version)}"
                + (f" (--python {visible(self.python_option)})" if self.python_option else "")
            )
        if self.gamecert_version or self.python_version or self.os:
            out.append(
                f"- **Judged by:** gamecert {self.gamecert_version or '?'}, Python {self.python_version or '?'}, "
                f"{self.os or 'unknown OS'}"
            )
        return out


def gamecert_version() -> str:
    """The installed gamecert's version (package metadata), else the source tree's ``__version__``."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("gamecert")
    except (ImportError, PackageNotFoundError):
        from gamecert import __version__

        return __version__


def judge_provenance() -> dict[str, str]:
    """gamecert's version, the Python running it and the OS, as :class:`Provenance` fields."""
    import platform
    import sys

    python = f"{platform.python_version()} ({sys.implementation.name})"
    return {
        "gamecert_version": gamecert_version(),
        "python_version": python,
        "os": platform.platform(),
    }


__all__ = ["Provenance", "gamecert_version", "judge_provenance"]
