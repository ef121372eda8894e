"""Certify a candidate program: run it on a game's inputs, judge it, and report with evidence.

``gamecert certify GAME CANDIDATE`` runs four phases, cheapest evidence first, and stops at the
first fault:

1. **samples**: the statement's examples, each checked against the oracle first (not trusted);
2. **exhaustive**: every input of each of the game's exhaustive spaces, in increasing size
   across all spaces, whole sizes only, within the profile's budget of tests. The first fault
   found here is minimal by construction: every smaller input of every space has passed;
3. **random**: Hypothesis cases from the game's strategy over the whole input space, with a
   given seed (replayable; no example database) and shrunk on failure;
4. **largest**: the strategy module's maximum-size inputs, under the time limit.

Where the format holds several games (``game.max_batch > 1``) the exhaustive phase runs up to
``max_batch`` games per input, and a failing batch is narrowed down to the first game that
fails on its own (a one-game input), or else to the shortest failing prefix of the batch.

Expected answers come from ``game.oracle`` within its reach and otherwise from every registered
fast solver, which must all agree (:class:`HarnessError` if they do not). Judging: sandbox
status -> RE/TLE/MLE/OLE; output -> ``game.parse_answer`` (PE for a malformed number, WA for a wrong, missing or extra
token: :mod:`gamecert.tokens`) -> ``game.judge`` (WA with its reason).

The same :class:`Plan` of chunks drives the command line (in order, stopping at the first fault)
and the pytest plugin (:mod:`gamecert.pytest_candidate`, one test item per chunk).
"""

from __future__ import annotations

import math
import os
import random
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from gamecert import interrupts
from gamecert.errors import (
    AnswerError,
    GamecertError,
    InputError,
    OutOfReach,
    UsageError,
)
from gamecert.game import Game
from gamecert.profiles import Profile, get_profile
from gamecert.registry import Entry
from gamecert.reports import (
    Certificate,
    FailureReport,
    SpaceEvidence,
    check_report_dir,
    clip,
    read_report,
    timestamp,
    write_certificate,
    write_report,
)
from gamecert.verdict import Verdict

#: exhaustive budget per profile, in candidate runs; a multi-game format packs ``max_batch``
#: games (tests) into one run, so its budget in tests is this times ``max_batch``
EXHAUSTIVE_RUNS = {"quick": 300, "default": 3_000, "thorough": 1_000_000}
#: how long Hypothesis may spend shrinking a failure, per profile (seconds)
SHRINK_SECONDS = {"quick": 10.0, "default": 30.0, "thorough": 600.0}
#: random blocks the pytest plugin splits the Hypothesis cases into (one test item each)
RANDOM_BLOCKS = 4

#: environment variable that overrides the profile's exhaustive budget (in runs)
RUNS_ENV = "GAMECERT_EXHAUSTIVE_RUNS"

PHASES = ("samples", "exhaustive", "random", "largest")
_STATUS = {"re": Verdict.RE, "tle": Verdict.TLE, "mle": Verdict.MLE, "ole": Verdict.OLE}


class HarnessError(GamecertError):
    """The harness cannot decide the right answer (registered solvers disagree, a bad sample)."""


# ---- expected answers ------------------------------------------------------------------------

def expected_answer(entry: Entry, instance: Any) -> tuple[Any, str]:
    """The right answer for ``instance`` and where it came from.

    The oracle within ``game.oracle_reach``; beyond it every registered fast solver, which must
    agree, else :class:`HarnessError`.
    """
    game = entry.game
    if game.size(instance) <= game.oracle_reach:
        try:
            return game.oracle(instance), "the oracle"
        except OutOfReach:
            pass
    answers: dict[str, Any] = {}
    for name in sorted(entry.solvers):
        answers[name] = entry.solvers[name](instance)
    first = next(iter(answers.values()))
    # agreement as the game judges it: a game with several right answers accepts each of them
    if any(game.judge(instance, other, first) is not None for other in answers.values()):
        shown = "; ".join(f"{name}: {game.format_answer(a).strip()!r}" for name, a in answers.items())
        text = game.format_input(instance)
        raise HarnessError(
            f"HARNESS ERROR: the registered fast solvers of {game.name} disagree on an input of size "
            f"{game.size(instance)} beyond the oracle's reach ({shown}); input starts {text[:80]!r}. "
            "Fix the fast solvers (`pytest -n auto` cross-checks them) before judging candidates here."
        )
    return first, "the fast solvers " + ", ".join(answers) + " (all agree)"


