"""Values of a class, for the diagnosis's fresh inputs: a rule about a residue tried far away.

A rule the diagnosis learns may name a class of part values (``count[v%12=6] >= 1``: some heap
is 6 mod 12; ``count[bits=20]``; ``count[pow2]``; see :func:`gamecert.kit.features.value_classes`).
Its fresh inputs must hold values of that class far from the shrunk input's own (18, 30, 42 ...,
not 6 again), and a rule that names the shrunk input's own value (``count[6] >= 1``: some heap
is 6) must be tried against the other values of that value's classes before it is believed:

- :func:`class_values` reads the value classes a rule's tests name;
- :func:`draw_value` draws a value of one such class, anywhere up to the largest value seen;
- :func:`literal_values` the values a rule names literally (``count[6]``, ``max_value == 6``),
  and :func:`relatives` values that share a literal value's classes (its residues mod 2..16, its
  bit length) but are not it: the probes that tell a class from the shrunk input in disguise.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from gamecert.engine.judge.learn import Rule

#: a test on a value class (count[v%12=6], count[bits=20], count[ones=3], count[pow2], ...)
_CLASS = re.compile(r"^count\[(v%(\d+)=(\d+)|bits=(\d+)|ones=(\d+)|pow2|digits=(\d+)|dsum=(\d+))\]")
#: a test naming one value literally: count[6], adjacent[6], max_value/min_value == 6
_LITERAL = re.compile(r"^(?:count|adjacent|eqrun)\[(-?\d+)\]")

Pred = Callable[[int], bool]


def predicate(key: str) -> Pred | None:
    """The value test a class feature's key names (``v%12=6`` -> v % 12 == 6), or None.

    >>> [predicate("v%12=6")(v) for v in (6, 18, 7)], predicate("pow2")(64), predicate("x")
    ([True, True, False], True, None)
    """
    m = _CLASS.match(f"count[{key}]")
    if m is None:
        return None
    if m.group(2):
        k, r = int(m.group(2)), int(m.group(3))
        return lambda v: v % k == r
    if m.group(4):
        b = int(m.group(4))
        return lambda v: abs(v).bit_length() == b
    if m.group(5):
        p = int(m.group(5))
        return lambda v: bin(abs(v)).count("1") == p
    if m.group(6):
        d = int(m.group(6))
        return lambda v: len(str(abs(v))) == d
    if m.group(7):
        s = int(m.group(7))
        return lambda v: sum(map(int, str(abs(v)))) == s
    return lambda v: v > 0 and v & (v - 1) == 0


def class_values(rule: Rule) -> list[str]:
    """The keys of the value classes ``rule`` asks some part to be of (its ``count[CLASS] >= k``
    or ``== k`` tests with k >= 1, and their parities ``count[CLASS]%2 == 1``)."""
    out = []
    for t in rule.tests:
        name = t.name
        odd = name.endswith("%2")
        if odd:
            name = name[:-2]
        m = _CLASS.match(name)
        if m is None or not name.endswith("]"):
            continue
        wants = (t.value == 1 and t.op == "==") if odd else (t.op in (">=", "==") and t.value >= 1)
        if wants:
            out.append(m.group(1))
    return out


def draw_value(rng: random.Random, key: str, low: int, high: int) -> int | None:
    """A value of the class ``key`` in ``low..high``, drawn across the whole range (a residue's
    values uniform, a bit length's values uniform within it), or None if none is found."""
    test = predicate(key)
    if test is None or high < low:
        return None
    m = _CLASS.match(f"count[{key}]")
    assert m is not None
    if m.group(2):
        k, r = int(m.group(2)), int(m.group(3))
        first = low + (r - low) % k
        if first > high:
            return None
        return first + k * rng.randrange((high - first) // k + 1)
    if m.group(4):
        b = int(m.group(4))
        lo, hi = max(low, 1 << (b - 1) if b else 0), min(high, (1 << b) - 1)
        return rng.randint(lo, hi) if lo <= hi else None
    if key == "pow2":
        powers = [1 << e for e in range(high.bit_length() + 1) if low <= 1 << e <= high]
        return rng.choice(powers) if powers else None
    for _ in range(200):  # popcount, digits, digit sum: rejection over a log-uniform draw
        v = log_uniform(rng, low, high)
        if test(v):
            return v
    return None


def log_uniform(rng: random.Random, low: int, high: int) -> int:
    """A value in ``low..high``, its bit length uniform (small and large values both drawn)."""
    if high <= low:
        return low
    bits = rng.randint(max(1, low.bit_length()), max(1, high.bit_length()))
    lo, hi = max(low, 1 << (bits - 1)), min(high, (1 << bits) - 1)
    return rng.randint(lo, hi) if lo <= hi else rng.randint(low, high)


def literal_values(rule: Rule, numeric: bool) -> list[int]:
    """The part values ``rule`` names one by one (``count[6] >= 1``, ``max_value == 6``), where
    parts are numbers (a letter or a digit named is a class of its own, never a disguise)."""
    if not numeric:
        return []
    out = []
    for t in rule.tests:
        m = _LITERAL.match(t.name)
        if m and not t.name.endswith("%2") and t.op in (">=", "==") and t.value >= 1:
            out.append(int(m.group(1)))
        elif t.name in ("max_value", "min_value") and t.op == "==":
            out.append(t.value)
    return out


def relatives(rng: random.Random, value: int, low: int, high: int, n: int) -> list[int]:
    """Up to ``n`` values other than ``value`` that share one of its classes: the same residue
    mod k (k = 2..16, far from it), the same bit length, the same binary ones; in ``low..high``.

    >>> all(v != 6 and low <= v for v in relatives(random.Random(1), 6, 1, 10**6, 20) for low in (1,))
    True
    """
    out: list[int] = []
    for _ in range(20 * n):
        if len(out) >= n:
            break
        kind = rng.random()
        if kind < 0.6:
            k = rng.randint(2, 16)
            v = draw_value(rng, f"v%{k}={value % k}", low, high)
        elif kind < 0.8:
            v = draw_value(rng, f"bits={abs(value).bit_length()}", low, high)
        else:
            v = draw_value(rng, f"ones={bin(abs(value)).count('1')}", low, high)
        if v is not None and v != value and v not in out:
            out.append(v)
    return out


__all__ = [
    "class_values",
    "draw_value",
    "literal_values",
    "log_uniform",
    "predicate",
    "relatives",
]
