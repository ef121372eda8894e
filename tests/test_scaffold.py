"""`gamecert new-game`: what it writes, what it refuses, and what a half-done game reports.

Every test that scaffolds works in a copy of the project under ``tmp_path`` (the copy first on
``PYTHONPATH``), so no scaffolded file ever lands in the real tree; one test checks that.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.commands.new_game import PARTS, check_name, render
from gamecert.errors import UsageError
from gamecert.kit.todo import todo, todo_value, unfinished

ROOT = Path(__file__).resolve().parent.parent
NAME = "demo_game"


def _copy_project(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for folder in ("gamecert", *PARTS):
        shutil.copytree(ROOT / folder, dest / folder, ignore=ignore)
    (dest / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "test_conformance.py", dest / "tests")
    shutil.copy(ROOT / "pyproject.toml", dest)
    return dest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return _copy_project(tmp_path / "project")


def _run(project: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(project), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("GAMECERT_PROFILE", None)
    return subprocess.run(
        [sys.executable, *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _gamecert(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _run(project, "-m", "gamecert", *args)


def _list_line(project: Path, name: str) -> str:
    """The game's line in `gamecert list`, which exits 2 exactly when some game does not load."""
    out = _gamecert(project, "list")
    lines = [line for line in out.stdout.splitlines() if line.startswith(f"{name}:")]
    assert len(lines) == 1, out.stdout
    unloaded = re.search(r"^\w+: (UNFINISHED|BROKEN|INCOMPLETE), ", out.stdout, re.MULTILINE)
    assert out.returncode == (2 if unloaded else 0), (out.returncode, out.stdout, out.stderr)
    return lines[0]


def _marked_line(path: Path, number: int) -> str:
    return path.read_text().splitlines()[number - 1]


def test_new_game_writes_four_marked_modules_and_list_names_the_first_stub(project):
    """The four files appear; `gamecert list` shows the game with the oracle's stubs by name and
    line, and each named line really is a @todo or todo_value mark in that file."""
    out = _gamecert(project, "new-game", NAME)
    assert out.returncode == 0, out.stderr
    for part in PARTS:
        assert (project / part / f"{NAME}.py").is_file()
        assert f"wrote {part}/{NAME}.py" in out.stdout
    for extra in (
        f"tests/broken/{NAME}.py",
        f"examples/{NAME}/correct.py",
        f"examples/{NAME}/wrong.py",
    ):
        assert (project / extra).is_file() and f"wrote {extra}" in out.stdout, extra
    line = _list_line(project, NAME)
    assert f"oracles/{NAME}.py is not finished" in line
    oracle_file = project / "oracles" / f"{NAME}.py"
    named = re.findall(r"DemoGame\.(\w+) \(line (\d+)\)", line)
    assert {m for m, _ in named} >= {
        "parse_input",
        "format_input",
        "size",
        "parse_answer",
        "format_answer",
        "minimax",
        "oracle",
        "explain",
        "exhaustive_spaces",
        "samples",
        "max_size",
    }
    for member, number in named:
        text = _marked_line(oracle_file, int(number))
        following = _marked_line(oracle_file, int(number) + 1)
        assert ("@todo" in text and f"def {member}(" in following) or (
            text.strip().startswith(f"{member} = todo_value(")
        ), (member, number, text)
    # new-game itself lists what every part still needs, not only the oracle's
    for part, stub in (
        ("fast", "closed_form"),
        ("strategies", "largest"),
        ("proofs", "check_closed_form"),
    ):
        assert re.search(
            rf"{part}/{NAME}\.py: still to write: .*\b{stub} \(line \d+\)", out.stdout
        ), out.stdout


def test_conformance_suite_fails_a_scaffolded_game_with_the_registry_message(project):
    """`pytest` picks the new game up at once and fails it, saying which file and which stubs."""
    assert _gamecert(project, "new-game", NAME).returncode == 0
    out = _run(
        project,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "tests/test_conformance.py",
        "-k",
        NAME,
        "--gamecert-profile",
        "quick",
    )
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"FAILED tests/test_conformance.py::test_registered[{NAME}]" in out.stdout
    assert f"oracles/{NAME}.py is not finished: still to write: DemoGame." in out.stdout