def exhaustive_runs(profile: Profile) -> int:
    """The exhaustive budget in runs: ``$GAMECERT_EXHAUSTIVE_RUNS`` if set, else the profile's."""
    raw = os.environ.get(RUNS_ENV)
    if raw is None or raw == "":
        return EXHAUSTIVE_RUNS.get(profile.name, EXHAUSTIVE_RUNS["default"])
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        raise UsageError(f"{RUNS_ENV} must be a whole number of runs (0 or more), got {raw!r}")
    return value


# ---- the plan --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Chunk:
    """One unit of work: a list of inputs (or a block of Hypothesis cases) in one phase."""

    phase: str
    key: str  # a stable id: "samples", "exhaustive-size-3", "random-0", "largest"
    instances: tuple[Any, ...] = ()
    texts: tuple[str, ...] = ()  # exact input texts (samples); else game.format_input
    size: int | None = None
    spaces: tuple[str, ...] = ()
    examples: int = 0
    seed: int = 0

    @property
    def tests(self) -> int:
        return self.examples if self.phase == "random" else len(self.instances)


@dataclass(frozen=True)
class Plan:
    game: str
    profile: Profile
    seed: int
    chunks: tuple[Chunk, ...]
    exhaustive: tuple[SpaceEvidence, ...]
    budget: int

    @property
    def total_tests(self) -> int:
        return sum(c.tests for c in self.chunks)


def make_plan(entry: Entry, profile: Profile, seed: int, examples: int | None = None,
              budget: int | None = None, random_blocks: int = 1) -> Plan:
    """The chunks a certification of ``entry`` runs, in order.

    ``budget`` is the exhaustive budget in tests (single games); by default
    ``EXHAUSTIVE_RUNS[profile] * game.max_batch``.
    """
    game = entry.game
    chunks: list[Chunk] = []
    sample_instances, sample_texts = [], []
    for number, (text, _claimed) in enumerate(game.samples, 1):
        try:
            sample_instances.append(game.parse_input(text))
        except InputError as exc:
            raise HarnessError(f"HARNESS ERROR: sample {number} of {game.name} is not a valid input: {exc}") from None
        sample_texts.append(text)
    if sample_instances:
        chunks.append(Chunk("samples", "samples", tuple(sample_instances), tuple(sample_texts)))

    if budget is None:
        budget = exhaustive_runs(profile) * max(1, game.max_batch)
    ex_chunks, evidence = _plan_exhaustive(game, budget, profile.exhaustive)
    chunks += ex_chunks

    n = profile.examples if examples is None else examples
    if n > 0:
        blocks = max(1, min(random_blocks, n))
        for b in range(blocks):
            share = n // blocks + (1 if b < n % blocks else 0)
            chunks.append(Chunk("random", f"random-{b}", examples=share, seed=seed + b))
    largest = tuple(entry.strategies.largest())
    if largest:
        chunks.append(Chunk("largest", "largest", largest, size=max(game.size(i) for i in largest)))
    return Plan(game.name, profile, seed, tuple(chunks), evidence, budget)


def _plan_exhaustive(game: Game, budget: int, fraction: float) -> tuple[list[Chunk], tuple[SpaceEvidence, ...]]:
    """Whole sizes, smallest first across all spaces, while the budget lasts.

    A space stops at the first size that does not fit in what is left of the budget, so each
    space's evidence is "every input up to size K". Inputs two spaces share are run once.
    """
    spaces = list(game.exhaustive_spaces())
    allowed = [sp.sizes[: max(1, math.ceil(len(sp.sizes) * fraction))] if sp.sizes else () for sp in spaces]
    events = sorted((size, i) for i, sizes in enumerate(allowed) for size in sizes)
    closed: set[int] = set()
    reached: dict[int, int] = {}
    counted: dict[int, int] = {i: 0 for i in range(len(spaces))}
    by_size: dict[int, tuple[list[Any], list[str]]] = {}
    seen: set[str] = set()
    remaining = budget
    for size, i in events:
        if i in closed:
            continue
        listed = list(islice(spaces[i].instances(size), remaining + len(seen) + 1))
        fresh = []
        for inst in listed:
            text = game.format_input(inst)
            if text not in seen:
                fresh.append((inst, text))
        if len(fresh) > remaining or len(listed) > remaining + len(seen):
            closed.add(i)
            continue
        remaining -= len(fresh)
        for inst, text in fresh:
            seen.add(text)
        insts, names = by_size.setdefault(size, ([], []))
        insts.extend(inst for inst, _ in fresh)
        names.append(spaces[i].name)
        reached[i] = size
        counted[i] += len(listed)
    chunks = [
        Chunk("exhaustive", f"exhaustive-size-{size}", tuple(insts), size=size, spaces=tuple(names))
        for size, (insts, names) in sorted(by_size.items())
    ]
    evidence = tuple(
        SpaceEvidence(sp.name, sp.description, reached.get(i), counted[i],
                      complete=bool(sp.sizes) and reached.get(i) == sp.sizes[-1])
        for i, sp in enumerate(spaces)
    )
    return chunks, evidence


