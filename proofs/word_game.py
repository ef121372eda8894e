"""Claims about word_game: the period-3 value of one letter, and the xor rule over letters.

The chain of evidence:

1. one letter with ``c`` copies: the Grundy recurrence ``g(c) = mex{g(c-1), g(c-2), g(0)}`` (the
   moves the rules give, as :func:`gamecert.oracles.word_game.letter_options` transcribes them) has the
   closed form as its only solution on ``0..1000`` (z3, mex as constraints);
2. the closed form holds for every ``c`` (z3 proves the induction step on a symbolic ``c``);
3. the word is the disjunctive sum of its letters, so by the Sprague-Grundy theorem its value is
   the xor of theirs; tied to the plain minimax over every word up to renaming letters.

The letter game is not an octal game with a finite code ("remove all" is a move at every size),
so the octal periodicity theorem does not apply; the induction does the work instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamecert.oracles.word_game import GAME, MAX_LEN, counts_of, letter_options

from gamecert.kit import smt
from gamecert.kit.claims import Claim, ClaimRefuted, Evidence
from gamecert.kit.plots import SequencePlot

#: the bounded range z3 checks the recurrence on (the issue asks for at least 1000)
N_BOUNDED = 1000

ClosedForm = Callable[[Any, Any], Any]


def editorial_closed_form(c: Any, ops: Any) -> Any:
    """The seed editorial's claim: 0 for no copies, else ``3 if c % 3 == 0 else c % 3``.

    Written over ``ops`` so that z3 reads the very same definition (see :mod:`gamecert.kit.smt`).

    >>> [editorial_closed_form(c, smt.PY) for c in range(8)]
    [0, 1, 2, 3, 1, 2, 3, 1]
    """
    return ops.If(c == 0, 0, ops.If(c % 3 == 0, 3, c % 3))


def symbolic_options(c: Any) -> list[Any]:
    """The counts one move leaves from ``c >= 2`` copies: remove one, remove two, remove all.

    >>> symbolic_options(5)
    [4, 3, 0]
    """
    return [c - 1, c - 2, 0]


def recurrence_claim(
    closed_form: ClosedForm = editorial_closed_form, n_max: int = N_BOUNDED
) -> Claim:
    """Bounded: the closed form is the ONLY solution of the letter recurrence on ``0..n_max``.

    Guards the closed form (and with it the fast solvers) on every count the input allows and
    far past it. The recurrence is asserted with mex as constraints over z3 variables
    ``g(0..n_max)``; z3 must find it satisfiable, and unsatisfiable once the negation of the
    closed form is added. A wrong closed form is refuted at the first count where z3's solution
    differs from it.
    """

    def check() -> Evidence:
        def options(c: int) -> list[tuple[int, ...]]:
            return [(o,) for o in letter_options(c)] if c else []

        result = smt.mex_recurrence(n_max, options, lambda c: closed_form(c, smt.PY), value_bits=4)
        if result.first_mismatch is not None:
            c = result.first_mismatch
            raise ClaimRefuted(
                "word_game letter recurrence",
                c,
                f"the recurrence gives g({c}) = {result.solution[c]}, the closed form {closed_form(c, smt.PY)}",
            )
        return Evidence(
            "bounded",
            f"c = 0..{n_max}: the recurrence is sat and 'recurrence and not closed form' is unsat "
            f"(z3, {result.constraints} constraints, mex as constraints)",
        )

    return Claim(
        "word_game: letter recurrence (z3)",
        f"g(c) = mex{{g(c-1), g(c-2) if c >= 2, g(0)}} has the period-3 closed form as its only solution for c <= {n_max}",
        check,
        level="bounded",
    )


def induction_claim(
    closed_form: ClosedForm = editorial_closed_form, check_options_up_to: int = N_BOUNDED
) -> Claim:
    """All sizes: the closed form is the letter's Grundy value for every count ``c``.

    Strong induction on ``c``. Base cases ``c = 0`` (no move) and ``c = 1`` (remove the one copy)
    by z3 with their concrete option sets; the step for a symbolic ``c >= 2`` by z3 from the
    closed form at ``c - 1``, ``c - 2`` and ``0``. The symbolic option list is the rules' one:
    checked equal to :func:`letter_options` for ``2 <= c <= check_options_up_to`` (the rules
    function is that list by its definition, for every ``c``). Guards the fast solvers for
    every count, and the claim that the pattern never changes past the bounded range.
    """

    def check() -> Evidence:
        for c in range(2, check_options_up_to + 1):
            if set(symbolic_options(c)) != set(letter_options(c)):
                raise ClaimRefuted(
                    "word_game letter induction",
                    c,
                    f"the step's options {symbolic_options(c)} are not the rules' {letter_options(c)}",
                )
        base = smt.mex_recurrence(
            1,
            lambda c: [(o,) for o in letter_options(c)] if c else [],
            lambda c: closed_form(c, smt.PY),
        )
        if base.first_mismatch is not None:
            c = base.first_mismatch
            raise ClaimRefuted(
                "word_game letter induction",
                c,
                f"base case: g({c}) = {base.solution[c]}, the closed form {closed_form(c, smt.PY)}",
            )
        step = smt.mex_induction_step(symbolic_options, closed_form, start=2)
        if not step.holds:
            raise ClaimRefuted(
                "word_game letter induction",
                step.counterexample,
                f"induction step fails: {step.detail}",
            )
        return Evidence(
            "all sizes",
            "strong induction on c, z3: base cases c = 0, 1; step for symbolic c >= 2 from c-1, c-2 and 0 "
            f"({step.detail}); step options checked equal to the rules' for 2 <= c <= {check_options_up_to}",
        )

    return Claim(
        "word_game: letter closed form for every c (z3 induction)",
        "one letter with c copies has Grundy value 0 if c = 0, else 3 if 3 divides c, else c mod 3; for every c",
        check,
        level="all sizes",
    )


def xor_rule_claim(closed_form: ClosedForm = editorial_closed_form) -> Claim:
    """Exhaustive: Alice wins iff the xor over letters of the closed form is non-zero.

    Sprague-Grundy theorem (R. P. Sprague 1935, P. M. Grundy 1939; Berlekamp, Conway and Guy,
    *Winning Ways*, ch. 2): a disjunctive sum of impartial games under normal play has Grundy value
    the xor of its components' values, and the player to move wins iff it is non-zero. A move
    changes exactly one letter's count, so the word is the sum of its letters. With the closed
    form proved for every count (claims above) the rule holds for every word; the claim ties it
    to plain minimax (no Sprague-Grundy) over every multiset of letter counts with total <= 40,
    i.e. every valid word up to renaming letters, checking the oracle too. Guards the xor step.
    """

    def part(first: int, last: int):
        def check() -> Evidence:
            checked = {}
            for space in GAME.exhaustive_spaces():
                checked[space.name] = 0
                for size in (s for s in space.sizes if first <= s <= last):
                    for word in space.instances(size):
                        truth = GAME.minimax(word)
                        value = 0
                        for c in counts_of(word):
                            value ^= closed_form(c, smt.PY)
                        rule = "Alice" if value else "Bob"
                        if rule != truth or GAME.oracle(word) != truth:
                            raise ClaimRefuted(
                                "word_game xor rule",
                                word,
                                f"counts {counts_of(word)}: minimax says {truth}, the xor rule {rule}, "
                                f"the oracle {GAME.oracle(word)}",
                            )
                        checked[space.name] += 1
            short = checked.get("short-words", 0)
            also = (
                f", and {short} words of {first}..{min(last, 3)} letters over A-Z (every one)"
                if short
                else ""
            )
            return Evidence(
                "exhaustive",
                f"{checked['letter-count multisets']} multisets of letter counts (every word of {first}..{last} letters "
                f"up to renaming){also}: xor rule == oracle == plain minimax; for all words by the Sprague-Grundy "
                "theorem and the closed form for every c",
            )

        return check

    return Claim(
        "word_game: xor over letters (Sprague-Grundy)",
        "Alice wins iff the xor over letters of the closed form of their counts is non-zero",
        part(1, MAX_LEN),
        level="exhaustive",
        span=(1, MAX_LEN),
        part=part,
        cost=lambda n: (
            n * (_multisets(n) + (26**n if n <= 3 else 0))
        ),  # a word costs about its length
    )


def _multisets(length: int, letters: int = 26) -> int:
    """Multisets of letter counts summing to ``length`` (partitions into at most 26 parts): the
    words the xor claim checks at that length, its cost.

    >>> [_multisets(n) for n in range(1, 7)]
    [1, 2, 3, 5, 7, 11]
    """
    ways = [1] + [0] * length
    for part in range(1, length + 1):  # partitions into parts <= 26 == into at most 26 parts
        if part > letters:
            break
        for total in range(part, length + 1):
            ways[total] += ways[total - part]
    return ways[length]


def _letter_plot() -> SequencePlot:
    values = tuple(editorial_closed_form(c, smt.PY) for c in range(3 * 12 + 1))
    return SequencePlot("word_game", "word_game: one letter's Grundy value by count", values, 1, 3)


CLAIMS = [recurrence_claim(), induction_claim(), xor_rule_claim()]
PLOTS = [_letter_plot]
