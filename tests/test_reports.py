"""Reports and certificates: the files, their atomic publication, and golden Markdown.

The golden files in ``tests/golden/`` pin what a person reads; after an intended change of
wording, regenerate them with ``GAMECERT_REGEN_GOLDEN=1 pytest tests/test_reports.py`` and
review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gamecert.engine.report import report_files, reports
from gamecert.engine.report.reports import Certificate, FailureReport, SpaceEvidence
from gamecert.errors import UsageError

GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN = os.environ.get("GAMECERT_REGEN_GOLDEN") == "1"

REPORT = FailureReport(
    game="word_game",
    candidate="wrong",
    candidate_spec="/src/examples/word_game/wrong.py",
    verdict="WA",
    verdict_meaning="wrong answer",
    input="AAA\n",
    expected="Alice\n",
    got="Bob\n",
    reason="expected 'Alice', got 'Bob'",
    seed=7,
    profile="quick",
    phase="exhaustive",
    size=3,
    explanation="**Outcome:** Alice wins (xor 3 != 0)",
    created="20240506-070809-123",
    minimality="found by the exhaustive sweep in increasing size",
    exit_code=0,
    wall_s=0.01,
    cpu_s=0.009,
    max_rss_mb=9.0,
    tests_run=5,
    notes=(
        "expected answer from the oracle",
        "processes, CPU and memory: counted by the supervisor (pids.max 67)",
    ),
    containment="contained (bubblewrap 0.11.0): own namespaces; accounting: counted by the supervisor",
    fault="the winner: expected Alice, got Bob",
    reproduce="python3 /src/examples/word_game/wrong.py < input.in",
)

CERT = Certificate(
    game="word_game",
    candidate="right",
    candidate_spec="/src/right.py",
    seed=7,
    profile="default",
    samples=2,
    exhaustive=(SpaceEvidence("letter-count multisets", "every multiset", 20, 2713, False),),
    random_examples=200,
    largest_sizes=(40, 40),
    tests=2917,
    runs=2917,
    elapsed_s=29.17,
    slowest_s=0.03,
    slowest_what="exhaustive, size 17",
    time_limit_s=1.0,
    memory_limit_mb=256,
    created="20240506-070809-123",
    left_out=("exhaustive (letter-count multisets up to size 20 of 40)",),
    incomplete="left out: exhaustive (letter-count multisets up to size 20 of 40); a budget of about 94 s would "
    "complete it (--budget 94), at this run's speed",
)


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGEN:
        path.write_text(text)
        pytest.fail(
            f"{name} regenerated: review the diff, then run again without GAMECERT_REGEN_GOLDEN"
        )
    assert path.exists(), f"missing golden file {path}; run with GAMECERT_REGEN_GOLDEN=1"
    assert text == path.read_text(), (
        f"{name} changed; if intended, regenerate with GAMECERT_REGEN_GOLDEN=1"
    )


def test_report_markdown_matches_golden():
    _golden("report.md", REPORT.describe("reports/word_game/wrong-20240506-070809-123"))


def test_certificate_markdown_matches_golden():
    _golden("certificate.md", CERT.describe())


def test_interrupted_certificate_says_so():
    text = reports.Certificate(**{**CERT.__dict__, "interrupted": True}).describe()
    assert text.startswith("# INTERRUPTED")
    assert "CERTIFIED" not in text


def test_json_round_trips():
    """What report.json and certificate.json hold reads back to the same data."""
    assert FailureReport.from_json(json.loads(json.dumps(REPORT.to_json("x")))) == REPORT
    assert Certificate.from_json(json.loads(json.dumps(CERT.to_json()))) == CERT


def test_write_report_makes_the_four_files(tmp_path):
    path = report_files.write_report(REPORT, tmp_path)
    assert path == tmp_path / "word_game" / "wrong-20240506-070809-123"
    assert sorted(p.name for p in path.iterdir()) == sorted(reports.REPORT_FILES)
    data = json.loads((path / "report.json").read_text())
    assert data["replay"] == f"gamecert replay {path}"
    assert (path / "input.in").read_text() == "AAA\n"
    assert (path / "expected.ans").read_text() == "Alice\n"
    assert report_files.read_report(path) == REPORT


def test_same_name_twice_gets_a_suffix_and_the_right_replay_line(tmp_path):
    first = report_files.write_report(REPORT, tmp_path)
    second = report_files.write_report(REPORT, tmp_path)
    assert second == first.with_name(first.name + "-2")
    assert f"gamecert replay {second}" in (second / "report.md").read_text()
    assert json.loads((second / "report.json").read_text())["replay"] == f"gamecert replay {second}"


def test_a_failed_write_leaves_nothing_behind(tmp_path, monkeypatch):
    """A crash while the files are written (here: the third file) publishes no directory and
    leaves no temporary files: a report appears complete or not at all."""
    real = report_files.atomic_write_text
    calls = []

    def flaky(path, text):
        calls.append(path)
        if len(calls) == 3:
            raise OSError("disk full")
        real(path, text)

    monkeypatch.setattr(report_files, "atomic_write_text", flaky)
    with pytest.raises(OSError, match="disk full"):
        report_files.write_report(REPORT, tmp_path)
    assert list((tmp_path / "word_game").iterdir()) == []


def test_a_failed_file_write_keeps_the_old_file(tmp_path, monkeypatch):
    """atomic_write_text replaces a file in one step: on failure the old content stays whole."""
    target = tmp_path / "f.txt"
    report_files.atomic_write_text(target, "old\n")

    def boom(*args, **kwargs):
        raise OSError("no space")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        report_files.atomic_write_text(target, "new\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_read_report_explains_what_is_wrong(tmp_path):
    with pytest.raises(UsageError, match="no report.json"):
        report_files.read_report(tmp_path)
    cert_dir = report_files.write_certificate(CERT, tmp_path)
    with pytest.raises(UsageError, match="certificate, not a failure report"):
        report_files.read_report(cert_dir)
    (tmp_path / "report.json").write_text("{not json")
    with pytest.raises(UsageError, match="cannot read"):
        report_files.read_report(tmp_path)


def test_backticks_in_output_do_not_break_the_markdown():
    text = reports.FailureReport(**{**REPORT.__dict__, "got": "```\n"}).describe()
    assert "````text\n```\n````" in text


# ---- the fault at the game's level (issue 36) ---------------------------------------------------------------


def _fault(game: str, text: str, expected: str, got: str) -> str:
    from gamecert.engine import registry
    from gamecert.engine.judge.evidence import game_fault

    g = registry.get(game).game
    return game_fault(g, g.parse_input(text), expected, got)


@pytest.mark.parametrize(
    "game, text, expected, got, said",
    [
        ("string_cut", "a\n", "Second\n", "First\n2\n", "the winner: expected Second, got First"),
        (
            "string_cut",
            "abacaba\n",
            "First\n2\n",
            "Second\n",
            "the winner: expected First, got Second",
        ),
        ("word_game", "AAA\n", "Alice\n", "Bob\n", "the winner: expected Alice, got Bob"),
        ("stones_once", "1\n5\n", "NO\n", "YES\n", "the winner: expected NO, got YES"),
        (
            "digit_game",
            "2\n1\n2\n1\n3\n",
            "2\n1\n",
            "2\n2\n",
            "the winner of game 2 of 2: expected 1, got 2",
        ),
        # controls: a difference that is not the winner is named as a difference, the same answer as nothing
        (
            "string_cut",
            "abacaba\n",
            "First\n2\n",
            "First\n3\n",
            "the first token that differs, token 2 (the cut position after First): expected 2, got 3",
        ),
        (
            "word_game",
            "AAA\n",
            "Alice\n",
            "alice\n",
            "the first token that differs, token 1 (Alice or Bob): expected Alice, got alice",
        ),
        (
            "string_cut",
            "abcde\n",
            "Second\n",
            "Second\n5\n",
            "an extra token after the answer: token 2, 5",
        ),
        (
            "string_cut",
            "abacaba\n",
            "First\n2\n",
            "First\n",
            "the output ends before token 2 (the cut position after First): expected 2",
        ),
        ("string_cut", "abacaba\n", "First\n2\n", "First  2\r\n", ""),
    ],
)
def test_the_first_line_of_why_names_the_token_that_differs_and_what_it_means(
    game, text, expected, got, said
):
    """The game's level first: the first token that differs, called the winner only when it is
    one (the game says so, or its words decide who wins on the samples)."""
    assert _fault(game, text, expected, got) == said


def test_why_lines_put_the_game_first_and_say_a_reason_once():
    from gamecert.engine.judge.evidence import why_lines

    assert why_lines("the winner: expected Alice, got Bob", "expected 'Alice', got 'Bob'") == [
        "the winner: expected Alice, got Bob"
    ]
    assert why_lines(
        "the winner: expected Second, got First", "token 2 (x): 2 is outside 1..1"
    ) == ["the winner: expected Second, got First", "token 2 (x): 2 is outside 1..1"]
    assert why_lines("", "TLE: over") == ["TLE: over"]


def test_a_failing_sample_is_named_as_the_sample_it_is():
    """found_by: a samples-phase fault by its sample's number and text (and the size it was
    shrunk to); control: the same input found by another phase is named by the phase."""
    from gamecert.engine import registry
    from gamecert.engine.judge.evidence import found_by
    from gamecert.engine.judge.judge import Failure
    from gamecert.verdict import Verdict

    game = registry.get("string_cut").game
    shrunk = Failure(
        Verdict.WA,
        "aaaa",
        "aaaa\n",
        "First\n2\n",
        "Second\n",
        "x",
        "samples",
        4,
        found_input="abcde\n",
    )
    assert found_by(game, shrunk) == "sample 2 (`abcde`), shrunk to size 4"
    whole = Failure(Verdict.WA, "abcde", "abcde\n", "Second\n", "First\n2\n", "x", "samples", 5)
    assert found_by(game, whole) == "sample 2 (`abcde`)"
    other = Failure(Verdict.WA, "abcde", "abcde\n", "Second\n", "First\n2\n", "x", "exhaustive", 5)
    assert found_by(game, other) == "exhaustive"


def test_the_report_reads_top_down_with_how_it_ran_once_at_the_end():
    """report.md's sections in the issue's order; the containment and the runner's accounting once,
    after the evidence (control: the golden report holds both)."""
    md = REPORT.describe("x")
    order = [
        "**Verdict:**",
        "## Input",
        "## Expected",
        "## Got",
        "## Why",
        "## Reproduce",
        "## The game",
        "## Evidence",
        "## Notes",
        "## Replay",
        "## How it ran",
    ]
    at = [md.index(h) for h in order]
    assert at == sorted(at), list(zip(order, at))
    assert md.count("Containment") == 1 and md.count("counted by the supervisor") == 1, md
    assert md.index("**Containment:**") > md.index("## How it ran")
    assert "processes, CPU and memory" not in md.split("## Notes")[1].split("##")[0]


def test_an_incomplete_certificate_never_says_certified():
    """A certificate whose plan was not run to its end: PASSED (incomplete), its sentence first;
    the same evidence complete: CERTIFIED."""
    text = CERT.describe()
    assert text.startswith("# PASSED (incomplete)") and "CERTIFIED" not in text
    assert "- **Incomplete:** left out: exhaustive" in text
    whole = reports.Certificate(**{**CERT.__dict__, "left_out": (), "incomplete": ""})
    assert whole.verdict == "CERTIFIED" and whole.describe().startswith("# CERTIFIED")
    assert (
        CERT.to_json()["verdict"] == "PASSED (incomplete)"
        and whole.to_json()["verdict"] == "CERTIFIED"
    )


def test_the_brief_minimal_line_says_when_shrinking_was_cut() -> None:
    """The terminal's one-sentence minimal line, for a fault below which a family was swept but
    whose shrinking its budget stopped (seen: a TLE at 907 digits, smaller ones failing too), says
    that a smaller failing input may exist; with the shrinking finished (the control) it does not."""
    from types import SimpleNamespace

    from gamecert.engine.judge import evidence

    ev = SimpleNamespace(name="decides", up_to=906, inputs=10, complete=True)
    outcome = SimpleNamespace(
        plan=SimpleNamespace(spaces=[("decides", "", (1, 2, 3))], structured=())
    )
    original = evidence.space_evidence, evidence.structured_evidence
    evidence.space_evidence, evidence.structured_evidence = (lambda o: [ev]), (lambda o: [])
    try:
        cut = evidence.minimality_of(outcome, 907, (5, False), brief=True)
        whole = evidence.minimality_of(outcome, 907, (5, True), brief=True)
    finally:
        evidence.space_evidence, evidence.structured_evidence = original
    assert (
        cut.startswith("smallest in size: no input of size < 907")
        and "a smaller one may fail" in cut
    )
    assert "may fail" not in whole
