"""The guided phase (issue 37): the instrumented builds, the search's input-to-state step, the
evidence, the phase in a certification, and the wrong programs no family reaches.

Default run: the Python rewrite and the C runtime each run once outside the sandbox on a small
input (their coverage line read as the phase reads it), the input-to-state step on a made-up
record, a candidate without a route, and one short certification with the guided phase alone.
Long (``GAMECERT_LONG_TESTS=1``): every program in ``tests/guided_wrong/`` caught by the guided
phase under the default profile with seeds 1 and 2 (``--phases guided``: the samples and the
guided phase, which gets the same slice of the default budget as in a full certification), at
the smallest size its header states where it states one; and the control, the default profile's
every other phase with seed 1, certifies each of them.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.judge import guided, guided_phase
from gamecert.engine.run import instrument as inst
from gamecert.engine.run.sandbox import Candidate

ROOT = Path(__file__).resolve().parent.parent
WRONG = Path(__file__).resolve().parent / "guided_wrong"
PROGRAMS = sorted(
    p for p in WRONG.glob("*/*") if p.suffix in (".c", ".cpp", ".py", ".rs", ".js", ".java")
)
#: a JVM started per test: its certifications need the cores to itself, as the right Java
#: programs' do (tests/test_right_langs.py): the core runs first, and the guided phase gets the
#: time the core leaves, none on a machine loaded three certifications deep; so they run one at
#: a time after the other long tests
ALONE = (".java",)
#: searches that take a thousand runs or more of the instrumented build (the Rust progression, a
#: place-weighted residue z3 meets after the sum, m57h777's search below its fault to 834): each
#: measured at its smallest alone with both seeds, and missed at two or three long tests at once
#: (load 7-15 on 2 cores: m57h777 at 854 and 852), so they run alone too
SEARCH_ALONE = ("ap6_step7.rs", "weighted600.py", "m57h777.py")
CASES = [
    pytest.param(p, marks=pytest.mark.alone) if p.suffix in ALONE or p.name in SEARCH_ALONE else p
    for p in PROGRAMS
]
#: a runtime started per test (node, a JVM): the control certification (the whole default
#: profile) needs the cores to itself too
CONTROL_ALONE = (".js", ".java")
CONTROLS = [
    pytest.param(p, marks=pytest.mark.alone) if p.suffix in CONTROL_ALONE else p for p in PROGRAMS
]


def _run(argv: list[str], text: str) -> subprocess.CompletedProcess:
    return subprocess.run(argv, input=text, capture_output=True, text=True, timeout=60, check=False)


def test_python_rewrite_records_branch_sides_and_comparison_operands(tmp_path, monkeypatch):
    """The rewritten program answers as the original and ends its stderr with the record: the
    comparison m == 57 with its operands (3, 57), the sides its branches took; the evidence names
    the side never taken by line. Controls: the original program writes no record, and a rewrite
    that leaves comparisons alone gives no operands."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = WRONG / "dawson_kayles" / "m57h777.py"
    built = inst.instrument(Candidate.parse(str(program)))
    text = "3\n1 2 3\n"
    plain = _run([sys.executable, str(program)], text)
    rewritten = _run([sys.executable, str(built.candidate.python_file)], text)
    assert rewritten.stdout == plain.stdout and rewritten.returncode == 0
    cov = inst.read_coverage(rewritten.stderr, "python")
    assert cov is not None and ("i", 3, 57) in cov.cmps
    line = next(n for n, s in enumerate(program.read_text().splitlines(), 1) if "if m == 57" in s)
    assert any(site.line == line for key, site in built.sites.items() if key in cov.sites)
    ev = guided.evidence(built, set(cov.sites), 1)[0]
    assert f"line {line} `if m == 57 and heaps[0] == 777:` true side" in ev
    assert inst.read_coverage(plain.stderr, "python") is None
    monkeypatch.setattr(inst._Rewriter, "visit_Compare", lambda self, node: node)
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "other"))
    bare = inst.instrument(Candidate.parse(str(program)))
    cov = inst.read_coverage(
        _run([sys.executable, str(bare.candidate.python_file)], text).stderr, "python"
    )
    assert cov is not None and ("i", 3, 57) not in cov.cmps


