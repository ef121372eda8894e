"""``gamecert certify CANDIDATE``, ``gamecert replay`` and ``pytest --candidate``, end to end.

Every test drives the real command line (a subprocess, as a user would) or the real pytest
plugin, with the real sandbox, on programs in ``examples/``, ``tests/candidates/`` (broken at
the process level: crash, hang, memory hog, output flood, garbage) and
``tests/candidates_certify/`` (broken at the game level: a rare wrong answer, a batch answered
partly, a malformed answer). Budgets are kept small through ``GAMECERT_EXHAUSTIVE_RUNS`` and
``--examples`` so the whole file runs in well under a minute.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamecert.engine import registry
from tests._terminal import sigint_default

ROOT = Path(__file__).resolve().parent.parent
MINE = ROOT / "tests" / "candidates_certify"
SANDBOX_CANDIDATES = ROOT / "tests" / "candidates"
REPORT_KEYS = {"game", "candidate", "candidate_spec", "verdict", "input", "expected", "got", "seed"}


def gamecert(
    *args: str, runs: int = 40, cwd: Path = ROOT, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS=str(runs))
    return subprocess.run(
        [sys.executable, "-m", "gamecert", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )


def certify(
    game: str, candidate: Path | str, tmp_path: Path, *extra: str, runs: int = 40, examples: int = 0
) -> tuple[subprocess.CompletedProcess[str], Path]:
    proc = gamecert(
        "certify",
        game,
        str(candidate),
        "--profile",
        "quick",
        "--examples",
        str(examples),
        "--seed",
        "7",
        "--report-dir",
        str(tmp_path / "reports"),
        *extra,
        runs=runs,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    return proc, Path(last)


def report_of(proc: subprocess.CompletedProcess[str], path: Path) -> dict:
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert path.is_dir(), proc.stdout
    assert sorted(p.name for p in path.iterdir()) == [
        "expected.ans",
        "input.in",
        "report.json",
        "report.md",
    ]
    data = json.loads((path / "report.json").read_text())
    assert set(data) >= REPORT_KEYS
    assert (path / "input.in").read_text() == data["input"]
    assert (path / "expected.ans").read_text() == data["expected"]
    md = (path / "report.md").read_text()
    for needle in (data["verdict"], f"Seed:** {data['seed']}", f"gamecert replay {path}"):
        assert needle in md
    return data


def first_failure_by_brute_force(game: str, candidate: Path, max_size: int) -> str:
    """The smallest single-game input (sizes ascending, spaces in order) the candidate gets wrong,
    found by running the program in this process on every input of every exhaustive space;
    independent of the engine (no sandbox, no batching, no planning)."""
    g = registry.get(game).game
    code = compile(candidate.read_text(), str(candidate), "exec")

    def run(text: str) -> str:
        out, old_stdin = io.StringIO(), sys.stdin
        sys.stdin = io.StringIO(text)
        try:
            with contextlib.redirect_stdout(out):
                exec(code, {"__name__": "__main__"})
        finally:
            sys.stdin = old_stdin
        return out.getvalue()

    for size in range(1, max_size + 1):
        for space in g.exhaustive_spaces():
            if size not in space.sizes:
                continue
            for inst in space.instances(size):
                text = g.format_input(inst)
                if run(text).split() != g.format_answer(g.oracle(inst)).split():
                    return text
    raise AssertionError(f"{candidate.name} has no failure up to size {max_size}")


# ---- verdicts from game-level faults ---------------------------------------------------------------


@pytest.fixture(scope="module")
def wrong_example(tmp_path_factory) -> tuple[subprocess.CompletedProcess[str], Path, Path]:
    """The shipped wrong example certified once for the tests that read its run: the command's
    result, the report's folder and the report tree."""
    tmp = tmp_path_factory.mktemp("wrong-example")
    proc, path = certify("word_game", ROOT / "examples/word_game/wrong.py", tmp)
    return proc, path, tmp / "reports"


def test_example_wrong_word_game_gives_minimal_report(wrong_example):
    """The shipped wrong example is caught with the minimal input AAA, and the report is complete."""
    proc, path, _ = wrong_example
    data = report_of(proc, path)
    assert data["verdict"] == "WA"
    assert data["input"] == "AAA\n"
    assert data["expected"].split() == ["Alice"] and data["got"].split() == ["Bob"]
    assert data["seed"] == 7 and data["game"] == "word_game" and data["candidate"] == "wrong"
    assert "summary:" in proc.stdout and "tests/s" in proc.stdout


