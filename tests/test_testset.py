"""``gamecert tests GAME``: test packages for problem setters.

What is checked:
- a package for every registered game (small knobs, one build per game per session), judged by
  its own ``checker.py`` alone in a standalone loop (each program run here as a plain
  subprocess under the problem's CPU and memory limits, the checker run with ``python -I -S``
  so it cannot import gamecert): every wrong program the project keeps is rejected, every right
  one passes every test; the validator accepts every test;
- the validator rejects broken inputs (and gamecert's parser agrees), per game;
- the checker gives gamecert's verdict on a battery of outputs (right, other right answers,
  wrong, PE) per game, and a deliberately lax checker is caught by that battery;
- the equivalent-mutant rule: a mutant no planned input kills is equivalent and left out of
  the score; one killed only by a planned input outside the package is a survivor;
- the mutants: every operator kind is made; a known equivalent mutant is not killed;
- usage errors are one line with exit 2;
- strength (issue 26): the wrong programs of tests/unseen_wrong/ (never shown to the build) are
  killed by the package as ``--check --against`` judges them (plain builds and runs, the
  package's checker, no gamecert); the package holds its time tests with the reference's
  measured time; kills.csv ends with the kill counts; the plain judge rejects a wrong program
  and passes a right one; a right program without a 2x time margin is a fault.
"""

from __future__ import annotations

import csv
import itertools
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.testpack import mutants as mutants_mod
from gamecert.engine.testpack import polygon, selection
from gamecert.engine.testpack import testpack as tp
from gamecert.engine.testpack import testset as ts
from gamecert.kit.standalone import program as standalone_program
from gamecert.kit.tokens import verdict_of, verdict_under_testlib

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("word_game", "string_cut", "digit_game", "stones_once", "dawson_kayles")
#: small knobs: the package is built in seconds, not minutes
KNOBS = tp.Knobs(
    max_tests=60, per_family=4, per_space=40, search_seconds=60, mutant_budget=2.0, max_mutants=40
)
_BUILT: dict[str, tuple[Path, tp.Outcome]] = {}


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    def get(name: str) -> tuple[Path, tp.Outcome]:
        if name not in _BUILT:
            out = tmp_path_factory.mktemp(f"pkg-{name}")
            _BUILT[name] = (out, tp.build(registry.get(name), out, [], KNOBS))
        return _BUILT[name]

    return get


def _write(out: Path, tests, entry, fmt: str = "plain") -> None:
    """Write ``tests`` as a package of layout ``fmt`` (no kill matrix) into ``out``."""
    polygon.write_tests(out, tests)
    polygon.write_files(out, entry, entry.game.standalone_code, fmt, tests)


def _limits(game):
    def apply() -> None:
        cpu = int(game.time_limit + 0.999)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        mem = game.memory_limit_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))

    return apply


def _judge_alone(package: Path, program: Path, game, column: str | None = None) -> list[int]:
    """A standalone judge: run ``program`` on each test (a plain subprocess under the problem's
    CPU and memory limits), then ``checker.py`` (``python -I -S``: no gamecert, no site packages)
    on its output. The checker's exit code per test (a crashed or killed run: 4); stops at the
    first rejection.

    With ``column`` (the program's column of kills.csv), the tests gamecert's matrix says reject
    the program are judged first, the rest after them: a wrong program is met by its killing test
    at once rather than after every test before it (one killed by test 59 of 60 cost 118 process
    starts). Only the order changes; the judge and what it answers are the same, and a package
    whose checker accepts the program still runs every test and passes it."""
    tests = sorted(p for p in (package / "tests").iterdir() if "." not in p.name)
    if column is not None:
        rows = list(csv.reader((package / "kills.csv").read_text().splitlines()))
        col = rows[0].index(column)
        killing = {row[0] for row in rows[1:] if ts.is_kill(row[col])}
        tests.sort(
            key=lambda t: t.name not in killing
        )  # stable: killing tests first, in their order
    codes = []
    for test in tests:
        with open(test, "rb") as stdin:
            run = subprocess.run(
                [sys.executable, "-I", str(program)],
                stdin=stdin,
                capture_output=True,
                preexec_fn=_limits(game),
                timeout=60,
            )
        if run.returncode != 0:
            codes.append(4)
            break
        out = package / "out.txt"
        out.write_bytes(run.stdout)
        check = subprocess.run(
            [
                sys.executable,
                "-I",
                "-S",
                str(polygon.script_path(package, "checker")),
                str(test),
                str(out),
                f"{test}.a",
            ],
            capture_output=True,
            timeout=60,
        )
        assert check.returncode in (0, 1, 2), check.stderr
        codes.append(check.returncode)
        if check.returncode:
            break
    return codes


