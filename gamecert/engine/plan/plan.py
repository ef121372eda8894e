"""What a certification runs, in which order, and how much of the time budget each phase may use.

Phases, in priority order (:data:`PHASES`):

1. **samples**: the statement's examples, each checked against the oracle first (not trusted);
2. **coverage**: the game's designed families (``strategies.coverage()``): every component size
   and value from the smallest to the maximum, alone and mixed with others, every batch position;
3. **worst**: the game's stated adversaries (``strategies.worst_cases()``): maximal inputs of
   maximal byte size with varied content, winning moves as late as possible, slow shapes;
4. **exhaustive**: every input of each exhaustive space, sizes increasing across all spaces;
5. **guided**: inputs steered by the candidate's own code (:mod:`gamecert.engine.judge.guided`): at
   most :data:`GUIDED_SHARE` of the budget, by time only, for a program gamecert builds;
6. **random**: blocks of Hypothesis examples from the game's strategy, each block's seed derived
   from the run's seed (the same seed gives the same inputs whatever else is loaded);
7. **largest**: the strategy module's maximum-size inputs.

A phase is a sequence of :class:`Group` s (a family, one size of the exhaustive sweep, a random
block), each cut into :class:`Chunk` s of a bounded number of runs: the unit a worker runs and a
pytest item holds. By time (``gamecert certify``), each phase may run until its cumulative share
of the budget (:data:`SHARES`) has passed, so time one phase leaves unused rolls over to the
next; samples and largest run until the budget's end. By counts (the pytest route), the exhaustive sweep
stops at a number of runs instead, so every process builds exactly the same chunks.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.engine import gamecode
from gamecert.engine.plan.draws import derive_seed, draw_examples
from gamecert.engine.plan.profiles import Profile
from gamecert.engine.plan.spaces import (
    _swept_sizes,
    space_inputs,  # noqa: F401 (plan.space_inputs, as before)
)
from gamecert.errors import GamecertError, InputError
from gamecert.kit.deciding import feature_families, feature_spaces
from gamecert.kit.game import Game

PHASES = ("samples", "coverage", "worst", "exhaustive", "guided", "random", "largest")
#: the cumulative share of the budget by which each phase must stop starting new chunks; a
#: phase that ends early leaves its time to the next. ``None``: until the budget's end.
SHARES: dict[str, float | None] = {
    "samples": None,
    "coverage": 0.40,
    "worst": 0.55,
    "exhaustive": 0.85,
    "guided": 0.95,
    "random": 0.95,
    "largest": None,
}
#: the guided phase's slice of the budget: when it will run (a candidate gamecert can instrument),
#: the shares of coverage, worst and exhaustive are scaled by ``1 - GUIDED_SHARE`` (0.40 becomes
#: 0.32, 0.85 becomes 0.68) and the guided phase runs for this share of the budget from its start
#: (a designed phase's last chunks may end late), never past its own share above; what it
#: leaves goes to the random phase
GUIDED_SHARE = 0.20
#: work per chunk, in run units: a run (one input, which may hold several games) costs one unit
#: plus one per :data:`RUN_BYTES` bytes of input, so that chunks take more nearly the same time whatever
#: the input size and however many games a run holds (pytest-xdist balances items of even size)
CHUNK_RUNS = 256
#: input bytes that cost as much as starting one run (judging and answering grow with the input)
RUN_BYTES = 1024
#: and at most this many input bytes per chunk
CHUNK_BYTES = 4 << 20
#: Hypothesis examples per random block
RANDOM_BLOCK = 100
#: the exhaustive sweep of a plan fixed by counts (the pytest route), in runs per profile; a
#: multi-game format packs ``max_batch`` games (tests) into one run
EXHAUSTIVE_RUNS = {"quick": 300, "default": 3_000, "thorough": 1_000_000}
#: environment variable that overrides the profile's count (in runs)
RUNS_ENV = "GAMECERT_EXHAUSTIVE_RUNS"
#: inputs counted per space to order the sweep below a fault, cheapest space first
BELOW_COUNT_CAP = 20_000
#: how long a failure may be shrunk, per profile (seconds)
SHRINK_SECONDS = {"quick": 10.0, "default": 30.0, "thorough": 300.0}


class HarnessError(GamecertError):
    """The harness cannot decide the right answer (registered solvers disagree, a bad sample)."""


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


@dataclass(frozen=True)
class PhasePlan:
    name: str
    groups: Callable[[], Iterator[Group]] = field(repr=False)
    #: chunks of different groups taken in turn (families: a cut-short phase still touches each)
    interleave: bool = False


@dataclass(frozen=True)
class Plan:
    game: str
    profile: Profile
    seed: int
    budget_s: float
    phases: tuple[PhasePlan, ...]
    #: (name, description, sizes) of each exhaustive space, for the evidence
    spaces: tuple[tuple[str, str, tuple[int, ...]], ...]
    by_counts: bool = False
    #: the random phase runs a fixed number of examples (``--examples``), not until its deadline
    random_fixed: bool = False
    #: (name, description, sizes) of each deciding-feature family: a coverage family that is also
    #: swept size by size below a fault (:func:`below_groups`)
    structured: tuple[tuple[str, str, tuple[int, ...]], ...] = ()
    #: what the game's size counts (``Game.size_measure``), for labels
    size_measure: str = ""

    def phase(self, name: str) -> PhasePlan | None:
        return next((p for p in self.phases if p.name == name), None)

    def all_groups(self) -> list[Group]:
        """Every group of every phase (the pytest route: a plan fixed by counts)."""
        return [g for p in self.phases for g in p.groups()]


def exhaustive_tests(game: Game, profile: Profile) -> int:
    """The exhaustive sweep by counts, in single games: ``$GAMECERT_EXHAUSTIVE_RUNS`` runs if set,
    else the profile's, times the games one run holds."""
    import os

    from gamecert.errors import UsageError

    raw = os.environ.get(RUNS_ENV)
    if raw is None or raw == "":
        runs = EXHAUSTIVE_RUNS.get(profile.name, EXHAUSTIVE_RUNS["default"])
    else:
        try:
            runs = int(raw)
        except ValueError:
            runs = -1
        if runs < 0:
            raise UsageError(f"{RUNS_ENV} must be a whole number of runs (0 or more), got {raw!r}")
    return runs * max(1, game.max_batch)


