"""The certification core (gamecert.kit.core): what a game states, how a plan runs it, what
CERTIFIED rests on with one.

Each check has its control: a core over its bound fails the bound's check, a core left short is
PASSED (incomplete), the same evidence without a core (the whole plan) is incomplete.
"""

from __future__ import annotations

import pytest

from gamecert.engine import registry
from gamecert.engine.judge.evidence import core_lines, left_out, passing_word
from gamecert.engine.judge.judge import Stats
from gamecert.engine.judge.outcome import GroupOutcome, Outcome
from gamecert.engine.plan.plan import CORE_ORDER, Plan, core_runs, make_plan
from gamecert.engine.plan.profiles import get_profile
from gamecert.kit.core import Core, default_core_bound
from gamecert.verdict import CERTIFIED, INCOMPLETE

SEED_GAMES = ("word_game", "string_cut", "digit_game", "stones_once", "dawson_kayles")


def _plan(game: str, profile: str = "default", **kw: object) -> Plan:
    kw.setdefault("core", True)
    return make_plan(registry.get(game), get_profile(profile), 1, **kw)  # type: ignore[arg-type]


def _bounded(plan: Plan) -> int:
    return core_runs(plan)


@pytest.mark.parametrize("game", SEED_GAMES)
def test_every_seed_game_states_a_default_and_a_thorough_core_with_its_reason(game: str) -> None:
    cores = registry.get(game).game.certification_core
    assert set(cores) >= {"default", "thorough"}
    for core in cores.values():
        assert len(core.reason) > 40, core


@pytest.mark.parametrize("game", SEED_GAMES)
def test_the_default_core_fits_a_jvm_minute(game: str) -> None:
    """At 10 tests/s a runner (a JVM per test), 2 runners, 60 s: at most 60% of it (720 runs);
    the thorough core is deeper."""
    default = _bounded(_plan(game))
    assert 0 < default <= default_core_bound(), default
    assert _bounded(_plan(game, "thorough")) > default


def test_the_bound_catches_a_core_too_large_control() -> None:
    """Control: the whole plan of string_cut (no core) is far over the bound."""
    whole = _bounded(_plan("string_cut", core=False))
    assert whole > 10 * default_core_bound(), whole


def test_a_core_plan_runs_its_bounded_phases_before_any_open_ended_one() -> None:
    plan = _plan("word_game")
    names = [(p.name, p.depth) for p in plan.phases]
    bounded = [n for n, depth in names if not depth and n in CORE_ORDER]
    assert tuple(bounded) == CORE_ORDER
    first_open = min(i for i, (n, depth) in enumerate(names) if depth or n in ("guided", "random"))
    assert all(i < first_open for i, (n, d) in enumerate(names) if n in CORE_ORDER and not d)
    assert plan.core is not None


def test_the_registered_solvers_and_the_pytest_route_keep_their_deep_plan() -> None:
    """By counts there is no core: every space to its declared reach, every family whole; nor
    by time without ``core`` (an in-process solver, gamecert.engine.certification)."""
    for plan in (_plan("word_game", exhaustive_tests=10_000), _plan("word_game", core=False)):
        assert plan.core is None
        assert not any(p.depth for p in plan.phases)


def _outcome(plan: Plan, short: tuple[str, int] | None = None) -> Outcome:
    """Every core group of ``plan`` completed; the depth's groups begun, none whole; ``short``:
    the (space, size) of the core left unfinished."""
    outcome = Outcome(plan, Stats())
    for phase in plan.phases:
        if phase.name in ("guided", "random"):
            continue
        groups = list(phase.groups())
        if phase.depth:
            groups = groups[:3]
        for g in groups:
            unfinished = phase.depth or (
                short is not None and g.size == short[1] and short[0] in g.spaces
            )
            outcome.groups.append(
                GroupOutcome(
                    g.phase,
                    g.key,
                    g.label,
                    g.tests,
                    chunks=1,
                    chunks_done=0 if unfinished else 1,
                    size=g.size,
                    spaces=g.spaces,
                    space_counts=g.space_counts,
                    runs=g.runs,
                    runs_done=1 if unfinished else g.runs,
                    depth=g.depth,
                )
            )
    return outcome


def test_the_core_completed_is_certified_the_depth_begun_is_not_a_gap() -> None:
    outcome = _outcome(_plan("word_game"))
    assert left_out(outcome) == ()
    assert passing_word(outcome) == CERTIFIED
    lines = core_lines(outcome)
    assert lines[0].startswith("certification core (default profile), completed:")
    assert "letter-count multisets to size 11" in lines[0]
    assert lines[-1].startswith("depth beyond the core: ")
    assert "letter-count multisets size 12: 1 of" in lines[-1]


def test_a_core_left_short_is_incomplete_control() -> None:
    outcome = _outcome(_plan("word_game"), short=("letter-count multisets", 9))
    assert passing_word(outcome) == INCOMPLETE
    assert left_out(outcome) == (
        "exhaustive (letter-count multisets up to size 8 of 11 (the core; 40 in all))",
    )
    assert core_lines(outcome)[0].startswith("certification core (default profile), not completed")


def test_a_family_of_the_core_left_short_is_incomplete_control() -> None:
    outcome = _outcome(_plan("word_game"))
    family = next(g for g in outcome.groups if g.phase == "coverage" and not g.depth)
    family.chunks_done = 0
    assert passing_word(outcome) == INCOMPLETE


def test_the_same_evidence_without_a_core_is_incomplete_control() -> None:
    """The whole plan's spaces go to 40 letters: the core's evidence does not complete it."""
    core_plan = _plan("word_game")
    whole_plan = _plan("word_game", core=False)
    outcome = _outcome(core_plan)
    outcome.plan = whole_plan
    assert passing_word(outcome) == INCOMPLETE


def test_core_caps_and_reach() -> None:
    core = Core(families={"f": 3}, exhaustive={"s": 2})
    assert core.family_cap("f", 10) == 3
    assert core.family_cap("f", 2) == 2
    assert core.family_cap("other", 10) == 10
    assert core.space_reach("s", (1, 2, 3)) == (1, 2)
    assert core.space_reach("other", (1, 2, 3)) == (1, 2, 3)


def test_a_capped_family_splits_into_its_core_and_its_rest_in_order() -> None:
    """The core's first N inputs and the rest are the family's own inputs, in its order, once."""
    entry = registry.get("word_game")
    plan = make_plan(entry, get_profile("default"), 1, core=True)
    core_group = next(
        g
        for p in plan.phases
        if p.name == "coverage" and not p.depth
        for g in p.groups()
        if g.key == "coverage-decides-letter-count"
    )
    rest_group = next(
        g
        for p in plan.phases
        if p.name == "coverage" and p.depth
        for g in p.groups()
        if g.key == "coverage-decides-letter-count-beyond-core"
    )
    whole = make_plan(entry, get_profile("default"), 1, core=False)
    whole_group = next(
        g
        for p in whole.phases
        if p.name == "coverage"
        for g in p.groups()
        if g.key == "coverage-decides-letter-count"
    )
    texts = [t for c in core_group.chunks for t in c.texts]
    rest = [t for c in rest_group.chunks for t in c.texts]
    assert len(texts) == core_group.runs == 100
    assert texts + rest == [t for c in whole_group.chunks for t in c.texts]
