"""Every use of the z3 SMT solver, behind a few purpose-built checks (the only module importing z3).

Claims in ``proofs/`` write their rules and closed forms once, as functions over an *ops*
object (:data:`PY` for plain Python values, the z3 terms here for symbols), so the very same
definition is evaluated on concrete positions and reasoned about symbolically:

>>> def closed(c, ops):
...     return ops.If(c == 0, 0, ops.If(c % 3 == 0, 3, c % 3))
>>> closed(6, PY), closed(7, PY)
(3, 1)

The checks:

- :func:`mex_recurrence`: a heap game's Grundy recurrence ``g(n) = mex{xor of g over the heaps an
  option leaves}`` for ``n = 0..N`` with mex written as constraints; it returns the recurrence's
  solution and whether a claimed sequence is its *only* solution (``recurrence and not claim``
  is unsat).
- :func:`mex_induction_step`: the step of a strong induction on a symbolic heap size ``c`` for a
  one-heap game whose options are ``c - d`` or constants: if the closed form holds below ``c``,
  the mex constraints force it at ``c``. Returns the smallest ``c`` where the step fails, if any.
- :func:`valid`: is a formula over integer and Boolean symbols true for every value (its negation
  unsat)? Returns a counterexample otherwise (smallest in the order of the given symbols).
- :func:`satisfy`: integers within bounds meeting a set of conditions (the guided search's
  conditions recorded from a candidate's run, :mod:`gamecert.engine.judge.guided_solve`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from gamecert.errors import GamecertError


class SmtError(GamecertError):
    """The solver answered ``unknown``, or an encoding is not what a check needs."""


class _PyOps:
    """The ops of plain Python values (a claim's functions evaluated on concrete positions)."""

    @staticmethod
    def If(cond: Any, then: Any, other: Any) -> Any:  # noqa: N802 - mirrors z3's name
        return then if cond else other

    @staticmethod
    def And(*args: Any) -> bool:  # noqa: N802
        return all(args)

    @staticmethod
    def Or(*args: Any) -> bool:  # noqa: N802
        return any(args)

    @staticmethod
    def Not(arg: Any) -> bool:  # noqa: N802
        return not arg

    @staticmethod
    def Implies(a: Any, b: Any) -> bool:  # noqa: N802
        return (not a) or bool(b)


class _Z3Ops:
    """The same ops building z3 terms."""

    If = staticmethod(z3.If)
    And = staticmethod(z3.And)
    Or = staticmethod(z3.Or)
    Not = staticmethod(z3.Not)
    Implies = staticmethod(z3.Implies)


PY = _PyOps()
SYM = _Z3Ops()


def _check(solver: z3.Solver | z3.Optimize, what: str) -> z3.CheckSatResult:
    result = solver.check()
    if result == z3.unknown:
        raise SmtError(f"z3 could not decide {what}: {solver.reason_unknown()}")
    return result


# ---- heap games: the Grundy recurrence on a bounded range ----------------------------------------


@dataclass(frozen=True)
class RecurrenceResult:
    """What z3 says about a mex recurrence on ``0..n_max``."""

    n_max: int
    #: the recurrence's solution as far as it was followed, read from z3's models
    solution: tuple[int, ...]
    #: first ``n`` where the claimed sequence differs from the solution, or None
    first_mismatch: int | None
    #: "recurrence and not claim" was unsat (block by block): the claim is the only solution
    unique: bool
    #: number of asserted constraints, and of blocks the range was solved in
    constraints: int
    blocks: int


def mex_recurrence(
    n_max: int,
    options: Callable[[int], Sequence[tuple[int, ...]]],
    claimed: Callable[[int], int],
    value_bits: int = 8,
    block: int | None = None,
) -> RecurrenceResult:
    """Encode ``g(n) = mex{g(h1) ^ g(h2) ^ ... : (h1, h2, ...) in options(n)}`` for ``n <= n_max``.

    Each ``g(n)`` is a ``value_bits``-bit vector (xor is native there). Mex as constraints:
    ``g(n)`` differs from every option's value, and every value below ``g(n)`` is some option's
    value. The encoding also asserts ``g(n) <= min(#options(n), 2**value_bits - 1)``: a mex never
    exceeds the number of options, and if a true value needed more bits the recurrence would be
    unsat, which is reported, never passed over. For each block of sizes (the whole range unless
    ``block`` is given), two questions, with the sizes before the block fixed to the values
    already shown to be the only solution there:

    1. ``recurrence`` alone is sat; its model is the solution (the recurrence determines it);
    2. ``recurrence and g(n) != claimed(n) for some n in the block`` is unsat.

    Blocks are a strong induction over the range: each is solved given the ones before it.

    >>> r = mex_recurrence(6, lambda n: [(n - 1,)] if n else [], lambda n: n % 2)
    >>> r.solution, r.first_mismatch, r.unique
    ((0, 1, 0, 1, 0, 1, 0), None, True)
    >>> mex_recurrence(6, lambda n: [(n - 1,)] if n else [], lambda n: n % 2 * (n != 5)).first_mismatch
    5
    """
    top = (1 << value_bits) - 1
    step = block or n_max + 1
    solution: list[int] = []
    count = blocks = 0

    def lit(m: int) -> str:
        return f"(_ bv{m} {value_bits})"

    def term(h: int, low: int) -> str:
        return lit(solution[h]) if h < low else f"g{h}"

    for low in range(0, n_max + 1, step):
        high = min(n_max + 1, low + step)
        blocks += 1
        text = [f"(declare-const g{n} (_ BitVec {value_bits}))" for n in range(low, high)]
        for n in range(low, high):
            values = []
            for heaps in sorted({tuple(sorted(o)) for o in options(n)}):
                if any(not 0 <= h < n for h in heaps):
                    raise SmtError(
                        f"option {heaps} of heap {n} is not a smaller heap: the recurrence is not well founded"
                    )
                t = lit(0)
                for h in heaps:
                    t = term(h, low) if t == lit(0) else f"(bvxor {t} {term(h, low)})"
                values.append(t)
            cap = min(len(values), top)
            text.append(f"(assert (bvule g{n} {lit(cap)}))")
            text.extend(f"(assert (not (= g{n} {v})))" for v in values)
            for m in range(cap):  # every value below g(n) is some option's value
                text.append(
                    f"(assert (=> (bvult {lit(m)} g{n}) (or {' '.join(f'(= {v} {lit(m)})' for v in values)})))"
                )
            count += len(values) + cap + 1
        solver = z3.SolverFor("QF_BV")
        solver.add(z3.parse_smt2_string("\n".join(text)))
        g = {n: z3.BitVec(f"g{n}", value_bits) for n in range(low, high)}
        if _check(solver, f"the recurrence on {low}..{high - 1}") != z3.sat:
            raise SmtError(
                f"the mex recurrence on {low}..{high - 1} has no solution with values below {top + 1}: "
                "raise value_bits, or the encoding is wrong"
            )
        model = solver.model()
        solution.extend(model.eval(g[n], model_completion=True).as_long() for n in range(low, high))
        mismatch = next((n for n in range(low, high) if solution[n] != claimed(n)), None)
        if mismatch is not None:
            return RecurrenceResult(n_max, tuple(solution), mismatch, False, count, blocks)
        solver.add(z3.Or([g[n] != solution[n] for n in range(low, high)]))
        if _check(solver, f"uniqueness on {low}..{high - 1}") == z3.sat:
            raise SmtError(
                f"the mex encoding on {low}..{high - 1} admits two solutions: it is wrong"
            )
    return RecurrenceResult(n_max, tuple(solution), None, True, count, blocks)


# ---- one-heap games: induction on a symbolic size ---------------------------------------------


@dataclass(frozen=True)
class InductionResult:
    """The induction step for ``c >= start``; ``counterexample`` is the smallest failing ``c``."""

    start: int
    holds: bool
    counterexample: int | None
    detail: str


def mex_induction_step(
    options: Callable[[Any], Sequence[Any]],
    closed_form: Callable[[Any, Any], Any],
    start: int,
) -> InductionResult:
    """Strong-induction step for a one-heap game, on a symbolic heap size ``c >= start``.

    ``options(c)`` gives the heap sizes one move leaves (integer terms in ``c``, such as
    ``c - 1`` or ``0``); ``closed_form(c, ops)`` the claimed Grundy value. Hypothesis: the
    closed form holds at every size below ``c`` (so at each option, once each option is shown
    to lie in ``[0, c)``). Conclusion: any ``x`` meeting the mex constraints over the options'
    closed-form values equals ``closed_form(c)``. Checked by asserting the hypothesis, the mex
    constraints and ``x != closed_form(c)``, expecting unsat; if sat, z3 minimises ``c``.

    >>> r = mex_induction_step(lambda c: [c - 1], lambda c, ops: c % 2, 1)
    >>> r.holds
    True
    >>> mex_induction_step(lambda c: [c - 1], lambda c, ops: ops.If(c < 5, c % 2, 0), 1).counterexample
    5
    """
    c = z3.Int("c")
    opts = list(options(c))
    # each option is a smaller size, never negative: the hypothesis applies to it
    for o in opts:
        bad = z3.Solver()
        bad.add(c >= start, z3.Or(o < 0, o >= c))
        if _check(bad, f"option {o} lies in [0, c)") == z3.sat:
            raise SmtError(
                f"option {o} of a heap of size c is not in [0, c) for some c >= {start}: {bad.model()}"
            )
    values = [closed_form(o, SYM) for o in opts]
    x = z3.Int("x")
    mex = [x >= 0, x <= len(values)] + [x != v for v in values]
    mex += [z3.Implies(m < x, z3.Or([v == m for v in values])) for m in range(len(values))]
    opt = z3.Optimize()
    opt.add(c >= start, *mex, x != closed_form(c, SYM))
    opt.minimize(c)
    if _check(opt, "the induction step") == z3.unsat:
        return InductionResult(
            start, True, None, f"step from {len(opts)} options unsat for every c >= {start}"
        )
    model = opt.model()
    cex = model.eval(c).as_long()
    return InductionResult(
        start, False, cex, f"at c = {cex}, the mex is {model.eval(x)}, not the closed form"
    )


# ---- formulas over integers and Booleans ----------------------------------------------------


@dataclass(frozen=True)
class Validity:
    holds: bool
    #: values of the symbols falsifying the formula (None when it holds)
    counterexample: dict[str, Any] | None


def valid(
    names: Sequence[str],
    kinds: Sequence[str],
    formula: Callable[..., Any],
    minimize: Sequence[str] = (),
) -> Validity:
    """Is ``formula(*symbols, ops)`` true for every value of the symbols?

    ``kinds`` are ``"int"`` or ``"bool"``. Checked as: the negation is unsat. A counterexample is
    minimised in the ``minimize`` symbols (lexicographically, in order).

    >>> valid(["n"], ["int"], lambda n, ops: ops.Implies(n >= 1, n * 2 >= n + 1)).holds
    True
    >>> valid(["n"], ["int"], lambda n, ops: ops.Implies(n >= 0, n != 3), minimize=["n"]).counterexample
    {'n': 3}
    """
    makers = {"int": z3.Int, "bool": z3.Bool}
    symbols = [makers[k](name) for name, k in zip(names, kinds, strict=True)]
    opt = z3.Optimize()
    opt.add(z3.Not(formula(*symbols, SYM)))
    by_name = dict(zip(names, symbols, strict=True))
    for name in minimize:
        opt.minimize(by_name[name])
    if _check(opt, "validity") == z3.unsat:
        return Validity(True, None)
    model = opt.model()
    values: dict[str, Any] = {}
    for name, sym in by_name.items():
        val = model.eval(sym, model_completion=True)
        values[name] = z3.is_true(val) if z3.is_bool(val) else val.as_long()
    return Validity(False, values)


# ---- the guided search: integers that meet recorded conditions ----------------------------------


def satisfy(
    bounds: dict[str, tuple[int, int]],
    formula: Callable[[dict[str, Any], Any], list[Any]],
    timeout_ms: int = 500,
) -> dict[str, int] | None:
    """Integers, one per name of ``bounds`` and each within its (low, high), that make every
    term of ``formula(symbols, ops)`` true; None where there are none, or z3 did not decide within
    ``timeout_ms`` (the guided search then tries something else: an answer here only steers it).

    >>> satisfy({"a": (1, 60), "b": (1, 60)}, lambda s, ops: [s["a"] * s["a"] + s["b"] == 3601])
    {'a': 60, 'b': 1}
    >>> satisfy({"a": (1, 60)}, lambda s, ops: [s["a"] % 7 == 9]) is None
    True
    """
    symbols = {name: z3.Int(name) for name in bounds}
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    for name, (low, high) in bounds.items():
        solver.add(symbols[name] >= low, symbols[name] <= high)
    solver.add(*formula(symbols, SYM))
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    return {name: model.eval(sym, model_completion=True).as_long() for name, sym in symbols.items()}
