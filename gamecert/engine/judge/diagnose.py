"""When does the program fail? A failing class learned around a shrunk fault, then checked.

After a fault is confirmed and shrunk, :func:`diagnose` runs the candidate on inputs near it and
labels each pass or fail against the expected answer (the same judge as the certification):

1. **Sampling.** One-step structural mutations of the failing input (a part removed, copied,
   one of a new value added, its value changed, every part of one value given another, two
   parts swapped, a chunk cut or repeated; a game of a batch removed, repeated or another
   added), random walks of a few such steps from every failing input found, the game's own
   ``smaller()`` moves, the inputs of the deciding-feature families at sizes near the fault's,
   and the inputs that passed in the certification (else draws from the game's strategies).
2. **Learning.** Each input's features (:func:`gamecert.kit.features.features_of`) and its label
   go to :func:`gamecert.engine.judge.learn.learn`: a conjunction of at most five feature tests.
3. **Checking.** Fresh inputs (never run before in the diagnosis) drawn to satisfy the rule and
   to violate it, by the same mutations and draws filtered by the rule (rejection sampling), are
   run and labelled. The rule is stated only if at least :data:`MIN_SATISFYING` fresh inputs
   satisfy it and :data:`PRECISION` of them fail; else the fresh inputs join the training set
   and the rule is learned again, while time is left. A diagnosis that states no rule lists the
   features that differ most between failing and passing inputs instead.

It costs only the time it is given (the profile's share of the budget; see
:func:`seconds_for`) and runs only after a fault: a right program pays nothing.
"""

from __future__ import annotations

import hashlib
import os
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from gamecert.engine.judge.judge import Judge, Stats
from gamecert.engine.judge.learn import Rule, differences, learn
from gamecert.kit.features import features_of
from gamecert.kit.shrink import structure_of

#: a rule is stated only when this share of the fresh inputs satisfying it fail ...
PRECISION = 0.95
#: ... and at least this many fresh inputs satisfy it
MIN_SATISFYING = 20
#: the share of a certification's budget the diagnosis may take, at most
MAX_SHARE = 0.20
#: ``GAMECERT_DIAGNOSE=0`` turns the diagnosis after a fault off (the test suite does, for its many
#: certifications of wrong programs: tests/conftest.py; tests/test_diagnose.py turns it back on)
ENV_VAR = "GAMECERT_DIAGNOSE"
#: inputs that passed in the certification learned from, at most
KNOWN_MAX = 200
#: inputs whose text is longer than this many times the failing input's (and 4 KB) are not drawn
TEXT_FACTOR = 4


@dataclass
class Diagnosis:
    """What the diagnosis found: a checked rule with its figures, or none and why."""

    status: str  # "class", "none" or "skipped"
    rule: str = ""
    words: str = ""
    #: fresh inputs that satisfy the rule, and how many of them failed; the others likewise
    satisfying: int = 0
    satisfying_failed: int = 0
    others: int = 0
    others_failed: int = 0
    #: the inputs the last rule was learned from, and how many failed
    learned_on: int = 0
    learned_failing: int = 0
    rounds: int = 0
    runs: int = 0
    seconds: float = 0.0
    budget_s: float = 0.0
    #: when no rule holds: the best rule learned, unchecked or under the precision (for the record)
    tried: str = ""
    #: when no rule holds: the features that differ most between failing and passing inputs
    differ: list[dict[str, Any]] = field(default_factory=list)
    why: str = ""

    @property
    def precision(self) -> float:
        return self.satisfying_failed / self.satisfying if self.satisfying else 0.0

    @property
    def recall(self) -> float:
        failed = self.satisfying_failed + self.others_failed
        return self.satisfying_failed / failed if failed else 0.0

    def line(self) -> str:
        """One short line: the summary table's and the terminal's."""
        if self.status == "class" and self.rule in (
            "",
            "true",
        ):  # no test: every input tried failed
            return (
                f"fails on every input tried: {self.satisfying_failed:,} of {self.satisfying:,} fresh inputs "
                "failed, none passed (no class narrower than all inputs)"
            )
        if self.status == "class":
            return (
                f"fails whenever {self.words}: {self.satisfying_failed:,} of {self.satisfying:,} such inputs "
                f"failed, {self.others_failed:,} of {self.others:,} others"
            )
        if self.status == "none":
            return f"no failing class with {PRECISION:.0%} precision on fresh inputs ({self.why})"
        return f"not diagnosed: {self.why}"

    def to_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["precision"] = round(self.precision, 4)
        data["recall"] = round(self.recall, 4)
        data["line"] = self.line()
        return data


