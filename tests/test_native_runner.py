"""Compiled candidates through the native fork server, inside the sandbox: the same verdicts and
outputs as an exec per test, on the project's programs (right and wrong word_game solutions in C
and C++, and programs with global state, crashes and exit codes, forks and threads, big inputs).

The fork server (``gamecert/engine/run/supervisor/shim.c``, preloaded) starts the program once and
clones a fresh copy of its image, stopped before the program's own constructors, for every test
(each run says how it started, and every one here must have gone the way asked);
``GAMECERT_NATIVE_FORKSERVER=0`` turns it off (an exec per test), which is the reference here.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gamecert.engine.run import native_shim
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner
from gamecert.engine.run.toolchains import MissingToolchain

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
LIMITS = Limits(time_s=2.0, memory_mb=256)
WORDS = [
    "A",
    "AB",
    "ZADACHA",
    "AAA",
    "ABCABCABC",
    "Z" * 40,
    "QWERTYUIOPASDFGHJKLZXCVBNMQWERTYUIOPASDF",
]

pytestmark = pytest.mark.skipif(
    native_shim.shim_path() is None, reason="no C compiler: no native fork server"
)


def compiled(tmp_path: Path, source: Path) -> Path:
    compiler = shutil.which("g++" if source.suffix == ".cpp" else "gcc")
    if compiler is None:
        pytest.skip(f"no compiler for {source.name}")
    out = tmp_path / source.stem
    extra = ["-pthread"] if source.suffix == ".c" else []
    subprocess.run([compiler, "-O2", "-o", str(out), str(source), *extra], check=True)
    return out


def both_ways(
    program: Path, inputs: list[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[list, list, str]:
    """(status, stdout, exit code, signal) of every input through the fork server and exec'd."""
    seen = {}
    startup = ""
    for flag in ("1", "0"):
        monkeypatch.setenv("GAMECERT_NATIVE_FORKSERVER", flag)
        with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
            if flag == "1":
                startup = runner.startup
            results = [runner.run(text) for text in inputs]
            # every run went the way asked (the fork server really served them all)
            assert {r.started for r in results} == {"native" if flag == "1" else "exec"}, (
                runner.startup
            )
            seen[flag] = [(r.status, r.stdout, r.exit_code, r.signal) for r in results]
    return seen["1"], seen["0"], startup


#: every word of up to 4 letters over A, B, C (the wrong programs fail some), then longer ones
SMALL_WORDS = ["".join(p) for n in range(1, 5) for p in itertools.product("ABC", repeat=n)]


@pytest.mark.parametrize(
    "source",
    [
        "cpp/word_game_right.cpp",
        "cpp/word_game_wrong.cpp",
        "c/word_game_right.c",
        "c/word_game_wrong.c",
        "rust/word_game_right.rs",
        "rust/word_game_wrong.rs",
    ],
)
def test_word_game_programs_agree_both_ways(
    tmp_path: Path, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project's right and wrong word_game programs, built as gamecert builds them (the
    toolchains' usual flags; Rust where it is installed): the same status, output, exit code
    and signal on every input through the fork server and exec'd."""
    if source.endswith(".rs"):  # built by gamecert's toolchains (cached), as a candidate is
        program = PROGRAMS / source
        try:
            Candidate.parse(str(program))
        except MissingToolchain as exc:
            pytest.skip(str(exc))
    else:
        program = compiled(tmp_path, PROGRAMS / source)
    served, execd, startup = both_ways(
        program, [w + "\n" for w in SMALL_WORDS + WORDS], monkeypatch
    )
    assert startup.startswith("native fork server"), startup
    assert served == execd
    if "wrong" in source:  # the comparison covers wrong answers, not only right ones
        assert len({out for _, out, _, _ in served}) == 2


@pytest.mark.parametrize(("source", "inputs"), [
    ("native/globals.cpp", ["1\n", "2\n", "3\n", "1\n"]),
    ("native/exitcode.c", ["0\n", "1\n", "2\n", "3\n", "7\n", "300\n"]),
    ("native/forker.c", ["3\n", "5\n"]),
    ("native/readall.c", ["x" * 100_000, "", "abc\n" * 50_000]),
])  # fmt: skip
def test_state_crashes_forks_and_big_inputs_agree(
    tmp_path: Path, source: str, inputs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Global state is fresh in every test, crashes and exit codes are the same, a program that
    forks and starts a thread works, big inputs are read whole: as with an exec per test."""
    program = compiled(tmp_path, PROGRAMS / source)
    served, execd, startup = both_ways(program, inputs, monkeypatch)
    assert startup.startswith("native fork server"), startup
    assert served == execd


def test_a_static_program_is_execd_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A statically linked program cannot take the preloaded shim: every test is exec'd, and the
    runner says why."""
    out = tmp_path / "static_right"
    try:
        subprocess.run(
            ["gcc", "-static", "-O2", "-o", str(out), str(PROGRAMS / "c/word_game_right.c")],
            check=True,
            capture_output=True,
        )
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no static C library here")
    monkeypatch.delenv("GAMECERT_NATIVE_FORKSERVER", raising=False)
    with open_runner(Candidate.parse(str(out)), LIMITS) as runner:
        assert runner.startup == "exec per test (not a dynamically linked program)"
        assert runner.run("ZADACHA\n").stdout == "Alice\n"
    assert os.path.exists(out)
