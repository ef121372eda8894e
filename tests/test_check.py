"""``gamecert check GAME FILE``: the claims-file format and the verdict on each claim.

The right answers these tests expect are facts of the games worked out by hand from the rules
(a letter counted 40 times has Grundy value 1 because the values repeat 1, 2, 3), not read from
the code under test.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.commands.check import check_claim, parse_claims
from gamecert.engine import registry
from gamecert.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent


def check(game: str, path: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamecert", "check", game, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_parse_blocks_names_comments_and_escapes():
    claims = parse_claims(
        "# a comment\n"
        "--- input first one\n"
        "AB\n"
        "\n"
        "--- answer\n"
        "Bob\n"
        "# a comment between claims\n"
        "\n"
        "--- input: escaped\n"
        "\\#not a comment\n"
        "\\\\x\n"
        "--- answer\n"
        "  Alice  \n"
    )
    assert [(c.number, c.name, c.line) for c in claims] == [(1, "first one", 2), (2, "escaped", 9)]
    assert claims[0].input == "AB\n" and claims[0].answer == "Bob\n"
    assert claims[1].input == "#not a comment\n\\x\n"
    assert claims[1].file_line(2) == 11


@pytest.mark.parametrize(
    "text,message",
    [
        ("AB\n", "line 1: text outside a claim"),
        ("--- answer\nBob\n", "line 1: '--- answer' without"),
        ("--- input\nAB\n", "has no '--- answer'"),
        ("--- input\nAB\n--- input\nA\n--- answer\nAlice\n", "line 3: the claim started on line 1"),
        ("--- input\nAB\n--- answers\nBob\n", "line 3: nothing may follow"),
        ("--- input\nAB\n--- expected\nBob\n", "line 3: unknown marker"),
        ("# only comments\n", "holds no claims"),
    ],
)
def test_format_errors_name_the_line(text, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(")):
        parse_claims(text)


def test_claim_results_hold_false_invalid_and_malformed():
    entry = registry.get("word_game")
    claims = parse_claims(
        "--- input\nAAA\n--- answer\nAlice\n"  # remove all three: Alice wins
        "--- input\n" + "A" * 40 + "\n--- answer\nBob\n"  # 40 = 3*13+1: value 1, Alice wins
        "--- input\nabc\n--- answer\nBob\n"  # lowercase: invalid
        "--- input\nAB\n--- answer\nbob\n"  # another word (case matters): a wrong answer
    )
    results = [check_claim(entry, c) for c in claims]
    assert [r.status for r in results] == ["holds", "false", "invalid", "false"]
    assert results[1].right_answer.split() == ["Alice"]
    assert "line 1, column 1" in results[2].detail and "uppercase" in results[2].detail
    assert "claimed answer is wrong" in results[3].detail and "case-sensitive" in results[3].detail
    assert results[3].right_answer.split() == ["Bob"]


def test_beyond_the_oracle_the_fast_solvers_answer():
    """string_cut of 201 letters is past the oracle's reach: the answer comes from the fast
    solvers, which agree. In 'abc' * 67 no letter has equal neighbours, so there is no cut at all
    and the first player loses."""
    entry = registry.get("string_cut")
    (claim,) = parse_claims("--- input\n" + "abc" * 67 + "\n--- answer\nFirst\n1\n")
    result = check_claim(entry, claim)
    assert result.status == "false"
    assert "fast solvers" in result.source
    assert result.right_answer.split() == ["Second"]


def test_check_command_on_the_word_game_editorial():
    """The seed editorial's test 'forty copies of A -> Bob' is false (the answer is Alice); the
    rest hold. Exit status 1 because one claim is false."""
    proc = check("word_game", ROOT / "examples/claims/word_game.txt")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    false = [line for line in proc.stdout.splitlines() if "FALSE" in line]
    assert len(false) == 1 and "maximum size multiple of three" in false[0]
    assert "right answer: 'Alice'" in proc.stdout
    assert (
        proc.stdout.strip().splitlines()[-1]
        == "word_game: 7 claims: 6 hold, 1 false, 0 with an invalid input"
    )


def test_check_command_reports_invalid_inputs_with_line_and_rule():
    """The digit_game editorial's '2\\n1\\n1\\n2\\n8' says n = 2 but gives one digit."""
    proc = check("digit_game", ROOT / "examples/claims/digit_game.txt")
    assert proc.returncode == 1
    line = next(line for line in proc.stdout.splitlines() if "single-digit edge cases" in line)
    assert "INVALID INPUT: line 5" in line and "n = 2 digits" in line


def test_all_claims_holding_exits_0(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(
        "--- input\nabacaba\n--- answer\nFirst\n2\n--- input\nabcde\n--- answer\nSecond\n"
    )
    proc = check("string_cut", path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 claims: 2 hold" in proc.stdout


def test_a_broken_claims_file_exits_2(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("ZADACHA\nAlice\n")
    proc = check("word_game", path)
    assert proc.returncode == 2
    assert "line 1: text outside a claim" in proc.stderr and "Traceback" not in proc.stderr
