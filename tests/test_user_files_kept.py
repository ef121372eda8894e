"""No file of the user's is ever deleted by a command that writes (issue 36, point 1).

Every CLI option naming an output path (``grep add_argument gamecert/commands``: ``tests --out``,
``certify --report-dir``, ``prove --plot-dir``, ``new-game --dir``) is pointed at a folder holding
the user's ``keep.txt``; the file must be there afterwards, byte for byte. ``tests --out`` on such a
folder is refused in one line (exit 2) before any work. A package is replaced only when the folder
is gamecert's own (its mark lists every file it holds), through renames. Controls: the check that
``keep.txt`` survived fails on a writer that empties the folder (the package writer with its
folder check removed).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine.testpack import outdir as tp
from gamecert.engine.testpack import testset as ts

ROOT = Path(__file__).resolve().parent.parent
KEEP = b"the user's own notes\n"


def _cli(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, GAMECERT_CACHE=os.environ.get("GAMECERT_CACHE", "/tmp/gc-cache-tests"))
    return subprocess.run(
        [sys.executable, "-m", "gamecert", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd or ROOT,
        env=env,
    )


def _user_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "keep.txt").write_bytes(KEEP)
    return folder


def _kept(folder: Path) -> bool:
    keep = folder / "keep.txt"
    return keep.is_file() and keep.read_bytes() == KEEP


def test_output_options_are_all_covered():
    """The options naming an output path are the ones this file tests (a new one must be added here)."""
    import re

    text = "".join(p.read_text() for p in (ROOT / "gamecert" / "commands").glob("*.py"))
    options = set(re.findall(r'add_argument\(\s*"(--(?:out|[a-z-]*dir))"', text))
    assert options == {"--out", "--report-dir", "--plot-dir", "--dir"}, options


def test_tests_out_refuses_a_folder_of_the_users(tmp_path):
    """``gamecert tests GAME --out DIR`` with the user's keep.txt in DIR: one line, exit 2, at once
    (before any build), keep.txt untouched; a sub-folder of the user's too."""
    folder = _user_folder(tmp_path)
    run = _cli("tests", "word_game", "--out", str(folder))
    assert (
        run.returncode == 2
        and "not a gamecert package" in run.stderr
        and len(run.stderr.strip().splitlines()) == 1
    )
    assert _kept(folder) and sorted(p.name for p in folder.iterdir()) == ["keep.txt"]
    nested = tmp_path / "nested"
    (nested / "deep").mkdir(parents=True)
    (nested / "deep" / "x.txt").write_text("x")
    run = _cli("tests", "word_game", "--out", str(nested))
    assert run.returncode == 2 and (nested / "deep" / "x.txt").read_text() == "x"


def _fake_package(where: Path) -> Path:
    (where / "tests").mkdir(parents=True)
    (where / "tests" / "01").write_text("AB\n")
    (where / "README.md").write_text("# old package\n")
    return where


def test_a_package_is_replaced_only_when_it_is_gamecerts(tmp_path):
    """commit_out: into a new or an empty folder; over a folder gamecert marked as its package
    (replaced whole, by renames); never over a package the user added a file to, nor an unmarked
    folder (refused, everything kept)."""
    new = _fake_package(tmp_path / "build1")
    tp.commit_out(new, tmp_path / "pkg")
    assert (tmp_path / "pkg" / tp.MARK).is_file() and (tmp_path / "pkg" / "tests" / "01").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    tp.commit_out(_fake_package(tmp_path / "build2"), empty)
    assert (empty / "README.md").is_file()
    again = _fake_package(tmp_path / "build3")
    (again / "README.md").write_text("# new package\n")
    tp.commit_out(again, tmp_path / "pkg")
    assert (tmp_path / "pkg" / "README.md").read_text() == "# new package\n"
    assert not [
        p for p in tmp_path.iterdir() if p.name.startswith(".pkg-")
    ]  # no temporary folder left
    (tmp_path / "pkg" / "keep.txt").write_bytes(KEEP)
    with pytest.raises(ts.PackageError, match="keep.txt"):
        tp.commit_out(_fake_package(tmp_path / "build4"), tmp_path / "pkg")
    assert (
        _kept(tmp_path / "pkg")
        and (tmp_path / "pkg" / "README.md").read_text() == "# new package\n"
    )
    user = _user_folder(tmp_path)
    with pytest.raises(ts.PackageError, match="not a gamecert package"):
        tp.commit_out(_fake_package(tmp_path / "build5"), user)
    assert _kept(user)


def test_a_package_under_the_older_mark_name_is_still_gamecerts(tmp_path):
    """The mark is ``gamecert-package.txt`` (Kattis' verifyproblem refuses a file name starting
    with a dot); a package marked ``.gamecert-package`` by an older gamecert is still recognised:
    an edit in it is refused by name, and it is replaced, its old mark gone with it."""
    assert not tp.MARK.startswith(".")
    pkg = tmp_path / "pkg"
    tp.commit_out(_fake_package(tmp_path / "b1"), pkg)
    (pkg / tp.MARK).rename(pkg / tp.OLD_MARK)
    assert tp.foreign_files(pkg) == []
    (pkg / "tests" / "01").write_text("AB\n# the setter's test\n")
    with pytest.raises(ts.PackageError, match="tests/01 edited"):
        tp.check_out(pkg)
    tp.commit_out(_fake_package(tmp_path / "b2"), pkg, "discard")
    assert (pkg / tp.MARK).is_file() and not (pkg / tp.OLD_MARK).exists()
    # control: a folder holding the older mark's name with other text is no package of gamecert's
    (pkg / tp.MARK).unlink()
    (pkg / tp.OLD_MARK).write_text("my notes\n")
    with pytest.raises(ts.PackageError, match="not a gamecert package"):
        tp.check_out(pkg)


