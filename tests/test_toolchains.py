"""Source files as candidates (``gamecert.engine.run.toolchains``): every installed language compiled once,
cached, and run through the sandbox; compile errors as verdict CE; missing toolchains as exit 2.

The programs are in ``tests/programs/<language>/``: a right ``word_game`` solver and a wrong one
(a count divisible by 3 given Grundy value 0 instead of 3). Java and Node runs use an 8 GB
memory limit and a 64 MB stack: today's memory limit caps address space, which the JVM and V8
reserve in bulk at start, and glibc gives each new thread a stack as large as the stack limit,
so Node's worker threads cannot start when the stack limit is the memory limit.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.run import toolchains
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner
from gamecert.engine.run.toolchains import CompileError, MissingToolchain, java_main_class
from gamecert.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"
#: inputs where the right and the wrong idea agree (WORD, AB) and where they differ
WORDS = ("ZADACHA", "WORD", "AAA", "ABCABCABC", "AB", "AAAAB")
NATIVE = Limits(time_s=2.0)
VM = Limits(time_s=5.0, memory_mb=8192, stack_mb=64)  # see the module's docstring

#: language -> (right program, wrong program, tools it needs, limits to run it under)
LANGUAGES = {
    "cpp": ("cpp/word_game_right.cpp", "cpp/word_game_wrong.cpp", ("g++",), NATIVE),
    "c": ("c/word_game_right.c", "c/word_game_wrong.c", ("gcc",), NATIVE),
    "java": ("java/right_solution.java", "java/wrong-solution.java", ("javac", "java"), VM),
    "rust": ("rust/word_game_right.rs", "rust/word_game_wrong.rs", ("rustc",), NATIVE),
    "javascript": ("javascript/word_game_right.js", "javascript/word_game_wrong.js", ("node",), VM),
    "python": ("python/word_game_right.py", "python/word_game_wrong.py", (), NATIVE),
}
COMPILED = ("cpp", "c", "java", "rust")


@pytest.fixture(scope="module", autouse=True)
def build_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build cache of this module's own (``$GAMECERT_CACHE``), shared by its tests."""
    root = tmp_path_factory.mktemp("gamecert-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GAMECERT_CACHE", str(root))
        yield root


def need(tools: tuple[str, ...]) -> None:
    """Fail (or, with GAMECERT_SKIP_LANGUAGES=1, skip knowingly) when a toolchain is missing."""
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        if os.environ.get("GAMECERT_SKIP_LANGUAGES") != "1":
            pytest.fail(
                f"{', '.join(missing)} not installed: install it, or set GAMECERT_SKIP_LANGUAGES=1 "
                "to skip these language checks knowingly"
            )
        pytest.skip(f"GAMECERT_SKIP_LANGUAGES=1 and {', '.join(missing)} not installed")


def oracle_answer(word: str) -> str:
    game = registry.get("word_game").game
    return game.format_answer(game.oracle(game.parse_input(word + "\n"))).strip()


def answers(candidate: Candidate, limits: Limits) -> dict[str, tuple[str, str]]:
    """word -> (status, stripped stdout) for every word of WORDS, through one runner."""
    out = {}
    with open_runner(candidate, limits) as runner:
        for word in WORDS:
            result = runner.run(word + "\n")
            out[word] = (result.status, result.stdout.strip())
    return out


def gamecert(
    *args: str, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamecert", *args],
        capture_output=True,
        text=True,
        env=env or dict(os.environ),
        cwd=cwd,
        timeout=300,
    )


# ---- every installed language: right answers, wrong answers, provenance -------------------------


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_right_and_wrong_programs(language: str) -> None:
    """The right program answers as the oracle on every word; the wrong one runs fine (no RE)
    but answers wrong exactly where a count is a multiple of 3."""
    right, wrong, tools, limits = LANGUAGES[language]
    need(tools)
    expected = {word: oracle_answer(word) for word in WORDS}
    assert expected["ZADACHA"] == "Alice" and expected["WORD"] == "Bob"  # the problem's samples
    good = Candidate.parse(str(PROGRAMS / right))
    assert good.language == language
    assert answers(good, limits) == {word: ("ok", answer) for word, answer in expected.items()}
    bad = Candidate.parse(str(PROGRAMS / wrong))
    got = answers(bad, limits)
    assert all(status == "ok" for status, _ in got.values()), got
    differs = {word for word, (_, out) in got.items() if out != expected[word]}
    assert differs == {"ZADACHA", "AAA", "ABCABCABC"}, got


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_provenance_fields(language: str) -> None:
    """source, its sha256, the compile command, the compiler's version and the binary's sha256."""
    right, _, tools, _ = LANGUAGES[language]
    need(tools)
    path = PROGRAMS / right
    candidate = Candidate.parse(str(path))
    assert candidate.source == path.resolve()
    assert candidate.source_sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert candidate.compiler_version and candidate.compiler_version != "unknown"
    if language in COMPILED:
        assert candidate.compile_command and Path(candidate.compile_command[0]).is_absolute()
        assert candidate.binary is not None and candidate.binary.exists()
        assert len(candidate.binary_sha256) == 64
        if language != "java":
            assert (
                candidate.binary_sha256 == hashlib.sha256(candidate.binary.read_bytes()).hexdigest()
            )
            assert candidate.argv == (str(candidate.binary),)
    else:
        assert (
            candidate.compile_command == ()
            and candidate.binary is None
            and candidate.binary_sha256 == ""
        )
    assert (candidate.python_file is not None) == (language == "python")