@pytest.mark.skipif(
    any(not __import__("shutil").which(t) for t in ("gcc", "g++", "objdump", "addr2line")),
    reason="needs GCC and binutils",
)
def test_native_build_records_blocks_and_operands(tmp_path, monkeypatch):
    """The C build with GCC's coverage flags and gamecert's runtime: the comparison n == 987654
    with the input's count as an operand, blocks that are the program's own (each named by a line
    of its source), strcmp's strings; a C++ program with iostream (whose library calls strcmp
    before main) runs and answers. Control: the plain build writes no record."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = WRONG / "stones_once" / "magic987654.c"
    plain = Candidate.parse(str(program))
    built = inst.instrument(plain)
    done = _run(list(built.candidate.argv), "3\n1 2 3\n")
    assert done.stdout == "NO\n"
    cov = inst.read_coverage(done.stderr, "c")
    assert cov is not None
    assert {(3, 987654), (987654, 3)} & {(a, b) for k, a, b in cov.cmps if k == "i"}
    assert cov.sites and cov.sites <= set(built.sites)
    line = next(
        n for n, s in enumerate(program.read_text().splitlines(), 1) if "987654) total" in s
    )
    assert line in {s.line for s in built.sites.values()}
    assert inst.read_coverage(_run(list(plain.argv), "3\n1 2 3\n").stderr, "c") is None
    word = inst.instrument(Candidate.parse(str(WRONG / "word_game" / "zugzwang.c")))
    cov = inst.read_coverage(_run(list(word.candidate.argv), "ABC\n").stderr, "c")
    assert ("s", "ABC", "ZUGZWANG") in cov.cmps
    source = tmp_path / "io.cpp"
    source.write_text(
        "#include <iostream>\n#include <string>\nint main() { std::string w; std::cin >> w;"
        ' std::cout << (w == "AB" ? "Bob" : "Alice") << "\\n"; }\n'
    )
    cpp = inst.instrument(Candidate.parse(str(source)))
    done = _run(list(cpp.candidate.argv), "ABC\n")
    assert (
        done.returncode == 0
        and done.stdout == "Alice\n"
        and inst.read_coverage(done.stderr, "cpp") is not None
    )


def _search(game: str) -> guided.Search:
    entry = registry.get(game)
    search = guided.Search(entry, None, inst.Instrumented(None, "c", ""), 1, lambda i, t: None)
    search.st = entry.game.structure()
    return search


def test_input_to_state_puts_the_other_operand_where_one_stood():
    """A comparison of the pile count (3) with 9876 gives inputs of 9876 piles, and of the
    neighbours; a comparison whose operand stands nowhere in the input gives none of them
    (the control); a string compared with a game's word replaces it."""
    # (a constant of thousands, not a million: every candidate is made here, and the
    # difference steps make inputs of that many piles too: 145 s of the suite at 987,654)
    search = _search("stones_once")
    item = guided.Item((1, 2, 3), "3\n1 2 3\n", [(1, 2, 3)], inst.Coverage(cmps=(("i", 3, 9876),)))
    counts = {len(s[0]) for s in (make() for make in search.i2s(item)) if s is not None}
    assert {9876, 9875, 9877} <= counts
    item = guided.Item((1, 2, 3), "3\n1 2 3\n", [(1, 2, 3)], inst.Coverage(cmps=(("i", 5, 9876),)))
    assert not {len(s[0]) for s in (make() for make in search.i2s(item)) if s is not None} & {9876}
    words = _search("word_game")
    item = guided.Item(
        "ABC", "ABC\n", [tuple("ABC")], inst.Coverage(cmps=(("s", "ABC", "ZUGZWANG"),))
    )
    assert [tuple("ZUGZWANG")] in [make() for make in words.i2s(item)]
    assert words.build([tuple("ZUGZWANG")])[1] == "ZUGZWANG\n"
    assert words.build([tuple("zug")]) is None  # not a valid input: never run


def test_input_to_state_tries_a_comparison_no_kept_input_made_first_at_every_place():
    """A chain of comparisons met one by one (tests/guided_wrong/stones_once/ap6_step7.rs: each
    pile against the one before plus 7). The input 1 8 1 2 1 2, kept, compares its third pile (1)
    with 15, which no input kept before compared: its first candidates put 15 where a 1 stands,
    at each of the three places (the compared one is the second of them), before the candidates
    of a comparison an earlier input made (2 with 40). Control: an input kept after it, making
    the same comparisons, has none new, and its first candidate need not be one of them."""
    from gamecert.engine.judge.guided_mutate import I2S_FIRST

    search = _search("stones_once")
    piles = (1, 8, 1, 2, 1, 2)
    text = "6\n" + "\n".join(map(str, piles)) + "\n"

    def kept(cmps: tuple) -> guided.Item:
        item = guided.Item(piles, text, [piles], inst.Coverage(cmps=cmps))
        search.keep(item)
        return item

    kept((("i", 2, 40),))
    item = kept((("i", 2, 40), ("i", 1, 15)))
    assert item.novel == {("i", 1, 15)}
    first = [make() for make in search.i2s(item)[:I2S_FIRST]]
    assert first[:3] and all(s is not None and s[0].count(15) == 1 for s in first[:3])
    assert {s[0].index(15) for s in first[:3] if s is not None} == {0, 2, 4}
    again = kept((("i", 2, 40), ("i", 1, 15)))
    assert again.novel == frozenset()


def test_the_guided_phase_costs_a_fifth_of_the_budget_only_where_it_runs():
    """When the guided phase will run, coverage, worst and exhaustive end at 0.8 of their shares
    (the guided slice is 20% of the budget, under the issue's 25%); where it will not (an
    in-process solver, a language without a route: the control), their shares are untouched
    and the guided phase has no deadline to be cut by."""
    from types import SimpleNamespace

    from gamecert.engine.plan.plan import GUIDED_SHARE, SHARES

    assert GUIDED_SHARE <= 0.25
    runs, skips = SimpleNamespace(_guided_applies=True), SimpleNamespace(_guided_applies=False)
    assert guided_phase.share(runs, "coverage", SHARES["coverage"]) == pytest.approx(0.32)
    assert guided_phase.share(runs, "exhaustive", SHARES["exhaustive"]) == pytest.approx(0.68)
    assert guided_phase.share(runs, "random", SHARES["random"]) == SHARES["random"]
    assert guided_phase.share(skips, "coverage", SHARES["coverage"]) == SHARES["coverage"]
    assert guided_phase.share(skips, "guided", SHARES["guided"]) is None


def test_near_gives_the_operand_its_neighbours_and_the_float_it_rounds_to():
    """Numbers tried for an operand: itself, +-1, +-2, and past 2^24 the float32 it rounds to."""
    got = guided.near(2**24 + 3, random.Random(1))
    assert {2**24 + 3, 2**24 + 2, 2**24 + 4, 2**24 + 4 - 1} <= set(got)
    assert guided.near(33.25, random.Random(1)) == [32, 33, 34]


