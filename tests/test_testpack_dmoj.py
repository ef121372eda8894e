"""A DMOJ package (``gamecert tests GAME --format dmoj``, issue 39): init.yml as DMOJ's judge loads it.

What is checked: the written ``init.yml``, parsed with PyYAML as DMOJ's judge parses it, holds only
keys DMOJ documents (``test_cases`` of normal cases with ``in``, ``out`` and integer ``points``;
the ``bridged`` checker with ``files``, ``lang`` and ``type: testlib``), names every test file of
the package and no other, in order, and the checker's source exists; controls: a package with a
test's answer file missing, the checker's source missing, an undocumented key, or a case without
points is refused, naming the fault. Long (issue 46): DMOJ's own judge (``dmoj`` from PyPI,
which needs ``libseccomp-dev`` from apt) judges a string_cut package: the right program AC on
every case, the wrong one with gamecert's verdict on each, the checker's message as feedback.
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
    assert (out / checker["args"]["files"]).is_file() and checker["args"][
        "files"
    ] == "files/check.cpp"
    assert dmoj.read_init_yml(out) == {
        "cases": [(c["in"], c["out"]) for c in cases],
        "checker": ["files/check.cpp"],
    }
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
    for broken, fault in (
        (text + "time_limit: 2\n", "time_limit"),
        (text.replace(", points: 1}", "}", 1), "points"),
        (text.replace("type: testlib", "type: default"), "testlib"),
    ):
        (out / "init.yml").write_text(broken)
        with pytest.raises(ts.PackageError, match=fault):
            dmoj.read_init_yml(out)


def _judge_with_dmoj(tmp_path: Path, problem: Path, program: Path) -> list[tuple[str, str]]:
    """(verdict, feedback) per case, as DMOJ's own judge (``dmoj-cli``, a local judge) gives them."""
    import re
    import shutil
    import subprocess

    conf = tmp_path / "judge.yml"
    conf.write_text(
        f"problem_storage_globs:\n  - {problem.parent}/*\nruntime:\n  python3: {shutil.which('python3')}\n"
        f"  g++: {shutil.which('g++')}\n  g++17: {shutil.which('g++')}\n  gcc: {shutil.which('gcc')}\n"
    )
    done = subprocess.run(
        ["dmoj-cli", "-c", str(conf)],
        input=f"submit {problem.name} PY3 {program}\n",
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    text = done.stdout + done.stderr
    cases = re.findall(r"Test case\s+\d+ (\w+) \[[^]]*\] \(#ansi\[(.*?)\n", text)
    assert cases, text[-3000:]
    return cases


@pytest.mark.long
@pytest.mark.skipif(
    __import__("shutil").which("dmoj-cli") is None or __import__("shutil").which("g++") is None,
    reason="DMOJ's judge is not on PATH (pip install dmoj; it builds with libseccomp-dev from apt) or no g++",
)
def test_dmoj_judges_as_gamecert_does(tmp_path):
    """string_cut's DMOJ package under DMOJ's own judge: the right program AC on every case; the
    wrong one (examples/string_cut/wrong.py) given on each case the verdict gamecert's judge gives
    its output (a WA with the checker's message as DMOJ's feedback, read from its stdout); control:
    the wrong program is rejected on at least one case."""
    import subprocess
    import sys

    from gamecert.kit.tokens import verdict_of, verdict_under_testlib

    root = Path(__file__).resolve().parent.parent
    entry = registry.get("string_cut")
    pool = ts.build_pool(entry, 1, 2)
    tests = [t for t in pool if t.group == "samples"] + [t for t in pool if t.group != "samples"][
        :6
    ]
    answers = ts.expected_texts(entry, tests)
    problem = tmp_path / "problems" / "stringcut"
    polygon.write_tests(problem, tests)
    polygon.write_files(problem, entry, entry.game.standalone_code, "dmoj", tests)
    right = _judge_with_dmoj(tmp_path, problem, root / "examples" / "string_cut" / "correct.py")
    assert [v for v, _ in right] == ["AC"] * len(tests), right
    wrong_program = root / "examples" / "string_cut" / "wrong.py"
    got = _judge_with_dmoj(tmp_path, problem, wrong_program)
    want = []
    for t, a in zip(tests, answers):
        out = subprocess.run(
            [sys.executable, str(wrong_program)], input=t.text, capture_output=True, text=True
        )
        verdict, why = verdict_of(entry.game, t.instance, out.stdout, a)
        want.append({"OK": "AC"}.get(v := verdict_under_testlib(verdict.value, why), v))
    assert [v for v, _ in got] == want, (got, want)
    assert "WA" in want
    assert all(feedback.startswith("wrong answer ") for v, feedback in got if v == "WA"), got
