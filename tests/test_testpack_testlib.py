"""A package's check.cpp and validator.cpp as testlib's (issue 46): the same file built through a
real testlib.h and through gamecert's own reader behaves as testlib says.

What is checked:
- without testlib.h (gamecert's reader, ``-DGAMECERT_NO_TESTLIB``): testlib's command line
  (``--testset``/``--group`` taken, a result file written, ``-appes`` XML with testlib's outcome
  names), its exit codes (a missing or an extra token PE), the message on standard output as well
  (DMOJ reads it there), and the Kattis/DOMjudge convention (``check INPUT ANSWER FEEDBACK_DIR <
  OUTPUT``: exit 42 or 43, ``judgemessage.txt``);
- through a real testlib.h (the folder named by ``GAMECERT_TESTLIB``, e.g. a checkout of
  github.com/MikeMirzayanov/testlib outside the project; skipped, saying so, where it is not
  set): the same command lines give the same exit codes and result files as gamecert's reader,
  and the validator and checker agree with gamecert's judgement on the battery of
  :func:`gamecert.engine.testpack.cpp.disagreements`; control: a checker whose game judge accepts
  anything, built through the same testlib.h, is caught by that battery;
- through the testlib.h p2d ships (DOMjudge's flavour of testlib, in the PyPI package p2d, a test
  dependency: so this part runs wherever the test extra is installed): Kattis' and DOMjudge's
  ``check INPUT ANSWER FEEDBACK_DIR < OUTPUT`` gives 42 on the accepted outputs and 43 on every
  other (that convention has no PE), with the judge's message in ``judgemessage.txt``, exactly as
  gamecert's reader does in that mode; control: the checker with its game judge accepting
  anything, built through the same testlib.h, accepts a wrong cut.

testlib.h is not on any package registry and is not copied into the project.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.testpack import cpp

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
TESTLIB = Path(os.environ.get("GAMECERT_TESTLIB", "/nonexistent"))
needs_testlib = pytest.mark.skipif(
    not (TESTLIB / "testlib.h").is_file(),
    reason="no testlib.h: set GAMECERT_TESTLIB to a folder holding one (github.com/MikeMirzayanov/testlib)",
)


def _p2d_testlib() -> Path | None:
    """The folder of the testlib.h that the installed p2d ships, or None."""
    spec = importlib.util.find_spec("p2d")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "testlib"
    return folder if (folder / "testlib.h").is_file() else None


P2D_TESTLIB = _p2d_testlib()
needs_p2d_testlib = pytest.mark.skipif(
    P2D_TESTLIB is None,
    reason="p2d is not installed (pip install -e '.[test]'): the testlib.h it ships is used here",
)

#: string_cut "ab": First wins by cutting at 1
INPUT, RIGHT = "ab\n", "First 1\n"


def _files(tmp_path: Path, output: str) -> list[str]:
    paths = []
    for name, text in (("in", INPUT), ("out", output), ("ans", RIGHT)):
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    return paths


def _checker(testlib: Path | None) -> Path:
    return cpp.Judge.of(registry.get("string_cut"), testlib=testlib).checker


def _run(exe: Path, args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(exe), *args], input=stdin, capture_output=True, text=True, timeout=60
    )


#: (output, exit code testlib gives)
CASES = [
    (RIGHT, 0),
    ("  First\r\n1 \n\n", 0),
    ("First 2\n", 1),  # cut 2 is not the smallest winning cut
    ("Second\n", 1),
    ("First\n", 2),  # a missing token: testlib's "unexpected end of file"
    ("First 1 1\n", 2),  # an extra token: testlib's "extra information"
    ("", 2),
    ("First 01\n", 2),  # not written plainly
    ("first 1\n", 1),
]


def _behaviour(exe: Path, tmp_path: Path) -> list[tuple[int, int, str, str]]:
    """Each case through testlib's command lines: (code, code with --testset/--group, code with a
    result file, the -appes result file)."""
    out = []
    for output, _ in CASES:
        inp, outp, ans = _files(tmp_path, output)
        plain = _run(exe, [inp, outp, ans]).returncode
        grouped = _run(exe, ["--testset", "tests", "--group", "samples", inp, outp, ans]).returncode
        result = tmp_path / "result.txt"
        with_file = _run(exe, [inp, outp, ans, str(result)]).returncode
        xml = tmp_path / "result.xml"
        _run(exe, [inp, outp, ans, str(xml), "-appes"])
        outcome = xml.read_text().split('outcome = "')[1].split('"')[0]
        out.append((plain, grouped, with_file, outcome))
    return out


@needs_gxx
def test_testlib_conventions_without_testlib_h(tmp_path):
    exe = _checker(None)
    got = _behaviour(exe, tmp_path)
    names = {0: "accepted", 1: "wrong-answer", 2: "presentation-error"}
    assert got == [(code, code, code, names[code]) for _, code in CASES], got
    inp, outp, ans = _files(tmp_path, "First 1 1\n")
    done = _run(exe, [inp, outp, ans])
    assert done.stdout.startswith("wrong output format ") and done.stderr == done.stdout
    result = tmp_path / "r"
    done = _run(exe, [inp, outp, ans, str(result)])
    assert "Extra information" in result.read_text() and done.stderr == ""
    xml = tmp_path / "x"
    _run(exe, [inp, outp, ans, str(xml), "-appes"])
    assert xml.read_text().startswith(
        '<?xml version="1.0" encoding="windows-1251"?><result outcome = "presentation-error">'
    )
    # Kattis and DOMjudge: check INPUT ANSWER FEEDBACK_DIR < OUTPUT, 42 accepted, 43 rejected
    feedback = tmp_path / "feedback"
    feedback.mkdir()
    assert _run(exe, [inp, ans, str(feedback)], RIGHT).returncode == 42
    assert _run(exe, [inp, ans, str(feedback)], "First 2\n").returncode == 43
    assert "smallest winning cut" in (feedback / "judgemessage.txt").read_text()
    assert _run(exe, [inp, ans, str(feedback)], "First\n").returncode == 43
    # a bad answer file is the package's fault (FAIL), and a usage error too
    (tmp_path / "ans").write_text("Third\n")
    assert _run(exe, [inp, outp, ans]).returncode == 3
    assert _run(exe, [inp, outp]).returncode == 3


@needs_gxx
def test_validator_takes_testlib_arguments(tmp_path):
    validator = cpp.Judge.of(registry.get("string_cut")).validator
    for args in ([], ["--testset", "tests", "--group", "g1"]):
        ok = subprocess.run([str(validator), *args], input=b"ab\n", capture_output=True)
        bad = subprocess.run([str(validator), *args], input=b"ab \n", capture_output=True)
        assert ok.returncode == 0 and bad.returncode == 3, (ok, bad)
        assert b"line 1, column 3" in bad.stderr


@needs_gxx
@needs_testlib
def test_testlib_h_and_gamecert_reader_behave_alike(tmp_path):
    """The same check.cpp built through the real testlib.h: the same exit codes on the same
    command lines, the same outcomes in the -appes file."""
    own = _behaviour(_checker(None), tmp_path)
    real = _behaviour(_checker(TESTLIB), tmp_path)
    assert real == own, list(zip(CASES, real, own))


@needs_gxx
@needs_testlib
@pytest.mark.slow
def test_through_testlib_h_agrees_with_gamecert():
    """word_game's validator and checker through the real testlib.h agree with gamecert's
    judgement on the battery; control: a checker whose judge accepts anything is caught."""
    entry = registry.get("word_game")
    judge = cpp.Judge.of(entry, testlib=TESTLIB)
    inputs = cpp.small_inputs(entry, 2)
    seen, bad = cpp.disagreements(entry, judge, inputs)
    assert seen > 150 and not bad, bad[:5]
    lax = cpp.source("checker", cpp.game_part(entry)).replace(
        'if (!why.empty()) quitf(_wa, "%s", why.c_str());', ""
    )
    assert lax != cpp.source("checker", cpp.game_part(entry))
    broken = cpp.Judge(judge.validator, cpp.build(lax, "check", cpp.testlib_flags(TESTLIB)))
    _, bad = cpp.disagreements(entry, broken, inputs, stop_at_first=True)
    assert bad


def _kattis(exe: Path, tmp_path: Path) -> list[tuple[int, str]]:
    """Each case through Kattis' and DOMjudge's convention: (exit code, judgemessage.txt)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = []
    for k, (output, _) in enumerate(CASES):
        inp, _, ans = _files(tmp_path, output)
        feedback = tmp_path / f"feedback{k}"
        feedback.mkdir()
        code = _run(exe, [inp, ans, str(feedback)], output).returncode
        message = feedback / "judgemessage.txt"
        out.append((code, message.read_text() if message.is_file() else ""))
    return out


