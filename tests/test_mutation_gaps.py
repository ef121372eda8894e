"""Checks that close gaps a mutation audit of the test suite found.

Each test here fails on a small deliberate bug (a mutant) that every other test let through:
a cross-check that compares a solver with itself, a sweep that skips a size, a validator that
lets a constraint slip, a claim whose check can be skipped without any test noticing. The
expected values are worked out by hand from the rules or come from a layer other than the code
under test; each docstring names the bug it guards against.
"""

from __future__ import annotations

import itertools

import gamecert.fast.string_cut as fast_string_cut
import gamecert.proofs.digit_game as digit_proofs
import gamecert.proofs.string_cut as string_cut_proofs
import pytest
from gamecert.oracles.digit_game import BREACH, RAZE, _reduced
from gamecert.proofs import word_game as word_proofs

from gamecert.engine import registry
from gamecert.engine.plan.crosscheck import oracle_reference, peers_reference, sweep
from gamecert.errors import InputError
from gamecert.kit import smt
from gamecert.kit.claims import ClaimRefuted
from gamecert.kit.game import ExhaustiveSpace
from gamecert.kit.octal import OctalGame, Periodicity, periodicity_claim, theorem_range

# ---- the cross-check machinery ----------------------------------------------------------------


def test_peer_reference_is_another_solver_never_the_solver_itself():
    """Guards peers_reference: beyond the oracle's reach a solver is checked against a *different*
    registered solver. Were the solver its own peer, every full-size random check would compare
    a solver with itself and could never fail."""

    def a(instance):
        return "a"

    def b(instance):
        return "b"

    def c(instance):
        return "c"

    solvers = {"a": a, "b": b, "c": c}
    for name in solvers:
        ref_name, ref = peers_reference(solvers, name)
        assert ref is not solvers[name] and ref_name != f"solver {name}", name
        assert ref_name == f"solver {ref('x')}"
    assert peers_reference({"a": a}, "a") is None
    # the registered games: each solver's peer is another of its game's solvers
    for entry in registry.all_entries():
        for name, solver in entry.solvers.items():
            peer = peers_reference(entry.solvers, name)
            assert peer is None or peer[1] is not solver, (entry.name, name)


def test_sweep_checks_every_size_it_is_given():
    """Guards sweep(): every size passed is checked, the first and the last included. A solver
    wrong only at the largest (or only at the smallest) size of a space is caught there, and a
    passing sweep counts every instance of every size."""
    game = registry.get("word_game").game
    # one word per size: "A", "AA", "AAA", "AAAA"
    space = ExhaustiveSpace(
        "one-letter words", "A, AA, AAA, AAAA", (1, 2, 3, 4), lambda n: ["A" * n]
    )

    # one letter with c copies: c = 1, 2 -> Alice removes them all; 3 -> Alice removes all
    # three; 4 -> Alice removes one, leaving 3 -> ... worked by hand: a single letter is always a
    # first-player win (remove every copy), so the right answer is Alice for every size.
    def wrong_at(size):
        return lambda word: "Bob" if len(word) == size else "Alice"

    passing = sweep(game, "right", lambda word: "Alice", oracle_reference(game), space)
    assert passing.disagreement is None and passing.tests == 4
    for size in (1, 4):
        found = sweep(
            game, f"wrong-at-{size}", wrong_at(size), oracle_reference(game), space
        ).disagreement
        assert found is not None and found.instance == "A" * size, size
    found = sweep(
        game, "wrong-at-2", wrong_at(2), oracle_reference(game), space, sizes=[2, 3]
    ).disagreement
    assert found is not None and found.instance == "AA"


# ---- validators ---------------------------------------------------------------------------------


def test_word_game_rejects_41_letters_and_accepts_40():
    """Guards word_game's length limit (1 <= |word| <= 40): 41 letters is an InputError on line 1,
    40 letters is valid. No other test feeds a word one letter too long."""
    game = registry.get("word_game").game
    assert game.parse_input("A" * 40 + "\n") == "A" * 40
    with pytest.raises(InputError) as info:
        game.parse_input("A" * 41 + "\n")
    assert info.value.line == 1 and "41" in str(info.value)


