"""The conformance suite every registered game gets for free.

Parametrised over the sorted registry with stable ids; adding a game adds its items here with
no test code. Exhaustive sweeps are split one item per (space, size) so ``pytest -n auto``
spreads them over the workers. A game that is missing a part or not finished fails
``test_registered`` with the registry's message (which file, which part) and gets no other items.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings

from gamecert.engine import gamecode, registry
from gamecert.engine.plan.crosscheck import (
    fixed_check,
    minimax_reference,
    oracle_reference,
    peers_reference,
    random_check,
    sweep,
)
from gamecert.engine.plan.profiles import get_profile
from gamecert.errors import AnswerError, InputError
from gamecert.kit.game import Game

SEED = 20261130  # fixed so a failure in CI replays; `gamecert certify` draws a fresh one


def _complete_entries():
    out = []
    for name in registry.game_names():
        try:
            out.append(registry.get(name))
        except Exception:  # reported by test_registered
            continue
    return out


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    profile = get_profile(metafunc.config.getoption("--gamecert-profile"))
    names = metafunc.fixturenames
    if "game_name" in names:
        metafunc.parametrize("game_name", registry.game_names())
        return
    entries = _complete_entries()
    if "minimax_case" in names or "exhaustive_case" in names:
        cases, ids = [], []
        for e in entries:
            for space in e.game.exhaustive_spaces():
                for size in space.sizes[: max(1, round(len(space.sizes) * profile.exhaustive))]:
                    if "exhaustive_case" in names:
                        for s in sorted(e.solvers):
                            cases.append((e.name, s, space.name, size))
                            ids.append(f"{e.name}-{s}-{space.name}-{size}")
                    elif size <= e.game.minimax_reach:
                        cases.append((e.name, space.name, size))
                        ids.append(f"{e.name}-{space.name}-{size}")
        metafunc.parametrize(
            "exhaustive_case" if "exhaustive_case" in names else "minimax_case", cases, ids=ids
        )
        return
    if "solver_name" in names:
        pairs = registry.solver_ids(entries)
        metafunc.parametrize(
            ("entry_name", "solver_name"), pairs, ids=[f"{g}-{s}" for g, s in pairs]
        )
    elif "entry_name" in names:
        metafunc.parametrize("entry_name", [e.name for e in entries])


def test_registered(game_name):
    """Every game found in a part folder is complete: all four modules, finished, consistent."""
    entry = registry.get(game_name)
    assert entry.game.name == game_name


def test_samples_match_oracle(entry_name):
    """The statement's samples (claims, not truth) agree with the oracle and every fast solver
    (as every certification checks them first) and parse both ways."""
    entry = registry.get(entry_name)
    game = entry.game
    assert game.samples, "a game should state its samples"
    gamecode.check_samples(entry)  # a GameError showing both answers if one disagrees
    for text, answer in game.samples:
        instance = game.parse_input(text)
        assert game.parse_answer(answer, instance) == game.oracle(instance), f"sample {text!r}"
        assert game.parse_input(game.format_input(instance)) == instance


def test_oracle_matches_minimax(minimax_case):
    """The memoised oracle (layer 2) equals the plain minimax (layer 1) wherever minimax reaches."""
    name, space_name, size = minimax_case
    game = registry.get(name).game
    space = next(s for s in game.exhaustive_spaces() if s.name == space_name)
    result = sweep(game, "oracle", game.oracle, minimax_reference(game), space, [size])
    assert result.tests > 0
    assert result.disagreement is None, result.disagreement.describe()


def test_solver_exhaustive(exhaustive_case):
    """Each fast solver equals the oracle on every input of every exhaustive space, size by size."""
    name, solver, space_name, size = exhaustive_case
    entry = registry.get(name)
    space = next(s for s in entry.game.exhaustive_spaces() if s.name == space_name)
    result = sweep(
        entry.game, solver, entry.solvers[solver], oracle_reference(entry.game), space, [size]
    )
    assert result.tests > 0
    assert result.disagreement is None, result.disagreement.describe()


def test_solver_random_within_oracle(entry_name, solver_name, gamecert_profile):
    """Each fast solver equals the oracle on random inputs up to the oracle's reach."""
    entry = registry.get(entry_name)
    result = random_check(
        entry.game,
        solver_name,
        entry.solvers[solver_name],
        oracle_reference(entry.game),
        entry.oracle_instances(),
        gamecert_profile.examples,
        SEED,
        "within the oracle's reach",
    )
    assert result.disagreement is None, result.disagreement.describe()


def test_solver_random_full_size(entry_name, solver_name, gamecert_profile):
    """Beyond the oracle, fast solvers agree with each other on the whole input space and at
    the maximum sizes (a game with one solver must reach its maximum sizes with its oracle)."""
    entry = registry.get(entry_name)
    solver = entry.solvers[solver_name]
    peer = peers_reference(entry.solvers, solver_name)
    if peer is None:
        assert entry.game.oracle_reach >= entry.game.max_size, (
            f"{entry_name} has one solver and an oracle that stops at {entry.game.oracle_reach}: "
            "register a second, independent solver for the sizes beyond"
        )
        peer = oracle_reference(entry.game)
    result = random_check(
        entry.game,
        solver_name,
        solver,
        peer,
        entry.instances(),
        gamecert_profile.large_examples,
        SEED,
        f"whole input space vs {peer[0]}",
    )
    assert result.disagreement is None, result.disagreement.describe()
    result = fixed_check(
        entry.game, solver_name, solver, peer, entry.strategies.largest(), "maximum sizes"
    )
    assert result.tests > 0
    assert result.disagreement is None, result.disagreement.describe()


