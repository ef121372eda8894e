"""The guided search's conditions solved with z3 (issue 47): a Python candidate's run records
each comparison over the input's numbers as an expression over its tokens
(:mod:`gamecert.engine.run.instrument_sym`); for a comparison whose other outcome no run has had,
z3 (:func:`gamecert.kit.smt.satisfy`) is asked for tokens that give it, with the comparisons the
run made before it kept as they were (the path to it), and each number within what the game's
structure allows: a part's value between the structure's smallest and the greatest value a kept
input held, a count from 1 (kept first, then free), the count of games of a batch within the
game's own. The model is written into the input through the structure
(:meth:`~gamecert.engine.judge.guided_mutate.Mutations.put`), and the input is run only if the
game's own parser reads it back (:meth:`gamecert.engine.judge.guided.Search.build`).

The tokens are the input's whitespace-separated words; each is tied to the number of the
structure it writes (a game's count, a part's value, the batch's count) by reading both in
order. A token the record holds but no number of the structure writes is kept as it is.

:class:`Solved` is a part of :class:`gamecert.engine.judge.guided.Search`; its candidates are
made when run (each a z3 call of at most :data:`SOLVE_MS`), ahead of input to state's.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from gamecert.engine.run.instrument import Coverage
from gamecert.engine.run.instrument_sym import SymRecord

#: outcomes asked of z3 per kept input; the comparisons before one kept as the path to it, at most
SOLVE_MAX, PATH_MAX = 8, 48
#: z3's time per question (milliseconds); the tokens set free at once: all of a target's up to
#: FREE_ALL, then FREE in TRIES draws
SOLVE_MS, FREE_ALL, FREE, TRIES = 250, 64, 3, 3
#: the share of the search's time z3 may take (its questions and the solver's own runs)
Z3_SHARE = 0.2
#: runs to grow an input's counts for a question, and to ask back a path a count change broke
GROW, REPAIRS = 3, 4
#: how far ahead of a structure's number its token is looked for
LOOKAHEAD = 4

State = list[tuple[Any, ...]]
Places = dict[int, tuple[tuple[Any, ...], int]]


class Unsupported(Exception):
    """An expression the solver does not write (an exponent that is not a constant)."""


def terms(rec: SymRecord, token: Callable[[int], Any]) -> dict[int, Any]:
    """Every node of ``rec`` as a term: ``token(k)`` for the k-th token, the rest built with the
    operators of the terms (z3's, or plain integers': :func:`check` evaluates with these);
    a node the solver cannot write is left out (an event on it is not asked).

    >>> rec = SymRecord({0: ("t", 1, 0), 1: ("*", 0, 0), 2: ("%", 1, (7,))}, [])
    >>> terms(rec, lambda k: 10 * k)[2]
    2
    """
    memo: dict[int, Any] = {}

    def arg(x: Any) -> Any:
        if isinstance(x, tuple):
            return x[0]
        if x not in memo:
            raise Unsupported("a node left out")
        return memo[x]

    for n in sorted(rec.nodes):
        op, a, b = rec.nodes[n]
        try:
            if op == "t":
                memo[n] = token(a)
                continue
            x, y = arg(a), arg(b)
            if op == "+":
                memo[n] = x + y
            elif op == "-":
                memo[n] = x - y
            elif op == "*":
                memo[n] = x * y
            elif op == "//":
                memo[n] = x // y if isinstance(x, int) and isinstance(y, int) else x / y
            elif op == "%":
                memo[n] = x % y
            elif op == "**":
                if not isinstance(y, int) or not 0 <= y <= 8:
                    raise Unsupported("an exponent that is not a small constant")
                out: Any = 1
                for _ in range(y):
                    out = out * x
                memo[n] = out
            elif op == "abs":
                memo[n] = abs(x) if isinstance(x, int) else _If(x >= 0, x, -x)
        except (Unsupported, ZeroDivisionError):
            continue
    return memo


def _If(cond: Any, then: Any, other: Any) -> Any:  # noqa: N802 - z3's name
    from gamecert.kit.smt import SYM

    return SYM.If(cond, then, other)


def condition(op: str, a: Any, b: Any) -> Any:
    """The comparison ``a op b`` of two terms."""
    return {
        "Eq": lambda: a == b,
        "NotEq": lambda: a != b,
        "Lt": lambda: a < b,
        "LtE": lambda: a <= b,
        "Gt": lambda: a > b,
        "GtE": lambda: a >= b,
    }[op]()


def divisors(rec: SymRecord, memo: dict[int, Any]) -> list[Any]:
    """The divisors of the record's ``//`` and ``%`` nodes that are terms (each must not be 0)."""
    out = []
    for n, (op, _, b) in rec.nodes.items():
        if op in ("//", "%") and n in memo and not isinstance(b, tuple) and b in memo:
            out.append(memo[b] != 0)
    return out


