"""The engine end to end: a plan by time budget, runners in parallel, faults confirmed and
labelled honestly, reproducible random inputs.

Every test drives ``gamecert certify`` as a user would, on programs in
``tests/candidates_engine/`` (an expensive one, a nondeterministic one, one wrong at a single
size), except the seed test, which draws examples in fresh interpreters.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MINE = ROOT / "tests" / "candidates_engine"


def certify(
    tmp_path: Path,
    game: str,
    program: Path,
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 180,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    full_env = dict(os.environ, **(env or {}))
    full_env.pop("GAMECERT_EXHAUSTIVE_RUNS", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            game,
            str(program),
            "--report-dir",
            str(tmp_path / "reports"),
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=full_env,
        timeout=timeout,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    return proc, Path(last)


def test_an_expensive_program_gets_its_verdict_near_the_budget(tmp_path):
    """0.3 s of CPU a run, a 4 s budget: the run ends within about twice the budget, and the
    certificate says which phases the budget cut short instead of claiming them."""
    proc, path = certify(
        tmp_path, "word_game", MINE / "expensive.py", "--budget", "4", "--jobs", "2", "--seed", "3"
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    cert = json.loads((path / "certificate.json").read_text())
    assert cert["elapsed_s"] < 3 * 4 + 2, cert["elapsed_s"]  # generous: the machine may be loaded
    assert "exhaustive" in cert["cut_phases"]
    assert all(not space["complete"] for space in cert["exhaustive"])
    # nothing found, but not CERTIFIED: the sentence says what was left out
    assert "PASSED (incomplete)" in proc.stdout.splitlines()[-2] and "CERTIFIED" not in proc.stdout
    assert cert["verdict"] == "PASSED (incomplete)" and cert["incomplete"].startswith("left out: ")
    assert "exhaustive (" in cert["incomplete"]


def test_a_nondeterministic_program_is_not_certified(tmp_path):
    """A program wrong on every other run: the fault is re-run as a judge runs it, reported as
    nondeterministic with the count of failing runs, and the certification fails. (It counts its
    runs in a file beside itself, which only a program that is not contained can write.)"""
    program = tmp_path / "flaky.py"
    shutil.copyfile(MINE / "flaky.py", program)
    proc, path = certify(
        tmp_path,
        "word_game",
        program,
        "--budget",
        "20",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--no-contain",
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((path / "report.json").read_text())
    assert report["verdict"] == "WA"
    notes = " ".join(report["notes"])
    assert "nondeterministic: the input failed in 2 of 4 runs" in notes, notes
    assert (
        "re-run 3 times in plain `python FILE` processes, as a judge runs the program: failed 1 of 3"
        in notes
    )
    assert "(nondeterministic)" in proc.stdout


def test_a_fault_is_called_minimal_only_when_every_smaller_input_ran(tmp_path):
    """Wrong only on 5-letter words with a letter 4 times: the report holds such a word and calls
    it minimal within exactly the spaces whose smaller inputs all ran. Only the exhaustive phase
    runs (samples always do): the claim is about the sweep below the fault, and a run of every
    phase spends its whole budget (30 s) on families that cannot change it."""
    proc, path = certify(
        tmp_path,
        "word_game",
        MINE / "wrong_at_size_5.py",
        "--budget",
        "30",
        "--seed",
        "2",
        "--phases",
        "exhaustive",
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((path / "report.json").read_text())
    word = report["input"].strip()
    assert len(word) == 5 and max(word.count(c) for c in word) == 4
    swept = {
        s
        for s in ("letter-count multisets", "short-words")
        if s in report["minimality"].split(":")[0]
    }
    assert swept, report["minimality"]
    # short words stop at 3 letters: the claim must not name them for a 5-letter input
    assert "short-words" not in swept
    assert "minimal in size within letter-count multisets" in report["minimality"]


def test_minimality_says_what_a_partial_sweep_showed(monkeypatch):
    """A fault at size 53 with spaces swept to sizes 9 and 13: not called minimal, but the
    report says which smaller inputs all passed; a space swept past the fault's size makes it
    minimal within that space (control)."""
    from types import SimpleNamespace

    from gamecert.engine.judge import evidence
    from gamecert.engine.report.reports import SpaceEvidence

    spaces = [
        SpaceEvidence("abc-strings", "", 9, 29_523, False),
        SpaceEvidence("ab-strings", "", 13, 16_382, False),
    ]
    monkeypatch.setattr(evidence, "space_evidence", lambda outcome: spaces)
    outcome = SimpleNamespace(
        plan=SimpleNamespace(spaces=[("abc-strings", None, [1]), ("ab-strings", None, [1])])
    )
    text = evidence.minimality_of(outcome, 53, (51, True))
    assert text.startswith("locally minimal: no smaller input among 51 structural reductions"), text
    assert (
        "no smaller failing input among every input of abc-strings up to size 9 (29,523 inputs), "
        "every input of ab-strings up to size 13 (16,382 inputs)"
    ) in text, text
    assert "minimal in size" not in text
    text = evidence.minimality_of(outcome, 10, (3, True))
    assert text.startswith(
        "minimal in size within abc-strings, ab-strings: every input of size < 10"
    ), text
    assert "no smaller failing input among" not in text


def test_minimality_names_what_a_space_of_one_input_per_class_leaves_out(monkeypatch):
    """A space that lists one input of each class the game plays alike (stones_once's pile
    multisets: one order of each multiset) shows a fault minimal only within it: the words say
    what it lists, brief and long; a space that lists every input of its sizes, swept below the
    fault, shows it the smallest of all inputs; swept only part of the way, it claims nothing of
    the sort (control)."""
    from types import SimpleNamespace

    from gamecert.engine.judge import evidence
    from gamecert.engine.report.reports import SpaceEvidence

    spaces = [
        SpaceEvidence("pile multisets", "", 30, 28_629, True),
        SpaceEvidence("pile sequences", "", 12, 4_095, True),
    ]
    monkeypatch.setattr(evidence, "space_evidence", lambda outcome: spaces)
    outcome = SimpleNamespace(
        plan=SimpleNamespace(
            spaces=[("pile multisets", "", [1]), ("pile sequences", "", [1])],
            one_of_each=(("pile multisets", "multiset of piles (largest pile first)"),),
            every_input=("pile sequences",),
        )
    )
    brief = evidence.minimality_of(outcome, 28, (9, True), brief=True)
    assert brief.startswith("smallest in size within the 1 family swept below it:"), brief
    assert "pile multisets lists one input of each multiset of piles (largest pile first)" in brief
    long = evidence.minimality_of(outcome, 28, (9, True))
    assert "pile multisets lists one input of each multiset of piles" in long, long
    assert "every input of pile sequences up to size 12" in long, long  # swept part of the way
    # below 13, the space of every input reaches: the claim is over all inputs
    brief = evidence.minimality_of(outcome, 13, (9, False), brief=True)
    assert brief == (
        "smallest in size: every input of size < 13 ran and passed (pile sequences lists every "
        "input of its sizes)"
    ), brief
    long = evidence.minimality_of(outcome, 13, (9, False))
    assert long.startswith("minimal in size: every input of size < 13 ran"), long
    assert "may exist" not in long and "lists one input of each" not in long
    # control: without the classes said, the words are the plain ones
    outcome.plan.one_of_each, outcome.plan.every_input = (), ()
    brief = evidence.minimality_of(outcome, 28, (9, True), brief=True)
    assert brief.startswith("smallest in size: no input of size < 28 fails in the 1 family"), brief


def test_parallel_runners_report_the_same_counterexample(tmp_path):
    """--jobs 1 and --jobs 2 on the same seed find the same smallest input. The exhaustive phase
    alone (samples always run): its chunks are spread over the runners and the fault's sweep
    and shrink happen there; the other phases would only spend the 30 s budget twice."""
    one, path1 = certify(
        tmp_path / "a",
        "word_game",
        MINE / "wrong_at_size_5.py",
        "--budget",
        "30",
        "--seed",
        "4",
        "--jobs",
        "1",
        "--phases",
        "exhaustive",
    )
    two, path2 = certify(
        tmp_path / "b",
        "word_game",
        MINE / "wrong_at_size_5.py",
        "--budget",
        "30",
        "--seed",
        "4",
        "--jobs",
        "2",
        "--phases",
        "exhaustive",
    )
    assert one.returncode == two.returncode == 1
    first = json.loads((path1 / "report.json").read_text())
    second = json.loads((path2 / "report.json").read_text())
    assert first["input"] == second["input"] and first["verdict"] == second["verdict"]


_DRAW = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    if sys.argv[2] == "extra":
        import constants_galore  # a local module full of constants Hypothesis would mix in
    from gamecert.engine import registry
    from gamecert.engine.plan import draws, plan
    if sys.argv[3] == "unguarded":
        import contextlib
        draws._without_local_constants = contextlib.nullcontext
    for game in ("word_game", "string_cut", "digit_game", "stones_once"):
        strategy = registry.get(game).strategies.instances()
        print(game, repr(plan.draw_examples(strategy, 100, 12345)))
""")


