"""The sanitizer phase (gamecert/engine/judge/sanitize.py; issue 37, point 3 and the undefined
behaviour of point 4): a C or C++ candidate whose answers are right as the judge compiles it
but that rests on undefined behaviour gets verdict UB, naming the sanitizer's line, the input
shrunk while the same build fires at the same place, and the command that reproduces it.

- The messages are read: UBSan's ``runtime error`` line, AddressSanitizer's report (the frame in
  the candidate's source, not the library's), a libstdc++ assertion; what the sanitizer itself
  runs out of (stack, memory) is no finding.
- Each program of ``tests/ub_wrong/`` fires on an input that shows it, at the line its header
  names, where the judge's build answers right; on an input that does not reach the fault the
  same build stays quiet (the control).
- The phase on a right C program runs every build and finds nothing (no false alarm); on a UB
  program it puts a UB failure, shrunk, with the reproducing command, on the outcome.
- Long: each UB program, certified under the default profile (two seeds), is UB at the line and
  the smallest size its header names; with ``GAMECERT_SANITIZE=0`` the same certification
  passes (the designed families do not reach these faults); the right C and C++ programs
  of ``tests/programs/`` pass with the phase on.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.judge.judge import Stats
from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.judge.sanitize import BUILDS, Check, read_finding, read_memcheck, run_phase
from gamecert.engine.plan.plan import make_plan
from gamecert.engine.plan.profiles import get_profile
from gamecert.engine.run.limits import game_limits
from gamecert.engine.run.sandbox import Candidate, RunResult
from gamecert.verdict import Verdict

ROOT = Path(__file__).resolve().parent.parent
UB = ROOT / "tests" / "ub_wrong"
PROGRAMS = ROOT / "tests" / "programs"

#: program: (game, the build that sees it, an input that shows it, one that does not, smallest size)
CASES = {
    "word_hash_overflow.c": ("word_game", "asan", "ZZZZZZ\n", "ZZZZZ\n", None),
    "stones_table_oob.cpp": ("stones_once", "asan", "2\n3\n60\n", "2\n3\n59\n", 60),
    "digit_uninit_branch.c": ("digit_game", "pattern", "1\n1\n2\n", "2\n1\n3\n2\n22\n", 1),
    "digit_shift_width.cpp": (
        "digit_game",
        "asan",
        "1\n67\n" + "2" * 66 + "1\n",
        "1\n63\n" + "2" * 62 + "1\n",
        65,
    ),
    # issue 47: the heap counted from whatever is there; the 0xA5 fill (odd) shows it, 0x5A (even) does not
    "stones_heap_parity.cpp": ("stones_once", "zero", "2\n1\n1\n", "1\n7\n", 2),
}
#: programs that read their uninitialised memory on every input: the quiet input answers right under
#: the build, but memcheck sees the read there too
READ_ON_EVERY_INPUT = {"stones_heap_parity.cpp"}


def _header_line(path: Path) -> int | None:
    """The line the program's header says the undefined behaviour is on (``ub: ..., line N``)."""
    m = re.search(r"ub: [^\n]*?line (\d+)", path.read_text())
    return int(m.group(1)) if m else None


def _result(stdout: str = "", stderr: str = "") -> RunResult:
    return RunResult("re", stdout, stderr, 86, None, 0.01, 0.02, 30.0)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory):
    """One build cache for this module's builds."""
    root = tmp_path_factory.mktemp("sanitize-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GAMECERT_CACHE", str(root))
        yield root


