"""Source files as candidates: which language, how it is compiled, and the build cache.

:func:`prepare` turns a source file into a :class:`Build`: the command line that runs it and
its provenance (language, sha256 of the source and of the binary, the compile command and the
compiler's version). Languages are chosen by the file's extension:

============  =========================================================================
extension     compiled with (``{src}``, ``{exe}``, ``{dir}``, ``{class}``: see below)
============  =========================================================================
.cpp .cc .cxx ``g++ -std=gnu++NN -O2 -DONLINE_JUDGE -o {exe} {src}`` (NN: the newest of
              23, 20, 17, 14, 11 the installed g++ accepts)
.c            ``gcc -std=gnuNN -O2 -DONLINE_JUDGE -o {exe} {src} -lm`` (NN: 23, 17, 11)
.java         ``javac -encoding UTF-8 -d {dir} {src}``; run as
              ``java -XX:+UseSerialGC -Xss64m -DONLINE_JUDGE=true -cp {dir} {class}``
.rs           ``rustc -O --edition 2021 -o {exe} {src}``
.go           ``go build -o {exe} {src}``
.js           not compiled; run as ``node FILE``
.py           compiled only to check its syntax, by the interpreter that runs it (a
              SyntaxError is CE, before any test); run by the supervisor's own Python
              (the fork server), or as ``INTERPRETER FILE`` with ``python="pypy3"``
============  =========================================================================

Placeholders in a compile command (the default or ``--compile``): ``{src}`` the source file
(a copy inside the build folder; for Java named after its public class), ``{exe}`` the
executable to produce, ``{dir}`` the build folder, ``{class}`` the Java class to run.

A build happens once: its result is kept in ``$GAMECERT_CACHE/build`` (default
``${XDG_CACHE_HOME:-~/.cache}/gamecert/build``) under a key made of the sha256 of the source,
the compile command and the compiler's version. Each build happens in a fresh temporary folder
that is renamed into place when it succeeded, so certifications running in parallel never see
a half-built entry. Every compile step goes through :func:`_run_build`, with a time limit
(:data:`BUILD_TIMEOUT_S`), the memory, process and file-size caps of
:mod:`gamecert.engine.run.buildcap`, and a cap on the diagnostics kept.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gamecert.engine.run.buildcache import EXE as _EXE
from gamecert.engine.run.buildcache import (
    _complete,
    _intact,
    _publish,
    _sha256_file,
    _tree_sha256,
    cache_root,
    work_folder,
)
from gamecert.engine.run.javaclass import java_main_class  # noqa: F401 - imported from here
from gamecert.errors import GamecertError, UsageError
from gamecert.kit.escape import visible

#: seconds a compile step may take before it is killed (a compile error)
BUILD_TIMEOUT_S = 60.0
#: bytes of compiler output kept
BUILD_OUTPUT_BYTES = 64 << 10
#: characters of compiler output shown in a compile error
MESSAGE_CHARS = 4000

CPP_STANDARDS = ("23", "20", "17", "14", "11")
C_STANDARDS = ("23", "17", "11")
JAVA_RUN = ("java", "-XX:+UseSerialGC", "-Xss64m", "-DONLINE_JUDGE=true", "-cp", "{dir}", "{class}")


class CompileError(GamecertError):
    """The source did not compile: verdict CE. ``output`` is the compiler's message (clipped,
    control bytes escaped), ``command`` the command that failed."""

    def __init__(
        self, source: str, output: str, command: tuple[str, ...] = (), headline: str = ""
    ) -> None:
        self.source = source
        self.output = output
        self.command = command
        lines = [line for line in output.splitlines() if line.strip()]
        # the headline: the first line that says "error" (gcc's first line only names the function)
        first = headline or next(
            (line for line in lines if "error" in line.lower()),
            lines[0] if lines else "(no message)",
        )
        super().__init__(f"{source} does not compile: {first[:300]}")


class MissingToolchain(UsageError):
    """The compiler or interpreter a source needs is not installed (exit 2)."""


@dataclass(frozen=True)
class Language:
    """One supported language: its compile command template (empty when it is not compiled)
    and how its result is run."""

    name: str
    compiler: str
    compile: tuple[str, ...]
    run: tuple[str, ...]
    version_flag: str = "--version"


LANGUAGES = {
    "cpp": Language(
        "cpp",
        "g++",
        ("g++", "-std=gnu++{std}", "-O2", "-DONLINE_JUDGE", "-o", "{exe}", "{src}"),
        ("{exe}",),
    ),
    "c": Language(
        "c",
        "gcc",
        ("gcc", "-std=gnu{std}", "-O2", "-DONLINE_JUDGE", "-o", "{exe}", "{src}", "-lm"),
        ("{exe}",),
    ),
    "java": Language(
        "java",
        "javac",
        ("javac", "-encoding", "UTF-8", "-d", "{dir}", "{src}"),
        JAVA_RUN,
        "-version",
    ),
    "rust": Language(
        "rust", "rustc", ("rustc", "-O", "--edition", "2021", "-o", "{exe}", "{src}"), ("{exe}",)
    ),
    "go": Language("go", "go", ("go", "build", "-o", "{exe}", "{src}"), ("{exe}",), "version"),
    "javascript": Language("javascript", "node", (), ("node", "{src}")),
    "python": Language("python", "python3", (), ("{python}", "{src}")),
}

EXTENSIONS = {
    ".cpp": "cpp",
    ".cc": "cpp",
    ".cxx": "cpp",
    ".c": "c",
    ".java": "java",
    ".rs": "rust",
    ".go": "go",
    ".js": "javascript",
    ".py": "python",
}

#: the file name extension the copy in the build folder gets (the given name may differ in case)
_SUFFIX = {"cpp": ".cpp", "c": ".c", "rust": ".rs", "go": ".go", "java": ".java"}


@dataclass(frozen=True)
class Build:
    """A source made runnable: ``argv`` runs it; the rest is its provenance. ``binary`` is the
    executable (for Java the folder of class files, which ``binary_sha256`` covers; None for
    interpreted languages); ``cached`` says the build was found in the cache."""

    language: str
    source: Path
    argv: tuple[str, ...]
    binary: Path | None
    compile_command: tuple[str, ...]
    compiler_version: str
    source_sha256: str
    binary_sha256: str
    cached: bool = False


def language_of(path: str | os.PathLike[str]) -> str | None:
    """The language of a source file by its extension, or None.

    >>> language_of("a/sol.CPP"), language_of("x.rs"), language_of("run.sh")
    ('cpp', 'rust', None)
    """
    return EXTENSIONS.get(Path(path).suffix.lower())


# ---- probing the installed toolchains ----------------------------------------------------------


def _probe(argv: list[str], timeout: float = 30.0) -> tuple[int, str]:
    """Run a trusted toolchain query (``--version``, a standard check); (rc, combined output)."""
    try:
        done = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, str(exc)
    return done.returncode, done.stdout.decode(errors="replace")


def _require(program: str, purpose: str) -> str:
    """The absolute path of ``program``, else :class:`MissingToolchain` naming it.

    >>> _require("no-such-compiler-x", "compile .x sources")
    Traceback (most recent call last):
    gamecert.engine.run.toolchains.MissingToolchain: no-such-compiler-x is not installed (not on PATH); it is needed to compile .x sources
    """
    found = shutil.which(program)
    if found is None:
        raise MissingToolchain(
            f"{program} is not installed (not on PATH); it is needed to {purpose}"
        )
    return os.path.abspath(found)


@functools.cache
def compiler_version(program: str, flag: str = "--version") -> str:
    """The first line of ``program flag`` (``unknown`` if it says nothing)."""
    rc, out = _probe([program, flag])
    line = next((s.strip() for s in out.splitlines() if s.strip()), "")
    return line[:200] if rc == 0 and line else "unknown"


@functools.cache
def newest_standard(compiler: str, language: str, candidates: tuple[str, ...]) -> str:
    """The newest ``-std=gnu...`` in ``candidates`` that ``compiler`` accepts (probed once per process)."""
    prefix, x = ("gnu++", "c++") if language == "cpp" else ("gnu", "c")
    for std in candidates:
        rc, _ = _probe([compiler, f"-std={prefix}{std}", "-fsyntax-only", "-x", x, os.devnull])
        if rc == 0:
            return std
    return candidates[-1]


# ---- building ----------------------------------------------------------------------------------


#: variables a toolchain needs to find itself, passed to a build as the user set them (the JDK's
#: and Go's installations); no other variable of the user's. rustup's homes are not among them:
#: a Rust build runs its toolchain's own rustc (:mod:`gamecert.engine.run.buildview`)
TOOLCHAIN_VARIABLES = ("JAVA_HOME", "GOROOT")


def build_environment(home: str) -> dict[str, str]:
    """The environment of a compile step, as clean as a judge's: ``PATH``, ``HOME`` and
    ``TMPDIR`` in a folder of the build's own, a UTF-8 locale, and of the user's variables only
    :data:`TOOLCHAIN_VARIABLES`. A source that embeds its compiler's environment
    (``include_bytes!("/proc/self/environ")``, ``env!``, ``.incbin``) finds nothing else, and no
    path into the user's home.

    >>> sorted(k for k in build_environment("/tmp/h") if k not in TOOLCHAIN_VARIABLES)
    ['HOME', 'LANG', 'LC_ALL', 'PATH', 'TMPDIR']
    """
    env = {
        "PATH": os.environ.get("PATH") or os.defpath,
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
    }
    for name in TOOLCHAIN_VARIABLES:
        value = os.environ.get(name)
        if value:
            env[name] = value
    return env


def _run_build(argv: list[str], workdir: Path, timeout: float) -> tuple[int, str]:
    """Run one compile step in ``workdir`` with a time limit and the caps of
    :mod:`gamecert.engine.run.buildcap` (memory, processes, file size); (exit code, output
    clipped to :data:`BUILD_OUTPUT_BYTES`). A step stopped by a cap gets a first line naming
    it; one that times out is killed with its process group and gives exit code -9 and a line
    saying so. The one place compile steps are started."""
    from gamecert.engine.run import buildcap, buildview, contain

    containment = contain.probe()
    home = tempfile.mkdtemp(prefix="gc-home-")  # the step's HOME and TMPDIR, removed after it
    argv, readable = buildview.toolchain_view(argv)
    argv = contain.wrap(
        argv,
        writable=[str(workdir), home],
        readable=readable,
        workdir=str(workdir),
        containment=containment,
    )
    cap = buildcap.build_cap()
    try:
        with tempfile.TemporaryFile() as out:
            try:
                proc = subprocess.Popen(
                    [*cap.launcher(), *argv],
                    cwd=workdir,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    env=cap.environment(build_environment(home)),
                )
            except OSError as exc:
                return 127, f"cannot start {argv[0]}: {exc.strerror or exc}"
            try:
                rc = proc.wait(timeout=timeout)
                note = ""
            except subprocess.TimeoutExpired:
                note = f"compilation stopped: it took longer than {timeout:g} s"
                rc = -9
            finally:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # leftovers of the step, or the step itself
                except OSError:
                    pass
                proc.wait()
            size = out.tell()
            out.seek(0)
            data = out.read(BUILD_OUTPUT_BYTES)
        text = data.decode(errors="replace")
        if size > BUILD_OUTPUT_BYTES:
            text += f"\n(output clipped: {size} bytes)"
        note = note or cap.stopped(rc, text, str(workdir))
    finally:
        cap.close()
        shutil.rmtree(home, ignore_errors=True)
    # the line naming what stopped the step comes first: a long message is clipped at its end
    return rc, f"({note})\n{text}" if note else text


def clip_message(text: str, limit: int = MESSAGE_CHARS) -> str:
    r"""Compiler output fit for a report: control bytes escaped (newlines and tabs kept), at most
    ``limit`` characters.

    >>> clip_message("a.cpp:1: error\x1b[31m\n")
    'a.cpp:1: error\\x1b[31m\n'
    >>> clip_message("x" * 20, 10)
    'xxxxxxxxxx\n(message clipped: 20 characters)'
    """
    shown = visible(text, keep="\n\t")
    if len(shown) > limit:
        shown = shown[:limit] + f"\n(message clipped: {len(shown)} characters)"
    return shown


def _fill(template: tuple[str, ...], values: dict[str, str]) -> tuple[str, ...]:
    """The template's words with ``{src}``, ``{exe}``, ``{dir}``, ``{class}`` replaced.

    >>> _fill(("cc", "-o", "{exe}", "{src}", "-DX={{1}}"), {"exe": "/b/prog", "src": "/b/a.c"})
    ('cc', '-o', '/b/prog', '/b/a.c', '-DX={{1}}')
    """
    return tuple(
        re.sub(r"\{(src|exe|dir|class)\}", lambda m: values.get(m.group(1), m.group()), w)
        for w in template
    )


def _read_source(path: Path) -> bytes:
    from gamecert.engine.run.limits import MAX_SOURCE_BYTES

    if not path.is_file():
        raise UsageError(f"candidate {str(path)!r} is not a regular file")
    if path.stat().st_size > MAX_SOURCE_BYTES:
        raise UsageError(
            f"candidate {str(path)!r} is larger than {MAX_SOURCE_BYTES >> 20} MB; is it really a source file?"
        )
    try:
        return path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read candidate {str(path)!r}: {exc.strerror or exc}") from None


def prepare(
    path: str | os.PathLike[str], *, compile: str | None = None, python: str | None = None
) -> Build:
    """Make the source file at ``path`` runnable: compile it (or find it in the cache), or choose
    its interpreter. Raises :class:`CompileError`, :class:`MissingToolchain` or :class:`UsageError`."""
    given = Path(path).expanduser()
    language = language_of(
        given
    )  # by the name given: a link to /dev/zero named x.py is refused below
    if language is None:
        raise UsageError(
            f"{path}: not a source file of a known language ({', '.join(sorted(EXTENSIONS))})"
        )
    if python is not None and language != "python":
        raise UsageError(f"--python applies to .py candidates, not to {given.name}")
    lang = LANGUAGES[language]
    if compile is not None and not lang.compile:
        raise UsageError(
            f"--compile applies to compiled languages; {given.name} ({language}) is not compiled"
        )
    data = _read_source(given)
    source = given.resolve()
    source_sha = hashlib.sha256(data).hexdigest()
    if language == "python":
        return _python_build(source, source_sha, python)
    if language == "javascript":
        node = _require("node", "run .js sources")
        return Build(
            language, source, (node, str(source)), None, (), compiler_version(node), source_sha, ""
        )
    return _compiled_build(lang, source, data, source_sha, compile)


def _python_build(source: Path, source_sha: str, python: str | None) -> Build:
    """Python: the supervisor's own interpreter (argv[0] is ``sys.executable``), or ``python``
    (its syntax is checked by :func:`gamecert.engine.run.sources.prepare`)."""
    if python is None:
        version = f"Python {sys.version.split()[0]} ({sys.implementation.name})"
        return Build(
            "python", source, (sys.executable, str(source)), None, (), version, source_sha, ""
        )
    interpreter = _require(python, "run the .py source (--python)")
    return Build(
        "python",
        source,
        (interpreter, str(source)),
        None,
        (),
        compiler_version(interpreter),
        source_sha,
        "",
    )


def _compile_template(lang: Language, compile: str | None) -> tuple[str, ...]:
    """The compile command with ``{std}`` settled, from ``--compile`` or the language's default."""
    if compile is not None:
        try:
            words = tuple(shlex.split(compile))
        except ValueError as exc:
            raise UsageError(f"--compile {compile!r} is not a valid command line: {exc}") from None
        if not words:
            raise UsageError("--compile is empty; give a command such as 'g++ -O2 -o {exe} {src}'")
        if lang.name != "java" and not any("{exe}" in w for w in words):
            raise UsageError(f"--compile {compile!r} must name the executable it makes as {{exe}}")
        return words
    template = lang.compile
    if any("{std}" in w for w in template):
        compiler = _require(lang.compiler, f"compile {_SUFFIX[lang.name]} sources")
        standards = CPP_STANDARDS if lang.name == "cpp" else C_STANDARDS
        std = newest_standard(compiler, lang.name, standards)
        template = tuple(w.replace("{std}", std) for w in template)
    return template


