"""The guided search's mutations: input to state and havoc, through the game's structure.

* **input to state** (AFL++'s cmplog, libFuzzer's trace-cmp): each kept input's comparison
  operands are matched against its numbers (the count of parts of each game, each part's value,
  the count of games of a batch); a number equal to one operand is set to the other, the other
  +-1 and +-small, and, for numbers past 2^24, the neighbours of the float it rounds to; a string
  operand found in a game is replaced by the other; a sequence of numbers that holds a game's
  values in some order is replaced by the other sequence; a derived operand's difference is put
  back (:mod:`gamecert.engine.judge.derived`);
* **havoc**: one to four changes stacked on a kept input: a value or a count set to a dictionary
  number, a nearby or a random one; parts repeated or dropped; a dictionary string put in; every
  value moved by one amount; a game of the batch repeated, dropped or taken from another input.

:class:`Mutations` is a part of :class:`gamecert.engine.judge.guided.Search`, which keeps the
corpus and the dictionary and runs what these make.
"""

from __future__ import annotations

import functools
import random
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamecert.engine.judge.derived import MAX_TEXT, Derived, _number
from gamecert.engine.run.instrument import Coverage

#: input-to-state candidates per kept input (those whose other operand is none of the input's
#: numbers, a constant most likely, first); the differences of derived operands have as many
I2S_MAX = 32
#: candidates of derived operands' differences per kept input, beside them
DIFFS_MAX = 16
#: the places of a number the input holds in many that input to state sets: the first and
#: others drawn (a run of equal numbers: the one compared may be any of them)
PLACES_MAX = 6
#: a kept input's first input-to-state candidates (the constants compared, exactly) run next,
#: before those of inputs kept earlier: a chain of comparisons met one by one goes on at once
I2S_FIRST = 8
#: a comparison whose operands are both below this is taken for a residue (its modulus unseen)
RESIDUE = 16


@dataclass
class Item:
    instance: Any
    text: str
    state: list[tuple[Any, ...]]
    cov: Coverage
    picked: int = 0
    #: its comparisons no input kept before it made (the search's frontier)
    novel: frozenset[tuple[Any, ...]] = frozenset()


def f32_neighbours(v: int) -> list[int]:
    """The integers next to the float32 (and, past 2^53, the float64) ``v`` rounds to.

    >>> sorted(f32_neighbours(2 ** 24 + 3))
    [16777219, 16777220, 16777221]
    >>> f32_neighbours(100)
    []
    """
    out: set[int] = set()
    if abs(v) > 1 << 24:
        f = int(struct.unpack("<f", struct.pack("<f", float(v)))[0])
        out |= {f - 1, f, f + 1}
    if abs(v) > 1 << 53:
        f = int(float(v))
        out |= {f - 1, f, f + 1}
    return sorted(out)


def near(v: Any, rng: random.Random) -> list[int]:
    """Numbers to try for an operand ``v``: itself, +-1, +-2, +-small, the float neighbours; for
    a float operand, the integers around it."""
    if isinstance(v, float):
        if v != v or abs(v) > 1e18:
            return []
        base = int(v)
        return sorted({base - 1, base, base + 1, round(v)})
    small = rng.randint(3, 16)
    return sorted({v, v - 1, v + 1, v - 2, v + 2, v - small, v + small, *f32_neighbours(v)})