def test_rare_wrong_answer_is_found_minimal(tmp_path):
    """A bug on rare inputs only (a letter seven times among three letters) is found by the sweep,
    and the reported input equals the first failing input found by brute force."""
    candidate = MINE / "word_game_rare.py"
    proc, path = certify("word_game", candidate, tmp_path, runs=200)
    data = report_of(proc, path)
    assert data["verdict"] == "WA"
    assert data["input"] == first_failure_by_brute_force("word_game", candidate, 9)
    assert data["input"] == "AAAAAAABC\n"
    assert "every input of size < 9" in data["minimality"]


def test_failing_batch_is_narrowed_to_one_game(tmp_path):
    """digit_game runs 100 games per input; a wrong answer inside a batch is reported as the
    single failing game (t = 1), the same one brute force over single games finds first."""
    candidate = MINE / "digit_game_rare.py"
    proc, path = certify("digit_game", candidate, tmp_path, runs=5)
    data = report_of(proc, path)
    assert data["verdict"] == "WA"
    assert data["input"].split("\n")[0] == "1"  # t = 1
    assert data["input"] == first_failure_by_brute_force("digit_game", candidate, 6)
    assert any("batch" in note for note in data["notes"])
    # batches of many games ran; the runs that follow a fault (confirming, narrowing to one game,
    # shrinking) hold one game each, and the deciding-feature family finds this fault in its
    # first batches, so those runs weigh more than they did
    tests, runs = _summary_counts(proc.stdout)
    assert tests > 2 * runs


def _summary_counts(stdout: str) -> tuple[int, int]:
    line = next(line for line in stdout.splitlines() if line.startswith("summary:"))
    match = re.match(r"summary: (\d+) tests in .*?\), (\d+) runs", line)
    assert match, line
    return int(match.group(1)), int(match.group(2))


def test_batch_answered_partly_is_a_wrong_answer(tmp_path):
    """Answering fewer lines than t is WA (a missing token: wcmp's "unexpected EOF"); every game alone passes, so the report holds the
    shortest failing prefix of the batch: 11 games for a program that answers at most 10."""
    proc, path = certify("digit_game", MINE / "digit_game_partial.py", tmp_path, runs=3)
    data = report_of(proc, path)
    assert data["verdict"] == "WA" and "unexpected end of output" in data["reason"]
    assert data["input"].split("\n")[0] == "11"
    assert len(data["got"].split()) == 10
    assert any("prefix" in note for note in data["notes"])


def test_answer_missing_its_number_is_a_wrong_answer(tmp_path):
    """'First' without the cut position is a missing token: WA (as wcmp says), on the first
    winning string, aaa."""
    proc, path = certify("string_cut", MINE / "string_cut_no_position.py", tmp_path)
    data = report_of(proc, path)
    assert data["verdict"] == "WA" and "expected the cut position" in data["reason"]
    assert data["input"] == "aaa\n"