# ---- judging -----------------------------------------------------------------------------------

@dataclass
class Failure:
    """A fault: the verdict and the exact input that shows it."""

    verdict: Verdict
    instance: Any
    input_text: str
    expected_text: str
    got_text: str
    reason: str
    phase: str
    size: int
    result: Any = None
    minimality: str = ""
    notes: list[str] = field(default_factory=list)
    expected_source: str = ""

    def sort_key(self) -> tuple[int, int, str]:
        return (self.size, len(self.input_text), self.input_text)


@dataclass
class Stats:
    tests: int = 0
    runs: int = 0
    by_phase: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PHASES, 0))
    slowest_s: float = 0.0
    slowest_what: str = ""
    largest_sizes: list[int] = field(default_factory=list)
    random_examples: int = 0
    samples: int = 0
    started: float = field(default_factory=time.perf_counter)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started


class Judge:
    """Runs inputs on a candidate through an open runner and judges each result."""

    def __init__(self, entry: Entry, runner: Any, stats: Stats | None = None,
                 on_test: Callable[[int], None] | None = None) -> None:
        self.entry = entry
        self.game = entry.game
        self.runner = runner
        self.stats = stats or Stats()
        self.on_test = on_test or (lambda n: None)
        self._expected: dict[str, tuple[Any, str]] = {}
        self.last_result: Any = None
        #: the smallest failure any run has shown so far, kept for a run that is interrupted
        #: while it shrinks or narrows one (every failure run_one returns is a genuine fault)
        self.smallest_seen: Failure | None = None

    # -- single runs --
    def expected(self, instance: Any, text: str | None = None) -> tuple[Any, str]:
        key = text if text is not None else self.game.format_input(instance)
        if key not in self._expected:
            if len(self._expected) > 50_000:
                self._expected.clear()
            self._expected[key] = expected_answer(self.entry, instance)
        return self._expected[key]

    def run_one(self, instance: Any, phase: str, text: str | None = None, count: bool = True,
                what: str = "") -> Failure | None:
        """Run one input (possibly holding several games) and judge the whole of it."""
        game = self.game
        text = game.format_input(instance) if text is None else text
        singles = game.split(instance) if game.max_batch > 1 else (instance,)
        if len(singles) > 1:
            expected = [self.expected(s) for s in singles]
        else:
            expected = [self.expected(instance, text)]
        interrupts.checkpoint()
        result = self.runner.run(text)
        self.last_result = result
        self._account(result, len(singles), phase, what or f"{phase}, size {game.size(instance)}", count)
        found = self._judge(instance, singles, expected, text, result, phase)
        if found is not None and (self.smallest_seen is None or found.sort_key() < self.smallest_seen.sort_key()):
            self.smallest_seen = found
        return found

    def _account(self, result: Any, tests: int, phase: str, what: str, count: bool) -> None:
        self.stats.runs += 1
        if count:
            self.stats.tests += tests
            self.stats.by_phase[phase] = self.stats.by_phase.get(phase, 0) + tests
            self.on_test(tests)
        wall = result.wall_s or 0.0
        if wall > self.stats.slowest_s and result.status == "ok":
            self.stats.slowest_s = wall
            self.stats.slowest_what = what

    def _judge(self, instance: Any, singles: Sequence[Any], expected: list[tuple[Any, str]], text: str,
               result: Any, phase: str) -> Failure | None:
        game = self.game
        if len(singles) > 1:
            expected_text = "".join(game.format_answer(e) for e, _ in expected)
        else:
            expected_text = game.format_answer(expected[0][0])
        source = expected[0][1]

        def failure(verdict: Verdict, reason: str, got_text: str) -> Failure:
            return Failure(verdict, instance, text, expected_text, got_text, reason, phase,
                           game.size(instance), result, expected_source=source)

        if result.status != "ok":
            verdict = _STATUS.get(result.status, Verdict.RE)
            return failure(verdict, result.describe(), clip(result.stdout))
        try:
            got = game.parse_answer(result.stdout, instance)
        except AnswerError as exc:  # PE (a malformed number) or WA (a wrong, missing or extra token)
            return failure(Verdict(exc.verdict), str(exc), clip(result.stdout))
        if len(singles) == 1:
            reason = game.judge(instance, got, expected[0][0])
        else:
            # the canonical answers of the games, one after another, are the batch's answer
            try:
                whole = game.parse_answer(expected_text, instance)
            except AnswerError:
                whole = None
            if whole is not None:
                reason = game.judge(instance, got, whole)
            else:
                reason = None
                parts = game.split_answer(instance, got)
                for k, (single, part, (exp, _)) in enumerate(zip(singles, parts, expected), 1):
                    why = game.judge(single, part, exp)
                    if why is not None:
                        reason = f"game {k} of {len(singles)}: {why}"
                        break
        if reason is None:
            return None
        return failure(Verdict.WA, reason, clip(result.stdout))

    # -- many inputs --
    def run_many(self, chunk: Chunk, stop: Callable[[], bool] = lambda: False) -> Failure | None:
        """Every input of ``chunk`` in order (batched where the game allows); the first fault."""
        game = self.game
        if chunk.texts:
            for inst, text in zip(chunk.instances, chunk.texts):
                found = self.run_one(inst, chunk.phase, text=text, what=f"{chunk.phase}")
                if found:
                    return self.narrow(found)
                if stop():
                    return None
            return None
        if game.max_batch > 1 and chunk.phase == "exhaustive":
            batch_size = game.max_batch
            for start in range(0, len(chunk.instances), batch_size):
                batch = list(chunk.instances[start : start + batch_size])
                merged = game.merge(batch) if len(batch) > 1 else batch[0]
                found = self.run_one(merged, chunk.phase,
                                     what=f"{chunk.phase}: batch of {len(batch)} games, size {chunk.size}")
                if found:
                    found.size = max(game.size(b) for b in batch)
                    return self.narrow(found, batch)
                if stop():
                    return None
            return None
        for inst in chunk.instances:
            found = self.run_one(inst, chunk.phase, what=f"{chunk.phase}, size {game.size(inst)}")
            if found:
                return self.narrow(found)
            if stop():
                return None
        return None

    def narrow(self, found: Failure, batch: Sequence[Any] | None = None) -> Failure:
        """Turn a failing multi-game input into a one-game input, or a shortest failing prefix."""
        game = self.game
        singles = list(batch) if batch is not None else list(game.split(found.instance)) if game.max_batch > 1 else []
        if len(singles) <= 1:
            return found
        t = len(singles)
        for k, single in enumerate(singles, 1):
            alone = self.run_one(single, found.phase, count=False)
            if alone:
                alone.notes.append(
                    f"found in a batch of {t} games ({found.verdict}: {_one_line(found.reason)}); "
                    f"game {k} fails on its own, so the reported input holds that game alone"
                )
                alone.minimality = found.minimality
                return alone
        for k in range(2, t + 1):
            prefix = game.merge(singles[:k])
            again = self.run_one(prefix, found.phase, count=False)
            if again:
                again.notes.append(
                    f"every game of the failing batch passes on its own; the first {k} games together "
                    f"fail ({again.verdict}), and no shorter prefix of the batch does"
                )
                return again
        found.notes.append("the fault did not reproduce when the batch was re-run piece by piece (flaky candidate?)")
        return found

    # -- random --
    def run_random(self, chunk: Chunk, shrink_seconds: float) -> Failure | None:
        """``chunk.examples`` Hypothesis cases with ``chunk.seed``; the smallest failure seen."""
        from hypothesis import HealthCheck, Phase, Verbosity, given, settings
        from hypothesis import seed as hseed

        strategy = self.entry.strategies.instances()
        failures: list[Failure] = []
        first_failure_at: list[float] = []

        def prop(instance: Any) -> None:
            if first_failure_at and time.perf_counter() - first_failure_at[0] > shrink_seconds:
                return  # shrinking budget spent: keep the smallest failure found so far
            found = self.run_one(instance, "random", count=not first_failure_at)
            if found is not None:
                if not first_failure_at:
                    first_failure_at.append(time.perf_counter())
                failures.append(found)
                raise _CaseFailed(found.verdict.value)

        test = settings(
            max_examples=max(1, chunk.examples),
            database=None,
            deadline=None,
            derandomize=False,
            phases=[Phase.generate, Phase.shrink],
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
            print_blob=False,
        )(hseed(chunk.seed)(given(strategy)(prop)))
        try:
            test()
        except _CaseFailed:
            pass
        except (KeyboardInterrupt, HarnessError):
            raise
        except Exception:  # Hypothesis's own complaints after a cut-short shrink (flaky replays)
            if not failures:
                raise
        self.stats.random_examples += chunk.examples
        if not failures:
            return None
        best = min(failures, key=Failure.sort_key)
        cut_short = time.perf_counter() - first_failure_at[0] > shrink_seconds
        best.minimality = "shrunk by Hypothesis" + (f" (shrinking stopped after {shrink_seconds:g} s)" if cut_short else "")
        best = self._minimise(best, max(5.0, shrink_seconds - (time.perf_counter() - first_failure_at[0])))
        return self.narrow(best)

    def _minimise(self, found: Failure, seconds: float) -> Failure:
        """Push a shrunk failure further down with the game's own smaller-input moves."""
        from gamecert.crosscheck import minimise

        seen: dict[str, Failure] = {}

        def fails(instance: Any) -> bool:
            again = self.run_one(instance, found.phase, count=False)
            if again is not None:
                seen[again.input_text] = again
            return again is not None

        smallest = minimise(self.game, fails, found.instance, budget=400, seconds=seconds)
        text = self.game.format_input(smallest)
        if text == found.input_text or text not in seen:
            return found
        better = seen[text]
        better.minimality = found.minimality + (
            "; then minimised greedily with the game's smaller-input moves while it still fails"
        )
        return better

    def run_chunk(self, chunk: Chunk, shrink_seconds: float = 30.0,
                  stop: Callable[[], bool] = lambda: False) -> Failure | None:
        if chunk.phase == "random":
            return self.run_random(chunk, shrink_seconds)
        found = self.run_many(chunk, stop)
        if chunk.phase == "samples" and found is None:
            self.stats.samples += len(chunk.instances)
        if chunk.phase == "largest" and found is None:
            self.stats.largest_sizes.extend(self.game.size(i) for i in chunk.instances)
        if found is not None and chunk.phase == "exhaustive" and not found.minimality:
            smallest = min((s for sp in self.game.exhaustive_spaces() for s in sp.sizes), default=chunk.size)
            found.minimality = (
                f"found by the exhaustive sweep in increasing size, at the smallest size there is ({chunk.size})"
                if chunk.size is not None and chunk.size <= smallest else
                f"found by the exhaustive sweep in increasing size: every input of size < {chunk.size} "
                f"in {', '.join(chunk.spaces)} passed"
            )
        return found


