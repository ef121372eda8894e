"""The engine call alone certifies a candidate: no command line, no printing, the files written.

:func:`gamecert.engine.certification.certify` is what ``gamecert certify`` runs after parsing
its options; here it is called directly, with a tiny budget, and its result read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.certification import certify, options

ROOT = Path(__file__).resolve().parent.parent


def _options(tmp_path: Path, **extra):
    return options(
        registry.get("word_game"),
        profile="quick",
        seed=7,
        jobs=2,
        examples=0,
        exhaustive_runs=40,
        report_dir=str(tmp_path / "reports"),
        **extra,
    )


@pytest.mark.slow
def test_the_engine_certifies_a_right_program(tmp_path, capsys):
    said: list[str] = []
    result = certify(
        _options(tmp_path), str(ROOT / "examples/word_game/correct.py"), say=said.append
    )
    assert capsys.readouterr().out == ""  # the engine prints nothing: the front end does
    # 40 exhaustive runs: a partial plan, so nothing found is PASSED (incomplete), exit status 0
    assert result.verdict == "PASSED (incomplete)" and result.status == 0 and not result.interrupted
    assert result.tests > 0 and result.input == "" and result.size is None
    assert list(result.lines) == said and said[0].startswith("gamecert certify word_game ")
    assert (
        said[-1] == result.path
        and said[-2].startswith("summary: ")
        and "PASSED (incomplete)" in said[-2]
    )
    cert = json.loads((Path(result.path) / "certificate.json").read_text())
    assert cert["tests"] == result.tests and cert["seed"] == 7
    assert "lines" not in result.to_json()


def test_the_engine_finds_a_wrong_program_and_writes_its_report(tmp_path):
    result = certify(_options(tmp_path), str(ROOT / "tests/wrong/word_game/count7_three.py"))
    assert result.verdict == "WA" and result.status == 1
    folder = Path(result.path)
    assert sorted(p.name for p in folder.iterdir()) == [
        "expected.ans",
        "input.in",
        "report.json",
        "report.md",
    ]
    data = json.loads((folder / "report.json").read_text())
    assert data["verdict"] == "WA" and data["input"] == result.input and data["size"] == result.size
    assert (folder / "input.in").read_text() == result.input
    assert any(line.startswith("WA (wrong answer)") for line in result.lines)
