"""The guided phase's JavaScript route (issue 47): the source rewrite of
``gamecert/engine/run/instrument_js.py``, run with node outside the sandbox on small inputs, its
record read as the phase reads it.

The long tests (the wrong program ``tests/guided_wrong/word_game/anagram.js`` caught under the
default profile with seeds 1 and 2, and certified without the guided phase) are
``tests/test_guided.py``'s, which take every program in ``tests/guided_wrong/``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine.judge import guided
from gamecert.engine.run import instrument as inst
from gamecert.engine.run import instrument_js
from gamecert.engine.run.sandbox import Candidate

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")

ROOT = Path(__file__).resolve().parent.parent
WRONG = Path(__file__).resolve().parent / "guided_wrong"
TOUR = Path(__file__).resolve().parent / "guided_js" / "tour.js"


def _run(argv: list[str] | tuple[str, ...], text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        list(argv), input=text, capture_output=True, text=True, timeout=60, check=False
    )


def test_the_rewrite_records_branch_sides_and_comparison_operands(tmp_path, monkeypatch):
    """The rewritten anagram.js answers as the original and ends its stderr with the record: the
    sorted word compared with AADOPRX, both strings, and the sides its branches took; the evidence
    names a side never taken by its line. Controls: the original writes no record, and a rewrite
    that leaves comparisons alone records no operands."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = WRONG / "word_game" / "anagram.js"
    plain = Candidate.parse(str(program))
    built = inst.instrument(plain)
    assert built.language == "javascript" and built.candidate.argv[0] == plain.argv[0]
    for word in ("ZADACHA", "PARADOX"):
        original, rewritten = _run(plain.argv, word + "\n"), _run(built.candidate.argv, word + "\n")
        assert rewritten.stdout == original.stdout and rewritten.returncode == 0
    cov = inst.read_coverage(_run(built.candidate.argv, "ZADACHA\n").stderr, "javascript")
    assert cov is not None and not cov.malformed
    assert ("s", "AAACDHZ", "AADOPRX") in cov.cmps
    line = next(
        n for n, s in enumerate(program.read_text().splitlines(), 1) if "AADOPRX" in s and "if" in s
    )
    assert {(site.line, site.what) for key, site in built.sites.items() if key in cov.sites} >= {
        (line, "if false side")
    }
    ev = guided.evidence(built, set(cov.sites), 1)[0]
    assert ev.startswith("guided phase (javascript, measured on its 1 runs): branch sides taken")
    assert f'line {line} `if (letters === "AADOPRX") alice = !alice;` true side' in ev
    assert inst.read_coverage(_run(plain.argv, "ZADACHA\n").stderr, "javascript") is None
    monkeypatch.setattr(instrument_js.Rewriter, "_compare", lambda self, node, depth: None)
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "other"))
    bare = inst.instrument(plain)
    cov = inst.read_coverage(_run(bare.candidate.argv, "ZADACHA\n").stderr, "javascript")
    assert cov is not None and not [c for c in cov.cmps if c[0] == "s" and "AADOPRX" in c]


