"""The harness is tested: every deliberately broken solver is caught, with a minimal input.

Each broken solver (``tests/broken/`` for the project's games; :func:`gamecert.registry.broken_solvers`
finds them for games from a games folder or an entry point too) goes through :func:`gamecert.crosscheck.certify_solver`,
the same sequence of checks ``gamecert certify`` and the conformance suite run, under the
profile of the run. A bug found by an exhaustive sweep must come with an input minimal in its
space, which this test re-checks independently (every smaller input of that space is answered
right); a bug only random search reaches must be shrunk to the smallest size showing it.
The control: every registered (correct) solver goes through the same path and is not flagged.
"""

from __future__ import annotations

import pytest

from gamecert import registry
from gamecert.broken import ONE_OF_KINDS, REQUIRED_KINDS
from gamecert.crosscheck import certify_solver, compare, oracle_reference
from gamecert.errors import GamecertError
from gamecert.profiles import get_profile
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
        broken = registry.broken_solvers(game)  # missing or unfinished: a RegistryError naming the file
        assert len(broken) >= 5, game
        kinds = {b.kind for b in broken.values()}
        assert REQUIRED_KINDS <= kinds, (game, kinds)
        assert kinds & ONE_OF_KINDS, (game, kinds)


@pytest.mark.parametrize(("game_name", "broken_name", "broken"), list(_broken_cases()))
def test_broken_solver_is_caught_with_a_minimal_input(game_name, broken_name, broken, gamecert_profile):
    """The default checks flag the broken solver, and the input they report is minimal."""
    entry = registry.get(game_name)
    game = entry.game
    result = certify_solver(entry, broken_name, broken.solve, gamecert_profile, SEED)
    found = result.disagreement
    assert found is not None, f"{game_name}/{broken_name} ({broken.what}) was not caught:\n{result.describe()}"
    assert result.verdict is not Verdict.OK
    # the report's text is the input the solver got, and the expected answer is the oracle's
    assert game.parse_input(found.input_text) == found.instance
    if found.found_by.startswith("exhaustive"):
        space_name, size = found.found_by.removeprefix("exhaustive ").rsplit(", size ", 1)
        space = next(s for s in game.exhaustive_spaces() if s.name == space_name)
        assert game.size(found.instance) == int(size)
        smaller = [i for s in space.sizes if s < int(size) for i in space.instances(s)]
        wrong = [i for i in smaller if compare(game, broken_name, broken.solve, oracle_reference(game), i, "recheck")]
        assert not wrong, f"a smaller failing input exists: {wrong[0]!r}"
    elif broken.smallest_size is not None:
        assert game.size(found.instance) == broken.smallest_size, found.describe()


@pytest.mark.parametrize(("game_name", "solver_name"), registry.solver_ids([registry.get(g) for g in GAMES]))
def test_correct_solvers_are_not_flagged(game_name, solver_name):
    """Control: the registered solvers pass the same path (quick budget; the conformance
    suite runs them in full)."""
    entry = registry.get(game_name)
    result = certify_solver(entry, solver_name, entry.solvers[solver_name], get_profile("quick"), SEED)
    assert result.disagreement is None, result.describe()