def _compiled_build(
    lang: Language,
    source: Path,
    data: bytes,
    source_sha: str,
    compile: str | None,
    extra: tuple[str, ...] = (),
) -> Build:
    template = (*_compile_template(lang, compile), *extra)
    what = (
        f"compile {_SUFFIX[lang.name]} sources" if compile is None else "run the --compile command"
    )
    program = _require(template[0], what)
    java = _require("java", "run .java sources") if lang.name == "java" else ""
    version = compiler_version(program, lang.version_flag if compile is None else "--version")
    main_class = ""
    if lang.name == "java":
        main_class = java_main_class(data.decode(errors="replace"))
        if not main_class:
            raise CompileError(
                str(source),
                f"{source.name}: no public top-level class, and no class with a main method",
            )
    key = hashlib.sha256(
        "\0".join((source_sha, shlex.join(template), version, main_class)).encode()
    ).hexdigest()[:40]
    root = cache_root()
    final = root / key
    cached = _complete(final) and _intact(final, lang.name)
    if not cached:
        _build_into(root, final, lang, source, data, template, program, main_class)
    meta = json.loads((final / "build.json").read_text())
    binary = final / _EXE if lang.name != "java" else final
    values = {
        "exe": str(final / _EXE),
        "dir": str(final),
        "class": main_class,
        "src": str(final / meta["source_name"]),
    }
    argv = _fill(lang.run, values)
    if java:
        argv = (java, *argv[1:])
    return Build(
        lang.name,
        source,
        argv,
        binary,
        tuple(meta["compile_command"]),
        version,
        source_sha,
        meta["binary_sha256"],
        cached,
    )