#: building a package runs every wrong program through the sandbox (TLE programs at the full time
#: limit) and the mutants on inputs of up to 3 MB: 80 s (word_game) to 8 minutes (stones_once) on a
#: loaded 2-core machine. The default run builds word_game's; the long run (GAMECERT_LONG_TESTS=1)
#: the other games' too, or those GAMECERT_TESTSET_GAMES names (a comma-separated list, or all).
_PACKAGE_GAMES = os.environ.get("GAMECERT_TESTSET_GAMES", "all")
PACKAGE_GAMES = (
    GAMES if _PACKAGE_GAMES == "all" else tuple(g for g in GAMES if g in _PACKAGE_GAMES.split(","))
)


@pytest.mark.slow
def test_word_game_package(packages, tmp_path):
    """word_game's package, built once (minutes: one test, so that one worker builds it): judged by
    its own checker, read back after hand edits, killing the unseen wrong programs, stating its
    strength and time tests (the four checks below)."""
    _judged_by_its_own_checker("word_game", packages)
    _reads_a_hand_edited_package(packages, tmp_path)
    _assert_unseen_killed("word_game", packages)
    _states_its_strength_and_time_tests(packages)


@pytest.mark.long
@pytest.mark.parametrize("name", [g for g in PACKAGE_GAMES if g != "word_game"])
def test_package_of_each_game(name, packages):
    """The other games' packages (long; GAMECERT_TESTSET_GAMES to choose), each built once
    (minutes: one test a game, so that one worker builds it, as word_game's above): judged by
    their own checker, and killing the game's unseen wrong programs (C, C++, Python, Java, Rust)
    where tests/unseen_wrong holds some."""
    _judged_by_its_own_checker(name, packages)
    if name in UNSEEN_GAMES:  # (named, so that a folder moved away cannot skip the check)
        _assert_unseen_killed(name, packages)


def _judged_by_its_own_checker(name, packages):
    """The package alone (its tests, its checker.py, no gamecert) rejects every wrong program the
    project keeps (tests/wrong/GAME, examples/GAME/wrong.py) and passes the right one; gamecert's
    own matrix says the same, and the package states its proof."""
    out, outcome = packages(name)
    game = registry.get(name).game
    assert not outcome.faults, outcome.faults
    wrong = sorted((ROOT / "tests" / "wrong" / name).glob("*.py")) + [
        ROOT / "examples" / name / "wrong.py"
    ]
    for program in wrong:
        codes = _judge_alone(
            out,
            program,
            game,
            "examples/wrong" if program.parent.parent.name == "examples" else program.stem,
        )
        assert codes and codes[-1] != 0, (
            f"{program.name} passes every test of the package "
            f"({outcome.survivors.get(program.stem, 'not a survivor in its own matrix')})"
        )
    codes = _judge_alone(out, ROOT / "examples" / name / "correct.py", game)
    assert codes == [0] * len(outcome.tests)
    # a program only slow (at most 2x the limit on every test) is no kill that holds: named, not killed
    assert all("no 2x margin" in why for why in outcome.survivors.values()), outcome.survivors
    readme = (out / "README.md").read_text()
    assert "the validator accepts every test: yes" in readme and "mutation score:" in readme
    header = (out / "kills.csv").read_text().splitlines()[0].split(",")
    assert header[:3] == ["test", "origin", "bytes"] and len(header) == (
        3 + len(outcome.programs) + len(outcome.broken_rows) + len(outcome.mutant_names)
    )
    # samples first
    width = max(2, len(str(len(outcome.tests))))
    first = (out / "tests" / f"{1:0{width}d}").read_text()
    assert first == game.samples[0][0]
    for t in (out / "tests").iterdir():
        if "." not in t.name:
            v = subprocess.run(
                [sys.executable, "-I", "-S", str(polygon.script_path(out, "validator")), str(t)],
                capture_output=True,
            )
            assert v.returncode == 0, (t.name, v.stderr)


