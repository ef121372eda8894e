"""The diagnosis that says when a program fails (gamecert/engine/judge/diagnose.py, learn.py,
gamecert/kit/features.py): features, the learner, the report's section, and the classes found.

- Default run (cheap, in-process): the features of a few inputs by hand; the learner on planted
  rules and on shuffled labels (the control); a whole diagnosis of a planted fault in a registered
  solver's in-process runner (the class found and checked; features shuffled: none stated); the
  report's section and JSON round trip.
- Long (``GAMECERT_LONG_TESTS=1``): the project's wrong programs with a ``# class:`` header,
  each diagnosed in the sandbox by counts (the same work whatever the load), the stated rule
  compared with the header's on fresh inputs; at least 8 of them must match. Precision and recall
  are printed. The control (features shuffled) must state no class for any of three of them.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.judge.diagnose import Diagnosis, Mutator, diagnose
from gamecert.engine.judge.judge import Judge, Stats
from gamecert.engine.judge.learn import learn, parse_rule
from gamecert.engine.report.diagnosis import diagnosis_markdown, diagnosis_short
from gamecert.engine.report.reports import FailureReport
from gamecert.engine.run.subjects import SolverRunner
from gamecert.kit.features import features_of
from gamecert.kit.shrink import structure_of

ROOT = Path(__file__).resolve().parent.parent


# ---- features -------------------------------------------------------------------------------


def test_features_say_what_the_structure_and_the_game_know():
    """A word's letters, counts and Grundy xor; a batch's games and its last game; a string's runs:
    each value worked out by hand (a feature named wrongly or miscounted fails here)."""
    word = registry.get("word_game").game
    f = features_of(word, "AAAAAAABC")
    assert (f["size"], f["distinct"], f["count[A]"], f["mult[7]"], f["mult[1]"], f["max_mult"]) == (
        9,
        3,
        7,
        1,
        2,
        7,
    )
    assert f["xor"] == 1 and f["value[1]"] == 3 and f["mult[7]%2"] == 1 and f["adjacent[A]"] == 6
    assert f["size%4"] == 1 and f["size.pow2"] == 1 and f["size.bits"] == 2 and f["bytes"] == 10
    assert "count[Z]" not in f
    digits = registry.get("digit_game").game
    g = features_of(digits, ("123", "45"))
    assert (g["games"], g["parts"], g["longest"], g["first_parts"], g["last_parts"]) == (
        2,
        5,
        3,
        3,
        2,
    )
    assert g["class[1]"] == 3 and g["class[0]"] == 2  # digits by parity, the game's own classes
    cut = registry.get("string_cut").game
    h = features_of(cut, "ababab")  # one run of 4 cuttable positions
    assert (h["runs"], h["longest_run"], h["run[4]"]) == (1, 4, 1)


# ---- the learner ----------------------------------------------------------------------------


def _rows(n: int, seed: int) -> list[dict[str, int]]:
    rng = random.Random(seed)
    return [
        {
            "a": rng.randrange(10),
            "b": rng.randrange(6),
            "c": rng.randrange(100),
            **{f"n{k}": rng.randrange(4) for k in range(20)},
        }
        for _ in range(n)
    ]


def _agree(rule, planted, rows) -> tuple[int, int, int]:
    both = sum(1 for r in rows if rule.holds(r) and planted.holds(r))
    return both, sum(1 for r in rows if planted.holds(r)), sum(1 for r in rows if rule.holds(r))


def test_the_learner_finds_a_planted_conjunction_and_nothing_in_noise():
    """Labels from ``a >= 5 and b == 3``: the rule learned holds exactly where the planted one does
    on 2,000 fresh rows. The control: the same rows with shuffled labels give a rule that holds on
    fresh rows where the planted one mostly does not (under 95% precision)."""
    planted = parse_rule("a >= 5 and b == 3")
    train = _rows(600, 1)
    rule = learn(train, [planted.holds(r) for r in train])
    fresh = _rows(2000, 2)
    both, truth, said = _agree(rule, planted, fresh)
    assert both == truth == said, (rule.text(), both, truth, said)
    labels = [planted.holds(r) for r in train]
    random.Random(3).shuffle(labels)
    noise = learn(train, labels)
    both, truth, said = _agree(noise, planted, fresh)
    assert said and both / said < 0.95, (noise.text(), both, said)


def test_rules_read_back_and_bad_ones_are_named():
    """A rule's text reads back to the same rule; a test that is not NAME OP N is refused."""
    rule = parse_rule("mult[7]%2 == 1 and distinct >= 3 and xor <= 1")
    assert parse_rule(rule.text()) == rule and len(rule.tests) == 3
    assert rule.holds({"mult[7]%2": 1, "distinct": 3}) and not rule.holds(
        {"mult[7]%2": 1, "distinct": 2}
    )
    with pytest.raises(ValueError, match="not a feature test"):
        parse_rule("distinct > 3")


