"""Where the diagnosis's inputs come from: structural mutations of an input
(:class:`Mutator`), the game's strategies (:func:`draws_from`: the whole input space), its
``smaller()`` moves, the deciding-feature families near the fault's size, random walks from the
failing inputs, and the pool of fresh inputs drawn to satisfy a rule and to violate it
(:func:`check_pool`)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any, cast

from gamecert.engine.judge.classes import draw_value, log_uniform
from gamecert.engine.judge.labeller import Labeller, digest, fresh
from gamecert.engine.judge.learn import Rule
from gamecert.kit.features import features_of


class Mutator:
    """Random structural mutations of an input, each a valid input or nothing."""

    def __init__(
        self,
        game: Any,
        structure: Any,
        rng: random.Random,
        values: list[int],
        singles: list[Any],
        max_text: int,
    ) -> None:
        self.game, self.st, self.rng = game, structure, rng
        self.values = values or [structure.smallest]
        self.singles = singles
        self.batched = getattr(game, "max_batch", 1) > 1
        self.max_text = max_text
        #: where parts are numbers (piles, heaps): values are drawn across smallest..high too, not
        #: only near those seen; ``classes`` (the current rule's value classes) are drawn from
        self.numeric = bool(values) and not any(isinstance(s, str) for s in self._sample_parts())
        self.low = structure.smallest
        self.high = max(self.values) if values else structure.smallest
        self.classes: list[str] = []

    def _sample_parts(self) -> list[Any]:
        try:
            return [p for s in self.singles[:5] for g in self._state(s) for p in g]
        except Exception:  # noqa: BLE001 - no parts to look at: the values alone say
            return []

    def _state(self, instance: Any) -> list[tuple[Any, ...]]:
        singles = self.game.split(instance) if self.batched else (instance,)
        return [tuple(self.st.parts(g)) for g in singles]

    def _instance(self, state: list[tuple[Any, ...]]) -> Any:
        games = [self.st.build(p) for p in state]
        return games[0] if len(games) == 1 else self.game.merge(games)

    def _value(self, part: Any) -> int:
        rng = self.rng
        r = rng.random()
        if r < 0.25:
            return cast(int, self.st.value(part)) + rng.choice((-1, 1))
        if r < 0.5 and self.classes:  # a value of the rule's class, anywhere in the range
            v = draw_value(rng, rng.choice(self.classes), self.low, self.high)
            if v is not None:
                return v
        if r < 0.65 and self.numeric:  # anywhere in the range the draws span
            return log_uniform(rng, self.low, self.high)
        return rng.choice(self.values)

    def replaced(self, instance: Any, old: int, new: int) -> tuple[Any, str] | None:
        """``instance`` with every part of value ``old`` given the value ``new``."""
        if self.st.value is None or self.st.with_value is None:
            return None
        state = [
            tuple(self.st.with_value(p, new) if self.st.value(p) == old else p for p in g)
            for g in self._state(instance)
        ]
        return self.valid(state)

    def _mutate_game(self, g: tuple[Any, ...]) -> tuple[Any, ...]:
        rng, n = self.rng, len(g)
        has_values = self.st.value is not None and self.st.with_value is not None
        kind = rng.randrange(8)
        k = rng.randrange(n)
        if kind == 0 and n > 1:
            return g[:k] + g[k + 1 :]
        if kind == 1:  # copies of one part, one or a few; or a part of a new value
            part = g[rng.randrange(n)]
            if has_values and rng.random() < 0.4:
                return g[:k] + (self.st.with_value(part, self._value(part)),) + g[k:]
            return g[:k] + (part,) * rng.choice((1, 1, 2, 3, 4, 7)) + g[k:]
        if kind in (2, 3) and has_values:
            return g[:k] + (self.st.with_value(g[k], self._value(g[k])),) + g[k + 1 :]
        if kind == 4 and has_values:  # every part of one value given another
            old = g[k]
            new = self.st.with_value(old, self._value(old))
            return tuple(new if p == old else p for p in g)
        if kind == 5 and n > 1:
            i, j = rng.randrange(n), rng.randrange(n)
            parts = list(g)
            parts[i], parts[j] = parts[j], parts[i]
            return tuple(parts)
        if kind == 6 and n > 1:
            a = rng.randrange(n)
            b = rng.randrange(a + 1, n + 1)
            return g[:a] + g[b:] if b - a < n else g
        a = rng.randrange(n)
        b = rng.randrange(a + 1, min(n, a + 8) + 1)
        return g[:b] + g[a:b] + g[b:]

    def mutate(self, instance: Any, steps: int = 1) -> tuple[Any, str] | None:
        state = self._state(instance)
        rng = self.rng
        for _ in range(steps):
            if self.batched and rng.random() < 0.25:
                k = rng.randrange(len(state))
                kind = rng.randrange(3)
                if kind == 0 and len(state) > 1:
                    state = state[:k] + state[k + 1 :]
                elif kind == 1 and len(state) < self.game.max_batch:
                    state = state[:k] + [state[k]] + state[k:]
                elif self.singles and len(state) < self.game.max_batch:
                    state = state[:k] + self._state(rng.choice(self.singles))[:1] + state[k:]
            else:
                k = rng.randrange(len(state))
                if state[k]:
                    state = state[:k] + [self._mutate_game(state[k])] + state[k + 1 :]
        return self.valid(state)

    def valid(self, state: list[tuple[Any, ...]]) -> tuple[Any, str] | None:
        if not state or any(not g for g in state):
            return None
        try:
            inst = self._instance(state)
            text = self.game.format_input(inst)
            if (
                not isinstance(text, str)
                or len(text) > self.max_text
                or self.game.parse_input(text) != inst
            ):
                return None
        except Exception:  # noqa: BLE001 - not a valid input: never run
            return None
        return inst, text


def numeric_parts(game: Any, structure: Any, instance: Any) -> bool:
    """Whether the parts are numbers (piles, heaps), not letters or digits."""
    if structure.value is None:
        return False
    singles = game.split(instance) if getattr(game, "max_batch", 1) > 1 else (instance,)
    parts = [p for s in singles for p in structure.parts(s)]
    return bool(parts) and not any(isinstance(p, str) for p in parts)


def draws_from(
    entry: Any, rng: random.Random, max_text: int, seconds: float, n: int = 20
) -> list[Any]:
    """``n`` inputs from the game's strategies (the oracle's reach first), none too long."""
    from gamecert.engine.plan.draws import draw_examples

    game = entry.game
    out: list[Any] = []
    for k, strategy in enumerate((entry.oracle_instances(), entry.instances())):
        if len(out) >= n:
            break
        try:  # half within the oracle's reach, half (or the rest) from the whole space
            for inst in draw_examples(
                strategy, n // 2 if k == 0 else n - len(out), rng.randrange(2**31)
            ):
                if len(game.format_input(inst)) <= max_text:
                    out.append(inst)
        except Exception:  # noqa: BLE001 - a strategy that cannot draw here: the mutations still run
            continue
    return out


def part_values(structure: Any, game: Any, instances: list[Any]) -> list[int]:
    """The part values seen in ``instances`` (the failing input and the draws), and one beyond."""
    if structure.value is None:
        return []
    seen: set[int] = set()
    for inst in instances:
        for single in game.split(inst) if game.max_batch > 1 else (inst,):
            parts = tuple(structure.parts(single))
            try:  # each distinct part once (a million piles hold a few dozen values)
                parts = tuple(dict.fromkeys(parts))
            except TypeError:  # parts that cannot be hashed: each one
                pass
            for p in parts:
                try:
                    seen.add(int(structure.value(p)))
                except Exception:  # noqa: BLE001 - a part without a number
                    pass
    if seen:
        seen |= (
            set(range(min(seen), max(seen) + 2))
            if max(seen) - min(seen) < 4096
            else {max(seen) + 1}
        )
    return sorted(seen)


def smaller_inputs(
    game: Any, instance: Any, mutator: Mutator, limit: int
) -> Iterator[tuple[Any, str]]:
    try:
        for k, cand in enumerate(game.smaller(instance)):
            if k >= 4 * limit:
                return
            ok = mutator.valid(mutator._state(cand)) if cand is not None else None
            if ok is not None:
                yield ok
    except Exception:  # noqa: BLE001 - the game's shrinker failed here: its moves end
        return


def nearby_family(game: Any, size: int, mutator: Mutator, limit: int) -> Iterator[tuple[Any, str]]:
    """Inputs of the deciding-feature families at sizes near ``size`` (single games)."""
    from gamecert.kit.deciding import feature_spaces

    try:
        spaces = feature_spaces(game)
    except Exception:  # noqa: BLE001 - none to take
        return
    for sp in spaces:
        sizes = [s for s in sp.sizes if abs(s - size) <= 2]
        for s in sizes:
            taken = 0
            for inst in sp.instances(s):
                ok = mutator.valid(mutator._state(inst))
                if ok is not None:
                    yield ok
                    taken += 1
                if taken >= max(1, limit // max(1, len(sizes) * len(spaces))):
                    break


def walks(
    mutator: Mutator,
    failing: list[Any],
    draws: list[Any],
    rng: random.Random,
    labeller: Labeller,
    n: int,
) -> list[tuple[Any, str]]:
    """``n`` random walks of one to four steps: three in four from a failing input, the rest from a draw."""
    out = []
    for _ in range(4 * n):
        start = rng.choice(failing) if not draws or rng.random() < 0.75 else rng.choice(draws)
        m = mutator.mutate(start, rng.choice((1, 1, 2, 3, 4)))
        if m is not None:
            out.append(m)
        if len(out) >= n:
            break
    return fresh(labeller, out)


def check_pool(
    mutator: Mutator,
    rule: Rule,
    failing: list[Any],
    draws: list[Any],
    rng: random.Random,
    labeller: Labeller,
    game: Any,
    until: float,
    want: int = 400,
    shuffled: list[dict[str, int]] | None = None,
) -> tuple[list[tuple[Any, str]], set[bytes]]:
    """Fresh inputs drawn to satisfy ``rule`` and to violate it, about as many of each: walks
    from inputs that satisfy it (mutating toward it) and from the draws, filtered by the rule.
    ``shuffled`` (the control): the rule is asked of another input's features, drawn from these."""
    sat: list[tuple[Any, str]] = []
    other: list[tuple[Any, str]] = []
    seen: set[bytes] = set()
    starts = [i for i in failing if rule.holds(features_of(game, i))] or failing
    budget_s = max(0.05, 0.25 * (until - time.monotonic()))
    stop = time.monotonic() + budget_s
    tries = 0
    while time.monotonic() < stop and (len(sat) < want or len(other) < want) and tries < 40 * want:
        tries += 1
        pick = rng.random()
        base = rng.choice(starts) if pick < 0.6 or not draws else rng.choice(draws)
        m = mutator.mutate(base, rng.choice((1, 1, 2, 3, 5)))
        if m is None:
            continue
        d = digest(m[1])
        if d in labeller.seen or d in seen:
            continue
        seen.add(d)
        holds = rule.holds(rng.choice(shuffled) if shuffled else features_of(game, m[0], m[1]))
        if holds and len(sat) < want:
            sat.append(m)
            if rng.random() < 0.5:
                starts.append(m[0])
        elif not holds and len(other) < want:
            other.append(m)
    # alternated, so a run the time cuts short has both kinds
    mixed = []
    for k in range(max(len(sat), len(other))):
        mixed += ([sat[k]] if k < len(sat) else []) + ([other[k]] if k < len(other) else [])
    return mixed, {digest(t) for _, t in sat}


__all__ = [
    "Mutator",
    "check_pool",
    "draws_from",
    "nearby_family",
    "numeric_parts",
    "part_values",
    "smaller_inputs",
    "walks",
]