def test_finishing_a_part_moves_the_message_to_the_next_part(project):
    """With the oracle written (here: stones_once's rules under the new name), the registry
    names the fast module's stub; with every part written the game is listed with its solvers."""
    assert _gamecert(project, "new-game", NAME).returncode == 0
    (project / "oracles" / f"{NAME}.py").write_text(
        "from gamecert.oracles.stones_once import StonesOnce\n\n\n"
        "class DemoGame(StonesOnce):\n    name = 'demo_game'\n\n\nGAME = DemoGame()\n"
    )
    line = _list_line(project, NAME)
    assert re.search(
        rf"fast/{NAME}\.py is not finished: still to write: closed_form \(line \d+\)", line
    ), line

    fast_file = project / "fast" / f"{NAME}.py"
    fast_file.write_text(
        fast_file.read_text()
        .replace("@todo\n", "")
        .replace(
            '    """The answer for ``instance``, as GAME.parse_answer would return it. Add a doctest."""',
            "    from gamecert.fast.stones_once import closed_form as solve\n\n    return solve(instance)",
        )
    )
    line = _list_line(project, NAME)
    assert f"strategies/{NAME}.py is not finished: still to write: instances" in line

    (project / "strategies" / f"{NAME}.py").write_text(
        "from gamecert.strategies.stones_once import *  # noqa: F403\n"
    )
    (project / "proofs" / f"{NAME}.py").write_text("CLAIMS = []\n")
    # issue 45: the examples are still new-game's stubs (they only exit "still to write"): not finished
    line = _list_line(project, NAME)
    assert (
        line.startswith(f"{NAME}: UNFINISHED, ")
        and f"examples/{NAME}/correct.py: still to write" in line
    ), line
    assert f"examples/{NAME}/wrong.py: still to write" in line
    for which in ("correct", "wrong"):
        shutil.copy(
            ROOT / "examples" / "stones_once" / f"{which}.py",
            project / "examples" / NAME / f"{which}.py",
        )
    assert (
        _list_line(project, NAME)
        == f"{NAME}: Game of Stones (Codeforces 768E); solvers: closed_form"
    )