def test_cpp_and_c_use_the_newest_gnu_standard_and_online_judge() -> None:
    """-std=gnu++NN / gnuNN is the newest the compiler accepts (an older one is refused by the
    probe only if the compiler refuses it); -O2 and -DONLINE_JUDGE are there; C links -lm."""
    need(("g++", "gcc"))
    cpp = Candidate.parse(str(PROGRAMS / "cpp/word_game_right.cpp")).compile_command
    c = Candidate.parse(str(PROGRAMS / "c/word_game_right.c")).compile_command
    for command, std in ((cpp, "-std=gnu++"), (c, "-std=gnu")):
        assert {"-O2", "-DONLINE_JUDGE"} <= set(command)
        chosen = next(w for w in command if w.startswith(std))
        newer = [
            s
            for s in (toolchains.CPP_STANDARDS if std.endswith("++") else toolchains.C_STANDARDS)
            if int(s) > int(chosen[len(std) :])
        ]
        for s in newer:  # each newer standard is really refused by this compiler
            x = "c++" if std.endswith("++") else "c"
            rc = subprocess.run(
                [command[0], f"{std}{s}", "-fsyntax-only", "-x", x, os.devnull], capture_output=True
            ).returncode
            assert rc != 0, f"{std}{s} is accepted but {chosen} was chosen"
    assert c[-1] == "-lm"


# ---- the cache --------------------------------------------------------------------------------


