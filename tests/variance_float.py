"""tests/guided_wrong/stones_once/variance_float.c's fault in Python, in its own float
arithmetic (C floats, round to nearest even): for tests that need it in-process, thousands of
times (the shrinker's, the guided search's below a fault)."""

from __future__ import annotations

import struct
from collections import Counter

from oracles.stones_once import pile_grundy


def _f32(x: float) -> float:
    """``x`` rounded to a C float (round to nearest even); one operation of two floats done in
    double and rounded so is the float operation's result."""
    return struct.unpack("f", struct.pack("f", x))[0]


def says_constant(piles: tuple[int, ...]) -> bool:
    """tests/guided_wrong/stones_once/variance_float.c's test, in its own float arithmetic: the
    float variance of the piles is 0."""
    tally = Counter(piles)
    n = len(piles)
    total, squares = sum(v * k for v, k in tally.items()), sum(v * v * k for v, k in tally.items())
    mean = _f32(_f32(total) / _f32(n))
    return _f32(_f32(_f32(squares) / _f32(n)) - _f32(mean * mean)) == 0.0


def variance_float_fails(inst, text):
    """Whether variance_float.c answers ``inst`` wrong: its shortcut taken (the float variance 0)
    where the piles' Grundy values say otherwise."""
    if not says_constant(inst):
        return False
    says = pile_grundy(inst[0]) if len(inst) % 2 else 0
    xor = 0
    for v, k in Counter(inst).items():
        xor ^= pile_grundy(v) if k % 2 else 0
    return (says == 0) != (xor == 0)
