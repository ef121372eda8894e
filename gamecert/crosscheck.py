"""Cross-checks between the layers: solvers against the oracle, the oracle against minimax,
solvers against each other where the oracle does not reach.

The same functions serve ``pytest -n auto`` (the conformance suite), ``gamecert certify GAME``
(the registered solvers, with a table) and the tests that show every broken solver is caught.
One place decides whether two answers agree: :meth:`gamecert.game.Game.judge`.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as fixed_seed

from gamecert import interrupts
from gamecert.game import ExhaustiveSpace, Game, Instance, Solver
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


@dataclass(frozen=True)
class SolverResult:
    """Everything checked for one registered solver: the row of the certification table."""

    game: str
    solver: str
    sweeps: tuple[Sweep, ...] = field(default=())

    @property
    def disagreement(self) -> Disagreement | None:
        return next((s.disagreement for s in self.sweeps if s.disagreement), None)

    @property
    def verdict(self) -> Verdict:
        d = self.disagreement
        return d.verdict if d else Verdict.OK

    @property
    def tests(self) -> int:
        return sum(s.tests for s in self.sweeps)

    def describe(self) -> str:
        lines = [f"{self.game}/{self.solver}: {self.verdict} after {self.tests} tests"]
        lines += [f"  - {s.evidence} ({s.tests} tests, {s.seconds:.1f} s)" for s in self.sweeps]
        if self.disagreement:
            lines.append(self.disagreement.describe())
        return "\n".join(lines)


def _short(text: str, limit: int = 160) -> str:
    one = text.strip().replace("\n", " / ")
    return one if len(one) <= limit else one[:limit] + f"... ({len(text)} chars)"


def compare(game: Game, name: str, solver: Solver, reference: Reference, instance: Instance, found_by: str) -> Disagreement | None:
    """Run ``solver`` and the reference on ``instance``; the disagreement, if any."""
    ref_name, ref = reference
    expected = ref(instance)
    try:
        got = solver(instance)
    except Exception as exc:  # a solver's crash is a verdict, not the harness's crash
        tail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return Disagreement(
            game.name, name, ref_name, instance, game.format_input(instance), game.format_answer(expected),
            f"raised {tail}", "the solver raised an exception", found_by, Verdict.RE,
        )
    try:
        text = game.format_answer(got)
    except Exception as exc:
        return Disagreement(
            game.name, name, ref_name, instance, game.format_input(instance), game.format_answer(expected),
            repr(got), f"the answer cannot be formatted: {exc}", found_by, Verdict.PE,
        )
    reason = game.judge(instance, got, expected)
    if reason is None:
        return None
    return Disagreement(
        game.name, name, ref_name, instance, game.format_input(instance), game.format_answer(expected),
        text, reason, found_by,
    )


def oracle_reference(game: Game) -> Reference:
    return ("oracle", game.oracle)


def minimax_reference(game: Game) -> Reference:
    return ("minimax", game.minimax)


def sweep(game: Game, name: str, solver: Solver, reference: Reference, space: ExhaustiveSpace,
          sizes: Sequence[int] | None = None, max_size: int | None = None) -> Sweep:
    """Check ``solver`` on every instance of ``space`` (optionally some sizes only), smallest first.

    The first disagreement found is minimal: every smaller instance of the space was checked.
    """
    chosen = [s for s in (space.sizes if sizes is None else sizes) if max_size is None or s <= max_size]
    start, tests = time.perf_counter(), 0
    for size in chosen:
        interrupts.checkpoint()
        for instance in space.instances(size):
            tests += 1
            d = compare(game, name, solver, reference, instance, f"exhaustive {space.name}, size {size}")
            if d:
                return Sweep(_sweep_evidence(space, chosen, size, stopped=True), tests, time.perf_counter() - start, d,
                             f"{space.name}: failed at size {size}")
    short = f"{space.name} <= {chosen[-1]} ({tests:,})" if chosen else f"{space.name}: none"
    return Sweep(_sweep_evidence(space, chosen), tests, time.perf_counter() - start, short=short)


def _sweep_evidence(space: ExhaustiveSpace, sizes: Sequence[int], at: int | None = None, stopped: bool = False) -> str:
    if not sizes:
        return f"exhaustive {space.name}: no sizes"
    if stopped:
        return f"exhaustive {space.name}: stopped at size {at}"
    full = list(sizes) == list(space.sizes)
    what = space.description if full else f"{space.name}, sizes {sizes[0]}..{sizes[-1]}"
    return f"exhaustive: {what}"


def random_check(game: Game, name: str, solver: Solver, reference: Reference, strategy: Any,
                 examples: int, seed: int, label: str) -> Sweep:
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
    smallest = minimise(game, lambda i: compare(game, name, solver, reference, i, "") is not None, shrunk.instance)
    if smallest != shrunk.instance:
        again = compare(game, name, solver, reference, smallest, f"{label}, seed {seed}, then minimised")
        shrunk = again or shrunk
    return Sweep(evidence, count[0], time.perf_counter() - start, shrunk, short)


def minimise(game: Game, fails: Callable[[Instance], bool], instance: Instance,
             budget: int = 400, seconds: float = 30.0) -> Instance:
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


def fixed_check(game: Game, name: str, solver: Solver, reference: Reference, instances: Iterable[Instance], label: str) -> Sweep:
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


def certify_solver(entry: Any, solver_name: str, solver: Solver, profile: Any, seed: int = 0,
                   progress: Callable[[str], None] | None = None) -> SolverResult:
    """Every check one solver gets, in order, stopping at the first disagreement."""
    game = entry.game
    sweeps: list[Sweep] = []

    def add(s: Sweep) -> bool:
        interrupts.checkpoint()
        sweeps.append(s)
        if progress:
            progress(s.evidence)
        return s.disagreement is None

    oracle = oracle_reference(game)
    samples = [game.parse_input(text) for text, _ in game.samples]
    if not add(fixed_check(game, solver_name, solver, oracle, samples, "samples")):
        return SolverResult(game.name, solver_name, tuple(sweeps))
    for space in game.exhaustive_spaces():
        sizes = space.sizes[: max(1, round(len(space.sizes) * profile.exhaustive))]
        if not add(sweep(game, solver_name, solver, oracle, space, sizes)):
            return SolverResult(game.name, solver_name, tuple(sweeps))
    if not add(random_check(game, solver_name, solver, oracle, entry.oracle_instances(), profile.examples, seed,
                            "within the oracle's reach")):
        return SolverResult(game.name, solver_name, tuple(sweeps))
    peer = peers_reference(entry.solvers, solver_name)
    if peer is not None:
        if not add(random_check(game, solver_name, solver, peer, entry.instances(), profile.large_examples, seed,
                                f"whole input space vs {peer[0]}")):
            return SolverResult(game.name, solver_name, tuple(sweeps))
        add(fixed_check(game, solver_name, solver, peer, entry.strategies.largest(), f"max sizes vs {peer[0]}"))
    return SolverResult(game.name, solver_name, tuple(sweeps))


def certify_registered_command(args: Any) -> int:
    """``gamecert certify GAME|all`` with no candidate: every registered solver, a table.

    Exit 0 all certified, 1 a solver disagrees, 130 interrupted with nothing found (the table of
    the solvers completed so far is printed first).
    """
    import random

    from rich.console import Console
    from rich.table import Table

    from gamecert import registry
    from gamecert.errors import UsageError
    from gamecert.profiles import get_profile

    # options only a candidate program uses: with no candidate they are refused, not ignored
    candidate_only = (("time_limit", "--time-limit"), ("memory_limit", "--memory-limit"),
                      ("report_dir", "--report-dir"), ("exhaustive_runs", "--exhaustive-runs"),
                      ("no_fork_server", "--no-fork-server"))
    given = [flag for attr, flag in candidate_only if getattr(args, attr, None) not in (None, False)]
    if given:
        raise UsageError(f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} only to a candidate "
                         "program (`gamecert certify GAME CANDIDATE`); the registered solvers run in-process")
    if args.examples is not None and args.examples < 1:
        raise UsageError(f"--examples must be at least 1 for the registered solvers, got {args.examples}")
    profile = get_profile(args.profile)
    if args.examples is not None:
        profile = type(profile)(profile.name, args.examples, profile.exhaustive, args.examples, profile.description)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    console = Console()
    entries = registry.resolve(args.game)
    results: list[SolverResult] = []
    start = time.perf_counter()
    interrupted = False
    console.print(f"certifying the registered solvers of {', '.join(e.name for e in entries)} "
                  f"(profile {profile.name}, seed {seed})")
    try:
        with console.status("") as status:
            for entry in entries:
                for name in sorted(entry.solvers):
                    status.update(f"{entry.name}/{name}: starting")
                    result = certify_solver(entry, name, entry.solvers[name], profile, seed,
                                            lambda ev, e=entry.name, n=name: status.update(f"{e}/{n}: done {ev}"))
                    results.append(result)
    except KeyboardInterrupt:  # keep what was completed: the table below says how far it got
        interrupts.delivered()
        interrupted = True
    table = Table(title=f"Registered solvers against the oracle (seed {seed}, profile {profile.name})"
                        + (" - INTERRUPTED, the solvers completed so far" if interrupted else ""))
    for column in ("game", "solver", "evidence", "tests", "time", "verdict"):
        table.add_column(column, justify="right" if column in ("tests", "time") else "left")
    for r in results:
        evidence = "; ".join(s.short or s.evidence for s in r.sweeps)
        style = "green" if r.verdict is Verdict.OK else "red"
        seconds = sum(s.seconds for s in r.sweeps)
        table.add_row(r.game, r.solver, evidence, f"{r.tests:,}", f"{seconds:.1f} s", f"[{style}]{r.verdict}[/{style}]")
    console.print(table)
    failures = [r for r in results if r.disagreement]
    for r in failures:
        console.print(r.disagreement.describe(), markup=False)
    total = sum(r.tests for r in results)
    elapsed = time.perf_counter() - start
    planned = sum(len(e.solvers) for e in entries)
    outcome = "all certified" if not failures else f"{len(failures)} failed"
    if interrupted:
        outcome = f"INTERRUPTED after {len(results)} of {planned} solvers, " + (
            "nothing found so far" if not failures else f"{len(failures)} failed")
    console.print(f"{len(results)} solvers, {total} tests in {elapsed:.1f} s; {outcome} (seed {seed})")
    if failures:
        return 1
    return 130 if interrupted else 0
