"""Structural shrinking: a failing input made smaller by its declared structure, by halves first.

A game declares, in :meth:`gamecert.kit.game.Game.structure`, how one of its single games is
built of *parts* (a pile, a letter, a digit, a heap): :class:`Structure` says how to take a
game apart and put it together, and, where a part is a number, how to read and set it, its
smallest value and, optionally, its *class* (parts of one class play alike, such as piles of
equal Grundy value). A multi-game format (``max_batch > 1``) adds a level above: the games of
the batch, through ``split`` and ``merge``. Nothing else is game-specific.

:class:`Shrinker` takes a failing input and a predicate that runs a candidate once (``fails``),
and repeats passes of these steps until a whole pass finds nothing smaller:

1. the failing game of a batch alone, at position 1; else the batch cut after it;
2. every value at once lowered to the smallest of its class, then to the smallest value;
3. on the count of parts of every game at once (a cap on each game's length, keeping its
   start, then its end), then on a length every game is brought to (the longer cut, the shorter
   grown by their own parts repeated, the batch filled to its largest by its own games), then on
   the count of games (a prefix, then a suffix): halving first (the first half or the last,
   again while one fails), then a binary search;
4. ddmin over the games, then over each game's parts: remove a chunk, chunk sizes halving from
   half the parts, as long as a level has at most :data:`LEVEL_CHUNKS` chunks (each level probed
   first at its first, middle and last chunks; where none comes off, the rest of it waits until
   the finer levels have removed nothing); one part, then
   two, removed from each run of equal parts; values lowered chunk by chunk the same way, the
   chunks made of the parts not yet at their lowest;
5. a near-constant game (every part but at most four equal): the count of its common part
   searched down one by one, then the common part exchanged with each other one and the count
   searched again (:mod:`gamecert.kit.shrink_level`);
6. every single value not at its lowest searched down (binary search, the class's smallest
   first), where at most :data:`EXHAUSTIVE_PARTS` are not; near the end only (at most that many
   parts in all): every single part removed.

Each candidate is run once, and only when it is a valid input (``parse_input(format_input(x))
== x``) strictly smaller than the current one in the order (size, length of its text, text), so
the search always ends. A candidate whose text was met before (by a 128-bit digest) is left out
before it is parsed: on a long input the parse is the dearer part of a candidate. A pass that
finds nothing smaller and skipped no step is *finished*: no candidate the steps offer from the
reported input fails; that is what the result claims, no more (it says nothing of inputs no step
reaches: only a sweep of every smaller input shows an input minimal in size).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.kit.shrink_level import NearConstant

#: ddmin levels with more chunks than this wait for the end (single removals, when few parts)
LEVEL_CHUNKS = 256
#: the exhaustive single-part steps run only on inputs of at most this many parts in all
EXHAUSTIVE_PARTS = 4096
#: how far up a class's smallest value is looked for (values 0/1 .. this)
CLASS_SEARCH = 2048


@dataclass(frozen=True)
class Structure:
    """How one single game (an instance ``split`` gives) is built of parts.

    ``parts(game)`` the parts in order, ``build(parts)`` the game back (an invalid result is
    skipped by the shrinker, never run). Where a part is a number: ``value(part)`` reads it,
    ``with_value(part, v)`` sets it, ``smallest`` is the least value a part may have;
    ``value_class(part)`` (optional) the part's class: parts of one class play alike, so a part
    may be replaced by the smallest-valued part of its class without changing the answer.
    """

    parts: Callable[[Any], Sequence[Any]] = field(repr=False)
    build: Callable[[Sequence[Any]], Any] = field(repr=False)
    value: Callable[[Any], int] | None = field(default=None, repr=False)
    with_value: Callable[[Any, int], Any] | None = field(default=None, repr=False)
    smallest: int = 0
    value_class: Callable[[Any], Hashable] | None = field(default=None, repr=False)
    #: what a part is, in a word ("pile", "letter"): the result's words use it
    part_name: str = "part"


@dataclass
class ShrinkResult:
    """What a shrink did: the smallest failing input found, the runs it made, whether it ended
    by itself (a whole pass found nothing smaller and skipped no step) and, if not, what was cut."""

    instance: Any
    text: str
    runs: int
    finished: bool
    cut: str = ""
    steps: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: the failing input's game of its batch, when the batch was cut to it (1-based, of how many)
    moved: tuple[int, int] | None = None


class _OutOfTime(Exception):
    pass


class Shrinker(NearConstant):
    """Structural shrinking of one failing input (see the module's words).

    ``fails(instance, text)`` runs the candidate once and says whether it still fails as the
    original did. ``deadline`` (a :func:`time.monotonic` value) and ``max_runs`` bound the work;
    ``failing_game`` is the 1-based index of the game of a batch that failed, if known.
    """

    # set by shrink(): the current failing input (as parts, as an instance, its text, its key)
    state: list[tuple[Any, ...]]
    current: Any
    text: str
    key: tuple[int, int, str]
    improved: bool
    moved: tuple[int, int] | None

    def __init__(
        self,
        game: Any,
        structure: Structure,
        fails: Callable[[Any, str], bool],
        deadline: float | None = None,
        max_runs: int | None = None,
        failing_game: int | None = None,
        exhaustive_parts: int = EXHAUSTIVE_PARTS,
        level_chunks: int = LEVEL_CHUNKS,
    ) -> None:
        self.game = game
        self.st = structure
        self.fails = fails
        self.deadline = deadline
        self.max_runs = max_runs
        self.failing_game = failing_game
        self.exhaustive_parts = exhaustive_parts
        self.level_chunks = level_chunks
        self.batched = getattr(game, "max_batch", 1) > 1
        self.runs = 0
        #: digests of the texts of the candidates built (valid or not, run or not)
        self.seen: set[bytes] = set()
        self.step = ""
        self.steps: dict[str, int] = {}
        self.skipped: list[str] = []
        self._canon: dict[Hashable, int] = {}
        self._canon_part: dict[Any, Any] = {}

    # ---- the state: a list of games, each a tuple of parts ----------------------------------
    def _state(self, instance: Any) -> list[tuple[Any, ...]]:
        singles = self.game.split(instance) if self.batched else (instance,)
        return [tuple(self.st.parts(g)) for g in singles]

    def _instance(self, state: Sequence[Sequence[Any]]) -> Any:
        games = [self.st.build(p) for p in state]
        if not self.batched:
            return games[0]
        return games[0] if len(games) == 1 else self.game.merge(games)

    def _key(self, inst: Any, text: str) -> tuple[int, int, str]:
        return (self.game.size(inst), len(text), text)

    def _try(self, state: Sequence[Sequence[Any]]) -> bool:
        """Run ``state`` if it is a valid input smaller than the current one; True if it fails
        (it becomes the current input)."""
        # the time is checked before any work: building and validating a candidate of a million
        # parts costs a large part of a second even when it is then left out
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _OutOfTime
        if self.max_runs is not None and self.runs >= self.max_runs:
            raise _OutOfTime
        if not state or any(not p for p in state):
            return False
        try:
            inst = self._instance(state)
            if self.game.size(inst) > self.key[0]:  # larger: never smaller, whatever its text
                return False
            text = self.game.format_input(inst)
        except Exception:  # noqa: BLE001 - not a valid input: never run
            return False
        if not isinstance(text, str):
            return False
        # a 128-bit digest of the text (as the executor keeps of passed games): a candidate met
        # again (a chunk of equal parts removed elsewhere) costs its formatting, never a parse,
        # which is the dearer half of validating a long input
        digest = _digest(text)
        if digest in self.seen:
            return False
        self.seen.add(digest)
        try:
            if self.game.parse_input(text) != inst or self._key(inst, text) >= self.key:
                return False
        except Exception:  # noqa: BLE001 - not a valid input: never run
            return False
        self.runs += 1
        if not self.fails(inst, text):
            return False
        self.state = [tuple(p) for p in state]
        self.current, self.text, self.key = inst, text, self._key(inst, text)
        self.steps[self.step] = self.steps.get(self.step, 0) + 1
        self.improved = True
        return True

    # ---- values --------------------------------------------------------------------------
    def _has_values(self) -> bool:
        return self.st.value is not None and self.st.with_value is not None

    def _canonical(self, part: Any) -> Any:
        """The part with the smallest value of its class (itself if it has no class)."""
        if self.st.value_class is None:
            return part
        try:
            return self._canon_part[part]
        except (KeyError, TypeError):
            pass
        found = self._canonical_of(part)
        try:
            self._canon_part[part] = found
        except TypeError:  # an unhashable part: not remembered
            pass
        return found

    def _canonical_of(self, part: Any) -> Any:
        # _canonical came here with a value_class, from callers that checked _has_values()
        assert self.st.value is not None and self.st.with_value is not None
        assert self.st.value_class is not None
        v = self.st.value(part)
        cls = self.st.value_class(part)
        best = self._canon.get(cls)
        if best is None:
            for w in range(self.st.smallest, min(v, CLASS_SEARCH) + 1):
                try:
                    if self.st.value_class(self.st.with_value(part, w)) == cls:
                        best = w
                        break
                except Exception:  # noqa: BLE001 - a value the part cannot take
                    continue
            best = v if best is None else best
            self._canon[cls] = best
        return self.st.with_value(part, min(best, v))

    def _lowest(self, part: Any) -> Any:
        assert self.st.with_value is not None  # its callers checked _has_values()
        return self.st.with_value(part, self.st.smallest)

    # ---- the steps -------------------------------------------------------------------------
    def _front(self) -> None:
        """The failing game of a batch alone (position 1 of a batch of one), else the batch cut after it."""
        self.step = "batch: the failing game moved to position 1"
        f = self.failing_game
        if not self.batched or f is None or not 1 <= f <= len(self.state) or len(self.state) == 1:
            return
        t = len(self.state)
        if self._try([self.state[f - 1]]):
            self.moved = (f, t)
            return
        self.step = "batch: cut after the failing game"
        self._try(self.state[:f])

    def _all_values(self) -> None:
        if not self._has_values():
            return
        self.step = "values: every one the smallest of its class"
        self._try([tuple(self._canonical(p) for p in g) for g in self.state])
        self.step = "values: every one the smallest"
        self._try([tuple(self._lowest(p) for p in g) for g in self.state])

    def _search(self, count: int, make: Callable[[int], list[tuple[Any, ...]]]) -> None:
        """Binary search for the smallest m in [1, count) for which ``make(m)`` fails."""
        lo, hi = 1, count
        while lo < hi:
            mid = (lo + hi) // 2
            if self._try(make(mid)):
                hi = mid
            else:
                lo = mid + 1

    def _halve(
        self,
        count: Callable[[], int],
        start: Callable[[int], list[tuple[Any, ...]]],
        end: Callable[[int], list[tuple[Any, ...]]],
    ) -> None:
        """Halving, as ddmin's first level: the first half kept, else the last half, again from
        what fails, until neither half fails. Each candidate has half the parts of the one before,
        so a fault found on a million parts comes down to its failing size in about two runs'
        worth of parts; a binary search alone may climb back near the full size whenever its
        middle passes."""
        while count() > 1:
            half = count() // 2
            if not (self._try(start(half)) or self._try(end(half))):
                return

    def _counts(self) -> None:
        """Halving, then binary searches: every game's count of parts at once (a cap on each
        game's length, keeping its start, then its end), then the count of games of a batch (a
        prefix, then a suffix). The cap comes first: where the size is the longest game's, it is
        what lowers it."""
        longest = max(len(g) for g in self.state)
        if longest > 1:
            what = "every game's" if len(self.state) > 1 else "the"
            self.step = f"halving {what} count of {self.st.part_name}s (the first half or the last)"
            self._halve(
                lambda: max(len(g) for g in self.state),
                lambda c: [g[:c] for g in self.state],
                lambda c: [g[len(g) - c :] if len(g) > c else g for g in self.state],
            )
            longest = max(len(g) for g in self.state)
            self.step = f"binary search on {what} count of {self.st.part_name}s (keeping the start)"
            self._search(longest, lambda c: [g[:c] for g in self.state])
            longest = max(len(g) for g in self.state)
            self.step = f"binary search on {what} count of {self.st.part_name}s (keeping the end)"
            self._search(
                longest, lambda c: [g[len(g) - c :] if len(g) > c else g for g in self.state]
            )
        self._fill()
        if len(self.state) > 1:
            self.step = "halving the count of games (the first half or the last)"
            self._halve(
                lambda: len(self.state),
                lambda m: self.state[:m],
                lambda m: self.state[len(self.state) - m :],
            )
        if len(self.state) > 1:
            self.step = "binary search on the count of games (a prefix)"
            self._search(len(self.state), lambda m: self.state[:m])
            self.step = "binary search on the count of games (a suffix)"
            self._search(len(self.state), lambda m: self.state[len(self.state) - m :])

    def _filled(self, length: int, batch: bool) -> list[tuple[Any, ...]]:
        """Every game at ``length`` parts (cut, or its own parts repeated), and with ``batch`` the
        batch filled to the game's largest by its own games repeated."""
        games = [(g * -(-length // len(g)))[:length] for g in self.state]
        if batch and self.batched and len(games) < self.game.max_batch:
            games = [games[k % len(games)] for k in range(self.game.max_batch)]
        return games

    def _fill(self) -> None:
        """A binary search on a length every game is brought to (the longer cut, the shorter
        grown by their own parts repeated), the batch filled to the largest first. The order is by
        size first, so a candidate of a smaller size is smaller whatever its text's length: a fault
        of a threshold (a count of bytes or parts in all, over the whole batch) is shown at the
        smallest size any input of it has, which cutting alone does not reach from an input whose
        other games are short."""
        longest = max(len(g) for g in self.state)
        if longest <= 1 or (len(self.state) == 1 and not self.batched):
            return
        self.step = "binary search on a length every game is brought to (the batch filled)"
        self._search(longest, lambda c: self._filled(c, True))
        if self.batched and len(self.state) < self.game.max_batch:
            self.step = "binary search on a length every game is brought to"
            self._search(max(len(g) for g in self.state), lambda c: self._filled(c, False))

    def _ddmin(
        self,
        items: Callable[[], tuple[Any, ...]],
        put: Callable[[tuple[Any, ...]], list[tuple[Any, ...]]],
        name: str,
        final: bool,
    ) -> None:
        """Remove chunks of halving size; a level with more than ``level_chunks`` chunks runs only
        when ``final`` (the end, few parts), else it is noted as skipped.

        A level is probed first (its first, middle and last chunks): where none of them comes
        off, its other chunks wait, and the finer levels go on. A fault that needs a count of
        parts (past 50,000 piles) makes every chunk of a level too large to come off until the
        chunks are small enough, and each such level cost as many runs as it has chunks, pass
        after pass. The chunks that waited run when the finer levels removed nothing (the pass's
        claim is that of every level run whole); after a removal, the next pass probes again."""
        chunk = max(1, len(items()) // 2)
        waiting: list[tuple[int, list[int]]] = []  # (chunk size, the starts not yet tried)
        removed = False
        while True:
            n = len(items())
            if n <= 1:
                break
            chunk = min(chunk, max(1, n // 2))
            chunks = -(-n // chunk)
            if chunks > self.level_chunks and not final:
                self.skipped.append(
                    f"{name} in chunks of {chunk:,} and less ({n:,} {self.st.part_name}s)"
                )
                break
            self.step = f"ddmin over {name}, chunks of {chunk:,}"
            starts = list(range(0, n, chunk))
            probes = sorted({starts[0], starts[len(starts) // 2], starts[-1]})
            if chunk > 1 and len(starts) > len(probes):
                if not any(self._remove(items, put, at, chunk) for at in probes):
                    waiting.append((chunk, [at for at in starts if at not in probes]))
                    chunk //= 2
                    continue
                removed = True
            removed = self._level(items, put, chunk) or removed
            if chunk == 1:
                break
            chunk //= 2
        if removed:
            return
        for size, starts in waiting:  # the levels that waited, where nothing came off since
            self.step = f"ddmin over {name}, chunks of {size:,}"
            for at in starts:
                if at < len(items()) and self._remove(items, put, at, size):
                    return  # the next pass probes again, from the input now

    def _remove(
        self,
        items: Callable[[], tuple[Any, ...]],
        put: Callable[[tuple[Any, ...]], list[tuple[Any, ...]]],
        at: int,
        chunk: int,
    ) -> bool:
        cur = items()
        return self._try(put(cur[:at] + cur[at + chunk :]))

    def _level(
        self,
        items: Callable[[], tuple[Any, ...]],
        put: Callable[[tuple[Any, ...]], list[tuple[Any, ...]]],
        chunk: int,
    ) -> bool:
        """Every chunk of one level removed in turn; whether one came off."""
        removed = False
        start = 0
        while start < len(items()):
            if self._remove(items, put, start, chunk):
                removed = True
                continue  # the same place now holds the next chunk
            start += chunk
        return removed

    def _lower_chunks(self, g: int, final: bool) -> None:
        """Values of game ``g`` lowered chunk by chunk (to the class's smallest, then the
        smallest), the chunks made of the parts not yet at that value alone: a level's cost is
        the count of those parts, not of all (a fault on 50,000 piles of which forty are not at
        their lowest lowers those forty one by one)."""
        if not self._has_values():
            return
        for how, lower in (
            ("the smallest of its class", self._canonical),
            ("the smallest", self._lowest),
        ):
            chunk = 0
            while True:
                parts = self.state[g]
                todo = [k for k, p in enumerate(parts) if lower(p) != p]
                if not todo:
                    break
                chunk = max(1, len(todo) // 2) if not chunk else min(chunk, len(todo))
                if -(-len(todo) // chunk) > self.level_chunks and not final:
                    self.skipped.append(
                        f"values lowered in chunks of {chunk:,} and less ({len(todo):,} "
                        f"{self.st.part_name}s not at their lowest)"
                    )
                    break
                self.step = f"values lowered to {how}, chunks of {chunk:,}"
                for start in range(0, len(todo), chunk):
                    parts = self.state[g]
                    # the places of this chunk (the state may have changed: each place's part
                    # is lowered if it is not at that value yet)
                    places = todo[start : start + chunk]
                    low = list(parts)
                    for k in places:
                        low[k] = lower(parts[k])
                    if tuple(low) != parts:  # a chunk already at its lowest costs no run
                        self._try(self._with_game(g, tuple(low)))
                if chunk == 1:
                    break
                # 3 then 2, never 3 then 1: two values lowered together keep a parity that one
                # alone flips (m57h777.py: 777, five 2s and 51 ones came to no 1s from its 2s)
                chunk = 2 if chunk == 3 else chunk // 2

    def _runs_trimmed(self, g: int) -> None:
        """One part, then two, removed from each run of equal parts of game ``g`` side by side
        (its last ones): a cut that keeps a count's parity, or that a threshold on the count
        leaves room for, costs a few runs for each run of equal parts, where ddmin's single
        removals wait for the end (few parts in all)."""
        self.step = f"one or two {self.st.part_name}s removed from each run of equal ones"
        runs: list[tuple[int, int]] = []  # (end, length) of each run of equal parts
        parts = self.state[g]
        k = 0
        while k < len(parts):
            j = k
            while j + 1 < len(parts) and parts[j + 1] == parts[k]:
                j += 1
            runs.append((j + 1, j + 1 - k))
            k = j + 1
        if len(runs) > self.level_chunks:
            return
        for end, length in reversed(runs):  # from the end: earlier places stay where they were
            for cut in (1, 2):
                if cut > length:
                    break
                parts = self.state[g]
                if self._try(self._with_game(g, parts[: end - cut] + parts[end:])):
                    break

    def _with_game(self, g: int, parts: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return [*self.state[:g], parts, *self.state[g + 1 :]]

    def _each_value(self, g: int) -> None:
        """Every single value of game ``g`` not at its smallest searched down: its class's
        smallest, then a binary search for the smallest value that still fails."""
        if not self._has_values():
            return
        self.step = "each value searched down"
        value, with_value = self.st.value, self.st.with_value
        assert value is not None and with_value is not None  # _has_values() said so
        for k in range(len(self.state[g])):
            if k >= len(self.state[g]):
                return
            part = self.state[g][k]
            if self._lowest(part) == part:
                continue

            def at(v: int, k: int = k) -> list[tuple[Any, ...]]:
                parts = self.state[g]
                return self._with_game(g, parts[:k] + (with_value(parts[k], v),) + parts[k + 1 :])

            canon = self._canonical(part)
            if canon != part:
                self._try(self._with_game(g, self.state[g][:k] + (canon,) + self.state[g][k + 1 :]))
            v = value(self.state[g][k])
            lo, hi = self.st.smallest, v
            while lo < hi:
                mid = (lo + hi) // 2
                if self._try(at(mid)):
                    hi = mid
                else:
                    lo = mid + 1

    def _pass(self) -> None:
        self._front()
        self._all_values()
        self._counts()
        if len(self.state) > 1:
            self._ddmin(
                lambda: tuple(self.state), lambda games: list(games), "the games of the batch", True
            )
        parts_in_all = sum(len(g) for g in self.state)
        final = parts_in_all <= self.exhaustive_parts
        for g in range(len(self.state)):
            if g >= len(self.state):
                break
            self._ddmin(
                lambda g=g: self.state[g],  # type: ignore[misc]  # mypy cannot type a lambda whose default binds a loop variable
                lambda parts, g=g: self._with_game(g, parts),  # type: ignore[misc]  # (the same)
                f"{self.st.part_name}s",
                final,
            )
            self._runs_trimmed(g)
            # before the values: a near-constant game's count decides (one run a count), and each
            # of its thousands of equal parts lowered in turn would spend the time first
            self._near_constant(g)
            self._lower_chunks(g, final)
            if final or self._not_lowest(g) <= self.exhaustive_parts:
                self._each_value(g)
        if not final:
            self.skipped.append(
                f"single {self.st.part_name}s removed one by one: {parts_in_all:,} "
                f"{self.st.part_name}s, over the {self.exhaustive_parts:,} this runs on"
            )

    def _not_lowest(self, g: int) -> int:
        """How many parts of game ``g`` are not at the smallest value (0 without values)."""
        if not self._has_values():
            return 0
        return sum(self._lowest(p) != p for p in self.state[g])

    def shrink(self, instance: Any, text: str | None = None) -> ShrinkResult:
        """Shrink the failing ``instance`` (already known to fail; it is not run again)."""
        self.state = self._state(instance)
        self.current = instance
        self.text = text if text is not None else self.game.format_input(instance)
        self.key = self._key(instance, self.text)
        self.seen.add(_digest(self.text))
        self.moved = None
        finished, cut = False, ""
        try:
            while True:
                self.improved = False
                self.skipped = []
                self._pass()
                if not self.improved:
                    finished = not self.skipped
                    if self.skipped:
                        cut = "not run: " + "; ".join(dict.fromkeys(self.skipped))
                    break
        except _OutOfTime:
            cut = f"its time was up during: {self.step}"
        return ShrinkResult(
            self.current, self.text, self.runs, finished, cut, dict(self.steps), moved=self.moved
        )


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def default_structure(game: Any, instance: Any) -> Structure | None:
    """The structure a game gets without declaring one: a string is its letters; a tuple of
    integers its numbers (values from 0, invalid candidates skipped). None for anything else."""
    single = game.split(instance)[0] if getattr(game, "max_batch", 1) > 1 else instance
    if isinstance(single, str):
        return Structure(tuple, "".join, part_name="letter")
    if isinstance(single, tuple) and all(isinstance(x, int) for x in single):
        return Structure(tuple, tuple, lambda p: p, lambda p, v: v, 0, part_name="number")
    return None


def structure_of(game: Any, instance: Any) -> Structure | None:
    """The game's declared structure (:meth:`gamecert.kit.game.Game.structure`), else the default."""
    declared = getattr(game, "structure", None)
    found = declared() if callable(declared) else None
    return found if found is not None else default_structure(game, instance)


__all__ = [
    "EXHAUSTIVE_PARTS",
    "LEVEL_CHUNKS",
    "ShrinkResult",
    "Shrinker",
    "Structure",
    "default_structure",
    "structure_of",
]
