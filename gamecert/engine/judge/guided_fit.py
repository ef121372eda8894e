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
from collections.abc import Callable
from typing import Any

#: residues tried (the modulus is not in the comparison: GCC folds it into the code)
MODULI = 32
#: observations kept per constant; runs a relation must have matched, with distinct operands
OBSERVED, AGREE = 24, 2
#: the values of a game read (more are left as they are); parts set free at once at most
READ, FREE_ALL = 4096, 64
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
    sym_high: tuple[int, int]
    numbers: list[int]
    #: comparison site -> the observations of how close it came (its games' functions, |a - b|)
    observed: dict[Any, list[tuple[list[dict[str, int]], int]]]
    #: comparison site -> the relations fitted to it
    relations: dict[Any, list[tuple[str, int, int]]]
    #: (relations, count) asked already
    tried: set[tuple[Any, int]]

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
        games = self.values_of(item.state)
        if not games:
            return []
        seen = [features(v) for v in games]
        constants = set(self.numbers)
        for site, d in item.cov.near:
            if not isinstance(d, int) or d > 1 << 40:
                continue
            rows = self.observed.setdefault(site, [])
            if len(rows) < OBSERVED and (seen, d) not in rows:
                rows.append((seen, d))
                self.relations[site] = fits(rows, constants)[:4]
        wanted = sorted({w for ws in self.relations.values() for w in ws})
        if not wanted:
            return []
        # the relations on counts each alone (those of other sites may not hold together): with
        # every other relation, then with each other alone, then the others without a count's
        counted = [w for w in wanted if w[0] == "count" and not (w[1] == 0 and w[2] < 1)]
        others = [w for w in wanted if w[0] != "count"]
        sets = [others + [c] for c in counted[:4]] if others else [[c] for c in counted[:4]]
        sets += [[w, c] for w in others for c in counted[:2]] + [[w] for w in others]
        out: list[Callable[[], State | None]] = []
        for ws in sets:  # each set once per first game's count (z3's questions are dear)
            key = (tuple(ws), len(item.state[0]))
            if key not in self.tried and len(out) < CANDIDATES:
                self.tried.add(key)
                out.append(functools.partial(self.met, item.state, ws))
        return out

    def met(self, state: State, wanted: list[tuple[str, int, int]]) -> State | None:
        """The first game of ``state`` made to meet every relation of ``wanted``: its count one
        of the nearest that meet the relations on counts, then its values (z3); None if there
        is no such game within the bounds."""
        parts = state[0]
        _, most = self.sym_high
        counts = [(m, c) for name, m, c in wanted if name == "count"]
        sizes = [len(parts)]
        if counts:  # the nearest counts that meet the relations on counts, four at most
            sizes = [
                k
                for k in sorted(
                    range(1, max(most, len(parts) + 64) + 1),
                    key=lambda k: (abs(k - len(parts)), k),
                )
                if all((k % m if m else k) == c for m, c in counts)
            ][:4]
        for n in sizes:
            grown = self.put(state, ("count", 0), n) if n != len(parts) else state
            made = self.valued(grown, wanted) if grown is not None else None
            if made is not None:
                return made
        return None

    def valued(self, grown: State, wanted: list[tuple[str, int, int]]) -> State | None:
        """``grown``'s first game with values that meet the relations of ``wanted`` not on
        counts (z3, :data:`FREE_ALL` parts free, the rest kept); None if there are none."""
        from gamecert.kit.smt import satisfy

        high, _ = self.sym_high
        values = self.values_of(grown)
        if not values:
            return None
        free = list(range(min(len(values[0]), FREE_ALL)))
        rest = values[0][len(free) :]
        others = [(name, m, c) for name, m, c in wanted if name != "count"]
        if not others:
            return grown
        bounds = {f"v{i}": (self.st.smallest, max(high, self.st.smallest + 1)) for i in free}
        formula = functools.partial(_relations, others, rest, len(free))
        out: State | None = None
        for lead in (False, True):  # then with a first value past the least (a leading 0)
            if lead:
                bounds["v0"] = (self.st.smallest + 1, bounds["v0"][1])
            model = satisfy(bounds, formula, FIT_MS)
            if model is None:
                return None
            out = grown
            for i in free:
                if out is not None and model[f"v{i}"] != values[0][i]:
                    out = self.put(out, ("value", 0, i), model[f"v{i}"])
            if out is not None and self.build(out) is not None:
                return out
        return out


def _relations(
    wanted: list[tuple[str, int, int]],
    rest: list[int],
    free: int,
    symbols: dict[str, Any],
    ops: Any,
) -> list[Any]:
    xs = [symbols[f"v{i}"] for i in range(free)]
    out = []
    for name, m, c in wanted:
        if name == "sum":
            term: Any = sum(xs) + sum(rest)
        elif name == "squares":
            term = sum(x * x for x in xs) + sum(v * v for v in rest)
        elif name == "cubes":
            term = sum(x * x * x for x in xs) + sum(v * v * v for v in rest)
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
