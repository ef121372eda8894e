"""A test package as a judge loads it (issue 39): the C++ validator and checker, problem.xml, and
kills that hold.

What is checked:
- the package's ``validator.cpp`` and ``check.cpp`` (built with g++ from the shared reader and the
  game's C++ part) agree with gamecert's own judgement: the validator accepts exactly the texts
  the game's parser accepts *and* that are written as the format says (testlib's strict reading:
  ``abc`` with no final newline, ``ABC\\r\\n``, a double space, a trailing space refused, with the
  line and column); the checker's exit code is gamecert's verdict (``verdict_of``: the reader,
  then the game's judge) on a battery of outputs (right ones, other winning moves where the game
  allows several, wrong words, missing and extra tokens, PE integers). word_game by default; every
  registered game in the long run;
- controls: a validator that forgets the end of file or takes CRLF, and a checker whose judge
  accepts anything, are each caught by the same battery;
- ``problem.xml`` read back against Polygon's documented structure (limits, test count, tests
  and answers present, samples marked, a testlib checker, a validator), and refused when broken;
- a TLE kill holds only at twice the limit: a right program burning 1.3x the limit is ``slow``
  (no kill), 2.6x is ``TLE 2.6x``, past 3x ``TLE >3x``; with the margin taken out, the 1.3x run
  would count (control).
"""

from __future__ import annotations

import copy
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from gamecert.engine import registry
from gamecert.engine.testpack import cpp, margins, polygon
from gamecert.engine.testpack import testset as ts

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("word_game", "string_cut", "digit_game", "stones_once", "dawson_kayles")
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


def _broken_validator(part: str) -> str:
    """The game's part with its final ``in.eof();`` taken out: trailing data accepted."""
    head, sep, tail = part.rpartition("in.eof();")
    assert sep, "the game's part reads the end of file"
    return head + tail


def _lax_checker(entry) -> cpp.Judge:
    """A checker that never calls the game's judge a WA (any readable output is OK)."""
    part = cpp.game_part(entry)
    text = cpp.source("checker", part).replace(
        'if (!why.empty()) quitf(_wa, "%s", why.c_str());', ""
    )
    good = cpp.Judge.of(entry)
    return cpp.Judge(good.validator, cpp.build(text, "check"))


def _crlf_validator(entry) -> cpp.Judge:
    """A validator whose end of line also takes CR LF (a Windows-style reader)."""
    text = cpp.source("validator", cpp.game_part(entry)).replace(
        "void eoln() { s.readEoln(); }",
        "void eoln() {\n        if (s.peek() == '\\r') s.advance();\n        s.readEoln();\n    }",
    )
    good = cpp.Judge.of(entry)
    return cpp.Judge(cpp.build(text, "validator"), good.checker)


@needs_gxx
@pytest.mark.slow
def test_word_game_cpp_agrees_with_gamecert():
    """word_game: the C++ validator and checker give gamecert's judgement on the samples and the
    first inputs of each exhaustive space, each with its broken variants and its output battery;
    the issue's two texts are refused with the line and column of the fault."""
    entry = registry.get("word_game")
    judge = cpp.Judge.of(entry)
    seen, bad = cpp.disagreements(entry, judge, cpp.small_inputs(entry, 3))
    assert seen > 150 and not bad, bad[:5]
    assert "line 1, column 4" in judge.validate("ABC") and "end of line" in judge.validate("ABC")
    assert "line 1, column 4" in judge.validate("ABC\r\n") and "carriage return" in judge.validate(
        "ABC\r\n"
    )
    assert judge.validate("ABC\n") == ""
    assert (
        judge.check("AB\n", "  Bob \r\n", "Bob\n")[0] == 0
        and judge.check("AB\n", "bob\n", "Bob\n")[0] == 1
    )
    assert (
        judge.check("AB\n", "Bob\n", "Carol\n")[0] == 3
    )  # a bad answer file is the package's fault


@needs_gxx
@pytest.mark.slow
def test_word_game_controls_are_caught():
    """Controls: a validator without the end-of-file check, one taking CRLF, and a checker that
    accepts any readable output each disagree with gamecert on the same battery."""
    entry = registry.get("word_game")
    inputs = cpp.small_inputs(entry, 1)
    no_eof = cpp.Judge(
        cpp.build(cpp.source("validator", _broken_validator(cpp.game_part(entry))), "validator"),
        cpp.Judge.of(entry).checker,
    )
    for broken in (no_eof, _crlf_validator(entry), _lax_checker(entry)):
        _, bad = cpp.disagreements(entry, broken, inputs, stop_at_first=True)
        assert bad