def test_the_same_seed_gives_the_same_inputs_whatever_else_is_loaded(tmp_path):
    """Hypothesis mixes constants from loaded local modules into its choices; the engine's draws
    hold them out, so an unrelated module changes nothing (and, as a control, it does without)."""
    rng = random.Random(1)
    upper = [
        "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(3, 30)))
        for _ in range(200)
    ]
    lower = ["".join(rng.choice("abc") for _ in range(rng.randint(3, 30))) for _ in range(200)]
    numbers = [rng.randint(1000, 10**6) for _ in range(100)]
    (tmp_path / "constants_galore.py").write_text(
        f"UPPER = {upper!r}\nLOWER = {lower!r}\nNUMBERS = {numbers!r}\n"
    )

    def draw(extra: str, guard: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-c", _DRAW, str(tmp_path), extra, guard],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    assert draw("plain", "guarded") == draw("extra", "guarded")
    assert draw("plain", "unguarded") != draw("extra", "unguarded")


def _two_solver_entry(name, wrong_at=None):
    """A game beyond any oracle's reach with a cheap solver (wrong at ``wrong_at``) and a dear one."""
    from types import SimpleNamespace

    def cheap(x):
        return -x if x == wrong_at else x

    def dear(x):
        time.sleep(0.002)
        return x

    game = SimpleNamespace(
        name=name,
        oracle_reach=0,
        size=lambda x: 1,
        format_input=lambda x: f"{x}\n",
        format_answer=lambda a: f"{a}\n",
        judge=lambda i, got, exp: None if got == exp else "differs",
    )
    return SimpleNamespace(game=game, solvers={"cheap": cheap, "dear": dear})


def test_expected_answers_come_from_the_cheapest_solver_with_sampled_cross_checks():
    """After a few timed full checks the cheapest solver answers alone, except one input in
    CROSS_CHECK_EVERY, which every solver answers; ``every`` forces a full check."""
    from gamecert.engine.judge import judge

    entry = _two_solver_entry(f"sampled-{uuid.uuid4().hex}")
    sources = [
        judge.expected_answer(entry, k)[1] for k in range(1, 1 + 10 * judge.CROSS_CHECK_EVERY)
    ]
    full = [s for s in sources if s.endswith("(all agree)")]
    assert sources[0].endswith("(all agree)") and "the fast solver cheap" in sources[-2]
    assert judge._TIMED_CALLS <= len(full) <= judge._TIMED_CALLS + 10, len(full)
    assert judge.expected_answer(entry, 5, every=True)[1].endswith("(all agree)")


def test_a_failure_against_one_solver_is_rechecked_by_all(monkeypatch):
    """A right candidate judged against a cheap solver that is wrong on one input: the verdict is
    not WA but a harness error naming the disagreement, because every solver answers an input a
    candidate fails before the verdict stands. Control: on another input it passes."""
    from dataclasses import replace

    from gamecert.engine import registry
    from gamecert.engine.judge import judge
    from gamecert.engine.run.sandbox import RunResult

    real = registry.get("string_cut")
    bad = "ab" * 60 + "a"  # beyond the oracle's reach

    def periodic_wrong_once(s):
        answer = real.solvers["periodic_table"](s)
        return ("Second",) if s == bad and answer != ("Second",) else answer

    entry = replace(
        real,
        solvers={
            "periodic_table": periodic_wrong_once,
            "quadratic_dp": real.solvers["quadratic_dp"],
        },
    )
    assert real.game.size(bad) > real.game.oracle_reach and periodic_wrong_once(
        bad
    ) != real.solvers["quadratic_dp"](bad)
    # timed already, the periodic table the cheaper: it answers alone (the counter is not at a sample)
    monkeypatch.setitem(
        judge._SOLVER_COSTS,
        "string_cut",
        [1, {"periodic_table": [0.001, 10], "quadratic_dp": [1.0, 10]}],
    )

    class RightCandidate:
        def run(self, text):
            answer = real.game.format_answer(
                real.solvers["quadratic_dp"](real.game.parse_input(text))
            )
            return RunResult("ok", answer, "", 0, None, 0.0, 0.0, 1.0)

    checker = judge.Judge(entry, RightCandidate())
    assert checker.run_one("abcab" * 30, "random") is None  # control
    assert "the fast solver periodic_table" in checker.expected(bad)[1]  # judged against one solver
    with pytest.raises(judge.HarnessError, match="disagree"):
        checker.run_one(bad, "random")


def test_a_solver_too_slow_at_a_size_is_left_out_of_sampled_cross_checks(monkeypatch):
    """A solver that took over SLOW_SOLVER_S on an input is not asked again, in the sampled
    cross-checks, on inputs that large (it would hold every runner); the others answer, and the
    source says who was left out. Smaller inputs and a failing input (``every``) still ask it."""
    from types import SimpleNamespace

    from gamecert.engine.judge import expected, judge

    calls = []

    def quick(x):
        return x

    def slow(x):
        calls.append(x)
        if x >= 100:
            time.sleep(0.05)
        return x

    monkeypatch.setattr(expected, "SLOW_SOLVER_S", 0.02)  # where expected_answer reads it
    game = SimpleNamespace(
        name=f"slow-{uuid.uuid4().hex}",
        oracle_reach=0,
        size=lambda x: x,
        format_input=lambda x: f"{x}\n",
        format_answer=lambda a: f"{a}\n",
        judge=lambda i, got, exp: None if got == exp else "differs",
    )
    entry = SimpleNamespace(game=game, solvers={"quick": quick, "slow": slow})
    assert judge.expected_answer(entry, 100)[1].endswith("(all agree)") and calls == [100]
    source = judge.expected_answer(entry, 150)[1]
    assert "slow left out at this size" in source and calls == [100]  # not asked at 150
    assert judge.expected_answer(entry, 50)[1].endswith("(all agree)") and calls == [100, 50]
    assert (
        judge.expected_answer(entry, 200, every=True)[1].endswith("(all agree)")
        and calls[-1] == 200
    )
    assert judge.judged_kind(source) == "one fast solver"
