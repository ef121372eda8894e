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

Where the inputs come from is :mod:`gamecert.engine.judge.mutate` (mutations, the whole space's
draws, the check pool), how they run :mod:`gamecert.engine.judge.labeller`, the values of a
rule's class and the probe of a rule naming the shrunk input's own value
:mod:`gamecert.engine.judge.classes`. A rule is stated only if it also holds for
:data:`MIN_RECALL` of the fresh inputs that failed, and, where it names a part value literally
(``count[6] >= 1``), only if that value's relatives (18, 30, 42 ...) pass.

It costs only the time it is given (the profile's share of the budget; see
:func:`seconds_for`) and runs only after a fault: a right program pays nothing.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.engine.judge.classes import class_values, literal_values, relatives
from gamecert.engine.judge.labeller import Labeller, digest, fresh
from gamecert.engine.judge.learn import Rule, differences, learn
from gamecert.engine.judge.mutate import (
    Mutator,
    check_pool,
    draws_from,
    nearby_family,
    numeric_parts,
    part_values,
    smaller_inputs,
    walks,
)
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
#: ... and holds for at least this share of the fresh inputs that failed (recall)
MIN_RECALL = 0.75
#: values tried in place of a value a rule names literally (the disguise probe), at most, and the
#: share of them failing (two at least) that says the value is not the class: a relative shares
#: one class of the value's (a residue mod k for one k, its bit length), so a program wrong on a
#: residue fails on only some of them, and one wrong on the value alone on none
DISGUISE_PROBES = 24
DISGUISE_SHARE = 0.1
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
        labeller = Labeller(
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


def _within(items: Any, until: float) -> Iterator[Any]:
    """``items`` while the clock is before ``until`` (the one being made when it passes is the
    last): the diagnosis's inputs are made within its time, whatever their size."""
    for item in items:
        yield item
        if time.monotonic() >= until:
            return


def _diagnose(
    entry: Any,
    failure: Any,
    structure: Any,
    labeller: Labeller,
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
    # the whole input space: draws from the game's strategies, fresh inputs far from the fault
    space = draws_from(entry, rng, max_text, seconds, 40 if seconds >= 5 else 12)
    draws += space[: max(0, 20 - len(draws))]
    values = part_values(structure, game, [failure.instance, *draws, *space])
    singles = [s for d in draws for s in (game.split(d) if game.max_batch > 1 else (d,))]
    mutator = Mutator(game, structure, rng, values, singles, max_text)
    mutator.numeric = numeric_parts(game, structure, failure.instance)
    rows: list[dict[str, int]] = []
    labels: list[bool] = []
    failing = [failure.instance]

    def add(labelled: list[tuple[Any, str, bool]]) -> None:
        for inst, text, failed in _within(labelled, deadline):  # (a row of a huge input is slow)
            rows.append(features_of(game, inst, text))
            labels.append(failed)
            if failed:
                failing.append(inst)

    rows.append(features_of(game, failure.instance, failure.input_text))
    labels.append(True)
    labeller.seen[digest(failure.input_text)] = True
    # the inputs that already passed in this certification (a sample of them), labelled without a run
    for inst, text in _within(known, deadline):
        d = digest(text)
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
    # (each made within the training's time: a mutation of a million parts takes a second)
    mutations = (mutator.mutate(failure.instance) for _ in range(60))
    near = fresh(labeller, [m for m in _within(mutations, train_until) if m])
    near += fresh(
        labeller, list(_within(smaller_inputs(game, failure.instance, mutator, 20), train_until))
    )
    near += fresh(
        labeller, list(_within(nearby_family(game, failure.size, mutator, 24), train_until))
    )
    near += fresh(labeller, [(d, game.format_input(d)) for d in _within(draws, train_until)])
    add(labeller.label(near, train_until))
    while time.monotonic() < train_until and (limit is None or labeller.runs < limit // 2):
        batch = walks(mutator, failing, draws, rng, labeller, 40)
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
        rule = learn(learn_rows, labels, until=deadline - 0.5)
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
        mutator.classes = class_values(
            rule
        )  # its fresh inputs hold values of its classes, anywhere
        pool, sat_set = check_pool(
            mutator,
            rule,
            failing,
            draws + space,
            rng,
            labeller,
            game,
            until,
            want,
            rows if shuffle else None,
        )
        labelled = labeller.label(pool, until)
        s = [f for _, t, f in labelled if digest(t) in sat_set]
        o = [f for _, t, f in labelled if digest(t) not in sat_set]
        if checked[0] == rule.text():  # learned again unchanged: its earlier fresh inputs count too
            s, o = checked[1] + s, checked[2] + o
        checked = (rule.text(), s, o)
        result.satisfying, result.satisfying_failed = len(s), sum(s)
        result.others, result.others_failed = len(o), sum(o)
        result.rule, result.words = rule.text(), rule.words(structure.part_name, game.size_measure)
        add(labelled)  # the fresh inputs teach the next round
        precise = len(s) >= MIN_SATISFYING and sum(s) >= PRECISION * len(s)
        disguise = ""
        if precise and not shuffle:
            disguise = _disguise(mutator, rule, failing, rng, labeller, game, until, add)
        if precise and result.recall >= MIN_RECALL and not disguise:
            result.status = "class"
            stated = result
        elif len(s) < MIN_SATISFYING:
            result.why = (
                f"only {len(s)} fresh inputs satisfying the best rule "
                f"(`{rule.text()}`) were found and run"
            )
        elif not precise:
            result.why = (
                f"the best rule learned held on {sum(s)} of {len(s)} fresh inputs satisfying it"
            )
        elif disguise:
            result.why = disguise
        else:
            result.why = (
                f"the best rule learned, `{rule.text()}`, holds for only {sum(s)} of "
                f"{sum(s) + sum(o)} fresh failing inputs (recall {result.recall:.0%}, under "
                f"{MIN_RECALL:.0%}): it names a part of the failing class, not the class"
            )
    if stated is not None:
        result = stated
    result.rounds = rounds
    if result.status != "class":
        result.tried = result.rule
        result.rule = result.words = ""
        # within the diagnosis's time (half a second at least: the plainest features)
        result.differ = differences(rows, labels, until=max(deadline, time.monotonic() + 0.5))
        if not result.why:
            result.why = "the time was up before a rule could be checked"
    result.runs = labeller.runs
    result.seconds = round(time.monotonic() - started, 2)
    return result


def _disguise(
    mutator: Mutator,
    rule: Rule,
    failing: list[Any],
    rng: random.Random,
    labeller: Labeller,
    game: Any,
    until: float,
    add: Callable[[list[tuple[Any, str, bool]]], None],
) -> str:
    """Why ``rule`` is the shrunk input in disguise ("" if it is not, or names no value): where
    it names a part value literally (``count[6] >= 1``), failing inputs it holds for are run
    with that value replaced by others of its classes (18, 30, 42 ... for 6: its residues, its
    bit length); if :data:`DISGUISE_SHARE` of them fail too (two at least), the value alone is
    not what the class is about. The
    probes run on the candidate and teach the next round."""
    named = literal_values(rule, mutator.numeric)
    if not named:
        return ""
    starts = [i for i in failing if rule.holds(features_of(game, i))][-20:] or failing[:1]
    probes = []
    for v in named:
        for w in relatives(rng, v, mutator.low, max(mutator.high, 4 * abs(v)), DISGUISE_PROBES):
            m = mutator.replaced(rng.choice(starts), v, w)
            if m is not None:
                probes.append(m)
    ran = labeller.label(fresh(labeller, probes), until)
    add(ran)
    failed = [inst for inst, _, f in ran if f]
    if len(ran) >= 5 and len(failed) >= max(2, DISGUISE_SHARE * len(ran)):
        return (
            f"the best rule learned, `{rule.text()}`, names the value "
            f"{', '.join(map(str, named))} of the failing inputs, but {len(failed)} of {len(ran)} "
            f"inputs with it replaced by other values of its classes (its residues, its bit "
            f"length) failed too: the shrunk input in disguise, not a class"
        )
    return ""


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
    ends_by: float | None = None,
) -> None:
    """The hook after a certification's fault is confirmed and shrunk: its diagnosis, kept in
    ``failure.diagnosis`` for the report. It takes the profile's share of the budget
    (``Profile.diagnose_share``, at most :data:`MAX_SHARE`), and never runs past the budget's end
    plus the fault's reserve (``started`` and ``reserve_s`` are the executor's), save that a fault
    found late still gets the reserve's time, and never past ``ends_by`` (the budget's overrun
    cap less a test in flight: the reserve included). A nondeterministic fault is not diagnosed (its
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
    if ends_by is not None:
        seconds = max(0.0, min(seconds, ends_by - now))
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