class _CaseFailed(Exception):
    """Raised inside the Hypothesis property so that it shrinks; the data is kept aside."""


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return _visible(line if len(line) <= 160 else line[:157] + "...")


def _visible(text: str) -> str:
    r"""``text`` with control characters shown as escapes: a candidate's output or stderr must
    not drive the user's terminal (clear it, retitle it, hide what follows).

    >>> print(_visible("Bob\x1b[2J\x00"))
    Bob\x1b[2J\x00
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# ---- turning results into reports ---------------------------------------------------------------

def build_report(entry: Entry, candidate: Any, failure: Failure, plan: Plan, limits: Any, tests_run: int,
                 interrupted: bool = False, extra_notes: Sequence[str] = ()) -> FailureReport:
    game = entry.game
    try:
        explanation = game.explain(failure.instance).describe()
    except OutOfReach as exc:
        explanation = f"(no explanation: {exc}; the expected answer comes from {failure.expected_source})"
    result = failure.result
    notes = [*failure.notes, *extra_notes]
    if failure.expected_source:
        notes.append(f"expected answer from {failure.expected_source}")
    return FailureReport(
        game=game.name,
        candidate=candidate.name,
        candidate_spec=candidate_spec_for_replay(candidate),
        verdict=failure.verdict.value,
        verdict_meaning=failure.verdict.meaning,
        input=failure.input_text,
        expected=failure.expected_text,
        got=failure.got_text,
        reason=failure.reason,
        seed=plan.seed,
        profile=plan.profile.name,
        phase=failure.phase,
        size=failure.size,
        explanation=explanation,
        created=timestamp(),
        minimality=failure.minimality,
        stderr_tail=getattr(result, "stderr_tail", "") or "",
        exit_code=getattr(result, "exit_code", None),
        signal=getattr(result, "signal", None),
        wall_s=_round(getattr(result, "wall_s", None)),
        cpu_s=_round(getattr(result, "cpu_s", None)),
        max_rss_mb=_round(getattr(result, "max_rss_mb", None)),
        time_limit_s=limits.time_s,
        memory_limit_mb=limits.memory_mb,
        tests_run=tests_run,
        interrupted=interrupted,
        notes=tuple(notes),
    )


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def candidate_spec_for_replay(candidate: Any) -> str:
    """The candidate's spec with a path made absolute, so replay works from any directory."""
    python_file = getattr(candidate, "python_file", None)
    if python_file:
        return str(Path(python_file).resolve())
    path = Path(candidate.spec).expanduser()
    if path.exists():
        return str(path.resolve())
    argv = getattr(candidate, "argv", None)
    return shlex.join(argv) if argv else candidate.spec


