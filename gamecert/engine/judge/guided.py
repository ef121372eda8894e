"""The guided phase: inputs steered by what the candidate's own code does with them.

The candidate's instrumented build (:mod:`gamecert.engine.run.instrument`) runs in the same
sandbox as the plain one and says, after each run, which code it reached and the operands of its
comparisons. The search, as AFL++ and libFuzzer do it but within the game's structure:

* a **corpus** of inputs starts from the samples and a few inputs of each designed family and
  of the game's strategy; an input that reaches code (an edge, a block, a branch side, or a hit
  count in a new bucket) no input before it reached is kept;
* **input to state** (AFL++'s cmplog, libFuzzer's trace-cmp): each kept input's comparison
  operands are matched against its numbers (the count of parts of each game, each part's value,
  the count of games of a batch); a number equal to one operand is set to the other, the other
  +-1 and +-small, and, for numbers past 2^24, the neighbours of the float it rounds to; a
  string operand found in a game is replaced by the other; a sequence of numbers that holds a
  game's values in some order (sorted, counted) is replaced by the other sequence; operands that
  match nothing join a dictionary; a kept input's first candidates run next, before older
  inputs' (those of a comparison no kept input made first: a chain of comparisons met one by
  one goes on at once), and a number held in many places is set in several of them;
* **comparison distance** (libFuzzer's value profile, as a number rather than a bucket): the
  build reports, per comparison site, the closest its operands came unequal (|a - b|, for native
  floats the distance in ulps); an input that brings any site's operands closer than every input
  before it is kept, so the search climbs toward an equality of values the program derives (a
  sum, a residue, a variance) that no number of the input holds;
* **conditions solved** (Python candidates): the comparisons over the input's numbers recorded as
  expressions over its tokens, and z3 asked for tokens that give an outcome no run has had, the
  comparisons before it kept (:mod:`gamecert.engine.judge.guided_solve`); for C and C++, the
  operands compared with a constant fitted, over the kept inputs, to a simple function of a
  game's numbers (a sum, a sum of squares, a residue of the count), and those met together
  (:mod:`gamecert.engine.judge.guided_fit`);
* **the difference put back** (AFL++'s cmplog transforms, for values the program derives): an
  integer comparison one of whose operands the input does not hold (a sum, a residue) gives the
  difference from it to the other; it is added to each game's count, and to its parts' values, to
  one part or spread over several (none past the greatest value the input holds), so a derived
  sum compared with a constant is met in one step; and the count is changed by it (and by +-1,
  +-2) with the values' total kept, so a count's residue is met without losing a sum met before;
* **near-constant inputs** (a float compared): every part at one level but one or two a step
  off, thousands of parts (:mod:`gamecert.engine.judge.guided_level`);
* **havoc**: one to four changes stacked on a kept input: a value or a count set to a
  dictionary number, a nearby or a random one; parts repeated or dropped; a dictionary string
  put in; a game of the batch repeated, dropped or taken from another input.

The mutations are :mod:`gamecert.engine.judge.guided_mutate` (input to state, havoc) and
:mod:`gamecert.engine.judge.derived` (the steps for derived values); this module keeps the corpus
and runs the phase. Every input is built through the game's :class:`~gamecert.kit.shrink.Structure` and run only if
it is valid (``parse_input(format_input(x)) == x``), once. Each is judged (the expected answer
as everywhere: :func:`gamecert.engine.judge.judge.expected_answer`); one that the instrumented
build fails goes to the plain build (``suspect``), whose judge confirms and shrinks it as any
fault; one that fails only instrumented is noted and the search goes on.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.engine.judge.derived import MAX_TEXT
from gamecert.engine.judge.guided_evidence import evidence
from gamecert.engine.judge.guided_fit import Fitted
from gamecert.engine.judge.guided_level import HIGH, LOW, Levels
from gamecert.engine.judge.guided_mutate import (
    I2S_FIRST,
    I2S_MAX,
    Item,
    Mutations,
    f32_neighbours,
    near,
)
from gamecert.engine.judge.guided_solve import Solved
from gamecert.engine.run.instrument import Coverage, Instrumented, read_coverage
from gamecert.kit.shrink import structure_of

#: inputs kept at most, and numbers and strings in the dictionary
CORPUS_MAX, DICT_MAX = 300, 256

#: instrumented failures sent to the plain build that did not fail there, before the search
#: stops sending ones of the same verdict
UNCONFIRMED_MAX = 4
#: the share of the time left to the fault's deadline, past the search's own, that the search
#: below a fault goes on for while near-constant families are left to sweep
BELOW_FAMILIES_SHARE = 0.5


@dataclass
class Report:
    """What the guided phase did, for the certificate, the report and the phase line."""

    runs: int = 0
    kept: int = 0
    suspects: int = 0
    #: inputs kept only for bringing a comparison's operands closer (no new code reached)
    closer: int = 0
    unconfirmed: list[str] = field(default_factory=list)
    #: runs whose coverage record could not be read (the program's own text: ignored)
    malformed: int = 0
    reached: set[Any] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)


class Search(Mutations, Solved, Fitted, Levels):
    """One guided search on one instrumented runner (``judge`` judges its runs)."""

    def __init__(
        self,
        entry: Any,
        judge: Any,
        built: Instrumented,
        seed: int,
        suspect: Callable[[Any, str], Any],
        limits: Any = None,
    ) -> None:
        self.entry = entry
        #: the problem's limits (the instrumented runner's are looser): a run past them is a suspect
        self.limits = limits
        self.game = entry.game
        self.judge = judge
        self.built = built
        self.rng = random.Random(seed)
        self.suspect = suspect
        self.seen_texts: set[int] = set()
        self.features: set[Any] = set()
        #: the closest each comparison site's operands came unequal, over every run
        self.nearest: dict[Any, float] = {}
        self.corpus: list[Item] = []
        self.numbers: list[int] = []
        self.strings: list[str] = []
        self.report = Report()
        self.st: Any = None
        self.batched = getattr(self.game, "max_batch", 1) > 1
        self.unconfirmed: dict[str, int] = {}
        self.found: Any = None
        #: once a fault stands, the size of the smallest found: the search goes on below it
        self.below: int | None = None
        self.first_size: int | None = None
        self.runs_below = 0
        self.handed_s = 0.0
        self.smaller = True
        #: while a near-constant input runs: a fault of it shrinks briefly (the families follow)
        self.near_constant = False
        self.sym_sides: set[tuple[int, bool]] = set()
        self.sym_high = (0, 0)
        self.sym_began, self.sym_spent = time.monotonic(), 0.0
        self.observed: dict[Any, list[tuple[list[dict[str, int]], int]]] = {}
        self.relations: dict[Any, list[tuple[str, int, int]]] = {}
        self.tried: set[tuple[Any, int, int | None]] = set()
        #: the comparisons (kind and operands) the kept inputs made
        self.pairs: set[tuple[Any, ...]] = set()
        #: kept inputs whose candidates are not made yet
        self.pending: list[Item] = []
        self.level_init()

    # ---- the structure --------------------------------------------------------------------
    def state(self, instance: Any) -> list[tuple[Any, ...]]:
        singles = self.game.split(instance) if self.batched else (instance,)
        return [tuple(self.st.parts(g)) for g in singles]

    def build(self, state: Sequence[tuple[Any, ...]]) -> tuple[Any, str] | None:
        """The valid input ``state`` stands for, and its text; None if it is not one or ran before."""
        if not state or (not self.batched and len(state) != 1):
            return None
        try:
            games = [self.st.build(p) for p in state]
            inst = games[0] if len(games) == 1 else self.game.merge(games)
            text = self.game.format_input(inst)
            if len(text) > MAX_TEXT or hash(text) in self.seen_texts:
                return None
            if self.below is not None and self.game.size(inst) >= self.below:
                return None
            if self.game.parse_input(text) != inst:
                return None
        except Exception:  # noqa: BLE001 - an invalid input: a move the game refuses, never run
            return None
        return inst, text

    # ---- running --------------------------------------------------------------------------
    def run(self, inst: Any, text: str) -> bool:
        """Run one input instrumented; keep it if it reached something new; True once a fault stands."""
        self.seen_texts.add(hash(text))
        self.report.runs += 1
        self.runs_below += self.below is not None
        found = self.judge.run_one(
            inst, "guided", text=text, what=f"guided, size {self.game.size(inst)}"
        )
        result = self.judge.last_result
        cov = (
            read_coverage(getattr(result, "stderr_tail", "") or "", self.built.language)
            or Coverage()
        )
        self.report.malformed += cov.malformed
        self.sym_taken(cov)
        self.report.reached |= cov.sites
        kind = str(found.verdict) if found is not None else self.over_limits(result)
        if kind and self.unconfirmed.get(kind, 0) < UNCONFIRMED_MAX:
            self.report.suspects += 1
            handed = time.monotonic()
            confirmed = self.suspect(inst, text)
            self.handed_s += time.monotonic() - handed  # (a shrink's time is not the search's)
            if confirmed is not None:
                self.found = found or confirmed
                size = self.game.size(inst)
                shrunk = getattr(confirmed, "size", size)
                self.below = min(size, shrunk if isinstance(shrunk, int) else size)
                if self.first_size is None:
                    self.first_size = size
                if self.st is not None:  # mutated from in the search below it: the same
                    # comparisons, fewer parts (a search with no structure yet has no state)
                    self.keep(Item(inst, text, self.state(inst), cov))
                return True
            self.unconfirmed[kind] = self.unconfirmed.get(kind, 0) + 1
            self.report.unconfirmed.append(f"{kind} at size {self.game.size(inst)}")
        new = cov.features - self.features
        closer = self.closer(cov)
        if new or closer:
            self.features |= new
            self.report.closer += not new
            self.keep(Item(inst, text, self.state(inst), cov))
        return False

    def over_limits(self, result: Any) -> str:
        """The verdict ("TLE" or "MLE") of a run the instrumented runner let pass but whose CPU time
        passed the problem's limit or whose memory reached it (the kernel's figures: the test's
        cgroups, all its processes), else "": such a run is sent to the plain build to judge."""
        if self.limits is None or result is None or getattr(result, "status", "") != "ok":
            return ""
        if (result.cpu_s or 0.0) > self.limits.time_s:
            return "TLE"
        if (result.max_rss_mb or 0.0) >= self.limits.memory_mb:
            return "MLE"
        return ""

    def closer(self, cov: Coverage) -> bool:
        """Whether ``cov`` brings some comparison site's operands closer than any run before
        (a site seen for the first time counts only with its code, as a new feature)."""
        better = False
        for site, d in cov.near:
            best = self.nearest.get(site)
            if best is None or d < best:
                self.nearest[site] = d
                better = better or best is not None
        return better

    def keep(self, item: Item) -> None:
        self.report.kept += 1
        if len(self.corpus) >= CORPUS_MAX:
            self.corpus.pop(self.rng.randrange(len(self.corpus)))
        self.corpus.append(item)
        self.pending.append(item)
        item.novel = frozenset(c for c in item.cov.cmps if c not in self.pairs)
        self.pairs |= item.novel
        self.level_note(item)
        for kind, a, b in item.cov.cmps:
            if kind == "s":
                for s in (a, b):
                    if s and s not in self.strings and len(self.strings) < DICT_MAX:
                        self.strings.append(s)
            else:
                for v in (a, b) if kind != "l" else (*a, *b):
                    if isinstance(v, float):
                        if v == v and abs(v) < 1e18:
                            v = int(v)
                        else:
                            continue
                    if v not in self.numbers and len(self.numbers) < DICT_MAX:
                        self.numbers.append(v)

    def below_until(self, until: float, hard: Callable[[], float | None]) -> float:
        """When the search below a fault ends: ``until`` plus the time the faults' confirming and
        shrinking took, never past ``hard()``; while near-constant families are left to sweep
        below it (:meth:`level_sweeping`), half the time from there to ``hard()`` more (the
        executor's sweep of the exhaustive spaces below the fault has the other half): they are
        the way down from a near-constant fault, and under load a sweep at a few ms a run needs
        more than the phase's own slice."""
        end = until + self.handed_s
        limit = hard()
        if limit is None:
            return until
        if self.level_sweeping() and limit > end:
            end += (limit - end) * BELOW_FAMILIES_SHARE
        return min(end, limit)

    def search(
        self,
        seeds: Sequence[Any],
        until: float,
        smaller: bool = True,
        hard: Callable[[], float | None] = lambda: None,
    ) -> Report:
        """Search until ``until``; once a fault stands, on below its size (each smaller fault
        found confirmed and shrunk as the first), unless not ``smaller``, for as long again as
        the faults' confirming and shrinking took, never past ``hard()`` (the fault's deadline)."""
        self.smaller = smaller
        first = seeds[0] if seeds else None
        self.st = structure_of(self.game, first) if first is not None else None
        self.pending = []
        if self.st is None:
            self.report.lines.append("the game declares no structure to mutate by")
            return self.report
        seeds = list(seeds)
        if self.st.value is not None:
            self.sym_start(seeds, self.state)
        queue: list[Callable[[], list[tuple[Any, ...]] | None]] = []
        waiting: list[list[Callable[[], list[tuple[Any, ...]] | None]]] = []
        turn = 0
        deadline = until
        while time.monotonic() < deadline or (
            self.below is not None
            and time.monotonic() < (deadline := self.below_until(until, hard))
        ):
            turn += 1
            while self.pending:
                item = self.pending.pop(0)
                # z3's answers first: each is a branch not yet taken, or a relation not yet met;
                # then its first input-to-state candidates, ahead of those of older inputs (the
                # newest kept input is the search's progress); the rest once there is room
                steps = self.i2s(item)
                queue[:0] = self.solve(item) + self.fit(item) + steps[:I2S_FIRST]
                waiting.append(steps[I2S_FIRST:])
            while waiting and len(queue) < 4 * I2S_MAX:
                queue += waiting.pop(0)
            if self.level_due():  # a float compared: near-constant inputs, in their share
                began, ran = time.monotonic(), False
                for _ in range(2):
                    state = self.level_next()
                    made = self.build(state) if state is not None else None
                    ran = self.level_ran(made is not None) or ran
                    self.near_constant = True  # (a fault of it shrinks briefly: see suspect)
                    try:
                        if made is not None and self.run(*made) and not self.smaller:
                            return self.report
                    finally:
                        self.near_constant = False
                self.level_spent += time.monotonic() - began
                if ran:
                    continue
            if queue and (turn % 2 or not self.corpus):  # input to state and havoc in turn
                batch, queue = queue[:16], queue[16:]
            elif seeds:
                inst = seeds.pop(0)
                try:
                    text = self.game.format_input(inst)
                except Exception:  # noqa: BLE001 - a seed the game cannot write is left out
                    continue
                if (
                    hash(text) not in self.seen_texts
                    and (self.below is None or self.game.size(inst) < self.below)
                    and self.run(inst, text)
                    and not self.smaller
                ):
                    return self.report
                continue
            elif self.corpus:
                batch = [self.havoc for _ in range(8 if queue else 16)]
            else:
                break
            for make in batch:
                if time.monotonic() >= deadline:
                    break
                state = make()
                made = self.build(state) if state is not None else None
                if made is not None and self.run(*made) and not self.smaller:
                    return self.report
        if self.level_runs:
            self.report.lines.append(
                f"guided phase: {self.level_reason()}: {self.level_runs} near-constant inputs (every "
                f"part at one level but one or two a step off, {LOW} to {HIGH} parts)"
            )
        if self.level_families_for is not None:
            self.report.lines.append(
                f"guided phase, below the fault: {self.level_swept} near-constant families (a "
                "level and its odd parts) swept whole, count by count from "
                f"{LOW} parts, the fewest counts first; {len(self.level_families)} not"
            )
        if self.first_size is not None:
            self.report.lines.append(
                f"guided phase: a fault at size {self.first_size}, then {self.runs_below} runs "
                f"searched below it (the same comparisons, smaller inputs): the smallest found "
                f"stands at size {self.below}"
            )
        return self.report


def seeds_of(entry: Any, plan: Any, draws: int = 24) -> list[Any]:
    """Where the search starts: the samples, then ``draws`` inputs of the game's strategy (drawn
    with a seed of their own, derived from the run's), short ones only."""
    from gamecert.engine import gamecode
    from gamecert.engine.plan.draws import derive_seed, draw_examples

    out: list[Any] = []
    phase = plan.phase("samples")
    for group in phase.groups() if phase is not None else ():
        for chunk in group.iter_chunks():
            out += list(chunk.instances)
    game = entry.game
    try:
        strategy = gamecode.call(game.name, "strategies instances()", entry.strategies.instances)
        drawn = draw_examples(strategy, draws, derive_seed(plan.seed, 999_999))
    except Exception:  # noqa: BLE001 - the random phase says what is wrong with the strategy
        drawn = []
    for inst in drawn:
        try:
            if len(game.format_input(inst)) <= 1 << 16:
                out.append(inst)
        except Exception:  # noqa: BLE001
            pass
    return out


__all__ = [
    "Item",
    "Report",
    "Search",
    "evidence",
    "f32_neighbours",
    "near",
    "seeds_of",
]
