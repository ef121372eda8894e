"""Broken solvers for dawson_kayles, the octal game 0.07 added by its code alone.

(Using Dawson's chess values one heap late, G_0.137(n - 1), is not a bug: the two games'
sequences are shifts of each other, which tests/test_octal.py checks.)"""

from __future__ import annotations

from gamecert.kit.octal import OctalAnswer, OctalGame, _first_move_to
from tests.broken import Broken

GAME = OctalGame.parse("0.07")


def _solve(g, heaps, index_base=1):
    total = 0
    for h in heaps:
        total ^= g(h)
    if not total:
        return OctalAnswer("Second")
    for i, h in enumerate(heaps, index_base):
        move = _first_move_to(GAME.digits, g, h, g(h) ^ total)
        if move is not None:
            return OctalAnswer("First", (i, *move))
    return OctalAnswer("Second")


def _g(n):
    return GAME.periodicity().grundy(n)


def value_one_heap_ahead(heaps):
    # G(n + 1) looked up for a heap of n (a table indexed from 1 read from 0)
    return _solve(lambda n: _g(n + 1) if n else 0, heaps)


def zero_based_heap_index(heaps):
    return _solve(_g, heaps, index_base=0)


def period_seventeen(heaps):
    p = GAME.periodicity()
    return _solve(lambda n: p.grundy(n if n < p.preperiod else p.preperiod + (n - p.preperiod) % 17), heaps)


def heaps_capped_at_500(heaps):
    capped = tuple(min(h, 500) for h in heaps)  # a 500-entry table
    answer = _solve(_g, capped)
    return answer


def exceptions_dropped(heaps):
    p = GAME.periodicity()
    return _solve(lambda n: p.grundy(p.preperiod + (n - p.preperiod) % p.period) if n else 0, heaps)


BROKEN = {
    "value_one_heap_ahead": Broken(value_one_heap_ahead, "off-by-one", "G(n + 1) for G(n)"),
    "zero_based_heap_index": Broken(zero_based_heap_index, "wrong index base", "names heaps from 0"),
    "period_seventeen": Broken(period_seventeen, "wrong period", "period 17 instead of 34 past the preperiod"),
    "heaps_capped_at_500": Broken(heaps_capped_at_500, "large sizes only", "heaps over 500 looked up as 500"),
    "exceptions_dropped": Broken(exceptions_dropped, "wrong period", "the exceptions before periodicity dropped"),
}
