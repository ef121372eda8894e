"""A small readable classifier over input features: a conjunction of feature tests.

:func:`learn` grows one conjunction greedily (FOIL's gain: each test keeps as many failing
inputs and drops as many passing ones as it can), at most :data:`MAX_TESTS` tests, then drops
every test whose removal lets no more passing input in. A test is ``feature >= t``,
``feature <= t`` or ``feature == t`` with ``t`` a value some failing input has. Ties go to the
plainer feature (structure before per-value counts, before parities, before derived numbers).
:func:`differences` lists the features that differ most between failing and passing inputs,
for a diagnosis that found no rule. :func:`parse_rule` reads a rule back from its text (the
``# class:`` header of a wrong program says its class this way).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gamecert.kit.features import get, literal_words

#: tests in a learned conjunction, at most
MAX_TESTS = 5
_OPS = (">=", "<=", "==")


@dataclass(frozen=True)
class Condition:
    """One feature test: ``name op value``."""

    name: str
    op: str
    value: int

    def holds(self, features: Mapping[str, int]) -> bool:
        v = get(features, self.name)
        if self.op == ">=":
            return v >= self.value
        if self.op == "<=":
            return v <= self.value
        return v == self.value

    def text(self) -> str:
        return f"{self.name} {self.op} {self.value}"


@dataclass(frozen=True)
class Rule:
    """A conjunction of tests (no tests: every input)."""

    tests: tuple[Condition, ...]

    def holds(self, features: Mapping[str, int]) -> bool:
        return all(t.holds(features) for t in self.tests)

    def text(self) -> str:
        return " and ".join(t.text() for t in self.tests) or "true"

    def words(self, part: str = "part", measure: str = "") -> str:
        return (
            ", and ".join(literal_words(t.name, t.op, t.value, part, measure) for t in self.tests)
            or "always"
        )


_TEST = re.compile(r"^\s*(\S+)\s*(>=|<=|==)\s*(-?\d+)\s*$")


def parse_rule(text: str) -> Rule:
    """A rule from its text.

    >>> parse_rule("mult[7] >= 1 and distinct >= 3").tests[1]
    Condition(name='distinct', op='>=', value=3)
    >>> parse_rule("count[Z]%2 == 1").text()
    'count[Z]%2 == 1'
    """
    tests = []
    for piece in re.split(r"\s+and\s+", text.strip()):
        m = _TEST.match(piece)
        if m is None:
            raise ValueError(
                f"not a feature test: {piece!r} (write NAME >= N, NAME <= N or NAME == N)"
            )
        tests.append(Condition(m.group(1), m.group(2), int(m.group(3))))
    return Rule(tuple(tests))


def rank(name: str) -> int:
    """How plain a feature is (lower: preferred on a tie)."""
    if "." in name or re.search(r"%(?!2$)\d+$", name) or name.startswith("bytes"):
        return 3
    if name.endswith("%2"):
        return 2
    if "[" in name:
        return 1
    return 0


def _gain(p: int, n: int, big_p: int, big_n: int) -> float:
    return p * (math.log2((p + 1) / (p + n + 2)) - math.log2((big_p + 1) / (big_p + big_n + 2)))


class _Columns:
    """The rows' features by name, kept sparse: each name's rows where its value is not 0 (most
    keyed counts are 0 on most rows: a near-constant input's thousands of piles name thousands
    of features, each on a few rows). Counting a test's rows costs the nonzero entries only;
    the zeros are what is left of the rows counted."""

    def __init__(self, rows: Sequence[Mapping[str, int]]) -> None:
        self.n = len(rows)
        nonzero: dict[str, list[tuple[int, int]]] = {}
        for i, row in enumerate(rows):
            for name, v in row.items():
                if v:
                    nonzero.setdefault(name, []).append((i, v))
        # every name of the rows, the ones only ever 0 included (as a dense column has them)
        names = {name for row in rows for name in row}
        self.nonzero = {name: nonzero.get(name, []) for name in sorted(names)}

    def __iter__(self) -> Any:
        return iter(self.nonzero)

    def tally(
        self, name: str, inside: bytearray, labels: Sequence[bool], big_p: int, big_n: int
    ) -> tuple[dict[int, int], dict[int, int]]:
        """The failing and the passing rows of ``inside`` by the value of ``name``."""
        pos: dict[int, int] = {}
        neg: dict[int, int] = {}
        for i, v in self.nonzero[name]:
            if inside[i]:
                if labels[i]:
                    pos[v] = pos.get(v, 0) + 1
                else:
                    neg[v] = neg.get(v, 0) + 1
        zero_p, zero_n = big_p - sum(pos.values()), big_n - sum(neg.values())
        if zero_p:
            pos[0] = zero_p
        if zero_n:
            neg[0] = zero_n
        return pos, neg


def _best_tests(
    columns: _Columns,
    labels: Sequence[bool],
    covered: list[int],
    used: set[tuple[str, str]],
    top: int = 1,
) -> list[Condition]:
    """The ``top`` tests of best gain on the ``covered`` rows (each drops some passing row)."""
    on = _Covered(columns.n, labels, covered)
    found = [best for name in columns if (best := _best_of(columns, name, on, used)) is not None]
    found.sort(key=lambda x: x[0], reverse=True)
    return [t for _, t, _ in found[:top]]


class _Covered:
    """Rows a test is chosen on: which (a mask), their labels, how many fail and pass."""

    def __init__(self, n: int, labels: Sequence[bool], covered: list[int]) -> None:
        self.labels = labels
        self.big_p = sum(1 for i in covered if labels[i])
        self.big_n = len(covered) - self.big_p
        self.inside = bytearray(n)
        for i in covered:
            self.inside[i] = 1


def _best_of(
    columns: _Columns, name: str, on: _Covered, used: set[tuple[str, str]]
) -> tuple[Any, Condition, tuple[int, int]] | None:
    """The best test of the feature ``name`` on the rows ``on`` (its key, for the order; the
    test; the failing and the passing rows it holds for), or None where none gains (each drops
    some passing row)."""
    big_p, big_n = on.big_p, on.big_n
    pos, neg = columns.tally(name, on.inside, on.labels, big_p, big_n)
    if not pos:
        return None
    values = sorted(set(pos) | set(neg))
    # thresholds: cumulative counts from below (<=) and from above (>=)
    below_p = below_n = 0
    cum: dict[int, tuple[int, int]] = {}
    for v in values:
        below_p += pos.get(v, 0)
        below_n += neg.get(v, 0)
        cum[v] = (below_p, below_n)
    best: tuple[Any, Condition, tuple[int, int]] | None = None
    for v in pos:
        le_p, le_n = cum[v]
        eq_p, eq_n = pos[v], neg.get(v, 0)
        ge_p, ge_n = big_p - le_p + eq_p, big_n - le_n + eq_n
        for op, p, n in ((">=", ge_p, ge_n), ("<=", le_p, le_n), ("==", eq_p, eq_n)):
            if n == big_n or (name, op) in used:
                continue  # drops no passing input
            key = (round(_gain(p, n, big_p, big_n), 9), -rank(name), op != "==", -n, name, op, v)
            if best is None or key > best[0]:
                best = (key, Condition(name, op, v), (p, n))
    return best if best is not None and best[0][0] > 0 else None


def _best_test(
    columns: _Columns,
    labels: Sequence[bool],
    covered: list[int],
    used: set[tuple[str, str]],
) -> Condition | None:
    tests = _best_tests(columns, labels, covered, used)
    return tests[0] if tests else None


#: the beam search keeps this many partial conjunctions, each grown by this many best tests
BEAM = 6


def learn(
    rows: Sequence[Mapping[str, int]],
    labels: Sequence[bool],
    max_tests: int = MAX_TESTS,
    until: float | None = None,
) -> Rule | None:
    """The conjunction that best separates the failing rows (``labels`` True) from the passing
    ones (a beam search over conjunctions grown test by test, by FOIL's gain); None when no test
    helps (no failing row, or none that any test sets apart). Past ``until`` (a
    :func:`time.monotonic` value) the conjunctions grow no further: the best of those grown is
    the rule (one test at least)."""
    if not any(labels):
        return None
    columns = _Columns(rows)
    beam: list[tuple[tuple[Condition, ...], list[int]]] = [((), list(range(len(rows))))]
    root = (sum(1 for y in labels if y), sum(1 for y in labels if not y))
    done: list[tuple[tuple[Condition, ...], list[int]]] = []
    seen: set[frozenset[Condition]] = set()
    for _ in range(max_tests):
        grown = []
        for tests, covered in beam:
            if all(labels[i] for i in covered):
                done.append((tests, covered))
                continue
            used = {(t.name, t.op) for t in tests}
            for test in _best_tests(columns, labels, covered, used, BEAM):
                key = frozenset((*tests, test))
                if key in seen:
                    continue
                seen.add(key)
                grown.append(((*tests, test), [i for i in covered if test.holds(rows[i])]))
        if not grown:
            break
        grown.sort(key=lambda x: _score(x[1], labels, root), reverse=True)
        beam = grown[:BEAM]
        if until is not None and time.monotonic() >= until:
            break
    done += [b for b in beam if b[0]]
    if not done:
        return None

    def final(item: tuple[tuple[Condition, ...], list[int]]) -> tuple[int, int, int]:
        tests, covered = item
        p = sum(1 for i in covered if labels[i])
        n = len(covered) - p
        return (p - 10 * n, -len(tests), -sum(rank(t.name) for t in tests))

    tests, _ = max(done, key=final)
    return _plainer(_pruned(list(tests), rows, labels), columns, rows, labels)


def _plainer(
    rule: Rule,
    columns: _Columns,
    rows: Sequence[Mapping[str, int]],
    labels: Sequence[bool],
) -> Rule:
    """Each test replaced by a plainer one (a lower :func:`rank`) where that separates the rows
    at least as well, the other tests kept: a derived number that happens to split the inputs
    tried gives way to the structure's own count that splits them as well."""

    def score(tests: Sequence[Condition]) -> int:
        p = n = 0
        for row, y in zip(rows, labels):
            if all(t.holds(row) for t in tests):
                p, n = (p + 1, n) if y else (p, n + 1)
        return p - 10 * n

    tests = list(rule.tests)
    for k in range(len(tests)):
        others = tests[:k] + tests[k + 1 :]
        covered = [i for i, row in enumerate(rows) if all(t.holds(row) for t in others)]
        current = score(tests)
        used = {(t.name, t.op) for t in others}
        for alt in _best_tests(columns, labels, covered, used, 40):
            if rank(alt.name) < rank(tests[k].name) and score([*others, alt]) >= current:
                tests[k] = alt
                break
    return Rule(tuple(tests))


def _score(covered: list[int], labels: Sequence[bool], root: tuple[int, int]) -> float:
    """FOIL's gain of a conjunction over no test at all."""
    p = sum(1 for i in covered if labels[i])
    return _gain(p, len(covered) - p, *root)


def _pruned(
    tests: list[Condition], rows: Sequence[Mapping[str, int]], labels: Sequence[bool]
) -> Rule:
    """Tests dropped, last first, while dropping one lets in no more passing rows."""

    def negatives(ts: list[Condition]) -> int:
        return sum(1 for row, y in zip(rows, labels) if not y and all(t.holds(row) for t in ts))

    kept = list(tests)
    base = negatives(kept)
    for t in reversed(tests):
        trial = [x for x in kept if x is not t]
        if trial and negatives(trial) <= base:
            kept = trial
    return Rule(tuple(kept))


def differences(
    rows: Sequence[Mapping[str, int]],
    labels: Sequence[bool],
    top: int = 5,
    until: float | None = None,
) -> list[dict[str, Any]]:
    """The features whose values differ most between failing and passing rows: for each, the
    single test that best separates them (by FOIL's gain), with the share of failing and of
    passing rows it holds for; the ``top`` best, plainest first on a tie. The features are
    looked at plainest first, none past ``until`` (a :func:`time.monotonic` value)."""
    if not any(labels) or all(labels):
        return []
    columns = _Columns(rows)
    out = []
    everyone = list(range(len(rows)))
    fails = sum(labels)
    passes = len(labels) - fails
    on = _Covered(columns.n, labels, everyone)
    for name in sorted(columns, key=lambda name: (rank(name), name)):
        if until is not None and time.monotonic() >= until:
            break
        best = _best_of(columns, name, on, set())
        if best is None:
            continue
        _, test, (f, p) = best
        out.append((f / fails - p / passes, -rank(name), test, f, p))
    out.sort(key=lambda x: (x[0], x[1]), reverse=True)
    return [
        {"test": t.text(), "failing": f, "of_failing": fails, "passing": p, "of_passing": passes}
        for _, _, t, f, p in out[:top]
    ]


__all__ = ["MAX_TESTS", "Rule", "Condition", "differences", "learn", "parse_rule", "rank"]