# ---- a whole diagnosis, in-process ----------------------------------------------------------


def _planted_word_game(flip):
    entry = registry.get("word_game")
    game = entry.game

    def solver(word):
        right = game.oracle(word)
        if flip(features_of(game, word)):
            return "Bob" if right == "Alice" else "Alice"
        return right

    return entry, solver


def _failure(entry, runner, text):
    judge = Judge(entry, runner, Stats())
    found = judge.run_one(entry.game.parse_input(text), "samples", text=text, count=False)
    assert found is not None
    return found


def _diagnose_planted(shuffle: bool) -> tuple[Diagnosis, object]:
    planted = parse_rule("mult[7] >= 1 and distinct >= 3")
    entry, solver = _planted_word_game(planted.holds)
    open_runner = lambda: SolverRunner(entry, "planted", solver)  # noqa: E731
    failure = _failure(entry, open_runner(), "AAAAAAABC\n")
    return diagnose(
        entry, failure, open_runner, 120.0, seed=4, runs=500, shuffle_features=shuffle
    ), planted


def _fresh_agreement(
    entry, failure_instance, rule, planted, n: int = 1500, seed: int = 99
) -> tuple[int, int, int]:
    """(both, planted, rule): how many fresh mutants of the failing input (and of the ones the
    planted rule holds for) each rule holds for."""
    game = entry.game
    rng = random.Random(seed)
    st = structure_of(game, failure_instance)
    values = set(range(0, 27))  # letters and digits, and values around the failing input's own
    for single in game.split(failure_instance) if game.max_batch > 1 else (failure_instance,):
        for part in st.parts(single):
            v = st.value(part)
            values |= set(range(max(0, v - 60), v + 60))
    mut = Mutator(game, st, rng, sorted(values), [], 10**6)
    starts, rows, seen = [failure_instance], [], set()
    while len(rows) < n:
        m = mut.mutate(rng.choice(starts), rng.choice((1, 2, 3, 4)))
        if m is None or m[1] in seen:
            continue
        seen.add(m[1])
        f = features_of(game, m[0], m[1])
        rows.append(f)
        if planted.holds(f) and len(starts) < 200:
            starts.append(m[0])
    return _agree(rule, planted, rows)


def test_a_planted_fault_is_diagnosed_and_the_shuffled_control_states_nothing():
    """A registered word_game solver made wrong exactly when a letter occurs 7 times among 3 or more
    letters: the diagnosis (500 runs, in-process) states a class, checked at 95% precision or more
    on its fresh inputs, that agrees with the planted one on 95% of fresh inputs each way. The
    control, every input's features another's, states no class."""
    found, planted = _diagnose_planted(False)
    assert found.status == "class", found.to_json()
    assert found.precision >= 0.95 and found.satisfying >= 20
    entry = registry.get("word_game")
    both, truth, said = _fresh_agreement(entry, "AAAAAAABC", parse_rule(found.rule), planted)
    assert truth >= 30 and both / truth >= 0.95 and both / said >= 0.95, (
        found.rule,
        both,
        truth,
        said,
    )
    control, _ = _diagnose_planted(True)
    assert control.status != "class", control.to_json()
    assert control.differ, "no rule: the features that differ most are listed instead"


