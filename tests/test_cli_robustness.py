"""The command line under a hostile or careless user: every bad input is one line and exit 2,
every candidate fault a verdict, and nothing found is lost (a closed pipe, Ctrl-C, SIGTERM, a
report directory that cannot be written).

Each test drives the real command line in a subprocess, as a user would, with candidate programs
written into ``tmp_path``; budgets are tiny so the whole file runs in well under 30 seconds.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamecert.commands.new_game import check_name
from gamecert.errors import UsageError
from tests._terminal import sigint_default

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "examples" / "word_game" / "wrong.py"
CORRECT = ROOT / "examples" / "word_game" / "correct.py"

# word_game: Alice wins iff the xor over letters of g(count) is nonzero, g(c) = 3 if 3 | c else c % 3
_RIGHT_BODY = """
import sys, time
word = sys.stdin.readline().strip()
counts = [word.count(ch) for ch in set(word)]
total = 0
for c in counts:
    total ^= 3 if c % 3 == 0 else c % 3
"""


def gamecert(
    *args: str, cwd: Path = ROOT, stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamecert", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=stdin,
        timeout=timeout,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


def assert_usage_error(proc: subprocess.CompletedProcess[str], needle: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamecert: error: "), proc.stderr
    assert needle in lines[0], lines[0]


def quick(*extra: str) -> tuple[str, ...]:
    return (
        "--profile",
        "quick",
        "--exhaustive-runs",
        "3",
        "--examples",
        "2",
        "--seed",
        "5",
        *extra,
    )


# ---- options out of range: one line, exit 2, before anything runs ------------------------------------


@pytest.mark.parametrize(
    "option,value,needle",
    [
        (
            "--time-limit",
            "1e308",
            "--time-limit must be at most",
        ),  # was an OverflowError in the supervisor
        (
            "--memory-limit",
            "99999999999999",
            "--memory-limit must be at most",
        ),  # was an OverflowError
        ("--report-dir", "", "--report-dir is empty"),  # wrote into the current folder
    ],
)
def test_limits_and_report_dir_out_of_range(tmp_path, option, value, needle):
    assert_usage_error(
        gamecert("certify", "word_game", str(CORRECT), *quick(option, value)), needle
    )


def test_report_dir_that_is_a_file_is_refused_before_the_run(tmp_path):
    """Found out before the run, not after it has found a fault it then cannot write (was a
    NotADirectoryError traceback at the end of the run, and the finding lost)."""
    afile = tmp_path / "afile"
    afile.write_text("")
    for where in (afile, afile / "below"):
        proc = gamecert("certify", "word_game", str(WRONG), *quick("--report-dir", str(where)))
        assert_usage_error(proc, "cannot write reports there")
        assert proc.stdout == ""  # nothing ran


def test_report_dir_below_an_unsearchable_folder_is_a_usage_error(tmp_path, monkeypatch):
    """An ordinary user's --report-dir below a folder it may not search: mkdir and every later
    look at the path raise PermissionError; the refusal is the usual one line, not a traceback
    (found running gamecert as an unprivileged user; as root the folder's mode cannot refuse,
    so the kernel's refusal is stood in for). Control: without the stand-in the folder is made."""
    from pathlib import Path

    from gamecert.engine.report.report_files import check_report_dir
    from gamecert.errors import UsageError

    where = tmp_path / "locked" / "reports"

    def refused(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    with monkeypatch.context() as patch:
        for name in ("mkdir", "exists", "is_dir"):
            patch.setattr(Path, name, refused)
        with pytest.raises(UsageError, match="cannot write reports there: Permission denied"):
            check_report_dir(where, "word_game")
    assert check_report_dir(where, "word_game").is_dir()


def test_argparse_errors_are_one_line():
    assert_usage_error(
        gamecert("certify", "word_game", str(CORRECT), "--examples", "abc"), "invalid int value"
    )
    assert_usage_error(gamecert("certify"), "required")


# ---- a report that cannot be written where asked still is written --------------------------------------


def test_report_written_elsewhere_when_the_report_dir_fails(tmp_path, capsys):
    """The fault is printed before the report is written, and a failing write falls back to a
    fresh temporary directory (said on stderr) instead of a traceback that loses the finding."""
    from gamecert.engine.report.report_files import _write_somewhere

    def write(where: str) -> Path:
        if where == "gone":
            raise OSError(28, "No space left on device")
        target = Path(where) / "report"
        target.mkdir()
        return target

    path = _write_somewhere(write, "gone")
    try:
        assert path.is_dir() and path.parent != Path("gone")
        err = capsys.readouterr().err
        assert "cannot write to gone (No space left on device)" in err and str(path.parent) in err
    finally:
        path.rmdir()
        path.parent.rmdir()


# ---- closed pipe: the run goes on, the report is written, the exit status is true ------------------------


def test_output_into_a_closed_pipe_keeps_the_report_and_exit_status(tmp_path):
    """`gamecert certify ... | head -1` used to stop at the second line: no report, exit 0."""
    reports = tmp_path / "r"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            "word_game",
            str(WRONG),
            *quick("--report-dir", str(reports)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    proc.stdout.readline()
    proc.stdout.close()  # the reader goes away, as `head -1` does
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 1, err
    assert "Traceback" not in err
    written = list((reports / "word_game").iterdir())
    assert (
        len(written) == 1
        and json.loads((written[0] / "report.json").read_text())["verdict"] == "WA"
    )


def test_list_into_a_closed_pipe_is_quiet():
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamecert", "list"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0 and err == ""


# ---- interrupted while a fault is being shrunk ------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_while_shrinking_keeps_the_fault(tmp_path, sig):
    """A fault seen in the random phase and interrupted (Ctrl-C, or SIGTERM as a CI timeout
    sends) while Hypothesis shrinks it used to vanish: "INTERRUPTED, nothing found so far", a
    certificate, exit 130. Now: a report of that fault, exit 1."""
    marker = tmp_path / "wrong-seen"
    program = tmp_path / "long_words_wrong.py"
    program.write_text(
        _RIGHT_BODY
        + f"""
if len(word) > 25:
    total = 0 if total else 1
    open({str(marker)!r}, "a").close()
time.sleep(0.1)
print("Alice" if total else "Bob")
"""
    )
    reports = tmp_path / "r"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            "word_game",
            str(program),
            "--profile",
            "quick",
            "--exhaustive-runs",
            "0",
            "--examples",
            "30",
            "--seed",
            "3",
            "--report-dir",
            str(reports),
            "--no-contain",
        ],  # the marker is outside its scratch
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        preexec_fn=sigint_default,
    )
    deadline = time.monotonic() + 120  # generous: a loaded machine runs the phases before slowly
    while not marker.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    if not marker.exists():
        proc.kill()
        proc.communicate()
    assert marker.exists(), "the candidate never answered wrong"
    time.sleep(0.4)  # shrinking has started: a handful of runs at 0.1 s each
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert proc.returncode == 1, (out, err)
    report = Path(out.strip().splitlines()[-1])
    data = json.loads((report / "report.json").read_text())
    assert data["verdict"] == "WA" and data["interrupted"] is True
    assert len(data["input"].strip()) > 25


# ---- the registered solvers -------------------------------------------------------------------------------


def test_registered_solvers_refuse_bad_and_candidate_only_options():
    assert_usage_error(
        gamecert("certify", "word_game", "--profile", "quick", "--examples", "0"),
        "--examples must be at least 1",
    )  # was a Hypothesis InvalidArgument traceback
    assert_usage_error(
        gamecert("certify", "word_game", "--time-limit", "nan"), "only to a candidate"
    )


def test_registered_solvers_interrupted_print_what_completed():
    """Ctrl-C used to print only "gamecert: interrupted", dropping every completed row."""
    # the default profile runs for about a minute, so the interrupt lands mid-run however busy
    # the machine is
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamecert", "certify", "all", "--profile", "default", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, COLUMNS="200"),
        preexec_fn=sigint_default,
    )
    first = proc.stdout.readline()
    assert first.startswith("certify all: certifying the")
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err
    assert "INTERRUPTED after" in out and "Registered solvers against the oracle" in out


