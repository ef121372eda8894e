"""A DMOJ package (``gamecert tests GAME --format dmoj``, issue 39): init.yml as DMOJ's judge loads it.

What is checked: the written ``init.yml``, parsed with PyYAML as DMOJ's judge parses it, holds only
keys DMOJ documents (``test_cases`` of normal cases with ``in``, ``out`` and integer ``points``;
the ``bridged`` checker with ``files``, ``lang`` and ``type: testlib``), names every test file of
the package and no other, in order, and the checker's source exists; controls: a package with a
test's answer file missing, the checker's source missing, an undocumented key, or a case without
points is refused, naming the fault.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.testpack import dmoj, polygon
from gamecert.engine.testpack import testset as ts

yaml = pytest.importorskip("yaml")


def _package(tmp_path: Path, name: str = "word_game") -> Path:
    entry = registry.get(name)
    tests = ts.build_pool(entry, 1, 2)[:7]
    ts.expected_texts(entry, tests)
    out = tmp_path / "pkg"
    polygon.write_tests(out, tests)
    polygon.write_files(out, entry, entry.game.standalone_code, "dmoj", tests)
    return out


def test_init_yml_is_what_dmoj_documents(tmp_path):
    """init.yml parsed with yaml: documented keys only, one normal case a test (tests/NN in,
    tests/NN.a out, 1 point) naming every test file present and nothing else, the bridged
    testlib checker over files/check.cpp (present), no Polygon files."""
    out = _package(tmp_path)
    data = yaml.safe_load((out / "init.yml").read_text())
    assert set(data) == {"checker", "test_cases"} <= dmoj.TOP_KEYS
    cases = data["test_cases"]
    assert all(set(c) == {"in", "out", "points"} and c["points"] == 1 for c in cases)
    named = {c["in"] for c in cases} | {c["out"] for c in cases}
    present = {f"tests/{p.name}" for p in (out / "tests").iterdir()}
    assert named == present and len(cases) == 7
    assert [c["in"] for c in cases] == [f"tests/{k:02d}" for k in range(1, 8)]
    assert all(c["out"] == c["in"] + ".a" for c in cases)
    checker = data["checker"]
    assert checker["name"] == "bridged" and set(checker["args"]) <= dmoj.BRIDGED_ARGS
    assert checker["args"]["type"] == "testlib" and checker["args"]["lang"] == "CPP17"
    assert (out / checker["args"]["files"]).is_file() and checker["args"]["files"] == "files/check.cpp"
    assert dmoj.read_init_yml(out) == {"cases": [(c["in"], c["out"]) for c in cases], "checker": ["files/check.cpp"]}
    assert not (out / "problem.xml").exists() and not polygon.is_polygon(out) and dmoj.is_dmoj(out)
    # the limits are the site's settings: init.yml says so in a comment, with the game's figures
    game = registry.get("word_game").game
    assert f"memory limit {game.memory_limit_mb << 10} KB" in (out / "init.yml").read_text()


def test_a_broken_package_is_refused(tmp_path):
    """Controls: a missing answer file, a missing checker source, an undocumented key and a case
    without points each make read_init_yml refuse the package, naming the fault."""
    out = _package(tmp_path)
    text = (out / "init.yml").read_text()
    (out / "tests" / "03.a").rename(out / "tests" / "03.b")
    with pytest.raises(ts.PackageError, match="03.a"):
        dmoj.read_init_yml(out)
    (out / "tests" / "03.b").rename(out / "tests" / "03.a")
    (out / "files" / "check.cpp").rename(out / "files" / "check.cc")
    with pytest.raises(ts.PackageError, match="check.cpp"):
        dmoj.read_init_yml(out)
    (out / "files" / "check.cc").rename(out / "files" / "check.cpp")
    dmoj.read_init_yml(out)  # whole again
    for broken, fault in ((text + "time_limit: 2\n", "time_limit"),
                          (text.replace(", points: 1}", "}", 1), "points"),
                          (text.replace("type: testlib", "type: default"), "testlib")):
        (out / "init.yml").write_text(broken)
        with pytest.raises(ts.PackageError, match=fault):
            dmoj.read_init_yml(out)