def test_judges_keep_a_sample_of_the_passing_inputs_for_the_diagnosis():
    """A judge keeps at most KEEP_PASSING of the inputs that passed (a reservoir over all of them,
    not the first ones), never a failing one: the diagnosis learns from them without a run."""
    from gamecert.engine.judge.reservoir import KEEP_PASSING

    planted = parse_rule("count[A] >= 2")
    entry, solver = _planted_word_game(planted.holds)
    judge = Judge(entry, SolverRunner(entry, "planted", solver), Stats())
    rng = random.Random(5)
    words = [
        "".join(rng.choice("ABCDEFG") for _ in range(rng.randrange(1, 12)))
        for _ in range(3 * KEEP_PASSING)
    ]
    failing = {w for w in words if judge.run_one(w, "random", text=w + "\n") is not None}
    assert failing == {w for w in words if w.count("A") >= 2}
    kept = {text.strip() for _, text in judge.passing}
    assert len(judge.passing) == KEEP_PASSING and not kept & failing
    assert kept - set(words[: KEEP_PASSING + len(failing)]), "a reservoir, not the first inputs"


@pytest.mark.slow
def test_a_certification_reports_when_it_fails_within_its_share(monkeypatch, tmp_path):
    """``gamecert certify`` of a wrong program (samples only, budget 10 s): its report.json holds a
    diagnosis that took at most its share of the budget (the default profile's 15%: 1.5 s, and a
    second's grace for closing its runners), report.md its section, the result its short line.
    The control: the right program's certification has no diagnosis; and with GAMECERT_DIAGNOSE=0
    (the suite's default) the wrong program's report has none either."""
    import json

    from gamecert.engine.certification import certify, options

    monkeypatch.setenv("GAMECERT_DIAGNOSE", "1")
    entry = registry.get("word_game")
    opts = options(entry, budget=10, seed=1, jobs=2, phases="samples", report_dir=str(tmp_path))
    wrong = certify(opts, str(ROOT / "examples/word_game/wrong.py"))
    assert wrong.status == 1 and wrong.diagnosis, wrong.lines
    data = json.loads((Path(wrong.path) / "report.json").read_text())["diagnosis"]
    assert (
        data["status"] in ("class", "none")
        and data["budget_s"] <= 0.2 * 10
        and data["seconds"] <= data["budget_s"] + 1
    )
    assert "## When it fails" in (Path(wrong.path) / "report.md").read_text()
    assert any(line.startswith("  when:") for line in wrong.lines)
    right = certify(opts, str(ROOT / "examples/word_game/correct.py"))
    assert right.status == 0 and right.diagnosis == ""
    monkeypatch.setenv("GAMECERT_DIAGNOSE", "0")
    off = certify(opts, str(ROOT / "examples/word_game/wrong.py"))
    assert (
        off.status == 1
        and not json.loads((Path(off.path) / "report.json").read_text())["diagnosis"]
    )


# ---- the report -----------------------------------------------------------------------------


def _report(diagnosis: dict) -> FailureReport:
    return FailureReport(
        "word_game",
        "x",
        "x.py",
        "WA",
        "wrong answer",
        "AAAAAAABC\n",
        "Alice\n",
        "Bob\n",
        "why",
        1,
        "default",
        "exhaustive",
        9,
        "",
        "now",
        diagnosis=diagnosis,
    )


def test_the_report_says_when_it_fails_with_its_figures():
    """report.md has the section with the rule and the fresh-input figures, report.json keeps the
    dictionary and reads back; a report without a diagnosis has no section (the control); a
    diagnosis without a class says why and lists the differing features, never a rule."""
    d = Diagnosis(
        "class",
        rule="mult[7] >= 1 and distinct >= 3",
        words="some letter occurs exactly 7 times",
        satisfying=212,
        satisfying_failed=212,
        others=1804,
        others_failed=0,
    ).to_json()
    report = _report(d)
    text = report.describe()
    assert "## When it fails" in text and "`mult[7] >= 1 and distinct >= 3`" in text
    assert "212 of 212 such inputs failed, 0 of 1,804 others" in text
    assert FailureReport.from_json(report.to_json()).diagnosis == d
    assert diagnosis_short(d) == "mult[7] >= 1 and distinct >= 3 (212/212 fail, 0/1804 others)"
    assert "When it fails" not in _report({}).describe()
    none = Diagnosis(
        "none",
        why="the best rule learned held on 30 of 50 fresh inputs satisfying it",
        tried="size >= 3",
        satisfying=50,
        satisfying_failed=30,
        differ=[
            {"test": "size >= 9", "failing": 9, "of_failing": 10, "passing": 3, "of_passing": 40}
        ],
    ).to_json()
    lines = "\n".join(diagnosis_markdown(none))
    assert (
        "no failing class with 95% precision" in lines
        and "`size >= 9`" in lines
        and "not stated as a class" in lines
    )
    assert "**Rule:**" not in lines