BROKEN_INPUTS = {
    "word_game": [
        "",
        "\n",
        "abc\n",
        "AB C\n",
        " AB\n",
        "A" * 41 + "\n",
        "AB\nCD\n",
        "AB\t\n",
        "É\n",
    ],
    "string_cut": ["", "ABC\n", "ab c\n", "a" * 5001 + "\n", "ab\n\nx\n", "ab \n"],
    "digit_game": [
        "",
        "0\n",
        "101\n" + "1\n1\n" * 101,
        "1\n2\n1\n",
        "1\n1\n0\n",
        "1\n2\n05\n",
        "1\n1001\n" + "1" * 1001 + "\n",
        "2\n1\n1\n",
        "1\n1\n1\nextra\n",
        "01\n1\n1\n",
        "1\n 1\n1\n",
        "1\n1\n+\n",
    ],
    "stones_once": [
        "",
        "0\n",
        "1\n61\n",
        "1\n0\n",
        "2\n1\n",
        "1\n1\n1\n",
        "1\n-1\n",
        "1\n 5\n",
        "1\n05\n",
    ],
    "dawson_kayles": [
        "",
        "0\n\n",
        "1\n0\n",
        "1\n1001\n",
        "2\n1  2\n",
        "2\n1\n",
        "1\n1 \n",
        "101\n" + " ".join(["1"] * 101) + "\n",
        "1\n1\n1\n",
        "1\n01\n",
    ],
}


@pytest.mark.parametrize("name", GAMES)
def test_validator_rejects_broken_inputs(name, tmp_path):
    """Each broken input: validator.py exits 3 with a reason, and gamecert's parser refuses it
    too; every sample and a few family inputs are accepted by both."""
    entry = registry.get(name)
    path = tmp_path / "validator.py"
    path.write_text(standalone_program("validator", name, entry.game.standalone_code))
    for text in BROKEN_INPUTS[name]:
        run = subprocess.run(
            [sys.executable, "-I", "-S", str(path)], input=text.encode(), capture_output=True
        )
        assert run.returncode == 3 and run.stderr.startswith(b"FAIL "), (text[:30], run.returncode)
        with pytest.raises(Exception):  # noqa: B017, PT011 - any InputError
            entry.game.parse_input(text)
    good = [s for s, _ in entry.game.samples] + [
        entry.game.format_input(x)
        for space in entry.game.exhaustive_spaces()
        for x in itertools.islice(space.all(), 5)
    ]
    for text in good:
        run = subprocess.run(
            [sys.executable, "-I", "-S", str(path)], input=text.encode(), capture_output=True
        )
        assert run.returncode == 0, (text[:30], run.stderr)


def _variants(text: str, alternatives: tuple[str, ...]) -> list[str]:
    """Outputs made from a right one: tokens changed, dropped, doubled, written wrongly."""
    toks = text.split()
    out = [
        text,
        text.replace("\n", "\r\n"),
        "\t" + text + "  \n\n",
        "",
        text + " x\n",
        " ".join(toks) + "\n",
    ]
    for k, tok in enumerate(toks):
        if 3 <= k < len(toks) - 2:  # a long output: its first three and last two tokens
            continue
        forms = [
            tok.lower(),
            tok.upper(),
            "0" + tok,
            "+" + tok,
            tok + "\u00a0",
            tok + "\x00",
            "-0",
            "-" + tok,
            "99999999999999999999",
            "4294967296",
            "1.0",
            *alternatives,
        ]
        if tok.lstrip("-").isdigit():
            forms += [str(int(tok) + 1), str(int(tok) - 1), "0"]
        for form in forms:
            out.append(" ".join(toks[:k] + [form] + toks[k + 1 :]) + "\n")
        out.append(" ".join(toks[:k] + toks[k + 1 :]) + "\n")
        out.append(" ".join(toks[: k + 1] + [tok] + toks[k + 1 :]) + "\n")
    return out