def _polygon_package(tmp_path: Path, name: str = "word_game") -> Path:
    entry = registry.get(name)
    tests = ts.build_pool(entry, 1, 2)[:6]
    ts.expected_texts(entry, tests)
    out = tmp_path / "pkg"
    polygon.write_tests(out, tests)
    polygon.write_files(out, entry, entry.game.standalone_code, "polygon", tests)
    return out


def test_problem_xml_read_as_polygon_documents_it(tmp_path):
    """problem.xml of a Polygon package: limits in ms and bytes, the tests by their file names,
    the samples marked, the checker, validator and model solution sources present; a broken
    problem.xml (a wrong test count, a missing answer file, a checker of another type, a missing
    validator) is refused naming the fault."""
    out = _polygon_package(tmp_path)
    game = registry.get("word_game").game
    got = polygon.read_problem_xml(out)
    assert got["time_ms"] == 2000 and got["memory_bytes"] == game.memory_limit_mb << 20
    assert got["tests"] == [f"tests/{k:02d}" for k in range(1, 7)] and got["samples"] == [1, 2]
    assert got["checker"] == "files/check.cpp" and got["validators"] == ["files/validator.cpp"]
    assert got["solutions"] == {"main": "solutions/model.py"}
    text = (out / "problem.xml").read_text()
    for broken, fault in (
        (text.replace("<test-count>6<", "<test-count>7<"), "test-count"),
        (text.replace('type="testlib"', 'type="exe"'), "testlib"),
        (text.replace("files/validator.cpp", "files/nothing.cpp"), "not in the package"),
    ):
        (out / "problem.xml").write_text(broken)
        with pytest.raises(ts.PackageError, match=fault):
            polygon.read_problem_xml(out)
    (out / "problem.xml").write_text(text)
    (out / "check.cpp").unlink()  # Polygon's <copy path="check.cpp"/> must name a file (issue 46)
    with pytest.raises(ts.PackageError, match="copy"):
        polygon.read_problem_xml(out)
    (out / "check.cpp").write_text((out / "files" / "check.cpp").read_text())
    (out / "tests" / "03.a").unlink()
    with pytest.raises(ts.PackageError, match="03.a"):
        polygon.read_problem_xml(out)


#: a right word_game program (examples/word_game/correct.py follows it) that first burns CPU
#: time in proportion to the word's length
BURNER = """import io, sys, time
data = sys.stdin.read()
end = time.process_time() + 0.025 * len(data.strip())
while time.process_time() < end:
    pass
sys.stdin = io.StringIO(data)
"""


@pytest.mark.slow
def test_tle_kills_need_a_2x_margin(tmp_path):
    """A wrong program run under 3x a 0.25 s limit: about 0.33 s of CPU (1.3x) is 'slow', not a
    kill; about 0.55 s (2.2x) is a TLE kill with its margin; past 0.75 s (3x) 'TLE >3x'. Control:
    with the margin taken out, the 1.3x run would count as a kill."""
    entry = registry.get("word_game")
    game = copy.copy(entry.game)
    game.time_limit = 0.25
    fake = SimpleNamespace(name=entry.name, game=game, solvers=entry.solvers)
    program = tmp_path / "burner.py"
    program.write_text(BURNER + (ROOT / "examples" / "word_game" / "correct.py").read_text())
    tests = [ts.Test(w, w + "\n", "t", "t") for w in ("A" * 13, "A" * 22, "A" * 40)]
    answers = ts.expected_texts(entry, tests)
    prog = ts.Program("burner", str(program), "user")
    try:
        rows, _ = ts.runs_matrix(fake, [prog], tests, answers, cache_runs=False, tle_cap=5)
    finally:
        ts.close_runners()
    row = rows["burner"]
    assert row[0].startswith("slow 1.") and not ts.is_kill(row[0]), row
    assert row[1].startswith("TLE 2.") and ts.is_kill(row[1]), row
    assert row[2] == "TLE >3x", row
    cpu = float(row[0].split()[1].rstrip("x")) * 0.25
    assert margins.timed("OK", "", cpu, 0.25)[0].startswith("slow")
    original = margins.TLE_MARGIN
    try:
        margins.TLE_MARGIN = 1.0  # the control: no margin asked
        assert ts.is_kill(margins.timed("OK", "", cpu, 0.25)[0])
    finally:
        margins.TLE_MARGIN = original


# ---- long: every registered game ----------------------------------------------------------------


