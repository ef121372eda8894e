"""A package's generated tests (issue 39, point 1): files/gen.py and a recipe per test.

What is checked, for every registered game (a small Polygon package written from the plan's
first inputs: the samples, the largest inputs, one input of each designed family):
- every line `gen ARGS > N` of script.txt, run as ``python3 -I -S files/gen.py ARGS`` (no
  gamecert importable), writes tests/N byte for byte, and ``read_problem_xml`` reads the same
  recipes back; problem.xml lists every test as manual (its file is the test: no judge or
  converter has to run a Python generator); the tests without a recipe are named in the README
  section with the reason;
- an edited recipe (a run's count one less) gives a different test that the package's own
  validator accepts; a recipe past the game's bounds is refused by gen.py (exit 3, one line);
- controls: a gen.py whose runs come out one short is caught by the byte comparison (here, by
  ``read_problem_xml``, which makes every recipe of script.txt again) and by ``sh doall.sh gen``;
  ``read_problem_xml`` accepts generated tests (another package's) and refuses one without a cmd
  or whose cmd names no executable of the package, and a script.txt line that is not ``gen ARGS >
  N`` with N a test.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.testpack import polygon, recipes
from gamecert.engine.testpack import testpack as tp
from gamecert.engine.testpack import testset as ts

#: every registered game (`gamecert list`)
GAMES = tuple(registry.game_names())
#: what the broken control does to gen.py: every run one short
ONE_SHORT = (
    "    return chunk * _count(count, token)\n",
    "    return chunk * (_count(count, token) - (1 if star else 0))\n",
)


def _package(tmp_path: Path, name: str) -> tuple[Path, list[ts.Test]]:
    """A Polygon package of the plan's first inputs (no answers needed here, no kill matrix): the
    samples, the first largest input, the first input of each designed family (one test over a
    megabyte at most), the first two and
    the last two exhaustive inputs (the last are the largest of the space's first 40)."""
    entry = registry.get(name)
    pool = ts.build_pool(entry, 1, 40)
    tests, groups, huge = [], set(), 0
    for t in pool:
        if t.group == "samples" or (t.group not in groups and t.group != "exhaustive"):
            if (
                t.bytes > 1_000_000
            ):  # one test of megabytes is enough (each costs a second to make again)
                if huge:
                    continue
                huge += 1
            tests.append(t)
            groups.add(t.group)
    exhaustive = [t for t in pool if t.group == "exhaustive"]
    tests += exhaustive[:2] + exhaustive[-2:]
    out = tmp_path / name
    polygon.write_tests(out, tests)
    polygon.write_files(out, entry, entry.game.standalone_code, "polygon", tests)
    return out, tests


def _script(out: Path) -> list[tuple[list[str], int]]:
    lines = (out / "script.txt").read_text().splitlines()
    got = []
    for line in lines:
        m = re.fullmatch(r"gen (.+) > (\d+)", line)
        assert m, line
        got.append((m.group(1).split(), int(m.group(2))))
    return got


def _gen(out: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-I", "-S", str(out / "files" / "gen.py"), *args],
        capture_output=True,
        timeout=60,
    )


@pytest.mark.parametrize("name", GAMES)
def test_every_recipe_makes_its_test_byte_for_byte(name, tmp_path):
    """Every generated test of the game's package is written again, byte for byte, by gen.py run
    alone (python3 -I -S); read_problem_xml reads the same recipes; problem.xml lists every test
    as manual; the tests without a recipe are named with a reason in the README section."""
    out, tests = _package(tmp_path, name)
    script = _script(out)
    assert len(script) >= 3 and any(re.search(r"[*^]", " ".join(a)) for a, _ in script), script
    w = polygon.width(len(tests))
    for args, n in script:
        run = _gen(out, args)
        assert run.returncode == 0, run.stderr
        assert run.stdout == (out / "tests" / f"{n:0{w}d}").read_bytes(), (
            f"test {n}: gen {' '.join(args)[:80]}"
        )
    read = polygon.read_problem_xml(out)
    listed = read["scripted"]
    assert listed == {n: recipes.cmd(args) for args, n in script}
    assert read["generated"] == {}
    xml = (out / "problem.xml").read_text()
    assert (
        xml.count('<test method="manual"') == len(tests)
        and "python.3" not in xml.split("<solutions>")[0]
    )
    section = polygon.readme_section(out)
    manual = [k for k in range(1, len(tests) + 1) if k not in listed]
    assert all(f"`tests/{k:0{w}d}`: " in section for k in manual), section
    assert f"{len(script)} of {len(tests)} tests have a recipe" in section


@pytest.mark.parametrize("name", GAMES)
def test_an_edited_recipe_gives_a_valid_test(name, tmp_path):
    """A recipe with one run's count lowered by one (a test of megabytes: to a thousandth) gives
    a shorter test, which the package's own validator accepts; a count far past the game's
    bounds is refused by gen.py (exit 3, one line)."""
    out, _ = _package(tmp_path, name)
    validate = tp._load(polygon.script_path(out, "validator"), "validate")  # noqa: SLF001
    edited = 0
    w = polygon.width(len(list((out / "tests").glob("*.a"))))
    for args, n in _script(out):
        huge = (out / "tests" / f"{n:0{w}d}").stat().st_size > 1_000_000
        k = next(
            (
                i
                for i, a in enumerate(args)
                if re.search(r"[*^]\d+$", a) and int(re.split(r"[*^]", a)[-1]) > 2
            ),
            None,
        )
        if k is None:
            continue
        head, count = re.match(r"(.*[*^])(\d+)$", args[k]).groups()
        # far past the bounds (once a game): a batch of 101 games, or two million letters, piles or heaps
        far = 101 if head.endswith("^") else 2 * 10**6
        # one less; a test of megabytes (seconds of validation) a thousandth of its count
        less = max(2, int(count) // 1000) if huge else int(count) - 1
        for new, ok in ((less, True), *([(far, False)] if not edited else [])):
            changed = args[:k] + [f"{head}{new}"] + args[k + 1 :]
            run = _gen(out, changed)
            if ok:
                assert run.returncode == 0, run.stderr
                text = run.stdout.decode()
                assert validate(text) == "", (changed, validate(text))
                assert len(text.encode()) < (out / "tests" / f"{n:0{w}d}").stat().st_size
            else:
                assert run.returncode == 3 and run.stdout == b"", run
                assert run.stderr.decode().count("\n") == 1 and "refuses" in run.stderr.decode()
        edited += 1
    assert edited >= 1, "no recipe with a run to edit"


def test_a_broken_gen_is_caught(tmp_path):
    """Control: a gen.py whose runs come out one short makes read_problem_xml fail (it makes every
    recipe of script.txt again and compares the bytes) and `sh doall.sh gen` exit 1 naming the tests;
    the right gen.py passes both."""
    out, _ = _package(tmp_path, "string_cut")
    run = subprocess.run(
        ["sh", str(out / "doall.sh"), "gen"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0 and "made again byte for byte" in run.stdout, run.stdout + run.stderr
    gen = out / "files" / "gen.py"
    good = gen.read_text()
    assert good.count(ONE_SHORT[0]) == 1
    gen.write_text(good.replace(*ONE_SHORT))
    with pytest.raises(ts.PackageError, match="byte for byte"):
        polygon.read_problem_xml(out)
    run = subprocess.run(
        ["sh", str(out / "doall.sh"), "gen"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1 and "does not make tests/" in run.stdout, run.stdout + run.stderr


def test_problem_xml_generated_tests(tmp_path):
    """read_problem_xml accepts a generated test (as another package has one: the package's test
    turned into `gen ARGS` with files/gen.py listed as an executable; its command returned and
    made again), and refuses a generated test without a cmd, one whose cmd names no executable of
    the package, and script.txt lines that are not `gen ARGS > N` with N a test."""
    out, tests = _package(tmp_path, "dawson_kayles")
    k, command = next(iter(polygon.read_problem_xml(out)["scripted"].items()))
    text = (out / "problem.xml").read_text()
    marker = '<test method="manual"'
    parts = text.split(marker)
    assert len(parts) == len(tests) + 1
    # the k-th test (k-th marker) generated by its recipe
    generated = (
        marker.join(parts[:k])
        + f'<test cmd="{command}" method="generated"'
        + marker.join(parts[k:])
    )
    generated = generated.replace(
        "<executables>",
        '<executables>\n<executable><source path="files/gen.py" type="python.3" /></executable>',
    )
    (out / "problem.xml").write_text(generated)
    assert polygon.read_problem_xml(out)["generated"] == {k: command}
    first = f'<test cmd="{command}" method="generated"'
    for broken, fault in (
        (generated.replace(first, '<test method="generated"', 1), "generated with a cmd"),
        (
            generated.replace(first, first.replace('cmd="gen ', 'cmd="nogen '), 1),
            "not an executable",
        ),
    ):
        (out / "problem.xml").write_text(broken)
        with pytest.raises(ts.PackageError, match=fault):
            polygon.read_problem_xml(out)
    (out / "problem.xml").write_text(text)
    script = (out / "script.txt").read_text()
    for broken in (script + "gen 3\n", script + f"gen 3 > {len(tests) + 1}\n"):
        (out / "script.txt").write_text(broken)
        with pytest.raises(ts.PackageError, match="script.txt, line"):
            polygon.read_problem_xml(out)


def test_recipes_are_short_and_exact():
    """The run form: a repeated chunk is one run, a random part stays written out, and a test
    whose run form is over the limit has no recipe (manual)."""
    assert recipes.encode("ab" * 2350 + "c")[0] == ["ab*2350", "c"]
    assert recipes.encode((1000,) * 500 + (3, 5, 3, 5, 3, 5, 7))[0] == ["1000*500", "3,5*3", "7"]
    assert recipes.encode(("21", "12") * 25 + ("7" * 30,))[0] == ["21/12^25", "7*30"]
    import random

    rng = random.Random(1)
    noise = "".join(rng.choice("ab") for _ in range(5000))
    args, why = recipes.encode(noise)
    assert args is None and "over 1000 characters" in why
    assert recipes.encode("a b")[0] is None
