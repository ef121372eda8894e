"""Claims about digit_game: the closed form, for every number of digits.

What is proved, exactly:

- **Reduction** (exhaustive, n <= 12 for digit parities, n <= 4 for all digit strings): the
  outcome depends only on the counts ``(a, b, c, d)`` = odd/even digits in odd positions,
  odd/even digits in even positions. Why: a permutation of the digits that keeps each digit's
  position class and parity maps legal marks to legal marks and the last digit's parity to
  itself, so it preserves the outcome; hence the reduced game (:func:`gamecert.oracles.digit_game._reduced`,
  a move lowers one of Raze's counts ``a, b`` or one of Breach's ``c, d``) is exact. Checked
  against the plain minimax over whole positions.
- **The reduced game's outcome, for every state reachable from any start** (all sizes, z3):
  :func:`raze_wins` satisfies the reduced game's recurrence on a symbolic state, so by induction
  on the number of unmarked digits it *is* the outcome. This is the further argument that
  replaces searching ~1e8 reduced states for n <= 1000: it covers every n at once. The rule is
  also compared with ``_reduced`` on every reachable state with at most 60 digits.
- **The closed form**: at the start (Raze to move, ``a + b = ceil(n/2)``, ``c + d = floor(n/2)``),
  :func:`raze_wins` reads "n odd: Raze wins iff some odd position holds an odd digit; n even:
  Breach wins iff some even position holds an even digit", the closed form of
  ``fast/digit_game.py``. That module's code is compared with it on corner layouts of every
  ``n <= 1000`` (bounded); the conformance tests compare it with the oracle exhaustively.
"""

from __future__ import annotations

import itertools
from typing import Any

from gamecert.fast.digit_game import closed_form
from gamecert.oracles.digit_game import (
    BREACH,
    GAME,
    MAX_N,
    RAZE,
    _reduced,
    raze_wins,
    reduce_digits,
)

from gamecert.kit import smt
from gamecert.kit.claims import Claim, ClaimRefuted, Evidence
from gamecert.kit.game import ensure_recursion

#: plain minimax's reach (digit parities), and every digit string up to this length
REDUCTION_PARITY_N = GAME.minimax_reach
REDUCTION_DIGITS_N = 4
#: the rule is compared with the reduced search on every reachable state with this many digits
RULE_STATES_N = 60


def reachable(a: Any, b: Any, c: Any, d: Any, raze_to_move: Any, ops: Any) -> Any:
    """The states play reaches from a start: Raze to move with ``a + b - (c + d)`` in {0, 1},
    Breach to move with it in {-1, 0}; counts non-negative, at least one digit left."""
    s, t = a + b, c + d
    return ops.And(
        a >= 0,
        b >= 0,
        c >= 0,
        d >= 0,
        s + t >= 1,
        ops.If(raze_to_move, ops.Or(s == t, s == t + 1), ops.Or(s == t, s + 1 == t)),
    )


def _recurrence_holds(rule, a, b, c, d, raze, ops):
    """The reduced game's rules, as one formula over a state: start states are reachable, the
    mover can always move, moves keep states reachable, the end is judged by the last digit,
    and ``rule`` agrees with the best move of the player to move."""
    s, t = a + b, c + d
    here = reachable(a, b, c, d, raze, ops)
    terminal = s + t == 1
    raze_moves = [(a > 0, (a - 1, b, c, d)), (b > 0, (a, b - 1, c, d))]
    breach_moves = [(c > 0, (a, b, c - 1, d)), (d > 0, (a, b, c, d - 1))]
    start = ops.Implies(
        ops.And(a >= 0, b >= 0, c >= 0, d >= 0, s + t >= 1, ops.Or(s == t, s == t + 1)),
        reachable(a, b, c, d, True, ops),
    )
    can_move = ops.If(raze, s > 0, t > 0)
    keeps = ops.And(
        *[
            ops.Implies(ops.And(raze, legal), reachable(*after, False, ops))
            for legal, after in raze_moves
        ],
        *[
            ops.Implies(ops.And(ops.Not(raze), legal), reachable(*after, True, ops))
            for legal, after in breach_moves
        ],
    )
    end = rule(a, b, c, d, raze, ops) == (a + c == 1)
    best = ops.If(
        raze,
        ops.Or(*[ops.And(legal, rule(*after, False, ops)) for legal, after in raze_moves]),
        ops.And(*[ops.Implies(legal, rule(*after, True, ops)) for legal, after in breach_moves]),
    )
    step = rule(a, b, c, d, raze, ops) == best
    return ops.And(
        start, ops.Implies(here, ops.And(ops.If(terminal, end, ops.And(can_move, keeps, step))))
    )