@needs_gxx
@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_every_game_cpp_agrees_with_gamecert(name):
    """Every game: the C++ validator and checker agree with gamecert on the samples, the first
    inputs of each exhaustive space, the largest input and the first input of each designed
    family under 100 KB (each with its broken variants and output battery); for a game accepting any winning move,
    the battery holds right outputs other than the answer file's."""
    entry = registry.get(name)
    judge = cpp.Judge.of(entry)
    pool = [t.text for t in ts.build_pool(entry, 1, 1)]
    small = cpp.small_inputs(
        entry, 4 if name == "dawson_kayles" else 8
    )  # dawson_kayles: ~250 outputs an input
    seen, bad = cpp.disagreements(entry, judge, small)
    rest = sorted((t for t in pool if t not in small), key=len)
    big = [t for t in rest if len(t) < 100_000] + rest[
        -1:
    ]  # the largest input, and the others under 100 KB
    big_seen, big_bad = cpp.disagreements(
        entry, judge, big, outputs_per_input=30, broken_per_input=30
    )
    assert seen + big_seen > 500 and not bad + big_bad, (bad + big_bad)[:5]
    if name == "dawson_kayles":  # another winning move than the answer file's is accepted
        game = entry.game
        text = "2\n5 8\n"
        inst = game.parse_input(text)
        answer = game.format_answer(game.oracle(inst))
        others = [
            o
            for o in cpp.answer_variants(answer)
            if o.split() != answer.split() and judge.check(text, o, answer)[0] == 0
        ]
        assert others, "no other winning move accepted"


@needs_gxx
@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_every_game_controls_are_caught(name):
    """Every game: a validator without its end-of-file check, one taking CRLF, and a checker
    that accepts any readable output are each caught by the battery."""
    entry = registry.get(name)
    inputs = cpp.small_inputs(entry, 3)
    no_eof = cpp.Judge(
        cpp.build(cpp.source("validator", _broken_validator(cpp.game_part(entry))), "validator"),
        cpp.Judge.of(entry).checker,
    )
    for broken in (no_eof, _crlf_validator(entry), _lax_checker(entry)):
        _, bad = cpp.disagreements(entry, broken, inputs, stop_at_first=True)
        assert bad


@needs_gxx
@pytest.mark.long
def test_doall_builds_validates_and_checks(tmp_path):
    """A Polygon package's doall.sh, run as a judge's preparation would (g++ and python3 only):
    every test valid, the model solution's output accepted on each; and it fails on a test made
    invalid by hand (control)."""
    out = _polygon_package(tmp_path, "digit_game")
    run = subprocess.run(["sh", str(out / "doall.sh")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "every test valid" in run.stdout, run.stdout + run.stderr
    (out / "tests" / "02").write_text((out / "tests" / "02").read_text() + " \n")
    run = subprocess.run(["sh", str(out / "doall.sh")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and "validator rejects tests/02" in run.stdout
    assert not [p for p in out.rglob("*") if "build" in p.name]  # nothing left in the package


def _python_validator_disagreements(
    name: str, tmp_path: Path, main: str | None = None
) -> tuple[int, list[str]]:
    from gamecert.engine.testpack import testpack as tp
    from gamecert.kit import standalone

    entry = registry.get(name)
    path = tmp_path / f"validator-{name}.py"
    text = standalone.program("validator", name, entry.game.standalone_code)
    if main is not None:
        text = text.replace(standalone.VALIDATOR_MAIN, main)
    path.write_text(text)
    validate = tp._load(path, "validate")
    seen, bad = 0, []
    for good in cpp.small_inputs(entry, 4):
        for case in [good, *cpp.broken_inputs(good)]:
            seen += 1
            if bool(validate(case)) != bool(cpp.strict_fault(entry.game, case)):
                bad.append(repr(case[:40]))
    return seen, bad


@pytest.mark.parametrize("name", ["word_game", "dawson_kayles"])
def test_python_validator_is_strict_too(name, tmp_path):
    """The package's validator.py (plain layout, or where no g++ is) refuses what the C++ one
    refuses: no final end of line, a carriage return (the issue's `abc` and `abc\\r\\n`). Control:
    the validator as it was (the game's parser alone) accepts both, and the battery says so."""
    from gamecert.kit import standalone

    seen, bad = _python_validator_disagreements(name, tmp_path)
    assert seen > 100 and not bad, bad[:5]
    lenient = (
        standalone.VALIDATOR_MAIN.split('    if "\\r" in text:')[0]
        + '    return ""\n'
        + (standalone.VALIDATOR_MAIN.split('    return ""\n', 2)[-1])
    )
    assert "carriage" not in lenient
    _, bad = _python_validator_disagreements(name, tmp_path, lenient)
    assert bad