def test_answers_are_compared_after_whitespace_normalisation(tmp_path):
    """'First 7' on one line is the same answer as two lines: a right program passes (exit 0), with a
    certificate stating its evidence; the plan here is partial (60 exhaustive runs, no families),
    so its word is PASSED (incomplete), never CERTIFIED."""
    proc, path = certify(
        "string_cut",
        MINE / "string_cut_one_line.py",
        tmp_path,
        "--phases",
        "exhaustive,random,largest",
        runs=60,
        examples=5,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(p.name for p in path.iterdir()) == ["certificate.json", "certificate.md"]
    cert = json.loads((path / "certificate.json").read_text())
    assert cert["verdict"] == "PASSED (incomplete)" and cert["seed"] == 7
    assert cert["left_out"][0] == "coverage, worst, guided (left out with --phases)", cert[
        "left_out"
    ]
    assert cert["samples"] == 2 and cert["random_examples"] == 5
    assert cert["largest_sizes"] and max(cert["largest_sizes"]) == 5000
    swept = {s["name"]: s for s in cert["exhaustive"]}
    # 60 runs cover every abc-string up to length 3 (39) and the ab-strings of length 4 (16)
    assert swept["abc-strings"]["up_to"] == 3 and swept["abc-strings"]["inputs"] == 39
    assert swept["ab-strings"]["up_to"] == 4 and swept["ab-strings"]["inputs"] == 30
    assert cert["skipped_phases"] == [
        "coverage",
        "worst",
        "guided",
    ]  # guided: not named in --phases
    assert cert["tests"] == 2 + 39 + 16 + 5 + len(cert["largest_sizes"])
    assert cert["slowest_s"] > 0
    assert (
        "PASSED (incomplete)" in proc.stdout
        and "CERTIFIED" not in proc.stdout
        and "tests/s" in proc.stdout
    )


@pytest.mark.slow
def test_random_phase_shrinks_and_replays_with_its_seed(tmp_path):
    """A bug beyond the exhaustive sweep (words of 30+ letters) is found by Hypothesis and shrunk
    to 30 letters; the same seed gives the same report input."""
    inputs = []
    for run in range(2):
        proc, path = certify(
            "word_game",
            MINE / "word_game_long.py",
            tmp_path / str(run),
            "--phases",
            "samples,exhaustive,random",
            runs=20,
            examples=60,
        )
        data = report_of(proc, path)
        assert data["verdict"] == "WA" and data["phase"] == "random"
        inputs.append(data["input"])
    assert inputs[0] == inputs[1]
    assert len(inputs[0].strip()) == 30


# ---- verdicts from process-level faults (the sandbox's broken programs) ---------------------------------

#: the sandbox's broken programs (tests/candidates/README.md) and the verdict each must get
PROCESS_FAULTS = {
    "crash_exception.py": "RE",
    "crash_segv.py": "RE",
    "exit_nonzero.py": "RE",
    "kill_parent.py": "RE",  # run --no-contain: contained, its kill is lost (tests/test_sandbox.py)
    "hang_busy.py": "TLE",
    "sleep_forever.py": "TLE",
    "memory_hog.py": "MLE",
    "output_flood.py": "OLE",
    "garbage_bytes.py": "WA",  # a word that is neither Alice nor Bob
}


def _sandbox_candidates() -> list[tuple[str, str]]:
    return sorted(PROCESS_FAULTS.items())


def test_every_process_fault_kind_is_present():
    """The broken programs exist and cover crash, hang, memory hog, output flood and garbage."""
    for name in PROCESS_FAULTS:
        assert (SANDBOX_CANDIDATES / name).is_file(), name
    assert set(PROCESS_FAULTS.values()) == {"RE", "TLE", "MLE", "OLE", "WA"}


@pytest.mark.slow
@pytest.mark.parametrize("name,verdict", _sandbox_candidates())
def test_process_faults_get_their_verdict(tmp_path, name, verdict):
    """Each broken program gets its verdict on the first sample, the harness stays up (a normal
    exit with a report), and the stderr tail or limit reached is in the report. A TLE program
    gets 0.2 s: each of the ~18 runs its fault takes (re-runs, the sweep below the sample, the
    narrowing) lasts the whole limit."""
    extra = (
        ["--no-contain"] if name == "kill_parent.py" else []
    )  # the supervisor's death, through the CLI
    limit = "0.2" if verdict == "TLE" else "0.5"
    proc, path = certify(
        "word_game",
        SANDBOX_CANDIDATES / name,
        tmp_path,
        "--time-limit",
        limit,
        "--memory-limit",
        "128",
        *extra,
        runs=1,
    )
    data = report_of(proc, path)
    assert data["verdict"] == verdict, data["reason"]
    assert data["input"] == "A\n"  # the sweep's first input: smaller than the failing sample
    if verdict == "TLE":
        assert data["wall_s"] is not None and data["wall_s"] < 5


# ---- exit codes, replay, interruption ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,needle",
    [
        (("certify", "no_such_game", "examples/word_game/wrong.py"), "unknown game"),
        (("certify", "word_game", "examples/word_game/missing.py"), "does not exist"),
        (
            ("certify", "word_game", "examples/word_game/wrong.py", "--time-limit", "0"),
            "time-limit",
        ),
        (("certify", "word_game", "examples/word_game/wrong.py", "--examples", "-1"), "--examples"),
        (("certify", "all", "examples/word_game/wrong.py"), "one game"),
        (
            ("certify", "word_game", "examples/word_game/wrong.py", "--profile", "fast"),
            "invalid choice",
        ),
        (("replay", "examples"), "no report.json"),
        (("check", "word_game", "examples/claims/missing.txt"), "cannot read"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args, needle):
    proc = gamecert(*args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr
    assert (
        len([line for line in proc.stderr.splitlines() if line.startswith("gamecert: error")]) == 1
    )


def test_replay_reruns_the_input_and_tells_when_fixed(tmp_path):
    """replay prints expected, got and the verdict (exit 1); once the program is fixed, OK (exit 0)."""
    program = tmp_path / "mine.py"
    program.write_text((ROOT / "examples/word_game/wrong.py").read_text())
    proc, path = certify("word_game", program, tmp_path)
    report_of(proc, path)
    again = gamecert("replay", str(path), cwd=tmp_path)
    assert again.returncode == 1, again.stdout + again.stderr
    lines = dict(line.split(":", 1) for line in again.stdout.splitlines() if ":" in line)
    assert lines["input"].strip() == "AAA"
    assert lines["expected"].split()[0] == "Alice" and lines["got"].strip() == "Bob"
    assert lines["verdict"].split()[0] == "WA"
    program.write_text(
        (ROOT / "tests/candidates_certify/word_game_slow.py")
        .read_text()
        .replace("time.sleep(0.05)", "")
    )
    fixed = gamecert("replay", str(path))
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "verdict:  OK" in fixed.stdout


def _interrupt(
    args: list[str], tmp_path: Path, wait_for: str, after: float
) -> tuple[subprocess.CompletedProcess[str], str]:
    """Start a certification, wait for a line of output containing ``wait_for``, let it run
    ``after`` seconds more, then press Ctrl-C (SIGINT)."""
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="300")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamecert", *args, "--report-dir", str(tmp_path / "r")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
        preexec_fn=sigint_default,
    )
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if wait_for in line:
            break
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    out = "".join(seen) + out
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, out, err
    ), out.strip().splitlines()[-1]