def seconds_for(budget_s: float, share: float) -> float:
    """The diagnosis's time: ``share`` of the budget, at most :data:`MAX_SHARE` of it."""
    return max(0.0, min(share, MAX_SHARE) * budget_s)


class _Labeller:
    """Runs inputs on the candidate, one thread per runner, and keeps every label."""

    def __init__(
        self,
        entry: Any,
        runners: list[Any],
        expected_cache: dict[str, tuple[Any, str]],
        deadline: float,
    ) -> None:
        self.game = entry.game
        self.judges = [Judge(entry, r, Stats(), expected_cache=expected_cache) for r in runners]
        self.deadline = deadline
        self.seen: dict[bytes, bool] = {}
        self.runs = 0
        self.taken = 0  # inputs handed to a runner (the runs, and those running)
        #: runs in all, at most (None: the time alone bounds them)
        self.limit: int | None = None
        self.lock = threading.Lock()

    def label(self, items: list[tuple[Any, str]], until: float) -> list[tuple[Any, str, bool]]:
        """``items`` (instance, text) run and labelled (True: fails) until ``until`` or the limit of
        runs; those not reached are left out. The result is in the order of ``items``, and by
        counts the items run are the first ones whatever the threads' timing."""
        done: list[tuple[int, Any, str, bool]] = []
        queue = list(reversed(list(enumerate(items))))
        errors: list[BaseException] = []

        def work(judge: Judge) -> None:
            try:
                while time.monotonic() < min(until, self.deadline):
                    with self.lock:
                        if (
                            not queue
                            or errors
                            or (self.limit is not None and self.taken >= self.limit)
                        ):
                            return
                        k, (inst, text) = queue.pop()
                        self.taken += 1
                    failed = judge.run_one(inst, "diagnosis", text=text, count=False) is not None
                    with self.lock:
                        self.runs += 1
                        self.seen[_digest(text)] = failed
                        done.append((k, inst, text, failed))
            except BaseException as exc:  # noqa: BLE001 - the other threads stop, then it is raised
                with self.lock:
                    errors.append(exc)

        threads = [threading.Thread(target=work, args=(j,), daemon=True) for j in self.judges[1:]]
        for t in threads:
            t.start()
        work(self.judges[0])
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        return [(inst, text, failed) for _, inst, text, failed in sorted(done, key=lambda d: d[0])]


