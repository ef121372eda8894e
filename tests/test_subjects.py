"""A registered solver is a subject like a program: in-process runs judged, reported and replayed
by the same code (``gamecert.engine.run.subjects``, ``gamecert.commands.certify_all``)."""

from __future__ import annotations

import json
from dataclasses import replace

from gamecert.commands import cli
from gamecert.engine import registry
from gamecert.engine.judge.judge import Judge
from gamecert.engine.plan.profiles import get_profile
from gamecert.engine.run.subjects import SolverRunner
from gamecert.engine.solvers import certify_solver
from gamecert.verdict import Verdict
from tests.broken.string_cut import gives_up_on_long_input
from tests.broken.word_game import multiples_of_three_lose


def test_a_solver_that_raises_is_re_with_the_exceptions_last_line():
    entry = registry.get("word_game")

    def crashes(word):
        raise KeyError("no such letter")

    with SolverRunner(entry, "crashes", crashes) as runner:
        found = Judge(entry, runner).run_one(entry.game.parse_input("AB\n"), "samples")
    assert found.verdict is Verdict.RE
    assert found.result.stderr_tail == "KeyError: 'no such letter'"
    assert "the solver raised KeyError" in found.reason


def test_an_answer_that_cannot_be_written_is_a_fault_not_a_crash():
    entry = registry.get("word_game")
    with SolverRunner(entry, "odd", lambda word: object()) as runner:
        result = runner.run("AB\n")
    assert result.status == "re" and "cannot be written as an answer" in result.detail


def test_a_registered_solver_is_never_its_own_reference():
    """Registered under a name of its own, a solver wrong only beyond the oracle's reach (over
    3000 letters; the oracle stops at 120) is judged against the game's other solver and caught;
    as its own reference it would pass."""
    entry = registry.get("string_cut")
    patched = replace(
        entry,
        solvers={"quadratic_dp": entry.solvers["quadratic_dp"], "gives_up": gives_up_on_long_input},
    )
    outcome = certify_solver(patched, "gives_up", gives_up_on_long_input, get_profile("quick"), 1)
    assert outcome.failure is not None and outcome.failure.verdict is Verdict.WA
    assert "quadratic_dp" in outcome.failure.expected_source
    assert "gives_up" not in outcome.failure.expected_source


def test_certify_all_reports_a_failing_solver_and_replay_reruns_it(tmp_path, monkeypatch, capsys):
    """`gamecert certify GAME` with a broken solver registered: a row marked WA, the failure
    lines and a report written by the same code as for a program, which `gamecert replay` runs
    again in-process (exit 1: the fault shows again)."""
    entry = registry.get("word_game")
    patched = replace(entry, solvers={**entry.solvers, "thirds": multiples_of_three_lose})
    monkeypatch.setattr(registry, "resolve", lambda selector: [patched])
    monkeypatch.setattr(registry, "get", lambda name: patched)
    code = cli.main(
        ["certify", "word_game", "--profile", "quick", "--seed", "3", "--report-dir", str(tmp_path)]
    )
    out = capsys.readouterr().out
    assert code == 1, out
    assert "thirds" in out and "WA" in out and "1 failed" in out
    reports = list((tmp_path / "word_game").iterdir())
    assert len(reports) == 1 and reports[0].name.startswith("thirds-")
    data = json.loads((reports[0] / "report.json").read_text())
    assert data["candidate_spec"] == "solver:thirds" and data["verdict"] == "WA"
    assert data["input"] == "AAA\n"  # the smallest input with a letter three times
    assert data["minimality"].startswith("minimal in size")
    assert any("in-process" in note for note in data["notes"])
    assert cli.main(["replay", str(reports[0])]) == 1
    assert "verdict:  WA" in capsys.readouterr().out


