"""A game author's mistakes, each made on purpose in a toy game kept outside the package
(``tests/games_bad/``, loaded through ``GAMECERT_GAMES``), each caught and named: a GAME ERROR
(exit status 2, one line on stderr) that names the game and the part at fault, never a verdict
on the candidate, never a traceback, never a hang.

The toy game and its switchable mistakes are in ``tests/games_bad/_toy.py``; ``toy_ok`` in
``tests/games_ok/`` is the same game without a mistake (the control: certified).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecert.kit.game import ensure_recursion

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "games_bad"
OK = ROOT / "tests" / "games_ok"
TOY = BAD / "_toy.py"
RIGHT = BAD / "examples" / "correct.py"
WRONG = BAD / "examples" / "wrong.py"
#: a hang guard for the subprocesses (not a timing assertion: a run that hangs fails here)
HANG_GUARD_S = 120


def _gamecert(
    *args: str, games: Path = BAD, seconds: float = 2.0, cwd: Path | None = None, **kw
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GAMECERT_GAMES": str(games),
        "GAMECERT_GAME_SECONDS": str(seconds),
        "PYTHONPATH": str(ROOT),
    }
    env.pop("GAMECERT_PROFILE", None)
    return subprocess.run(
        [sys.executable, "-m", "gamecert", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=HANG_GUARD_S,
        **kw,
    )


def _certify(
    game: str, candidate: Path, report_dir: Path, *extra: str, **kw
) -> subprocess.CompletedProcess[str]:
    return _gamecert(
        "certify",
        game,
        str(candidate),
        "--seed",
        "1",
        "--budget",
        "6",
        "--jobs",
        "1",
        "--report-dir",
        str(report_dir),
        *extra,
        **kw,
    )


def _line_of(marker: str) -> int:
    """The line of the toy game's source holding ``marker`` (so the tests name no line number)."""
    lines = TOY.read_text().splitlines()
    return next(k for k, line in enumerate(lines, 1) if marker in line)


def _game_error(out: subprocess.CompletedProcess[str], game: str) -> str:
    """The one GAME ERROR line; checks the exit status, no traceback and no verdict."""
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(f"gamecert: GAME ERROR in {game}: "), lines[0]
    assert not re.search(r"^(WA|RE|TLE|PE|MLE|OLE) ", out.stdout, re.M), (
        out.stdout
    )  # no candidate blamed
    return lines[0]


def _no_report(report_dir: Path, game: str) -> None:
    found = (
        [p for p in (report_dir / game).glob("*") if p.is_dir()]
        if (report_dir / game).exists()
        else []
    )
    assert not found, f"a report or certificate was written: {found}"


@pytest.mark.slow
def test_control_the_toy_game_without_a_mistake_certifies_and_catches(tmp_path):
    """The same toy game without a mistake: the right program is certified, the wrong one is
    caught (WA) with exit 1. So each error below comes from the mistake, not the toy game."""
    right = _certify("toy_ok", OK / "examples" / "toy_ok" / "correct.py", tmp_path, games=OK)
    assert right.returncode == 0 and re.search(
        r"(CERTIFIED|PASSED \(incomplete\)); certificate in", right.stdout
    ), right.stdout + right.stderr
    wrong = _certify("toy_ok", OK / "examples" / "toy_ok" / "wrong.py", tmp_path, games=OK)
    assert wrong.returncode == 1 and "WA (wrong answer)" in wrong.stdout, (
        wrong.stdout + wrong.stderr
    )


def test_a_family_yielding_an_invalid_input_stops_the_run(tmp_path):
    """A coverage family that yields n = 0: GAME ERROR naming the family and the input; the
    right program (which checks its constraints) is not blamed, and nothing is written."""
    line = _game_error(_certify("family_zero", RIGHT, tmp_path), "family_zero")
    assert "the coverage family 'every-n' (coverage()) yields an invalid input" in line
    assert "n must be between 1 and 100, got 0" in line and "'0\\n'" in line
    _no_report(tmp_path, "family_zero")