ALTERNATIVES = {
    "word_game": ("Alice", "Bob"),
    "string_cut": ("First", "Second", "First 1", "First 2"),
    "digit_game": ("1", "2", "3"),
    "stones_once": ("YES", "NO"),
    "dawson_kayles": ("First", "Second", "First 1 0 0", "First 1 1 0"),
}


def _battery_disagreements(name: str, checker) -> tuple[int, list[str]]:
    entry = registry.get(name)
    game = entry.game
    inputs = [game.parse_input(s) for s, _ in game.samples] + [
        x for space in game.exhaustive_spaces() for x in itertools.islice(space.all(), 12)
    ]
    seen, bad = 0, []
    for inst in inputs:
        expected = (
            entry.game.oracle(inst)
            if game.size(inst) <= game.oracle_reach
            else entry.solvers[sorted(entry.solvers)[0]](inst)
        )
        text = game.format_input(inst)
        answer = game.format_answer(expected)
        outputs = _variants(answer, ALTERNATIVES[name]) + [
            game.format_answer(s(inst)) for s in entry.solvers.values()
        ]
        for output in outputs:
            verdict, said = verdict_of(game, inst, output, expected)
            code, why = checker(text, output, answer)
            seen += 1
            if code != {"OK": 0, "WA": 1, "PE": 2}[verdict_under_testlib(verdict.value, said)]:
                bad.append(f"{output!r}: gamecert {verdict.value}, checker {code} ({why})")
    return seen, bad


def _checker_of(name: str, code: str, tmp_path: Path):
    path = tmp_path / f"checker-{name}.py"
    path.write_text(standalone_program("checker", name, code))
    return tp._load(path, "check")


@pytest.mark.parametrize("name", GAMES)
def test_checker_agrees_with_gamecert_on_a_battery(name, tmp_path):
    """Right outputs (the canonical answer, CRLF, tabs, every registered solver's answer: for
    dawson_kayles another winning move), wrong ones (other words, case, extra and missing
    tokens, a no-break space, a NUL) and PE ones (leading zeros, '+', '-0', past int32): the
    checker's exit code is gamecert's verdict each time."""
    seen, bad = _battery_disagreements(
        name, _checker_of(name, registry.get(name).game.standalone_code, tmp_path)
    )
    assert seen > 200 and not bad, bad[:5]


#: deliberately lax standalone parts (fixtures): the battery must catch each
LAX = {
    "word_game": lambda code: code.replace(
        '("Alice", "Bob")', '("Alice", "Bob", "alice", "bob")'
    ).replace("return None if got == expected", "return None if got.lower() == expected.lower()"),
    "digit_game": lambda code: code.replace("zip(got, expected)", "zip(got[:1], expected[:1])"),
    "string_cut": lambda code: (
        code
        + "\n\ndef malformed(token):\n    return '' if token.lstrip('+0').isdigit() or token == '0' else 'bad'\n"
    ),
}


@pytest.mark.parametrize("name", sorted(LAX))
def test_battery_catches_a_lax_checker(name, tmp_path):
    """A checker that is too lenient (a judge ignoring case, or all games but the first, a reader
    taking '+2' and '02') disagrees with gamecert somewhere in the battery."""
    code = LAX[name](registry.get(name).game.standalone_code)
    _, bad = _battery_disagreements(name, _checker_of(name, code, tmp_path))
    assert bad