# ---- the project's wrong programs (long) ------------------------------------------------------

#: program, game, a failing input (the shrunk one a certification reports, or one like it)
KNOWN = [
    ("tests/wrong/word_game/count7_three.py", "word_game", "AAAAAAABC"),
    ("tests/wrong/word_game/mixed17.py", "word_game", "A" * 17 + "B"),
    ("tests/wrong/word_game/all26.py", "word_game", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    ("tests/candidates_certify/word_game_rare.py", "word_game", "AAAAAAABC"),
    ("tests/candidates_certify/word_game_distinct13.py", "word_game", "ABCDEFGHIJKLM"),
    ("examples/word_game/wrong.py", "word_game", "AAA"),
    ("tests/wrong/stones_once/pile47.py", "stones_once", (36, 47)),
    ("tests/shrink_wrong/digit_game/late64.py", "digit_game", ("1",) * 64),
    ("tests/wrong/digit_game/game100.py", "digit_game", ("1",) * 100),
    ("tests/wrong/dawson_kayles/single_big.py", "dawson_kayles", (101,)),
]
#: runs each diagnosis makes (by counts: the same work on a loaded machine)
LONG_RUNS = int(os.environ.get("GAMECERT_DIAGNOSE_RUNS", "600"))


def _header(path: str):
    for line in (ROOT / path).read_text().splitlines():
        for lead in ("# class:", "// class:"):
            if line.startswith(lead):
                return parse_rule(line[len(lead) :])
    raise AssertionError(f"{path}: no # class: header")


def _sandboxed(path: str, game: str, instance, shuffle: bool = False):
    from gamecert.engine.certification import build_candidate, options
    from gamecert.engine.run.sandbox import open_runner

    entry = registry.get(game)
    opts = options(entry)
    candidate = build_candidate(opts, str(ROOT / path))
    opener = lambda: open_runner(candidate, opts.limits)  # noqa: E731
    runner = opener()
    try:
        failure = _failure(entry, runner, entry.game.format_input(instance))
    finally:
        runner.close()
    return entry, diagnose(
        entry, failure, opener, 900.0, jobs=2, seed=7, runs=LONG_RUNS, shuffle_features=shuffle
    )


@pytest.mark.long
def test_the_wrong_programs_classes_are_found():
    """For each program with a ``# class:`` header, the diagnosis (by counts, in the sandbox)
    states a class at 95% precision on its fresh inputs that agrees with the header's on 95% of
    fresh inputs each way (both / header, both / stated); at least 8 of the 10 must. Prints each
    program's rule, precision and recall on the diagnosis's fresh inputs, and the agreement."""
    matched, lines = 0, []
    for path, game, instance in KNOWN:
        header = _header(path)
        entry, found = _sandboxed(path, game, instance)
        if found.status != "class":
            lines.append(f"{path}: no class ({found.why}); header {header.text()}")
            continue
        both, truth, said = _fresh_agreement(entry, instance, parse_rule(found.rule), header)
        ok = truth >= 30 and both / truth >= 0.95 and both / said >= 0.95
        matched += ok
        lines.append(
            f"{path}: {'MATCH' if ok else 'differs'}: stated {found.rule} (precision {found.precision:.1%} "
            f"{found.satisfying_failed}/{found.satisfying}, recall {found.recall:.1%}); header {header.text()}; "
            f"agree {both}/{truth} of the header's, {both}/{said} of the stated"
        )
    print("\n".join(lines))
    assert matched >= 8, "\n".join(lines)


@pytest.mark.long
def test_the_control_with_shuffled_features_states_no_class():
    """The same diagnosis with every input's features another's (shuffled for the learner, drawn
    at random when the fresh inputs are sorted by the rule) states no class at 95% precision, for
    three programs whose class the real diagnosis finds."""
    said = []
    for path, game, instance in (KNOWN[3], KNOWN[7], KNOWN[6]):
        _, found = _sandboxed(path, game, instance, shuffle=True)
        said.append(f"{path}: {found.status}: {found.line()}")
        assert found.status != "class", said[-1]
    print("\n".join(said))


#: tests/wrong_classes: program, game, a failing input. Nine of the twelve classes are not a
#: value the features name literally (a residue, a bit length's parity, a power of two, a run
#: length's parity, a parity of counts); four languages, five games
CLASSES = [
    ("tests/wrong_classes/dk_heap_mod12.py", "dawson_kayles", (6,)),
    ("tests/wrong_classes/dk_bits7_odd.cpp", "dawson_kayles", (70,)),
    ("tests/wrong_classes/dk_pow2.js", "dawson_kayles", (3, 4)),
    ("tests/wrong_classes/stones_mod5.c", "stones_once", (8,)),
    ("tests/wrong_classes/stones_five_piles.py", "stones_once", (1, 2, 3, 4, 5)),
    ("tests/wrong_classes/word_odd_letters.js", "word_game", "ABC"),
    ("tests/wrong_classes/word_letter_q.py", "word_game", "QAB"),
    ("tests/wrong_classes/cut_even_run.py", "string_cut", "abab"),
    ("tests/wrong_classes/cut_len_mod4.py", "string_cut", "abc"),
    ("tests/wrong_classes/cut_runs_odd.py", "string_cut", "aba"),
    ("tests/wrong_classes/digit_seven.py", "digit_game", ("7",)),
    ("tests/wrong_classes/digit_even_len.py", "digit_game", ("12",)),
]


def _matches(path: str, game: str, instance) -> tuple[bool, str]:
    header = _header(path)
    entry, found = _sandboxed(path, game, instance)
    if found.status != "class":
        return False, f"{path}: no class ({found.why}); header {header.text()}"
    both, truth, said = _fresh_agreement(entry, instance, parse_rule(found.rule), header)
    ok = truth >= 30 and both / truth >= 0.95 and both / said >= 0.95
    return ok, (
        f"{path}: {'MATCH' if ok else 'differs'}: stated {found.rule} ({found.words}; precision "
        f"{found.precision:.1%} {found.satisfying_failed}/{found.satisfying}, recall {found.recall:.1%}, "
        f"{found.runs} runs); header {header.text()}; agree {both}/{truth} of the header's, {both}/{said} of the stated"
    )


@pytest.mark.long
def test_classes_that_are_no_literal_value_are_found():
    """tests/wrong_classes (four languages, five games, most classes a residue, a bit length's
    parity or a run length's parity): the stated class matches the header's on fresh inputs
    (95% each way) for at least 8 in 10 of them, with its precision and recall on the
    diagnosis's own fresh inputs printed."""
    results = [_matches(*c) for c in CLASSES]
    lines = [line for _, line in results]
    print("\n".join(lines))
    assert sum(ok for ok, _ in results) >= 0.8 * len(CLASSES), "\n".join(lines)


@pytest.mark.long
def test_shuffled_labels_state_no_class_for_the_classes_programs():
    """The control for the test above: the same diagnosis with every input's features another's
    states no class for any of four of its programs (a residue, a bit length's parity, a run
    length's parity, a parity of counts)."""
    said = []
    for path, game, instance in (CLASSES[0], CLASSES[1], CLASSES[5], CLASSES[7]):
        _, found = _sandboxed(path, game, instance, shuffle=True)
        said.append(f"{path}: {found.status}: {found.line()}")
    print("\n".join(said))
    assert not any(": class:" in s for s in said), "\n".join(said)


def test_a_rule_with_no_test_is_said_as_every_input_failing() -> None:
    """A program that fails on every input tried gets the rule with no test ("true"): the line says
    every input tried failed, not "fails whenever always ... 0 of 0 others"; a real rule keeps its
    words and figures (the control)."""
    from gamecert.engine.judge.diagnose import Diagnosis

    every = Diagnosis("class", rule="true", words="always", satisfying=45, satisfying_failed=45)
    assert (
        every.line().startswith("fails on every input tried: 45 of 45")
        and "whenever" not in every.line()
    )
    rule = Diagnosis(
        "class",
        rule="games >= 64",
        words="games >= 64",
        satisfying=9,
        satisfying_failed=9,
        others=12,
    )
    assert rule.line() == "fails whenever games >= 64: 9 of 9 such inputs failed, 0 of 12 others"


def _dk_wrong_when(cond):
    from gamecert.kit.octal.game import OctalAnswer

    entry = registry.get("dawson_kayles")
    game = entry.game

    def solver(heaps):
        right = game.oracle(heaps)
        if not cond(heaps):
            return right
        return OctalAnswer("Second") if right.winner == "First" else OctalAnswer("First", (1, 0, 0))

    return entry, solver


def _probe(cond) -> str:
    """The disguise probe of the rule ``count[6] >= 1`` (some heap is 6) on a dawson_kayles
    solver wrong where ``cond`` holds, from the failing heaps (6,) and (6, 3)."""
    import time

    from gamecert.engine.judge.diagnose import _disguise
    from gamecert.engine.judge.labeller import Labeller

    entry, solver = _dk_wrong_when(cond)
    game = entry.game
    st = structure_of(game, (6,))
    labeller = Labeller(entry, [SolverRunner(entry, "planted", solver)], {}, time.monotonic() + 60)
    mutator = Mutator(game, st, random.Random(1), list(range(1, 200)), [], 10**6)
    mutator.numeric = True
    ran = []
    why = _disguise(
        mutator,
        parse_rule("count[6] >= 1"),
        [(6,), (6, 3)],
        random.Random(2),
        labeller,
        game,
        time.monotonic() + 60,
        ran.extend,
    )
    assert len(ran) >= 5, "the probes ran on the candidate and teach the next round"
    return why


def test_a_rule_naming_the_shrunk_value_is_tried_on_its_relatives():
    """Issue 45: `fails whenever some number is 6` stated for a program wrong on n % 12 == 6. The
    probe runs failing inputs with 6 replaced by values of its classes (18, 30, ... and others
    sharing a residue or its bit length): for the program wrong on every heap 6 mod 12 enough of
    them fail that the rule is called the shrunk input in disguise; for a program wrong on the
    heap 6 alone (the control) none fails and the rule stands."""
    why = _probe(lambda heaps: any(h % 12 == 6 for h in heaps))
    assert "the shrunk input in disguise" in why and "`count[6] >= 1`" in why, why
    assert _probe(lambda heaps: 6 in heaps) == ""


def test_the_diagnosis_makes_its_inputs_within_its_time() -> None:
    """The diagnosis's inputs are made within its time whatever their size (a mutation of a
    million piles takes a second: 60 of them took a 60 s certification past its budget): the
    one being made when the time passes is the last. Control: with time left, all are made."""
    import time

    from gamecert.engine.judge.diagnose import _within

    made: list[int] = []

    def slow(n: int):
        for i in range(n):
            time.sleep(0.05)
            made.append(i)
            yield i

    assert list(_within(slow(100), time.monotonic() + 0.2)) == made and len(made) < 10
    made.clear()
    assert list(_within(slow(5), time.monotonic() + 30.0)) == [0, 1, 2, 3, 4]


def test_value_classes_are_counted_once_per_value() -> None:
    """A million piles of few values: each value's classes are counted with its multiplicity,
    the same counts as part by part (the control, computed here part by part)."""
    from collections import Counter

    from gamecert.engine import registry
    from gamecert.kit.features import features_of, value_classes

    game = registry.get("stones_once").game
    piles = [1] * 5000 + [7] * 300 + [60]
    instance = game.parse_input(f"{len(piles)}\n" + "\n".join(map(str, piles)) + "\n")
    counts = features_of(game, instance)
    by_part: Counter[str] = Counter()
    for v in piles:
        by_part.update(value_classes(v))
    assert all(counts[name] == n for name, n in by_part.items()), by_part


def test_a_row_is_worked_out_per_distinct_part_as_part_by_part() -> None:
    """A fault's row of 987,654 piles took 7.7 s of a 6 s diagnosis (a label, a value and a class
    per pile); each distinct part's are worked out once now. The counts that follow the parts'
    order (side by side, runs of equal parts) and the class xor are those of a walk part by part
    (the control, here), for every game's drawn inputs and a run-heavy one."""
    from collections import Counter

    from gamecert.engine import registry
    from gamecert.engine.plan.draws import draw_examples
    from gamecert.kit.features import _label, features_of
    from gamecert.kit.shrink import structure_of

    def walked(game, instance):
        structure = structure_of(game, instance)
        singles = game.split(instance) if game.max_batch > 1 else (instance,)
        out: Counter[str] = Counter()
        xors = []
        for single in singles:
            labels = [_label(game, structure, p) for p in structure.parts(single)]
            for a, b in zip(labels, labels[1:]):
                if a == b:
                    out[f"adjacent[{a}]"] += 1
            run = 1
            for k in range(1, len(labels) + 1):
                if k < len(labels) and labels[k] == labels[k - 1]:
                    run += 1
                    continue
                if run >= 2:
                    out[f"eqrun[{run}]"] += 1
                run = 1
            out.update(f"count[{label}]" for label in labels)
            if structure.value_class is not None:
                total = 0
                for p in structure.parts(single):
                    total ^= structure.value_class(p)
                xors.append(total)
        return out, xors

    checked = 0
    for name in ("stones_once", "string_cut", "word_game", "digit_game", "dawson_kayles"):
        entry = registry.get(name)
        game = entry.game
        drawn = list(draw_examples(entry.instances(), 25, 7))
        if name == "string_cut":
            drawn.append(game.parse_input("aaabbbbaaaaaab\n"))
        for instance in drawn:
            row = features_of(game, instance)
            out, xors = walked(game, instance)
            assert all(row.get(k) == n for k, n in out.items()), (name, instance)
            own = [k for k in row if re.fullmatch(r"adjacent\[[^\]]+\]|eqrun\[\d+\]", k)]
            assert all(k in out for k in own), (name, instance)
            if game.max_batch == 1 and "xor_class" in row:
                assert row["xor_class"] == xors[0], (name, instance)
            checked += 1
    assert checked >= 100


def _best_single_tests(rows, labels):
    """Each feature's best single test by brute force (every value, every operator, on every
    row, absent features read as 0): the failing and passing rows it holds for, by FOIL's gain."""
    import math

    fails, passes = sum(labels), len(labels) - sum(labels)

    def gain(p, n):
        return p * (math.log2((p + 1) / (p + n + 2)) - math.log2((fails + 1) / (len(rows) + 2)))

    best = {}
    for name in {name for row in rows for name in row}:
        column = [row.get(name, 0) for row in rows]
        for v in {c for c, y in zip(column, labels) if y}:
            tests = (lambda c, v=v: c >= v, lambda c, v=v: c <= v, lambda c, v=v: c == v)
            for holds in tests:
                p = sum(1 for c, y in zip(column, labels) if y and holds(c))
                n = sum(1 for c, y in zip(column, labels) if not y and holds(c))
                if n == passes or gain(p, n) <= 0:
                    continue
                key = (round(gain(p, n), 9), n, p)
                best[name] = max(best.get(name, key), key)
    return best


def test_the_learner_counts_sparse_rows_as_dense_ones_and_stops_at_its_time() -> None:
    """A diagnosis of variance_float.c took 15 s of its 9 (a 60 s certification ended at 112 s):
    near-constant inputs name thousands of per-value features, and each test was counted over
    every row of every feature. Rows are now read sparse (a feature's nonzero rows only); the
    best test of each feature is the one a brute force over every row and value finds. And the
    learner stops growing its rule at its time: past it, one test (the best); the differences
    look at no feature past theirs. Control: with time, the rule is grown to its full length."""
    import time

    from gamecert.engine.judge.learn import differences

    rng = random.Random(11)
    for _ in range(20):
        names = [f"mult[{k}]" for k in range(30)] + ["size", "parts", "xor"]
        rows = [
            {
                name: rng.choice([1, 2, 3, rng.randint(4, 40)])
                for name in names
                if rng.random() < 0.2
            }
            for _ in range(rng.randint(20, 120))
        ]
        labels = [rng.random() < 0.3 for _ in rows]
        if not any(labels) or all(labels):
            continue
        brute = _best_single_tests(rows, labels)
        for d in differences(rows, labels, top=1000):
            name = parse_rule(d["test"]).tests[0].name
            assert (d["failing"], d["passing"]) == brute[name][2:0:-1], d
        assert len(differences(rows, labels, top=1000)) == len(brute)
    # a planted conjunction of three tests, learned whole with time, one test without
    rows = [
        {"a": rng.randint(0, 3), "b": rng.randint(0, 3), "c": rng.randint(0, 3)} for _ in range(400)
    ]
    labels = [r["a"] == 2 and r["b"] >= 2 and r["c"] <= 1 for r in rows]
    grown = learn(rows, labels)
    assert grown is not None and len(grown.tests) == 3
    cut = learn(rows, labels, until=time.monotonic() - 1.0)
    assert cut is not None and len(cut.tests) == 1
    assert differences(rows, labels, until=time.monotonic() - 1.0) == []