class Solved:
    """The solver's candidates on the search's state (see the module's words)."""

    st: Any
    game: Any
    rng: Any
    batched: bool
    corpus: list[Any]
    judge: Any
    put: Callable[[State, tuple[Any, ...], int], State | None]
    build: Callable[[State], tuple[Any, str] | None]
    run: Callable[[Any, str], bool]
    sites: Callable[[State], list[tuple[tuple[Any, ...], int]]]

    #: (site, outcome) of every recorded comparison of every run
    sym_sides: set[tuple[int, bool]]
    #: the greatest part value and count any input solved from held
    sym_high: tuple[int, int]
    #: when the search started, and the time z3 took since (:meth:`asked`)
    sym_began: float = 0.0
    sym_spent: float = 0.0

    def sym_taken(self, cov: Coverage) -> None:
        """Note the outcomes of ``cov``'s recorded comparisons (a run's, kept or not)."""
        rec = cov.sym
        if rec is not None:
            self.sym_sides.update((e[0], e[4]) for e in rec.events)

    def may_ask(self) -> bool:
        """Whether the solver's time (z3's, and its own reading of the records) is still within
        :data:`Z3_SHARE` of the search's (and a first second)."""
        return self.sym_spent <= Z3_SHARE * (time.monotonic() - self.sym_began) + 1.0

    def asked(
        self,
        bounds: dict[str, tuple[int, int]],
        formula: Callable[[dict[str, Any], Any], list[Any]],
        ms: int,
    ) -> dict[str, int] | None:
        """z3's answer (:func:`gamecert.kit.smt.satisfy`), within the solver's share of the
        search's time: past :data:`Z3_SHARE` of the time since the search started (and a first
        second), z3 is not asked and the search runs its other steps."""
        from gamecert.kit.smt import satisfy

        now = time.monotonic()
        if not self.may_ask():
            return None
        try:
            return satisfy(bounds, formula, ms)
        finally:
            self.sym_spent += time.monotonic() - now

    def sym_start(self, seeds: list[Any], state: Callable[[Any], State]) -> None:
        """The bounds z3's numbers keep to: the greatest part value and count the search's
        seeds hold (valid inputs all: the game's own samples and strategy)."""
        self.sym_began, self.sym_spent = time.monotonic(), 0.0
        high, most = self.sym_high
        for seed in seeds:
            try:
                games = state(seed)
            except Exception:  # noqa: BLE001 - a seed the structure cannot read: left out
                continue
            for parts in games:
                most = max(most, len(parts))
                for part in parts[:4096]:
                    try:
                        high = max(high, int(self.st.value(part)))
                    except Exception:  # noqa: BLE001 - not a number
                        break
        self.sym_high = (high, most)

    def places(self, state: State, text: str) -> Places:
        """Token index -> (where in the structure, its value): the structure's numbers and the
        input's words read in order, each number matched with a word at most
        :data:`LOOKAHEAD` ahead that reads as it."""
        words = text.split()
        out: Places = {}
        at = 0
        for where, v in self.sites(state):
            for k in range(at, min(len(words), at + LOOKAHEAD)):
                if words[k] == str(v):
                    out[k] = (where, v)
                    at = k + 1
                    break
        return out

    def solve(self, item: Any) -> list[Callable[[], State | None]]:
        """Candidates of a kept input, made when run: for each recorded comparison whose other
        outcome no run has had (:data:`SOLVE_MAX` at most), the input z3 gives for it."""
        rec: SymRecord | None = item.cov.sym
        if rec is None or self.st is None:
            return []
        values = [v for where, v in self.sites(item.state) if where[0] == "value"]
        counts = [len(parts) for parts in item.state]
        high, most = self.sym_high
        self.sym_high = (max([high, *values]), max([most, *counts]))
        out: list[Callable[[], State | None]] = []
        asked: set[tuple[int, bool]] = set()
        for j, event in enumerate(rec.events):
            side = (event[0], not event[4])
            if side in self.sym_sides or side in asked:
                continue
            asked.add(side)
            out.append(functools.partial(self.solved, item, j))
            if len(asked) >= SOLVE_MAX:
                break
        return out

    def solved(self, item: Any, j: int) -> State | None:
        """The input z3 gives for event ``j`` of ``item``'s record to have the other outcome,
        the events before it kept (then, if none, without them); None if there is none (or the
        outcome was had since). Two cases need a run of their own (:meth:`follow`): an answer
        that changes a count adds or drops parts, which changes what the program derives from
        them (the record cannot say how): that input is run, and the comparisons before ``j``
        whose outcome it changed are asked back, one a run, the counts kept; and a question
        with no answer on this many parts (a sum of 600 over two piles of at most 60) is asked
        again on the input with its counts grown (doubled, and 4 more), :data:`GROW` times."""
        rec: SymRecord = item.cov.sym
        site, _, _, _, outcome = rec.events[j]
        if (site, not outcome) in self.sym_sides:
            return None
        path = {e[0]: e[4] for e in rec.events[:j]}
        got = self.ask(rec, j, item.state, item.text, counts=True)
        if got is not None:
            return self.follow(got[0], path, None) if got[1] and got[0] is not None else got[0]
        state: State | None = item.state
        for _ in range(GROW):
            state = self.grown(state) if state is not None else None
            if state is None:
                return None
            state, done = self.follow_one(state, path, (site, not outcome))
            if done:
                return state
        return None

    def grown(self, state: State) -> State | None:
        """Every game of ``state`` with its count doubled, and 4 more (parts copied), within the
        greatest count the seeds held."""
        _, most = self.sym_high
        out: State | None = state
        for g, parts in enumerate(state):
            count = min(2 * len(parts) + 4, max(most, len(parts)))
            if out is not None and count > len(parts):
                out = self.put(out, ("count", g), count)
        return out if out != state else None

    def follow(
        self, state: State, path: dict[int, bool], target: tuple[int, bool] | None
    ) -> State | None:
        """``state`` run, and each comparison on ``path`` whose outcome it changed asked back
        (the counts kept), one a run, :data:`REPAIRS` at most; then the last state."""
        now: State | None = state
        for _ in range(REPAIRS):
            if now is None:
                return None
            now, done = self.follow_one(now, path, target)
            if done:
                return now
        return now

    def follow_one(
        self, state: State, path: dict[int, bool], target: tuple[int, bool] | None
    ) -> tuple[State | None, bool]:
        """One step of :meth:`follow`: (the next state, whether it is the last). With ``target``
        (site, outcome): the target asked on the run's record where the path holds."""
        from gamecert.engine.run.instrument import read_coverage

        made = self.build(state)
        if made is None or self.run(*made):
            return None, True  # not a valid input, or a fault found (the search goes on from it)
        result = getattr(self.judge, "last_result", None)
        cov = read_coverage(getattr(result, "stderr_tail", "") or "", "python")
        rec = cov.sym if cov is not None else None
        if rec is None:
            return None, True
        for i, (site, _, _, _, outcome) in enumerate(rec.events):
            if site in path and path[site] != outcome:
                got = self.ask(rec, i, state, made[1], counts=False)
                return (got[0] if got is not None else None), got is None
            if target is not None and site == target[0] and outcome != target[1]:
                got = self.ask(rec, i, state, made[1], counts=False)
                return (got[0] if got is not None else state), got is not None
        return (None, True) if target is None else (state, False)

    def ask(
        self, rec: SymRecord, j: int, state: State, text: str, counts: bool
    ) -> tuple[State | None, bool] | None:
        """z3's input for event ``j`` of ``rec`` (the record of ``text``) to have the other
        outcome, and whether it changed a count; None if there is none. As concolic testers do,
        a few of the target's tokens are set free at a time (:data:`FREE` at most, in
        :data:`TRIES` draws), the rest kept at their values: z3 answers a question of a few
        unknowns at once where one of a hundred squares is beyond it. Counts are free only
        with ``counts``."""
        places = self.places(state, text)
        words = text.split()
        values: dict[int, int] = {}
        for k in rec.tokens():
            try:
                values[k] = int(words[k])
            except (IndexError, ValueError):
                return None
        mine = sorted(
            k
            for k in rec.reach(rec.events[j])
            if k in places and (counts or places[k][0][0] == "value")
        )
        if not mine:
            return None
        high, most = self.sym_high
        draws = [mine] if len(mine) <= FREE_ALL else []
        for _ in range(TRIES if len(mine) > FREE else 0):
            free = sorted(self.rng.sample(mine, FREE))
            first = [k for k in mine if places[k][0][0] != "value"][:FREE]  # counts first
            draws.append(sorted(set(first) | set(free[: FREE - len(first)])))
        # a count grows first (by up to 16: parts copied keep what the program derived from
        # them nearer), then is free
        tries = [(p, f, w) for p in (True, False) for f in draws for w in (False, True)]
        for path, free, wide in tries:
            if wide and all(places[k][0][0] == "value" for k in free):
                continue
            bounds: dict[str, tuple[int, int]] = {}
            for k in free:
                where, v = places[k]
                if where[0] == "value":
                    bounds[f"t{k}"] = (self.st.smallest, max(high, v))
                elif where[0] == "batch":
                    bounds[f"t{k}"] = (1, max(1, self.game.max_batch))
                else:
                    bounds[f"t{k}"] = (1, max(most, v + 64)) if wide else (v, v + 16)
            formula = functools.partial(_formula, rec, j, path, values)
            try:
                model = self.asked(bounds, formula, SOLVE_MS)
            except Unsupported:
                return None
            if model is not None:
                recount = any(
                    places[int(n[1:])][0][0] != "value" and places[int(n[1:])][1] != v
                    for n, v in model.items()
                )
                return self.written(state, places, model), recount
        return None

    def written(self, state: State, places: Places, model: dict[str, int]) -> State | None:
        """``state`` with the model's values put in its places: parts' values, then counts."""
        changes = [
            (places[int(name[1:])][0], v)
            for name, v in model.items()
            if int(name[1:]) in places and places[int(name[1:])][1] != v
        ]
        if not changes:
            return None
        changes.sort(key=lambda c: c[0][0] != "value")
        out: State | None = state
        for where, v in changes:
            out = self.put(out, where, v) if out is not None else None
        return out


def _formula(
    rec: SymRecord, j: int, path: bool, values: dict[int, int], symbols: dict[str, Any], ops: Any
) -> list[Any]:
    memo = terms(rec, lambda k: symbols.get(f"t{k}", values[k]))
    _, op, left, right, result = rec.events[j]

    def side(x: Any) -> Any:
        if isinstance(x, tuple):
            return x[0]
        if x not in memo:
            raise Unsupported("a node left out")
        return memo[x]

    target = condition(op, side(left), side(right))
    if isinstance(target, bool):
        raise Unsupported("a comparison of constants")
    out = [ops.Not(target) if result else target]
    if path:
        kept = []
        for e in rec.events[:j]:
            try:
                c = condition(e[1], side(e[2]), side(e[3]))
            except Unsupported:
                continue
            if not isinstance(c, bool):
                kept.append(c if e[4] else ops.Not(c))
        out += kept[-PATH_MAX:]
    return out + divisors(rec, memo)


__all__ = ["PATH_MAX", "SOLVE_MAX", "SOLVE_MS", "Solved", "Unsupported", "condition", "terms"]