def test_ctrl_c_keeps_a_partial_certificate(tmp_path):
    """Interrupted with nothing found: exit 130 and a certificate marked interrupted, whose
    evidence covers only what ran."""
    proc, last = _interrupt(
        ["certify", "word_game", str(MINE / "word_game_slow.py"), "--profile", "quick"],
        tmp_path,
        wait_for="samples",
        after=1.0,
    )
    assert proc.returncode == 130, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    cert = json.loads((Path(last) / "certificate.json").read_text())
    assert cert["interrupted"] is True and cert["verdict"] == "INTERRUPTED"
    assert cert["samples"] == 2 and 2 < cert["tests"] < 300
    for space in cert["exhaustive"]:
        assert space["complete"] is False
        assert space["up_to"] is None or space["inputs"] <= cert["tests"]


@pytest.mark.slow
def test_ctrl_c_keeps_a_fault_already_found(tmp_path):
    """A fault found on a sample is written when the run is interrupted while it looks for a
    smaller one: exit 1 and a report marked interrupted."""
    proc, last = _interrupt(
        [
            "certify",
            "word_game",
            str(MINE / "word_game_slow_sample_wrong.py"),
            "--profile",
            "quick",
        ],
        tmp_path,
        wait_for="sweeping",
        after=0.5,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = json.loads((Path(last) / "report.json").read_text())
    assert data["input"] == "ZADACHA\n" and data["verdict"] == "WA" and data["interrupted"] is True


def test_no_temporary_directories_left_behind(wrong_example):
    """After runs that pass, fail and are interrupted, the report tree holds only whole reports."""
    _, _, tree = wrong_example
    assert list(tree.rglob("report.json"))
    for path in tree.rglob("*"):
        assert not path.name.startswith("."), path


# ---- the pytest plugin ------------------------------------------------------------------------------


def _pytest_candidate(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="40")
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--rootdir",
            str(tmp_path),
            "--candidate-profile",
            "quick",
            "--candidate-examples",
            "4",
            "--candidate-seed",
            "3",
            "--candidate-report-dir",
            str(tmp_path / "reports"),
            "--junitxml",
            str(tmp_path / "junit.xml"),
            # items, workers and reports: the designed families (thousands of tests) add nothing to it
            "--candidate-phases",
            "exhaustive,random,largest",
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=180,
    )


