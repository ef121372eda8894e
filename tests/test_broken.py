"""The harness is tested: every deliberately broken solver is caught, with a minimal input.

Each broken solver (``tests/broken/`` for the project's games; :func:`gamecert.engine.registry.broken_solvers`
finds them for games from a games folder or an entry point too) goes through :func:`gamecert.engine.solvers.certify_solver`,
the pipeline ``gamecert certify`` runs for every subject (plan, judge, evidence; the solver as an
in-process subject), under the profile of the run. Where the evidence calls the reported input
minimal in size within some exhaustive spaces, this test re-checks that claim independently
(every smaller input of those spaces is answered right); a bug only random search reaches must
be shrunk to the smallest size showing it. The control: every registered (correct) solver goes
through the same path and is not flagged.
"""

from __future__ import annotations

import pytest

from gamecert.engine import registry
from gamecert.engine.judge.evidence import build_report, space_evidence
from gamecert.engine.plan.crosscheck import compare, oracle_reference
from gamecert.engine.plan.profiles import get_profile
from gamecert.engine.run.limits import game_limits
from gamecert.engine.run.subjects import SolverSubject
from gamecert.engine.solvers import certify_solver
from gamecert.errors import GamecertError
from gamecert.kit.broken import ONE_OF_KINDS, REQUIRED_KINDS
from gamecert.verdict import Verdict

GAMES = tuple(registry.game_names())  # a new game without broken solvers fails here
SEED = 20261130


def _broken_cases():
    for game in GAMES:
        try:
            broken = registry.broken_solvers(game)
        except GamecertError:
            continue  # test_every_game_keeps_five_kinds_of_broken_solver names it
        for name in sorted(broken):
            yield pytest.param(game, name, broken[name], id=f"{game}-{name}")


def test_every_game_keeps_five_kinds_of_broken_solver():
    """At least five broken solvers per game, covering the kinds the harness must catch."""
    for game in GAMES:
        broken = registry.broken_solvers(
            game
        )  # missing or unfinished: a RegistryError naming the file
        assert len(broken) >= 5, game
        kinds = {b.kind for b in broken.values()}
        assert kinds >= REQUIRED_KINDS, (game, kinds)
        assert kinds & ONE_OF_KINDS, (game, kinds)


@pytest.mark.slow
@pytest.mark.parametrize(("game_name", "broken_name", "broken"), list(_broken_cases()))
def test_broken_solver_is_caught_with_a_minimal_input(
    game_name, broken_name, broken, gamecert_profile
):
    """The pipeline flags the broken solver, and what its report claims about minimality holds."""
    entry = registry.get(game_name)
    game = entry.game
    outcome = certify_solver(entry, broken_name, broken.solve, gamecert_profile, SEED)
    found = outcome.failure
    assert found is not None, (
        f"{game_name}/{broken_name} ({broken.what}) was not caught: {outcome.stats}"
    )
    assert found.verdict is not Verdict.OK and not outcome.interrupted
    # the report's text is the input the solver got, and the expected answer is the oracle's
    assert game.parse_input(found.input_text) == found.instance
    report = build_report(
        entry,
        SolverSubject(game_name, broken_name),
        found,
        outcome,
        game_limits(game, None, None),
        outcome.stats.tests,
    )
    assert report.input == found.input_text and report.verdict == found.verdict.value
    k = game.size(found.instance)
    swept = [
        ev.name for ev in space_evidence(outcome) if ev.up_to is not None and ev.up_to >= k - 1
    ]
    if (
        found.phase == "exhaustive"
    ):  # an exhaustive sweep goes by size: what it finds first is minimal
        assert report.minimality.startswith("minimal in size"), report.minimality
    if swept:  # the claim "every input of size < k in these spaces passed", re-checked here
        spaces = [s for s in game.exhaustive_spaces() if s.name in swept]
        smaller = [i for s in spaces for size in s.sizes if size < k for i in s.instances(size)]
        wrong = [
            i
            for i in smaller
            if compare(game, broken_name, broken.solve, oracle_reference(game), i, "recheck")
        ]
        assert not wrong, f"a smaller failing input exists: {wrong[0]!r}"
    elif broken.smallest_size is not None:
        assert k == broken.smallest_size, (found.phase, found.input_text[:80], report.minimality)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_name", "solver_name"), registry.solver_ids([registry.get(g) for g in GAMES])
)
def test_correct_solvers_are_not_flagged(game_name, solver_name):
    """Control: the registered solvers pass the same path (quick profile; `gamecert certify all`
    runs them in full)."""
    entry = registry.get(game_name)
    outcome = certify_solver(
        entry, solver_name, entry.solvers[solver_name], get_profile("quick"), SEED
    )
    assert outcome.failure is None and not outcome.interrupted, outcome.failure
    assert outcome.stats.samples and outcome.stats.random_examples and outcome.stats.largest_sizes
