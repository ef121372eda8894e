"""The octal family: codes, the periodicity theorem's finite condition, heap games from a code."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings

from gamecert.claims import ClaimRefuted
from gamecert.errors import GamecertError, InputError, PresentationError, UsageError
from gamecert.octal import (
    NotPeriodicYet,
    OctalGame,
    check_period,
    check_periodic_table,
    octal_parts,
    theorem_range,
)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("0.8", "hexadecimal"),
        ("0.1f", "hexadecimal"),
        ("1.07", "loopy"),
        ("0.0", "no move"),
        ("0137", "point"),
        ("0.1(3)", "infinitely many"),
        ("0.", "point"),
    ],
)
def test_bad_codes_are_rejected_clearly(code, words):
    """Codes outside what the theorem covers are usage errors that say why."""
    with pytest.raises(UsageError, match=words):
        OctalGame.parse(code)


@pytest.mark.parametrize(("code", "preperiod", "period"), [("0.77", 71, 12), ("0.137", 52, 34)])
def test_known_periods(code, preperiod, period):
    """Kayles and Dawson's chess, as Winning Ways (ch. 4) tabulates them: Kayles' last exceptional
    value is at 70, period 12; Dawson's chess' at 51, period 34."""
    per = OctalGame.parse(code).periodicity()
    assert (per.preperiod, per.period) == (preperiod, period)


def test_textbook_condition_with_preperiod_zero_is_not_enough():
    """0.004: G(n + 1) = G(n) on 0 <= n < 0 + 1 + 3 holds, yet G(5) != G(4). The checked range
    uses max(e, 1), so the claim is refuted at 5 (the witness is the plain minimax)."""
    game = OctalGame.parse("0.004")
    parts = octal_parts("0.004")
    assert all(parts.game.minimax((n,)) == "Second" for n in range(1, 5))
    assert parts.game.minimax((5,)) == "First"
    assert theorem_range(0, 1, game.k) > 0 + 1 + game.k
    with pytest.raises(ClaimRefuted) as info:
        check_period(game, 0, 1)
    assert info.value.index == 5
    with pytest.raises(NotPeriodicYet):  # five values must not "prove" period 1
        OctalGame.parse("0.004").periodicity(limit=5)


def test_finite_condition_is_sound_on_small_codes():
    """For every code 0.d1d2 and 4.d1d2 and every (e, p) with e, p <= 6 that the finite condition
    accepts, the sequence really repeats on a long range (guards theorem_range)."""
    accepted = 0
    for head, d1, d2 in itertools.product("04", "01234567", "01234567"):
        try:
            game = OctalGame.parse(f"{head}.{d1}{d2}")
        except UsageError:
            continue
        seq = game.sequence(160)
        for e, p in itertools.product(range(7), range(1, 7)):
            try:
                check_period(game, e, p)
            except ClaimRefuted:
                continue
            accepted += 1
            assert all(seq[n + p] == seq[n] for n in range(e, 160 - p)), (game.code, e, p)
    assert accepted > 50  # the check is not vacuous


def test_table_of_the_wrong_length_is_a_usage_error():
    with pytest.raises(UsageError, match="values"):
        check_periodic_table(OctalGame.parse("0.07"), 2, 3, [0, 0, 1])


def test_splitting_without_taking_is_covered():
    """4.07 allows splitting a heap in two without taking; its options say so and the theorem
    applies (j = 0 <= k). The claimed period is checked against the direct DP solver."""
    game = OctalGame.parse("4.07")
    assert (1, 1) in set(game.options(2))
    per = game.periodicity()
    parts = octal_parts("4.07")
    for h in range(1, 200):
        assert parts.mex_dp((h,)) == ("First" if per.grundy(h) else "Second")


# ---- a heap game from its code ----------------------------------------------------------------------

@pytest.mark.parametrize("code", ["0.07", "0.137", "4.07", "0.15"])
def test_octal_game_searches_agree_exhaustively(code):
    """Plain minimax, the Sprague-Grundy oracle and both solvers agree on every multiset of heaps
    with at most 12 tokens."""
    parts = octal_parts(code)
    game = parts.game
    checked = 0
    for space in game.exhaustive_spaces():
        for heaps in space.all():
            truth = game.minimax(heaps)
            assert game.oracle(heaps) == truth, heaps
            for name, solve in parts.solvers.items():
                assert solve(heaps) == truth, (name, heaps)
            checked += 1
    assert checked > 100


def test_octal_game_formats():
    """Input: m, then m heap sizes on one line; errors name line, column and rule."""
    game = octal_parts("0.07", "dawson_kayles").game
    assert game.name == "dawson_kayles"
    assert game.parse_input("3\n1 2 1000\n") == (1, 2, 1000)
    assert game.format_input((1, 2, 1000)) == "3\n1 2 1000\n"
    for text, line in [("0\n\n", 1), ("2\n1\n", 2), ("2\n1  2\n", 2), ("1\n1001\n", 2), ("1\n5\nx\n", 3), ("1\n", 2)]:
        with pytest.raises(InputError) as info:
            game.parse_input(text)
        assert info.value.line == line, text
    with pytest.raises(InputError) as info:
        game.parse_input("2\n3 07\n")
    assert info.value.column == 3
    assert game.parse_answer("First\n", (1,)) == "First"
    with pytest.raises(PresentationError):
        game.parse_answer("first", (1,))


def test_octal_game_explains_a_winning_move():
    """The explanation's winning moves leave a zero position (checked with the plain minimax)."""
    parts = octal_parts("0.07")
    game = parts.game
    heaps = (4, 5)
    text = game.explain(heaps).describe()
    assert "Winning moves" in text
    explanation = game.explain(heaps)
    assert explanation.total != 0 and explanation.winning_moves


