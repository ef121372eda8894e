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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.engine import gamecode
from gamecert.engine.plan.draws import derive_seed, draw_examples
from gamecert.engine.plan.profiles import Profile
from gamecert.engine.plan.spaces import space_inputs  # noqa: F401 (plan.space_inputs, as before)
from gamecert.engine.plan.sweeps import (  # noqa: F401 (plan.below_groups, as before)
    BELOW_COUNT_CAP,
    _cheapest_first,
    _exhaustive_groups,
    below_groups,
    below_spaces,
    size_group,
)
from gamecert.engine.plan.units import (  # noqa: F401 (plan.Chunk, plan.run_cost, as before)
    CHUNK_BYTES,
    CHUNK_RUNS,
    RUN_BYTES,
    Chunk,
    Group,
    _cut,
    _cut_lazily,
    _cut_pairs,
    _singles,
    even_cuts,
    run_cost,
)
from gamecert.errors import GamecertError, InputError
from gamecert.kit.core import Core
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
#: a plan with a certification core (:mod:`gamecert.kit.core`: a user's program, by time) runs its
#: bounded phases first, in this order, each until this cumulative share of the budget (the core
#: is sized to end well within it at a JVM's rate); then the guided phase and the sanitizer runs
#: with their own shares; then the depth: the exhaustive sizes beyond the core, the families' rest
#: and the random phase, each until its share (time one leaves goes to the next)
CORE_ORDER = ("samples", "coverage", "worst", "largest", "exhaustive")
CORE_SHARES: dict[str, float | None] = {
    "samples": None,
    "coverage": 0.90,
    "worst": 0.90,
    "largest": 0.90,
    "exhaustive": 0.90,
}
DEPTH_SHARES: dict[str, float] = {"exhaustive": 0.70, "coverage": 0.85}
#: the guided phase's slice of the budget: when it will run (a candidate gamecert can instrument),
#: the shares of coverage, worst and exhaustive are scaled by ``1 - GUIDED_SHARE`` (0.40 becomes
#: 0.32, 0.85 becomes 0.68) and the guided phase runs for this share of the budget from its start
#: (a designed phase's last chunks may end late), never past its own share above; what it
#: leaves goes to the random phase
GUIDED_SHARE = 0.20
#: Hypothesis examples per random block
RANDOM_BLOCK = 100
#: the exhaustive sweep of a plan fixed by counts (the pytest route), in runs per profile; a
#: multi-game format packs ``max_batch`` games (tests) into one run
EXHAUSTIVE_RUNS = {"quick": 300, "default": 3_000, "thorough": 1_000_000}
#: environment variable that overrides the profile's count (in runs)
RUNS_ENV = "GAMECERT_EXHAUSTIVE_RUNS"
#: how long a failure may be shrunk, per profile (seconds)
SHRINK_SECONDS = {"quick": 10.0, "default": 30.0, "thorough": 300.0}


class HarnessError(GamecertError):
    """The harness cannot decide the right answer (registered solvers disagree, a bad sample)."""