def _reduction_inputs(parity_n: int, digits_n: int):
    """Every layout of odd (1) and even (2) digits with n <= ``parity_n``, then every number with
    n <= ``digits_n`` digits.

    >>> inputs = list(_reduction_inputs(2, 2))
    >>> inputs[:6], len(inputs), inputs.count("7"), len([x for x in inputs if len(x) == 2])
    (['1', '2', '11', '12', '21', '22'], 105, 1, 94)
    """
    for n in range(1, parity_n + 1):
        yield from ("".join(p) for p in itertools.product("12", repeat=n))
    for n in range(1, digits_n + 1):
        for first in "123456789":
            yield from (
                first + "".join(rest) for rest in itertools.product("0123456789", repeat=n - 1)
            )


def reduction_claim(
    parity_n: int = REDUCTION_PARITY_N, digits_n: int = REDUCTION_DIGITS_N
) -> Claim:
    """Exhaustive: the reduction to four counts agrees with plain minimax over whole positions.

    Guards the oracle and everything proved on the reduced game (see the module docstring for
    the symmetry argument that makes it exact for every n).
    """

    def check() -> Evidence:
        checked = 0
        for digits in _reduction_inputs(parity_n, digits_n):
            truth = GAME.minimax((digits,))[0]
            reduced = _reduced(*reduce_digits(digits), RAZE)
            if truth != reduced:
                raise ClaimRefuted(
                    "digit_game reduction",
                    digits,
                    f"minimax says {truth}, the reduced search {reduced}",
                )
            checked += 1
        return Evidence(
            "exhaustive",
            f"{checked} numbers (every digit-parity layout for n <= {parity_n}, every number for n <= {digits_n}): "
            "reduced search == plain minimax",
        )

    return Claim(
        "digit_game: reduction to four counts",
        "the outcome depends only on how many odd and even digits each player's positions hold",
        check,
        level="exhaustive",
    )


def rule_matches_search_claim(rule=raze_wins, up_to: int = RULE_STATES_N) -> Claim:
    """Exhaustive: the rule equals the reduced search on every reachable state with <= ``up_to`` digits.

    Guards the induction claim's encoding against a slip (both describe the same game).
    """

    def check() -> Evidence:
        with ensure_recursion(up_to):
            return checked_states()

    def checked_states() -> Evidence:
        checked = 0
        for total in range(1, up_to + 1):
            for a, b, c, d in _states(total):
                for raze in (True, False):
                    if not reachable(a, b, c, d, raze, smt.PY):
                        continue
                    search = _reduced(a, b, c, d, RAZE if raze else BREACH) == RAZE
                    if rule(a, b, c, d, raze, smt.PY) != search:
                        raise ClaimRefuted(
                            "digit_game rule",
                            (a, b, c, d, "Raze" if raze else "Breach"),
                            f"the reduced search says Raze {'wins' if search else 'loses'}",
                        )
                    checked += 1
        return Evidence(
            "exhaustive",
            f"{checked} reachable reduced states with 1..{up_to} digits: rule == reduced search",
        )

    return Claim(
        "digit_game: rule == reduced search (small states)",
        f"the closed rule gives the reduced game's outcome on every reachable state with at most {up_to} digits",
        check,
        level="exhaustive",
    )