@pytest.mark.slow
def test_pytest_plugin_spreads_items_and_reports_through_pytest(tmp_path):
    """``pytest -n 2 --candidate`` makes one item per chunk, runs them on two workers, fails the
    items that find the bug (visible in junit XML) and writes the minimal report."""
    proc = _pytest_candidate(
        tmp_path,
        "-n",
        "2",
        "--candidate",
        f"word_game={ROOT / 'examples/word_game/wrong.py'}",
        "--candidate",
        f"word_game={ROOT / 'examples/word_game/correct.py'}",
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    xml = (tmp_path / "junit.xml").read_text()
    assert 'name="exhaustive-size-3"' in xml and "<failure" in xml
    assert "candidate/word_game/wrong" in xml and "candidate/word_game/correct" in xml
    reports = list((tmp_path / "reports" / "word_game").glob("*/report.json"))
    assert len(reports) == 1
    assert json.loads(reports[0].read_text())["input"] == "AAA\n"
    certs = list((tmp_path / "reports" / "word_game").glob("*/certificate.json"))
    assert len(certs) == 1 and json.loads(certs[0].read_text())["verdict"] == "PASSED (incomplete)"
    assert json.loads(certs[0].read_text())["skipped_phases"] == [
        "coverage",
        "worst",
        "guided",
    ]  # --candidate-phases
    assert str(reports[0].parent) in proc.stdout


def test_pytest_route_refuses_an_unknown_phase(tmp_path):
    """``--candidate-phases`` names phases as ``certify --phases`` does: a wrong name is a usage
    error naming the phases, before anything runs."""
    proc = _pytest_candidate(
        tmp_path,
        "--candidate",
        f"word_game={ROOT / 'examples/word_game/correct.py'}",
        "--candidate-phases",
        "exhaustive,randm",
    )
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "unknown phase 'randm'" in proc.stderr and "largest" in proc.stderr
    assert not (tmp_path / "reports").exists()


def test_pytest_plugin_adds_nothing_without_candidate(tmp_path):
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--rootdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout
    assert "gamecert candidates" not in proc.stdout


@pytest.mark.slow
@pytest.mark.parametrize("seed", ["1", "2"])
def test_a_budgeted_exhaustive_phase_goes_deep_in_a_cheap_space(tmp_path, seed):
    """Under a time budget each exhaustive space advances size by size, the cheapest next size
    first: a program wrong only on 13-letter words of distinct letters is caught at its smallest
    input (before, every space waited for the largest, and the phase never passed size 2)."""
    env = {k: v for k, v in os.environ.items() if k != "GAMECERT_EXHAUSTIVE_RUNS"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            "word_game",
            str(MINE / "word_game_distinct13.py"),
            "--phases",
            "exhaustive",
            "--budget",
            "20",
            "--seed",
            seed,
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    report = report_of(proc, Path(proc.stdout.strip().splitlines()[-1]))
    word = report["input"].split()[0]
    assert report["verdict"] == "WA" and len(word) == 13 == len(set(word)), report["input"]
    assert report["minimality"].startswith("minimal in size within letter-count multisets")


# ---- issue 36: the verdict word, the fault at the game's level, the report read top down ------------------

TOY_GAMES = ROOT / "tests" / "games_ok"


def _toy(
    tmp_path: Path, budget: str, *extra: str, game: str = "toy_ok"
) -> tuple[subprocess.CompletedProcess[str], dict]:
    """toy_ok's registered solver (in-process: no sandbox, cheap) certified with ``budget``; 50
    random examples (a fixed count: the random phase by time would run to the budget's end and a
    loaded machine could leave the largest inputs no time). ``game``: another game's closed_form."""
    env = dict(os.environ, GAMECERT_GAMES=str(TOY_GAMES))
    env.pop("GAMECERT_EXHAUSTIVE_RUNS", None)
    env.pop("GAMECERT_PROFILE", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            game,
            "solver:closed_form",
            "--seed",
            "1",
            "--examples",
            "50",
            "--budget",
            budget,
            "--report-dir",
            str(tmp_path / budget),
            *extra,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    folder = Path(proc.stdout.strip().splitlines()[-1])
    return proc, json.loads((folder / "certificate.json").read_text())


def test_certified_only_on_a_complete_plan_and_strict_exits_1_on_an_incomplete_one(tmp_path):
    """A budget too small for word_game's default plan (its 214,044 letter-count multisets cannot
    run in 0.05 s; toy_ok's whole plan can, on a quick machine): nothing found, but the word is
    PASSED (incomplete), with one sentence naming what was left out, exit 0 (1 with --strict).
    toy_ok's plan run to its end (6 s): CERTIFIED, exit 0 even with --strict."""
    short, cert = _toy(tmp_path, "0.05", game="word_game")
    assert short.returncode == 0, short.stdout + short.stderr
    assert cert["verdict"] == "PASSED (incomplete)" and cert["left_out"], cert
    assert "CERTIFIED" not in short.stdout and "PASSED (incomplete); certificate in" in short.stdout
    said = [
        line for line in short.stdout.splitlines() if line.startswith("  incomplete: left out: ")
    ]
    assert len(said) == 1 and cert["incomplete"] in said[0], short.stdout
    strict, _ = _toy(tmp_path / "strict", "0.05", "--strict", game="word_game")
    assert strict.returncode == 1, strict.stdout + strict.stderr
    whole, cert = _toy(tmp_path, "6", "--strict")
    assert whole.returncode == 0 and cert["verdict"] == "CERTIFIED" and cert["left_out"] == [], (
        whole.stdout
    )
    assert (
        cert["incomplete"] == ""
        and "incomplete" not in whole.stdout
        and "CERTIFIED; certificate in" in whole.stdout
    )
    # each phase's line once
    phases = [
        line.split()[0]
        for line in whole.stdout.splitlines()
        if line.startswith("  ") and line[2] != " "
    ]
    assert len(phases) == len(set(phases)), whole.stdout


def test_the_fault_is_told_at_the_game_level_and_the_report_reads_top_down(tmp_path):
    """string_cut_odd_first.py answers First (cut 2) on every odd length: sample 2 (abcde) fails
    and is named so; the sweep finds 'a'. The first line of why names the winner; no line says
    both "not swept" and FAIL; the minimal line is one short sentence; report.md is in order,
    containment once at the end, and its reproduce line run from the report's folder prints the
    reported output."""
    proc, path = certify("string_cut", MINE / "string_cut_odd_first.py", tmp_path, runs=40)
    data = report_of(proc, path)
    lines = proc.stdout.splitlines()
    assert "  samples     FAIL (WA) on sample 2 (`abcde`)" in proc.stdout, proc.stdout
    assert not [line for line in lines if "not swept" in line and "FAIL" in line], proc.stdout
    why = next(k for k, line in enumerate(lines) if line.startswith("  why:"))
    assert lines[why] == "  why:      the winner: expected Second, got First", proc.stdout
    assert lines[why + 1].strip() == "token 2 (the cut position after First): 2 is outside 1..1", (
        proc.stdout
    )
    minimal = next(line for line in lines if line.startswith("  minimal:"))
    assert minimal == "  minimal:  smallest possible: no input is smaller than size 1", minimal
    assert data["fault"] == "the winner: expected Second, got First" and data["input"] == "a\n"
    md = (path / "report.md").read_text()
    order = [
        "- **Verdict:** WA: the winner",
        "## Input",
        "## Expected",
        "## Got",
        "## Why",
        "## Reproduce",
        "## The game",
        "## Evidence",
        "## Notes",
        "## Replay",
        "## How it ran",
    ]
    at = [md.index(heading) for heading in order]
    assert at == sorted(at), list(zip(order, at))
    assert (
        md.count("Containment") <= 1
        and md.count("processes, CPU and memory") + md.count("Processes, CPU and memory") <= 1
    ), md
    command = data["reproduce"]
    assert command == f"python3 {MINE / 'string_cut_odd_first.py'} < input.in", command
    ran = subprocess.run(command, shell=True, cwd=path, capture_output=True, text=True, timeout=30)
    assert ran.stdout == data["got"], (ran.stdout, data["got"])