def test_equivalent_mutant_rule(tmp_path):
    """word_game, a package of the two samples only: a mutant that no planned input kills
    (26 -> 27 letter slots) is equivalent and left out of the score; a mutant killed by a
    sample counts as killed; one killed by a planned input but by no test of the package (the
    value of a letter seen 40 times) is a survivor, named with the input that kills it."""
    entry = registry.get("word_game")
    muts = {m.what + "@" + m.where: m for m in mutants_mod.make_mutants(entry.solvers)}
    equivalent = next(m for k, m in muts.items() if k.startswith("26 -> 27"))
    killed_by_sample = next(
        m for m in muts.values() if m.kind == "condition negated" and m.solver == "closed_form"
    )
    pool = ts.build_pool(entry, 60, 300)
    answers = ts.expected_texts(entry, pool)
    # a mutant that only a 39- or 40-letter count tells apart: row lookup changed for counts with (c - 1) % 3 + 1 == 3
    only_big = [
        m
        for m in muts.values()
        if m.solver == "count_table" and m.kind == "table entry changed" and "3 -> 4" in m.what
    ]
    tests = pool[:2]
    for t, a in zip(tests, answers[:2]):
        t.expected_text = entry.game.format_answer(a)
    _write(tmp_path, tests, entry)
    chosen = [equivalent, killed_by_sample, *only_big]
    outcome = tp.measure(
        entry,
        tmp_path,
        tests,
        answers[:2],
        chosen,
        [],
        [],
        KNOBS,
        lambda s: None,
        pool=(pool, answers),
    )
    assert outcome.equivalent == [equivalent.name]
    assert killed_by_sample.name not in outcome.equivalent
    assert any(v != "OK" for v in outcome.mutant_rows[killed_by_sample.name])
    killed, non_equivalent = tp.mutation_score(outcome)
    assert non_equivalent == len(chosen) - 1
    for m in only_big:
        if all(v == "OK" for v in outcome.mutant_rows[m.name]):
            assert any(
                note.startswith(m.name + ": killed by the planned input") for note in outcome.notes
            )
    assert killed == sum(1 for m in chosen if any(v != "OK" for v in outcome.mutant_rows[m.name]))


@pytest.mark.slow
def test_mutants_cover_every_kind():
    """Across the games' solvers, every kind of change is made, each mutant differs from its
    solver, and a mutant that swaps an operator is killed by some small input."""
    kinds = set()
    for name in GAMES:
        kinds |= {m.kind for m in mutants_mod.make_mutants(registry.get(name).solvers)}
    assert kinds == set(mutants_mod.KINDS)
    entry = registry.get("word_game")
    m = next(
        m
        for m in mutants_mod.make_mutants(entry.solvers)
        if m.kind == "operator swapped" and m.solver == "closed_form"
    )
    words = ["A", "AA", "AAA", "AB", "AAB", "ZADACHA"]
    res = mutants_mod.evaluate(
        entry.game, entry.solvers, [m], words, [entry.game.oracle(w) for w in words], [1.0] * 6
    )
    assert res[0].kills


