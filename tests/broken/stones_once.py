"""Broken stones_once solvers."""

from __future__ import annotations

from math import isqrt

from gamecert.fast.stones_once import pile_value

from tests.broken import Broken


def _answer(values):
    total = 0
    for v in values:
        total ^= v
    return "YES" if total == 0 else "NO"


def strict_triangle(piles):
    # largest k with k(k+1)/2 < s: one too small exactly at triangular numbers
    return _answer((isqrt(8 * s - 7) - 1) // 2 for s in piles)


def from_zero(piles):
    # counts moves 0, 1, 2, ... as if an amount of 0 could be taken
    return _answer((isqrt(8 * s + 1) + 1) // 2 for s in piles)


def many_piles_by_parity(piles):
    if len(piles) > 50_000:  # "too many piles to xor": a shortcut left in
        return "YES" if len(piles) % 2 == 0 else "NO"
    return _answer(pile_value(s) for s in piles)


def table_stops_at_nine(piles):
    return _answer(min(pile_value(s), 9) for s in piles)


def sum_instead_of_xor(piles):
    return "YES" if sum(pile_value(s) for s in piles) % 2 == 0 else "NO"


BROKEN = {
    "strict_triangle": Broken(strict_triangle, "off-by-one", "k(k+1)/2 < s instead of <=: wrong at triangular numbers"),
    "from_zero": Broken(from_zero, "wrong index base", "move amounts counted from 0"),
    "many_piles_by_parity": Broken(many_piles_by_parity, "large sizes only", "over 50,000 piles judged by their count"),
    "table_stops_at_nine": Broken(table_stops_at_nine, "rare structure", "pile values capped at 9 (piles of 55..60 wrong)"),
    "sum_instead_of_xor": Broken(sum_instead_of_xor, "wrong rules", "adds pile values instead of xoring them"),
}