def test_a_candidate_without_a_route_is_told_why(tmp_path, monkeypatch):
    """A command line has no instrumented build: the reason is one line. A C program that builds
    plainly but not instrumented (it defines strcmp, which the runtime takes over) is told so."""
    with pytest.raises(inst.NoRoute, match="command line"):
        inst.instrument(Candidate.parse("sh -c true"))
    if any(not __import__("shutil").which(t) for t in ("gcc", "objdump", "addr2line")):
        return
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    source = tmp_path / "own.c"
    source.write_text(
        "#include <stdio.h>\nint strcmp(const char *a, const char *b) { return *a - *b; }\n"
        'int main(void) { puts(strcmp("a", "b") ? "Alice" : "Bob"); return 0; }\n'
    )
    plain = Candidate.parse(str(source))
    assert _run(list(plain.argv), "A\n").stdout == "Alice\n"
    with pytest.raises(
        inst.NoRoute, match="the instrumented build failed where the plain one built"
    ):
        inst.instrument(plain)


@pytest.mark.slow
def test_the_guided_phase_in_a_certification(tmp_path):
    """`certify --phases guided` of a right Python program: CERTIFIED, the phase's line, and the
    certificate's coverage evidence (branch sides taken, of how many); a command-line candidate
    gets the line saying the guided phase did not run and why, and is certified all the same."""
    env = {**os.environ, "GAMECERT_CACHE": str(tmp_path / "cache")}
    argv = [sys.executable, "-m", "gamecert", "certify", "word_game"]
    done = subprocess.run(
        [
            *argv,
            str(ROOT / "examples" / "word_game" / "correct.py"),
            "--phases",
            "guided",
            "--budget",
            "10",
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "  guided " in done.stdout
    cert = json.loads((Path(done.stdout.strip().splitlines()[-1]) / "certificate.json").read_text())
    notes = "\n".join(cert["notes"])
    assert "guided phase (python, measured on its" in notes and "branch sides taken" in notes
    correct = ROOT / "examples" / "word_game" / "correct.py"
    done = subprocess.run(
        [
            *argv,
            f"{sys.executable} {correct}",
            "--phases",
            "guided",
            "--budget",
            "5",
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    cert = json.loads((Path(done.stdout.strip().splitlines()[-1]) / "certificate.json").read_text())
    assert any(
        n.startswith("the guided phase did not run: the candidate is a command line")
        for n in cert["notes"]
    )


# ---- long: the wrong programs no family reaches ---------------------------------------------


def _smallest(path: Path) -> int | None:
    for line in path.read_text().splitlines()[:12]:
        if "smallest:" in line and "(size " in line:
            return int(line.rsplit("(size ", 1)[1].split(")")[0])
    return None


def _route_missing(program: Path) -> str:
    """What this machine lacks for ``program``'s build or its guided route ("" if nothing): a
    long test then skips, saying so (the route itself says it in the certificate)."""
    import shutil

    tools = {
        ".c": ("gcc", "objdump", "addr2line"),
        ".cpp": ("g++", "objdump", "addr2line"),
        ".rs": ("rustc", "objdump", "addr2line"),
        ".js": ("node",),
        ".java": ("javac", "java"),
    }.get(program.suffix, ())
    missing = [t for t in tools if shutil.which(t) is None]
    if program.suffix == ".java":
        from gamecert.engine.run.instrument_java import ASM_JARS

        if not any(Path(jar).is_file() for jar in ASM_JARS):
            missing.append("the ASM library (Debian: libasm-java)")
    return ", ".join(missing)


def _certify(tmp_path: Path, program: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    env = {k: v for k, v in os.environ.items() if k != "GAMECERT_EXHAUSTIVE_RUNS"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            program.parent.name,
            str(program),
            "--report-dir",
            str(tmp_path),
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=900,
    )
    folder = Path(done.stdout.strip().splitlines()[-1])
    name = "report.json" if done.returncode == 1 else "certificate.json"
    return done, json.loads((folder / name).read_text()) if (folder / name).exists() else {}


@pytest.mark.long
@pytest.mark.parametrize("program", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("seed", ["1", "2"])
def test_caught_by_the_guided_phase(tmp_path, program, seed):
    """The default profile, every phase, finds the fault through the guided phase (its slice of
    the budget), confirmed on the plain build, at the smallest size the header states."""
    if missing := _route_missing(program):
        pytest.skip(f"not on this machine: {missing}")
    done, report = _certify(tmp_path, program, "--seed", seed)
    assert done.returncode == 1, done.stdout + done.stderr
    assert report["verdict"] == "WA" and report["phase"] == "guided"
    smallest = _smallest(program)
    if smallest is not None:
        assert report["size"] == smallest, report["minimality"]


@pytest.mark.long
@pytest.mark.skipif(shutil.which("gcc") is None, reason="not on this machine: gcc")
def test_variance_float_smallest_is_the_scan_s(tmp_path):
    """variance_float.c's header states its smallest failing input; the scan of every input below
    140,000 stones in its float arithmetic (tests/scans/variance_float_smallest.c, built as the
    judge builds C) finds it. And tests/variance_float.py (its fault in Python, for in-process
    tests) answers as the program does: the smallest input fails, 2,392 of 54 and one 55 passes,
    on the program itself too."""
    from tests.variance_float import variance_float_fails

    program = WRONG / "stones_once" / "variance_float.c"
    scan, exe = tmp_path / "scan", tmp_path / "program"
    for src, out in (
        (ROOT / "tests" / "scans" / "variance_float_smallest.c", scan),
        (program, exe),
    ):
        subprocess.run(["gcc", "-O2", "-o", str(out), str(src), "-lm"], check=True)
    done = subprocess.run([str(scan), "140000"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    size, n = (int(x) for x in done.stdout.split()[1:3])
    assert size == _smallest(program) == 129_277 and n == 2394
    for piles in ((54,) * 2393 + (55,), (54,) * 2392 + (55,)):
        text = f"{len(piles)}\n" + "\n".join(map(str, piles)) + "\n"
        got = subprocess.run([str(exe)], input=text, capture_output=True, text=True).stdout.strip()
        right = "NO" if registry.get("stones_once").game.grundy(piles) else "YES"
        assert (got != right) == variance_float_fails(piles, text)
    assert variance_float_fails((54,) * 2393 + (55,), "") and not variance_float_fails(
        (54,) * 2392 + (55,), ""
    )


@pytest.mark.long
@pytest.mark.control
@pytest.mark.parametrize("program", CONTROLS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_certified_without_the_guided_phase(tmp_path, program):
    """The control: the default profile's every other phase, seed 1, certifies the program."""
    if (missing := _route_missing(program)) and "ASM" not in missing:  # (no route needed here)
        pytest.skip(f"not on this machine: {missing}")
    done, _ = _certify(
        tmp_path,
        program,
        "--phases",
        "samples,coverage,worst,exhaustive,random,largest",
        "--seed",
        "1",
    )
    assert done.returncode == 0, done.stdout[-3000:]


# ---- issue 47: comparison distance and the difference put back --------------------------------


@pytest.mark.skipif(
    any(not __import__("shutil").which(t) for t in ("gcc", "objdump", "addr2line")),
    reason="needs GCC and binutils",
)
def test_native_build_reports_how_close_each_comparison_came(tmp_path, monkeypatch):
    """The runtime reports, per comparison site, the closest its operands came: |sum - 777| for
    the derived sum of tests/guided_wrong/stones_once/sum777_mod3.c is 771 on three piles of 1, 2, 3
    and 3 on thirteen piles of 60 (780 stones); control: the plain build reports nothing."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = WRONG / "stones_once" / "sum777_mod3.c"
    built = inst.instrument(Candidate.parse(str(program)))
    far = inst.read_coverage(_run(list(built.candidate.argv), "3\n1 2 3\n").stderr, "c")
    close = inst.read_coverage(
        _run(list(built.candidate.argv), "13\n" + "60 " * 13 + "\n").stderr, "c"
    )
    assert far is not None and close is not None
    assert 771 in dict(far.near).values() and 3 in dict(close.near).values()
    site = next(s for s, d in far.near if d == 771)
    assert dict(close.near)[site] == 3
    assert (
        inst.read_coverage(_run(list(Candidate.parse(str(program)).argv), "3\n1 2 3\n").stderr, "c")
        is None
    )


def test_python_rewrite_reports_how_close_each_comparison_came(tmp_path, monkeypatch):
    """The Python rewrite reports |a - b| per comparison site, the least over the run: a derived
    sum compared with 777 is 771 away on piles 1, 2, 3; a rewrite that leaves comparisons alone
    (the control) reports no distance."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = tmp_path / "sum.py"
    program.write_text(
        "n = int(input())\npiles = list(map(int, input().split()))\n"
        "print('NO' if sum(piles) == 777 else 'YES')\n"
    )
    built = inst.instrument(Candidate.parse(str(program)))
    done = _run([sys.executable, str(built.candidate.python_file)], "3\n1 2 3\n")
    cov = inst.read_coverage(done.stderr, "python")
    assert done.stdout == "YES\n" and cov is not None and [d for _, d in cov.near] == [771]
    monkeypatch.setattr(inst._Rewriter, "visit_Compare", lambda self, node: node)
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "other"))
    bare = inst.instrument(Candidate.parse(str(program)))
    cov = inst.read_coverage(
        _run([sys.executable, str(bare.candidate.python_file)], "3\n1 2 3\n").stderr, "python"
    )
    assert cov is not None and cov.near == ()


def test_an_input_that_brings_a_comparison_closer_is_kept():
    """A site's first distance is only noted; a smaller one later is closer (the input is kept),
    an equal or larger one is not (the control)."""
    search = _search("stones_once")
    assert not search.closer(inst.Coverage(near=((7, 10),)))
    assert search.closer(inst.Coverage(near=((7, 5),)))
    assert not search.closer(inst.Coverage(near=((7, 5),)))
    assert not search.closer(inst.Coverage(near=((7, 9), (8, 100))))
    assert search.closer(inst.Coverage(near=((8, 99),)))


def test_the_difference_of_derived_operands_is_put_back():
    """A comparison of a derived sum (780 stones in thirteen piles of 60) with 777 gives inputs
    whose values sum to 777 (the difference spread over the parts, none past the input's
    greatest value) and a count 3 lower; a comparison with an operand the input holds
    (the count, 13) gives no such input (the control: input to state handles it)."""
    search = _search("stones_once")
    state = [(60,) * 13]
    item = guided.Item(None, "", state, inst.Coverage(cmps=(("i", 780, 777),)))
    made = [s for s in (make() for make in search.i2s(item)) if s is not None]
    assert any(sum(s[0]) == 777 and len(s[0]) == 13 for s in made)
    assert any(len(s[0]) == 10 for s in made)
    item = guided.Item(None, "", state, inst.Coverage(cmps=(("i", 13, 777),)))
    made = [s for s in (make() for make in search.i2s(item)) if s is not None]
    assert not any(sum(s[0]) == 777 and len(s[0]) == 13 for s in made)
    assert search.spread(state, 0, 1) is None  # past the input's greatest value: does not fit


def test_a_list_compared_with_the_inputs_values_is_put_in_their_place(tmp_path, monkeypatch):
    """The Python rewrite records a comparison of two lists of integers (the sorted piles of
    tests/guided_wrong/stones_once/multiset.py against its table entry); the search sets the
    game's parts to the other list where one holds the game's values in some order, and not where
    neither does (the control)."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = WRONG / "stones_once" / "multiset.py"
    built = inst.instrument(Candidate.parse(str(program)))
    cov = inst.read_coverage(
        _run([sys.executable, str(built.candidate.python_file)], "5\n58 5 17 29 41\n").stderr,
        "python",
    )
    assert cov is not None and ("l", (5, 17, 29, 41, 58), (5, 17, 29, 42, 58)) in cov.cmps
    search = _search("stones_once")
    state = [(58, 5, 17, 29, 41)]
    item = guided.Item(
        None, "", state, inst.Coverage(cmps=(("l", (5, 17, 29, 41, 58), (5, 17, 29, 42, 58)),))
    )
    assert [(5, 17, 29, 42, 58)] in [make() for make in search.i2s(item)]
    item = guided.Item(
        None, "", state, inst.Coverage(cmps=(("l", (1, 2, 3), (5, 17, 29, 42, 58)),))
    )
    assert [(5, 17, 29, 42, 58)] not in [make() for make in search.i2s(item)]


def test_after_a_fault_the_search_goes_on_below_its_size():
    """Issue 47, point 4: once a fault stands (here: any input of 40 stones or more fails), the
    search runs only inputs smaller than the smallest fault found, each new one lowering the bar,
    and says so; control: with ``smaller=False`` it stops at the first fault."""
    from types import SimpleNamespace

    entry = registry.get("stones_once")
    size = entry.game.size

    class Judge:
        def __init__(self) -> None:
            self.sizes: list[int] = []
            self.last_result = SimpleNamespace(stderr_tail="")

        def run_one(self, inst, phase, text=None, what=""):
            self.sizes.append(size(inst))
            return SimpleNamespace(verdict="WA") if size(inst) >= 40 else None

    def search_with(smaller: bool) -> tuple[guided.Search, Judge, list[int]]:
        judge, found = Judge(), []

        def suspect(inst, text):
            found.append(size(inst))
            return SimpleNamespace(size=size(inst))

        search = guided.Search(entry, judge, inst.Instrumented(None, "c", ""), 1, suspect)
        search.search(
            [(1, 2, 3), (60, 60), (5, 5, 5)], __import__("time").monotonic() + 3, smaller=smaller
        )
        return search, judge, found

    search, judge, found = search_with(True)
    assert found and found == sorted(found, reverse=True) and len(set(found)) == len(found)
    first = judge.sizes.index(found[0])
    bars = iter(found)
    bar = next(bars)
    for s in judge.sizes[first + 1 :]:
        assert s < bar
        if s == (found[found.index(bar) + 1] if found.index(bar) + 1 < len(found) else None):
            bar = next(bars)
    assert len(found) > 1 and found[-1] < found[0]
    assert any("searched below it" in line for line in search.report.lines)
    _, judge, found = search_with(False)
    assert len(found) == 1 and judge.sizes[-1] == found[0]


# ---- issue 47: conditions solved with z3 (Python) -----------------------------------------------


def _sym_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> inst.Coverage:
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = WRONG / "stones_once" / "weighted600.py"
    built = inst.instrument(Candidate.parse(str(program)))
    done = _run([sys.executable, str(built.candidate.python_file)], text)
    assert done.stdout == _run([sys.executable, str(program)], text).stdout
    cov = inst.read_coverage(done.stderr, "python")
    assert cov is not None
    return cov


def test_python_rewrite_follows_the_input_through_the_arithmetic(tmp_path, monkeypatch):
    """The rewrite of tests/guided_wrong/stones_once/weighted600.py on three piles 1, 2, 3
    records ``sum(piles) == 600`` as the sum of tokens 1..3 (6 at the input's values, 600 at
    others), then the weighted sum's residue (1 + 4 + 9 = 14); the xor and the answer's
    comparisons, which do not follow the input's arithmetic, are not recorded. Control: the
    rewrite without the symbolic prologue records no expression."""
    from gamecert.engine.judge import guided_solve

    cov = _sym_record(tmp_path, monkeypatch, "3\n1 2 3\n")
    rec = cov.sym
    assert rec is not None and len(rec.events) == 1  # `and` stops at the first: 6 != 600
    site, op, left, right, outcome = rec.events[0]
    assert (op, right, outcome) == ("Eq", (600,), False)
    assert rec.reach(rec.events[0]) == {1, 2, 3}
    values = {1: 1, 2: 2, 3: 3}
    assert guided_solve.terms(rec, values.__getitem__)[left] == 6
    assert guided_solve.terms(rec, {1: 100, 2: 200, 3: 300}.__getitem__)[left] == 600
    # a fourth token's record: the count and the piles' weighted residue once the sum is met
    cov = _sym_record(tmp_path, monkeypatch, "10\n" + " ".join(["60"] * 10) + "\n")
    events = cov.sym.events
    assert [e[1:3] for e in events][0][0] == "Eq" and events[0][4] is True
    weighted = guided_solve.terms(cov.sym, lambda k: 60)[events[1][2]]
    assert weighted == 60 * 55 % 1009 and events[1][3] == (777,)
    monkeypatch.setattr(  # the hooks, doing nothing
        inst,
        "SYM_PROLOGUE",
        "def _gs_cmp(i, a, b, op, r):\n    return a, b\n"
        "def _gs_truth(i, v):\n    pass\n"
        "def _gs_field():\n    return ''\n",
    )
    cov = _sym_record(tmp_path / "bare", monkeypatch, "3\n1 2 3\n")
    assert cov.sym is None


def test_z3_writes_the_input_for_a_comparison_never_met(monkeypatch):
    """Given the record of ten piles of 5 (sum 50), z3 writes ten piles summing to 300, each
    within the game's bounds; then, on ten piles of 30, piles whose place-weighted sum is 777
    mod 1009 with the sum 300 kept (the path to it). Controls: a condition no input of ten piles
    of at most 60 meets (a sum of 601) gives nothing, and neither does an outcome a run already
    had."""
    from gamecert.engine.judge import guided_solve
    from gamecert.engine.run.instrument_sym import SymRecord

    search = _search("stones_once")
    search.sym_high = (60, 100)
    # z3's time, generous (a busy machine): the search's own share and timeout left out here
    search.sym_began = -1e9
    monkeypatch.setattr(guided_solve, "SOLVE_MS", 5_000)
    tokens = {k: ("t", k, 0) for k in range(1, 11)}
    nodes: dict[int, tuple] = dict(tokens)
    last: object = 1
    for k in range(2, 11):  # the sum, as the program's additions make it
        nodes[100 + k] = ("+", last, k)
        last = 100 + k
    for k in range(1, 11):  # the weighted sum
        nodes[200 + k] = ("*", (k,), k)
    last = 201
    for k in range(2, 11):
        nodes[300 + k] = ("+", last, 200 + k)
        last = 300 + k
    nodes[400] = ("%", last, (1009,))
    state = [(5,) * 10]
    rec = SymRecord(nodes, [(7, "Eq", 110, (300,), False)])
    got = search.ask(rec, 0, state, "10\n" + "5 " * 10 + "\n", counts=False)
    assert got is not None and got[0] is not None and not got[1]
    assert sum(got[0][0]) == 300 and all(1 <= v <= 60 for v in got[0][0])
    rec = SymRecord(nodes, [(7, "Eq", 110, (300,), True), (8, "Eq", 400, (777,), False)])
    state = [(30,) * 10]
    got = search.ask(rec, 1, state, "10\n" + "30 " * 10 + "\n", counts=False)
    assert got is not None and got[0] is not None
    piles = got[0][0]
    assert sum(piles) == 300 and sum((i + 1) * p for i, p in enumerate(piles)) % 1009 == 777
    broken = SymRecord(nodes, [(7, "Eq", 110, (601,), False)])
    state = [(5,) * 10]
    assert search.ask(broken, 0, state, "10\n" + "5 " * 10 + "\n", counts=False) is None
    item = guided.Item(None, "10\n" + "30 " * 10 + "\n", [(30,) * 10], inst.Coverage(sym=rec))
    assert len(search.solve(item)) == 2
    search.sym_sides |= {(7, False), (8, True)}
    assert search.solve(item) == []
    assert guided_solve.condition("Lt", 1, 2) is True


_FOLLOWED = """\
import copy, pickle, threading
from sys import stdin


def main():
    n = int(stdin.readline())
    a = list(map(int, stdin.readline().split()))
    b, c = copy.deepcopy(a), pickle.loads(pickle.dumps(a))
    assert isinstance(n, int) and all(isinstance(x, int) for x in b)
    s = sum(b) + sum(c) + max(a) ** 2 + pow(a[0], 3, 7) + divmod(a[0], 2)[1] + (~a[0])
    print(s, len(a), f"{a[0]:05d}", "%d" % a[-1], int("12"), int(3.7), str(a[0]).zfill(3))


t = threading.Thread(target=main)
t.start()
t.join()
"""


def test_the_followed_numbers_behave_as_the_programs_own(tmp_path, monkeypatch):
    """A program that copies, pickles, formats and type-checks the numbers it read, in a thread,
    answers the same rewritten as plain. Control: without the followed integer's ``__reduce__``
    (a pickle of it would call its constructor with one argument) the rewrite fails."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    program = tmp_path / "followed.py"
    program.write_text(_FOLLOWED)
    plain = _run([sys.executable, str(program)], "3\n4 5 6\n")
    assert plain.returncode == 0 and plain.stdout
    built = inst.instrument(Candidate.parse(str(program)))
    done = _run([sys.executable, str(built.candidate.python_file)], "3\n4 5 6\n")
    assert done.stdout == plain.stdout and done.returncode == 0
    broken = inst.SYM_PROLOGUE.replace("_GsInt.__reduce__ =", "_gs_unused =")
    assert broken != inst.SYM_PROLOGUE
    monkeypatch.setattr(inst, "SYM_PROLOGUE", broken)
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "broken"))
    built = inst.instrument(Candidate.parse(str(program)))
    assert (
        _run([sys.executable, str(built.candidate.python_file)], "3\n4 5 6\n").stdout
        != plain.stdout
    )


def test_relations_fitted_to_native_comparisons_and_met(monkeypatch):
    """A site whose distance from 2026 is, on three inputs, that of the piles' sum of squares is
    fitted to it (and a site whose distances follow no function of the input to no relation: the
    control); z3 then writes piles of a count 3 mod 5 whose squares sum to 2026, and nothing for
    a sum of squares no three piles of at least one stone have (the control)."""
    from gamecert.engine.judge import guided_fit

    rows = []
    for piles in ((1, 2, 3), (10, 10), (44, 9, 3, 1)):
        seen = [guided_fit.features(list(piles))]
        rows.append((seen, abs(seen[0]["squares"] - 2026)))
    assert ("squares", 0, 2026) in guided_fit.fits(rows, {2026, 7})
    noise = [(rows[0][0], 5), (rows[1][0], 900), (rows[2][0], 17)]
    assert not [f for f in guided_fit.fits(noise, {2026, 7}) if f[2] == 2026]
    search = _search("stones_once")
    search.sym_high = (60, 100)
    # z3's time, generous (a busy machine): the search's own share and timeout left out here
    search.sym_began = -1e9
    monkeypatch.setattr(guided_fit, "FIT_MS", 5_000)
    made = search.met([(1,) * 6], [("squares", 0, 2026), ("count", 5, 3)])
    assert made is not None and len(made[0]) % 5 == 3
    assert sum(p * p for p in made[0]) == 2026 and all(1 <= p <= 60 for p in made[0])
    assert search.met([(1,) * 3], [("squares", 0, 2), ("count", 0, 3)]) is None


# ---- issue 47: near-constant inputs where a float is compared -----------------------------------


def _level_search(
    monkeypatch: pytest.MonkeyPatch, cmps: tuple, seconds: float
) -> tuple[guided.Search, list]:
    """A guided search of stones_once whose every run records ``cmps`` and fails (WA) only on a
    near-constant input: 2,048 piles or more, all at 54 stones but one at 55 (the shape of
    tests/guided_wrong/stones_once/variance_float.c's fault); it stops at the first fault."""
    from types import SimpleNamespace

    from gamecert.engine.judge import guided_level

    entry = registry.get("stones_once")
    monkeypatch.setattr(  # (a run's feature: its count of piles, so that some are kept)
        guided,
        "read_coverage",
        lambda text, language: inst.Coverage(features=frozenset({text}), cmps=cmps),
    )
    # (the counts kept low and the share high: the made inputs are formatted and parsed here)
    monkeypatch.setattr(guided_level, "HIGH", 4096)
    monkeypatch.setattr(guided_level, "SHARE", 0.9)
    made: list = []

    class Judge:
        last_result = SimpleNamespace(stderr_tail="")

        def run_one(self, piles, phase, text=None, what=""):
            made.append(len(piles))
            self.last_result = SimpleNamespace(stderr_tail=str(len(piles)))
            rest = sorted(set(piles[:-1]))
            wrong = len(piles) >= 2048 and rest == [54] and piles[-1] == 55
            return SimpleNamespace(verdict="WA") if wrong else None

    search = guided.Search(
        entry, Judge(), inst.Instrumented(None, "c", ""), 1, lambda i, t: SimpleNamespace(size=1)
    )
    search.search([(1, 2, 3), (60, 60), (5, 5, 5)], time.monotonic() + seconds, smaller=False)
    return search, made


def test_a_float_compared_brings_near_constant_inputs(monkeypatch):
    """Issue 47: once a run shows the program comparing two floats (a variance with 0), the
    search spends a share of its time on inputs of thousands of parts all at one level but one
    or two a step off, over every level a pile may take (1..60: none past the game's bound) and
    finds the fault only such an input shows; control: with no float compared (an integer
    comparison alone) it makes none of them, and the fault is not found."""
    from gamecert.engine.judge import guided_level

    began = time.monotonic()
    search, made = _level_search(monkeypatch, (("i", 3, 7), ("f", 1.5e-5, 0.0)), 60)
    took = time.monotonic() - began
    assert search.found is not None and search.level_runs > 0
    assert {v for v, _ in search.level_pairs} == set(range(1, 61))
    assert made[-1] >= guided_level.LOW
    # (the control searches as long as the fault took, twice over: a measure of this machine)
    search, made = _level_search(monkeypatch, (("i", 3, 7),), 2 * took)
    assert search.found is None and search.level_runs == 0


def test_near_constant_pairs_whose_odd_part_changes_the_answer_go_first(monkeypatch):
    """Of the (level, shape) pairs, those whose input's right answer differs from that of as many
    piles all at the level go first: for stones_once, a pile one step across a Grundy value's
    boundary (54 is worth 9, 55 is worth 10); the control: a judge whose every answer is the
    same puts nothing off, and the first pairs are mostly ones within a value's span."""
    from types import SimpleNamespace

    from gamecert.engine.judge import guided_level
    from gamecert.engine.judge.expected import expected_answer

    monkeypatch.setattr(guided_level, "LOW", 40)
    monkeypatch.setattr(guided_level, "HIGH", 64)
    entry = registry.get("stones_once")
    worth = {}
    k = 0
    for s in range(1, 61):
        k += (k + 1) * (k + 2) // 2 <= s
        worth[s] = k

    def crosses(odd: list[int], level: int) -> bool:
        return any(worth[v] != worth[level] for v in odd)

    # (the level: the value of the input's most parts; the odd ones: the rest)
    def pairs(expected) -> list[tuple[list[int], int]]:
        search = _search("stones_once")
        search.judge = SimpleNamespace(expected=expected)
        search.level_part, search.level_game = 1, (1, 2, 3)
        out: list[tuple[list[int], int]] = []
        while len(out) < 18:
            made = search.level_next()
            if made is None:  # (a level of 1 with a part one below it: none)
                continue
            parts = made[0]
            level = max(set(parts), key=parts.count)
            out.append(([v for v in set(parts) if v != level], level))
        return out

    right = pairs(lambda inst: expected_answer(entry, inst))
    assert all(crosses(odd, level) for odd, level in right)
    same = pairs(lambda inst: ("YES", "a constant"))
    assert sum(not crosses(odd, level) for odd, level in same) > 9


def _below_search(
    monkeypatch: pytest.MonkeyPatch, seconds: float, near: list[bool] | None = None
) -> list[int]:
    """A guided search of stones_once whose runs fail as variance_float.c does (its float
    arithmetic, in tests/variance_float.py) and record a float compared; every fault it hands
    back stands (its size, unshrunk). The sizes of the faults in turn; it stops at 129,277.
    ``near``: whether each fault was handed back from a near-constant input (it shrinks briefly)."""
    from types import SimpleNamespace

    from gamecert.engine.judge.expected import expected_answer
    from tests.variance_float import variance_float_fails

    entry = registry.get("stones_once")
    monkeypatch.setattr(
        guided,
        "read_coverage",
        lambda text, language: inst.Coverage(
            features=frozenset({text[:1]}), cmps=(("f", 1.5e-5, 0.0),)
        ),
    )
    sizes: list[int] = []

    class Judge:
        last_result = SimpleNamespace(stderr_tail="")

        def run_one(self, piles, phase, text=None, what=""):
            self.last_result = SimpleNamespace(stderr_tail=str(len(piles) % 7))
            return SimpleNamespace(verdict="WA") if variance_float_fails(piles, text) else None

        def expected(self, piles):
            return expected_answer(entry, piles)

    def suspect(piles, text):
        sizes.append(sum(piles))
        if near is not None:
            near.append(search.near_constant)
        search.smaller = sizes[-1] > 129_277  # (the smallest of all: the search may stop)
        return SimpleNamespace(size=sizes[-1])

    search = guided.Search(entry, Judge(), inst.Instrumented(None, "c", ""), 1, suspect)
    search.search([(1, 2, 3), (60, 60), (5, 5, 5)], time.monotonic() + seconds)
    return sizes


def test_below_a_near_constant_fault_its_families_are_swept_fewest_counts_first(monkeypatch):
    """Issue 47: variance_float.c's guided finds stayed at 5,732 and 3,104 piles: its failing
    counts follow no order, and the counts drawn below a fault land on one by chance. Below a
    fault the near-constant families whose odd parts change the answer are swept count by count,
    the fewest counts under the fault's size first: from a first fault of some hundred thousand
    stones, 55s with one 54 (2,486 piles) and then 54s with one 55 (2,394 piles, 129,277 stones:
    the smallest failing input of all, by tests/scans/variance_float_smallest.c). Control: with
    no share of the time for them below the fault (the search before), not in twice the time."""
    from gamecert.engine.judge import guided_level

    began = time.monotonic()
    near: list[bool] = []
    sizes = _below_search(monkeypatch, 120, near)
    took = time.monotonic() - began
    assert sizes[-1] == 129_277 and sizes == sorted(sizes, reverse=True), sizes
    # the faults the near-constant inputs found say so (they shrink briefly: the families follow);
    # one a havoc of a kept input found may not, so not all of them need to
    assert len(near) == len(sizes) and any(near), near
    monkeypatch.setattr(guided_level, "SHARE_BELOW", 0.0)
    control = _below_search(monkeypatch, 2 * took)
    assert control and min(control) > 129_277, control


def test_below_a_near_constant_fault_the_search_goes_on_while_families_are_left():
    """Issue 47, CI: on a loaded machine the families below variance_float.c's first fault need
    more than the guided phase's own slice (a few ms a run, some thousand runs). While families
    are left, the search below goes on for half the time from its own end to the fault's
    deadline (the executor's sweep below has the other half). Control: with no float compared
    (no families), and once every family is swept, the search ends at its own time."""
    entry = registry.get("stones_once")
    search = guided.Search(entry, None, inst.Instrumented(None, "c", ""), 1, lambda i, t: None)
    search.below, search.handed_s = 200_000, 4.0
    assert search.below_until(10.0, lambda: 60.0) == 14.0  # no float compared: its own time
    assert search.below_until(10.0, lambda: None) == 10.0  # (by counts: no deadline)
    search.level_began, search.level_part = 1.0, 5  # a float compared: near-constant inputs
    assert search.below_until(10.0, lambda: 60.0) == pytest.approx(14.0 + 0.5 * (60.0 - 14.0))
    assert search.below_until(10.0, lambda: 12.0) == 12.0  # never past the fault's deadline
    search.level_families_for, search.level_families = 200_000, []  # every family swept
    assert search.below_until(10.0, lambda: 60.0) == 14.0


@pytest.mark.parametrize("unseen", [True, False])
def test_a_route_blind_to_floats_starts_the_near_constant_inputs_from_the_source(unseen, tmp_path):
    """Found at the end of the fifth session of 2026-12-06: variance_float.c written in Rust was
    CERTIFIED. LLVM's trace-compares (the Rust route) reports integer comparisons only, so no run
    ever showed "a float compared" and the near-constant inputs never began. A Rust source that
    names a float type now says so on its build (``floats_unseen``), and the search begins them
    on its first kept input; its note says why. Control: the same route and input, a source
    without floats (or a route that sees floats compared), nothing begins without a float seen."""
    from gamecert.kit.shrink import structure_of

    source = tmp_path / "main.rs"
    source.write_text("fn main() { let x: f32 = 1.0; }\n" if unseen else "fn main() {}\n")
    assert inst.rust_floats(source.read_text()) == unseen
    entry = registry.get("stones_once")
    built = inst.Instrumented(None, "rust", "", floats_unseen=unseen)
    search = guided.Search(entry, None, built, 1, lambda i, t: None)
    piles = (5, 5, 6)
    search.st = structure_of(entry.game, piles)
    text = entry.game.format_input(piles)
    search.level_note(guided.Item(piles, text, search.state(piles), inst.Coverage()))
    assert bool(search.level_began) == unseen
    assert search.level_reason().startswith("the source uses floats" if unseen else "a float")