# ---- replay of a damaged report -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_text(tmp_path_factory) -> str:
    """report.json of a certification of the wrong example, made once for the damages below:
    each test reads its own copy."""
    tmp = tmp_path_factory.mktemp("report")
    proc = gamecert("certify", "word_game", str(WRONG), *quick("--report-dir", str(tmp / "r")))
    assert proc.returncode == 1, proc.stderr
    return (Path(proc.stdout.strip().splitlines()[-1]) / "report.json").read_text()


@pytest.mark.slow
@pytest.mark.parametrize(
    "change,needle",
    [
        (lambda d: [1, 2], "expected a JSON object"),  # was AttributeError
        (lambda d: {**d, "input": 123}, "'input' has the wrong type"),  # was AttributeError
        (
            lambda d: {**d, "time_limit_s": "x"},
            "'time_limit_s' has the wrong type",
        ),  # was TypeError
        # a report changed by hand is not gamecert's own: its limits and command are never used
        (lambda d: {**d, "memory_limit_mb": 10**30}, "was not written by gamecert"),
        (lambda d: {k: v for k, v in d.items() if k != "seed"}, "missing keys: seed"),
        (
            lambda d: {**d, "candidate_spec": "/nonexistent/solution.py"},
            "was not written by gamecert",
        ),
    ],
)
def test_replay_of_a_damaged_report_is_one_line(report_text, tmp_path, change, needle):
    data = json.loads(report_text)
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "report.json").write_text(json.dumps(change(data)))
    assert_usage_error(gamecert("replay", str(damaged)), needle)


