"""Games as plugins, and gamecert as a package: games folders (``GAMECERT_GAMES``), entry points
(``gamecert.games``), name clashes, one broken game among good ones, ``new-game --dir``, the
refusal to write into an installation, ``--version``, the Linux-only sandbox, and a pytest
plugin that stays silent in sessions that are not gamecert's.

Commands run as subprocesses from ``tmp_path`` with this tree first on ``PYTHONPATH``; entry
points are simulated in process by replacing :func:`importlib.metadata.entry_points`.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import gamecert
from gamecert.commands import cli
from gamecert.commands.prove import prove_command
from gamecert.engine import registry
from gamecert.errors import RegistryError

ROOT = Path(__file__).resolve().parent.parent


def _run(
    cwd: Path, *args: str, games: str | None = None, pythonpath: Path = ROOT, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("GAMECERT_PROFILE", None)
    env.pop(registry.ENV_VAR, None)
    if games is not None:
        env[registry.ENV_VAR] = games
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def _gamecert(
    cwd: Path, *args: str, games: str | None = None, **kw
) -> subprocess.CompletedProcess[str]:
    return _run(cwd, "-m", "gamecert", *args, games=games, **kw)


def _lines(out: subprocess.CompletedProcess[str], name: str) -> list[str]:
    return [line for line in out.stdout.splitlines() if line.startswith(f"{name}:")]


@pytest.fixture
def fresh_registry(monkeypatch):
    """The registry with no cached games, no GAMECERT_GAMES, forgotten again afterwards."""
    monkeypatch.delenv(registry.ENV_VAR, raising=False)
    registry.clear_cache()
    yield monkeypatch
    registry.clear_cache()


def _octal_folder_game(folder: Path, name: str, code: str = "0.3") -> None:
    """A finished games-folder game whose fast solver imports its oracle relatively."""
    for part in registry.PARTS:
        (folder / part).mkdir(parents=True, exist_ok=True)
    exports = f'from gamecert.kit.octal import octal_parts\n\nglobals().update(octal_parts("{code}", "{name}").exports("{{}}"))\n'
    (folder / "oracles" / f"{name}.py").write_text(exports.format("oracles"))
    (folder / "fast" / f"{name}.py").write_text(
        f"from ..oracles.{name} import GAME\n\nSOLVERS = {{'via_oracle': GAME.oracle}}\n"
    )
    (folder / "strategies" / f"{name}.py").write_text(exports.format("strategies"))
    (folder / "proofs" / f"{name}.py").write_text(exports.format("proofs"))


# ---- a games folder written by new-game --dir ------------------------------------------------------


@pytest.mark.slow
def test_new_game_dir_writes_a_whole_game_that_is_listed_and_certified(tmp_path):
    """`new-game NAME --octal CODE --dir DIR` writes the parts, broken solvers and examples at the
    paths it prints; with GAMECERT_GAMES=DIR the game is listed, its correct example is certified
    and its wrong example is caught (WA)."""
    out = _gamecert(tmp_path, "new-game", "ext_kayles", "--octal", "0.77", "--dir", "games")
    assert out.returncode == 0, out.stderr
    wrote = re.findall(r"^  wrote (\S+)$", out.stdout, re.MULTILINE)
    expected = {f"games/{p}/ext_kayles.py" for p in registry.PARTS} | {
        "games/tests/broken/ext_kayles.py",
        "games/examples/ext_kayles/correct.py",
        "games/examples/ext_kayles/wrong.py",
    }
    assert set(wrote) == expected, out.stdout
    assert all((tmp_path / path).is_file() for path in wrote)
    assert f"GAMECERT_GAMES={tmp_path / 'games'} gamecert list" in out.stdout

    listed = _gamecert(tmp_path, "list", games="games")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert _lines(listed, "ext_kayles") == [
        "ext_kayles: octal game 0.77; solvers: mex_dp, periodic_table"
    ]
    assert _lines(listed, "word_game"), listed.stdout  # the project's games are still there

    reports = str(tmp_path / "reports")
    good = _gamecert(
        tmp_path,
        "certify",
        "ext_kayles",
        "games/examples/ext_kayles/correct.py",
        "--budget",
        "5",
        "--profile",
        "quick",
        "--seed",
        "1",
        "--report-dir",
        reports,
        games="games",
    )
    assert good.returncode == 0 and (
        "CERTIFIED" in good.stdout or "PASSED (incomplete)" in good.stdout
    ), good.stdout + good.stderr
    bad = _gamecert(
        tmp_path,
        "certify",
        "ext_kayles",
        "games/examples/ext_kayles/wrong.py",
        "--budget",
        "5",
        "--profile",
        "quick",
        "--seed",
        "1",
        "--report-dir",
        reports,
        games="games",
    )
    assert bad.returncode == 1 and "WA" in bad.stdout, bad.stdout + bad.stderr


def test_scaffolded_plain_game_in_a_folder_imports_and_reports_its_stubs(tmp_path):
    """The plain templates import their oracle relatively; in a folder that import works (no
    'does not import'), and `list` names the oracle's stubs by their full path, exit 2."""
    out = _gamecert(tmp_path, "new-game", "plain_demo", "--dir", "games")
    assert out.returncode == 0, out.stderr
    assert "does not import" not in out.stdout, out.stdout
    assert (
        "from ..oracles.plain_demo import GAME"
        in (tmp_path / "games/fast/plain_demo.py").read_text()
    )
    assert (
        "from ...oracles.plain_demo import GAME"
        in (tmp_path / "games/tests/broken/plain_demo.py").read_text()
    )
    listed = _gamecert(tmp_path, "list", games="games")
    assert listed.returncode == 2, listed.stdout
    [line] = _lines(listed, "plain_demo")
    assert line.startswith(
        f"plain_demo: UNFINISHED, {tmp_path / 'games/oracles/plain_demo.py'} is not finished: "
    )