def test_string_cut_rejects_5001_letters_and_accepts_5000():
    """Guards string_cut's length limit (1 <= |s| <= 5000), the same kind of slip as above."""
    game = registry.get("string_cut").game
    assert game.parse_input("a" * 5000 + "\n") == "a" * 5000
    with pytest.raises(InputError) as info:
        game.parse_input("a" * 5001 + "\n")
    assert info.value.line == 1


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("1\n3\n012\n", 3),  # leading zero
        ("2\n1\n5\n2\n07\n", 5),  # leading zero in the second game
        ("1\n3\n12\n", 3),  # fewer digits than n
        ("1\n2\n123\n", 3),  # more digits than n
        ("1\n1001\n" + "1" * 1001 + "\n", 2),  # n above 1000
        ("101\n" + "1\n1\n" * 101, 1),  # t above 100
    ],
)
def test_digit_game_rejects_leading_zero_and_wrong_lengths(text, line):
    """Guards digit_game's validator: a number with a leading zero (the statement's numbers have
    none), a number whose length is not n, n > 1000 and t > 100 are InputErrors on their line.
    The generic bad-input test only tries blanks, garbage and control characters."""
    game = registry.get("digit_game").game
    with pytest.raises(InputError) as info:
        game.parse_input(text)
    assert info.value.line == line, str(info.value)


# ---- claims must be able to fail ----------------------------------------------------------------


def test_word_game_xor_rule_claim_refutes_a_wrong_closed_form():
    """Guards the xor-rule claim's comparison with the plain minimax (a claim that returns
    Evidence without comparing would pass the registered-claims test). The form 'c mod 3' is
    wrong exactly at multiples of 3; the first word of the space with a letter counted 3 times is
    AAA (sizes 1 and 2 only hold counts 1 and 2), which Alice wins by removing all three."""
    wrong = word_proofs.xor_rule_claim(lambda c, ops: ops.If(c == 0, 0, c % 3))
    with pytest.raises(ClaimRefuted) as info:
        wrong()
    assert info.value.index == "AAA"


def test_string_cut_reduction_claim_refutes_a_wrong_run_solver(monkeypatch):
    """Guards the reduction claim's comparison of the run-based solver with the rules-only oracle.
    A solver answering 0-based positions is wrong first on 'aaa' over {a, b} (lengths 1 and 2
    allow no cut; 'aaa' is cut at 2, leaving three single letters, a win)."""
    right = fast_string_cut.quadratic_dp

    def zero_based(s):
        answer = right(s)
        return None if answer is None else answer - 1

    monkeypatch.setattr(fast_string_cut, "quadratic_dp", zero_based)
    with pytest.raises(ClaimRefuted) as info:
        string_cut_proofs.reduction_claim((("ab", 6),))()
    assert info.value.index == "aaa"


def test_string_cut_solver_table_claim_checks_the_lookup(monkeypatch):
    """Guards the O(n) solver's table claim: besides the table, the solver's lookup itself is
    compared with the run DP on the theorem's range. A lookup wrong at one run length (100) is
    refuted there even though the table it should read is right."""
    right = fast_string_cut.run_grundy_periodic
    monkeypatch.setattr(fast_string_cut, "run_grundy_periodic", lambda n: right(n) ^ (n == 100))
    with pytest.raises(ClaimRefuted) as info:
        string_cut_proofs.solver_table_claim()()
    assert info.value.index == 100


def test_digit_game_solver_claim_refutes_a_solver_wrong_only_at_large_n(monkeypatch):
    """Guards the bounded claim tying fast/digit_game.py's closed form to the proved rule: a
    closed form that flips its answer for n > 500 (sizes no exhaustive space reaches) is refuted
    at n = 501."""
    right = digit_proofs.closed_form

    def flips_past_500(games):
        return tuple(3 - w if len(d) > 500 else w for d, w in zip(games, right(games), strict=True))

    monkeypatch.setattr(digit_proofs, "closed_form", flips_past_500)
    with pytest.raises(ClaimRefuted) as info:
        digit_proofs.solver_claim(max_n=505)()
    assert info.value.index == 501


def _wrong_class_rule(a, b, c, d, raze_to_move, ops):
    """The closed rule with Breach's test on the wrong class: 'no odd digit' instead of 'no even'."""
    s, t = a + b, c + d
    last_in_odd_class = ops.If(raze_to_move, s == t + 1, s == t)
    return ops.If(last_in_odd_class, a >= 1, c == 0)


@pytest.mark.parametrize(
    "make",
    [digit_proofs.induction_claim, digit_proofs.rule_matches_search_claim],
    ids=["z3-induction", "exhaustive-states"],
)
def test_digit_game_rule_claims_refute_a_wrong_rule(make):
    """Guards the induction claim (z3) and the rule-vs-search claim: a rule that tests Breach's
    digits for the wrong parity is refuted, at a reachable state where the reduced search (an
    independent layer, itself checked against minimax) disagrees with it."""
    with pytest.raises(ClaimRefuted) as info:
        make(_wrong_class_rule)()
    a, b, c, d, mover = info.value.index
    raze = mover == "Raze"
    assert digit_proofs.reachable(a, b, c, d, raze, smt.PY)
    search_says_raze = _reduced(a, b, c, d, RAZE if raze else BREACH) == RAZE
    assert _wrong_class_rule(a, b, c, d, raze, smt.PY) != search_says_raze


