"""The octal family: codes, the periodicity theorem's finite condition, heap games from a code."""

from __future__ import annotations

import functools
import itertools

import pytest
from hypothesis import HealthCheck, given, settings

from gamecert.errors import (
    GamecertError,
    InputError,
    PresentationError,
    UsageError,
    WrongAnswerError,
)
from gamecert.kit.claims import ClaimRefuted
from gamecert.kit.octal import (
    NotPeriodicYet,
    OctalAnswer,
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
    assert all(parts.game.minimax((n,)).winner == "Second" for n in range(1, 5))
    assert parts.game.minimax((5,)).winner == "First"
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
        assert parts.mex_dp((h,)).winner == ("First" if per.grundy(h) else "Second")


# ---- a heap game from its code ----------------------------------------------------------------------


@pytest.mark.parametrize("code", ["0.07", "0.137", "4.07", "0.15"])
def test_octal_game_searches_agree_exhaustively(code):
    """On every multiset of heaps with at most 12 tokens: the plain minimax, the Sprague-Grundy
    oracle and periodic_table give the same canonical answer, winning move included; mex_dp names
    a winning move too (by the brute force here, not the game's judge), not always the same one."""
    parts = octal_parts(code)
    game = parts.game
    checked = differ = 0
    for space in game.exhaustive_spaces():
        for heaps in space.all():
            truth = game.minimax(heaps)
            assert game.oracle(heaps) == truth, heaps
            assert parts.periodic_table(heaps) == truth, heaps
            dp = parts.mex_dp(heaps)
            if truth.winner == "Second":
                assert dp == truth, heaps
            else:
                assert dp.move in _brute_winning_moves(game.octal.digits, heaps), heaps
                differ += dp != truth
            checked += 1
    assert checked > 100 and differ > 0


def test_octal_game_formats():
    """Input: m, then m heap sizes on one line; errors name line, column and rule."""
    game = octal_parts("0.07", "dawson_kayles").game
    assert game.name == "dawson_kayles"
    assert game.parse_input("3\n1 2 1000\n") == (1, 2, 1000)
    assert game.format_input((1, 2, 1000)) == "3\n1 2 1000\n"
    for text, line in [
        ("0\n\n", 1),
        ("2\n1\n", 2),
        ("2\n1  2\n", 2),
        ("1\n1001\n", 2),
        ("1\n5\nx\n", 3),
        ("1\n", 2),
    ]:
        with pytest.raises(InputError) as info:
            game.parse_input(text)
        assert info.value.line == line, text
    with pytest.raises(InputError) as info:
        game.parse_input("2\n3 07\n")
    assert info.value.column == 3
    assert game.parse_answer("Second\n", (1,)) == OctalAnswer("Second")
    assert game.parse_answer(" First \r\n 2  0 3 ", (1, 5)) == OctalAnswer(
        "First", (2, 3, 0)
    )  # either order
    assert game.format_answer(OctalAnswer("First", (2, 3, 0))) == "First\n2 3 0\n"
    # a wrong word, a missing or extra token, a number out of its range: WA; a malformed number: PE
    for bad in (
        "first",
        "First\n",
        "First\n1 2\n",
        "First\n1 -2 0\n",
        "Second\n1 0 0\n",
        "First\n1 2 0 0\n",
        "First\n1 1001 0\n",
    ):
        with pytest.raises(WrongAnswerError):
            game.parse_answer(bad, (1,))
    for bad in (
        "First\n1 2 x\n",
        "First\n1 99999999999999999999 0\n",
        "First\n01 2 0\n",
        "First\n1 +2 0\n",
    ):
        with pytest.raises(PresentationError):
            game.parse_answer(bad, (1,))


def test_octal_game_explains_a_winning_move():
    """Each listed winning move, applied to the position, leaves a position plain minimax calls
    lost for the player to move."""
    game = octal_parts("0.07").game
    for heaps in [(4, 5), (7,), (2, 3, 6), (9, 1)]:
        explanation = game.explain(heaps)
        assert explanation.first_player_wins == (game.minimax(heaps).winner == "First"), heaps
        for move in explanation.winning_moves:
            i, a, b = (int(x) for x in move.split()[:3])
            after = heaps[: i - 1] + tuple(h for h in (a, b) if h) + heaps[i:]
            assert sum(after) < sum(heaps), (heaps, move)
            assert game.minimax(after).winner == "Second", (heaps, move, after)
        assert bool(explanation.winning_moves) == explanation.first_player_wins, heaps


def test_exports_fill_every_registry_part():
    """exports(part) gives exactly what the registry requires of each module."""
    from gamecert.engine.registry import REQUIRED

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
    table, dp = parts.periodic_table(heaps), parts.mex_dp(heaps)
    assert table.winner == dp.winner
    assert game.judge(heaps, table, dp) is None and game.judge(heaps, dp, table) is None
    assert list(parts.features(heaps))


def test_unperiodic_code_says_so():
    """0.16 shows no period within the parts' limit: the table solver and the periodicity claim say
    so (a GamecertError), the direct DP still answers."""
    parts = octal_parts("0.16")
    assert parts.mex_dp((5, 7)).winner == parts.game.oracle((5, 7)).winner
    assert parts.game.judge((5, 7), parts.mex_dp((5, 7)), parts.game.oracle((5, 7))) is None
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

    from gamecert.kit import plots
    from gamecert.kit.octal import plot_data

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    path, line = plots.write_plot(plot_data(OctalGame.parse("0.07")), str(tmp_path))
    assert path is None and "matplotlib" in line and "skipped" in line
    assert not list(tmp_path.iterdir())


# ---- several right answers: any winning move, judged against the position --------------------------


def _rule_moves(digits, h):
    """Every move from a heap of ``h`` read off the code's digits, as heaps left ``(a, b)``, a >= b,
    0 for no heap. Digit ``d_j`` (j tokens taken): 1 may leave nothing, 2 one heap, 4 two heaps."""
    moves = []
    for taken, d in enumerate(digits):
        rest = h - taken
        if rest < 0:
            break
        if taken and d & 1 and rest == 0:
            moves.append((0, 0))
        if taken and d & 2 and rest > 0:
            moves.append((rest, 0))
        if d & 4:
            moves.extend((rest - b, b) for b in range(1, rest // 2 + 1))
    return moves


def _after(heaps, i, a, b):
    return tuple(sorted(heaps[: i - 1] + heaps[i:] + tuple(x for x in (a, b) if x)))


@functools.cache
def _mover_wins(digits, heaps):
    """Plain win/lose search over whole positions, written here from the rules above."""
    return any(
        not _mover_wins(digits, _after(heaps, i, a, b))
        for i, h in enumerate(heaps, 1)
        for a, b in _rule_moves(digits, h)
    )


def _brute_winning_moves(digits, heaps):
    """Every winning move ``(i, a, b)``: legal by the rules, leaving a position the mover loses."""
    heaps = tuple(heaps)
    return {
        (i, a, b)
        for i, h in enumerate(heaps, 1)
        for a, b in _rule_moves(digits, h)
        if not _mover_wins(digits, _after(heaps, i, a, b))
    }


def _compositions(total):
    """Every ordered list of positive heap sizes adding up to ``total`` (heap order matters to i)."""
    if total == 0:
        yield ()
        return
    for first in range(1, total + 1):
        for rest in _compositions(total - first):
            yield (first,) + rest


@pytest.mark.parametrize("code", ["0.07", "0.137", "4.07", "0.77", "0.6"])
def test_judge_accepts_exactly_the_winning_moves(code):
    """On every ordered position of at most 7 tokens, every answer 'Second' or 'First i a b' with
    i one past either end and a + b up to one more than the heap: the judge accepts exactly the
    winning moves the brute force finds (and Second exactly on lost positions), and says why
    it rejects the rest: wrong winner, illegal move or losing move."""
    game = octal_parts(code).game
    digits = game.octal.digits
    accepted = {"winning move": 0, "Second": 0}
    for total in range(1, 8):
        for heaps in _compositions(total):
            wins = _mover_wins(digits, tuple(sorted(heaps)))
            good = _brute_winning_moves(digits, heaps)
            assert bool(good) == wins, heaps
            expected = game.oracle(heaps)
            reason = game.judge(heaps, OctalAnswer("Second"), expected)
            if wins:
                assert reason.startswith("wrong winner: the first player wins"), (heaps, reason)
            else:
                assert reason is None, (heaps, reason)
                accepted["Second"] += 1
            for i in range(0, len(heaps) + 2):
                h = heaps[i - 1] if 1 <= i <= len(heaps) else 3
                for a in range(h + 2):
                    for b in range(min(a, h + 1 - a) + 1):
                        reason = game.judge(heaps, OctalAnswer("First", (i, a, b)), expected)
                        if not wins:
                            assert reason.startswith("wrong winner: the second player wins"), (
                                heaps,
                                i,
                                a,
                                b,
                                reason,
                            )
                        elif (i, a, b) in good:
                            assert reason is None, (heaps, i, a, b, reason)
                            accepted["winning move"] += 1
                        elif 1 <= i <= len(heaps) and (a, b) in _rule_moves(digits, h):
                            assert reason.startswith("losing move"), (heaps, i, a, b, reason)
                        else:
                            assert reason.startswith("illegal move"), (heaps, i, a, b, reason)
    assert min(accepted.values()) > 0, accepted


@pytest.mark.parametrize("code", ["0.07", "0.137", "4.07", "0.77"])
def test_canonical_answer_is_the_first_winning_move(code):
    """The oracle's (and the minimax's) move is the brute force's first winning move in the
    documented order: smallest heap index, then fewest tokens taken, then smallest second heap."""
    game = octal_parts(code).game
    digits = game.octal.digits
    for total in range(1, 9):
        for heaps in _compositions(total):
            good = _brute_winning_moves(digits, heaps)
            if not good:
                assert game.oracle(heaps) == game.minimax(heaps) == OctalAnswer("Second"), heaps
                continue
            first = min(good, key=lambda m: (m[0], heaps[m[0] - 1] - m[1] - m[2], m[2]))
            assert game.oracle(heaps) == game.minimax(heaps) == OctalAnswer("First", first), heaps


def test_a_different_winning_move_is_accepted_through_the_text():
    """Dawson's Kayles (0.07: take two adjacent pins), one row of 7: G(7) = 1 in Winning Ways'
    table; 7 -> 5 and 7 -> 3 + 2 both leave 0 (G(5) = 0, G(3) = G(2) = 1). Both answers, parsed
    from text, are right; the judge says why 7 -> 4 + 1 (G = 2 ^ 0) and 7 -> 4 + 2 are not."""
    game = octal_parts("0.07", "dawson_kayles").game
    expected = game.oracle((7,))
    for text in ("First\n1 5 0\n", "First\n1 2 3\n", "First\n1 3 2"):
        assert game.judge((7,), game.parse_answer(text, (7,)), expected) is None, text
    assert game.judge((7,), game.parse_answer("First\n1 4 1\n", (7,)), expected).startswith(
        "losing move"
    )
    why = game.judge((7,), game.parse_answer("First\n1 4 2\n", (7,)), expected)
    assert why.startswith("illegal move") and "taking 1" in why
    assert "no heap 2" in game.judge((7,), game.parse_answer("First\n2 5 0\n", (7,)), expected)
    assert game.judge((7,), "First", expected).startswith("not an answer")


def test_dawson_kayles_sequence_matches_the_literature():
    """0.07's values start 0 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 2 7 4 0
    (OEIS A002187, n >= 0); Dawson's chess 0.137 on n is Dawson's Kayles on n + 1, so its
    preperiod 52 and period 34 (test_known_periods) make 0.07's 53 and 34."""
    from_literature = [
        0,
        0,
        1,
        1,
        2,
        0,
        3,
        1,
        1,
        0,
        3,
        3,
        2,
        2,
        4,
        0,
        5,
        2,
        2,
        3,
        3,
        0,
        1,
        1,
        3,
        0,
        2,
        1,
        1,
        0,
        4,
        5,
        2,
        7,
        4,
        0,
    ]
    game = octal_parts("0.07", "dawson_kayles").game
    assert [game.grundy(n) for n in range(len(from_literature))] == from_literature
    dawson, chess = OctalGame.parse("0.07"), OctalGame.parse("0.137")
    assert dawson.sequence(1001)[1:] == chess.sequence(1000)
    per = dawson.periodicity()
    assert (per.preperiod, per.period) == (53, 34)


def test_samples_mix_the_minimax_and_both_winners():
    """The samples show both outcomes, and the small ones agree with the brute force here."""
    game = octal_parts("0.07", "dawson_kayles").game
    winners = set()
    small = 0
    for text, answer in game.samples:
        heaps = game.parse_input(text)
        got = game.parse_answer(answer, heaps)
        winners.add(got.winner)
        if sum(heaps) <= 8:
            small += 1
            assert (got.winner == "First") == _mover_wins(
                game.octal.digits, tuple(sorted(heaps))
            ), text
            assert got.move is None or got.move in _brute_winning_moves(game.octal.digits, heaps), (
                text
            )
    assert winners == {"First", "Second"} and small >= 3
    assert max(sum(game.parse_input(t)) for t, _ in game.samples) > 1000


@pytest.mark.parametrize("heaps", [(1000,) * 100, tuple(range(1000, 900, -1)), (4, 5), (1,)])
def test_explanations_list_winning_moves_the_judge_accepts(heaps):
    """explain() says who wins; each move it lists is accepted (and at full size it stays cheap:
    moves are listed up to a cap with a count, the line of play is cut)."""
    game = octal_parts("0.07", "dawson_kayles").game
    explanation = game.explain(heaps)
    expected = game.oracle(heaps)
    assert explanation.first_player_wins == (expected.winner == "First")
    assert bool(explanation.winning_moves) == explanation.first_player_wins
    for move in explanation.winning_moves:
        answer = game.parse_answer("First\n" + move.split(" (")[0], heaps)
        assert game.judge(heaps, answer, expected) is None, move
    if explanation.winning_moves:
        assert explanation.winning_moves[0].startswith(" ".join(map(str, expected.move)))
    assert explanation.line_of_play


def test_maximum_size_answers_are_judged_right():
    """Both solvers at the maximum size: the same winner, and each one's move is accepted."""
    parts = octal_parts("0.07", "dawson_kayles")
    game = parts.game
    for heaps in parts.largest():
        table, dp = parts.periodic_table(heaps), parts.mex_dp(heaps)
        assert table.winner == dp.winner == game.oracle(heaps).winner
        assert game.judge(heaps, table, dp) is None and game.judge(heaps, dp, table) is None


def test_smaller_inputs_are_valid_and_smaller():
    game = octal_parts("0.07", "dawson_kayles").game
    heaps = (1000, 3, 1, 17)
    out = list(game.smaller(heaps))
    assert out and all(game.size(s) < game.size(heaps) for s in out)
    assert all(game.parse_input(game.format_input(s)) == s for s in out)


def test_strategies_reach_large_varied_inputs():
    """Large inputs come from a few draws, yet vary: Hypothesis finds a full-length input with many
    distinct heap sizes."""
    from hypothesis import find

    found = find(
        octal_parts("0.07").instances(),
        lambda h: len(h) == 100 and len(set(h)) > 30,
        settings=settings(max_examples=2000, database=None),
    )
    assert len(found) == 100