def test_folder_game_loads_under_a_private_package_with_relative_imports(tmp_path, fresh_registry):
    """No top-level `oracles`/`fast` module is made for a folder game; its fast part reaches its
    own oracle (the same GAME object) through a relative import."""
    folder = tmp_path / "games"
    _octal_folder_game(folder, "rel_game")
    fresh_registry.setenv(registry.ENV_VAR, str(folder))
    entry = registry.get("rel_game")
    package = registry.package_name(folder.resolve())
    assert entry.solvers["via_oracle"].__self__ is entry.game
    assert f"{package}.fast.rel_game" in sys.modules
    assert not [
        m for m in sys.modules if m.split(".")[0] in registry.PARTS and m.endswith(".rel_game")
    ]
    assert "games folder" in entry.source and str(folder.resolve()) in entry.source


# ---- clashes and broken games --------------------------------------------------------------------


def test_the_same_name_in_two_sources_is_an_error_naming_both(tmp_path, fresh_registry):
    """Two folders with `twin`, and a folder with the project's `word_game`: each is one error
    naming both sources; the other games still load."""
    first, second = tmp_path / "a", tmp_path / "b"
    _octal_folder_game(first, "twin")
    _octal_folder_game(second, "twin")
    _octal_folder_game(second, "word_game")
    fresh_registry.setenv(registry.ENV_VAR, os.pathsep.join([str(first), str(second)]))
    with pytest.raises(RegistryError, match="defined twice") as info:
        registry.get("twin")
    assert str(first.resolve()) in str(info.value) and str(second.resolve()) in str(info.value)
    with pytest.raises(
        RegistryError, match=r"'word_game' is defined twice: in the project and in the games folder"
    ):
        registry.get("word_game")
    entries, problems = registry.load_all()
    assert {p.name for p in problems} == {"twin", "word_game"}
    assert {"digit_game", "stones_once"} <= {e.name for e in entries}
    fresh_registry.setenv(registry.ENV_VAR, str(first))  # control: one source, no clash
    registry.clear_cache()
    assert registry.get("twin").name == "twin"


