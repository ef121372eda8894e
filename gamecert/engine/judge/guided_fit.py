"""The guided search's relations fitted to a native candidate's comparisons (issue 47): where a
C or C++ program compares a value it derives from the input with a constant (a sum of squares
with 300, a count's residue with 3), GCC's trace-cmp gives the two operands but not how the one
was derived. The runs say it: over the kept inputs, an operand that is every time a simple
function of one game's numbers (its count, the sum of its values, of their squares or cubes,
their product, greatest, least, or a residue of one of these modulo 2..:data:`MODULI`), while
the other operand stays the same, is taken for that function compared with that constant.

The relations fitted are then met together where they can be (z3,
:func:`gamecert.kit.smt.satisfy`): the count set first to the nearest that meets the relations
on counts, then the values of that many parts, within the structure's bounds, to meet the
others; then each relation alone, with the count's. Equalities only: a constant is the value a
comparison waits for (``==``), and an inequality's boundary is input to state's.

:class:`Fitted` is a part of :class:`gamecert.engine.judge.guided.Search`; its candidates are
made when run.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

#: residues tried (the modulus is not in the comparison: GCC folds it into the code)
MODULI = 32
#: observations kept per constant; runs a relation must have matched, with distinct operands
OBSERVED, AGREE = 24, 2
#: the values of a game read (more are left as they are); parts set free at once at most (all,
#: or FREE in TRIES draws where a relation is not linear); the greatest count of a game an
#: observed input holds
READ, FREE_ALL, FREE, TRIES, SMALL = 4096, 64, 6, 2, 256
#: z3's time per question (milliseconds); candidates per kept input
FIT_MS, CANDIDATES = 300, 8

State = list[tuple[Any, ...]]

FUNCTIONS = ("count", "sum", "squares", "cubes", "product", "max", "min")


def features(values: list[int]) -> dict[str, int]:
    """The functions of one game's values a relation may be.

    >>> features([0, 3, 4])["squares"], features([2, 5])["product"]
    (25, 10)
    """
    product = 1
    for v in values[:64]:
        product = product * v if abs(product) < 1 << 62 else product
    return {
        "count": len(values),
        "sum": sum(values),
        "squares": sum(v * v for v in values),
        "cubes": sum(v * v * v for v in values),
        "product": product if len(values) <= 64 else -1,
        "max": max(values, default=0),
        "min": min(values, default=0),
    }


def fits(
    observed: list[tuple[list[dict[str, int]], int]], constants: set[int]
) -> list[tuple[str, int, int]]:
    """The relations ``(function, modulus, constant)`` (modulus 0: the value itself) under
    which every observation's distance is that of the function of one of its games from the
    constant (one of ``constants``), over at least :data:`AGREE` distinct distances.

    >>> fits([([{"count": 10, "sum": 45}], 0), ([{"count": 11, "sum": 50}], 1)], {3, 99})
    [('count', 7, 3), ('sum', 6, 3)]
    """
    if len({d for _, d in observed}) < AGREE:
        return []
    out = []
    first, d0 = observed[0]
    for name in FUNCTIONS:
        for m in (0, *range(2, MODULI + 1)):
            at = {(g[name] % m if m else g[name]) for g in first if name in g}
            for c in sorted({v + s for v in at for s in (d0, -d0)} & constants):
                if (m == 0 or 0 <= c < m) and all(
                    any(abs((g[name] % m if m else g[name]) - c) == d for g in games if name in g)
                    for games, d in observed[1:]
                ):
                    out.append((name, m, c))
    return out


class Fitted:
    """The fitted relations' candidates on the search's state (see the module's words)."""

    st: Any
    rng: Any
    game: Any
    put: Callable[[State, tuple[Any, ...], int], State | None]
    build: Callable[[State], tuple[Any, str] | None]
    asked: Callable[..., dict[str, int] | None]
    may_ask: Callable[[], bool]
    below: int | None
    sym_spent: float
    sym_high: tuple[int, int]
    numbers: list[int]
    #: comparison site -> the observations of how close it came (its games' functions, |a - b|)
    observed: dict[Any, list[tuple[list[dict[str, int]], int]]]
    #: comparison site -> the relations fitted to it
    relations: dict[Any, list[tuple[str, int, int]]]
    #: (relations, count, the size searched below) asked already
    tried: set[tuple[Any, int, int | None]]

    def values_of(self, state: State) -> list[list[int]] | None:
        out = []
        for parts in state[:8]:
            try:
                out.append([int(self.st.value(p)) for p in parts[:READ]])
            except Exception:  # noqa: BLE001 - a part that is not a number
                return None
        return out

    def fit(self, item: Any) -> list[Callable[[], State | None]]:
        """Note how close ``item``'s comparison sites came, with its games' functions; give
        candidates for the relations fitted so far (see the module's words)."""
        if self.st is None or self.st.value is None or item.cov.sym is not None:
            return []
        if any(len(parts) > SMALL for parts in item.state[:8]) or not self.may_ask():
            return []  # (only small inputs are observed: z3 sets FREE_ALL parts at most)
        began = time.monotonic()
        games = self.values_of(item.state)
        if not games:
            return []
        seen = [features(v) for v in games]
        constants = set(self.numbers)
        for site, d in item.cov.near:
            if not isinstance(d, int) or d > 1 << 40:
                continue
            rows = self.observed.setdefault(site, [])
            if len(rows) < OBSERVED and all(d != e for _, e in rows):  # a distance not seen
                rows.append((seen, d))
                self.relations[site] = fits(rows, constants)[:4]
        self.sym_spent += time.monotonic() - began
        wanted = sorted({w for ws in self.relations.values() for w in ws})
        if not wanted:
            return []
        # every relation, then each two, then each alone, with a relation on counts (each of
        # two alone: those of other sites may not hold together) and without
        counted = [w for w in wanted if w[0] == "count" and not (w[1] == 0 and w[2] < 1)][:2]
        others = sorted(
            (w for w in wanted if w[0] != "count"), key=lambda w: (FUNCTIONS.index(w[0]), w)
        )
        groups = [others] if len(others) > 2 else []
        groups += [[a, b] for i, a in enumerate(others) for b in others[i + 1 :]]
        groups += [[w] for w in others] or [[]]
        sets = [g + c for g in groups for c in ([[x] for x in counted] + [[]]) if g + c]
        out: list[Callable[[], State | None]] = []
        for ws in sets:  # each set once per count and bar (z3's questions are dear)
            key = (tuple(ws), len(item.state[0]), self.below)  # (again below a fault)
            if key not in self.tried and len(out) < CANDIDATES:
                self.tried.add(key)
                out.append(functools.partial(self.met, item.state, ws))
        return out

    def met(self, state: State, wanted: list[tuple[str, int, int]]) -> State | None:
        """The first game of ``state`` made to meet every relation of ``wanted``: its count one
        of the nearest that meet the relations on counts (or, below a fault, its own and fewer),
        then its values (z3); None if there is no such game within the bounds."""
        parts = state[0]
        counts = [(m, c) for name, m, c in wanted if name == "count"]
        sizes = [len(parts)]
        if counts:  # the nearest counts that meet the relations on counts, four at most
            sizes = []
            for step in range(2 * SMALL):
                for k in {len(parts) + step, len(parts) - step}:
                    if k >= 1 and all((k % m if m else k) == c for m, c in counts):
                        sizes.append(k)
                if len(sizes) >= 4:
                    break
        elif self.below is not None:  # below a fault: fewer parts too, the fewest first
            sizes += list(range(1, len(parts)))[:8]
        for n in sizes:
            grown = self.put(state, ("count", 0), n) if n != len(parts) else state
            made = self.valued(grown, wanted) if grown is not None else None
            if made is not None:
                return made
        return None

    def valued(self, grown: State, wanted: list[tuple[str, int, int]]) -> State | None:
        """``grown``'s first game with values that meet the relations of ``wanted`` not on
        counts (z3, :data:`FREE_ALL` parts free, the rest kept); None if there are none."""
        high, _ = self.sym_high
        values = self.values_of(grown)
        if not values:
            return None
        others = [(name, m, c) for name, m, c in wanted if name != "count"]
        if not others:
            return grown
        n = len(values[0])
        # below a fault, where the game's size is its values' sum: that sum below the fault's
        under = None
        if self.below is not None and len(grown) == 1:
            made = self.build(grown)
            if made is not None and self.game.size(made[0]) == sum(values[0]):
                under = self.below
        # linear relations: every part free (FREE_ALL at most); else, as concolic testers do, a
        # few parts free at a time, the rest kept (z3 answers a question of a few unknowns at
        # once where one of sixty squares is beyond it)
        draws = [list(range(min(n, FREE_ALL)))]
        if any(name not in ("sum", "max", "min") for name, _, _ in others) and n > FREE:
            draws = [sorted(self.rng.sample(range(n), FREE)) for _ in range(TRIES)]
        out: State | None = None
        for free in draws:
            chosen = set(free)
            rest = [v for i, v in enumerate(values[0]) if i not in chosen]
            low, top = self.st.smallest, max(high, self.st.smallest + 1)
            bounds = {f"v{k}": (low, top) for k in range(len(free))}
            formula = functools.partial(_relations, others, rest, len(free), (low, top), under)
            for lead in (False, True):  # then with a first value past the least (a leading 0)
                if lead:
                    if free[0] != 0:
                        break
                    bounds["v0"] = (low + 1, top)
                model = self.asked(bounds, formula, FIT_MS)
                if model is None:
                    break
                out = grown
                for k, i in enumerate(free):
                    if out is not None and model[f"v{k}"] != values[0][i]:
                        out = self.put(out, ("value", 0, i), model[f"v{k}"])
                if out is not None and self.build(out) is not None:
                    return out
        return out


def _relations(
    wanted: list[tuple[str, int, int]],
    rest: list[int],
    free: int,
    domain: tuple[int, int],
    under: int | None,
    symbols: dict[str, Any],
    ops: Any,
) -> list[Any]:
    """The relations of ``wanted`` over ``free`` unknown values and the ``rest`` kept; a power
    of a value in a small ``domain`` written as the table of its values (linear: z3's
    arithmetic on a table answers where its products of unknowns do not); with ``under``, the
    values' sum below it (the search below a fault, where the game's size is that sum)."""
    xs = [symbols[f"v{i}"] for i in range(free)]
    low, top = domain

    def power(x: Any, k: int) -> Any:
        if top - low > 64:
            return x**k if k > 1 else x
        return sum(ops.If(x == v, v**k, 0) for v in range(low, top + 1))

    out = [] if under is None else [sum(xs) + sum(rest) < under]
    for name, m, c in wanted:
        if name == "sum":
            term: Any = sum(xs) + sum(rest)
        elif name == "squares":
            term = sum(power(x, 2) for x in xs) + sum(v * v for v in rest)
        elif name == "cubes":
            term = sum(power(x, 3) for x in xs) + sum(v * v * v for v in rest)
        elif name == "product":
            term = 1
            for x in [*xs, *rest]:
                term = term * x
        elif name in ("max", "min"):
            pick = ops.Or(*(x == c for x in xs), *(v == c for v in rest))
            bound = [x <= c if name == "max" else x >= c for x in xs]
            out += [pick, *bound] if not m else []
            continue
        else:
            continue
        out.append((term % m if m else term) == c)
    return out


__all__ = ["FUNCTIONS", "Fitted", "features", "fits"]
