"""``gamecert show GAME``: what it prints for every game, its errors, and the limits and format
strings it reads (which every game, and the scaffold's template, must state)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.commands.prove import check_claim
from gamecert.commands.show import describe
from gamecert.engine import registry
from gamecert.kit.claims import Claim, Evidence

ROOT = Path(__file__).resolve().parent.parent

#: the problems' limits (statements; /work GAMES.md): seconds, MB
LIMITS = {
    "word_game": (2, 256),
    "string_cut": (2, 256),
    "digit_game": (1, 256),
    "stones_once": (3, 256),
    "dawson_kayles": (1, 256),
}


def _gamecert(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamecert", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.mark.parametrize("name", registry.game_names())
def test_show_prints_every_part_of_the_game(name):
    """Rules, formats, limits, every sample line, every exhaustive space, every solver and every
    claim with its stated level are on the page."""
    entry = registry.get(name)
    game = entry.game
    page = describe(entry)
    flat = " ".join(page.split())
    for text in (game.title, game.rules, game.input_format, game.output_format):
        assert text and " ".join(text.split()) in flat, text
    assert f"{game.time_limit:g} s per test, {game.memory_limit_mb} MB" in page
    for text, answer in game.samples:
        for line in (text + answer).splitlines():
            assert f"    {line}\n" in page, line
    for space in game.exhaustive_spaces():
        assert f"  {space.name}: {space.description}" in page
    for solver in entry.solvers:
        assert solver in page
    for claim in entry.claims:
        assert f"[{claim.level}] {claim.name}" in page


def test_show_on_the_command_line():
    """Exit 0 and the page on stdout; an unknown game is one line on stderr with exit 2."""
    ok = _gamecert("show", "word_game")
    assert (
        ok.returncode == 0
        and ok.stdout.startswith("word_game: ")
        and "2 s per test, 256 MB" in ok.stdout
    )
    assert "  sample 1: input\n    ZADACHA\n  output\n    Alice\n" in ok.stdout
    bad = _gamecert("show", "no_such_game")
    assert bad.returncode == 2 and bad.stdout == ""
    assert (
        bad.stderr.count("\n") == 1
        and "unknown game 'no_such_game'" in bad.stderr
        and "Traceback" not in bad.stderr
    )


@pytest.mark.parametrize("name", sorted(LIMITS))
def test_games_carry_the_problems_limits(name):
    """word_game 2 s, string_cut 2 s, digit_game 1 s, stones_once 3 s, 256 MB each."""
    game = registry.get(name).game
    assert (game.time_limit, game.memory_limit_mb) == LIMITS[name]


def test_every_game_and_the_scaffold_state_formats_limits_and_claim_levels():
    """Every registered game fills in rules and formats and states each claim's level; the
    scaffold's oracle template asks for all of them."""
    assert set(LIMITS) == set(
        registry.game_names("project")
    )  # games elsewhere state their own problems
    for entry in registry.all_entries():
        for attr in ("rules", "input_format", "output_format"):
            assert (
                isinstance(getattr(entry.game, attr), str) and getattr(entry.game, attr).strip()
            ), (entry.name, attr)
        assert all(c.level for c in entry.claims), entry.name
    from gamecert.commands.new_game import _ORACLE

    for needle in (
        "time_limit = ",
        "memory_limit_mb = ",
        "rules = todo_value(",
        "input_format = todo_value(",
        "output_format = todo_value(",
        "AnswerReader",
    ):
        assert needle in _ORACLE, needle


def test_prove_does_not_count_a_claim_whose_evidence_is_weaker_than_stated():
    """A claim stating 'all sizes' whose check only gives 'bounded' evidence is NOT ESTABLISHED,
    so the levels `show` prints cannot overstate what `prove` finds."""
    overstated = Claim(
        "toy", "a toy claim", lambda: Evidence("bounded", "n <= 3"), level="all sizes"
    )
    outcome = check_claim("toy", overstated)
    assert outcome.status == "NOT ESTABLISHED" and "'all sizes'" in outcome.detail
    honest = Claim("toy", "a toy claim", lambda: Evidence("bounded", "n <= 3"), level="bounded")
    assert check_claim("toy", honest).holds
    with pytest.raises(ValueError, match="level must be one of"):
        Claim("toy", "a toy claim", lambda: Evidence("bounded", ""), level="proved")