def test_a_game_written_for_the_flat_kit_is_told_where_the_module_went(tmp_path, fresh_registry):
    """A folder game that imports the kit by its pre-0.2 name (``gamecert.octal``) is one
    problem naming the new module; the same game with the new name loads (control)."""
    games = tmp_path / "games"
    _octal_folder_game(games, "old_style")
    oracle = games / "oracles" / "old_style.py"
    oracle.write_text(oracle.read_text().replace("gamecert.kit.octal", "gamecert.octal"))
    fresh_registry.setenv(registry.ENV_VAR, str(games))
    with pytest.raises(
        RegistryError,
        match=r"No module named 'gamecert.octal' \(since gamecert 0.2 it is gamecert.kit.octal\)",
    ):
        registry.get("old_style")
    oracle.write_text(oracle.read_text().replace("gamecert.octal", "gamecert.kit.octal"))
    registry.clear_cache()
    assert registry.get("old_style").name == "old_style"


def test_list_goes_on_past_broken_games_and_exits_2(tmp_path):
    """An unfinished game and one whose module raises each get one line; every other game is
    listed; the exit status is 2. Control: without them, list exits 0."""
    games = tmp_path / "games"
    _octal_folder_game(games, "good_one")
    assert _gamecert(tmp_path, "new-game", "half_done", "--dir", "games").returncode == 0
    _octal_folder_game(games, "crashes")
    (games / "fast" / "crashes.py").write_text("raise RuntimeError('boom at import')\n")
    out = _gamecert(tmp_path, "list", games="games")
    assert out.returncode == 2, out.stdout + out.stderr
    assert [line.split(",")[0] for line in _lines(out, "half_done")] == ["half_done: UNFINISHED"]
    [crash] = _lines(out, "crashes")
    assert crash.startswith("crashes: BROKEN, ") and "RuntimeError: boom at import" in crash
    assert (
        _lines(out, "good_one")
        and _lines(out, "word_game")
        and "Traceback" not in out.stdout + out.stderr
    )
    # the project's games (this process may also see a games folder of GAMECERT_GAMES; the child does not)
    assert all(len(_lines(out, name)) == 1 for name in registry.game_names("project"))
    shutil.rmtree(games / "oracles")
    shutil.rmtree(games / "fast")
    shutil.rmtree(games / "strategies")
    shutil.rmtree(games / "proofs")
    _octal_folder_game(games, "good_one")
    assert _gamecert(tmp_path, "list", games="games").returncode == 0


def test_prove_all_goes_on_past_a_broken_game_and_exits_2(tmp_path, fresh_registry, capsys):
    """`prove all` prints the broken game's one line, proves the good game's claims, exits 2;
    with the broken game gone it exits 0. (Project games hidden to keep this fast.)"""
    games = tmp_path / "games"
    _octal_folder_game(games, "good_one")
    _octal_folder_game(games, "crashes")
    (games / "proofs" / "crashes.py").write_text("CLAIMS = undefined_name\n")
    fresh_registry.setenv(registry.ENV_VAR, str(games))
    fresh_registry.setattr(registry, "_module_names", lambda part: set())
    assert prove_command(argparse.Namespace(game="all", plot_dir=None)) == 2
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("crashes:")] == [
        line for line in out.splitlines() if "NameError" in line
    ]
    assert "good_one: 2 claims" in out and "2 of 2 claims hold" in out
    assert "not proved: 1 game did not load (crashes)" in out
    (games / "proofs" / "crashes.py").write_text(
        'from gamecert.kit.octal import octal_parts\n\nglobals().update(octal_parts("0.3", "crashes").exports("proofs"))\n'
    )
    registry.clear_cache()
    assert prove_command(argparse.Namespace(game="all", plot_dir=None)) == 0


# ---- entry points --------------------------------------------------------------------------------


def _entry_points(monkeypatch, tmp_path: Path, **points: str) -> None:
    """Make ``importlib.metadata.entry_points(group="gamecert.games")`` give ``points``."""
    monkeypatch.syspath_prepend(str(tmp_path))
    real = importlib.metadata.entry_points
    eps = importlib.metadata.EntryPoints(
        importlib.metadata.EntryPoint(name, value, registry.ENTRY_POINT_GROUP)
        for name, value in points.items()
    )

    def fake(**params):
        return eps if params.get("group") == registry.ENTRY_POINT_GROUP else real(**params)

    monkeypatch.setattr(importlib.metadata, "entry_points", fake)
    registry.clear_cache()