# ---- the periodicity claim's minimality checks --------------------------------------------------


def _fake_periodicity(monkeypatch, game, preperiod, period):
    seq = game.sequence(preperiod + period)
    fake = Periodicity(preperiod, period, tuple(seq), theorem_range(preperiod, period, game.k))
    monkeypatch.setattr(OctalGame, "periodicity", lambda self, limit=20000: fake)


def test_periodicity_claim_refutes_a_period_that_is_not_the_smallest(monkeypatch):
    """Guards the periodicity claim's minimality check: 0.137 (Dawson's chess) has preperiod 52
    and period 34 (Winning Ways, ch. 4); a periodicity() that reported period 68 (true, but not
    the smallest) is refuted, naming 34 as the smaller period that fits."""
    game = OctalGame.parse("0.137")
    _fake_periodicity(monkeypatch, game, 52, 68)
    with pytest.raises(ClaimRefuted) as info:
        periodicity_claim(game)()
    assert info.value.index == 34


def test_periodicity_claim_refutes_a_preperiod_that_is_not_the_smallest(monkeypatch):
    """Guards the periodicity claim's preperiod check: preperiod 53 for 0.137 is true but not the
    smallest (52, Winning Ways), and is refuted at 52."""
    game = OctalGame.parse("0.137")
    _fake_periodicity(monkeypatch, game, 53, 34)
    with pytest.raises(ClaimRefuted) as info:
        periodicity_claim(game)()
    assert info.value.index == 52


def test_periodicity_claim_holds_for_the_true_values():
    """Control for the two tests above: the unpatched claim holds for 0.137."""
    assert periodicity_claim(OctalGame.parse("0.137"))().level == "all sizes"


# ---- explanations tell the oracle's winner -------------------------------------------------------

#: from a game's oracle answer to one single game: does the first player win? (read off each
#: game's output format, see the oracles' docstrings)
FIRST_PLAYER_WINS = {
    "word_game": lambda answer: answer == "Alice",
    "string_cut": lambda answer: answer is not None,
    "digit_game": lambda answer: answer == (1,),
    "stones_once": lambda answer: answer == "NO",
    "dawson_kayles": lambda answer: answer.winner == "First",
}
#: the winner's name as the explanation's outcome line states it
WINNER_WORD = {
    "word_game": lambda answer: answer,
    "string_cut": lambda answer: "First" if answer is not None else "Second",
    "digit_game": lambda answer: "Raze" if answer == (1,) else "Breach",
    "stones_once": lambda answer: "Sam" if answer == "NO" else "Jon",
    "dawson_kayles": lambda answer: answer.winner,
}


@pytest.mark.parametrize("game_name", sorted(FIRST_PLAYER_WINS))
def test_explanation_names_the_oracles_winner(game_name):
    """Guards explain(): on every input of each exhaustive space up to size 6, the explanation's
    first_player_wins and the winner its outcome line names are the oracle's. The conformance
    test only checks the explanation against itself (its outcome appears in its own text), so an
    explanation naming the wrong winner passed it."""
    game = registry.get(game_name).game
    checked = 0
    for space in game.exhaustive_spaces():
        for size in space.sizes:
            if size > 6:
                break
            for instance in itertools.islice(space.instances(size), 400):
                answer = game.oracle(instance)
                explanation = game.explain(instance)
                assert explanation.first_player_wins == FIRST_PLAYER_WINS[game_name](answer), (
                    instance
                )
                assert explanation.outcome.startswith(WINNER_WORD[game_name](answer)), (
                    instance,
                    explanation.outcome,
                )
                checked += 1
    assert checked > 20


# ---- judges reject the other outcome --------------------------------------------------------------

#: a wrong answer of the opposite outcome, from the right one (None: no such answer to try)
OTHER_OUTCOME = {
    "word_game": lambda instance, answer: "Bob" if answer == "Alice" else "Alice",
    "string_cut": lambda instance, answer: None if answer is not None else 2,
    "digit_game": lambda instance, answer: tuple(3 - w for w in answer),
    "stones_once": lambda instance, answer: "YES" if answer == "NO" else "NO",
}