@pytest.mark.parametrize(
    "argv",
    [
        ["tests", "no_such_game", "--out", "x"],
        ["tests", "word_game", "--out", "x", "--max-tests", "0"],
        ["tests", "word_game", "--out", "x", "--against", "/nonexistent/prog.py"],
        ["tests", "word_game", "--check", "/nonexistent/package"],
        ["tests", "word_game"],
    ],
)
def test_usage_errors_are_one_line(argv, tmp_path):
    """Bad use: exit 2 and one line on stderr, no traceback."""
    run = subprocess.run(
        [sys.executable, "-m", "gamecert", *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and run.stderr.strip().count("\n") == 0


def _reads_a_hand_edited_package(packages, tmp_path):
    """``--check`` reads the package as it is on disk: a wrong answer file, an invalid input and a
    missing answer file are faults, each named; the rest of the tests are read."""
    import shutil

    out, outcome = packages("word_game")
    copy = tmp_path / "pkg"
    shutil.copytree(out, copy)
    n1, n2, n3 = (f"{k:0{max(2, len(str(len(outcome.tests))))}d}" for k in (1, 2, 3))
    (copy / "tests" / f"{n1}.a").write_text("Bob\n")  # ZADACHA: Alice wins
    (copy / "tests" / n2).write_text("word\n")  # lowercase: not an input
    (copy / "tests" / f"{n3}.a").unlink()
    tests, _, faults = tp.read_package(registry.get("word_game"), copy)
    assert len(tests) == len(outcome.tests) - 1
    assert any(f.startswith(f"tests/{n1}.a is not a right answer (WA") for f in faults)
    assert any(f.startswith(f"tests/{n2}: not a valid input") for f in faults)
    assert f"tests/{n3}.a is missing" in faults
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "tests",
            "word_game",
            "--check",
            str(tmp_path / "nothing"),
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "no tests/ folder" in run.stderr


UNSEEN = ROOT / "tests" / "unseen_wrong"
#: the games besides word_game with wrong programs in tests/unseen_wrong
UNSEEN_GAMES = ("string_cut", "digit_game", "stones_once")


def _assert_unseen_killed(name: str, packages) -> None:
    """Each program of tests/unseen_wrong/NAME judged on the package by the plain judge, as
    ``--check OUT --against`` judges it (the command's route is checked on a small package in
    :func:`test_check_against_live_line_and_pipe`): every one is rejected."""
    from gamecert.engine.testpack import plainjudge

    out, _ = packages(name)
    game = registry.get(name).game
    programs = sorted((UNSEEN / name).iterdir())
    assert programs
    verdicts = {
        p.name: plainjudge.judge(out, p, game.time_limit, game.memory_limit_mb, stop_at_first=True)
        for p in programs
    }
    survivors = [n for n, row in verdicts.items() if all(v == "OK" for v in row)]
    assert not survivors, survivors
    assert not [n for n, row in verdicts.items() if "CE" in row]


def _states_its_strength_and_time_tests(packages):
    """word_game's package: a time test kept for the slow memo_by_letter program, with the
    reference's measured time in the README; kills.csv's last row counts each column's kills,
    and they agree with the rows above it; the strength line says nothing is missed."""
    out, outcome = packages("word_game")
    readme = (out / "README.md").read_text()
    section = readme.split("## Time and memory tests", 1)[1].split("## Proof", 1)[0]
    assert "reference examples/correct" in section and "memo_by_letter" in section
    assert "caught by the plan or certify but not by this package: 0" in readme
    rows = list(csv.reader((out / "kills.csv").read_text().splitlines()))
    header, body, last = rows[0], rows[1:-1], rows[-1]
    assert last[0] == "killed" and len(body) == len(outcome.tests)
    for col in range(3, len(header)):
        assert int(last[col]) == sum(ts.is_kill(r[col]) for r in body), header[col]
    assert any(h.startswith("broken/") for h in header)
    assert all(int(last[header.index(f"broken/{n}")]) > 0 for n in outcome.broken_rows)


def test_plain_judge_rejects_wrong_and_passes_right(tmp_path):
    """The judge without gamecert: word_game's samples and a few words, a right C program passes
    all, the C program of the same idea but wrong (tests/programs/c) gets WA, likewise the
    JavaScript pair where node is installed, a Python one that
    sleeps past the CPU limit... (it burns CPU) gets TLE."""
    from gamecert.engine.testpack import plainjudge

    entry = registry.get("word_game")
    words = ["ZADACHA", "WORD", "AAA", "AB"]
    tests = [
        ts.Test(w, w + "\n", "t", "t", expected_text=entry.game.format_answer(entry.game.oracle(w)))
        for w in words
    ]
    _write(tmp_path, tests, entry)
    ok = plainjudge.judge(
        tmp_path, ROOT / "tests" / "programs" / "c" / "word_game_right.c", 2.0, 256
    )
    bad = plainjudge.judge(
        tmp_path, ROOT / "tests" / "programs" / "c" / "word_game_wrong.c", 2.0, 256
    )
    assert ok == ["OK"] * 4 and "WA" in bad
    import shutil

    if shutil.which(
        "node"
    ):  # node under the address-space cap could not start its threads and hung
        js = ROOT / "tests" / "programs" / "javascript"
        assert plainjudge.judge(tmp_path, js / "word_game_right.js", 2.0, 256) == ["OK"] * 4
        assert "WA" in plainjudge.judge(tmp_path, js / "word_game_wrong.js", 2.0, 256)
    slow = plainjudge.judge(
        tmp_path,
        ROOT / "tests" / "slow_right" / "word_game" / "burn.py",
        1.0,
        256,
        stop_at_first=True,
    )
    assert slow[0] == "TLE" and slow[1:] == ["-"] * 3


def test_right_program_without_2x_margin_is_a_fault(tmp_path):
    """A right program using 1.2 s of word_game's 2 s (tests/slow_right/word_game/burn.py) passes
    every test but is a fault of the package (no 2x margin); examples/correct is not."""
    entry = registry.get("word_game")
    pool = ts.build_pool(entry, 1, 1)[:2]
    answers = ts.expected_texts(entry, pool)
    _write(tmp_path, pool, entry)
    right = [
        ts.Program(
            "examples/correct", str(ROOT / "examples" / "word_game" / "correct.py"), "right"
        ),
        ts.Program("burn", str(ROOT / "tests" / "slow_right" / "word_game" / "burn.py"), "right"),
    ]
    ts._RUNS.clear()
    outcome = tp.measure(
        entry, tmp_path, pool, answers, [], [], right, KNOBS, lambda s: None, write=False
    )
    margin = [f for f in outcome.faults if "no 2x margin" in f]
    assert len(margin) == 1 and margin[0].startswith("the right program burn "), outcome.faults
    assert all(v == "OK" for v in outcome.program_rows["burn"])


def test_choose_keeps_the_must_haves_and_the_limit():
    """The choice: never more than max_tests; the samples, the largest inputs, one per family and
    the time tests always; below them a clear error."""
    from gamecert.engine.testpack import strength

    entry = registry.get("word_game")
    pool = ts.build_pool(entry, 4, 20) + strength.deciding_tests(entry)
    kills = {len(pool) - 2: {"a mutant only this input kills"}}
    chosen = strength.choose(entry, pool, kills, {len(pool) - 1: "a slow program"}, 30)
    assert len(chosen) == 30 and len(set(chosen)) == 30
    roles = [pool[k].role for k in chosen]
    assert sum(r == "sample" for r in roles) == 2 and len(pool) - 1 in chosen
    assert any(r == "deciding feature" for r in roles) and pool[len(pool) - 2].role.startswith(
        "kills"
    )
    with pytest.raises(ts.PackageError, match="--max-tests 3 is below"):
        strength.choose(entry, pool, kills, {}, 3)


def test_max_mutants_zero_makes_none():
    """``--max-mutants 0`` means none; 1 means one."""
    solvers = registry.get("word_game").solvers
    assert mutants_mod.make_mutants(solvers, 0) == []
    assert len(mutants_mod.make_mutants(solvers, 1)) == 1
    assert len(mutants_mod.make_mutants(solvers)) > 1


def test_search_order_is_certifys():
    """digit_game (several games an input): the search tries the pool's designed inputs first, then
    every designed family in full (n at every batch position to its last input), one-game family
    inputs packed into valid runs of at most max_batch games, and the exhaustive singles last."""
    entry = registry.get("digit_game")
    game = entry.game
    pool = ts.build_pool(entry, 2, 20)
    order = [t for t, _ in selection.search_order(entry, pool, [None] * len(pool))]
    assert len({t.text for t in order}) == len(order)
    groups = [t.group for t in order]
    last_designed = max(k for k, g in enumerate(groups) if g.startswith("family:"))
    assert all(g == "exhaustive" for g in groups[groups.index("exhaustive") :])
    assert groups.index("exhaustive") > last_designed
    batch = next(f for f in entry.strategies.coverage() if f.name == "n-batch-position")
    assert (
        sum(t.origin.startswith("coverage family n-batch-position") for t in order)
        + sum(t.group == "family:n-batch-position" for t in pool)
        >= batch.count
    )
    packed = [t for t in order if t.origin.endswith("packed")]
    assert packed
    for t in packed:
        assert 1 < len(game.split(t.instance)) <= game.max_batch
        game.parse_input(t.text)


def test_search_never_reruns_an_input():
    """An input already run on a program in this build is not run again: the search for
    examples/wrong (word_game) finds a killing input; told that input was run and passed, it finds
    another. Certify's failing input goes in only where it parses and kills the program."""
    entry = registry.get("word_game")
    pool = ts.build_pool(entry, 2, 40)
    answers = ts.expected_texts(entry, pool)
    prog = ts.Program(
        "examples/wrong", str(ROOT / "examples" / "word_game" / "wrong.py"), "project"
    )
    ts._RUNS.clear()
    try:
        first = selection.search_kill(entry, prog, pool, answers, 60)
        assert first is not None
        ts._RUNS.clear()
        ts._RUNS[prog.spec, first[0].text] = ("OK", "", "")
        second = selection.search_kill(entry, prog, pool, answers, 60)
        assert second is not None and second[0].text != first[0].text
        # certify's failing input, where the search finds none: read back, run again, kept only if it kills
        passing = next(
            t.text
            for t in pool
            if t.text != first[0].text and ts._RUNS.get((prog.spec, t.text), ("",))[0] == "OK"
        )
        for text, kills in ((first[0].text, True), (passing, False)):
            tp._CERTIFIED[prog.spec] = (True, text)
            got = tp._certify_input(entry, prog, lambda s: None)
            assert (got is not None and got[0].text == text) if kills else got is None
        tp._CERTIFIED[prog.spec] = (True, "not an input\n")
        assert tp._certify_input(entry, prog, lambda s: None) is None
    finally:
        tp._CERTIFIED.clear()
        ts._RUNS.clear()
        ts.close_runners()


def test_check_against_live_line_and_pipe(tmp_path):
    """``--check DIR --against FOLDER`` on a small package (dawson_kayles, the game with the fewest
    programs of its own: five inputs of its plan, in Polygon's layout): to a pipe, stderr is the
    timestamped steps only; on a terminal, a live line (the step, the time, the runs made) as well.
    The folder's program, which prints nothing, is judged plainly (by the package's check.cpp where
    g++ is) and rejected."""
    import pty

    entry = registry.get("dawson_kayles")
    tests = ts.build_pool(entry, 1, 3)[:5]
    ts.expected_texts(entry, tests)
    package, against = tmp_path / "pkg", tmp_path / "against"
    _write(
        package, tests, entry, "polygon"
    )  # problem.xml read back, check.cpp judges the folder's program
    against.mkdir()
    (against / "silent.py").write_text("import sys\nsys.stdin.read()\n")
    argv = [
        sys.executable,
        "-m",
        "gamecert",
        "tests",
        "dawson_kayles",
        "--check",
        str(package),
        "--max-mutants",
        "0",
        "--no-certify",
        "--against",
        str(against),
    ]
    piped = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0, piped.stderr[-1000:]
    assert "runs of" not in piped.stderr and all(
        line.startswith("[") for line in piped.stderr.splitlines()
    )
    row = next(line for line in piped.stdout.splitlines() if line.startswith("silent.py "))
    assert "SURVIVES" not in row and ("WA" in row or "PE" in row)
    if shutil.which("g++"):
        assert "check.cpp" in piped.stderr
    master, slave = pty.openpty()
    run = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=slave, env={**os.environ, "COLUMNS": "200"}
    )
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    stdout = run.communicate(timeout=300)[0].decode()
    os.close(master)
    assert run.returncode == 0
    assert b"runs of" in seen and b"final" in seen
    assert stdout.splitlines()[-1] == piped.stdout.splitlines()[-1]


def test_profile_sets_the_build_knobs(monkeypatch):
    """``gamecert tests --profile`` (issue 46): quick sets the smaller knobs and skips certifying
    survivors; an option given wins over its profile; ``$GAMECERT_PROFILE`` is read when no
    --profile is given, and an unknown one is a usage error."""
    import argparse

    from gamecert.commands.tests_cmd import PROFILE_KNOBS, add_parser, apply_profile
    from gamecert.errors import UsageError

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    monkeypatch.delenv("GAMECERT_PROFILE", raising=False)
    args = parser.parse_args(
        ["tests", "word_game", "--out", "x", "--profile", "quick", "--per-space", "77"]
    )
    apply_profile(args)
    quick = PROFILE_KNOBS["quick"]
    assert (args.per_family, args.per_space, args.search_seconds, args.mutant_seconds) == (
        quick["per_family"],
        77,
        quick["search_seconds"],
        quick["mutant_seconds"],
    )
    assert args.no_certify
    args = parser.parse_args(["tests", "word_game", "--out", "x"])
    apply_profile(args)
    assert (args.per_family, args.per_space, args.no_certify) == (24, 300, False)
    monkeypatch.setenv("GAMECERT_PROFILE", "quick")
    args = parser.parse_args(["tests", "word_game", "--out", "x"])
    apply_profile(args)
    assert args.per_family == quick["per_family"] and args.no_certify
    monkeypatch.setenv("GAMECERT_PROFILE", "fastest")
    with pytest.raises(UsageError, match="fastest"):
        apply_profile(parser.parse_args(["tests", "word_game", "--out", "x"]))