class Mutator:
    """Random structural mutations of an input, each a valid input or nothing."""

    def __init__(
        self,
        game: Any,
        structure: Any,
        rng: random.Random,
        values: list[int],
        singles: list[Any],
        max_text: int,
    ) -> None:
        self.game, self.st, self.rng = game, structure, rng
        self.values = values or [structure.smallest]
        self.singles = singles
        self.batched = getattr(game, "max_batch", 1) > 1
        self.max_text = max_text

    def _state(self, instance: Any) -> list[tuple[Any, ...]]:
        singles = self.game.split(instance) if self.batched else (instance,)
        return [tuple(self.st.parts(g)) for g in singles]

    def _instance(self, state: list[tuple[Any, ...]]) -> Any:
        games = [self.st.build(p) for p in state]
        return games[0] if len(games) == 1 else self.game.merge(games)

    def _value(self, part: Any) -> int:
        r = self.rng.random()
        if r < 0.3:
            return cast(int, self.st.value(part)) + self.rng.choice((-1, 1))
        return self.rng.choice(self.values)

    def _mutate_game(self, g: tuple[Any, ...]) -> tuple[Any, ...]:
        rng, n = self.rng, len(g)
        has_values = self.st.value is not None and self.st.with_value is not None
        kind = rng.randrange(8)
        k = rng.randrange(n)
        if kind == 0 and n > 1:
            return g[:k] + g[k + 1 :]
        if kind == 1:  # copies of one part, one or a few; or a part of a new value
            part = g[rng.randrange(n)]
            if has_values and rng.random() < 0.4:
                return g[:k] + (self.st.with_value(part, self._value(part)),) + g[k:]
            return g[:k] + (part,) * rng.choice((1, 1, 2, 3, 4, 7)) + g[k:]
        if kind in (2, 3) and has_values:
            return g[:k] + (self.st.with_value(g[k], self._value(g[k])),) + g[k + 1 :]
        if kind == 4 and has_values:  # every part of one value given another
            old = g[k]
            new = self.st.with_value(old, self._value(old))
            return tuple(new if p == old else p for p in g)
        if kind == 5 and n > 1:
            i, j = rng.randrange(n), rng.randrange(n)
            parts = list(g)
            parts[i], parts[j] = parts[j], parts[i]
            return tuple(parts)
        if kind == 6 and n > 1:
            a = rng.randrange(n)
            b = rng.randrange(a + 1, n + 1)
            return g[:a] + g[b:] if b - a < n else g
        a = rng.randrange(n)
        b = rng.randrange(a + 1, min(n, a + 8) + 1)
        return g[:b] + g[a:b] + g[b:]

    def mutate(self, instance: Any, steps: int = 1) -> tuple[Any, str] | None:
        state = self._state(instance)
        rng = self.rng
        for _ in range(steps):
            if self.batched and rng.random() < 0.25:
                k = rng.randrange(len(state))
                kind = rng.randrange(3)
                if kind == 0 and len(state) > 1:
                    state = state[:k] + state[k + 1 :]
                elif kind == 1 and len(state) < self.game.max_batch:
                    state = state[:k] + [state[k]] + state[k:]
                elif self.singles and len(state) < self.game.max_batch:
                    state = state[:k] + self._state(rng.choice(self.singles))[:1] + state[k:]
            else:
                k = rng.randrange(len(state))
                if state[k]:
                    state = state[:k] + [self._mutate_game(state[k])] + state[k + 1 :]
        return self.valid(state)

    def valid(self, state: list[tuple[Any, ...]]) -> tuple[Any, str] | None:
        if not state or any(not g for g in state):
            return None
        try:
            inst = self._instance(state)
            text = self.game.format_input(inst)
            if (
                not isinstance(text, str)
                or len(text) > self.max_text
                or self.game.parse_input(text) != inst
            ):
                return None
        except Exception:  # noqa: BLE001 - not a valid input: never run
            return None
        return inst, text


def diagnose(
    entry: Any,
    failure: Any,
    open_runner: Callable[[], Any],
    seconds: float,
    *,
    jobs: int = 1,
    seed: int = 0,
    expected_cache: dict[str, tuple[Any, str]] | None = None,
    shuffle_features: bool = False,
    runs: int | None = None,
    known: Sequence[tuple[Any, str]] = (),
) -> Diagnosis:
    """The failing class of ``failure`` (a confirmed, shrunk fault), learned and checked within
    ``seconds``, or by counts: ``runs`` runs in all (half to learn from, half to check; the
    seconds then only bound it), the same work whatever the machine's load. ``shuffle_features``
    is the control: every input's features are another's (shuffled for the learner, drawn at
    random when the fresh inputs are sorted by the rule), so they say nothing of the inputs.
    ``known``: inputs (instance, text) that already ran and passed in the certification, learned
    from without a run."""
    started = time.monotonic()
    deadline = started + seconds
    game = entry.game
    structure = structure_of(game, failure.instance)
    if structure is None:
        return Diagnosis(
            "skipped", why=f"{game.name} declares no structure to mutate", budget_s=seconds
        )
    if seconds < 1.0:
        return Diagnosis(
            "skipped",
            why=f"its time ({seconds:.1f} s of the budget) is under a second",
            budget_s=seconds,
        )
    rng = random.Random(seed)
    runners: list[Any] = []
    try:
        _open_all(open_runner, max(1, jobs), runners)
        labeller = _Labeller(
            entry, runners, expected_cache if expected_cache is not None else {}, deadline
        )
        labeller.limit = runs
        return _diagnose(
            entry,
            failure,
            structure,
            labeller,
            rng,
            started,
            deadline,
            seconds,
            shuffle_features,
            list(known),
        )
    finally:
        for r in runners:
            r.close()