def test_entry_point_games_as_package_and_as_object(tmp_path, fresh_registry):
    """An entry point naming a package with submodules oracle/fast/strategies/proofs/broken, and
    one naming an object with those attributes: both load, with their broken solvers."""
    package = tmp_path / "ep_pkg_game_xq"
    package.mkdir()
    (package / "__init__.py").write_text("")
    line = 'from gamecert.kit.octal import octal_parts\n\nglobals().update(octal_parts("0.07", "ep_pkg").exports("{}"))\n'
    for attr, part in registry.ENTRY_POINT_PARTS.items():
        (package / f"{part}.py").write_text(line.format(attr))
    (package / "broken.py").write_text(
        "from gamecert.kit.broken import Broken\n\nBROKEN = {'x': Broken(len, 'off-by-one', 'x')}\n"
    )
    (tmp_path / "ep_obj_game_xq.py").write_text(
        "import types\nfrom gamecert.kit.octal import octal_parts\n\n_p = octal_parts('0.77', 'ep_obj')\n"
        "PARTS = types.SimpleNamespace(**{a: types.SimpleNamespace(**_p.exports(p)) for p, a in "
        "[('oracles', 'oracle'), ('fast', 'fast'), ('strategies', 'strategies'), ('proofs', 'proofs')]})\n"
    )
    _entry_points(fresh_registry, tmp_path, ep_pkg="ep_pkg_game_xq", ep_obj="ep_obj_game_xq:PARTS")
    assert {"ep_pkg", "ep_obj"} <= set(registry.game_names())
    assert registry.get("ep_pkg").game.octal.code == "0.07"
    assert registry.get("ep_obj").game.octal.code == "0.77"
    assert "entry point ep_pkg = ep_pkg_game_xq" in registry.get("ep_pkg").source
    assert list(registry.broken_solvers("ep_pkg")) == ["x"]
    with pytest.raises(
        RegistryError, match="broken of the entry point ep_obj = ep_obj_game_xq:PARTS is missing"
    ):
        registry.broken_solvers("ep_obj")


def test_entry_point_clashing_with_a_project_game_names_both(tmp_path, fresh_registry):
    _entry_points(fresh_registry, tmp_path, word_game="json")
    with pytest.raises(
        RegistryError,
        match=r"'word_game' is defined twice: in the project and in the entry point "
        r"word_game = json \(group gamecert.games\)",
    ):
        registry.get("word_game")


# ---- new-game never writes into an installation ----------------------------------------------------


def test_new_game_in_an_installed_gamecert_asks_for_dir(tmp_path):
    """A copy laid out as an installation (site-packages, no pyproject.toml): without --dir the
    command refuses with one line and writes nothing; with --dir it writes there only."""
    site = tmp_path / "lib" / "site-packages"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "gamecert", site / "gamecert", ignore=ignore)
    for part in registry.PARTS:  # installed, the game folders are inside the package
        shutil.copytree(ROOT / part, site / "gamecert" / part, ignore=ignore)
    before = sorted(p.relative_to(site) for p in site.rglob("*"))
    out = _gamecert(tmp_path, "new-game", "foo", pythonpath=site)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--dir" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr
    out = _gamecert(tmp_path, "new-game", "foo", "--dir", str(site / "mine"), pythonpath=site)
    assert out.returncode == 2 and "site-packages" in out.stderr, out.stderr
    assert sorted(p.relative_to(site) for p in site.rglob("*")) == before
    out = _gamecert(tmp_path, "new-game", "foo", "--dir", "mine", pythonpath=site)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "mine" / "oracles" / "foo.py").is_file()
    assert sorted(p.relative_to(site) for p in site.rglob("*")) == before


# ---- the package: version, platform, pytest plugin --------------------------------------------------


def test_version_matches_the_metadata_and_has_a_fallback(tmp_path, monkeypatch):
    """`gamecert --version` prints the version; gamecert.__version__ equals pyproject.toml's,
    which is what a checkout without installed metadata reports."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert gamecert.__version__ == project["version"]
    out = _gamecert(tmp_path, "--version")
    assert out.returncode == 0 and out.stdout.strip() == f"gamecert {cli.version()}", (
        out.stdout + out.stderr
    )

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert cli.version() == project["version"]


def test_every_gamecert_subpackage_is_packaged():
    """An installed gamecert lacked gamecert.engine (the package list named only top-level
    packages): every package folder of gamecert, and the four game folders under gamecert's name
    (never a top-level ``oracles``), must be in pyproject.toml's package list."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "gamecert").rglob("__init__.py")
    }
    assert "gamecert.engine" in packages
    parts = {f"gamecert.{part}": part for part in registry.PARTS}
    assert set(setuptools["packages"]) == packages | set(parts)
    assert setuptools["package-dir"] == parts