def test_control_an_unchecked_writer_loses_the_file(tmp_path, monkeypatch):
    """Control: with the folder check taken out of the package writer, the same call empties the
    user's folder, and the survival check above sees it."""
    user = _user_folder(tmp_path)
    monkeypatch.setattr(tp, "check_out", lambda out, edits="refuse": None)
    tp.commit_out(_fake_package(tmp_path / "build"), user)
    assert not _kept(user)


def test_an_edited_file_is_refused_kept_or_discarded(tmp_path):
    """A file gamecert wrote and the setter edited (issue 46): the rebuild refuses naming it, and
    keeps the old package whole; with edits "keep" the edit goes into the new package (and is seen
    again at the next rebuild: the mark keeps gamecert's hash); with "discard" gamecert's is
    written. Control: under a mark of the older form (names only) the same edit is lost without a
    word, which is what the hashes prevent."""
    pkg = tmp_path / "pkg"
    tp.commit_out(_fake_package(tmp_path / "b1"), pkg)
    assert "  tests/01" in (pkg / tp.MARK).read_text()
    tp.commit_out(_fake_package(tmp_path / "b2"), pkg)  # not edited: replaced without a word
    (pkg / "tests" / "01").write_text("AB\n# the setter's test\n")
    with pytest.raises(ts.PackageError, match="tests/01 edited since gamecert wrote it"):
        tp.commit_out(_fake_package(tmp_path / "b3"), pkg)
    with pytest.raises(ts.PackageError, match="--keep-edits"):
        tp.check_out(pkg)
    assert (pkg / "tests" / "01").read_text() == "AB\n# the setter's test\n"
    assert tp.commit_out(_fake_package(tmp_path / "b4"), pkg, "keep") == ["tests/01"]
    assert (pkg / "tests" / "01").read_text() == "AB\n# the setter's test\n"
    assert tp.edited_files(pkg) == ["tests/01"]
    assert tp.commit_out(_fake_package(tmp_path / "b5"), pkg, "discard") == []
    assert (pkg / "tests" / "01").read_text() == "AB\n" and tp.edited_files(pkg) == []
    # control: the older mark, names only
    names = [line.partition("  ")[2] for line in (pkg / tp.MARK).read_text().splitlines()[1:]]
    (pkg / tp.MARK).write_text("\n".join([tp.MARK_HEAD, *names]) + "\n")
    (pkg / "tests" / "01").write_text("AB\n# the setter's test\n")
    tp.commit_out(_fake_package(tmp_path / "b6"), pkg)
    assert (pkg / "tests" / "01").read_text() == "AB\n"


def test_tests_out_names_an_edited_script_at_once(tmp_path):
    """``gamecert tests GAME --out DIR`` over a package whose script.txt the setter edited: exit 2
    in one line naming script.txt, before any build; the edit is there afterwards."""
    build = _fake_package(tmp_path / "build")
    (build / "script.txt").write_text("gen 3 > 03\n")
    tp.commit_out(build, tmp_path / "pkg")
    (tmp_path / "pkg" / "script.txt").write_text("gen 4 > 03\n")
    run = _cli("tests", "word_game", "--out", str(tmp_path / "pkg"))
    assert run.returncode == 2 and "script.txt edited since gamecert wrote it" in run.stderr, (
        run.stderr
    )
    assert len(run.stderr.strip().splitlines()) == 1
    assert (tmp_path / "pkg" / "script.txt").read_text() == "gen 4 > 03\n"


@pytest.mark.slow
def test_report_dir_and_new_game_dir_keep_the_users_file(tmp_path):
    """``certify --report-dir DIR`` (a wrong program, so a report is written there) and
    ``new-game --dir DIR`` write beside keep.txt and never over it."""
    folder = _user_folder(tmp_path)
    run = _cli(
        "certify",
        "word_game",
        str(ROOT / "examples" / "word_game" / "wrong.py"),
        "--profile",
        "quick",
        "--budget",
        "2",
        "--phases",
        "coverage",
        "--report-dir",
        str(folder),
    )
    assert run.returncode == 1, run.stderr[-500:]
    assert _kept(folder) and (folder / "word_game").is_dir()
    (tmp_path / "games").mkdir()
    games = _user_folder(tmp_path / "games")
    run = _cli("new-game", "kept_game", "--dir", str(games))
    assert run.returncode == 0, run.stderr[-500:]
    assert _kept(games) and (games / "oracles" / "kept_game.py").is_file()


@pytest.mark.long
def test_plot_dir_keeps_the_users_file(tmp_path):
    """``prove GAME --plot-dir DIR`` (long: a proof run) writes its plot beside keep.txt."""
    folder = _user_folder(tmp_path)
    run = _cli("prove", "dawson_kayles", "--plot-dir", str(folder))
    assert run.returncode == 0, run.stderr[-500:]
    assert _kept(folder) and any(p.suffix == ".png" for p in folder.iterdir())
