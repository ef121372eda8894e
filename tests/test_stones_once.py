"""stones_once checks the generic conformance suite does not make: its own validator rules, its
pile rules worked by hand, the normalisation of a pile's history, the claims' power to refute,
the 10**6-pile corner, and the example candidates doing what their docstrings say.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import gamecert.proofs.stones_once as proofs
import pytest
from gamecert.oracles.stones_once import GAME, pile_moves, state_grundy
from gamecert.strategies.stones_once import largest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecert.errors import InputError, WrongAnswerError
from gamecert.kit.claims import ClaimRefuted

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("text", "line", "rule"),
    [
        ("0\n", 1, "n must be between 1 and 1000000"),
        ("1000001\n", 1, "n must be between 1 and 1000000"),
        ("3\n1\n2\n", 4, "missing line: expected pile 3 of n = 3"),
        ("2\n1\n0\n", 3, "pile 2 of 2 must be between 1 and 60, got 0"),
        ("1\n61\n", 2, "must be between 1 and 60, got 61"),
        ("1\n07\n", 2, "without sign or leading zeros"),
        ("1\n+7\n", 2, "without sign or leading zeros"),
        ("2\n5\n\n", 3, "expected an integer, got an empty line"),
        ("2\n5 6\n", 2, "expected an integer without sign or leading zeros, got '5 6'"),
        ("1\n5\n6\n", 3, "trailing data"),
    ],
)
def test_validator_names_line_and_rule(text, line, rule):
    """Each broken constraint is reported on its own line with its own rule."""
    with pytest.raises(InputError) as info:
        GAME.parse_input(text)
    assert info.value.line == line
    assert rule in info.value.rule


def test_validator_accepts_windows_line_ends_and_no_final_newline():
    assert GAME.parse_input("2\r\n60\r\n1\r\n") == (60, 1)
    assert GAME.parse_input("1\n60") == (60,)


@pytest.mark.parametrize("text", ["yes\n", "No\n", "Jon\n", "YES NO\n", "1\n", "", "YES\u00a0\n"])
def test_wrong_words_are_wrong_answers(text):
    """Words are compared exactly, as wcmp compares them: another word, an extra or a missing one is WA."""
    with pytest.raises(WrongAnswerError):
        GAME.parse_answer(text, (1, 2))


def test_lowercase_answer_message_says_case_matters():
    with pytest.raises(WrongAnswerError, match="case-sensitive"):
        GAME.parse_answer("yes\n", (1, 2))


def test_pile_values_worked_by_hand():
    """Values derived on paper from the rules, one move at a time.

    (1, {1}): no legal amount left, so 0. (2, {1}): only 2 -> empty, so mex{0} = 1.
    (3, {1, 2}): only 3 -> empty, so 1. Fresh 3: 1 -> (2, {1}) = 1, 2 -> (1, {}) = 1, 3 -> 0,
    so mex{0, 1} = 2. Fresh 5: 1 -> (4, {1}) whose options (2, {1, 2}) and (1, {1}) are dead
    and 4 -> empty, so 1; 2 -> (3, {2}) likewise 1; 3 -> (2, {}) = 1; 4 -> (1, {}) = 1; 5 -> 0;
    so mex{0, 1} = 2.
    """
    assert state_grundy(1, frozenset({1})) == 0
    assert state_grundy(2, frozenset({1})) == 1
    assert state_grundy(3, frozenset({1, 2})) == 1
    assert state_grundy(4, frozenset({1})) == 1
    assert state_grundy(3, frozenset()) == 2
    assert state_grundy(5, frozenset()) == 2


def test_explanation_of_a_worked_position():
    """Piles 1, 2, 5 have values 1, 1, 2 (see above): xor 2, Sam wins, and the only move to a
    zero xor is emptying the pile of 5 (every other move leaves that pile worth 1, and the piles
    of 1 and 2 cannot reach value 3)."""
    e = GAME.explain((1, 2, 5))
    assert e.total == 2 and e.first_player_wins is True
    assert e.winning_moves == ("take 5 from a pile of 5",)
    assert e.line_of_play[0] == "Sam: take 5 from pile 3 (5 -> 0)"
    assert e.line_of_play[-1].endswith("loses") and e.line_of_play[-1].startswith("Jon")


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60), st.lists(st.integers(0, 10**6), max_size=12))
def test_dropping_large_used_amounts_changes_no_move(size, choices):
    """Keeping the whole history of a pile and keeping only the used amounts <= what is left
    allow exactly the same amounts at every step (the oracle's one normalisation)."""
    left, history, normal = size, set(), frozenset()
    for choice in choices:
        legal_full = [a for a in range(1, left + 1) if a not in history]
        legal_normal = [a for a, _, _ in pile_moves(left, normal)]
        assert legal_full == legal_normal
        if not legal_full:
            break
        amount = legal_full[choice % len(legal_full)]
        rest, after = next((r, t) for a, r, t in pile_moves(left, normal) if a == amount)
        history.add(amount)
        left = rest
        normal = after
        assert left == size - sum(history)


def test_the_claims_hold_and_can_fail(monkeypatch):
    """The claims hold; with the table-stops-at-9 slip in the closed form they are refuted at
    the first pile it gets wrong (55 stones), and the answer rule falls with them."""
    for claim in proofs.CLAIMS:
        claim()
    monkeypatch.setattr(proofs, "pile_value", lambda s: min(9, (int((8 * s + 1) ** 0.5) - 1) // 2))
    with pytest.raises(ClaimRefuted) as info:
        proofs.check_pile_closed_form()
    assert info.value.index == 55
    with pytest.raises(ClaimRefuted):
        proofs.check_answer_rule()


def test_a_million_piles_parse_and_format_quickly():
    """The maximum input (10**6 lines) goes through the validator and back well within a
    contest's time limit, so largest() and certify stay cheap."""
    piles = largest()[1]
    assert len(piles) == 10**6
    start = time.perf_counter()
    text = GAME.format_input(piles)
    assert GAME.parse_input(text) == piles
    assert GAME.oracle(piles) in ("YES", "NO")
    assert time.perf_counter() - start < 10


def _run(program: str, text: str) -> str:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "stones_once" / program)],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return out.stdout.strip()


def test_example_candidates_behave_as_described():
    """correct.py agrees with the oracle where wrong.py's table (stopping at 9) does not: piles
    1, 36, 55 have values 1, 8, 10 (xor 3, NO), but wrong.py counts 55 as 9 (xor 0, YES)."""
    text = GAME.format_input((1, 36, 55))
    assert GAME.oracle((1, 36, 55)) == "NO"
    assert _run("correct.py", text) == "NO"
    assert _run("wrong.py", text) == "YES"
    for sample, answer in GAME.samples:  # the slip passes the statement's samples
        assert _run("wrong.py", sample) == answer.strip()