@pytest.mark.parametrize(
    "argv",
    [
        ["certify", "word_game", "examples/word_game/correct.py"],
        ["replay", "reports/word_game/anything"],
    ],
)
def test_sandboxed_commands_refuse_a_non_linux_system_in_one_line(monkeypatch, capsys, argv):
    """On a system other than Linux (faked), certify with a candidate and replay stop with one
    line, exit 2; a command that needs no sandbox (show) still works there."""
    registry.get("word_game")  # loaded on the real platform: z3 looks for its library by platform
    monkeypatch.setattr(sys, "platform", "darwin")
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs Linux" in err and "this system is darwin" in err, err
    assert cli.main(["show", "word_game"]) == 0
    monkeypatch.setattr(
        sys, "platform", "linux"
    )  # control: on Linux the same check lets it through
    cli.require_sandbox_platform(argv[0])


def test_pytest_plugin_is_silent_in_a_session_without_gamecert(tmp_path):
    """A trivial test folder: no gamecert header line; the only mention of gamecert is pytest's
    own list of installed plugins. Control: --gamecert-profile makes the header appear."""
    (tmp_path / "test_trivial.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    out = _run(tmp_path, "-m", "pytest", "-p", "no:cacheprovider", "test_trivial.py")
    assert out.returncode == 0, out.stdout + out.stderr
    mentions = [
        line for line in (out.stdout + out.stderr).splitlines() if "gamecert" in line.lower()
    ]
    assert all(line.startswith("plugins:") for line in mentions), mentions
    shown = _run(
        tmp_path,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "test_trivial.py",
        "--gamecert-profile",
        "quick",
    )
    assert "gamecert profile: quick" in shown.stdout, shown.stdout


def test_pytest_header_shown_for_gamecert_s_own_tests():
    """The project's own tests (run from its folder) get the profile line."""
    out = _run(ROOT, "-m", "pytest", "-p", "no:cacheprovider", "--co", "tests/test_registry.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "gamecert profile: " in out.stdout


def test_broken_solvers_of_a_folder_game_are_found(tmp_path, fresh_registry):
    """The scaffold's octal broken solvers are found for a folder game, in the kinds required, and
    one is judged wrong where the oracle's answer is judged right."""
    assert (
        _gamecert(tmp_path, "new-game", "bk_game", "--octal", "0.07", "--dir", "games").returncode
        == 0
    )
    fresh_registry.setenv(registry.ENV_VAR, str(tmp_path / "games"))
    broken = registry.broken_solvers("bk_game")
    from gamecert.kit.broken import ONE_OF_KINDS, REQUIRED_KINDS

    kinds = {b.kind for b in broken.values()}
    assert len(broken) >= 5 and kinds >= REQUIRED_KINDS and kinds & ONE_OF_KINDS, kinds
    game = registry.get("bk_game").game
    instance = (2,)  # one heap of two: take both, naming heap 1
    right = game.oracle(instance)
    assert game.judge(instance, right, right) is None
    assert game.judge(instance, broken["zero_based_heap_index"].solve(instance), right)


def test_the_game_folders_are_imported_under_gamecert_only():
    """The registry imports the project's games as ``gamecert.oracles.NAME`` (the installed
    name), from this checkout's ``oracles/`` folder: a rename back to ``oracles.NAME`` fails here."""
    from gamecert import _checkout

    entry = registry.get("word_game")
    assert type(entry.game).__module__ == "gamecert.oracles.word_game"
    module = sys.modules["gamecert.oracles.word_game"]
    assert Path(module.__file__).resolve() == ROOT / "oracles" / "word_game.py"
    assert _checkout.checkout_root(ROOT / "gamecert") == ROOT
    assert _checkout.CheckoutParts(ROOT).find_spec("oracles") is None
