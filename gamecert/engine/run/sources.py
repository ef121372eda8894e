"""What gamecert checks and tells of a source file before it runs it: a Python source compiled
(never run) by the interpreter that will run it, so that a syntax error is CE before any test as a
C++ compile error is; and, for a file of a language gamecert does not build, what to give instead.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from gamecert.engine.run.toolchains import (
    EXTENSIONS,
    Build,
    CompileError,
    _run_build,
    cache_root,
    clip_message,
    work_folder,
)
from gamecert.engine.run.toolchains import prepare as _prepare
from gamecert.errors import UsageError

#: what the syntax check runs: the source compiled (never run) by the interpreter that will run
#: it; a SyntaxError (or a null byte) is printed the way the interpreter prints it, exit 1
_SYNTAX_CHECK = (
    "import sys\n"
    "from traceback import format_exception_only as shown\n"
    "try:\n"
    "    compile(open(sys.argv[1], 'rb').read(), sys.argv[2], 'exec', dont_inherit=True)\n"
    "except (SyntaxError, ValueError) as e:\n"
    "    sys.exit(''.join(shown(type(e), e)).rstrip())\n"
)
#: seconds the syntax check may take (compiling even a large source takes well under one)
SYNTAX_CHECK_TIMEOUT_S = 20.0
#: (interpreter, sha256 of the source) of the sources that compiled, in this process
_COMPILED: set[tuple[str, str]] = set()


def prepare(path: str | Path, *, compile: str | None = None, python: str | None = None) -> Build:
    """:func:`gamecert.engine.run.toolchains.prepare`, and for a Python source its syntax
    checked (:func:`check_python_syntax`): what :meth:`.sandbox.Candidate.parse` builds with."""
    build = _prepare(path, compile=compile, python=python)
    if build.language == "python":
        try:
            data = build.source.read_bytes()
        except OSError as exc:
            raise UsageError(
                f"cannot read candidate {str(path)!r}: {exc.strerror or exc}"
            ) from None
        check_python_syntax(build.argv[0], build.source, data, build.source_sha256)
    return build


def check_python_syntax(interpreter: str, source: Path, data: bytes, source_sha: str) -> None:
    """A :class:`CompileError` (CE) if ``interpreter`` cannot compile the source, with its message,
    as a C++ source that does not compile: before any test, never timed. The compile runs in a
    build step (:func:`_run_build`: contained, capped, with a time limit) on a copy of the source;
    no code of the candidate runs."""
    if (interpreter, source_sha) in _COMPILED:
        return
    work = work_folder(cache_root(), ".syntax-")
    try:
        (work / "main.py").write_bytes(data)
        command = [interpreter, "-c", _SYNTAX_CHECK, str(work / "main.py"), str(source)]
        rc, output = _run_build(command, work, SYNTAX_CHECK_TIMEOUT_S)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if rc != 0:
        shown = output.replace(str(work / "main.py"), str(source)).replace(str(work), "BUILD_DIR")
        message = clip_message(shown.strip() or f"(the interpreter exited {rc})")
        # the headline: the interpreter's last line ("SyntaxError: ..."), not the file's name
        raise CompileError(
            str(source),
            message,
            (interpreter, "-c", "compile(SOURCE)", str(source)),
            headline=next(
                (line for line in reversed(message.splitlines()) if "Error: " in line),
                message.splitlines()[-1],
            ),
        )
    _COMPILED.add((interpreter, source_sha))


#: languages gamecert does not build, by extension: (name, the command that runs a script, or
#: "" for a compiled one), for the hint a file of theirs gets
_OTHER_LANGUAGES = {
    ".rb": ("Ruby", "ruby"),
    ".pl": ("Perl", "perl"),
    ".php": ("PHP", "php"),
    ".lua": ("Lua", "lua"),
    ".sh": ("shell", "sh"),
    ".bash": ("Bash", "bash"),
    ".r": ("R", "Rscript"),
    ".ts": ("TypeScript", "npx tsx"),
    ".kt": ("Kotlin", ""),
    ".cs": ("C#", ""),
    ".hs": ("Haskell", ""),
    ".pas": ("Pascal", ""),
    ".scala": ("Scala", ""),
    ".swift": ("Swift", ""),
    ".d": ("D", ""),
    ".ml": ("OCaml", ""),
}


def run_hint(path: str) -> str:
    """What to do with a file gamecert cannot run as it is (not executable, no known language).

    >>> run_hint("sol.rb")
    "Ruby (.rb) is not a language gamecert builds (it builds .c .cc .cpp .cxx .go .java .js .py .rs); give the command line that runs it, in quotes: 'ruby sol.rb'"
    >>> run_hint("Main.kt").split("; ")[1]
    'compile it yourself and give the executable, or the command line that runs it, in quotes'
    >>> run_hint("solution")
    'make it executable (chmod +x solution; a script needs a #! line), or give the command line that runs it, in quotes (gamecert builds .c .cc .cpp .cxx .go .java .js .py .rs)'
    """
    suffix = Path(path).suffix
    builds = " ".join(sorted(EXTENSIONS))
    other = _OTHER_LANGUAGES.get(suffix.lower())
    if other is None:
        return (
            f"make it executable (chmod +x {path}; a script needs a #! line), or give the command line "
            f"that runs it, in quotes (gamecert builds {builds})"
        )
    name, runner = other
    head = f"{name} ({suffix}) is not a language gamecert builds (it builds {builds})"
    if runner:
        return f"{head}; give the command line that runs it, in quotes: {shlex.quote(f'{runner} {path}')}"
    return f"{head}; compile it yourself and give the executable, or the command line that runs it, in quotes"