#: the sanitizer phase's builds of a C or C++ source (gamecert.engine.judge.sanitize): flags put after
#: the judge's compile command, so that its last ``-O`` is theirs. ``asan``: AddressSanitizer and
#: UndefinedBehaviorSanitizer (with float-to-integer overflow), every finding fatal, libstdc++'s
#: checked ``operator[]`` and vector annotations; ``pattern`` and ``zero``: unoptimised (every read
#: made as written: -O2 takes a variable set on one path only to hold that value everywhere) with
#: every automatic variable started as a repeated 0xFE byte, or as zero bytes; ``memcheck``: unoptimised
#: with line numbers, for valgrind to name the line of an uninitialised read those two showed
SANITIZER_FLAGS = {
    "asan": (
        "-fsanitize=address,undefined,float-cast-overflow",
        "-fno-sanitize-recover=all",
        "-g",
        "-O1",
        "-fno-omit-frame-pointer",
        "-D_GLIBCXX_ASSERTIONS",
        "-D_GLIBCXX_SANITIZE_VECTOR",
    ),
    "pattern": ("-O0", "-ftrivial-auto-var-init=pattern"),
    "zero": ("-O0", "-ftrivial-auto-var-init=zero"),
    "memcheck": ("-O0", "-g"),
}


def sanitizer_build(
    path: str | os.PathLike[str], kind: str, *, compile: str | None = None
) -> Build:
    """The C or C++ source at ``path`` built for the sanitizer phase: the judge's compile command
    (the default, or ``compile`` as ``--compile`` gave it) with :data:`SANITIZER_FLAGS` ``[kind]``
    after it; cached like any build. Raises :class:`CompileError` (the flags may be what fails),
    :class:`MissingToolchain` or :class:`UsageError`."""
    given = Path(path).expanduser()
    language = language_of(given)
    if language not in ("c", "cpp"):
        raise UsageError(f"{given.name}: the sanitizer builds are for C and C++ sources")
    data = _read_source(given)
    return _compiled_build(
        LANGUAGES[language],
        given.resolve(),
        data,
        hashlib.sha256(data).hexdigest(),
        compile,
        SANITIZER_FLAGS[kind],
    )