def test_a_family_whose_count_is_wrong_is_named(tmp_path):
    """A family declaring 100 inputs and yielding 99 is never shown complete."""
    line = _game_error(_certify("family_count", RIGHT, tmp_path), "family_count")
    assert (
        "the coverage family 'every-n' (coverage()) declares count=100 but yields 99 inputs" in line
    )


def test_a_largest_input_past_the_limit_is_named(tmp_path):
    """largest() with n = 101 (limit 100) is a GAME ERROR, not an RE of the right program."""
    line = _game_error(
        _certify("largest_over", RIGHT, tmp_path, "--phases", "largest"), "largest_over"
    )
    assert "largest() in the strategies yields an invalid input" in line and "got 101" in line


def test_an_oracle_contradicting_a_sample_shows_both_answers(tmp_path):
    """The samples are checked against the oracle before anything runs."""
    line = _game_error(_certify("sample_oracle", RIGHT, tmp_path), "sample_oracle")
    assert "sample 1 ('3\\n') says 'Second\\n' but the oracle answers 'First\\n'" in line


def test_a_fast_solver_contradicting_a_sample_is_named(tmp_path):
    """... and against every fast solver."""
    line = _game_error(_certify("sample_solver", RIGHT, tmp_path), "sample_solver")
    assert (
        "the fast solver closed_form answers 'Second\\n' on sample 2 ('4\\n'), which says 'First\\n'"
        in line
    )


def test_an_oracle_that_raises_names_its_file_function_and_line(tmp_path):
    """An exception in the oracle: one line naming the game's file, function and line; the
    full traceback is in the file the line names (beside the reports)."""
    line = _game_error(_certify("oracle_raises", RIGHT, tmp_path), "oracle_raises")
    where = f"games_bad/_toy.py, in oracle, line {_line_of('divides by zero at n = 7')}: ZeroDivisionError"
    assert where in line, line
    path = Path(re.search(r"full traceback in (\S+)\)$", line).group(1))
    path = path if path.is_absolute() else ROOT / path
    assert path.parent == tmp_path / "oracle_raises"
    assert "ZeroDivisionError" in path.read_text() and "Traceback" in path.read_text()


@pytest.mark.slow
def test_a_fast_solver_that_hangs_is_stopped_and_named(tmp_path):
    """Beyond the oracle's reach (n > 60) both fast solvers loop forever at n = 77: the run
    ends with a GAME ERROR naming the solver and where it was, instead of hanging."""
    line = _game_error(
        _certify("solver_hangs", RIGHT, tmp_path, "--phases", "coverage"), "solver_hangs"
    )
    assert re.search(r"the fast solver \w+ did not finish within 2 s", line), line
    assert f"in _forever, line {_line_of('a loop that never ends')}" in line


def test_a_shrinker_yielding_an_invalid_input_is_named(tmp_path):
    """smaller() offering n = 0 while the wrong program's fault is shrunk: a GAME ERROR."""
    line = _game_error(_certify("shrinker_invalid", WRONG, tmp_path), "shrinker_invalid")
    assert "smaller() (the game's shrinker) yields an invalid input" in line and "'0\\n'" in line


def test_a_shrinker_that_hangs_is_stopped_and_named(tmp_path):
    """smaller() looping forever: a GAME ERROR after its time limit, not a run past the budget."""
    line = _game_error(_certify("shrinker_hangs", WRONG, tmp_path), "shrinker_hangs")
    assert "smaller() did not finish within 2 s" in line