# ---- building a plan --------------------------------------------------------------------------


def make_plan(
    entry: Any,
    profile: Profile,
    seed: int,
    *,
    budget_s: float | None = None,
    examples: int | None = None,
    exhaustive_tests: int | None = None,
    chunk_runs: int = CHUNK_RUNS,
    phases: Sequence[str] | None = None,
    sample_solvers: bool = True,
    deciding: bool = True,
) -> Plan:
    """The plan of a certification of ``entry`` (a registry entry: game, strategies, solvers).

    ``budget_s`` (default: the profile's) bounds the run by time. ``exhaustive_tests`` fixes the
    exhaustive sweep by counts instead (whole sizes, in single games) and ``examples`` the
    random phase, as the pytest route needs; either makes the plan independent of speed.
    ``phases`` keeps only the phases named (samples always run).

    The samples are checked against the oracle (and, with ``sample_solvers``, every fast solver
    of ``entry``) first, and every family, random and largest input the game produces is
    checked with its ``parse_input`` as it is cut into chunks (:mod:`gamecert.engine.gamecode`);
    of an exhaustive space, the game's own enumeration, the first and last input of every size
    and one in :data:`CHECK_EVERY` between (:func:`space_inputs`). A mistake there is a
    :class:`~gamecert.errors.GameError`, never a candidate's fault.
    """
    if phases is not None:
        unknown = [p for p in phases if p not in PHASES]
        if unknown:
            from gamecert.errors import UsageError

            raise UsageError(f"unknown phase {unknown[0]!r}; the phases are {', '.join(PHASES)}")
    game = entry.game
    strategies = entry.strategies
    by_counts = exhaustive_tests is not None
    budget = float(budget_s if budget_s is not None else profile.budget_s)
    gamecode.check_samples(entry, solvers=sample_solvers)
    spaces = tuple(
        (sp.name, sp.description, tuple(sp.sizes))
        for sp in gamecode.call(game.name, "exhaustive_spaces()", game.exhaustive_spaces)
    )
    samples = _sample_group(game)
    plans = [
        PhasePlan("samples", lambda: iter([samples] if samples.eager else [])),
        PhasePlan(
            "coverage",
            lambda: _family_groups(
                game,
                "coverage",
                [
                    *(feature_families(game) if deciding else []),
                    *_families(strategies, "coverage", game.name),
                ],
                chunk_runs,
            ),
            interleave=True,
        ),
        PhasePlan(
            "worst",
            lambda: _family_groups(
                game, "worst", _families(strategies, "worst_cases", game.name), chunk_runs
            ),
            interleave=True,
        ),
        PhasePlan(
            "exhaustive",
            lambda: (
                _exhaustive_groups(game, profile.exhaustive, chunk_runs, exhaustive_tests)
                if exhaustive_tests is not None
                else _cheapest_first(game, profile.exhaustive, chunk_runs)
            ),
        ),
        PhasePlan(
            "guided", lambda: iter(())
        ),  # driven by the executor (judge/guided.py); never by counts
        PhasePlan(
            "random",
            lambda: _random_groups(
                game,
                strategies,
                seed,
                chunk_runs,
                None
                if examples is None and not by_counts
                else (profile.examples if examples is None else examples),
            ),
        ),
        PhasePlan("largest", lambda: _largest_groups(game, strategies, chunk_runs)),
    ]
    if phases is not None:
        plans = [p for p in plans if p.name == "samples" or p.name in phases]
    structured = (
        tuple((sp.name, sp.description, tuple(sp.sizes)) for sp in feature_spaces(game))
        if deciding
        else ()
    )
    return Plan(
        game.name,
        profile,
        seed,
        budget,
        tuple(plans),
        spaces,
        by_counts,
        examples is not None,
        structured,
        getattr(game, "size_measure", ""),
    )


