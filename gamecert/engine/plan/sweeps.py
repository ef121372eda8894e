"""The exhaustive sweeps of a plan: every input of each space size by size, the cheapest next
size first under a time budget (:func:`_cheapest_first`), smallest first across spaces by counts
(:func:`_exhaustive_groups`), and the sizes below a fault (:func:`below_groups`,
:func:`size_group`), lazily: a size is listed only when the executor reaches it."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from gamecert.engine import gamecode
from gamecert.engine.plan.spaces import _swept_sizes, space_inputs
from gamecert.engine.plan.units import CHUNK_RUNS, Group, _cut, _cut_pairs
from gamecert.kit.core import Core
from gamecert.kit.deciding import feature_spaces
from gamecert.kit.game import Game

#: inputs counted per space to order the sweep below a fault, cheapest space first
BELOW_COUNT_CAP = 20_000


def below_spaces(
    game: Game, size: int, fraction: float = 1.0, skip: Sequence[str] = (), at: bool = False
) -> list[tuple[str, tuple[int, ...], Any, int]]:
    """(name, sizes, space, inputs counted up to :data:`BELOW_COUNT_CAP`) of the exhaustive
    spaces and the deciding-feature families (the structured families) below ``size``, the
    cheapest space first (:func:`below_groups`)."""
    spaces = [(sp, fraction) for sp in game.exhaustive_spaces()]
    if not at:
        spaces += [(sp, 1.0) for sp in feature_spaces(game)]
    cost = []
    for sp, share in spaces:
        if sp.name in skip:
            continue
        sizes = tuple(
            s
            for s in sp.sizes[: max(1, math.ceil(len(sp.sizes) * share))]
            if (s == size if at else s < size)
        )
        if not sizes:
            continue
        # the order needs only rough counts: each space counted up to a cap, not listed whole
        listed = itertools.chain.from_iterable(sp.instances(s) for s in sizes)
        cost.append((sum(1 for _ in itertools.islice(listed, BELOW_COUNT_CAP)), sp.name, sizes, sp))
    return [
        (name, sizes, sp, count) for count, name, sizes, sp in sorted(cost, key=lambda c: c[:2])
    ]


def below_groups(
    game: Game,
    size: int,
    fraction: float = 1.0,
    chunk_runs: int = CHUNK_RUNS,
    skip: Sequence[str] = (),
    at: bool = False,
    passed: Callable[[str], bool] | None = None,
    jobs: int = 1,
) -> Iterator[Group]:
    """The sizes below ``size`` of the exhaustive spaces and the deciding-feature families (the
    structured families), space by space, the cheapest first; spaces named in ``skip`` left out.

    After a fault of size ``size``, this is what can show it minimal (or find a smaller one): a
    small space is finished whole before a large one starts, so its claim is not held up by the
    other's size. The exhaustive spaces keep the profile's share of their sizes (``fraction``);
    the structured families are swept at every size below the fault. ``at``: the exhaustive
    spaces at ``size`` itself instead (the first failing input there in sweep order is reported).

    Every group is lazy (:func:`size_group`): a size is listed only when the sweep reaches it,
    so a large space the time cannot reach costs nothing; single games for which ``passed``
    (their input text) is true already ran and passed in this run, and are not run again.
    """
    for _name, sizes, sp, _count in below_spaces(game, size, fraction, skip, at):
        for s in sizes:
            yield size_group(game, sp, s, chunk_runs, passed, jobs)


def size_group(
    game: Game,
    sp: Any,
    size: int,
    chunk_runs: int = CHUNK_RUNS,
    passed: Callable[[str], bool] | None = None,
    jobs: int = 1,
) -> Group:
    """Every input of one space at one size, as a lazy group (key ``exhaustive-NAME-size-N``):
    counted now, listed and checked chunk by chunk as the executor reaches them; singles of a
    multi-game format packed ``max_batch`` to a run; singles ``passed`` says already passed in
    this run left out (they count toward the space's inputs all the same); chunks cut so that
    ``jobs`` runners share a size."""
    where = f"the exhaustive space {sp.name!r} at size {size}"
    n = sum(
        1 for _ in gamecode.guarded(game.name, f"{where} (instances_of_size)", sp.instances(size))
    )
    batch = max(1, game.max_batch)
    runs = -(-n // batch)
    per_chunk = max(1, min(chunk_runs, -(-runs // max(1, jobs))))
    key = f"exhaustive-{sp.name}-size-{size}"

    def singles() -> Iterator[tuple[Any, str]]:
        seen: set[str] = set()
        for inst, text in space_inputs(game, sp.instances(size), where):
            if text in seen:
                continue
            seen.add(text)
            if passed is not None and passed(text):
                continue
            yield inst, text

    def packed() -> Iterator[tuple[Any, str]]:
        if batch == 1:
            yield from singles()
            return
        held: list[Any] = []
        merged_where = f"merge() of the exhaustive inputs of size {size}"
        for inst, _text in singles():
            held.append(inst)
            if len(held) == batch:
                run = game.merge(held)
                yield run, gamecode.check_input(game, run, merged_where)
                held = []
        if held:
            run = game.merge(held) if len(held) > 1 else held[0]
            yield run, gamecode.check_input(game, run, merged_where)

    return Group(
        "exhaustive",
        key,
        f"every input of size {size} in {sp.name}",
        size=size,
        spaces=(sp.name,),
        space_counts=((sp.name, n),),
        runs=runs,
        lazy=lambda: _cut_pairs(game, "exhaustive", key, packed(), per_chunk, size=size),
    )


def _cheapest_first(
    game: Game, fraction: float, chunk_runs: int, core: Core | None = None, depth: bool = False
) -> Iterator[Group]:
    """The exhaustive spaces under a time budget: each space size by size, the next size of the
    space whose next size is cheapest first, so that a small space (word_game's letter-count
    multisets: about 500 inputs up to 13 letters) goes deep while a large one (every 3-letter
    word: 17,576) waits, instead of every space held at the size the largest has reached. What
    a space's sizes ran whole is its evidence, as before. With ``core``, the sizes within the
    core's reach of each space, or with ``depth`` the sizes beyond it."""
    import heapq

    def count(sp: Any, size: int) -> int:
        return sum(1 for _ in itertools.islice(sp.instances(size), BELOW_COUNT_CAP))

    heap = []
    for order, sp in enumerate(game.exhaustive_spaces()):
        sizes = tuple(sp.sizes[: max(1, math.ceil(len(sp.sizes) * fraction))]) if sp.sizes else ()
        if core is not None:
            inner = core.space_reach(sp.name, sizes)
            sizes = sizes[len(inner) :] if depth else inner
        if sizes:
            heap.append((count(sp, sizes[0]), order, 0, sp, sizes))
    heapq.heapify(heap)
    while heap:
        _, order, at, sp, sizes = heapq.heappop(heap)
        for group in _exhaustive_groups(
            game, 1.0, chunk_runs, None, only=sp.name, sizes=[sizes[at]], spaces=[sp]
        ):
            yield dataclasses.replace(group, depth=True) if depth else group
        if at + 1 < len(sizes):
            heapq.heappush(heap, (count(sp, sizes[at + 1]), order, at + 1, sp, sizes))


def _exhaustive_groups(
    game: Game,
    fraction: float,
    chunk_runs: int,
    max_tests: int | None,
    only: str | None = None,
    sizes: Sequence[int] | None = None,
    spaces: Sequence[Any] | None = None,
) -> Iterator[Group]:
    """One group per size, smallest first across all spaces; inputs two spaces share run once.

    Singles of a multi-game format are packed ``max_batch`` to a run. With ``max_tests`` the
    sweep stops before the first size that does not fit whole.
    """
    spaces = [
        sp
        for sp in (game.exhaustive_spaces() if spaces is None else spaces)
        if only is None or sp.name == only
    ]
    allowed = [_swept_sizes(sp, fraction) for sp in spaces]
    if sizes is not None:
        allowed = [tuple(s for s in a if s in sizes) for a in allowed]
    sizes = sorted({s for sizes in allowed for s in sizes})
    used = 0
    closed: set[str] = set()  # by counts: a space stops at its first size that does not fit
    singles: list[Any]
    for size in sizes:
        names, singles, texts, seen, counts = [], [], [], set(), []
        for sp, sp_sizes in zip(spaces, allowed):
            if size not in sp_sizes or sp.name in closed:
                continue
            fresh, n = [], 0
            limit = None if max_tests is None else max_tests - used - len(singles)
            where = f"the exhaustive space {sp.name!r} at size {size}"
            for inst, text in space_inputs(game, sp.instances(size), where):
                n += 1
                if text not in seen:
                    fresh.append((inst, text))
                if limit is not None and len(fresh) > limit:
                    break
            if limit is not None and len(fresh) > limit:
                closed.add(sp.name)
                continue
            for inst, text in fresh:
                seen.add(text)
                singles.append(inst)
                texts.append(text)
            names.append(sp.name)
            counts.append((sp.name, n))
        if not names:
            if max_tests is not None and len(closed) == len(spaces):
                return
            continue
        used += len(singles)
        batch = max(1, game.max_batch)
        runs = [
            singles[i]
            if batch == 1
            else (
                game.merge(singles[i : i + batch])
                if len(singles[i : i + batch]) > 1
                else singles[i]
            )
            for i in range(0, len(singles), batch)
        ]
        key = f"exhaustive-size-{size}" if only is None else f"exhaustive-{only}-size-{size}"
        chunks = _cut(
            game,
            "exhaustive",
            key,
            runs,
            chunk_runs,
            size=size,
            where=f"merge() of the exhaustive inputs of size {size}" if batch > 1 else "",
            texts=texts if batch == 1 else None,
        )
        yield Group(
            "exhaustive",
            key,
            f"every input of size {size} in {', '.join(names)}",
            tuple(chunks),
            size=size,
            spaces=tuple(names),
            space_counts=tuple(counts),
            runs=len(runs),
        )


__all__ = ["BELOW_COUNT_CAP", "below_groups", "below_spaces", "size_group"]