@pytest.mark.slow
def test_sigterm_ends_a_run_stuck_in_game_code_and_keeps_the_fault(tmp_path):
    """With game code allowed 10 minutes, SIGTERM while smaller() loops still ends the run at
    once, and the fault found before shrinking is written as a report (exit 1). The game's
    smaller() touches a file as it enters its endless loop: the signal is sent then, not after
    a fixed wait."""
    stuck = tmp_path / "stuck"
    env = {
        **os.environ,
        "GAMECERT_GAMES": str(BAD),
        "GAMECERT_GAME_SECONDS": "600",
        "PYTHONPATH": str(ROOT),
        "GAMECERT_TOY_STUCK_FILE": str(stuck),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            "shrinker_hangs",
            str(WRONG),
            "--seed",
            "1",
            "--jobs",
            "1",
            "--report-dir",
            str(tmp_path / "reports"),
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # the run finds its fault (about a second) and enters smaller(), which never returns
        for _ in range(1200):
            if stuck.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended by itself"
        assert stuck.exists(), "smaller() was not entered within a minute"
        time.sleep(0.2)  # well inside the loop
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1, out + err
    assert "WA (wrong answer)" in out and "Traceback" not in out + err
    report = Path(out.strip().splitlines()[-1])
    assert (report / "report.md").exists()
    assert "interrupted" in (report / "report.json").read_text()


def test_an_explanation_that_raises_is_named(tmp_path):
    """gamecert explain on a game whose explain() raises: a GAME ERROR naming explain()."""
    out = _gamecert("explain", "explain_raises", "-", input="5\n")
    line = _game_error(out, "explain_raises")
    assert f"in explain, line {_line_of('raise KeyError(n)')}: KeyError: 5 (in explain())" in line


def test_a_report_keeps_the_fault_when_explain_raises(tmp_path):
    """In a certification the fault stands (explain() does not decide it): the report is
    written, exit 1, and its explanation says what went wrong."""
    out = _certify("explain_raises", WRONG, tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    report = Path(out.stdout.strip().splitlines()[-1])
    assert "(no explanation: GAME ERROR in explain_raises:" in (report / "report.md").read_text()


def test_prove_goes_on_past_a_claim_that_raises(tmp_path):
    """prove: a claim whose check raises is one GAME ERROR line; the next claim is checked; exit 2."""
    out = _gamecert("prove", "claim_raises")
    assert out.returncode == 2 and "Traceback" not in out.stdout + out.stderr, (
        out.stdout + out.stderr
    )
    assert "[GAME ERROR] mod-3" in out.stdout
    assert f"in check, line {_line_of('the mistake: an IndexError')}: IndexError" in out.stdout
    assert "[holds] after" in out.stdout


def _deep(n: int) -> int:
    return 0 if n == 0 else 1 + _deep(n - 1)


def test_ensure_recursion_works_inside_a_hypothesis_test():
    """``with ensure_recursion(n)`` gives room for a deep search inside a Hypothesis test and
    leaves no HypothesisWarning (the suite turns warnings into errors); the bare call, which
    changes the limit for good, is what Hypothesis warns about (the control)."""

    @settings(max_examples=5, database=None, deadline=None)
    @given(st.integers(4000, 5000))
    def with_block(n):
        with ensure_recursion(n):
            assert _deep(n) == n

    @settings(max_examples=1, database=None, deadline=None)
    @given(st.just(4500))
    def bare_call(n):
        ensure_recursion(n)
        assert _deep(n) == n

    before = sys.getrecursionlimit()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with_block()
    assert sys.getrecursionlimit() == before
    with pytest.warns(Warning, match="recursion limit"):
        bare_call()
    sys.setrecursionlimit(before)


@pytest.mark.slow
def test_the_conformance_suite_catches_the_mistakes_in_a_games_folder():
    """`pytest tests/test_conformance.py` with the mistakes' folder in GAMECERT_GAMES fails
    exactly the items that check what each mistake breaks (the same suite passes toy_ok)."""
    games = (
        "family_zero",
        "family_count",
        "largest_over",
        "sample_oracle",
        "sample_solver",
        "shrinker_invalid",
        "explain_raises",
        "oracle_raises",
    )
    env = {
        **os.environ,
        "GAMECERT_GAMES": f"{BAD}{os.pathsep}{OK}",
        "GAMECERT_GAME_SECONDS": "2",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("PYTEST_XDIST_WORKER", None)
    selected = " or ".join(f"[{g}]" for g in games) + " or [toy_ok]"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "tests/test_conformance.py",
            "-k",
            selected.replace("[", "").replace("]", ""),
            "--gamecert-profile",
            "quick",
            "-rfp",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    failed = set(re.findall(r"^FAILED tests/test_conformance.py::(\w+)\[(\w+)", out.stdout, re.M))
    expected = {
        ("test_families_are_valid_and_counted", "family_zero"),
        ("test_families_are_valid_and_counted", "family_count"),
        ("test_largest_are_maximal_and_valid", "largest_over"),
        ("test_samples_match_oracle", "sample_oracle"),
        ("test_samples_match_oracle", "sample_solver"),
        ("test_shrinker_moves_are_valid", "shrinker_invalid"),
        ("test_explanations_render", "explain_raises"),
    }
    assert expected <= failed, out.stdout[-3000:]
    assert any(game == "oracle_raises" for _, game in failed), out.stdout[-3000:]
    assert not any(game == "toy_ok" for _, game in failed)
    passed = re.findall(r"^PASSED tests/test_conformance.py::(\w+)\[toy_ok\]", out.stdout, re.M)
    assert len(set(passed)) >= 5, out.stdout[-3000:]  # the clean game really ran every check


def test_a_section_is_stopped_at_its_own_limit_whatever_alarm_an_earlier_one_left():
    """The main thread's alarm is armed by a section and left armed when it ends
    (``gamecert.engine.gamecode``): a later section that hangs is still stopped, at its own
    start plus its limit and not at the earlier one's; so is one after code that took the timer
    for itself (``timer_taken``). Run in a child process, whose main thread owns the alarm."""
    code = r"""
import signal, sys, time
from gamecert.engine import gamecode
from gamecert.errors import GameError

def hang_in_section(limit):
    started = time.monotonic()
    try:
        with gamecode.section("g", "a hang", seconds=limit):
            while True:
                pass
    except GameError:
        return time.monotonic() - started
    return None

with gamecode.section("g", "quick", seconds=1.0):
    pass
time.sleep(0.6)  # the quick section's alarm goes off 0.4 s into the next section
first = hang_in_section(1.0)
signal.setitimer(signal.ITIMER_REAL, 0)  # as the test packages' own bounds do
gamecode.timer_taken()
second = hang_in_section(0.5)
with gamecode.section("g", "long limit", seconds=30.0):
    pass
third = hang_in_section(0.3)  # a shorter limit than the alarm pending
print(first, second, third)
"""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    first, second, third = (float(x) for x in out.stdout.split())
    assert 0.95 <= first < 3.0
    assert 0.45 <= second < 2.5
    assert 0.25 <= third < 2.0


ALARM_AT_EXIT = """
import atexit, signal, time
# registered first, so it runs after gamecert's own exit handlers, as the interpreter's
# finalisation does: every signal's default action back, then some time before the end
atexit.register(lambda: (signal.signal(signal.SIGALRM, signal.SIG_DFL), time.sleep(0.6)))
from gamecert.engine import gamecode
with gamecode.section("toy", "the oracle", seconds=0.3):
    pass  # a section that ends at once leaves its alarm armed for the rest of its limit
print("done")
"""


def test_an_alarm_a_section_left_armed_does_not_kill_the_process_at_exit():
    """A section leaves its alarm armed when it ends (one timer call fewer per section); at exit
    the alarm is turned off before the interpreter puts SIGALRM's default action back. Before, a
    certify process could die by SIGALRM (exit -14) at its very end. Shown to fail without the
    exit handler (gamecode._disarm): the process ends by SIGALRM."""
    out = subprocess.run(
        [sys.executable, "-c", ALARM_AT_EXIT],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert (out.returncode, out.stdout) == (0, "done\n"), (out.returncode, out.stderr[-2000:])
