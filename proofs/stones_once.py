"""Claims about stones_once, and the checks that give them their evidence.

1. ``pile closed form``: the oracle's search value of a fresh pile of ``s`` stones equals the
   fast solvers' closed form (largest ``k`` with ``k(k+1)/2 <= s``) for every ``s`` in 1..60.
   That is every pile size the constraints allow, so the check is the whole statement.
2. ``xor rule``: the piles are independent (a move changes one pile, and what it may take there
   depends on that pile's history alone), so by the Sprague-Grundy theorem a position is lost
   for the player to move iff the xor of its piles' values is 0. Checked against a plain minimax
   over whole positions, which knows nothing of Grundy values, on every multiset of piles with
   up to ``minimax_reach`` stones in all.
3. ``answer rule``: for every valid input, Jon (second) wins iff the xor of the closed form over
   the piles is 0. It follows from 1 and 2 with the theorem; its check re-runs both, so it can
   only pass when they do.
"""

from __future__ import annotations

from gamecert.fast.stones_once import pile_value
from gamecert.oracles.stones_once import GAME, MAX_S, multisets_of_total, pile_grundy

from gamecert.kit.claims import Claim, ClaimRefuted, Evidence


def check_pile_closed_form() -> Evidence:
    for s in range(1, MAX_S + 1):
        searched, formula = pile_grundy(s), pile_value(s)
        if searched != formula:
            raise ClaimRefuted(
                "pile closed form", s, f"the search gives {searched}, the closed form {formula}"
            )
    return Evidence(
        "exhaustive",
        f"every pile size 1..{MAX_S} (the whole constraint range): the oracle's search over "
        "(stones left, amounts taken) equals the largest k with k(k+1)/2 <= s",
    )


def check_xor_rule() -> Evidence:
    reach = GAME.minimax_reach
    checked = 0
    for total in range(1, reach + 1):
        for piles in multisets_of_total(total):
            checked += 1
            by_minimax, by_xor = GAME.minimax(piles), GAME.oracle(piles)
            if by_minimax != by_xor:
                raise ClaimRefuted(
                    "xor rule",
                    piles,
                    f"minimax over whole positions says {by_minimax}, the xor of pile values {by_xor}",
                )
    return Evidence(
        "exhaustive",
        f"all {checked} multisets of piles with up to {reach} stones in all: plain minimax over whole "
        "positions agrees with the xor of the piles' values (the Sprague-Grundy sum)",
    )


def check_answer_rule() -> Evidence:
    piles = check_pile_closed_form()
    xor = check_xor_rule()
    return Evidence(
        "all sizes",
        "every valid input (1 <= n <= 10**6 piles of 1..60 stones): the Sprague-Grundy theorem "
        "(Sprague 1935, Grundy 1939) gives the position's value as the xor of independent piles' "
        f"values; those values are the closed form by [{piles.describe()}]; the sum rule is "
        f"cross-checked by [{xor.describe()}]",
    )


CLAIMS = [
    Claim(
        "pile closed form",
        "for every pile size s in 1..60, the Grundy value of a fresh pile is the largest k with k(k+1)/2 <= s",
        check_pile_closed_form,
        level="exhaustive",
    ),
    Claim(
        "xor rule",
        "a position is lost for the player to move iff the xor of its piles' Grundy values is 0",
        check_xor_rule,
        level="exhaustive",
    ),
    Claim(
        "answer rule",
        "for every valid input, the answer is YES iff the xor of the closed form over the piles is 0",
        check_answer_rule,
        level="all sizes",
    ),
]