def build_certificate(entry: Entry, candidate: Any, plan: Plan, stats: Stats, limits: Any,
                      exhaustive_done: set[str], interrupted: bool = False,
                      notes: Sequence[str] = ()) -> Certificate:
    evidence = _exhaustive_evidence(entry.game, plan, exhaustive_done) if interrupted else plan.exhaustive
    return Certificate(
        game=entry.game.name,
        candidate=candidate.name,
        candidate_spec=candidate_spec_for_replay(candidate),
        seed=plan.seed,
        profile=plan.profile.name,
        samples=stats.samples,
        exhaustive=evidence,
        random_examples=stats.random_examples,
        largest_sizes=tuple(stats.largest_sizes),
        tests=stats.tests,
        runs=stats.runs,
        elapsed_s=round(stats.elapsed, 3),
        slowest_s=round(stats.slowest_s, 4),
        slowest_what=stats.slowest_what,
        time_limit_s=limits.time_s,
        memory_limit_mb=limits.memory_mb,
        created=timestamp(),
        interrupted=interrupted,
        notes=tuple(notes),
    )


def _exhaustive_evidence(game: Game, plan: Plan, done: set[str]) -> tuple[SpaceEvidence, ...]:
    """What an interrupted run can truthfully claim: sizes completed without a gap."""
    out = []
    for ev in plan.exhaustive:
        up_to = None
        for chunk in plan.chunks:
            if chunk.phase != "exhaustive" or ev.name not in chunk.spaces:
                continue
            if chunk.key not in done:
                break
            up_to = chunk.size
        if up_to is None:
            out.append(SpaceEvidence(ev.name, ev.description, None, 0, False))
            continue
        space = next(sp for sp in game.exhaustive_spaces() if sp.name == ev.name)
        count = sum(1 for size in space.sizes if size <= up_to for _ in space.instances(size))
        out.append(SpaceEvidence(ev.name, ev.description, up_to, count, False))
    return tuple(out)