def test_the_rewrite_keeps_what_the_program_does(tmp_path, monkeypatch):
    """tests/guided_js/tour.js holds every construct the rewrite touches (conditions of if,
    while, do, for, nested conditional expressions, comparisons inside conditions, arrow
    functions, templates and class bodies, a switch with fall-through and a default, string
    methods, BigInt) and ones it must leave alone (``in``, ``instanceof``, ``#x in``, ``?.``,
    a regular expression holding ``<``, statements without semicolons, a ``#!`` line and
    ``"use strict"``): the rewritten program prints what the original prints on each input, and
    the evidence of a switch names its cases. Control: the record is there, with the operands of
    ``includes`` (``AB`` and the word) and of the switch (the length against each case)."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    plain = Candidate.parse(str(TOUR))
    built = inst.instrument(plain)
    rewritten = Path(built.candidate.argv[1]).read_text()
    assert rewritten.startswith('#!/usr/bin/env node\n"use strict";;var __gc$=')
    assert len(rewritten.splitlines()) == len(TOUR.read_text().splitlines())
    reached: set = set()
    for word in ("ABCZ", "AB", "", "ABBA", "ZZZZZZ", "Q"):
        original, done = _run(plain.argv, word + "\n"), _run(built.candidate.argv, word + "\n")
        assert original.returncode == 0 and original.stdout.count(" ") > 5
        assert done.stdout == original.stdout and done.returncode == 0, word
        cov = inst.read_coverage(done.stderr, "javascript")
        assert cov is not None and not cov.malformed
        reached |= cov.sites
        if word == "ABCZ":
            assert ("s", "AB", "ABCZ") in cov.cmps and ("i", 4, 2) in cov.cmps
    whats = {built.sites[k].what for k in reached}
    assert {"case taken", "default taken", "do ... while true side", "for false side"} <= whats


def test_the_rewrite_reports_how_close_each_comparison_came(tmp_path, monkeypatch):
    """|a - b| per comparison site, the least over the run: a derived sum compared with 777 is
    771 away on piles 1, 2, 3 and 3 away on thirteen piles of 60 (the same site); a float
    operand gives a float distance. Control: a rewrite that leaves comparisons alone reports no
    distance."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = tmp_path / "sum.js"
    program.write_text(
        'const t = require("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean).map(Number);\n'
        "const piles = t.slice(1);\nconst sum = piles.reduce((a, b) => a + b, 0);\n"
        'console.log(sum === 777 ? "NO" : "YES", sum / 2 < 0.25);\n'
    )
    built = inst.instrument(Candidate.parse(str(program)))
    far = inst.read_coverage(_run(built.candidate.argv, "3\n1 2 3\n").stderr, "javascript")
    close = inst.read_coverage(
        _run(built.candidate.argv, "13\n" + "60 " * 13 + "\n").stderr, "javascript"
    )
    assert far is not None and close is not None
    site = next(s for s, d in far.near if d == 771)
    assert dict(close.near)[site] == 3 and ("i", 780, 777) in close.cmps
    assert 2.75 in dict(far.near).values()
    monkeypatch.setattr(instrument_js.Rewriter, "_compare", lambda self, node, depth: None)
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "other"))
    bare = inst.instrument(Candidate.parse(str(program)))
    cov = inst.read_coverage(_run(bare.candidate.argv, "3\n1 2 3\n").stderr, "javascript")
    assert cov is not None and cov.near == ()


def test_the_record_is_written_however_the_program_ends(tmp_path, monkeypatch):
    """``process.exit`` and an uncaught exception still write the record (node's exit event); a
    module (``import``) stays a module. Control: a program killed by a signal writes none."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = tmp_path / "ends.js"
    program.write_text(
        'import { readFileSync } from "fs";\nconst n = Number(readFileSync(0, "utf8"));\n'
        "if (n === 5) process.exit(3);\nif (n > 10) throw new Error('big');\n"
        "if (n === 7) process.kill(process.pid, 'SIGKILL');\n"
        'console.log(n < 3 ? "small" : "mid");\n'
    )
    built = inst.instrument(Candidate.parse(str(program)))
    for text, rc in (("1", 0), ("5", 3), ("20", 1)):
        done = _run(built.candidate.argv, text)
        assert done.returncode == rc, done.stderr
        cov = inst.read_coverage(done.stderr, "javascript")
        assert cov is not None and (1, text == "5") in cov.sites
        assert text == "5" or ("i", int(text), 5) in cov.cmps  # equal operands are not recorded
    killed = _run(built.candidate.argv, "7")
    assert killed.returncode != 0 and inst.read_coverage(killed.stderr, "javascript") is None


def test_the_prologue_keeps_out_of_the_programs_way(tmp_path, monkeypatch):
    """A directive without its semicolon stays a directive (the program stays strict: an
    assignment to an undeclared name throws), and a program that uses the prologue's name has
    the prologue take another. Control: the program's own answers, unchanged."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = tmp_path / "strict.js"
    program.write_text(
        '"use strict"\nconst __gc$ = 1;\nlet caught = false;\n'
        "try { undeclared = 2; } catch (e) { caught = true; }\n"
        "console.log(__gc$ < 2, caught);\n"
    )
    built = inst.instrument(Candidate.parse(str(program)))
    done = _run(built.candidate.argv, "")
    assert done.stdout == _run(Candidate.parse(str(program)).argv, "").stdout == "true true\n"
    assert "var __gc$1=" in Path(built.candidate.argv[1]).read_text()
    cov = inst.read_coverage(done.stderr, "javascript")
    assert cov is not None and ("i", 1, 2) in cov.cmps


