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
  string operand found in a game is replaced by the other; operands that match nothing join a
  dictionary;
* **havoc**: one to four changes stacked on a kept input: a value or a count set to a
  dictionary number, a nearby or a random one; parts repeated or dropped; a dictionary string
  put in; a game of the batch repeated, dropped or taken from another input.

Every input is built through the game's :class:`~gamecert.kit.shrink.Structure` and run only if
it is valid (``parse_input(format_input(x)) == x``), once. Each is judged (the expected answer
as everywhere: :func:`gamecert.engine.judge.judge.expected_answer`); one that the instrumented
build fails goes to the plain build (``suspect``), whose judge confirms and shrinks it as any
fault; one that fails only instrumented is noted and the search goes on.
"""

from __future__ import annotations

import functools
import random
import struct
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.engine.run.instrument import Coverage, Instrumented, read_coverage
from gamecert.kit.shrink import structure_of

#: inputs longer than this (characters) are not made by the search
MAX_TEXT = 8 << 20
#: inputs kept at most, and numbers and strings in the dictionary
CORPUS_MAX, DICT_MAX = 300, 256
#: input-to-state candidates per kept input (those whose other operand is none of the input's
#: numbers, a constant most likely, first)
I2S_MAX = 32
#: instrumented failures sent to the plain build that did not fail there, before the search
#: stops sending ones of the same verdict
UNCONFIRMED_MAX = 4
#: sites the evidence lists by line
NEVER_SHOWN = 8


@dataclass
class Item:
    instance: Any
    text: str
    state: list[tuple[Any, ...]]
    cov: Coverage
    picked: int = 0


@dataclass
class Report:
    """What the guided phase did, for the certificate, the report and the phase line."""

    runs: int = 0
    kept: int = 0
    suspects: int = 0
    unconfirmed: list[str] = field(default_factory=list)
    #: runs whose coverage record could not be read (the program's own text: ignored)
    malformed: int = 0
    reached: set[Any] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)


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


class Search:
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
        self.corpus: list[Item] = []
        self.numbers: list[int] = []
        self.strings: list[str] = []
        self.report = Report()
        self.st: Any = None
        self.batched = getattr(self.game, "max_batch", 1) > 1
        self.unconfirmed: dict[str, int] = {}
        self.found: Any = None

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
        found = self.judge.run_one(
            inst, "guided", text=text, what=f"guided, size {self.game.size(inst)}"
        )
        result = self.judge.last_result
        cov = (
            read_coverage(getattr(result, "stderr_tail", "") or "", self.built.language)
            or Coverage()
        )
        self.report.malformed += cov.malformed
        self.report.reached |= cov.sites
        kind = str(found.verdict) if found is not None else self.over_limits(result)
        if kind and self.unconfirmed.get(kind, 0) < UNCONFIRMED_MAX:
            self.report.suspects += 1
            confirmed = self.suspect(inst, text)
            if confirmed is not None:
                self.found = found or confirmed
                return True
            self.unconfirmed[kind] = self.unconfirmed.get(kind, 0) + 1
            self.report.unconfirmed.append(f"{kind} at size {self.game.size(inst)}")
        new = cov.features - self.features
        if new:
            self.features |= new
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

    def keep(self, item: Item) -> None:
        self.report.kept += 1
        if len(self.corpus) >= CORPUS_MAX:
            self.corpus.pop(self.rng.randrange(len(self.corpus)))
        self.corpus.append(item)
        self.pending.append(item)
        for kind, a, b in item.cov.cmps:
            if kind == "s":
                for s in (a, b):
                    if s and s not in self.strings and len(self.strings) < DICT_MAX:
                        self.strings.append(s)
            else:
                for v in (a, b):
                    if isinstance(v, float):
                        if v == v and abs(v) < 1e18:
                            v = int(v)
                        else:
                            continue
                    if v not in self.numbers and len(self.numbers) < DICT_MAX:
                        self.numbers.append(v)

    def search(self, seeds: Sequence[Any], deadline: float) -> Report:
        first = seeds[0] if seeds else None
        self.st = structure_of(self.game, first) if first is not None else None
        self.pending: list[Item] = []
        if self.st is None:
            self.report.lines.append("the game declares no structure to mutate by")
            return self.report
        seeds = list(seeds)
        queue: list[Callable[[], list[tuple[Any, ...]] | None]] = []
        turn = 0
        while time.monotonic() < deadline:
            turn += 1
            while self.pending and len(queue) < 4 * I2S_MAX:
                queue += self.i2s(self.pending.pop(0))
            if queue and (turn % 2 or not self.corpus):  # input to state and havoc in turn
                batch, queue = queue[:16], queue[16:]
            elif seeds:
                inst = seeds.pop(0)
                try:
                    text = self.game.format_input(inst)
                except Exception:  # noqa: BLE001 - a seed the game cannot write is left out
                    continue
                if hash(text) not in self.seen_texts and self.run(inst, text):
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
                if made is not None and self.run(*made):
                    return self.report
        return self.report

    # ---- mutations ------------------------------------------------------------------------
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
        # in tiers: the other operand itself where it is a constant (it stands nowhere in the
        # input), then its neighbours; then the same for operands the input holds
        tiers: list[list[Callable[[], list[tuple[Any, ...]] | None]]] = [[], [], [], []]
        for kind, a, b in item.cov.cmps:
            if kind == "s":
                tiers[0] += [
                    functools.partial(lambda s: s, made)
                    for made in self.strings_in(item.state, a, b)
                    + self.strings_in(item.state, b, a)
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
                if (
                    len(places) > 2
                ):  # a number the input holds in many places: the first and one other
                    places = [places[0], self.rng.choice(places[1:])]
                for where in places:
                    for v in near(y, self.rng):  # (made when run: a count of 10^6 parts is dear)
                        tiers[tier + (v != other)].append(
                            functools.partial(self.put, item.state, where, v)
                        )
        for tiered in tiers:
            self.rng.shuffle(tiered)
            out += tiered
        return out[:I2S_MAX]

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


def evidence(built: Instrumented, reached: set[Any], runs: int) -> list[str]:
    """The coverage lines of the certificate and the report: how much of the program's own code
    the guided phase's inputs reached, and where the rest is."""
    sites = built.sites
    if not sites:
        return [
            f"guided phase ({built.language}): {runs} runs; the build names no source lines to count"
        ]
    got = [k for k in sites if k in reached]
    if built.language == "python":
        what = "branch sides taken"
        never = [k for k in sites if k not in reached]
        shown = [
            f"line {sites[k].line} `{sites[k].text}` {'true' if k[1] else 'false'} side"
            for k in sorted(never, key=lambda k: (sites[k].line, k))
        ]
    else:
        what = "basic blocks reached"
        lines_hit = {sites[k].line for k in got}
        never_lines = sorted({sites[k].line for k in sites if k not in reached} - lines_hit)
        texts = {sites[k].line: sites[k].text for k in sites}
        shown = [f"line {n} `{texts[n]}`" for n in never_lines]
    line = f"guided phase ({built.language}, measured on its {runs} runs): {what} {len(got)} of {len(sites)}"
    if shown:
        more = f" and {len(shown) - NEVER_SHOWN} more" if len(shown) > NEVER_SHOWN else ""
        line += f"; never: {'; '.join(shown[:NEVER_SHOWN])}{more}"
    return [line]


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


