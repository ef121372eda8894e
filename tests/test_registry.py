"""The registry fails loudly: a game missing a part, misnamed, unfinished or with bad parts is
an error that names the file and what is wrong; complete games load."""

from __future__ import annotations

import sys
import types

import pytest
from gamecert.oracles.word_game import WordGame

from gamecert.engine import registry
from gamecert.errors import RegistryError


@pytest.fixture
def fake_parts(monkeypatch):
    """Install modules ``gamecert.<part>.fake_game`` in sys.modules and make the registry see them."""
    real = registry._module_names

    def install(**overrides):
        modules = {
            "oracles": types.SimpleNamespace(GAME=_Renamed("fake_game")),
            "fast": types.SimpleNamespace(SOLVERS={"s": lambda i: "Alice"}),
            "strategies": types.SimpleNamespace(
                instances=lambda: None,
                oracle_instances=lambda: None,
                features=lambda i: [],
                largest=lambda: [],
            ),
            "proofs": types.SimpleNamespace(CLAIMS=[]),
        }
        present = set(registry.PARTS)
        for part, value in overrides.items():
            if value is None:
                present.discard(part)
            else:
                modules[part] = value
        for part in present:
            module = types.ModuleType(f"gamecert.{part}.fake_game")
            module.__dict__.update(vars(modules[part]))
            monkeypatch.setitem(sys.modules, f"gamecert.{part}.fake_game", module)
        monkeypatch.setattr(
            registry,
            "_module_names",
            lambda part: real(part) | ({"fake_game"} if part in present else set()),
        )
        registry.get.cache_clear()

    yield install
    registry.get.cache_clear()


class _Renamed(WordGame):
    def __init__(self, name: str) -> None:
        self.name = name


def test_complete_fake_game_loads(fake_parts):
    """Control: a game with all four parts and the right names loads."""
    fake_parts()
    entry = registry.get("fake_game")
    assert entry.game.name == "fake_game" and list(entry.solvers) == ["s"]


@pytest.mark.parametrize("missing", registry.PARTS)
def test_missing_part_is_named_with_what_was_found(fake_parts, missing):
    """A game present in some folders but not in ``missing`` names both sides of the difference."""
    fake_parts(**{missing: None})
    with pytest.raises(RegistryError) as info:
        registry.get("fake_game")
    message = str(info.value)
    assert f"{missing}/fake_game.py missing" in message
    for part in registry.PARTS:
        if part != missing:
            assert f"{part}/fake_game.py" in message.split("found", 1)[1]
    assert "fake_game" in registry.game_names()


def test_game_name_must_match_module(fake_parts):
    """oracles/X.py defining a game named Y (a double or misplaced registration) is an error."""
    fake_parts(oracles=types.SimpleNamespace(GAME=_Renamed("word_game")))
    with pytest.raises(
        RegistryError, match=r"oracles/fake_game.py defines a game named 'word_game'"
    ):
        registry.get("fake_game")


@pytest.mark.parametrize(
    ("part", "value", "needle"),
    [
        (
            "oracles",
            types.SimpleNamespace(GAME=object()),
            "GAME must be an instance of gamecert.kit.game.Game",
        ),
        ("fast", types.SimpleNamespace(SOLVERS={}), "SOLVERS must be a non-empty dict"),
        ("fast", types.SimpleNamespace(), "fast/fake_game.py must define SOLVERS"),
        (
            "strategies",
            types.SimpleNamespace(instances=lambda: None),
            "must define oracle_instances",
        ),
        (
            "proofs",
            types.SimpleNamespace(CLAIMS=[], UNFINISHED="write claim_x (line 3)"),
            "is not finished: write claim_x",
        ),
    ],
)
def test_bad_parts_are_named(fake_parts, part, value, needle):
    """Each required attribute, checked with a message that says which file and what to define."""
    fake_parts(**{part: value})
    with pytest.raises(RegistryError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        registry.get("fake_game")


def test_unknown_game_lists_the_known_ones():
    """A typo gets the list of registered games."""
    with pytest.raises(RegistryError, match="registered games: .*word_game"):
        registry.get("word_gme")


def test_a_part_that_fails_to_import_is_named(monkeypatch):
    """An exception inside a game's module becomes a RegistryError naming the file."""
    real = registry._module_names
    monkeypatch.setattr(registry, "_module_names", lambda part: real(part) | {"no_such_module_xyz"})
    registry.get.cache_clear()
    try:
        with pytest.raises(RegistryError, match=r"oracles/no_such_module_xyz.py failed to import"):
            registry.get("no_such_module_xyz")
    finally:
        registry.get.cache_clear()