def induction_claim(rule=raze_wins) -> Claim:
    """All sizes: the rule is the reduced game's outcome on every reachable state, any n.

    z3 proves, for symbolic counts ``a, b, c, d`` and player: start states are reachable; the
    player to move always has a legal mark (the statement's "it can be shown"); marks keep a
    state reachable; at one digit left the rule names the parity's winner; and elsewhere the rule
    equals the best over the mover's marks (Raze: some mark wins; Breach: every mark leaves a
    Raze win). By induction on the number of unmarked digits, rule == outcome. Guards the
    closed form for every n, which no search reaches.
    """

    def check() -> Evidence:
        result = smt.valid(
            ["a", "b", "c", "d", "raze"],
            ["int", "int", "int", "int", "bool"],
            lambda a, b, c, d, raze, ops: _recurrence_holds(rule, a, b, c, d, raze, ops),
            minimize=["a", "b", "c", "d"],
        )
        if not result.holds:
            cex = result.counterexample
            state = (cex["a"], cex["b"], cex["c"], cex["d"], "Raze" if cex["raze"] else "Breach")
            raise ClaimRefuted(
                "digit_game induction",
                state,
                "the rule does not satisfy the reduced game's recurrence here",
            )
        return Evidence(
            "all sizes",
            "induction on the number of unmarked digits; z3: 'reachable state and not (rule == best move)' is unsat, "
            "with start, legal-move, closure and end conditions; so the closed form holds for every n (n <= 1000 included)",
        )

    return Claim(
        "digit_game: closed rule for every n (z3 induction)",
        "Raze wins iff (n odd and an odd position holds an odd digit) or (n even and no even position holds an even digit)",
        check,
        level="all sizes",
    )


def solver_claim(max_n: int = MAX_N) -> Claim:
    """Bounded: ``fast/digit_game.py``'s ``closed_form`` code equals the proved rule on corner
    layouts of every ``n <= max_n``: 0, 1 or all odd digits in each position class, placed first
    or last within it (where a scan would stop early or late). Guards the solver's code. The
    range of ``n`` can be cut into slices checked apart (:meth:`Claim.slices`)."""

    def part(first: int, last: int):
        def check() -> Evidence:
            checked = 0
            for n in range(first, last + 1):
                for digits in _corner_layouts(n):
                    a, b, c, d = reduce_digits(digits)
                    want = RAZE if raze_wins(a, b, c, d, True, smt.PY) else BREACH
                    got = closed_form((digits,))[0]
                    if got != want:
                        raise ClaimRefuted(
                            "digit_game closed_form code",
                            n,
                            f"{digits[:30]}...: closed_form says {got}, the rule {want}",
                        )
                    checked += 1
            return Evidence(
                "bounded",
                f"{checked} corner layouts, every n in {first}..{last}: closed_form == proved rule",
            )

        return check

    return Claim(
        f"digit_game: closed_form code == rule (n <= {max_n})",
        "the fast solver's closed form computes the proved rule for every n the constraints allow (corner layouts)",
        part(1, max_n),
        level="bounded",
        span=(1, max_n),
        part=part,
        cost=lambda n: n,  # a layout of n digits costs about n
    )


def _states(total: int):
    for a in range(total + 1):
        for b in range(total - a + 1):
            for c in range(total - a - b + 1):
                yield a, b, c, total - a - b - c


def _corner_layouts(n: int):
    """Digit strings of length n (leading digit non-zero) with 0, 1 or all odd digits per class."""
    odd_slots, even_slots = (n + 1) // 2, n // 2
    seen = set()
    for odd_in_odd in {0, 1, odd_slots}:
        for odd_in_even in {0, 1, even_slots} if even_slots else {0}:
            for last in (False, True):
                cls = [_class(odd_slots, odd_in_odd, last), _class(even_slots, odd_in_even, last)]
                digits = "".join(cls[i % 2][i // 2] for i in range(n))
                if digits[0] == "0":
                    digits = "2" + digits[1:]
                if digits not in seen:
                    seen.add(digits)
                    yield digits


def _class(slots: int, odd: int, last: bool) -> str:
    marks = ["1"] * odd + ["0"] * (slots - odd)
    return "".join(reversed(marks)) if last else "".join(marks)


CLAIMS = [reduction_claim(), rule_matches_search_claim(), induction_claim(), solver_claim()]