def test_new_game_ends_clean_from_the_console_script(project, tmp_path):
    """Issue 45: `gamecert new-game NAME` run as the console script (the project root not on
    sys.path, from another folder) reported its own broken-solvers scaffold as "does not import:
    No module named 'tests'". It now names what that file still has to write, like every part."""
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import gamecert; sys.path.remove(sys.argv[1]); "
        "from gamecert.commands.cli import main; sys.argv = ['gamecert', 'new-game', sys.argv[2]]; main()"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GAMECERT_PROFILE")}
    out = subprocess.run(
        [sys.executable, "-c", script, str(project), NAME],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "does not import" not in out.stdout and "No module named" not in out.stdout, out.stdout
    assert re.search(
        rf"tests/broken/{NAME}\.py: still to write: off_by_one \(line \d+\)", out.stdout
    ), out.stdout


def test_refusals_exit_2_with_one_line_and_touch_nothing(project):
    """Bad names and existing games are usage errors: exit 2, one line, no traceback, no file."""
    for bad in ("Demo", "1demo", "demo-game", "_demo", "class", "démo", ""):
        out = _gamecert(project, "new-game", bad)
        assert out.returncode == 2, (bad, out.stdout, out.stderr)
        assert out.stderr.count("\n") == 1 and out.stderr.startswith(
            "gamecert: error: game name"
        ), (bad, out.stderr)
        assert "Traceback" not in out.stderr
    for existing in ("word_game", "stones_once"):
        before = {p: (project / p / f"{existing}.py").read_bytes() for p in PARTS}
        out = _gamecert(project, "new-game", existing)
        assert out.returncode == 2 and "already exists" in out.stderr, out.stderr
        assert before == {p: (project / p / f"{existing}.py").read_bytes() for p in PARTS}
    assert not list(project.glob("*/[Dd]emo*.py")) and not list(project.glob("*/_demo.py"))


def test_a_half_present_game_gets_only_its_missing_parts(project):
    """An incomplete game (the registry's hint says run new-game) gets the missing files only;
    files already there are left byte for byte."""
    mine = "# my own work in progress\nGAME = None\n"
    (project / "oracles" / f"{NAME}.py").write_text(mine)
    out = _gamecert(project, "new-game", NAME)
    assert out.returncode == 0, out.stderr
    assert (project / "oracles" / f"{NAME}.py").read_text() == mine
    assert f"kept  oracles/{NAME}.py" in out.stdout
    assert all((project / p / f"{NAME}.py").is_file() for p in PARTS)


def test_no_scaffolded_file_in_the_real_tree():
    """The tests above work in copies: the real project has no demo game."""
    assert not [p for p in PARTS if (ROOT / p / f"{NAME}.py").exists()]
    assert (
        not (ROOT / "tests" / "broken" / f"{NAME}.py").exists()
        and not (ROOT / "examples" / NAME).exists()
    )


# ---- the markers, in process ---------------------------------------------------------------------


def test_unfinished_lists_exactly_what_is_still_marked():
    """A stub leaves the list once its mark is gone; nothing marked means finished ("")."""

    class Demo:
        reach = todo_value("the largest size")

        @todo
        def solve(self, instance):
            """stub"""

        def done(self, instance):
            return instance

    Demo.__module__ = "demo_module"
    namespace = {"__name__": "demo_module", "Demo": Demo}
    text = unfinished(namespace)
    assert "Demo.solve (line" in text and "Demo.reach" in text and "Demo.done" not in text
    del Demo.solve
    assert "Demo.solve" not in unfinished(namespace)
    Demo.reach = 10
    assert unfinished(namespace) == ""


def test_a_stub_called_by_mistake_says_what_to_do():
    @todo
    def closed_form(instance):
        """stub"""

    with pytest.raises(NotImplementedError, match="closed_form .* is a stub marked @todo"):
        closed_form(1)


@pytest.mark.parametrize("name", ["a", "stones_once", "game2", "x_y_z"])
def test_good_names_pass(name):
    check_name(name)


@pytest.mark.parametrize("name", ["A", "2x", "a-b", "a b", "_a", "import", "ä", ""])
def test_bad_names_are_usage_errors(name):
    with pytest.raises(UsageError, match="game name"):
        check_name(name)


def test_templates_compile_and_name_the_game():
    """Every template (the parts, the broken solvers, the examples; plain and octal) is valid
    Python with every placeholder filled in."""
    for part in (*PARTS, "broken", "correct", "wrong"):
        for octal in (None, "0.07"):
            text = render(part, "some_game", octal)
            compile(text, f"{part}/some_game.py", "exec")
            assert not re.search(r"__[A-Z_]+__", text), (
                part,
                octal,
                re.findall(r"__[A-Z_]+__", text),
            )
    assert "class SomeGame(Game):" in render("oracles", "some_game")
    assert 'name = "some_game"' in render("oracles", "some_game")


def test_octal_game_by_code_alone(project):
    """`--octal CODE` writes four modules that build everything from the code: the game is
    listed with its solvers at once and nothing in it is left marked."""
    out = _gamecert(project, "new-game", "kayles_demo", "--octal", "0.77")
    assert out.returncode == 0, out.stderr
    for part in PARTS:
        text = (project / part / "kayles_demo.py").read_text()
        assert f'octal_parts("0.77", "kayles_demo").exports("{part}")' in text
        assert "todo" not in text
    line = _list_line(project, "kayles_demo")
    assert line.startswith("kayles_demo: ") and "0.77" in line and "solvers: " in line, line


@pytest.mark.parametrize("code", ["0.9", "0.000", "7.07", "0.07x", "007"])
def test_bad_octal_code_writes_nothing(project, code):
    out = _gamecert(project, "new-game", "octal_demo", "--octal", code)
    assert out.returncode == 2 and out.stderr.startswith("gamecert: error: octal code"), out.stderr
    assert "Traceback" not in out.stderr
    assert not list(project.glob("*/octal_demo.py"))