@needs_gxx
@needs_p2d_testlib
@pytest.mark.long  # three builds through testlib.h: ~27 s of CPU
def test_through_p2ds_testlib_h_as_domjudge_runs_it(tmp_path):
    assert P2D_TESTLIB is not None
    real = _kattis(_checker(P2D_TESTLIB), tmp_path / "real")
    own = _kattis(_checker(None), tmp_path / "own")
    expected = [42 if code == 0 else 43 for _, code in CASES]
    assert [code for code, _ in real] == expected, list(zip(CASES, real))
    assert [code for code, _ in own] == expected, list(zip(CASES, own))
    for (code, message), (_, mine) in zip(real, own):
        if code == 43:  # the reason, in either reader's words
            assert message.strip() and mine.strip(), (message, mine)
    assert "smallest winning cut" in real[2][1] and "smallest winning cut" in own[2][1]
    # control: the game's judge accepting anything, through the same testlib.h
    entry = registry.get("string_cut")
    lax = cpp.source("checker", cpp.game_part(entry)).replace(
        'if (!why.empty()) quitf(_wa, "%s", why.c_str());', ""
    )
    assert lax != cpp.source("checker", cpp.game_part(entry))
    broken = cpp.build(lax, "check", cpp.testlib_flags(P2D_TESTLIB))
    got = _kattis(broken, tmp_path / "lax")
    assert got[2][0] == 42  # "First 2" (not the smallest winning cut) accepted: caught
