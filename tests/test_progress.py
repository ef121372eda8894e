"""Progress that moves (issue 36, point 6): on a terminal a command of more than a few seconds
shows what it does, the work done of the work known and the time left; to a pipe, plain lines
or nothing; and standard output sent to a file keeps its lines while the live line is on the
terminal.

`gamecert tests` sat for minutes at `mutants | 6 s | 0 runs of 0 programs` while the mutants
were judged in-process; `certify ... > out.txt` on a terminal sent the phase lines to the
terminal instead of the file.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: word_game's package with few mutants, no search and no certify: its first steps take seconds
TESTS = ["tests", "word_game", "--max-mutants", "6", "--search-seconds", "0", "--no-certify"]


def _pty_run(
    args: list[str], until: str, stdout_file: Path | None = None, timeout: float = 120
) -> str:
    """What a terminal shows of ``gamecert ARGS`` (escapes removed) until ``until`` shows, when
    the command is stopped with SIGTERM; with ``stdout_file``, standard output goes there."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on the pseudo-terminal
        os.chdir(ROOT)
        os.environ["COLUMNS"] = "200"
        if stdout_file is not None:
            os.dup2(os.open(stdout_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
        os.execv(sys.executable, [sys.executable, "-m", "gamecert", *args])
    out, stopped = b"", False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not select.select([fd], [], [], 0.5)[0]:
            continue
        try:
            data = os.read(fd, 1 << 16)
        except OSError:  # the child has ended
            break
        if not data:
            break
        out += data
        if not stopped and until in ANSI.sub("", out.decode(errors="replace")):
            os.kill(pid, signal.SIGTERM)
            stopped = True
    if (os.waitpid(pid, os.WNOHANG) if stopped else (0, 0)) == (0, 0):
        # not seen, or not ended by SIGTERM within the time: never wait on it unbounded
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
    return ANSI.sub("\n", out.decode(errors="replace")).replace("\r", "\n")


def test_tests_counts_the_mutants_and_inputs_on_a_terminal(tmp_path):
    """While the mutants are judged in-process, the live line counts them (k of 6 mutants judged)
    and the inputs the solvers were timed on, of the pool's inputs; the runs of the time tests
    are counted too. Control: the same command to a pipe prints its timestamped steps and none
    of the live line's counts."""
    shown = _pty_run([*TESTS, "--out", str(tmp_path / "pkg")], until=" runs")
    assert re.search(
        r"tests word_game: mutants \| [\d,]+ of ([\d,]+) inputs the solvers were timed on", shown
    ), shown
    judged = [
        int(k) for k in re.findall(r"tests word_game: mutants \| (\d+) of 6 mutants judged", shown)
    ]
    assert judged and max(judged) == 6, shown
    assert re.search(r"tests word_game: time tests \| \d+ of \d+ runs", shown), shown
    assert "0 runs of 0 programs" not in shown

    proc = subprocess.Popen(
        [sys.executable, "-m", "gamecert", *TESTS, "--out", str(tmp_path / "pkg2")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    lines = []
    try:
        for line in proc.stderr:
            lines.append(line)
            if "time tests:" in line:
                break
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
    assert any("mutants: 6 of" in line for line in lines), lines
    assert all(re.match(r"\[ *[\d.]+ s\] ", line) for line in lines), lines
    assert not any("mutants judged" in line or "timed on" in line for line in lines), lines


def test_certify_to_a_file_keeps_its_lines_while_the_live_line_is_on_the_terminal(tmp_path):
    """`certify ... > out.txt` with stderr on a terminal: the phase line (`samples FAIL ...`) was
    printed on the terminal through the live display, not into the file; it is in the file and
    not on the terminal. Control: the live line itself is on the terminal."""
    out = tmp_path / "out.txt"
    shown = _pty_run(
        [
            "certify",
            "word_game",
            str(ROOT / "examples/word_game/wrong.py"),
            "--phases",
            "samples",
            "--budget",
            "3",
            "--seed",
            "1",
            "--report-dir",
            str(tmp_path / "r"),
        ],
        until="no such text: read to the end",
        stdout_file=out,
    )
    written = out.read_text()
    assert "samples     FAIL (WA)" in written and "WA (wrong answer)" in written, written
    assert "FAIL (WA)" not in shown, shown
    assert ": samples" in shown and " s of 3 s" in shown, (
        shown
    )  # the control: the live line is on the terminal
