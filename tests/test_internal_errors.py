"""A fault of gamecert's own in a phase that runs beside the plan (the guided search, the
sanitizer phase, the diagnosis of a fault) is a note on the result, never a traceback that
takes the certification and what it found down. Each error is planted (monkeypatch) in an
in-process certification; the control runs the same certification without it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.certification import certify, options
from gamecert.engine.judge import diagnose, guided, guided_phase, sanitize_lanes

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"


def _planted(*_args: object, **_kwargs: object) -> None:
    raise ValueError("planted by the test")


def _notes(result: object) -> list[str]:
    name = "report.json" if result.status == 1 else "certificate.json"
    return json.loads((Path(result.path) / name).read_text())["notes"]


@pytest.mark.slow
def test_the_guided_search_failing_is_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A right Python program, samples and guided only: with the search broken the run still ends
    (exit 0), its guided line says it stopped, and a note names the error; the control has
    neither."""
    opts = options(
        registry.get("word_game"),
        budget=6,
        seed=1,
        jobs=1,
        phases="samples,guided",
        report_dir=str(tmp_path),
    )
    program = str(ROOT / "examples/word_game/correct.py")
    control = certify(opts, program)
    assert control.status == 0 and not any(
        n.startswith(guided_phase.STOPPED) for n in _notes(control)
    )
    monkeypatch.setattr(guided.Search, "search", _planted)
    broken = certify(opts, program)
    assert broken.status == 0, broken.lines
    assert any(
        n.startswith(guided_phase.STOPPED) and "planted by the test" in n for n in _notes(broken)
    )
    assert any(
        "guided" in line and "stopped on an internal error" in line for line in broken.lines
    ), broken.lines


@pytest.mark.slow
def test_the_diagnosis_failing_keeps_the_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong program with the diagnosis on: the diagnosis broken, the fault is still reported
    (exit 1, report.json with its input) with a note that the diagnosis stopped."""
    monkeypatch.setenv("GAMECERT_DIAGNOSE", "1")
    monkeypatch.setattr(diagnose, "diagnose_fault", _planted)
    opts = options(
        registry.get("word_game"),
        budget=6,
        seed=1,
        jobs=1,
        phases="samples",
        report_dir=str(tmp_path),
    )
    result = certify(opts, str(ROOT / "examples/word_game/wrong.py"))
    assert result.status == 1 and result.input, result.lines
    assert any(
        "the diagnosis stopped on an internal error" in n and "planted" in n for n in _notes(result)
    )


@pytest.mark.slow
def test_the_sanitizer_phase_failing_claims_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A right C program: with the sanitizer's search broken the run ends (exit 0) and says that
    no claim about undefined behaviour is made; the control says none was seen."""
    if shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    opts = options(
        registry.get("word_game"),
        budget=12,
        seed=1,
        jobs=1,
        phases="samples",
        report_dir=str(tmp_path),
    )
    program = str(
        PROGRAMS / "c" / "word_game_right.c"
    )  # (3 s of the budget for the sanitizer phase)
    control = certify(opts, program)
    assert control.status == 0 and any("no undefined behaviour seen" in n for n in _notes(control))
    monkeypatch.setattr(sanitize_lanes, "_search", _planted)  # (the phase's search, in its lanes)
    broken = certify(opts, program)
    assert broken.status == 0, broken.lines
    assert any("no claim about undefined behaviour is made" in n for n in _notes(broken)), _notes(
        broken
    )