def test_messages_are_read() -> None:
    """UBSan's line, AddressSanitizer's kind and the frame in the candidate's source (not the
    inlined library's), a libstdc++ assertion; the build folder's path becomes the source's name.
    The controls: a crash without a sanitizer's report, a stack overflow and an allocation the
    sanitizer refused are no finding."""
    ub = read_finding(
        "asan",
        _result(
            stderr="/c/.building-q1/main.cpp:12:7: runtime error: shift exponent 64 is "
            "too large for 64-bit type 'long long unsigned int'\n"
        ),
        "x.cpp",
    )
    assert ub is not None and ub.kind == "shift exponent" and ub.where == "x.cpp:12"
    assert ub.line.startswith("x.cpp:12:7: runtime error: shift exponent 64")
    report = (
        "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6 at pc 0x5\nREAD of size 4 at 0x6 "
        "thread T0\n    #0 0x55 in std::vector<int>::operator[](unsigned long) /usr/include/c++/12/bits/"
        "stl_vector.h:1123\n    #1 0x55 in main /c/build/ab12/main.cpp:9\n\nSUMMARY: AddressSanitizer: "
        "heap-buffer-overflow /usr/include/c++/12/bits/stl_vector.h:1123 in operator[]\n"
    )
    asan = read_finding("asan", _result(stdout=report), "x.cpp")
    assert (
        asan is not None
        and asan.where == "x.cpp:9"
        and asan.kind == "AddressSanitizer: heap-buffer-overflow"
    )
    assert "READ of size 4" in asan.line
    aborted = (
        "==1==ERROR: AddressSanitizer: ABRT on unknown address 0x1\n    #3 0x7 in std::__glibcxx_assert_fail"
        "(char const*, int, char const*, char const*) (/lib/libstdc++.so.6+0xd09ed)\n    #5 0x5 in main "
        "/c/.building-z/main.cpp:3\n"
    )
    assertion = read_finding(
        "asan",
        _result(
            stdout=aborted,
            stderr="/usr/include/c++/12/bits/stl_vector.h:1123: "
            "...: Assertion '__n < this->size()' failed.",
        ),
        "x.cpp",
    )
    assert (
        assertion is not None
        and assertion.where == "x.cpp:3"
        and "'__n < this->size()'" in assertion.line
    )
    assert read_finding("asan", _result(stderr="Segmentation fault\n"), "x.cpp") is None
    vg = (
        "==9== Use of uninitialised value of size 8\n==9==    at 0x4: _itoa_word (_itoa.c:180)\n"
        "==9==    by 0x5: main (main.cpp:21)\n==9==  Uninitialised value was created by a heap allocation\n"
        "==9==    at 0x6: operator new[](unsigned long) (vg_replace_malloc.c:640)\n"
    )
    assert read_memcheck(vg, "x.cpp") == (
        "x.cpp:21: Use of uninitialised value of size 8 (valgrind memcheck, "
        "-O0 -g), a value created by a heap allocation at vg_replace_malloc.c:640"
    )
    heap = (
        "==9== Conditional jump or move depends on uninitialised value(s)\n==9==    at 0x1: main (main.cpp:29)\n"
        "==9==  Uninitialised value was created by a heap allocation\n==9==    at 0x4: operator new[](unsigned "
        "long) (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)\n==9==    by 0x1: main (main.cpp:21)\n"
    )
    assert read_memcheck(heap, "x.cpp").endswith(
        "a value created by a heap allocation at x.cpp:21"
    )  # the source's frame
    assert (
        read_memcheck("==9== Invalid read of size 4\n==9==    at 0x5: main (main.cpp:3)\n", "x.cpp")
        == ""
    )
    assert (
        read_finding(
            "asan",
            _result(
                stdout="==1==ERROR: AddressSanitizer: stack-overflow on address 0x7\n"
                "    #0 0x5 in f /c/.building-z/main.cpp:3\n"
            ),
            "x.cpp",
        )
        is None
    )
    assert (
        read_finding(
            "asan",
            _result(
                stdout="==1==ERROR: AddressSanitizer: requested allocation size 0x1 "
                "exceeds maximum\n==1==ERROR: AddressSanitizer: allocation-size-too-big"
            ),
            "x.cpp",
        )
        is None
    )


