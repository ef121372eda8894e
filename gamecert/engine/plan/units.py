"""The units a plan is made of: a :class:`Chunk` (whole inputs a worker runs, a pytest item
holds) and a :class:`Group` (a family, one size of a sweep, a random block: completed or not as a
whole), and how inputs are cut into chunks of about even work (:func:`run_cost`,
:func:`even_cuts`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.engine import gamecode
from gamecert.kit.game import Game

#: work per chunk, in run units: a run (one input, which may hold several games) costs one unit
#: plus one per :data:`RUN_BYTES` bytes of input, so that chunks take more nearly the same time whatever
#: the input size and however many games a run holds (pytest-xdist balances items of even size)
CHUNK_RUNS = 256
#: input bytes that cost as much as starting one run (judging and answering grow with the input)
RUN_BYTES = 1024
#: and at most this many input bytes per chunk
CHUNK_BYTES = 4 << 20


@dataclass(frozen=True)
class Chunk:
    """One unit of work: whole inputs of one group, each one run of the candidate."""

    phase: str
    key: str  # stable and unique within a plan: "coverage-letter-count-alone-0", "exhaustive-size-3-1"
    group: str  # the key of the group it belongs to
    instances: tuple[Any, ...]
    texts: tuple[str, ...]
    games: int  # single games (tests) these inputs hold
    size: int | None = None  # exhaustive: the size swept

    @property
    def tests(self) -> int:
        return self.games


@dataclass(frozen=True)
class Group:
    """A family, one size of the exhaustive sweep or a random block: completed or not, as a whole.

    A family's chunks are cut lazily (``lazy``), as the executor reaches them: a family of
    large inputs is never held in memory whole; ``chunks`` lists them all when needed (pytest).
    """

    phase: str
    key: str
    label: str
    eager: tuple[Chunk, ...] = ()
    size: int | None = None
    spaces: tuple[str, ...] = ()
    adversary: str = ""
    #: exhaustive: (space, inputs of this size in it), before shared inputs are merged
    space_counts: tuple[tuple[str, int], ...] = ()
    lazy: Callable[[], Iterator[Chunk]] | None = field(default=None, repr=False, compare=False)
    #: inputs (runs) the group holds
    runs: int = 0
    #: a family that runs first in its phase (gamecert.kit.game.Family.first)
    first: bool = False
    #: depth beyond the certification core (its running whole is not needed for CERTIFIED)
    depth: bool = False

    def iter_chunks(self) -> Iterator[Chunk]:
        return self.lazy() if self.lazy is not None else iter(self.eager)

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        if self.lazy is None:
            return self.eager
        cached = self.__dict__.get("_listed")
        if cached is None:
            cached = tuple(self.lazy())
            object.__setattr__(self, "_listed", cached)
        return cached

    @property
    def tests(self) -> int:
        """Single games it holds (for a lazy family: its inputs, without listing them)."""
        if self.lazy is not None and "_listed" not in self.__dict__:
            return self.runs
        return sum(c.games for c in self.chunks)


def _singles(game: Game, instance: Any) -> tuple[Any, ...]:
    return game.split(instance) if game.max_batch > 1 else (instance,)


def run_cost(text: str) -> int:
    """The work of one run in run units: one, plus one per :data:`RUN_BYTES` bytes of input.

    >>> run_cost("AAA\\n"), run_cost("x" * 4096)
    (1, 5)
    """
    return 1 + len(text) // RUN_BYTES


def even_cuts(
    costs: Sequence[int], sizes: Sequence[int], max_cost: int, max_bytes: int
) -> list[int]:
    """Where to cut runs of ``costs`` (work) and ``sizes`` (bytes) into the fewest chunks of
    about equal work within both bounds: the start index of each chunk after the first.

    Each chunk ends where the running total first reaches its share, so chunks differ by less
    than one run; the number of chunks grows until every chunk fits (a run larger than a bound
    is a chunk of its own).

    >>> even_cuts([1] * 300, [4] * 300, 256, 1 << 20)
    [150]
    >>> even_cuts([1] * 10, [4] * 10, 256, 1 << 20)
    []
    """
    total, nbytes, n = sum(costs), sum(sizes), len(costs)
    parts = max(1, math.ceil(total / max(1, max_cost)), math.ceil(nbytes / max(1, max_bytes)))
    cuts: list[int]
    while True:
        cuts, done, cost, size = [], 0, 0, 0
        fits = True
        for i, (c, b) in enumerate(zip(costs, sizes)):
            if i and (
                done + cost >= (len(cuts) + 1) * total / parts
                and len(cuts) < parts - 1
                or cost + c > max_cost
                or size + b > max_bytes
            ):
                fits = fits and len(cuts) < parts - 1
                cuts.append(i)
                done, cost, size = done + cost, 0, 0
            cost += c
            size += b
        if fits or parts >= n:
            return cuts
        parts += 1


def _cut_lazily(
    game: Game, phase: str, key: str, instances: Iterable[Any], chunk_runs: int, where: str = ""
) -> Iterator[Chunk]:
    """``instances`` in chunks of at most ``chunk_runs`` run units (:func:`run_cost`) and
    :data:`CHUNK_BYTES` bytes, one chunk at a time (keys ``KEY-i``): a family is not drawn whole
    in advance, so only its last chunk may be smaller than the bound (:func:`_cut` cuts a group
    it holds whole into even shares)."""
    checked = ((inst, gamecode.check_input(game, inst, where or key)) for inst in instances)
    return _cut_pairs(game, phase, key, checked, chunk_runs)


def _cut_pairs(
    game: Game,
    phase: str,
    key: str,
    pairs: Iterable[tuple[Any, str]],
    chunk_runs: int,
    size: int | None = None,
) -> Iterator[Chunk]:
    """:func:`_cut_lazily` of (instance, checked input text) pairs."""
    batch: list[Any] = []
    texts: list[str] = []
    games = nbytes = number = cost = 0
    for inst, text in pairs:
        if batch and (cost + run_cost(text) > chunk_runs or nbytes + len(text) > CHUNK_BYTES):
            yield Chunk(phase, f"{key}-{number}", key, tuple(batch), tuple(texts), games, size)
            batch, texts, games, nbytes, cost, number = [], [], 0, 0, 0, number + 1
        batch.append(inst)
        texts.append(text)
        games += len(_singles(game, inst))
        nbytes += len(text)
        cost += run_cost(text)
    if batch:
        yield Chunk(phase, f"{key}-{number}", key, tuple(batch), tuple(texts), games, size)


def _cut(
    game: Game,
    phase: str,
    key: str,
    instances: list[Any],
    chunk_runs: int,
    size: int | None = None,
    where: str = "",
    texts: list[str] | None = None,
) -> list[Chunk]:
    """``instances`` in chunks of at most ``chunk_runs`` run units (:func:`run_cost`) and
    :data:`CHUNK_BYTES` bytes, of about equal work (:func:`even_cuts`); each input checked with the
    game's ``parse_input`` (``where`` produced it; "": already checked, and ``texts``, if given,
    are their input texts)."""
    if texts is None:
        texts = [
            gamecode.check_input(game, inst, where) if where else game.format_input(inst)
            for inst in instances
        ]
    cuts = even_cuts([run_cost(t) for t in texts], [len(t) for t in texts], chunk_runs, CHUNK_BYTES)
    bounds = list(zip([0, *cuts], [*cuts, len(texts)]))
    chunks = []
    for number, (a, b) in enumerate(bounds):
        if a == b:
            continue
        games = sum(len(_singles(game, inst)) for inst in instances[a:b])
        # a group of one chunk: the chunk is known by the group's own key
        name = key if len(bounds) == 1 else f"{key}-{number}"
        chunks.append(
            Chunk(phase, name, key, tuple(instances[a:b]), tuple(texts[a:b]), games, size)
        )
    return chunks


__all__ = [
    "CHUNK_BYTES",
    "CHUNK_RUNS",
    "RUN_BYTES",
    "Chunk",
    "Group",
    "even_cuts",
    "run_cost",
]