def test_largest_are_maximal_and_valid(entry_name):
    """largest() really is at the constraints' maximum, and each instance is a valid input."""
    entry = registry.get(entry_name)
    game = entry.game
    instances = entry.strategies.largest()
    assert instances
    assert max(game.size(i) for i in instances) == game.max_size
    for instance in instances:
        assert game.parse_input(game.format_input(instance)) == instance


def test_strategies_produce_valid_inputs(entry_name, gamecert_profile):
    """Every strategy example is a valid input: format, parse back, same instance."""
    entry = registry.get(entry_name)
    game = entry.game

    @settings(
        max_examples=gamecert_profile.examples,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(entry.instances())
    def check(instance):
        assert 1 <= game.size(instance) <= game.max_size
        assert game.parse_input(game.format_input(instance)) == instance

    check()


def test_answers_round_trip_and_garbage_is_rejected_as_pe_or_wa(entry_name):
    """Canonical answers parse back to themselves; garbage is rejected while it is read (PE or
    WA, as gamecert.kit.tokens decides), never accepted and never a crash."""
    entry = registry.get(entry_name)
    game = entry.game
    for text, _ in game.samples:
        instance = game.parse_input(text)
        answer = game.oracle(instance)
        assert game.parse_answer(game.format_answer(answer), instance) == answer
        assert (
            game.parse_answer(
                "  " + game.format_answer(answer).replace("\n", " \r\n") + "\n\n", instance
            )
            == answer
        )
        for garbage in ("", "\n", "?!", "\x00", game.format_answer(answer) * 2 + "x"):
            with pytest.raises(AnswerError):
                game.parse_answer(garbage, instance)


def test_bad_inputs_name_line_and_rule(entry_name):
    """Generic malformed inputs are rejected with InputError naming a line, never a traceback."""
    game = registry.get(entry_name).game
    text = game.samples[0][0]
    bad = {
        "empty input": "",
        "trailing garbage": text + "garbage\n",
        "leading blank": " " + text,
        "control character": "\x07" + text,
        "nothing but a newline": "\n",
    }
    for what, candidate in bad.items():
        with pytest.raises(InputError) as info:
            game.parse_input(candidate)
        assert info.value.line >= 1, what
        assert str(info.value).startswith(f"line {info.value.line}"), what


def test_explanations_agree_with_minimax(entry_name, gamecert_profile):
    """explain() names the winner plain minimax finds (where it reaches), and a first player
    who wins is shown a winning move, a loser none."""
    entry = registry.get(entry_name)
    game = entry.game

    @settings(
        max_examples=max(10, gamecert_profile.examples // 5),
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(entry.oracle_instances())
    def check(instance):
        for single in game.split(instance):
            explanation = game.explain(single)
            text = explanation.describe()
            assert explanation.line_of_play, "a line of play to the end"
            assert explanation.first_player_wins is not None, "explain() must say who wins"
            if game.size(single) <= game.minimax_reach:
                truth = game.first_player_wins(game.minimax(single))
                assert explanation.first_player_wins == truth, (
                    f"minimax says first wins: {truth}\n{text}"
                )
            if explanation.first_player_wins:
                assert explanation.winning_moves or explanation.no_moves, text
            else:
                assert not explanation.winning_moves, text

    check()


def test_families_are_valid_and_counted(entry_name):
    """Each designed family (``coverage()``, ``worst_cases()``) yields exactly the ``count`` it
    declares, and a sample of its inputs (one in ``count // 200``, the first and the last, up to
    2 MB of text) is valid by the game's own ``parse_input`` and parses back to itself. (A
    certification validates every input it runs; here the sample keeps the suite fast.)"""
    entry = registry.get(entry_name)
    game = entry.game
    for kind, make in (("coverage", "coverage"), ("worst", "worst_cases")):
        for family in getattr(entry.strategies, make, lambda: [])():
            where = f"the {kind} family {family.name!r}"
            # every input counted; checked one in `step` (the first and last always) until 2 MB of
            # input text have been parsed (a family of 10**6-pile inputs is checked on a few)
            step, parsed = max(1, family.count // 200), 0
            for n, instance in enumerate(
                gamecode.checked_family(game, where, family.count, family.instances())
            ):
                if (n % step == 0 and parsed < 2 << 20) or n == family.count - 1:
                    parsed += len(gamecode.check_input(game, instance, where))


def test_shrinker_moves_are_valid(entry_name):
    """Every input a game's own ``smaller()`` offers (the first 300 from each sample and each
    of ``largest()``) is a valid input: a shrunk counterexample must be one a judge accepts."""
    entry = registry.get(entry_name)
    game = entry.game
    if type(game).smaller is Game.smaller:
        pytest.skip("the kit's generic smaller(): invalid moves are skipped by the engine")
    starts = [game.parse_input(text) for text, _ in game.samples] + list(entry.strategies.largest())
    for start in starts:
        parsed = 0  # at most 300 moves and about 2 MB of input text from each start
        for move in itertools.islice(
            gamecode.guarded(game.name, "smaller()", game.smaller(start)), 300
        ):
            parsed += len(gamecode.check_input(game, move, "smaller()"))
            if parsed > 2 << 20:
                break


def test_explanations_render(entry_name):
    """explain() gives a page (Markdown text) for every sample and every input of ``largest()``
    within the oracle's reach, without raising: reports show it beside every fault."""
    entry = registry.get(entry_name)
    game = entry.game
    starts = [game.parse_input(text) for text, _ in game.samples]
    starts += [x for x in entry.strategies.largest() if game.size(x) <= game.oracle_reach]
    for start in starts:
        for single in game.split(start):
            page = gamecode.call(
                game.name, "explain()", lambda x: game.explain(x).describe(), single
            )
            assert isinstance(page, str) and page.strip(), single
