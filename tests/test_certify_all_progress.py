"""``gamecert certify GAME|all`` with no candidate shows how far it is on a terminal (the tests
run of the tests planned, an estimate of the time left) and nothing of it to a pipe."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COUNTS = re.compile(r"([\d,]+) of ([\d,]+) tests(, ~\d+ s left)?")
COMMAND = [sys.executable, "-m", "gamecert", "certify", "word_game", "--seed", "1"]


def _on_a_terminal(tmp_path: Path) -> str:
    """The command's output as a terminal shows it (a pseudo-terminal read to its end)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, its output on the pseudo-terminal
        os.chdir(ROOT)
        os.environ["COLUMNS"] = "200"
        os.execv(sys.executable, [*COMMAND, "--report-dir", str(tmp_path)])
    out = b""
    while select.select([fd], [], [], 120)[0]:
        try:
            data = os.read(fd, 1 << 16)
        except OSError:  # the child has ended and closed its side
            break
        if not data:
            break
        out += data
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, out[-2000:]
    return out.decode(errors="replace")


def test_certify_all_shows_tests_done_of_the_total_and_the_time_left_on_a_terminal(tmp_path):
    """word_game's two solvers (465,568 tests, several seconds): the status line says, part-way,
    how many tests ran of the total planned and about how long is left."""
    seen = [
        (int(done.replace(",", "")), int(total.replace(",", "")), left)
        for done, total, left in COUNTS.findall(_on_a_terminal(tmp_path))
    ]
    part_way = [(done, total, left) for done, total, left in seen if 0 < done < total]
    assert part_way, seen[:5]
    assert {total for _, total, _ in part_way} == {465_568}
    assert any(left for _, _, left in part_way), part_way[:5]


def test_certify_all_writes_no_progress_to_a_pipe(tmp_path):
    """To a pipe, the same command prints its lines and table, and no status line."""
    proc = subprocess.run(
        [*COMMAND, "--report-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, COLUMNS="200"),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "2 solvers, 465568 tests" in proc.stdout
    assert not COUNTS.search(proc.stdout + proc.stderr), (proc.stdout + proc.stderr)[:2000]