# ---- the command line ---------------------------------------------------------------------------

#: the largest limits accepted: a day per test, a terabyte (the OS cannot take much more)
MAX_TIME_LIMIT_S = 86_400.0
MAX_MEMORY_LIMIT_MB = 1 << 20


def _limits(game: Game, time_limit: float | None, memory_limit: int | None) -> Any:
    from gamecert.sandbox import Limits

    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise UsageError(f"--time-limit must be a positive number of seconds, got {time_limit}")
    if time_limit is not None and time_limit > MAX_TIME_LIMIT_S:
        raise UsageError(f"--time-limit must be at most {MAX_TIME_LIMIT_S:g} seconds (a day), got {time_limit:g}")
    if memory_limit is not None and memory_limit < 16:
        raise UsageError(f"--memory-limit must be at least 16 (MB), got {memory_limit}")
    if memory_limit is not None and memory_limit > MAX_MEMORY_LIMIT_MB:
        raise UsageError(f"--memory-limit must be at most {MAX_MEMORY_LIMIT_MB} (MB, a terabyte), got {memory_limit}")
    return Limits(time_s=time_limit if time_limit is not None else game.time_limit,
                  memory_mb=memory_limit if memory_limit is not None else 256)


class _Display:
    """A rich progress bar on a terminal's stderr; nothing when stderr is not a terminal."""

    def __init__(self, total: int, title: str) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.console = Console(stderr=True)
        self.enabled = self.console.is_terminal
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
            disable=not self.enabled,
        )
        self.task = self.progress.add_task(title, total=total, rate="")
        self.started = time.perf_counter()
        self.done = 0
        self._last = 0.0

    def __enter__(self) -> _Display:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)

    def phase(self, text: str) -> None:
        self.progress.update(self.task, description=text)

    def advance(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if now - self._last > 0.1:
            self._last = now
            rate = self.done / max(now - self.started, 1e-9)
            self.progress.update(self.task, completed=self.done, rate=f"{rate:,.0f} tests/s")


def _say(text: str = "") -> None:
    print(text, flush=True)


def certify_candidate_command(args: Any) -> int:
    """``gamecert certify GAME CANDIDATE``: exit 0 certified, 1 fault found, 130 interrupted."""
    from gamecert import registry
    from gamecert.sandbox import Candidate, open_runner

    if args.game == "all":
        raise UsageError("`certify all` certifies the registered solvers; give one game name with a candidate")
    entry = registry.get(args.game)
    candidate = Candidate.parse(args.candidate)
    if args.examples is not None and args.examples < 0:
        raise UsageError(f"--examples must be 0 or more, got {args.examples}")
    profile = get_profile(args.profile)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    limits = _limits(entry.game, args.time_limit, args.memory_limit)
    budget = getattr(args, "exhaustive_budget", None)
    runs = getattr(args, "exhaustive_runs", None)
    if runs is not None:
        if runs < 0:
            raise UsageError(f"--exhaustive-runs must be 0 or more, got {runs}")
        budget = runs * max(1, entry.game.max_batch)
    report_dir = args.report_dir if args.report_dir is not None else "reports"
    check_report_dir(report_dir, entry.game.name)  # now, not after the run has found something
    plan = make_plan(entry, profile, seed, args.examples, budget=budget)
    runner_cm = open_runner(candidate, limits, fork_server=not getattr(args, "no_fork_server", False))
    return run_certification(entry, candidate, plan, limits, runner_cm, report_dir)


def run_certification(entry: Entry, candidate: Any, plan: Plan, limits: Any, runner_cm: Any,
                      report_dir: str) -> int:
    game = entry.game
    _say(
        f"gamecert certify {game.name} {candidate.spec}: profile {plan.profile.name}"
        f"{' (may take long)' if plan.profile.name == 'thorough' else ''}, seed {plan.seed}, "
        f"{limits.time_s:g} s per test, {limits.memory_mb} MB"
    )
    stats = Stats()
    done: set[str] = set()
    found: list[Failure] = []
    interrupted = False
    notes: list[str] = []
    shrink = SHRINK_SECONDS.get(plan.profile.name, 30.0)
    display = _Display(plan.total_tests, f"{game.name}: starting")
    judge: Judge | None = None
    try:
        with display, runner_cm as runner:
            judge = Judge(entry, runner, stats, on_test=display.advance)
            sample_failure: Failure | None = None
            for phase in PHASES:
                chunks = [c for c in plan.chunks if c.phase == phase]
                if not chunks:
                    continue
                if sample_failure is not None and phase != "exhaustive":
                    break
                display.phase(f"{game.name}: {phase}")
                failure = None
                for chunk in chunks:
                    if sample_failure is not None and chunk.size is not None and chunk.size > sample_failure.size:
                        break  # nothing smaller than the failing sample is left to look at
                    failure = judge.run_chunk(chunk, shrink)
                    if failure is not None:
                        break
                    done.add(chunk.key)
                if failure is None and sample_failure is None:
                    _say(_phase_line(phase, plan, stats, chunks))
                if phase == "samples" and failure is not None:
                    # a sample fails: look for a smaller failing input in the exhaustive sweep
                    sample_failure = failure
                    found.append(failure)
                    _say(f"  {'samples':<11} FAIL ({failure.verdict}); sweeping smaller inputs for a minimal one")
                    continue
                if failure is not None:
                    if sample_failure is not None:
                        failure.notes.append(
                            f"sample input {sample_failure.input_text.strip()[:40]!r} also fails "
                            f"({sample_failure.verdict}); this smaller input was found by the exhaustive sweep"
                        )
                    found.append(failure)
                    if phase != "samples":
                        _say(f"  {phase:<11} FAIL ({failure.verdict}) at size {failure.size}")
                    break
                if sample_failure is not None:
                    swept = [c.size for c in plan.chunks if c.phase == "exhaustive" and c.key in done]
                    if swept:
                        sample_failure.minimality = (
                            "no smaller failing input found: the exhaustive sweep passed every input "
                            f"of its spaces up to size {max(swept)}"
                        )
                    break
    except KeyboardInterrupt:
        interrupts.delivered()
        interrupted = True
        notes.append("interrupted by the user (Ctrl-C); the evidence below is what was completed")
        pending = judge.smallest_seen if judge is not None else None
        if pending is not None and all(pending is not f for f in found):
            # a fault seen while it was being shrunk or narrowed: not minimal, but not lost either
            pending.notes.append("the run was interrupted while this fault was being minimised; "
                                 "a smaller failing input may exist")
            found.append(pending)
    elapsed = stats.elapsed
    rate = stats.tests / elapsed if elapsed > 0 else 0.0
    with _signals_deferred():  # a second Ctrl-C must not cut the report off half written
        if found:
            failure = min(found, key=Failure.sort_key)
            _say()
            _say(f"{failure.verdict} ({failure.verdict.meaning}) on a {game.name} input of size {failure.size}, "
                 f"found by {failure.phase}:")
            for label, text in (("input", failure.input_text), ("expected", failure.expected_text),
                                ("got", failure.got_text or "(no output)")):
                _say(f"  {label + ':':<9} {_inline(text)}")
            _say(f"  {'why:':<9} {_one_line(failure.reason)}")
            report = build_report(entry, candidate, failure, plan, limits, stats.tests, interrupted=interrupted)
            path = _write_somewhere(lambda where: write_report(report, where), report_dir)
            _say(f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs: "
                 f"{failure.verdict}{' (interrupted)' if interrupted else ''}; report and replay command in")
            _say(str(path))
            return 1
        cert = build_certificate(entry, candidate, plan, stats, limits, done, interrupted, notes)
        path = _write_somewhere(lambda where: write_certificate(cert, where), report_dir)
        verdict = "INTERRUPTED, nothing found so far" if interrupted else "CERTIFIED"
        _say(f"summary: {stats.tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), {stats.runs} runs, "
             f"slowest {stats.slowest_s:.3f} s: {verdict}; certificate in")
        _say(str(path))
        return 130 if interrupted else 0


def _write_somewhere(write: Callable[[str], Path], report_dir: str) -> Path:
    """``write(report_dir)``; if that fails (the directory was removed, the disk is full...),
    into a fresh temporary directory instead, saying so on stderr: a finding is never lost."""
    import sys

    try:
        return write(report_dir)
    except OSError as exc:
        from gamecert.reports import fallback_report_dir

        fallback = fallback_report_dir()
        path = write(fallback)
        print(f"gamecert: warning: cannot write to {report_dir} ({exc.strerror or exc}); written to {fallback} instead",
              file=sys.stderr, flush=True)
        return path


class _signals_deferred:
    """Hold Ctrl-C and SIGTERM off while a report is written (it takes milliseconds; the run is
    over and its result is being saved, so they are then dropped). Only in the main thread."""

    def __enter__(self) -> _signals_deferred:
        import signal
        import threading

        self.previous: dict[int, Any] = {}
        self.caught: list[int] = []
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.previous[sig] = signal.signal(sig, lambda number, frame: self.caught.append(number))
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        for sig, handler in self.previous.items():
            signal.signal(sig, handler)


def _phase_line(phase: str, plan: Plan, stats: Stats, chunks: list[Chunk]) -> str:
    if phase == "samples":
        return f"  {'samples':<11} {stats.samples} ok"
    if phase == "exhaustive":
        return f"  {'exhaustive':<11} " + "; ".join(ev.describe() for ev in plan.exhaustive) + ": ok"
    if phase == "random":
        n = sum(c.examples for c in chunks)
        return f"  {'random':<11} {n} Hypothesis cases, seed {plan.seed}: ok"
    sizes = ", ".join(str(s) for s in stats.largest_sizes)
    return f"  {'largest':<11} {len(stats.largest_sizes)} inputs at sizes {sizes}: ok"


def _inline(text: str, keep: int = 200) -> str:
    flat = text.rstrip("\n").replace("\n", " / ")
    return _visible(flat) if len(flat) <= keep else _visible(flat[:keep]) + f"... ({len(flat) - keep} more characters)"


# ---- replay ---------------------------------------------------------------------------------------

def replay_command(args: Any) -> int:
    """``gamecert replay REPORT_DIR``: re-run the input, print expected, got and the verdict.

    Exit 1 if the fault shows again, 0 if the candidate now answers right.
    """
    from gamecert import registry
    from gamecert.sandbox import Candidate, open_runner

    report = read_report(args.report_dir)
    entry = registry.get(report.game)
    game = entry.game
    try:
        candidate = Candidate.parse(report.candidate_spec)
    except UsageError as exc:
        raise UsageError(f"the report's candidate cannot be run any more: {exc}") from None
    try:
        limits = _limits(game, report.time_limit_s, report.memory_limit_mb)
    except UsageError as exc:
        raise UsageError(f"the report's limits are unusable: {exc}") from None
    try:
        instance = game.parse_input(report.input)
    except InputError as exc:
        raise UsageError(f"the report's input is not a valid {game.name} input: {exc}") from None
    with open_runner(candidate, limits, fork_server=False) as runner:
        judge = Judge(entry, runner)
        failure = judge.run_one(instance, report.phase, text=report.input)
        expected, source = judge.expected(instance, report.input)
    expected_text = game.format_answer(expected)
    print(f"replay {report.game} {report.candidate_spec} (reported {report.verdict}, seed {report.seed})")
    print(f"input:    {_inline(report.input)}")
    print(f"expected: {_inline(expected_text)}   (from {source})")
    if expected_text.split() != report.expected.split():
        print(f"note: the report expected {_inline(report.expected)}; the oracle now says otherwise")
    if failure is None:
        print(f"got:      {_inline(judge.last_result.stdout)}")
        print("verdict:  OK (the fault did not show again)")
        return 0
    print(f"got:      {_inline(failure.got_text or '(no output)')}")
    print(f"verdict:  {failure.verdict} ({failure.verdict.meaning}): {_one_line(failure.reason)}")
    return 1


__all__ = [
    "Chunk",
    "Failure",
    "HarnessError",
    "Judge",
    "Plan",
    "build_certificate",
    "build_report",
    "certify_candidate_command",
    "expected_answer",
    "make_plan",
    "replay_command",
    "run_certification",
]