def test_exports_fill_every_registry_part():
    """exports(part) gives exactly what the registry requires of each module."""
    from gamecert.registry import REQUIRED

    parts = octal_parts("0.07", "dawson_kayles")
    for part, required in REQUIRED.items():
        assert {attr for attr, _ in required} <= set(parts.exports(part))
    with pytest.raises(UsageError):
        parts.exports("nowhere")
    with pytest.raises(GamecertError):
        octal_parts("0.07", "not a name")


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(octal_parts("0.07").instances())
def test_strategies_produce_valid_inputs(heaps):
    """Every drawn instance survives format -> parse, and both solvers agree on it."""
    parts = octal_parts("0.07")
    game = parts.game
    assert game.parse_input(game.format_input(heaps)) == heaps
    assert parts.periodic_table(heaps) == parts.mex_dp(heaps)
    assert list(parts.features(heaps))


def test_unperiodic_code_says_so():
    """0.16 shows no period within the parts' limit: the table solver and the periodicity claim say
    so (a GamecertError), the direct DP still answers."""
    parts = octal_parts("0.16")
    assert parts.mex_dp((5, 7)) == parts.game.oracle((5, 7))
    with pytest.raises(NotPeriodicYet):
        parts.periodic_table((5, 7))
    with pytest.raises(NotPeriodicYet):
        parts.claims[0]()


def test_octal_claims_hold():
    """The generic claims of a code hold (periodicity for all sizes, z3 on a bounded range)."""
    for claim in octal_parts("4.07").claims:
        assert claim().level in ("all sizes", "bounded")


def test_plot_skipped_without_matplotlib(monkeypatch, tmp_path):
    """Without matplotlib, a plot is skipped with a message, never an exception."""
    import builtins

    from gamecert import plots
    from gamecert.octal import plot_data

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    path, line = plots.write_plot(plot_data(OctalGame.parse("0.07")), str(tmp_path))
    assert path is None and "matplotlib" in line and "skipped" in line
    assert not list(tmp_path.iterdir())
