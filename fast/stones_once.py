"""stones_once's fast solvers: the closed form for one pile, xor over piles.

Closed form (checked, not assumed: ``proofs/stones_once.py`` compares it with the oracle's
search for every pile size 1..60, the whole constraint range): a fresh pile of ``s`` stones has
Grundy value ``k``, the largest ``k`` with ``1 + 2 + ... + k = k(k+1)/2 <= s``. Why it is
plausible: a pile can last at most ``k`` moves (the amounts are distinct), and the search shows
the value is exactly that maximum number of moves. Jon (second) wins iff the xor is 0.
"""

from __future__ import annotations

from collections import Counter
from functools import reduce
from math import isqrt
from operator import xor


def pile_value(s: int) -> int:
    """Largest ``k`` with ``k(k+1)/2 <= s``, from the quadratic formula with an exact square root.

    >>> [pile_value(s) for s in (1, 2, 3, 5, 6, 9, 10, 54, 55, 60)]
    [1, 1, 2, 2, 3, 3, 4, 9, 10, 10]
    """
    return (isqrt(8 * s + 1) - 1) // 2


def closed_form(piles: tuple[int, ...]) -> str:
    """Xor of :func:`pile_value` over the sizes seen an odd number of times.

    >>> closed_form((5,)), closed_form((1, 2))
    ('NO', 'YES')
    """
    total = 0
    for s, count in Counter(piles).items():
        if count & 1:
            total ^= pile_value(s)
    return "YES" if total == 0 else "NO"


def _most_moves(s: int) -> int:
    # take 1, then 2, then 3, ... while enough stones remain: the longest a pile can last
    k = 0
    while s >= k + 1:
        k += 1
        s -= k
    return k


def greedy_moves(piles: tuple[int, ...]) -> str:
    """Independent second solver: each pile's value is counted by taking 1, 2, 3, ... greedily,
    tabulated once for 0..60 and xored over every pile in one pass.

    >>> greedy_moves((5,)), greedy_moves((1, 2))
    ('NO', 'YES')
    """
    table = [_most_moves(s) for s in range(61)]
    return "NO" if reduce(xor, map(table.__getitem__, piles), 0) else "YES"


SOLVERS = {"closed_form": closed_form, "greedy_moves": greedy_moves}