def _need_gcc() -> None:
    if shutil.which("gcc") is None or shutil.which("g++") is None:
        pytest.skip("gcc and g++ are needed")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_each_program_fires_at_its_line(name: str, cache: Path) -> None:
    """The program's build named in CASES fires on the input that shows it, at the line the
    header names (the uninitialised read: the 0xFE-initialised build answers wrong), where the
    judge's build answers right; on an input that does not reach the fault it stays quiet."""
    _need_gcc()
    game, kind, showing, quiet, _ = CASES[name]
    entry = registry.get(game)
    path = UB / name
    candidate = Candidate.parse(str(path))
    check = Check(entry, candidate, game_limits(entry.game))
    try:
        failure, finding = check.run(kind, entry.game.parse_input(showing), showing)
        assert finding is not None and failure is not None and failure.verdict is Verdict.UB, name
        if kind == "asan":
            assert finding.where == f"{path}:{_header_line(path)}", finding
        else:
            assert finding.kind == "uninitialised memory" and "answers WA" in finding.line
            if shutil.which(
                "valgrind"
            ):  # memcheck on the -O0 -g build names the lines the header names
                used, made = re.search(
                    r"used at line (\d+), made at line (\d+)", path.read_text()
                ).groups()
                line = check.memcheck(entry.game.parse_input(showing), showing)
                assert line.startswith(f"{path}:{used}: ") and line.endswith(f"at {path}:{made}"), (
                    line
                )
                seen = check.memcheck(entry.game.parse_input(quiet), quiet)
                assert (seen != "") is (name in READ_ON_EVERY_INPUT), seen
        assert (
            check.plain_judge().run_one(entry.game.parse_input(showing), "sanitizer", text=showing)
            is None
        )
        assert check.run(kind, entry.game.parse_input(quiet), quiet) == (None, None)
        assert "-fsanitize=address" in check.reproduce(kind) or "auto-var-init" in check.reproduce(
            kind
        )
    finally:
        check.close()


#: the phase's time in the tests of what it runs: far more than its builds and runs need
PHASE_SECONDS = 300.0


def _phase(game: str, program: Path, phases: tuple[str, ...]) -> tuple[Outcome, list[str]]:
    entry = registry.get(game)
    plan = make_plan(entry, get_profile("default"), 1, budget_s=8, phases=phases)
    outcome = Outcome(plan, Stats())
    said: list[str] = []
    # these tests check what the phase runs and finds, not how it shares a budget (that is
    # test_sanitizer_runs_cut_by_its_time_are_not_certified's): the phase gets time enough for
    # its builds and runs on a machine as busy as CI's, instead of a quarter of 8 s
    run_phase(
        entry,
        Candidate.parse(str(program)),
        plan,
        outcome,
        game_limits(entry.game),
        said.append,
        seconds=PHASE_SECONDS,
    )
    return outcome, said


@pytest.mark.slow
def test_phase_on_a_right_program_finds_nothing(cache: Path) -> None:
    """A right C program (word_game) under the three builds, on the samples, worst cases and
    largest inputs: no failure, and the note says what ran; the control, the hash that overflows,
    on the same plan: a UB failure on the outcome, shrunk, with the command that reproduces it."""
    _need_gcc()
    outcome, said = _phase("word_game", PROGRAMS / "c" / "word_game_right.c", ("worst", "largest"))
    assert outcome.failures == [] and len(said) == 1, said
    assert (
        "10 inputs (2 samples, 4 worst, 4 largest)" in said[0]
        and "no undefined behaviour seen" in said[0]
    )
    assert all(f"({n})" in said[0] for n in (10,)) and said[0].count("(10)") == 3, said
    assert outcome.notes == [f"sanitizer phase: {said[0].strip()[len('sanitizer') :].strip()}"]
    bad, lines = _phase("word_game", UB / "word_hash_overflow.c", ("worst",))
    assert [f.verdict for f in bad.failures] == [Verdict.UB], lines
    found = bad.failures[0]
    assert found.phase == "sanitizer" and found.shrink is not None and found.size <= 7, found
    assert any(
        n.startswith("reproduce: ") and "-fsanitize=address,undefined" in n for n in found.notes
    )
    assert any("the judge's build answers right on this input" in n for n in found.notes)