def test_a_source_that_does_not_parse_is_told_why(tmp_path, monkeypatch):
    """A syntax error: no route, with the line; the certification runs the plain program as
    ever (its CE or RE is the plain judge's). A parser that gives up is no route too, never a
    traceback."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = tmp_path / "bad.js"
    program.write_text("const a = 1;\nif (a < ) {\n}\n")
    with pytest.raises(inst.NoRoute, match=r"does not parse as JavaScript \(line 2\)"):
        inst.instrument(Candidate.parse(str(program)))

    class Refuses:
        def parse(self, data: bytes) -> None:
            raise ValueError("made up")

    monkeypatch.setattr(instrument_js, "_parser", Refuses)
    with pytest.raises(inst.NoRoute, match="the JavaScript parser gave up on the source"):
        inst.instrument(Candidate.parse(str(WRONG / "word_game" / "anagram.js")))


def test_without_the_parser_there_is_no_route(tmp_path, monkeypatch):
    """Without tree-sitter's JavaScript grammar installed, the reason names what to install."""
    import builtins

    real = builtins.__import__

    def no_grammar(name, *args, **kwargs):
        if name == "tree_sitter_javascript":
            raise ImportError("no", name=name)
        return real(name, *args, **kwargs)

    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    monkeypatch.setattr(builtins, "__import__", no_grammar)
    with pytest.raises(inst.NoRoute, match="pip install tree-sitter tree-sitter-javascript"):
        inst.instrument(Candidate.parse(str(WRONG / "word_game" / "anagram.js")))


@pytest.mark.slow
def test_the_route_in_a_certification(tmp_path):
    """`certify --phases guided --budget 10` of a right JavaScript program, in the sandbox: the
    guided phase's note names the rewrite, and its evidence counts branch sides its runs took
    (records read from the box's runs). Control: the same program as a command line
    (``node FILE``) has no route, and the note says so. (The wrong program caught this way is
    tests/test_guided.py's long test: a catch needs the default budget's slice.)"""
    import re

    env = {**os.environ, "GAMECERT_CACHE": str(tmp_path / "cache")}
    program = ROOT / "tests" / "programs" / "javascript" / "word_game_right.js"

    def certify(spec: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-m", "gamecert", "certify", "word_game", spec, "--phases", "guided"]
            + ["--budget", "10", "--seed", "1", "--report-dir", str(tmp_path)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        folder = Path(done.stdout.strip().splitlines()[-1])
        return json.loads((folder / "certificate.json").read_text())["notes"]

    notes = "\n".join(certify(str(program)))
    assert "tree-sitter's JavaScript grammar" in notes
    taken = re.search(
        r"guided phase \(javascript, measured on its \d+ runs\): branch sides taken "
        r"(\d+) of (\d+)",
        notes,
    )
    assert taken is not None and 0 < int(taken[1]) <= int(taken[2]), notes
    notes = "\n".join(certify(f"{shutil.which('node')} {program}"))
    assert "the guided phase did not run: the candidate is a command line" in notes
    assert "guided phase (javascript" not in notes
