"""The main commands fit an 80-column terminal: no printed line is longer (details are in the files).

Each command runs in this process with ``COLUMNS=80`` and its output captured (not a terminal),
on small budgets: ``list``, ``show`` (every game), ``coverage``, ``prove`` (two quick claims),
``certify GAME`` (the registered solvers' table), ``certify GAME CANDIDATE`` (a certificate and
a report) and ``certify GAME A B`` (the summary table). A line that is one word (a folder's
path) cannot be cut and is not counted; the paths here are short.
"""

from __future__ import annotations

import dataclasses
import types
from pathlib import Path

import pytest

from gamecert.commands import cli
from gamecert.engine import registry

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 80


def _too_long(out: str) -> list[str]:
    return [line for line in out.splitlines() if len(line) > WIDTH and len(line.split()) > 1]


@pytest.fixture
def narrow(monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("GAMECERT_EXHAUSTIVE_RUNS", "40")
    monkeypatch.chdir(tmp_path)  # short report paths: reports/...
    return tmp_path


def _run(capsys, *args: str) -> tuple[int, str]:
    code = cli.main(list(args))
    return code, capsys.readouterr().out


def test_list_show_and_coverage_fit(narrow, capsys):
    for args in (
        ["list"],
        *(["show", name] for name in registry.game_names()),
        ["coverage", "word_game", "--examples", "50"],
    ):
        code, out = _run(capsys, *args)
        assert code in (0, 2) and out, args
        assert not _too_long(out), (args, _too_long(out))


def test_prove_fits(narrow, capsys, monkeypatch):
    from gamecert.proofs import word_game as proofs

    entry = registry.get("word_game")
    quick = dataclasses.replace(
        entry,
        proofs=types.SimpleNamespace(
            CLAIMS=[
                proofs.recurrence_claim(n_max=50),
                proofs.induction_claim(check_options_up_to=50),
            ]
        ),
    )
    monkeypatch.setattr(registry, "load_all", lambda selector=None: ([quick], []))
    code, out = _run(capsys, "prove", "word_game")
    assert code == 0 and "2 of 2 claims hold" in out, out
    assert not _too_long(out), _too_long(out)


def test_certify_the_registered_solvers_fits(narrow, capsys):
    code, out = _run(
        capsys,
        "certify",
        "word_game",
        "--profile",
        "quick",
        "--examples",
        "3",
        "--seed",
        "1",
        "--jobs",
        "1",
    )
    assert code == 0, out
    assert "Registered solvers against the oracle" in out and "closed_form" in out
    assert not _too_long(out), _too_long(out)
    table = (narrow / "reports" / "solvers.md").read_text()
    assert (
        "letter-count multisets" in table
    )  # the evidence clipped on the terminal is whole in the file


@pytest.mark.slow
def test_certify_candidates_fit(narrow, capsys):
    """``certify GAME A B``: each candidate's block is what ``certify GAME A`` prints for it alone
    (a certificate for the right one, a report for the wrong one), then the summary table; one
    run of the two checks all three kinds of output. A budget of 3 s: the right program's
    certificate (cut by the budget, as the quick profile's 10 s cut it too) has the same lines;
    the wrong program fails a sample, so the budget cannot keep its report from being written."""
    right = narrow / "right.py"
    right.write_text((ROOT / "examples/word_game/correct.py").read_text())
    wrong = narrow / "wrong.py"
    wrong.write_text((ROOT / "examples/word_game/wrong.py").read_text())
    common = (
        "--profile",
        "quick",
        "--examples",
        "0",
        "--seed",
        "7",
        "--jobs",
        "2",
        "--budget",
        "3",
    )
    code, out = _run(capsys, "certify", "word_game", "right.py", "wrong.py", *common)
    assert code == 1, out
    blocks = out.split("\n[2/2] wrong.py\n")
    assert len(blocks) == 2, out
    assert "PASSED (incomplete)" in blocks[0] and "certificate in" in blocks[0], out
    assert "WA (wrong answer)" in blocks[1] and "report and replay" in blocks[1], out
    assert "smallest failing input" in blocks[1], out
    assert not _too_long(out), _too_long(out)


def test_a_live_lines_neighbours_never_cut_a_path():
    """A line printed above a live line (``screen.Live.line``, what ``tests`` prints on a terminal)
    is wrapped at spaces, and a path longer than the width stays whole on one line; rich's own
    printing (the control, what ``tests`` used before) folds the path across two lines."""
    import io

    from rich.console import Console

    from gamecert.commands.screen import Live

    path = "/tmp/" + "a-long-folder/" * 5 + "wrong-program.py"
    text = (
        f"[  12.0 s]   {path} passes every chosen test; looking for an input that kills it (60 s)"
    )
    buffer = io.StringIO()
    Live(
        "tests word_game", Console(file=buffer, width=50, force_terminal=True, color_system=None)
    ).line(text)
    lines = buffer.getvalue().splitlines()
    assert any(line.strip() == path for line in lines), lines
    assert all(len(line) <= 50 for line in lines if path not in line), lines

    folded = io.StringIO()
    Console(file=folded, width=50, force_terminal=True, color_system=None).print(
        text, markup=False, highlight=False
    )
    assert not any(path in line for line in folded.getvalue().splitlines())  # the control: cut