#: languages the guided phase has a route for (:func:`gamecert.engine.run.instrument.instrument`)
ROUTES = ("c", "cpp", "python")


def applies(executor: Any) -> bool:
    """Whether the guided phase will run for ``executor``'s candidate: a plan by time with a
    guided phase, and a C, C++ or Python source (known once the samples ran)."""
    found = getattr(executor, "_guided_applies", None)
    if found is None:
        plain = executor.judges[0].runner if executor.judges else None
        candidate = getattr(plain, "candidate", None)
        found = (
            executor.plan.phase("guided") is not None
            and not executor.plan.by_counts
            and candidate is not None
            and getattr(candidate, "language", "") in ROUTES
            and getattr(candidate, "source", None) is not None
        )
        if executor.judges:
            executor._guided_applies = found
            if found:  # the instrumented build is made meanwhile, beside the designed phases
                import threading

                box: dict[str, Any] = {}
                thread = threading.Thread(
                    target=_build_into,
                    args=(candidate, box),
                    daemon=True,
                    name="gamecert-guided-build",
                )
                thread.start()
                executor._guided_build = (thread, box)
    return found


def _build_into(candidate: Any, box: dict[str, Any]) -> None:
    from gamecert.engine.run.instrument import instrument

    try:
        box["built"] = instrument(candidate)
    except BaseException as exc:  # noqa: BLE001 - said by the phase (NoRoute, a failed build)
        box["error"] = exc


def share(executor: Any, phase: str, cumulative: float | None) -> float | None:
    """The cumulative share of the budget of ``phase`` for ``executor``: the designed phases'
    scaled by ``1 - GUIDED_SHARE`` when the guided phase will run (:func:`applies`); then, for a
    run whose sanitizer phase comes before the random phase (``executor.midway_share``, its part
    of the budget), every phase's before it scaled by ``1 - midway_share``."""
    from gamecert.engine.plan.plan import GUIDED_SHARE

    if phase == "guided" and not applies(executor):
        return None  # nothing to cut: the phase only says why it did not run
    if (
        cumulative is not None
        and phase in ("coverage", "worst", "exhaustive")
        and applies(executor)
    ):
        cumulative *= 1 - GUIDED_SHARE
    if cumulative is not None and phase in ("coverage", "worst", "exhaustive", "guided"):
        cumulative *= 1 - getattr(executor, "midway_share", 0.0)
    return cumulative