class Mutations(Derived):
    """Input to state and havoc on the search's corpus (see the module's words)."""

    game: Any
    batched: bool
    corpus: list[Item]
    strings: list[str]

    def sites(self, state: list[tuple[Any, ...]]) -> list[tuple[tuple[Any, ...], int]]:
        """The numbers of an input and where they stand: ("batch",), ("count", g), ("value", g, i)."""
        out: list[tuple[tuple[Any, ...], int]] = [(("batch",), len(state))] if self.batched else []
        for g, parts in enumerate(state):
            out.append((("count", g), len(parts)))
            if self.st.value is not None:
                for i, p in enumerate(parts[:4096]):
                    try:
                        out.append((("value", g, i), int(self.st.value(p))))
                    except Exception:  # noqa: BLE001
                        pass
        return out

    def put(
        self, state: list[tuple[Any, ...]], where: tuple[Any, ...], v: int
    ) -> list[tuple[Any, ...]] | None:
        state = list(state)
        if where[0] == "batch":
            if v < 1 or v > max(1, self.game.max_batch):
                return None
            while len(state) < v:
                state.append(state[self.rng.randrange(len(state))])
            return state[:v]
        g = where[1]
        parts = state[g]
        if where[0] == "count":
            if v < 1 or v > 4 * MAX_TEXT or not parts:
                return None
            if v <= len(parts):
                state[g] = parts[:v]
            else:
                reps = -(-v // len(parts))
                state[g] = (
                    (parts * reps)[:v]
                    if self.rng.random() < 0.5
                    else tuple(parts[self.rng.randrange(len(parts))] for _ in range(v))
                )
            return state
        if self.st.with_value is None or v < self.st.smallest:
            return None
        try:
            part = self.st.with_value(parts[where[2]], v)
        except Exception:  # noqa: BLE001
            return None
        state[g] = parts[: where[2]] + (part,) + parts[where[2] + 1 :]
        return state

    def i2s(self, item: Item) -> list[Callable[[], list[tuple[Any, ...]] | None]]:
        """Input-to-state candidates of a kept input, each made when called: each operand that
        equals one of its numbers replaced by the other operand and its neighbours; string
        operands replaced in place."""
        out: list[Callable[[], list[tuple[Any, ...]] | None]] = []
        sites = self.sites(item.state)
        by_value: dict[int, list[tuple[Any, ...]]] = {}
        for where, v in sites:
            by_value.setdefault(v, []).append(where)
        # in tiers: a string operand put in place of the other or of a game (the most specific
        # lead: an exact word, or a hash's preimage; at most half the allowance, ahead of the
        # numbers: on a loaded machine a JVM's search may get a few runs); the other operand itself where it is a constant (it stands nowhere in the
        # input), then its neighbours; then the same for operands the input holds
        words: list[Callable[[], list[tuple[Any, ...]] | None]] = []
        # (tier 0 and 1: the other operand a constant (it stands nowhere in the input), itself
        # and its neighbours; the first of tier 0 those of comparisons no input kept before made)
        tiers: list[list[Callable[[], list[tuple[Any, ...]] | None]]] = [[], [], [], []]
        novel: list[Callable[[], list[tuple[Any, ...]] | None]] = []
        diffs: list[Callable[[], list[tuple[Any, ...]] | None]] = []
        for kind, a, b in item.cov.cmps:
            if kind == "s":
                words += [
                    functools.partial(lambda s: s, made)
                    for made in self.strings_in(item.state, a, b)
                    + self.strings_in(item.state, b, a)
                    if made != item.state  # (a game replaced by the string it already is)
                ]
                continue
            if kind == "l":
                tiers[0] += [
                    functools.partial(self.sequence_put, item.state, g, other)
                    for g, other in self.sequences_in(item.state, a, b)
                ]
                continue
            for x, y in ((a, b), (b, a)):
                key = (
                    int(x)
                    if isinstance(x, float) and x == x and abs(x) < 1e18 and x == int(x)
                    else x
                )
                other = (
                    int(y)
                    if isinstance(y, float) and y == y and abs(y) < 1e18 and y == int(y)
                    else y
                )
                tier = 2 if other in by_value else 0
                places = by_value.get(key, []) if not isinstance(key, float) else []
                if len(places) > PLACES_MAX:  # a number the input holds in many places
                    places = [places[0], *self.rng.sample(places[1:], PLACES_MAX - 1)]
                for where in places:
                    for v in near(y, self.rng):  # (made when run: a count of 10^6 parts is dear)
                        made = functools.partial(self.put, item.state, where, v)
                        if tier == 0 and v == other and (kind, a, b) in item.novel:
                            novel.append(made)
                        else:
                            tiers[tier + (v != other)].append(made)
            # a derived value: neither operand is a number of the input (one that is, input to
            # state sets); a residue's small operands the input may hold by chance
            small = isinstance(a, int) and isinstance(b, int) and max(abs(a), abs(b)) < RESIDUE
            if kind == "i" and (small or (a not in by_value and b not in by_value)):
                diffs += self.differences(item.state, b - a, residue=small)
        self.rng.shuffle(words)
        out += words[: I2S_MAX // 2]
        for level in (novel, *tiers):
            self.rng.shuffle(level)
            out += level
        self.rng.shuffle(diffs)  # an allowance of their own: they are a step of their own
        return out[:I2S_MAX] + diffs[:DIFFS_MAX]

    def sequences_in(
        self, state: list[tuple[Any, ...]], a: tuple[Any, ...], b: tuple[Any, ...]
    ) -> list[tuple[int, tuple[Any, ...]]]:
        """(game, the other operand) of a comparison of two sequences of numbers one of which
        holds a game's values in some order (the program sorted or counted them)."""
        if self.st.value is None:
            return []
        out = []
        for g, parts in enumerate(state[:64]):
            values = sorted(_number(self.st.value, p) or 0 for p in parts[:4096])
            for one, other in ((a, b), (b, a)):
                if len(one) == len(parts) and sorted(one) == values and other:
                    out.append((g, other))
        return out

    def sequence_put(
        self, state: list[tuple[Any, ...]], g: int, values: tuple[Any, ...]
    ) -> list[tuple[Any, ...]] | None:
        """Game ``g``'s parts set to ``values`` (its first part the template of each)."""
        if self.st.with_value is None or not state[g]:
            return None
        try:
            parts = tuple(self.st.with_value(state[g][0], int(v)) for v in values)
        except Exception:  # noqa: BLE001 - a value the part cannot take
            return None
        out = list(state)
        out[g] = parts
        return out

    def strings_in(
        self, state: list[tuple[Any, ...]], x: str, y: str
    ) -> list[list[tuple[Any, ...]] | None]:
        if not x or not all(
            isinstance(p, str) and len(p) == 1 for parts in state for p in parts[:1]
        ):
            return []
        out: list[list[tuple[Any, ...]] | None] = []
        for g, parts in enumerate(state):
            text = "".join(parts)
            at = text.find(x)
            if at >= 0:
                s = list(state)
                s[g] = tuple(text[:at] + y + text[at + len(x) :])
                out.append(s)
            s = list(state)
            s[g] = tuple(y)
            out.append(s)
        return out

    def havoc(self) -> list[tuple[Any, ...]] | None:
        rng = self.rng
        # the newest inputs (what reached code last) 40% of the time, those that reach the most
        # code 30%, else the least tried of three
        roll = rng.random()
        if roll < 0.4:
            pool = self.corpus[-4:]
        elif roll < 0.7:
            most = max(len(i.cov.sites) for i in self.corpus)
            pool = [i for i in self.corpus if len(i.cov.sites) == most][-8:]
        else:
            pool = rng.sample(self.corpus, min(3, len(self.corpus)))
        item = min(pool, key=lambda i: i.picked)
        item.picked += 1
        state = list(item.state)
        for _ in range(rng.randint(1, 4)):
            state = self.change(state) or state
        return state

    def change(self, state: list[tuple[Any, ...]]) -> list[tuple[Any, ...]] | None:
        rng = self.rng
        g = rng.randrange(len(state))
        parts = state[g]
        roll = rng.random()
        if roll < 0.35 and parts and self.st.value is not None:
            i = rng.randrange(len(parts))
            try:
                v = int(self.st.value(parts[i]))
            except Exception:  # noqa: BLE001
                return None
            top = max(
                v,
                *(w for w in (_number(self.st.value, p) for p in parts[:64]) if w is not None),
                self.st.smallest + 1,
            )
            pool = [
                v + rng.randint(-3, 3),
                rng.randint(self.st.smallest, 2 * top),
                rng.choice(self.numbers or [v]),
                rng.randint(self.st.smallest, top),
            ]
            return self.put(state, ("value", g, i), rng.choice(pool))
        if roll < 0.6:
            n = len(parts)
            pool = [n + rng.randint(-3, 3), 2 * n, max(1, n // 2), rng.randint(1, 2 * n + 2)]
            if self.numbers:
                pool.append(rng.choice(self.numbers))
            return self.put(state, ("count", g), max(1, rng.choice(pool)))
        if (
            roll < 0.75
            and self.strings
            and parts
            and all(isinstance(p, str) and len(p) == 1 for p in parts[:1])
        ):
            s = rng.choice(self.strings)
            at = rng.randrange(len(parts) + 1)
            state = list(state)
            state[g] = (
                parts[:at] + tuple(s) + (parts[at:] if rng.random() < 0.5 else parts[at + len(s) :])
            )
            return state
        if roll < 0.9 and parts and self.st.value is not None and rng.random() < 0.3:
            return self.shift(state, g)
        if roll < 0.85 and parts:
            state = list(state)
            a, b = sorted(rng.randrange(len(parts) + 1) for _ in range(2))
            state[g] = (
                parts[:a] + parts[b:] if rng.random() < 0.5 else parts[:b] + parts[a:b] + parts[b:]
            )
            return state if state[g] else None
        if self.batched:
            other = rng.choice(self.corpus).state
            state = list(state)
            pick = other[rng.randrange(len(other))]
            if rng.random() < 0.5 and len(state) > 1:
                state.pop(g)
            else:
                state.insert(rng.randrange(len(state) + 1), pick)
            return state
        donor = rng.choice(self.corpus).state[0]
        cut = rng.randrange(len(parts) + 1)
        return [parts[:cut] + donor[cut:]]


__all__ = ["I2S_FIRST", "I2S_MAX", "Item", "Mutations", "f32_neighbours", "near"]