def test_replay_of_a_missing_directory_says_so(tmp_path):
    assert_usage_error(gamecert("replay", str(tmp_path / "nowhere")), "no such directory")


# ---- endless or odd input files ---------------------------------------------------------------------------


def test_check_and_explain_refuse_an_endless_file():
    """/dev/zero used to be read into memory until the OS killed gamecert (check) or forever (explain)."""
    assert_usage_error(gamecert("check", "word_game", "/dev/zero", timeout=30), "larger than")
    assert_usage_error(gamecert("explain", "word_game", "/dev/zero", timeout=30), "larger than")


def test_check_reads_standard_input():
    proc = gamecert("check", "word_game", "-", stdin="--- input\nAB\n--- answer\nBob\n")
    assert proc.returncode == 0 and "1 hold" in proc.stdout, proc.stderr


def test_invalid_utf8_is_one_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe--- input\n")
    assert_usage_error(gamecert("check", "word_game", str(bad)), "not UTF-8")


# ---- candidates ---------------------------------------------------------------------------------------------


def test_stderr_is_never_a_verdict(tmp_path):
    """Judges discard stderr: a right program that writes 40 MB to stderr on every test (past the
    32 MB output limit) is certified; only stdout can be OLE. Samples, the sweep and 2 random
    examples, each test past the limit on its own: the families would add ~1,000 runs of 40 MB."""
    program = tmp_path / "stderr_chatty.py"
    program.write_text(
        "import sys\nblock = 'x' * (1 << 20)\nfor _ in range(40):\n    sys.stderr.write(block)\n"
        + (ROOT / "examples" / "word_game" / "correct.py").read_text()
    )
    proc = gamecert(
        "certify",
        "word_game",
        str(program),
        *quick("--phases", "exhaustive,random", "--report-dir", str(tmp_path / "r")),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ---- new-game and prove -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name,needle", [("all", "taken"), ("a" * 300, "characters long")])
def test_new_game_refuses_reserved_and_overlong_names(name, needle):
    """'all' made `certify all` fail; a 300-letter name was an OSError traceback."""
    with pytest.raises(UsageError, match=needle):
        check_name(name)


@pytest.mark.parametrize("plot_dir,needle", [("", "--plot-dir is empty"), ("FILE", "it is a file")])
def test_prove_refuses_a_bad_plot_dir_before_proving(tmp_path, plot_dir, needle):
    if plot_dir == "FILE":
        plot_dir = str(tmp_path / "afile")
        Path(plot_dir).write_text("")
    assert_usage_error(gamecert("prove", "word_game", "--plot-dir", plot_dir), needle)


@pytest.mark.slow
def test_a_daemon_left_behind_cannot_write_into_later_tests(tmp_path):
    """A right answer whose double-forked, setsid daemon keeps writing to stdout: the daemon
    outlived its test until the next periodic sweep and its lines landed in later tests' output,
    so an innocent later input was reported (PE) and its replay said OK. It is now killed as its
    test ends."""
    program = tmp_path / "daemon_writer.py"
    program.write_text(
        _RIGHT_BODY
        + """
import os
print("Alice" if total else "Bob", flush=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(0.3)  # after its own test has ended: what it writes must reach no later test
        for _ in range(300):
            try:
                os.write(1, b"Bob\\n")
            except OSError:
                pass
            time.sleep(0.01)
    os._exit(0)
"""
    )
    proc = gamecert(
        "certify",
        "word_game",
        str(program),
        "--profile",
        "quick",
        "--exhaustive-runs",
        "300",
        "--examples",
        "0",
        "--seed",
        "1",
        "--report-dir",
        str(tmp_path / "r"),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "CERTIFIED" in proc.stdout or "PASSED (incomplete)" in proc.stdout


def test_control_characters_from_a_candidate_do_not_reach_the_terminal(tmp_path):
    program = tmp_path / "escapes.py"
    program.write_text(
        "import sys\nsys.stderr.write('\\x1b]0;title\\x07')\nsys.stdout.write('\\x1b[2JBob\\n')\n"
    )
    proc = gamecert(
        "certify", "word_game", str(program), *quick("--report-dir", str(tmp_path / "r"))
    )
    assert proc.returncode == 1, proc.stderr
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout
    assert "\\x1b[2JBob" in proc.stdout


def test_unusable_scratch_folder_is_one_line(tmp_path):
    env = dict(os.environ, GAMECERT_TMPDIR=str(tmp_path / "missing" / "tmp"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            "word_game",
            str(CORRECT),
            "--no-contain",
            *quick("--report-dir", str(tmp_path / "r")),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    warning = "gamecert: warning: candidates run NOT contained: --no-contain was given\n"
    assert proc.stderr.startswith(warning)
    proc.stderr = proc.stderr[len(warning) :]
    assert_usage_error(proc, "cannot make a scratch folder")


def test_closed_standard_input_is_one_line():
    """`gamecert explain GAME - <&-` was an AttributeError traceback (sys.stdin is None)."""
    proc = subprocess.run(
        [sys.executable, "-m", "gamecert", "explain", "word_game", "-"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        stdin=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(0),
    )
    assert_usage_error(proc, "standard input")


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_py_candidate_that_is_not_a_regular_file_is_refused(tmp_path, kind):
    """A FIFO or /dev/zero named *.py hung the supervisor's start for 30 s, then a RuntimeError traceback."""
    path = tmp_path / "solution.py"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    assert_usage_error(
        gamecert("certify", "word_game", str(path), *quick("--report-dir", str(tmp_path / "r"))),
        "not a regular file",
    )


def test_coverage_prints_what_the_strategies_reach_and_refuses_bad_input(capsys):
    """`gamecert coverage GAME`: a histogram of as many examples as asked, whose labels are the
    game's features; an unknown game or a count below 1 is one line and exit 2."""
    from gamecert.commands import cli

    assert cli.main(["coverage", "word_game", "--examples", "40"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "40 examples"
    rows = {line.rsplit(None, 2)[0]: int(line.rsplit(None, 2)[1]) for line in lines[1:]}
    # every example has exactly one answer: the two answer rows add up to the examples
    assert rows.get("answer Alice", 0) + rows.get("answer Bob", 0) == 40, rows
    assert all(0 < n <= 40 for n in rows.values()), rows
    for argv in (["coverage", "no_such_game"], ["coverage", "word_game", "--examples", "0"]):
        assert cli.main(argv) == 2
        assert capsys.readouterr().err.count("\n") == 1
