"""Cross-checks between the layers, for the conformance suite (``pytest -n auto``): the oracle
against plain minimax, each solver against the oracle size by size and, beyond the oracle's
reach, against another registered solver.

``gamecert certify GAME|all`` does not use these: it runs each registered solver through the
certification pipeline (:mod:`gamecert.commands.certify_all`), as it runs a candidate program. One
place decides whether two answers agree: :meth:`gamecert.kit.game.Game.judge`.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as fixed_seed

from gamecert.engine import gamecode, interrupts
from gamecert.kit.game import ExhaustiveSpace, Game, Instance, Solver
from gamecert.verdict import Verdict

#: a reference: a name for reports and a function giving the expected answer
Reference = tuple[str, Solver]


@dataclass(frozen=True)
class Disagreement:
    """A solver and its reference disagree (or the solver crashed) on one input."""

    game: str
    solver: str
    reference: str
    instance: Instance
    input_text: str
    expected: str
    got: str
    reason: str
    found_by: str
    verdict: Verdict = Verdict.WA

    def describe(self) -> str:
        return (
            f"{self.game}/{self.solver}: {self.verdict} against {self.reference} ({self.found_by})\n"
            f"  input:    {_short(self.input_text)}\n"
            f"  expected: {_short(self.expected)}\n"
            f"  got:      {_short(self.got)}\n"
            f"  why:      {self.reason}"
        )


@dataclass(frozen=True)
class Sweep:
    """What one check covered and, if it found one, the first disagreement."""

    evidence: str
    tests: int
    seconds: float
    disagreement: Disagreement | None = None
    #: a few words for a table cell
    short: str = ""


def _short(text: str, limit: int = 160) -> str:
    one = text.strip().replace("\n", " / ")
    return one if len(one) <= limit else one[:limit] + f"... ({len(text)} chars)"


def compare(
    game: Game, name: str, solver: Solver, reference: Reference, instance: Instance, found_by: str
) -> Disagreement | None:
    """Run ``solver`` and the reference on ``instance``; the disagreement, if any."""
    ref_name, ref = reference
    with gamecode.section(game.name, f"the reference {ref_name}"):  # game code: bounded and named
        expected = ref(instance)
    try:
        with gamecode.section(
            game.name, f"the solver {name}", blame_errors=False
        ):  # a hang is a GAME ERROR
            got = solver(instance)
    except Exception as exc:  # a solver's crash is a verdict, not the harness's crash
        tail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return Disagreement(
            game.name,
            name,
            ref_name,
            instance,
            game.format_input(instance),
            game.format_answer(expected),
            f"raised {tail}",
            "the solver raised an exception",
            found_by,
            Verdict.RE,
        )
    try:
        text = game.format_answer(got)
    except Exception as exc:
        return Disagreement(
            game.name,
            name,
            ref_name,
            instance,
            game.format_input(instance),
            game.format_answer(expected),
            repr(got),
            f"the answer cannot be formatted: {exc}",
            found_by,
            Verdict.PE,
        )
    reason = game.judge(instance, got, expected)
    if reason is None:
        return None
    return Disagreement(
        game.name,
        name,
        ref_name,
        instance,
        game.format_input(instance),
        game.format_answer(expected),
        text,
        reason,
        found_by,
    )


def oracle_reference(game: Game) -> Reference:
    return ("oracle", game.oracle)


def minimax_reference(game: Game) -> Reference:
    return ("minimax", game.minimax)


def sweep(
    game: Game,
    name: str,
    solver: Solver,
    reference: Reference,
    space: ExhaustiveSpace,
    sizes: Sequence[int] | None = None,
    max_size: int | None = None,
) -> Sweep:
    """Check ``solver`` on every instance of ``space`` (optionally some sizes only), smallest first.

    The first disagreement found is minimal: every smaller instance of the space was checked.
    """
    chosen = [
        s for s in (space.sizes if sizes is None else sizes) if max_size is None or s <= max_size
    ]
    start, tests = time.perf_counter(), 0
    for size in chosen:
        interrupts.checkpoint()
        for instance in space.instances(size):
            tests += 1
            d = compare(
                game, name, solver, reference, instance, f"exhaustive {space.name}, size {size}"
            )
            if d:
                return Sweep(
                    _sweep_evidence(space, chosen, size, stopped=True),
                    tests,
                    time.perf_counter() - start,
                    d,
                    f"{space.name}: failed at size {size}",
                )
    short = f"{space.name} <= {chosen[-1]} ({tests:,})" if chosen else f"{space.name}: none"
    return Sweep(_sweep_evidence(space, chosen), tests, time.perf_counter() - start, short=short)


def _sweep_evidence(
    space: ExhaustiveSpace, sizes: Sequence[int], at: int | None = None, stopped: bool = False
) -> str:
    if not sizes:
        return f"exhaustive {space.name}: no sizes"
    if stopped:
        return f"exhaustive {space.name}: stopped at size {at}"
    full = list(sizes) == list(space.sizes)
    what = space.description if full else f"{space.name}, sizes {sizes[0]}..{sizes[-1]}"
    return f"exhaustive: {what}"


def random_check(
    game: Game,
    name: str,
    solver: Solver,
    reference: Reference,
    strategy: Any,
    examples: int,
    seed: int,
    label: str,
) -> Sweep:
    """Hypothesis: ``examples`` cases from ``strategy``; on failure, the shrunk case."""
    start = time.perf_counter()
    found: list[Disagreement] = []
    count = [0]

    @fixed_seed(seed)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        print_blob=False,
    )
    @given(strategy)
    def check(instance: Instance) -> None:
        count[0] += 1
        d = compare(game, name, solver, reference, instance, f"{label}, seed {seed}")
        if d:
            found.append(d)  # Hypothesis replays the shrunk case last, so found[-1] is minimal
            raise AssertionError(d.reason)

    try:
        check()
    except AssertionError:
        pass
    evidence = f"random: {label}, {examples} cases, seed {seed}"
    short = f"random {count[0]} vs {reference[0]}"
    if not found:
        return Sweep(evidence, count[0], time.perf_counter() - start, short=short)
    shrunk = found[-1]
    smallest = minimise(
        game, lambda i: compare(game, name, solver, reference, i, "") is not None, shrunk.instance
    )
    if smallest != shrunk.instance:
        again = compare(
            game, name, solver, reference, smallest, f"{label}, seed {seed}, then minimised"
        )
        shrunk = again or shrunk
    return Sweep(evidence, count[0], time.perf_counter() - start, shrunk, short)


def minimise(
    game: Game,
    fails: Callable[[Instance], bool],
    instance: Instance,
    budget: int = 400,
    seconds: float = 30.0,
) -> Instance:
    """Greedy size reduction of a failing input: take the first smaller valid input that still
    fails, repeat until none does (or the budget of evaluations or time is spent).

    The result is 1-minimal under :meth:`Game.smaller` when the budget was not exhausted.
    """
    deadline = time.perf_counter() + seconds
    seen: set[Any] = {instance}
    evaluations = 0
    improved = True
    while improved and evaluations < budget and time.perf_counter() < deadline:
        improved = False
        for candidate in game.smaller(instance):
            if candidate in seen:
                continue
            seen.add(candidate)
            try:
                if game.parse_input(game.format_input(candidate)) != candidate:
                    continue
            except Exception:
                continue  # not a valid input: not a counterexample anyone can use
            evaluations += 1
            if fails(candidate):
                instance = candidate
                improved = True
                break
            if evaluations >= budget or time.perf_counter() >= deadline:
                break
    return instance


def fixed_check(
    game: Game,
    name: str,
    solver: Solver,
    reference: Reference,
    instances: Iterable[Instance],
    label: str,
) -> Sweep:
    """Check a fixed list (samples, maximum-size inputs)."""
    start, tests = time.perf_counter(), 0
    for instance in instances:
        tests += 1
        d = compare(game, name, solver, reference, instance, label)
        if d:
            return Sweep(label, tests, time.perf_counter() - start, d, f"{label}: failed")
    return Sweep(label, tests, time.perf_counter() - start, short=f"{label} ({tests})")


def peers_reference(solvers: dict[str, Solver], exclude: str) -> Reference | None:
    """Another registered solver, the reference beyond the oracle's reach."""
    others = sorted(n for n in solvers if n != exclude)
    if not others:
        return None
    return (f"solver {others[0]}", solvers[others[0]])