def test_one_registered_solver_through_the_candidate_route(tmp_path, capsys):
    """`gamecert certify GAME solver:NAME`: the budgeted route, a certificate, no limits claimed."""
    code = cli.main(
        [
            "certify",
            "dawson_kayles",
            "solver:mex_dp",
            "--profile",
            "quick",
            "--budget",
            "3",
            "--seed",
            "1",
            "--report-dir",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "in-process, no time or memory limit" in out.splitlines()[0]
    cert = json.loads(next((tmp_path / "dawson_kayles").glob("*/certificate.json")).read_text())
    assert cert["candidate_spec"] == "solver:mex_dp" and cert["samples"] > 0


def test_an_unknown_registered_solver_is_a_usage_error(capsys):
    assert cli.main(["certify", "word_game", "solver:nope"]) == 2
    err = capsys.readouterr().err
    assert "no registered solver 'nope'" in err and "solver:closed_form" in err


def test_the_oracle_answers_computed_once_are_the_oracles_and_still_catch_a_broken_solver():
    """``certify GAME|all`` lists a game's solver plan once (``listed_plan``) and computes the
    oracle's answers on its inputs once for all of its solvers (``plan_answers``, split over
    processes by ``part``): every answer is the oracle's own on that input, the parts cover every
    chunk of the plan, the listed plan holds the same chunks as a plan built afresh, and a broken
    solver judged with them fails on the very input it fails on without them."""
    from gamecert.engine import solver_batch, solvers

    entry = registry.get("word_game")
    game = entry.game
    profile = get_profile("quick")
    key = ("word_game", "quick", 1, None)
    fresh = solvers.solver_plan(entry, profile, 1)
    solvers._PLANS[key] = listed = solvers.listed_plan(solvers.solver_plan(entry, profile, 1))
    try:

        def chunks_of(plan):
            return [(c.key, c.texts) for p in plan.phases for g in p.groups() for c in g.chunks]

        assert chunks_of(listed) == chunks_of(fresh)
        halves = [solvers.plan_answers("word_game", key, part, 2) for part in (0, 1)]
        assert halves[0][1] and halves[1][1] and not set(halves[0][1]) & set(halves[1][1])
        solver_batch._merge(key, halves)
        known, wanted = solvers._KNOWN["word_game"], solvers._WANTED["word_game"]
        assert set(wanted) == {k for k, _ in chunks_of(listed)}
        for text, (answer, source) in list(known.items())[::97]:
            assert source == "the oracle" and answer == game.oracle(game.parse_input(text)), text
        for chunk in [c for p in listed.phases for g in p.groups() for c in g.chunks][::7]:
            texts, expected, _games = wanted[chunk.key]
            assert texts is chunk.texts
            for text, want in zip(chunk.texts, expected):
                instance = game.parse_input(text)
                if game.size(instance) <= game.oracle_reach:
                    assert want == game.format_answer(game.oracle(instance)), text
        alone = certify_solver(entry, "thirds", multiples_of_three_lose, profile, 1)
        shared = certify_solver(
            entry,
            "thirds",
            multiples_of_three_lose,
            profile,
            1,
            known=known,
            plan=listed,
            wanted=wanted,
        )
        assert alone.failure is not None and shared.failure is not None
        assert (shared.failure.verdict, shared.failure.input_text) == (
            alone.failure.verdict,
            alone.failure.input_text,
        )
    finally:
        solvers._PLANS.clear()
        solvers._KNOWN.clear()
        solvers._WANTED.clear()


def test_a_broken_solver_is_caught_with_the_answers_computed_once_in_certify_all(tmp_path):
    """The scheduler of ``certify GAME`` with two runners at once (plans and answers shared
    through forked processes): a broken solver registered beside the right ones fails, on the
    input it fails on when certified alone, and the right ones pass."""
    from gamecert.engine import solver_batch

    entry = registry.get("word_game")
    broken = replace(entry, solvers={**entry.solvers, "thirds": multiples_of_three_lose})
    alone = certify_solver(entry, "thirds", multiples_of_three_lose, get_profile("quick"), 1)
    original = registry.get
    try:
        registry.get = lambda name, *a, **k: (
            broken if name == "word_game" else original(name, *a, **k)
        )
        tasks = solver_batch.solver_tasks([broken], "quick", 1, None, str(tmp_path))
        batch = solver_batch.certify_solvers(tasks, 2)
    finally:
        registry.get = original
    verdicts = {r.solver: r.verdict for r in batch.rows}
    passed = (
        "CERTIFIED",
        "PASSED (incomplete)",
    )  # a right solver's word: the evidence decides which
    assert verdicts["closed_form"] in passed and verdicts["count_table"] in passed, verdicts
    assert verdicts["thirds"] == alone.failure.verdict.value, verdicts
    report = next(tmp_path.glob("word_game/*/report.json"))
    assert json.loads(report.read_text())["input"] == alone.failure.input_text


def test_answers_that_take_too_long_are_dropped_not_waited_for(monkeypatch):
    """A game's code that hangs while the answers are computed once (a forked process has no
    game section guard) does not hang ``certify all``: past ``ANSWERS_MAX_S`` its process is
    stopped and the solvers run without the answers (their own runs then meet a hang and name
    it), and they still pass."""
    import time

    from gamecert.engine import solver_batch, solvers

    monkeypatch.setattr(solver_batch, "ANSWERS_MAX_S", 1.0)
    monkeypatch.setattr(solver_batch, "plan_answers", lambda *a: time.sleep(60) or ({}, {}))
    tasks = solver_batch.solver_tasks([registry.get("dawson_kayles")], "quick", 1, None, "reports")
    started = time.monotonic()
    batch = solver_batch.certify_solvers(tasks, 2)
    assert time.monotonic() - started < 30 and len(batch.rows) == 2
    assert all(r.verdict in ("CERTIFIED", "PASSED (incomplete)") for r in batch.rows), batch.rows
    assert solvers._KNOWN == {} and solvers._PLANS == {}


class _OneAtATime:
    """A solver's runner without the tight loop: the judge runs it one input at a time."""

    def __init__(self, runner):
        self.runner = runner
        self.persistent, self.rerun_where = runner.persistent, runner.rerun_where

    def run(self, text):
        return self.runner.run(text)


def _chunk_outcomes(entry, solver, chunk):
    from gamecert.engine.judge.judge import Stats

    seen = []
    for wrap in (lambda r: r, _OneAtATime):
        stats = Stats()
        with SolverRunner(entry, "s", solver) as runner:
            outcome = Judge(entry, wrap(runner), stats).run_chunk(chunk, shrink_seconds=5.0)
        seen.append((outcome, stats))
    return seen


def test_the_tight_loop_of_in_process_solvers_judges_as_one_input_at_a_time_does():
    """A chunk of digit_game inputs (a batch of several games among single ones) on a right
    solver, on a solver wrong on one game of the batch, and on one that raises there: the tight
    loop (``gamecert.engine.judge.inprocess``) finds the same fault at the same input, with the
    same runs, tests, verdict, reason and stats counts, as the judge's one-at-a-time path."""
    from gamecert.engine.plan.plan import Chunk

    entry = registry.get("digit_game")
    game, right = entry.game, entry.solvers["closed_form"]
    numbers = ["2", "3", "102", "2069", "11", "24", "1357", "86420", "9", "135792468"]
    singles = [game.parse_input(f"1\n{len(d)}\n{d}\n") for d in numbers]
    instances = singles[:4] + [game.merge(singles[4:7])] + singles[7:]
    texts = [game.format_input(i) for i in instances]
    chunk = Chunk(
        "coverage",
        "c-0",
        "c",
        tuple(instances),
        tuple(texts),
        sum(len(game.split(i)) for i in instances),
        None,
    )
    bad = "24"

    def wrong(games):
        return tuple(3 - a if d == bad else a for d, a in zip(games, right(games)))

    def raises(games):
        if bad in games:
            raise ValueError("no")
        return right(games)

    (ok_fast, s_fast), (ok_slow, s_slow) = _chunk_outcomes(entry, right, chunk)
    assert ok_fast.failure is None and ok_slow.failure is None and ok_fast.completed
    assert (
        (ok_fast.runs, ok_fast.tests)
        == (ok_slow.runs, ok_slow.tests)
        == (len(instances), len(numbers))
    )
    assert (s_fast.runs, s_fast.tests, s_fast.judged_by, s_fast.by_phase) == (
        s_slow.runs,
        s_slow.tests,
        s_slow.judged_by,
        s_slow.by_phase,
    )
    assert s_fast.slowest_cpu_s > 0 and s_fast.slowest_what
    for solver, verdict in ((wrong, Verdict.WA), (raises, Verdict.RE)):
        (fast, sf), (slow, ss) = _chunk_outcomes(entry, solver, chunk)
        assert fast.failure is not None and fast.failure.verdict is verdict, solver
        assert (fast.runs, fast.tests) == (slow.runs, slow.tests) == (5, 7)
        assert fast.failure.input_text == slow.failure.input_text
        assert bad in fast.failure.input_text
        assert fast.failure.reason == slow.failure.reason
        assert (sf.runs, sf.tests, sf.judged_by) == (ss.runs, ss.tests, ss.judged_by)
