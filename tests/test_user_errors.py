"""The errors a user meets first, each told plainly and before any work (issue 36, point 5): a
Python program that does not compile is CE with the interpreter's message and no test run; a
file of a language gamecert does not build gets a hint for that language; the files a folder
holds besides its candidates are named; `certify GAME` with no program says what it does
instead; `replay` takes any file of a report folder; options are refused before any work;
`list` names an unfinished game and lists the others; `explain` is rendered on a terminal.

Each drives the real command (or the function it calls) as a user would; the whole file runs in
about 15 s of CPU.
"""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamecert.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "examples" / "word_game" / "wrong.py"
CORRECT = ROOT / "examples" / "word_game" / "correct.py"


def gamecert(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamecert", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )


def usage_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The one line of a usage error (exit 2, no traceback)."""
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamecert: error: "), proc.stderr
    return lines[0]


def on_a_terminal(
    *args: str, env: dict[str, str] | None = None, until: str | None = None, timeout: float = 120
) -> str:
    """The command's output as a terminal shows it (a pseudo-terminal read to its end, or until
    ``until`` shows, when the command is stopped with SIGTERM)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, its output on the pseudo-terminal
        os.chdir(ROOT)
        os.environ.update({"COLUMNS": "160", **(env or {})})
        os.execv(sys.executable, [sys.executable, "-m", "gamecert", *args])
    out = b""
    deadline = time.monotonic() + timeout
    while (
        time.monotonic() < deadline
        and select.select([fd], [], [], max(0.1, deadline - time.monotonic()))[0]
    ):
        try:
            data = os.read(fd, 1 << 16)
        except OSError:  # the child has ended and closed its side
            break
        if not data:
            break
        out += data
        if until is not None and until in out.decode(errors="replace"):
            os.kill(pid, 15)
            until = None
    else:
        os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(fd)
    return out.decode(errors="replace")


# ---- a Python program that does not compile --------------------------------------------------------------


def test_a_python_syntax_error_is_ce_with_the_interpreters_message_and_no_test(tmp_path):
    """`certify` of a .py file with a syntax error: CE up front like a C++ compile error, the
    interpreter's SyntaxError as the message, no test run (it was RE after 4.5 s of runs, the
    SyntaxError in the stderr tail). Control: the same file mended is no CE."""
    bad = tmp_path / "sol.py"
    bad.write_text("import sys\nword = sys.stdin.readline(\nprint('Alice')\n")
    proc = gamecert(
        "certify", "word_game", str(bad), "--budget", "30", "--report-dir", str(tmp_path / "r")
    )
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert proc.stdout.startswith("CE (compilation error): "), proc.stdout
    assert "SyntaxError: '(' was never closed" in proc.stdout.splitlines()[0]
    report = Path(proc.stdout.strip().splitlines()[-1])
    data = json.loads((report / "report.json").read_text())
    assert data["verdict"] == "CE" and data["input"] == "" and data["phase"] == "compile"
    assert "0 tests" in proc.stdout

    from gamecert.engine.run.sources import prepare

    bad.write_text("import sys\nword = sys.stdin.readline()\nprint('Alice')\n")
    assert prepare(bad).language == "python"  # control: compiles, so no CompileError


# ---- a file gamecert does not build -----------------------------------------------------------------------


def test_a_file_of_another_language_gets_a_hint_for_it(tmp_path):
    """`certify word_game sol.rb` said "give a command line such as 'python3 sol.rb'"; it names
    Ruby, says gamecert does not build it and how to pass its command line. Control: a file with
    no extension gets the chmod hint, and a compiled language the compile-it-yourself one."""
    from gamecert.engine.run.sandbox import Candidate

    (tmp_path / "sol.rb").write_text("puts 'Alice'\n")
    line = usage_line(gamecert("certify", "word_game", str(tmp_path / "sol.rb")))
    assert (
        "Ruby (.rb) is not a language gamecert builds" in line
        and f"'ruby {tmp_path / 'sol.rb'}'" in line
    )
    assert "python3" not in line
    (tmp_path / "solution").write_text("echo Alice\n")
    with pytest.raises(UsageError, match=r"chmod \+x .*solution; a script needs a #! line"):
        Candidate.parse(str(tmp_path / "solution"))
    (tmp_path / "Main.kt").write_text("fun main() {}\n")
    with pytest.raises(UsageError, match="Kotlin .* compile it yourself"):
        Candidate.parse(str(tmp_path / "Main.kt"))