@dataclass(frozen=True)
class PhasePlan:
    name: str
    groups: Callable[[], Iterator[Group]] = field(repr=False)
    #: chunks of different groups taken in turn (families: a cut-short phase still touches each)
    interleave: bool = False
    #: depth beyond the certification core: open-ended, its end at its deadline is the plan's,
    #: not a cut (the exhaustive sizes beyond the core, the rest of a family the core capped)
    depth: bool = False


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
    #: the certification core this plan's CERTIFIED rests on (None: the whole plan is its core)
    core: Core | None = None
    #: (name, class) of each exhaustive space that lists one input of each class of inputs the
    #: game plays alike (``ExhaustiveSpace.one_of_each``), for the minimality's words
    one_of_each: tuple[tuple[str, str], ...] = ()
    #: the exhaustive spaces that list every valid input of each of their sizes
    #: (``ExhaustiveSpace.every_input``)
    every_input: tuple[str, ...] = ()

    def phase(self, name: str) -> PhasePlan | None:
        """The phase called ``name`` (of a plan with a core: its bounded part, not its depth)."""
        return next((p for p in self.phases if p.name == name and not p.depth), None)

    def core_reach(self, name: str, sizes: tuple[int, ...]) -> tuple[int, ...]:
        """The sizes of the exhaustive space ``name`` CERTIFIED needs swept whole."""
        return sizes if self.core is None else self.core.space_reach(name, sizes)

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
    core: bool = False,
) -> Plan:
    """The plan of a certification of ``entry`` (a registry entry: game, strategies, solvers).

    ``budget_s`` (default: the profile's) bounds the run by time. ``exhaustive_tests`` fixes the
    exhaustive sweep by counts instead (whole sizes, in single games) and ``examples`` the
    random phase, as the pytest route needs; either makes the plan independent of speed.
    ``phases`` keeps only the phases named (samples always run).

    By time, with ``core`` (a program run a process per test: ``gamecert certify``'s candidates)
    and a certification core the game states for the profile
    (``Game.certification_core``), the plan runs that core first (:data:`CORE_ORDER`) and the
    rest as depth (:func:`_with_core`); by counts (the registered solvers, the pytest route) it is
    the whole plan, as before.

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
    listed = gamecode.call(game.name, "exhaustive_spaces()", game.exhaustive_spaces)
    spaces = tuple((sp.name, sp.description, tuple(sp.sizes)) for sp in listed)
    one_of_each = tuple(
        (sp.name, str(sp.one_of_each)) for sp in listed if getattr(sp, "one_of_each", "")
    )
    every_input = tuple(sp.name for sp in listed if getattr(sp, "every_input", False))
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
        ),  # driven by the executor (judge/guided_phase.py); never by counts
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
    declared = getattr(game, "certification_core", None) or {}
    the_core = declared.get(profile.name) if core and not by_counts else None
    if the_core is not None:
        plans = _with_core(game, strategies, profile, deciding, chunk_runs, plans, the_core)
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
        the_core,
        one_of_each,
        every_input,
    )


def core_runs(plan: Plan) -> int:
    """The runs the certification core of ``plan`` holds (the samples, the families as the core
    caps them, the largest inputs, the exhaustive sizes within the core), counted, not run."""
    return sum(
        g.runs for p in plan.phases if not p.depth and p.name in CORE_ORDER for g in p.groups()
    )


def _with_core(
    game: Game,
    strategies: Any,
    profile: Profile,
    deciding: bool,
    chunk_runs: int,
    plans: list[PhasePlan],
    core: Core,
) -> list[PhasePlan]:
    """The phases of a plan with a certification core: the bounded ones in :data:`CORE_ORDER`
    (the families capped at the core's counts, the exhaustive spaces at the core's sizes), the
    guided phase, then the depth (the exhaustive sizes beyond the core, the families' rest) and
    the random phase."""
    by_name = {p.name: p for p in plans}

    def families(phase: str) -> list[Any]:
        listed = _families(
            strategies, "coverage" if phase == "coverage" else "worst_cases", game.name
        )
        return [*(feature_families(game) if deciding and phase == "coverage" else []), *listed]

    def capped(phase: str, rest: bool) -> Callable[[], Iterator[Group]]:
        return lambda: _family_groups(
            game, phase, families(phase), chunk_runs, core=core, rest=rest
        )

    def exhaustive(depth: bool) -> Callable[[], Iterator[Group]]:
        return lambda: _cheapest_first(game, profile.exhaustive, chunk_runs, core=core, depth=depth)

    out = [
        by_name["samples"],
        PhasePlan("coverage", capped("coverage", False), interleave=True),
        PhasePlan("worst", capped("worst", False), interleave=True),
        by_name["largest"],
        PhasePlan("exhaustive", exhaustive(False)),
        by_name["guided"],
        PhasePlan("exhaustive", exhaustive(True), depth=True),
        PhasePlan("coverage", capped("coverage", True), interleave=True, depth=True),
        PhasePlan("worst", capped("worst", True), interleave=True, depth=True),
        by_name["random"],
    ]
    return out


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
    game: Game,
    phase: str,
    families: Sequence[Any],
    chunk_runs: int,
    core: Core | None = None,
    rest: bool = False,
) -> Iterator[Group]:
    """One lazy group per family; with ``core``, the first inputs the core keeps of each (key
    ``PHASE-NAME``, as without one), or with ``rest`` what follows them (key
    ``PHASE-NAME-beyond-core``, a depth group; a family the core runs whole has none)."""
    for family in families:
        cap = family.count if core is None else core.family_cap(family.name, family.count)
        if rest and cap >= family.count:
            continue
        key = f"{phase}-{family.name}" + ("-beyond-core" if rest else "")
        where = f"the {phase} family {family.name!r} ({'coverage' if phase == 'coverage' else 'worst_cases'}())"
        start, stop = (cap, None) if rest else (0, cap)
        label = f"{family.name}: {family.description}"
        if core is not None and cap < family.count:
            label += (
                f" (inputs {cap + 1:,} to {family.count:,}: beyond the core)"
                if rest
                else f" (the core: its first {cap:,} of {family.count:,})"
            )
        yield Group(
            phase,
            key,
            label,
            adversary=getattr(family, "adversary", ""),
            lazy=lambda family=family, key=key, where=where, start=start, stop=stop: _cut_lazily(  # type: ignore[misc]  # mypy cannot type a lambda whose default binds a loop variable
                game,
                phase,
                key,
                itertools.islice(
                    gamecode.checked_family(game, where, family.count, family.instances()),
                    start,
                    stop,
                ),
                chunk_runs,
                where=where,
            ),
            runs=(family.count - cap) if rest else cap,
            first=getattr(family, "first", False) and not rest,
            depth=rest,
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


__all__ = [
    "CHUNK_RUNS",
    "PHASES",
    "SHARES",
    "Chunk",
    "Group",
    "HarnessError",
    "Plan",
    "PhasePlan",
    "core_runs",
    "derive_seed",
    "draw_examples",
    "make_plan",
]