def _build_into(
    root: Path,
    final: Path,
    lang: Language,
    source: Path,
    data: bytes,
    template: tuple[str, ...],
    program: str,
    main_class: str,
) -> None:
    """Compile in a fresh folder under ``root`` and rename it to ``final`` (another process that
    got there first wins; its result is the same)."""
    work = work_folder(root, ".building-")
    try:
        source_name = (
            f"{main_class.rsplit('.', 1)[-1]}.java"
            if lang.name == "java"
            else f"main{_SUFFIX[lang.name]}"
        )
        (work / source_name).write_bytes(data)
        values = {
            "src": str(work / source_name),
            "exe": str(work / _EXE),
            "dir": str(work),
            "class": main_class,
        }
        command = (program, *_fill(template[1:], values))
        rc, output = _run_build(list(command), work, BUILD_TIMEOUT_S)
        shown = output.replace(str(work / source_name), str(source)).replace(str(work), "BUILD_DIR")
        shown_command = tuple(w.replace(str(work), "BUILD_DIR") for w in command)
        if rc != 0:
            raise CompileError(str(source), clip_message(shown), shown_command)
        if lang.name == "java":
            binary_sha = _tree_sha256(work, {source_name})
        elif (work / _EXE).is_file():
            binary_sha = _sha256_file(work / _EXE)
        else:
            raise CompileError(
                str(source),
                clip_message(shown + "\n(the compile command made no {exe} file)"),
                shown_command,
            )
        meta = {
            "first_built_from": str(source),
            "source_name": source_name,
            "language": lang.name,
            "compile_command": [w.replace(str(work), str(final)) for w in command],
            "binary_sha256": binary_sha,
            "compiler_output": clip_message(shown),
        }
        (work / "build.json").write_text(json.dumps(meta, indent=1))
        work.chmod(0o755)  # mkdtemp made it private; a build is as readable as the source
        _publish(work, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)
