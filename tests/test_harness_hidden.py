"""The harness is not in the box (``gamecert.engine.run.hidden``): with gamecert installed into the
base interpreter the sandbox binds, a hostile candidate (``tests/hostile/harness.py``) can neither
import gamecert nor read the oracle's source, and answers as a right program would.

The base interpreter is a throwaway one: a copy of this machine's base installation (its binary
copied, its standard library hard-linked, without site-packages) whose site-packages gets gamecert
laid out as a wheel installs it (the package, the games inside it as ``gamecert.oracles``..., a
``.dist-info``). This process takes it for its base (``sys.base_prefix``, ``sys._base_executable``),
so the sandbox binds it and the supervisor and candidates run on it; the machine's own base
interpreter is never changed. The copy's binary finds ``libpython`` at the original's absolute
path, which is made readable for it (``GAMECERT_READABLE``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.run import contain, hidden
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile" / "harness.py"
WORDS = ("ZADACHA", "WORD", "AAA", "ABCABCABC", "AB", "AAAAB")
VERSION = f"python{sys.version_info.major}.{sys.version_info.minor}"
SKIP_STDLIB = ("site-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip")


@pytest.fixture(scope="module")
def base_with_gamecert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throwaway base installation with gamecert in its site-packages (see the module's text)."""
    if not contain.probe().enabled:
        pytest.fail(f"candidates cannot run contained here: {contain.probe().reason}")
    real = Path(contain.base_python())
    prefix = Path(sys.base_prefix)
    base = tmp_path_factory.mktemp("base")
    (base / "bin").mkdir()
    shutil.copy2(real, base / "bin" / real.name)
    shutil.copytree(
        prefix / "lib" / VERSION,
        base / "lib" / VERSION,
        copy_function=os.link,
        symlinks=True,
        ignore=lambda folder, names: [
            n for n in names if folder == str(prefix / "lib" / VERSION) and n in SKIP_STDLIB
        ],
    )
    site = base / "lib" / VERSION / "site-packages"
    site.mkdir()
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "gamecert", site / "gamecert", ignore=ignore)
    for part in hidden.PARTS:
        shutil.copytree(ROOT / part, site / "gamecert" / part, ignore=ignore, dirs_exist_ok=True)
    info = site / "gamecert-0.2.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gamecert\nVersion: 0.2.0\n")
    python = base / "bin" / real.name
    said = subprocess.run(
        [
            str(python),
            "-c",
            "import sys, gamecert.oracles.word_game as m; print(sys.prefix, m.__file__)",
        ],
        capture_output=True,
        text=True,
        cwd="/",
        timeout=60,
    )
    assert said.returncode == 0 and said.stdout.split() == [
        str(base),
        str(site / "gamecert/oracles/word_game.py"),
    ], said
    return base


@pytest.fixture()
def as_base(base_with_gamecert: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This process runs candidates on the throwaway base."""
    python = base_with_gamecert / "bin" / Path(contain.base_python()).name
    monkeypatch.setattr(sys, "base_prefix", str(base_with_gamecert))
    monkeypatch.setattr(sys, "_base_executable", str(python), raising=False)
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    libs = [str(p) for p in Path(libdir).glob("libpython*.so*")] if libdir else []
    monkeypatch.setenv("GAMECERT_READABLE", os.pathsep.join(libs))
    return base_with_gamecert


def oracle_answer(word: str) -> str:
    game = registry.get("word_game").game
    return game.format_answer(game.oracle(game.parse_input(word + "\n"))).strip()


def answers() -> dict[str, str]:
    out = {}
    with open_runner(Candidate.parse(str(HOSTILE)), Limits(time_s=5.0)) as runner:
        for word in WORDS:
            result = runner.run(word + "\n")
            assert result.status == "ok", (word, result.status, result.stderr_tail, result.detail)
            out[word] = result.stdout.strip()
    return out


def test_the_harness_is_found_in_the_throwaway_base(as_base: Path) -> None:
    """What is to be hidden: gamecert's package and dist-info in the base's site-packages."""
    found = hidden.harness_paths(contain.base_python())
    site = as_base / "lib" / VERSION / "site-packages"
    assert str(site / "gamecert") in found and str(site / "gamecert-0.2.0.dist-info") in found


def test_a_hostile_candidate_finds_nothing_of_the_harness(as_base: Path) -> None:
    """It can neither import gamecert nor read the oracle: every answer is the right one."""
    got = answers()
    assert got == {w: oracle_answer(w) for w in WORDS}, got


def test_without_the_cover_it_reads_the_oracle(
    as_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check can fail: with nothing covered, the same program imports the oracle from the
    base's site-packages and says so instead of answering."""
    monkeypatch.setattr(contain, "_hide_harness", lambda bound, binds: [])
    got = answers()
    assert all(
        "imported the oracle from" in line and "site-packages/gamecert/oracles" in line
        for line in got.values()
    ), got