@pytest.mark.slow
def test_sanitizer_runs_cut_by_its_time_are_not_certified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The phase's time is part of the budget (the first line says how much) and runs it leaves
    out make the evidence incomplete: with no time for it, a right C program is PASSED
    (incomplete), the sentence naming the sanitizer runs; the control, with its time, CERTIFIED."""
    _need_gcc()
    from gamecert.engine.certification import certify, options

    opts = options(
        registry.get("word_game"),
        budget=12,
        seed=1,
        jobs=1,
        phases="samples",
        report_dir=str(tmp_path),
    )
    program = str(PROGRAMS / "c" / "word_game_right.c")
    control = certify(opts, program)
    assert "budget 12 s (up to 3 s of it for sanitizer runs)" in control.lines[0], control.lines[0]
    cert = json.loads((Path(control.path) / "certificate.json").read_text())
    assert "sanitizer runs" not in cert["incomplete"] and "no undefined behaviour seen" in " ".join(
        cert["notes"]
    )
    from gamecert.engine import certification

    real = certification.run_phase

    def no_time(*args: object, **kwargs: object) -> None:  # neither its share nor the core's
        real(*args, **{**kwargs, "seconds": 0.0, "core_seconds": 0.0})  # type: ignore[arg-type]

    monkeypatch.setattr(certification, "run_phase", no_time)
    cut = certify(opts, program)
    cert = json.loads((Path(cut.path) / "certificate.json").read_text())
    assert cut.status == 0 and cut.verdict == "PASSED (incomplete)", cut.lines
    assert "sanitizer runs (cut at the phase's time)" in cert["incomplete"], cert["incomplete"]
    assert any("runs of its core left out at the phase's time cap" in n for n in cert["notes"]), (
        cert["notes"]
    )


def test_a_cut_phase_runs_its_first_inputs_under_every_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Time for three runs: the first input under each of the three builds, not the asan build on
    three inputs (CI: an uninitialised read only the pattern build shows went unseen when asan took
    the whole phase); the rest are counted as left out. The sources of inputs are taken in turn."""
    from gamecert.engine.judge import sanitize

    class Fake:
        candidate = None

        def __init__(self) -> None:
            self.runs: list[tuple[str, str]] = []

        def build(self, kind: str) -> None:
            pass

        def run(self, kind: str, instance: object, text: str) -> tuple[None, None]:
            self.runs.append((kind, text))
            return None, None

    fake = Fake()
    clock = iter(range(100))
    monkeypatch.setattr(sanitize.time, "monotonic", lambda: next(clock))
    inputs = [("samples", None, "a"), ("worst-x", None, "bb"), ("largest", None, "ccc")]
    # the clock ticks once a look: three before the builds (none started past the deadline),
    # then one before each run; time for three runs ends at 5.5
    found, ran, skipped, why_not = sanitize._search(fake, inputs, 5.5, tuple(sanitize.BUILDS))  # noqa: SLF001
    assert found is None and not why_not
    assert fake.runs == [("asan", "a"), ("pattern", "a"), ("zero", "a")], fake.runs
    assert ran == {"asan": 1, "pattern": 1, "zero": 1} and skipped == 6