def run_phase(executor: Any, deadline: float | None) -> None:
    """The guided phase of ``executor`` (a :class:`gamecert.engine.execute.Executor`, by duck
    typing): the candidate's instrumented build searched until ``deadline`` or the phase's own
    share of the budget; a failing input goes to the plain build as a chunk of its own, judged,
    confirmed and shrunk by a worker as any fault. A candidate without a route gets a note."""
    import dataclasses

    from gamecert.engine.judge.judge import Judge
    from gamecert.engine.plan.plan import GUIDED_SHARE, Chunk, Group
    from gamecert.engine.run.instrument import NoRoute, instrument
    from gamecert.engine.run.sandbox import open_runner
    from gamecert.errors import GamecertError

    plain = executor.judges[0].runner if executor.judges else None
    candidate, limits = getattr(plain, "candidate", None), getattr(plain, "limits", None)
    if candidate is None or limits is None or executor.plan.by_counts:
        return  # an in-process solver, or a plan by counts: nothing to instrument
    assert plain is not None  # (the candidate came from it)
    if not applies(executor):
        try:
            instrument(candidate)
        except NoRoute as exc:
            executor.outcome.notes.append(f"the guided phase did not run: {exc}")
        return
    plan, outcome = executor.plan, executor.outcome
    thread, box = executor._guided_build
    thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
    until = time.monotonic() + GUIDED_SHARE * plan.budget_s
    until = until if deadline is None else min(deadline, until)
    error = box.get("error")
    if isinstance(error, NoRoute):
        outcome.notes.append(f"the guided phase did not run: {error}")
        return
    if isinstance(error, (GamecertError, OSError)):
        outcome.notes.append(
            f"the guided phase did not run: the instrumented build failed ({error})"
        )
        return
    if error is not None:
        raise error
    built = box.get("built")
    if built is None:
        outcome.notes.append(
            "the guided phase did not run: its instrumented build was not done by the phase's deadline"
        )
        return
    group = executor._register(
        Group("guided", "guided", "inputs steered by the candidate's coverage", runs=0)
    )
    made = [0]

    def suspect(inst: Any, text: str) -> Any:
        made[0] += 1
        key = f"guided-{made[0]}"
        games = len(executor.entry.game.split(inst)) if executor.entry.game.max_batch > 1 else 1
        chunk = Chunk("guided", key, key, (inst,), (text,), games)
        executor._register(
            Group(
                "guided",
                key,
                "an input the instrumented build failed, run plainly",
                (chunk,),
                runs=1,
            )
        )
        before = len(outcome.failures)
        executor._submit(chunk, None)
        executor._drain()
        return outcome.failures[-1] if len(outcome.failures) > before else None

    try:
        slower = dataclasses.replace(limits, time_s=limits.time_s * 3)
        runner = open_runner(
            built.candidate, slower, contain=getattr(plain.containment, "enabled", True)
        )
    except (GamecertError, OSError) as exc:
        outcome.notes.append(f"the guided phase did not run: its runner did not start ({exc})")
        built.close()
        return
    try:
        judge = Judge(
            executor.entry,
            runner,
            executor.stats,
            on_test=getattr(executor.display, "advance", None),
            expected_cache=executor.expected_cache,
            known=executor.known,
        )
        search = Search(executor.entry, judge, built, plan.seed, suspect, limits)
        report = search.search(seeds_of(executor.entry, plan), until)
    except GamecertError:
        raise  # a game's own mistake (GAME ERROR) or a usage error: said as such
    except Exception as exc:  # noqa: BLE001 - a fault of gamecert's own must not end the certification
        outcome.notes.append(
            f"{STOPPED}: {type(exc).__name__}: {exc}; the faults found so far stand, "
            "and the rest of the certification ran as usual"
        )
        group.done = True
        return
    finally:
        runner.close()
    group.done = group.runs = group.runs_done = report.runs
    executor.guided_corpus = [item.text for item in search.corpus]
    outcome.notes += [
        f"guided phase: {report.runs} runs of the instrumented build ({built.how}), {report.kept} "
        f"inputs kept for reaching new code, {report.suspects} sent to the plain build"
        + (
            f" ({len(report.unconfirmed)} failed only instrumented: {', '.join(report.unconfirmed[:3])})"
            if report.unconfirmed
            else ""
        ),
        *report.lines,
        *evidence(built, report.reached, report.runs),
    ]
    if report.malformed:
        outcome.notes.append(
            f"guided phase: {report.malformed} runs wrote a coverage record that could not be read; "
            "ignored: the record came from the program (it writes it on its own stderr), not from "
            "gamecert"
        )


#: the start of the note a guided phase that stopped on an error of gamecert's own leaves
STOPPED = "the guided phase stopped on an internal error of gamecert's"


def _number(value: Callable[[Any], Any], part: Any) -> int | None:
    """A part's value as an integer, or None (a game's parts may hold letters beside numbers)."""
    try:
        return int(value(part))
    except (TypeError, ValueError):
        return None


__all__ = [
    "Item",
    "Report",
    "Search",
    "evidence",
    "f32_neighbours",
    "near",
    "run_phase",
    "seeds_of",
]
