"""A package as Kattis and DOMjudge load it (issue 46), judged by their own tools.

What is checked:
- ``--format kattis`` (problem.yaml, data/sample and data/secret, input_validators,
  output_validators, submissions/accepted): the layout read back, and Kattis' input-validator
  exit codes (42 valid, 43 invalid) and output-validator convention (``check INPUT ANSWER
  FEEDBACK_DIR < OUTPUT``: 42, 43) from the package's own files, built with g++;
- Kattis' ``verifyproblem`` (problemtools, from PyPI; skipped, saying so, where it is not on PATH)
  finds no error in the package of every game (parts config, data, submissions, validators: the
  statement part needs LaTeX); control: the same package with a checker that rejects every output
  gets errors (the accepted submission is judged through it);
- every game's Polygon package after ``p2d`` (PyPI) conversion (``--with-statement``): the
  checker, now built through p2d's own testlib.h, judges the model AC on every test; the tests,
  the model and the PDF statement are carried. As it comes, verifyproblem gives exactly two
  errors, each for a part p2d 0.4.0 never writes (its source: no input validator for any package;
  the statement only as problem.pdf, which the legacy Kattis format does not read as a
  statement); with those two parts added from the package itself, no error.

verifyproblem runs ``.py`` submissions with ``pypy3``; where pypy3 is not installed the test gives
it a language file (``XDG_CONFIG_HOME``) running them with python3 instead, as a judge machine's
own configuration would.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.testpack import cpp, kattis, outdir, polygon
from gamecert.engine.testpack import testset as ts

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
needs_verifyproblem = pytest.mark.skipif(
    shutil.which("verifyproblem") is None,
    reason="Kattis' verifyproblem is not on PATH (pip install problemtools)",
)
needs_p2d = pytest.mark.skipif(
    shutil.which("p2d") is None, reason="p2d is not on PATH (pip install p2d)"
)


def _package(where: Path, name: str, fmt: str) -> Path:
    entry = registry.get(name)
    pool = ts.build_pool(entry, 1, 2)
    samples = [t for t in pool if t.group == "samples"]
    tests = samples + [t for t in pool if t.group != "samples"][:6]
    ts.expected_texts(entry, tests)
    out = where / name.replace("_", "")
    polygon.write_tests(out, tests)
    polygon.write_files(out, entry, entry.game.standalone_code, fmt, tests)
    outdir.mark(out)  # as every build leaves it
    return out


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    if shutil.which("pypy3") is None:
        conf = tmp_path / "xdg" / "problemtools"
        conf.mkdir(parents=True)
        (conf / "languages.yaml").write_text(
            "python3:\n    compile: 'python3 -m py_compile {files}'\n    run: 'python3 \"{mainfile}\"'\n"
        )
        env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    return env


def _verify(package: Path, tmp_path: Path) -> tuple[list[str], str]:
    done = subprocess.run(
        ["verifyproblem", "-p", "config", "data", "submissions", "validators", "--", package.name],
        cwd=package.parent,
        capture_output=True,
        text=True,
        timeout=900,
        env=_env(tmp_path),
    )
    text = done.stdout + done.stderr
    return re.findall(r"^ERROR .*$", text, re.M), text


@needs_gxx
def test_kattis_layout_and_exit_codes(tmp_path):
    out = _package(tmp_path, "string_cut", "kattis")
    assert kattis.is_kattis(out) and not polygon.is_polygon(out)
    names = [p.name for p in out.rglob("*")]
    assert outdir.MARK in names and not [n for n in names if n.startswith(".")], names
    if importlib.util.find_spec("problemtools") is not None:  # the rule verifyproblem applies
        from problemtools.checks.problem_package import _NAME_REGEX

        assert all(_NAME_REGEX.match(n) for n in names)
        assert not _NAME_REGEX.match(outdir.OLD_MARK)  # control: the mark's older name
    assert "validation: custom" in (out / "problem.yaml").read_text()
    samples = sorted(p.name for p in (out / "data" / "sample").iterdir())
    assert samples == ["01.ans", "01.in", "02.ans", "02.in"]
    assert len(list((out / "data" / "secret").glob("*.in"))) == 6
    assert (out / "submissions" / "accepted" / "model.py").is_file()
    validator_src = (out / "input_validators" / "validator" / "validator.cpp").read_text()
    checker_src = (out / "output_validators" / "checker" / "check.cpp").read_text()
    assert checker_src == (out / "files" / "check.cpp").read_text()  # the same file everywhere
    validator = cpp.build(validator_src, "validator")
    checker = cpp.build(checker_src, "check")
    text = (out / "data" / "sample" / "01.in").read_text()
    assert subprocess.run([str(validator)], input=text.encode()).returncode == 42
    assert subprocess.run([str(validator)], input=text.encode() + b" ").returncode == 43
    feedback = tmp_path / "fb"
    feedback.mkdir()
    args = [
        str(checker),
        str(out / "data" / "sample" / "01.in"),
        str(out / "data" / "sample" / "01.ans"),
        str(feedback),
    ]
    right = (out / "data" / "sample" / "01.ans").read_bytes()
    assert subprocess.run(args, input=right).returncode == 42
    assert subprocess.run(args, input=b"First 999999\n").returncode == 43
    assert (feedback / "judgemessage.txt").read_text().strip()


GAMES = sorted(registry.game_names())


@needs_gxx
@needs_verifyproblem
@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_verifyproblem_accepts_the_kattis_package(name, tmp_path):
    out = _package(tmp_path, name, "kattis")
    errors, text = _verify(out, tmp_path)
    assert not errors and "tested: 0 errors" in text, text[-2000:]


@needs_gxx
@needs_verifyproblem
@pytest.mark.long
def test_control_verifyproblem_sees_a_checker_that_rejects_everything(tmp_path):
    out = _package(tmp_path, "string_cut", "kattis")
    check = out / "output_validators" / "checker" / "check.cpp"
    check.write_text(check.read_text().replace('quitf(_ok, "ok");', 'quitf(_wa, "control");'))
    errors, text = _verify(out, tmp_path)
    assert errors and "accepted/model.py" in text, text[-2000:]


#: what verifyproblem (legacy format) says of each part p2d 0.4.0 never writes (read in its
#: source: it copies the tests, the checker with its testlib.h, the solutions and, with
#: --with-statement, a PDF statement as problem_statement/problem.pdf; no input validator ever,
#: and the legacy format takes a statement only as problem_statement/problem[.LANG].tex)
P2D_GAPS = {
    "input_validators": "ERROR No input format validators found",
    "problem_statement/*.tex": "ERROR Names exist for languages without problem statements: en",
}


def _p2d(pkg: Path, code: str, where: Path) -> Path:
    converted = where / f"{code}.zip"
    where.mkdir(parents=True)
    done = subprocess.run(
        ["p2d", "--code", code, "-y", "--with-statement", "-o", str(converted), str(pkg)],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
    out = where / code
    with zipfile.ZipFile(converted) as z:
        z.extractall(out)
    return out


def _gaps(out: Path) -> set[str]:
    """The errors verifyproblem must give for the parts missing from a converted package."""
    missing = set()
    if not (out / "input_validators").is_dir():
        missing.add(P2D_GAPS["input_validators"])
    if not list((out / "problem_statement").glob("problem*.tex")):
        missing.add(P2D_GAPS["problem_statement/*.tex"])
    return missing


@needs_gxx
@needs_verifyproblem
@needs_p2d
@pytest.mark.long
def test_verifyproblem_after_p2d_names_only_p2ds_gaps(tmp_path):
    """The Polygon package of string_cut converted by p2d, as it comes: its checker, built through
    p2d's own testlib.h, judges the accepted submission AC on every test; verifyproblem's errors
    are exactly those of the parts p2d does not write (P2D_GAPS), each missing from its output."""
    pkg = _package(tmp_path / "polygon", "string_cut", "polygon")
    out = _p2d(pkg, "stringcut", tmp_path / "converted")
    assert _gaps(out) == set(P2D_GAPS.values())
    errors, text = _verify(out, tmp_path)
    assert "AC" in text and "accepted/model.py" in text
    assert set(errors) == _gaps(out), text[-2000:]


@needs_gxx
@needs_verifyproblem
@needs_p2d
@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_verifyproblem_accepts_each_game_after_p2d(name, tmp_path):
    """Every game's Polygon package after p2d: the checker (the root copy problem.xml names, built
    through p2d's testlib.h), the tests, the model solution and the PDF statement (byte for byte)
    are carried; with the two parts p2d never writes added from the package itself (its
    validator.cpp as Kattis' input validator, the game's text as problem.en.tex), verifyproblem
    finds no error: every test valid, the model AC on each through p2d's testlib.h."""
    pkg = _package(tmp_path / "polygon", name, "polygon")
    assert (pkg / "check.cpp").read_text() == (pkg / "files" / "check.cpp").read_text()
    assert (pkg / "statement-sections" / "english" / "legend.tex").is_file()
    code = name.replace("_", "")
    out = _p2d(pkg, code, tmp_path / "converted")
    checker = out / "output_validators" / "checker"
    assert (checker / "testlib.h").is_file()  # p2d's, for Kattis' convention
    assert (checker / "check.cpp").read_bytes() == (pkg / "check.cpp").read_bytes()
    pdf = out / "problem_statement" / "problem.pdf"
    assert pdf.read_bytes() == (pkg / polygon.PDF_STATEMENT).read_bytes()
    assert _gaps(out) == set(P2D_GAPS.values())
    validator = out / "input_validators" / "validator" / "validator.cpp"
    validator.parent.mkdir(parents=True)
    validator.write_text(kattis.KATTIS_DEFINE + (pkg / "files" / "validator.cpp").read_text())
    tex = out / "problem_statement" / "problem.en.tex"
    tex.write_text(kattis.statement(registry.get(name)))
    assert _gaps(out) == set()
    errors, text = _verify(out, tmp_path)
    assert not errors and "tested: 0 errors" in text, text[-2000:]
    assert re.search(r"model\.py\s+AC", text), text[-2000:]