def test_no_compiler_is_started_past_the_phases_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A phase whose time is up before its builds (they compile beside the plan's first phases,
    and the phase waits for them only until its deadline) starts no compiler: each build is named
    as not built and its runs counted as left out, so the evidence is incomplete. Control: with
    time, every build is made."""
    from gamecert.engine.judge import sanitize

    class Fake:
        candidate = None

        def __init__(self) -> None:
            self.built: list[str] = []

        def build(self, kind: str) -> None:
            self.built.append(kind)

        def run(self, kind: str, instance: object, text: str) -> tuple[None, None]:
            return None, None

    inputs = [("samples", None, "a"), ("largest", None, "ccc")]
    late = Fake()
    monkeypatch.setattr(sanitize.time, "monotonic", lambda: 10.0)
    found, ran, skipped, why_not = sanitize._search(late, inputs, 5.0, tuple(sanitize.BUILDS))  # noqa: SLF001
    assert late.built == [] and found is None and skipped == 6
    assert sorted(why_not) == sorted(sanitize.BUILDS) and all(
        "not built" in why for why in why_not.values()
    )
    early = Fake()
    monkeypatch.setattr(sanitize.time, "monotonic", lambda: 0.0)
    sanitize._search(early, inputs, 5.0, tuple(sanitize.BUILDS))  # noqa: SLF001
    assert early.built == list(sanitize.BUILDS)


# ---- long: whole certifications ---------------------------------------------------------------


def _certify(
    tmp_path: Path,
    game: str,
    program: Path,
    *args: str,
    sanitize: bool = True,
    env: dict[str, str] | None = None,
) -> tuple[int, str, dict, Path]:
    env = {k: v for k, v in (env or os.environ).items() if k != "GAMECERT_EXHAUSTIVE_RUNS"}
    env["GAMECERT_SANITIZE"] = "1" if sanitize else "0"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            game,
            str(program),
            "--report-dir",
            str(tmp_path),
            "--profile",
            "default",
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )
    folder = Path(proc.stdout.strip().splitlines()[-1])
    name = "report.json" if proc.returncode == 1 else "certificate.json"
    data = json.loads((folder / name).read_text()) if (folder / name).is_file() else {}
    return proc.returncode, proc.stdout + proc.stderr, data, folder


#: the phases whose inputs the sanitizer phase runs (its core)
PHASE_INPUTS = ("--phases", "samples,worst,largest")


@pytest.mark.long
@pytest.mark.parametrize("seed", (1, 2))
@pytest.mark.parametrize("name", sorted(CASES))
def test_ub_programs_are_ub(name: str, seed: int, tmp_path: Path) -> None:
    """Certified under the default profile (a short budget: the phase runs after the plan), each
    UB program is UB, at the line its header names and, where known, at its smallest size. The
    plan holds the phases whose inputs the sanitizer phase runs (the samples, worst and largest
    inputs), and the sanitizer builds are made first, into the build cache the certification
    reads (as a user's second run finds them): the run ends when they are done, and its budget
    (30 s) is room for a loaded machine, where a whole plan and three compilers did not fit in
    6 s (CI, at three certifications at once)."""
    _need_gcc()
    from gamecert.engine.run.toolchains import sanitizer_build

    game, kind, _, _, smallest = CASES[name]
    for build in BUILDS:
        sanitizer_build(UB / name, build)
    status, out, report, folder = _certify(
        tmp_path, game, UB / name, "--seed", str(seed), "--budget", "30", *PHASE_INPUTS
    )
    assert status == 1 and report.get("verdict") == "UB", out
    assert report["phase"] == "sanitizer"
    if kind == "asan":
        assert f"{name}:{_header_line(UB / name)}:" in report["reason"], report["reason"]
    else:
        assert BUILDS[kind] in report["reason"], report["reason"]
        if shutil.which("valgrind"):
            used = re.search(r"used at line (\d+)", (UB / name).read_text()).group(1)
            assert report["reason"].startswith(f"{UB / name}:{used}: "), report["reason"]
    if smallest is not None:
        assert report["size"] == smallest, (report["size"], report["input"])
    assert any(n.startswith("reproduce: ") for n in report["notes"])
    if seed == 1:  # replay: the judge's build answers right, then a sanitizer build fires again
        again = subprocess.run(
            [sys.executable, "-m", "gamecert", "replay", str(folder)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=300,
        )
        assert again.returncode == 1 and "verdict:  UB (undefined behaviour)" in again.stdout, (
            again.stdout
        )


@pytest.mark.long
@pytest.mark.control
@pytest.mark.parametrize("name", sorted(CASES))
def test_ub_programs_pass_without_the_phase(name: str, tmp_path: Path) -> None:
    """The control: with the sanitizer phase off the same certification finds nothing (CERTIFIED,
    or PASSED (incomplete) at this short budget), so it is the phase, not a family, that finds them."""
    _need_gcc()
    game = CASES[name][0]
    status, out, cert, _ = _certify(
        tmp_path, game, UB / name, "--seed", "1", "--budget", "10", sanitize=False
    )
    # nothing found: CERTIFIED, or PASSED (incomplete) where the short budget cut the plan
    assert status == 0 and cert.get("verdict") in ("CERTIFIED", "PASSED (incomplete)"), out
    assert not any("sanitizer phase" in n for n in cert.get("notes", [])), cert.get("notes")


@pytest.mark.long
@pytest.mark.parametrize("program", ("c/word_game_right.c", "cpp/word_game_right.cpp"))
def test_right_programs_no_false_alarm(program: str, tmp_path: Path) -> None:
    """The right C and C++ programs of tests/programs pass with the phase on (no finding: CERTIFIED,
    or PASSED (incomplete) at this short budget), and the certificate says what it ran."""
    _need_gcc()
    status, out, cert, _ = _certify(
        tmp_path, "word_game", PROGRAMS / program, "--seed", "1", "--budget", "10"
    )
    # nothing found: CERTIFIED, or PASSED (incomplete) where the short budget cut the plan
    assert status == 0 and cert.get("verdict") in ("CERTIFIED", "PASSED (incomplete)"), out
    assert any(
        n.startswith("sanitizer phase: ") and "no undefined behaviour seen" in n
        for n in cert["notes"]
    ), cert


@pytest.mark.slow
def test_a_build_that_fails_only_instrumented_is_said(cache: Path, tmp_path: Path) -> None:
    """A source that does not compile under AddressSanitizer (it refuses ``__SANITIZE_ADDRESS__``)
    still gets the other builds, and the phase's line says which build did not run and why; no
    finding comes of it. The control: the same source without the refusal runs all three."""
    _need_gcc()
    right = (PROGRAMS / "c" / "word_game_right.c").read_text()
    refusing = tmp_path / "refuses.c"
    refusing.write_text("#ifdef __SANITIZE_ADDRESS__\n#error no sanitizers here\n#endif\n" + right)
    outcome, said = _phase("word_game", refusing, ())
    assert outcome.failures == [] and len(said) == 1, said
    assert (
        "-fsanitize=address,undefined not run: " in said[0] and "no sanitizers here" in said[0]
    ), said
    assert (
        "-O0 -ftrivial-auto-var-init=pattern (2)" in said[0]
        and "-O0 -ftrivial-auto-var-init=zero (2)" in said[0]
    )
    plain = tmp_path / "plain.c"
    plain.write_text(right)
    _, lines = _phase("word_game", plain, ())
    assert "not run" not in lines[0] and "-fsanitize=address,undefined (2)" in lines[0], lines


@pytest.mark.slow
def test_a_faults_input_gets_the_sanitizers_word(cache: Path) -> None:
    """Beside a fault of the plan's own, only the fault's input runs, under the asan build: where
    it fires, its line and the reproducing command go into the fault's notes and the verdict stays
    the fault's; the control, a right program with the same stand-in fault, gets a note that no
    undefined behaviour was seen on it."""
    from gamecert.engine.judge.judge import Failure

    _need_gcc()
    entry = registry.get("word_game")
    plan = make_plan(entry, get_profile("default"), 1, budget_s=8, phases=())
    text = "ZZZZZZZ\n"
    for program, fires in (
        (UB / "word_hash_overflow.c", True),
        (PROGRAMS / "c" / "word_game_right.c", False),
    ):
        fault = Failure(
            Verdict.WA,
            entry.game.parse_input(text),
            text,
            "Alice\n",
            "Bob\n",
            "stand-in",
            "coverage",
            7,
        )
        outcome = Outcome(plan, Stats(), failures=[fault])
        said: list[str] = []
        run_phase(
            entry,
            Candidate.parse(str(program)),
            plan,
            outcome,
            game_limits(entry.game),
            said.append,
        )
        assert [f.verdict for f in outcome.failures] == [Verdict.WA], program
        notes = [n for n in fault.notes if n.startswith("under the sanitizer build")]
        if fires:
            assert (
                len(notes) == 1 and f"word_hash_overflow.c:{_header_line(program)}:" in notes[0]
            ), fault.notes
            assert "reproduce: " in notes[0] and outcome.notes == [], outcome.notes
        else:
            assert notes == [] and len(outcome.notes) == 1, (fault.notes, outcome.notes)
            assert (
                "1 input (1 the fault)" in outcome.notes[0]
                and "no undefined behaviour seen" in outcome.notes[0]
            )
            assert "(1)" in outcome.notes[0] and "auto-var-init" not in outcome.notes[0]


def test_the_phases_depth_cut_by_its_time_leaves_the_core_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The inputs handed in (the guided corpus) are the phase's depth: cut by the phase's time,
    they are counted apart and leave no core run out, while the core's inputs go on until the
    core's own deadline. Control: with no later deadline for the core, the same clock leaves core
    runs out."""
    from gamecert.engine.judge import sanitize

    class Fake:
        candidate = None
        plain_fault = None
        depth_left = 0

        def __init__(self) -> None:
            self.runs: list[tuple[str, str]] = []

        def build(self, kind: str) -> None:
            pass

        def run(self, kind: str, instance: object, text: str) -> tuple[None, None]:
            self.runs.append((kind, text))
            return None, None

    inputs = [("samples", None, "a"), ("largest", None, "cc"), (sanitize.HANDED_IN, None, "b")]
    kinds = tuple(sanitize.BUILDS)
    fake = Fake()
    clock = iter(range(100))
    monkeypatch.setattr(sanitize.time, "monotonic", lambda: next(clock))
    # three looks before the builds, then one before each run: the phase's own time ends at 4.5,
    # the core's at 50
    found, ran, skipped, _ = sanitize._search(fake, inputs, 4.5, kinds, 50.0)  # noqa: SLF001
    assert found is None and skipped == 0 and fake.depth_left == 3, (skipped, fake.depth_left)
    assert [t for _, t in fake.runs] == ["a"] * 3 + ["cc"] * 3
    control = Fake()
    clock = iter(range(100))
    found, ran, skipped, _ = sanitize._search(control, inputs, 4.5, kinds)  # noqa: SLF001
    assert skipped == 4 and control.depth_left == 3 and len(control.runs) == 2
    # the order: the core's sources in turn, the inputs handed in last
    assert [sanitize.is_core(w) for w, _, _ in inputs] == [True, True, False]


def test_the_phases_lanes_share_the_inputs_and_stop_at_a_finding() -> None:
    """Two lanes deal the inputs between them (each under every build); a finding stops the runs
    of the inputs after it, the first in order is reported whichever lane ends first (CI: two
    lanes made digit_shift_width.cpp's report 66 digits long where its first finding's shrink
    gives 65); the figures are summed. Control: one lane runs them all in order."""
    import threading

    from gamecert.engine.judge import sanitize

    seen: list[tuple[int, str, str]] = []
    lock = threading.Lock()

    class Fake:
        candidate = None
        depth_left = 0

        def __init__(self, k: int, fire: str = "") -> None:
            self.k, self.fire, self.plain_fault = k, fire, None

        def build(self, kind: str) -> None:
            pass

        def run(self, kind: str, instance: object, text: str) -> tuple[object, object]:
            with lock:
                seen.append((self.k, kind, text))
            if text == self.fire:

                class F:
                    notes: list[str] = []
                    size = 1

                return F(), object()
            return None, None

    inputs = [("samples", None, t) for t in "abcd"]
    kinds = tuple(sanitize.BUILDS)
    found, ran, skipped, _, owner = sanitize._lanes(  # noqa: SLF001
        [Fake(0), Fake(1)], inputs, 1e12, kinds, 1e12
    )
    assert found is None and sum(ran.values()) == 12 and skipped == 0
    assert {t for k, _, t in seen if k == 0} == {"a", "c"} and {
        t for k, _, t in seen if k == 1
    } == {
        "b",
        "d",
    }
    seen.clear()
    found, ran, _, _, owner = sanitize._lanes(  # noqa: SLF001
        [Fake(0), Fake(1, fire="b")], inputs, 1e12, kinds, 1e12
    )
    assert found is not None and owner.k == 1 and sum(ran.values()) < 12
    # the input placed after the finding ("d") never runs; the one before it ("a") always does
    assert "d" not in {t for _, _, t in seen} and "a" in {t for _, _, t in seen}
    # two findings: the first in the phase's order is reported, whichever lane ends first (the
    # lane of "b" is made to end first: "a"'s lane starts when "b"'s finding is in)
    seen.clear()
    b_found = threading.Event()

    class Late(Fake):
        def build(self, kind: str) -> None:
            b_found.wait(5)

    class Early(Fake):
        def run(self, kind: str, instance: object, text: str) -> tuple[object, object]:
            got = super().run(kind, instance, text)
            if text == "b":
                b_found.set()
            return got

    found, _, _, _, owner = sanitize._lanes(  # noqa: SLF001
        [Late(0, fire="a"), Early(1, fire="b")], inputs, 1e12, kinds, 1e12
    )
    assert found is not None and owner.k == 0 and owner.found_at == 0
    seen.clear()
    found, ran, _, _, _ = sanitize._lanes([Fake(0)], inputs, 1e12, kinds, 1e12)  # noqa: SLF001
    assert [t for _, _, t in seen] == [t for t in "abcd" for _ in kinds]


@pytest.mark.slow
def test_the_sanitizer_phase_hands_back_a_fault_of_the_judges_build(tmp_path: Path) -> None:
    """A C program right only as the fork server's clone (wrong, exec'd as a judge runs it, on
    words holding a B): with the plain audits off, the sanitizer phase's run of the judge's build
    beside its own builds (exec'd, as they are) sees the judge's build wrong and hands the input
    back as a fault: WA, found by an audit, never UB (the difference is the start, not undefined
    behaviour). Control: with the phase off the same short plan finds nothing."""
    _need_gcc()
    program = ROOT / "tests" / "candidates_evidence" / "forkserver_only_right_on_b.c"
    args = ("--phases", "samples,worst", "--budget", "10", "--seed", "1")
    env = {**os.environ, "GAMECERT_AUDIT_RATE": "0"}
    status, out, report, _ = _certify(tmp_path, "word_game", program, *args, env=env)
    assert status == 1 and report.get("verdict") == "WA", out
    assert report["phase"] == "sanitizer" and "B" in report["input"], report
    assert any(n.startswith("found by an audit") for n in report["notes"]), report["notes"]
    status, out, cert, _ = _certify(
        tmp_path / "off", "word_game", program, *args, sanitize=False, env=env
    )
    assert status == 0 and cert.get("verdict") in ("CERTIFIED", "PASSED (incomplete)"), out


def test_a_run_that_would_end_past_the_phases_time_is_not_started() -> None:
    """A build whose runs take 0.3 s, with 0.5 s for the phase: after its first run the next would
    end past the deadline, so it is not started (counted as left out) and the budget is kept.
    Control: runs of 0.01 s with the same inputs all run."""
    import time as clock

    from gamecert.engine.judge import sanitize

    class Slow:
        candidate = None
        plain_fault = None
        depth_left = 0

        def __init__(self, seconds: float) -> None:
            self.seconds, self.runs = seconds, 0

        def build(self, kind: str) -> None:
            pass

        def run(self, kind: str, instance: object, text: str) -> tuple[None, None]:
            clock.sleep(self.seconds)
            self.runs += 1
            return None, None

    inputs = [("samples", None, "a"), ("samples", None, "b")]
    slow = Slow(0.3)
    _, _, skipped, _ = sanitize._search(slow, inputs, clock.monotonic() + 0.5, ("asan",))  # noqa: SLF001
    assert slow.runs == 1 and skipped == 1, (slow.runs, skipped)
    quick = Slow(0.01)
    _, _, skipped, _ = sanitize._search(quick, inputs, clock.monotonic() + 5.0, ("asan",))  # noqa: SLF001
    assert quick.runs == 2 and skipped == 0


def test_a_flood_of_output_without_a_space_is_read_in_one_pass() -> None:
    """A program that printed 200 million letters on a near-constant input held the harness for
    ten minutes: the sanitizer's report was read with a pattern that looked for the build's path
    from each character of the output (the square of its length). The path is now taken back
    from each ``/main.c`` it holds, and only the output's tail is read; the report after the
    flood is still found. Control: the same report alone."""
    import time
    from types import SimpleNamespace

    from gamecert.engine.judge.sanitize_read import read_finding

    report = (
        "/tmp/b/.building-x/main.c:9:5: runtime error: signed integer overflow: "
        "2147483647 + 1 cannot be represented in type 'int'\n"
    )
    flood = SimpleNamespace(stdout="Y" * 20_000_000 + "\n" + report, stderr_tail="")
    began = time.monotonic()
    found = read_finding("asan", flood, "prog.c")
    took = time.monotonic() - began
    alone = read_finding("asan", SimpleNamespace(stdout=report, stderr_tail=""), "prog.c")
    assert found == alone and found is not None and found.where == "prog.c:9"
    assert took < 60.0, took  # a hang guard, not a speed claim (the former pattern: minutes)