@pytest.mark.parametrize("game_name", sorted(OTHER_OUTCOME))
def test_judge_accepts_the_oracle_and_rejects_the_other_outcome(game_name):
    """Guards each game's judge: on small inputs of both outcomes it accepts the oracle's answer
    and rejects the opposite outcome with a reason. stones_once has no broken solvers in
    test_broken.py, so a judge accepting, say, every NO passed the whole suite."""
    game = registry.get(game_name).game
    seen = {False: 0, True: 0}
    for space in game.exhaustive_spaces():
        for size in space.sizes:
            if size > 6:
                break
            for instance in itertools.islice(space.instances(size), 200):
                expected = game.oracle(instance)
                assert game.judge(instance, expected, expected) is None, instance
                wrong = OTHER_OUTCOME[game_name](instance, expected)
                assert game.judge(instance, wrong, expected), (instance, wrong)
                seen[FIRST_PLAYER_WINS[game_name](expected)] += 1
    assert min(seen.values()) > 5, seen


def test_every_registered_game_states_claims():
    """Guards test_proofs.py's parametrisation: it makes one item per claim, so a game whose
    proofs module says ``CLAIMS = []`` (the registry accepts it) would get no proof check at all
    and nothing would say so."""
    for entry in registry.all_entries():
        assert entry.claims, f"proofs/{entry.name}.py states no claims"


def test_string_cut_judge_rejects_a_winning_cut_that_is_not_the_smallest():
    """Guards string_cut's judge within the oracle's reach: the answer is the *smallest* winning
    cut. In 'aaaa' cutting at 2 or at 3 both leave single letters and 'aa' (no cut left), so both
    win; 3 must be rejected. Before this test only sizes past the oracle's reach (where the judge
    compares the positions directly) caught a largest-winning-cut solver, with a 3000-letter
    report instead of 'aaaa'; the exhaustive sweep now finds it at 'aaaa', the first string of
    four letters (three letters allow at most one cut)."""
    from tests.broken.string_cut import largest_winning_cut

    game = registry.get("string_cut").game
    assert game.judge("aaaa", 2, 2) is None
    assert game.judge("aaaa", 3, 2)
    assert game.judge("abacaba", 4, 2)  # the sample: cuts 2, 4 and 6 each leave two single cuts
    space = next(s for s in game.exhaustive_spaces() if s.name == "abc-strings")
    found = sweep(
        game,
        "largest_winning_cut",
        largest_winning_cut,
        oracle_reference(game),
        space,
        sizes=[1, 2, 3, 4],
    )
    assert found.disagreement is not None and found.disagreement.instance == "aaaa"


def test_digit_game_judge_checks_every_game_of_a_batch():
    """Guards digit_game's judge on batches: a wrong answer to a later game is wrong even when the
    first game and the number of answers are right. Single digits: 2 is even, so Breach (2)
    wins; 3 is odd, so Raze (1) wins."""
    game = registry.get("digit_game").game
    instance = ("2", "3")
    assert game.judge(instance, (2, 1), (2, 1)) is None
    why = game.judge(instance, (2, 2), (2, 1))
    assert why and "game 2" in why


# ---- the periodicity theorem's range, to its last index --------------------------------------------


def test_period_search_needs_the_whole_range_in_the_data():
    """Guards _first_proved_period: a period is proved only when the data hold every value the
    finite condition reads. For k = 3, e = 0, p = 1 the condition is G(n + 1) = G(n) on
    0 <= n < 2 * max(0, 1) + 1 + 3 = 6, which reads G(0) .. G(6): seven values. Six equal values
    prove nothing; seven do."""
    from gamecert.kit.octal import _first_proved_period

    assert _first_proved_period([0] * 6, 3) is None
    assert _first_proved_period([0] * 7, 3) == (0, 1)


def test_check_period_reads_the_last_index_of_the_theorems_range(monkeypatch):
    """Guards check_period's loop bound: for a code with k = 2 (0.07) and the claim e = 3, p = 2,
    the condition is G(n + 2) = G(n) on 3 <= n < 2 * 3 + 2 + 2 = 10. A sequence (substituted
    here, so the break can be placed anywhere) that repeats on 3 <= n < 9 and breaks only at
    n = 9 (G(11) != G(9)) must be refuted at 11; a checker stopping one short accepts it."""
    fake = [0, 0, 0, 1, 2, 1, 2, 1, 2, 1, 2, 5]
    monkeypatch.setattr(OctalGame, "sequence", lambda self, length: fake[:length])
    from gamecert.kit.octal import check_period

    with pytest.raises(ClaimRefuted) as info:
        check_period(OctalGame.parse("0.07"), 3, 2)
    assert info.value.index == 11