@pytest.mark.parametrize("language", COMPILED)
def test_build_is_cached(language: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A second parse of the same source compiles nothing (no compile step is started and the
    cache entry is the same folder); a source differing by one comment byte is compiled anew."""
    right, _, tools, _ = LANGUAGES[language]
    need(tools)
    path = PROGRAMS / right
    first = toolchains.prepare(path)
    entry = first.binary if language == "java" else first.binary.parent
    inode = entry.stat().st_ino
    started: list[list[str]] = []
    real = toolchains._run_build

    def spy(argv: list[str], workdir: Path, timeout: float) -> tuple[int, str]:
        started.append(argv)
        return real(argv, workdir, timeout)

    monkeypatch.setattr(toolchains, "_run_build", spy)
    again = toolchains.prepare(path)
    assert again.cached and again.argv == first.argv and started == []
    assert entry.stat().st_ino == inode
    assert Candidate.parse(str(path)).argv == first.argv and started == []
    changed = tmp_path / path.name  # same name (Java: the class is what matters), one more byte
    changed.write_bytes(path.read_bytes() + b"\n")
    fresh = toolchains.prepare(changed)
    assert not fresh.cached and len(started) == 1 and fresh.argv != first.argv


def test_a_changed_cache_entry_is_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cached binary overwritten after its build (a poisoned cache) is not reused: the source
    is compiled again, and the sha256 the candidate records is that of the file that runs."""
    need(("gcc",))
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    path = PROGRAMS / "c/word_game_right.c"
    first = toolchains.prepare(path)
    first.binary.chmod(0o755)
    first.binary.write_bytes(b"#!/bin/sh\necho Bob\n")  # a wrong program in the right place
    again = Candidate.parse(str(path))
    assert again.binary_sha256 == first.binary_sha256 == toolchains._sha256_file(again.binary)
    assert answers(again, NATIVE)["ZADACHA"] == ("ok", "Alice")
    assert not toolchains.prepare(path).binary.read_bytes().startswith(b"#!")


def test_parallel_builds_of_one_source_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Builds of one source racing in a fresh cache all succeed and end in the same entry,
    with no temporary folders left behind."""
    need(("gcc",))
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    with ThreadPoolExecutor(4) as pool:
        builds = list(
            pool.map(lambda _: toolchains.prepare(PROGRAMS / "c/word_game_right.c"), range(4))
        )
    assert len({b.argv for b in builds}) == 1 and len({b.binary_sha256 for b in builds}) == 1
    assert [p.name for p in (tmp_path / "cache" / "build").iterdir()] == [
        builds[0].binary.parent.name
    ]
    assert answers(Candidate.parse(str(PROGRAMS / "c/word_game_right.c")), NATIVE)["ZADACHA"] == (
        "ok",
        "Alice",
    )


# ---- compile errors ---------------------------------------------------------------------------

BROKEN_CPP = b'#include <cstdio>\nint main() { int x = ; puts("\x1b[2J"); }\n'


def test_compile_error_carries_message_and_command(tmp_path: Path, build_cache: Path) -> None:
    """The compiler's message, with the user's file name and control bytes escaped, and the
    command; the failed build leaves nothing in the cache."""
    need(("g++",))
    source = tmp_path / "broken.cpp"
    source.write_bytes(BROKEN_CPP)
    with pytest.raises(CompileError) as caught:
        Candidate.parse(str(source))
    exc = caught.value
    assert (
        f"{source}:2:" in exc.output and "error" in exc.output
    )  # the user's path, not the build folder's
    assert exc.command[0].endswith("g++") and "-DONLINE_JUDGE" in exc.command
    assert "\x1b" not in exc.output and "\x1b" not in str(exc)
    assert (build_cache / "build").is_dir() and not list(
        (build_cache / "build").glob(".building-*")
    )


def test_certify_a_broken_source_is_ce(tmp_path: Path) -> None:
    """`gamecert certify GAME broken.cpp`: verdict CE with the compiler's message, a report, exit 1."""
    need(("g++",))
    source = tmp_path / "broken.cpp"
    source.write_bytes(BROKEN_CPP)
    proc = gamecert("certify", "word_game", str(source), "--report-dir", str(tmp_path / "reports"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "CE (compilation error)" in proc.stdout and "expected primary-expression" in proc.stdout
    assert "Traceback" not in proc.stderr and "\x1b" not in proc.stdout
    report = Path(proc.stdout.strip().splitlines()[-1])
    data = json.loads((report / "report.json").read_text())
    assert (data["verdict"], data["input"], data["phase"]) == ("CE", "", "compile")
    assert "expected primary-expression" in data["stderr_tail"] and data["candidate_spec"] == str(
        source
    )
    assert "\x1b" not in (report / "report.md").read_text()


def test_java_without_a_main_class_is_ce(tmp_path: Path) -> None:
    need(("javac", "java"))
    source = tmp_path / "Lib.java"
    source.write_text("class A {}\nclass B {}\n")
    with pytest.raises(CompileError, match="no public top-level class"):
        toolchains.prepare(source)


def test_run_build_time_limit_and_output_cap(tmp_path: Path) -> None:
    """A compile step past its time limit is killed (exit -9, said); long output is clipped."""
    rc, out = toolchains._run_build(["sh", "-c", "sleep 30"], tmp_path, 0.5)
    assert rc == -9 and "longer than 0.5 s" in out
    rc, out = toolchains._run_build(
        ["sh", "-c", "head -c 300000 /dev/zero | tr '\\0' x; exit 3"], tmp_path, 30
    )
    assert (
        rc == 3
        and "output clipped: 300000 bytes" in out
        and len(out) < toolchains.BUILD_OUTPUT_BYTES + 100
    )


# ---- missing toolchains, options --------------------------------------------------------------


def test_go_source_needs_go(tmp_path: Path) -> None:
    """Go: where go is missing, exit 2 with one line naming it; where installed, right and wrong."""
    go = PROGRAMS / "go" / "word_game_right.go"
    if shutil.which("go") is None:
        proc = gamecert("certify", "word_game", str(go), "--report-dir", str(tmp_path))
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.strip().splitlines() == [
            "gamecert: error: go is not installed (not on PATH); it is needed to compile .go sources"
        ]
        return
    expected = {word: ("ok", oracle_answer(word)) for word in WORDS}
    assert answers(Candidate.parse(str(go)), NATIVE) == expected
    assert answers(Candidate.parse(str(PROGRAMS / "go" / "word_game_wrong.go")), NATIVE)["AAA"] == (
        "ok",
        "Bob",
    )


def test_missing_compiler_is_exit_2(tmp_path: Path) -> None:
    """With nothing on PATH, a C++ source names g++ and stops with exit 2, no traceback."""
    empty = tmp_path / "empty-path"
    empty.mkdir()
    env = dict(os.environ, PATH=str(empty), GAMECERT_CACHE=str(tmp_path / "cache"))
    proc = gamecert(
        "certify",
        "word_game",
        str(PROGRAMS / "cpp/word_game_right.cpp"),
        "--report-dir",
        str(tmp_path / "r"),
        env=env,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "gamecert: error: g++ is not installed (not on PATH); it is needed to compile .cpp sources"
    ]


def test_python_option(tmp_path: Path) -> None:
    """--python INTERPRETER runs the .py file with it as a plain command (no fork server); a
    missing interpreter is exit 2 naming it."""
    right = PROGRAMS / "python/word_game_right.py"
    own = Candidate.parse(str(right), python=sys.executable)
    assert own.python_file is None and own.argv == (sys.executable, str(right.resolve()))
    with open_runner(own, NATIVE) as runner:
        assert runner.mode == "fresh-process"
        assert runner.run("ZADACHA\n").stdout.strip() == "Alice"
    with pytest.raises(MissingToolchain, match="no-such-python-9 is not installed"):
        Candidate.parse(str(right), python="no-such-python-9")
    if shutil.which("pypy3") is None:
        proc = gamecert(
            "certify", "word_game", str(right), "--python", "pypy3", "--report-dir", str(tmp_path)
        )
        assert proc.returncode == 2 and "pypy3 is not installed" in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    with pytest.raises(UsageError, match="--python applies to .py"):
        Candidate.parse(str(PROGRAMS / "javascript/word_game_right.js"), python=sys.executable)


def test_compile_override(tmp_path: Path) -> None:
    """--compile replaces the default command: a program that prints whether ONLINE_JUDGE is
    defined says so under the default, and not under an override without it."""
    need(("g++",))
    source = tmp_path / "which.cpp"
    source.write_text(
        '#include <cstdio>\nint main() {\n#ifdef ONLINE_JUDGE\nputs("judge");\n#else\n'
        'puts("local");\n#endif\n}\n'
    )
    outputs = []
    for compile_ in (None, "g++ -O1 -o {exe} {src}"):
        candidate = Candidate.parse(str(source), compile=compile_)
        with open_runner(candidate, NATIVE) as runner:
            outputs.append(runner.run("").stdout.strip())
    assert outputs == ["judge", "local"]
    assert candidate.compile_command[1:3] == ("-O1", "-o") and candidate.compile_command[
        0
    ].endswith("g++")
    with pytest.raises(UsageError, match=r"must name the executable it makes as \{exe\}"):
        Candidate.parse(str(source), compile="g++ {src}")
    with pytest.raises(UsageError, match="--compile applies to compiled languages"):
        Candidate.parse(str(PROGRAMS / "python/word_game_right.py"), compile="true {exe}")
    with pytest.raises(UsageError, match="--compile applies to a source file"):
        Candidate.parse("sh -c true", compile="true {exe}")


@pytest.mark.slow
def test_certify_end_to_end_with_compile_option(tmp_path: Path) -> None:
    """The CLI passes --compile through: the right C++ program is certified, the wrong one is WA."""
    need(("g++",))
    common = (
        "--profile",
        "quick",
        "--examples",
        "5",
        "--seed",
        "3",
        "--compile",
        "g++ -O2 -o {exe} {src}",
    )
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="40")
    ok = gamecert(
        "certify",
        "word_game",
        str(PROGRAMS / "cpp/word_game_right.cpp"),
        *common,
        "--report-dir",
        str(tmp_path / "a"),
        env=env,
    )
    assert ok.returncode == 0 and (
        "CERTIFIED" in ok.stdout or "PASSED (incomplete)" in ok.stdout
    ), ok.stdout + ok.stderr
    bad = gamecert(
        "certify",
        "word_game",
        str(PROGRAMS / "cpp/word_game_wrong.cpp"),
        *common,
        "--report-dir",
        str(tmp_path / "b"),
        env=env,
    )
    assert bad.returncode == 1, bad.stdout + bad.stderr
    data = json.loads((Path(bad.stdout.strip().splitlines()[-1]) / "report.json").read_text())
    assert data["verdict"] == "WA"


# ---- Java: which class to run -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("public class Main { public static void main(String[] a) {} }", "Main"),
        ("// public class Wrong {}\n/* public class Worse {} */\npublic class Right {}", "Right"),
        (
            "class H { String s = \"public class X {\"; char c = '{'; }\npublic final class Y {}",
            "Y",
        ),
        (
            'class H { String t = """\n  public class Z { \\""" }\n  """; }\npublic class Real {}',
            "Real",
        ),
        ("class Outer { public static class Inner {} }\npublic class Top {}", "Top"),
        ('@SuppressWarnings("x")\npublic class Ann<T extends Comparable<T>> {}', "Ann"),
        ("public interface Api {}\nclass Impl {}", "Api"),
        ("public record Point(int x) {}", "Point"),
        ("class A {}\nclass Sol { public static void main(String[] args) {} }", "Sol"),
        ("package a.b;\n\npublic class C {}", "a.b.C"),
        ("public class Ünicode$1 {}", "Ünicode$1"),
        ("class A {}\nclass B {}", ""),
    ],
)
def test_java_main_class(source: str, expected: str) -> None:
    assert java_main_class(source) == expected