# ---- a folder of candidates -------------------------------------------------------------------------------


def test_a_folders_skipped_files_are_named(tmp_path):
    """A folder given to `certify` was expanded to its source files and the rest dropped without
    a word; one line names what was skipped. Control: a folder of sources alone says nothing."""
    from gamecert.commands.certify import expand_candidates

    shutil.copy(CORRECT, tmp_path / "a.py")
    (tmp_path / "notes.txt").write_text("x\n")
    (tmp_path / "sol.rb").write_text("puts 1\n")
    (tmp_path / "old").mkdir()
    said: list[str] = []
    assert expand_candidates([str(tmp_path)], say=said.append) == [str(tmp_path / "a.py")]
    assert len(said) == 1 and said[0].endswith(
        "skipped 3 (not a source file gamecert builds, or a folder: give a "
        "program as a command line to run it): notes.txt, old/, sol.rb"
    ), said
    for name in ("notes.txt", "sol.rb"):
        (tmp_path / name).unlink()
    (tmp_path / "old").rmdir()
    said.clear()
    assert (
        expand_candidates([str(tmp_path)], say=said.append) == [str(tmp_path / "a.py")]
        and said == []
    )


# ---- certify GAME with no program ----------------------------------------------------------------------


def test_certify_a_game_without_a_program_says_so_first(tmp_path):
    """`certify GAME` with the program forgotten ran the registered solvers for a minute under a
    line that did not say a program was missing; the first line says so and how to give one."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamecert", "certify", "word_game", "--report-dir", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        first = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
    assert first.startswith(
        "no program given: certifying word_game's 2 registered solvers (closed_form, "
        "count_table) against its oracle"
    ), first
    assert first.rstrip().endswith("; to judge a program: gamecert certify word_game PROGRAM"), (
        first
    )


def test_certify_all_refuses_phases_before_any_work():
    """`certify all --phases foo` ran every registered solver for over two minutes and ignored
    the option; it is refused at once, as the other candidate-only options are. Control: the same
    list of options without --phases is not refused for it."""
    line = usage_line(gamecert("certify", "all", "--phases", "foo", timeout=60))
    assert "--phases applies only to a candidate program" in line
    line = usage_line(gamecert("certify", "all", "--jobs", "0", timeout=60))
    assert "--phases" not in line and "--jobs" in line


# ---- replay from any file of a report ----------------------------------------------------------------------


def test_replay_takes_any_file_of_the_report_folder(tmp_path):
    """`replay reports/.../report.md` was "not a directory"; report.md, input.in and the folder
    replay the same. Control: a file outside any report folder is one line naming the folder to give."""
    proc = gamecert(
        "certify",
        "word_game",
        str(WRONG),
        "--phases",
        "samples",
        "--budget",
        "10",
        "--seed",
        "1",
        "--report-dir",
        str(tmp_path),
    )
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    folder = Path(proc.stdout.strip().splitlines()[-1])
    outputs = []
    for given in (folder, folder / "report.md", folder / "input.in"):
        replayed = gamecert("replay", str(given))
        assert replayed.returncode == 1, (replayed.stdout, replayed.stderr)
        outputs.append(replayed.stdout)
    assert outputs[0] == outputs[1] == outputs[2] and "verdict:  WA" in outputs[0]
    stray = tmp_path / "notes.md"
    stray.write_text("x\n")
    assert "is a file outside any report folder" in usage_line(gamecert("replay", str(stray)))


# ---- options before work ------------------------------------------------------------------------------------


def test_tests_refuses_too_few_tests_before_any_work(tmp_path):
    """`tests word_game --max-tests 5` was refused after 9 s of pool, mutants and time tests; it
    is refused before the first step. Control: the least number it names passes that check."""
    from gamecert.commands.tests_cmd import least_tests
    from gamecert.engine import registry

    proc = gamecert("tests", "word_game", "--out", str(tmp_path / "pkg"), "--max-tests", "5")
    line = usage_line(proc)
    least = least_tests(registry.get("word_game"))
    assert (
        f"--max-tests 5 is below the {least} tests every word_game package holds at least" in line
    )
    assert "pool:" not in proc.stderr and "mutants:" not in proc.stderr
    assert not (tmp_path / "pkg").exists()
    assert (
        least == len(registry.get("word_game").game.samples) + 5 > 5
    )  # 2 samples, 4 coverage + 1 worst family


# ---- list with an unfinished game ---------------------------------------------------------------------------


def _games_folder(tmp_path: Path, oracle_tail: str) -> Path:
    """A copy of tests/games_ok plus a game ``half`` whose oracle ends with ``oracle_tail``."""
    folder = tmp_path / "games"
    shutil.copytree(ROOT / "tests" / "games_ok", folder)
    for part in ("oracles", "fast", "strategies", "proofs"):
        text = (folder / part / "toy_ok.py").read_text().replace('"toy_ok", "ok"', '"half", "ok"')
        (folder / part / "half.py").write_text(text + (oracle_tail if part == "oracles" else ""))
    return folder


@pytest.mark.parametrize(
    "tail,needle",
    [
        # the author's title still a stub of the kit (its module's UNFINISHED line dropped by hand)
        (
            "from gamecert.kit.todo import todo_value\nGAME.__class__.title = todo_value('the title')\n",
            "half: UNFINISHED, ",
        ),
        # game code that raises when the game is read (a property not yet written)
        (
            "GAME.__class__.title = property(lambda self: 1 // 0)\n",
            "half: BROKEN, GAME ERROR in half: ",
        ),
    ],
)
def test_list_names_an_unfinished_game_and_lists_the_others(tmp_path, tail, needle):
    """`GAMECERT_GAMES=DIR gamecert list` with one game of DIR unfinished: a GAME ERROR alone, or
    that game listed as if finished; now every good game is listed, the unfinished one named on
    its line, exit 2. Control: the same folder without it lists and exits 0."""
    folder = _games_folder(tmp_path, tail)
    proc = gamecert("list", env={"GAMECERT_GAMES": str(folder)})
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stdout.splitlines()
    assert any(line.startswith(needle) for line in lines), proc.stdout
    for good in (
        "toy_ok: Take one or two",
        "word_game: A word game",
        "string_cut: Playing with String",
    ):
        assert any(line.startswith(good) for line in lines), proc.stdout
    for part in ("oracles", "fast", "strategies", "proofs"):
        (folder / part / "half.py").unlink()
    control = gamecert("list", env={"GAMECERT_GAMES": str(folder)})
    assert control.returncode == 0 and "half" not in control.stdout, (
        control.stdout,
        control.stderr,
    )


# ---- explain on a terminal ------------------------------------------------------------------------------------


def test_explain_is_rendered_on_a_terminal_and_markdown_to_a_pipe(tmp_path):
    """`explain` printed raw markdown (`**Outcome:**`, `|---|`) on a terminal; there it is rendered
    (bold, a drawn table); to a pipe it stays the markdown report.md holds (the control)."""
    given = tmp_path / "in.txt"
    given.write_text("ZADACHA\n")
    shown = on_a_terminal("explain", "word_game", str(given), timeout=60)
    assert "Outcome:" in shown and "**" not in shown and "|---|" not in shown and "─" in shown, (
        shown
    )
    piped = gamecert("explain", "word_game", str(given))
    assert piped.returncode == 0 and "**Outcome:**" in piped.stdout and "|---|" in piped.stdout