def _sample_group(game: Game) -> Group:
    instances, texts = [], []
    for number, (text, _claimed) in enumerate(game.samples, 1):
        try:
            instances.append(game.parse_input(text))
        except InputError as exc:
            raise HarnessError(
                f"HARNESS ERROR: sample {number} of {game.name} is not a valid input: {exc}"
            ) from None
        texts.append(text)
    chunk = Chunk(
        "samples",
        "samples",
        "samples",
        tuple(instances),
        tuple(texts),
        sum(len(_singles(game, i)) for i in instances),
    )
    return Group(
        "samples",
        "samples",
        "the statement's samples",
        (chunk,) if instances else (),
        runs=len(instances),
    )


def _families(strategies: Any, name: str, game: str = "") -> list[Any]:
    make = getattr(strategies, name, None)
    return list(gamecode.call(game, f"strategies {name}()", make)) if callable(make) else []


def _family_groups(
    game: Game, phase: str, families: Sequence[Any], chunk_runs: int
) -> Iterator[Group]:
    for family in families:
        key = f"{phase}-{family.name}"
        where = f"the {phase} family {family.name!r} ({'coverage' if phase == 'coverage' else 'worst_cases'}())"
        yield Group(
            phase,
            key,
            f"{family.name}: {family.description}",
            adversary=getattr(family, "adversary", ""),
            lazy=lambda family=family, key=key, where=where: _cut_lazily(
                game,
                phase,
                key,
                gamecode.checked_family(game, where, family.count, family.instances()),
                chunk_runs,
                where=where,
            ),
            runs=family.count,
            first=getattr(family, "first", False),
        )


def _largest_groups(game: Game, strategies: Any, chunk_runs: int) -> Iterator[Group]:
    largest = list(
        gamecode.guarded(
            game.name,
            "strategies largest()",
            gamecode.call(game.name, "strategies largest()", strategies.largest),
        )
    )
    if largest:
        chunks = _cut(game, "largest", "largest", largest, 1, where="largest() in the strategies")
        yield Group(
            "largest",
            "largest",
            "the strategy's maximum-size inputs",
            tuple(chunks),
            size=max(game.size(i) for i in largest),
            runs=len(largest),
        )


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


def _cheapest_first(game: Game, fraction: float, chunk_runs: int) -> Iterator[Group]:
    """The exhaustive spaces under a time budget: each space size by size, the next size of the
    space whose next size is cheapest first, so that a small space (word_game's letter-count
    multisets: about 500 inputs up to 13 letters) goes deep while a large one (every 3-letter
    word: 17,576) waits, instead of every space held at the size the largest has reached. What
    a space's sizes ran whole is its evidence, as before."""
    import heapq

    def count(sp: Any, size: int) -> int:
        return sum(1 for _ in itertools.islice(sp.instances(size), BELOW_COUNT_CAP))

    heap = []
    for order, sp in enumerate(game.exhaustive_spaces()):
        sizes = tuple(sp.sizes[: max(1, math.ceil(len(sp.sizes) * fraction))]) if sp.sizes else ()
        if sizes:
            heap.append((count(sp, sizes[0]), order, 0, sp, sizes))
    heapq.heapify(heap)
    while heap:
        _, order, at, sp, sizes = heapq.heappop(heap)
        yield from _exhaustive_groups(
            game, 1.0, chunk_runs, None, only=sp.name, sizes=[sizes[at]], spaces=[sp]
        )
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


def _random_groups(
    game: Game, strategies: Any, seed: int, chunk_runs: int, total: int | None
) -> Iterator[Group]:
    """Blocks of :data:`RANDOM_BLOCK` examples, block ``b`` drawn with seed ``derive(seed, b)``;
    endless when ``total`` is None (the executor stops at the phase's deadline)."""
    strategy = gamecode.call(game.name, "strategies instances()", strategies.instances)
    block = 0
    left = total
    while left is None or left > 0:
        n = RANDOM_BLOCK if left is None else min(RANDOM_BLOCK, left)
        where = f"the strategy instances() (random block seed {derive_seed(seed, block)})"
        drawn = gamecode.call(
            game.name, where, draw_examples, strategy, n, derive_seed(seed, block)
        )
        key = f"random-{block}"
        chunks = _cut(game, "random", key, drawn, chunk_runs, where=where)
        yield Group(
            "random",
            key,
            f"{len(drawn)} Hypothesis examples, seed {derive_seed(seed, block)}",
            tuple(chunks),
            runs=len(drawn),
        )
        block += 1
        if left is not None:
            left -= n


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
    "CHUNK_RUNS",
    "PHASES",
    "SHARES",
    "Chunk",
    "Group",
    "HarnessError",
    "Plan",
    "PhasePlan",
    "derive_seed",
    "draw_examples",
    "make_plan",
]