def _open_all(open_runner: Callable[[], Any], n: int, into: list[Any]) -> None:
    """``n`` runners opened at once (a sandbox and its fork server take a moment each), into
    ``into`` as they open, so the caller closes every one that opened even if another failed."""
    errors: list[BaseException] = []

    def one() -> None:
        try:
            runner = open_runner()
        except BaseException as exc:  # noqa: BLE001 - raised below, in the caller's thread
            errors.append(exc)
            return
        into.append(runner)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(n - 1)]
    for t in threads:
        t.start()
    one()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def _diagnose(
    entry: Any,
    failure: Any,
    structure: Any,
    labeller: _Labeller,
    rng: random.Random,
    started: float,
    deadline: float,
    seconds: float,
    shuffle: bool,
    known: list[tuple[Any, str]],
) -> Diagnosis:
    game = entry.game
    max_text = max(4096, TEXT_FACTOR * len(failure.input_text))
    rng.shuffle(known)
    known = [(inst, text) for inst, text in known if len(text) <= max_text][:KNOWN_MAX]
    # the inputs to mutate besides the fault's: those the certification ran (from the strategies
    # and the families), else a few drawn from the strategies now
    draws = [inst for inst, _ in known[:40]]
    if len(draws) < 10:
        draws += _draws(entry, rng, max_text, seconds)
    values = _values(structure, game, [failure.instance, *draws])
    singles = [s for d in draws for s in (game.split(d) if game.max_batch > 1 else (d,))]
    mutator = Mutator(game, structure, rng, values, singles, max_text)
    rows: list[dict[str, int]] = []
    labels: list[bool] = []
    failing = [failure.instance]

    def add(labelled: list[tuple[Any, str, bool]]) -> None:
        for inst, text, failed in labelled:
            rows.append(features_of(game, inst, text))
            labels.append(failed)
            if failed:
                failing.append(inst)

    rows.append(features_of(game, failure.instance, failure.input_text))
    labels.append(True)
    labeller.seen[_digest(failure.input_text)] = True
    # the inputs that already passed in this certification (a sample of them), labelled without a run
    for inst, text in known:
        d = _digest(text)
        if d not in labeller.seen:
            labeller.seen[d] = False
            rows.append(features_of(game, inst, text))
            labels.append(False)
    # training: near the fault first (one step, the game's smaller moves, nearby families), then
    # walks from every failing input found and the strategies' draws with a step or two
    limit = labeller.limit
    train_until = started + (seconds if limit is not None else 0.5 * seconds)
    if limit is not None:
        labeller.limit = limit // 2
    near = _fresh(labeller, [m for m in (mutator.mutate(failure.instance) for _ in range(60)) if m])
    near += _fresh(labeller, list(_smaller(game, failure.instance, mutator, 20)))
    near += _fresh(labeller, list(_nearby_family(game, failure.size, mutator, 24)))
    near += _fresh(labeller, [(d, game.format_input(d)) for d in draws])
    add(labeller.label(near, train_until))
    while time.monotonic() < train_until and (limit is None or labeller.runs < limit // 2):
        batch = _walks(mutator, failing, draws, rng, labeller, 40)
        if not batch:
            break
        add(labeller.label(batch, train_until))
    result = Diagnosis("none", budget_s=seconds)
    stated: Diagnosis | None = None  # the last rule that held on its fresh inputs
    checked: tuple[str, list[bool], list[bool]] = ("", [], [])  # the last rule checked, on what
    rounds = 0
    # Alhazen's loop: learn, check on fresh inputs, learn again with them, while time is left; the
    # rule stated is the last one that held on the fresh inputs of its own round
    labeller.limit = limit
    while time.monotonic() < deadline - 0.5 and (
        limit is None or labeller.runs < limit - 2 * MIN_SATISFYING
    ):
        rounds += 1
        learn_rows = rows
        if shuffle:
            learn_rows = list(rows)
            rng.shuffle(learn_rows)
        rule = learn(learn_rows, labels)
        result = Diagnosis(
            "none", budget_s=seconds, learned_on=len(rows), learned_failing=sum(labels)
        )
        if rule is None:
            result.why = "no feature test sets the failing inputs apart"
            break
        if stated is not None and rule.text() == stated.rule:
            break  # the fresh inputs changed nothing
        left = deadline - time.monotonic()
        until = time.monotonic() + (left if rounds >= 3 else 0.5 * left)
        want = (
            400
            if limit is None
            else max(MIN_SATISFYING, (limit - labeller.runs) // (2 if rounds >= 3 else 4))
        )
        pool, sat_set = _check_pool(
            mutator,
            rule,
            failing,
            draws,
            rng,
            labeller,
            game,
            until,
            want,
            rows if shuffle else None,
        )
        labelled = labeller.label(pool, until)
        s = [f for _, t, f in labelled if _digest(t) in sat_set]
        o = [f for _, t, f in labelled if _digest(t) not in sat_set]
        if checked[0] == rule.text():  # learned again unchanged: its earlier fresh inputs count too
            s, o = checked[1] + s, checked[2] + o
        checked = (rule.text(), s, o)
        result.satisfying, result.satisfying_failed = len(s), sum(s)
        result.others, result.others_failed = len(o), sum(o)
        result.rule, result.words = rule.text(), rule.words(structure.part_name, game.size_measure)
        if len(s) >= MIN_SATISFYING and sum(s) >= PRECISION * len(s):
            result.status = "class"
            stated = result
        elif len(s) < MIN_SATISFYING:
            result.why = f"only {len(s)} fresh inputs satisfying the best rule were found and run"
        else:
            result.why = (
                f"the best rule learned held on {sum(s)} of {len(s)} fresh inputs satisfying it"
            )
        add(labelled)  # the fresh inputs teach the next round
    if stated is not None:
        result = stated
    result.rounds = rounds
    if result.status != "class":
        result.tried = result.rule
        result.rule = result.words = ""
        result.differ = differences(rows, labels)
        if not result.why:
            result.why = "the time was up before a rule could be checked"
    result.runs = labeller.runs
    result.seconds = round(time.monotonic() - started, 2)
    return result


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _fresh(labeller: _Labeller, items: list[tuple[Any, str]]) -> list[tuple[Any, str]]:
    """``items`` never run in this diagnosis, each once."""
    out, seen = [], set()
    for inst, text in items:
        d = _digest(text)
        if d not in labeller.seen and d not in seen:
            seen.add(d)
            out.append((inst, text))
    return out


def _draws(entry: Any, rng: random.Random, max_text: int, seconds: float) -> list[Any]:
    """A few inputs from the game's strategies (the oracle's reach first), none too long."""
    from gamecert.engine.plan.draws import draw_examples

    game = entry.game
    n = 20 if seconds >= 5 else 8
    out: list[Any] = []
    for strategy in (entry.oracle_instances(), entry.instances()):
        if len(out) >= n:
            break
        try:
            for inst in draw_examples(strategy, n, rng.randrange(2**31)):
                if len(game.format_input(inst)) <= max_text:
                    out.append(inst)
        except Exception:  # noqa: BLE001 - a strategy that cannot draw here: the mutations still run
            continue
    return out


def _values(structure: Any, game: Any, instances: list[Any]) -> list[int]:
    """The part values seen in ``instances`` (the failing input and the draws), and one beyond."""
    if structure.value is None:
        return []
    seen: set[int] = set()
    for inst in instances:
        for single in game.split(inst) if game.max_batch > 1 else (inst,):
            for p in structure.parts(single):
                try:
                    seen.add(int(structure.value(p)))
                except Exception:  # noqa: BLE001 - a part without a number
                    pass
    if seen:
        seen |= (
            set(range(min(seen), max(seen) + 2))
            if max(seen) - min(seen) < 4096
            else {max(seen) + 1}
        )
    return sorted(seen)


def _smaller(game: Any, instance: Any, mutator: Mutator, limit: int) -> Iterator[tuple[Any, str]]:
    try:
        for k, cand in enumerate(game.smaller(instance)):
            if k >= 4 * limit:
                return
            ok = mutator.valid(mutator._state(cand)) if cand is not None else None
            if ok is not None:
                yield ok
    except Exception:  # noqa: BLE001 - the game's shrinker failed here: its moves end
        return


def _nearby_family(game: Any, size: int, mutator: Mutator, limit: int) -> Iterator[tuple[Any, str]]:
    """Inputs of the deciding-feature families at sizes near ``size`` (single games)."""
    from gamecert.kit.deciding import feature_spaces

    try:
        spaces = feature_spaces(game)
    except Exception:  # noqa: BLE001 - none to take
        return
    for sp in spaces:
        sizes = [s for s in sp.sizes if abs(s - size) <= 2]
        for s in sizes:
            taken = 0
            for inst in sp.instances(s):
                ok = mutator.valid(mutator._state(inst))
                if ok is not None:
                    yield ok
                    taken += 1
                if taken >= max(1, limit // max(1, len(sizes) * len(spaces))):
                    break


def _walks(
    mutator: Mutator,
    failing: list[Any],
    draws: list[Any],
    rng: random.Random,
    labeller: _Labeller,
    n: int,
) -> list[tuple[Any, str]]:
    """``n`` random walks of one to four steps: three in four from a failing input, the rest from a draw."""
    out = []
    for _ in range(4 * n):
        start = rng.choice(failing) if not draws or rng.random() < 0.75 else rng.choice(draws)
        m = mutator.mutate(start, rng.choice((1, 1, 2, 3, 4)))
        if m is not None:
            out.append(m)
        if len(out) >= n:
            break
    return _fresh(labeller, out)


def _check_pool(
    mutator: Mutator,
    rule: Rule,
    failing: list[Any],
    draws: list[Any],
    rng: random.Random,
    labeller: _Labeller,
    game: Any,
    until: float,
    want: int = 400,
    shuffled: list[dict[str, int]] | None = None,
) -> tuple[list[tuple[Any, str]], set[bytes]]:
    """Fresh inputs drawn to satisfy ``rule`` and to violate it, about as many of each: walks
    from inputs that satisfy it (mutating toward it) and from the draws, filtered by the rule.
    ``shuffled`` (the control): the rule is asked of another input's features, drawn from these."""
    sat: list[tuple[Any, str]] = []
    other: list[tuple[Any, str]] = []
    seen: set[bytes] = set()
    starts = [i for i in failing if rule.holds(features_of(game, i))] or failing
    budget_s = max(0.05, 0.25 * (until - time.monotonic()))
    stop = time.monotonic() + budget_s
    tries = 0
    while time.monotonic() < stop and (len(sat) < want or len(other) < want) and tries < 40 * want:
        tries += 1
        pick = rng.random()
        base = rng.choice(starts) if pick < 0.6 or not draws else rng.choice(draws)
        m = mutator.mutate(base, rng.choice((1, 1, 2, 3, 5)))
        if m is None:
            continue
        d = _digest(m[1])
        if d in labeller.seen or d in seen:
            continue
        seen.add(d)
        holds = rule.holds(rng.choice(shuffled) if shuffled else features_of(game, m[0], m[1]))
        if holds and len(sat) < want:
            sat.append(m)
            if rng.random() < 0.5:
                starts.append(m[0])
        elif not holds and len(other) < want:
            other.append(m)
    # alternated, so a run the time cuts short has both kinds
    mixed = []
    for k in range(max(len(sat), len(other))):
        mixed += ([sat[k]] if k < len(sat) else []) + ([other[k]] if k < len(other) else [])
    return mixed, {_digest(t) for _, t in sat}


def diagnose_fault(
    entry: Any,
    plan: Any,
    failure: Any,
    open_runner: Callable[[], Any],
    *,
    jobs: int,
    started: float,
    reserve_s: float,
    expected_cache: dict[str, tuple[Any, str]] | None = None,
    known: Sequence[tuple[Any, str]] = (),
) -> None:
    """The hook after a certification's fault is confirmed and shrunk: its diagnosis, kept in
    ``failure.diagnosis`` for the report. It takes the profile's share of the budget
    (``Profile.diagnose_share``, at most :data:`MAX_SHARE`), and never runs past the budget's end
    plus the fault's reserve (``started`` and ``reserve_s`` are the executor's), save that a fault
    found late still gets the reserve's time. A nondeterministic fault is not diagnosed (its
    labels would be noise); a diagnosis that stops on an error or Ctrl-C says so and the report
    stands."""
    if os.environ.get(ENV_VAR, "1").strip().lower() in ("0", "off", "no", "false"):
        return
    if failure.nondeterministic or (failure.reruns is not None and failure.reruns[0] == 0):
        failure.diagnosis = Diagnosis(
            "skipped", why="the fault does not show on every run"
        ).to_json()
        return
    now = time.monotonic()
    share = seconds_for(plan.budget_s, getattr(plan.profile, "diagnose_share", MAX_SHARE))
    seconds = min(share, max(started + plan.budget_s + reserve_s - now, reserve_s))
    try:
        found = diagnose(
            entry,
            failure,
            open_runner,
            seconds,
            jobs=jobs,
            seed=plan.seed,
            expected_cache=expected_cache,
            known=list(known),
        )
    except KeyboardInterrupt:
        found = Diagnosis("skipped", why="interrupted (Ctrl-C)", budget_s=seconds)
    except Exception as exc:  # noqa: BLE001 - the fault and its report stand whatever the diagnosis meets
        found = Diagnosis(
            "skipped", why=f"stopped by {type(exc).__name__}: {str(exc)[:200]}", budget_s=seconds
        )
    failure.diagnosis = found.to_json()


__all__ = [
    "MAX_SHARE",
    "MIN_SATISFYING",
    "PRECISION",
    "Diagnosis",
    "Mutator",
    "diagnose",
    "diagnose_fault",
    "seconds_for",
]
