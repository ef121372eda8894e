"""The sandboxed candidate runner: verdicts for broken programs, limits, cleanup, both start paths.

Every broken candidate in ``tests/candidates/`` runs through the fork server and through a fresh
process per test; the status must be the one a judge would give, the same on both paths, and no
process of the candidate may survive the run. Each test copies its candidate into its own
temporary folder, so that leftover processes can be recognised by that unique path even when
pytest-xdist runs tests side by side.
"""

from __future__ import annotations

import os
import random
import select
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gamecert.oracles.word_game import GAME, LETTERS

from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, RunResult, open_runner
from gamecert.errors import UsageError

HERE = Path(__file__).resolve().parent
CANDIDATES = HERE / "candidates"
CORRECT = HERE.parent / "examples" / "word_game" / "correct.py"
PATHS = pytest.mark.parametrize("fork_server", [True, False], ids=["fork-server", "fresh-process"])
FAST = Limits(time_s=0.5, memory_mb=256)


def copy_candidate(tmp_path: Path, name: str, source: Path = CANDIDATES) -> Path:
    target = tmp_path / name
    shutil.copyfile(source / name, target)
    return target


def live_processes_mentioning(
    marker: str, exclude: set[int], settle_s: float = 2.0
) -> list[tuple[int, str]]:
    """Live (non-zombie) processes whose command line contains ``marker``, other than those in
    ``exclude`` (a supervisor and the child it holds ready for the next test). A process just sent
    SIGKILL takes a moment to exit on a loaded machine: asked again for up to ``settle_s``."""

    deadline = time.monotonic() + settle_s
    while True:
        found = _live_once(marker, exclude)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def _live_once(marker: str, exclude: set[int]) -> list[tuple[int, str]]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in exclude or int(name) == os.getpid():
            continue
        try:
            cmdline = (
                Path(f"/proc/{name}/cmdline")
                .read_bytes()
                .replace(b"\0", b" ")
                .decode(errors="replace")
            )
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append((int(name), cmdline[:120]))
    return found


def run_once(path: Path, text: str, limits: Limits, fork_server: bool) -> RunResult:
    """Run a candidate once and check that nothing of it is left, during or after the runner."""
    with open_runner(Candidate.parse(str(path)), limits, fork_server=fork_server) as runner:
        result = runner.run(text)
        assert live_processes_mentioning(str(path), runner.supervisor_pids) == []
        again = runner.run(text) if result.status not in ("tle",) else result
        assert again.status == result.status, "the runner must give the same verdict on a rerun"
        server = runner.server_pid
    assert live_processes_mentioning(str(path), set()) == []
    assert server is None or not Path(f"/proc/{server}").exists() or _is_zombie(server)
    return result


def _is_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


# --------------------------------------------------------------------------------------------
# correct candidates


@PATHS
def test_correct_candidate_answers_like_the_oracle(fork_server: bool) -> None:
    """A correct word_game program is OK with the oracle's answer on either path."""
    rng = random.Random(5)
    words = ["ZADACHA", "WORD"] + [
        "".join(rng.choice(LETTERS[:5]) for _ in range(rng.randint(1, 40))) for _ in range(8)
    ]
    with open_runner(Candidate.parse(str(CORRECT)), FAST, fork_server=fork_server) as runner:
        assert runner.mode == ("fork-server" if fork_server else "fresh-process")
        for word in words:
            result = runner.run(GAME.format_input(word))
            assert result.status == "ok", result.describe()
            assert result.stdout.split() == [GAME.oracle(word)]
            assert result.exit_code == 0 and result.signal is None
            assert result.cpu_s < FAST.time_s and result.max_rss_mb > 0


INTERPRETER_MODES = [
    "plain",
    "exit",
    "os_exit",
    "sys_exit_none",
    "raise",
    "atexit",
    "exit_big",
    "exit_huge",
    "exit_object",
    "exit_then_atexit",
    "exit_joins_threads",
    "close_stdout",
]


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "PYTHONUNBUFFERED"])
def test_fork_server_behaves_like_plain_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unbuffered: bool
) -> None:
    """input(), exit(), os._exit, sys.exit(), stdin.buffer, argv, sys.path[0], cwd, tracebacks,
    atexit and stdout buffering look the same under the fork server as under `python FILE` in a
    judge's environment: PYTHONUNBUFFERED set in the harness's own does not reach the candidate."""
    if unbuffered:
        monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    else:
        monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    path = copy_candidate(tmp_path, "interpreter_exits.py")
    results = {}
    for fork_server in (True, False):
        with open_runner(Candidate.parse(str(path)), FAST, fork_server=fork_server) as runner:
            results[fork_server] = [
                runner.run(f"{mode}\nmore input\n") for mode in INTERPRETER_MODES
            ]
    for mode, forked, fresh in zip(INTERPRETER_MODES, results[True], results[False]):
        assert (forked.stdout, forked.exit_code, forked.status) == (
            fresh.stdout,
            fresh.exit_code,
            fresh.status,
        ), mode
        assert forked.stderr_tail.splitlines()[-1:] == fresh.stderr_tail.splitlines()[-1:], mode
    by_mode = dict(zip(INTERPRETER_MODES, results[True]))
    plain = by_mode["plain"].stdout
    assert "name=__main__ file=interpreter_exits.py argv0=interpreter_exits.py" in plain
    assert "path0_is_script_dir=True" in plain and "cwd_empty=True cwd_is_script_dir=False" in plain
    assert "stdin=<stdin>" in plain and "annotations_evaluated=True" in plain
    assert "recursionlimit=1000" in plain and plain.endswith("end\n")
    assert by_mode["exit"].exit_code == 4 and "end" not in by_mode["exit"].stdout
    # os._exit skips flushing: the last print is lost unless stdout is unbuffered
    assert by_mode["os_exit"].exit_code == 5
    assert "lost: never flushed" not in by_mode["os_exit"].stdout
    assert by_mode["sys_exit_none"].status == "ok" and by_mode["sys_exit_none"].exit_code == 0
    assert by_mode["raise"].exit_code == 1 and "KeyError: 'boom'" in by_mode["raise"].stderr_tail
    assert "supervisor" not in by_mode["raise"].stderr_tail, "the server's own frames must not show"
    assert by_mode["atexit"].stdout.endswith("end\natexit ran\n")
    # SystemExit's status as CPython's top level gives it, then the interpreter's shutdown
    assert [by_mode[m].exit_code for m in ("exit_big", "exit_huge", "exit_object")] == [7, 255, 1]
    assert by_mode["exit_object"].stderr_tail.splitlines()[-1] == "['not', 'a', 'number']"
    assert by_mode["exit_then_atexit"].stdout.endswith("atexit sees None\n")
    assert by_mode["exit_then_atexit"].exit_code == 2
    assert by_mode["exit_joins_threads"].stdout.endswith("thread done\n")
    assert by_mode["exit_joins_threads"].exit_code == 6
    assert (by_mode["close_stdout"].status, by_mode["close_stdout"].exit_code) == ("ok", 0)


@PATHS
def test_every_test_draws_its_own_random_numbers(tmp_path: Path, fork_server: bool) -> None:
    """A program that imports random at its top level (a module the zygote imports once for it)
    draws other numbers in every test, as every fresh `python FILE` does: no test's process
    starts from the state another one started from."""
    program = tmp_path / "draw.py"
    program.write_text("import random\nprint(random.getrandbits(64), random.random())\n")
    with open_runner(Candidate.parse(str(program)), FAST, fork_server=fork_server) as runner:
        results = [runner.run("") for _ in range(4)]
    assert {r.status for r in results} == {"ok"}, results[0].describe()
    assert len({r.stdout for r in results}) == 4, [r.stdout for r in results]


def test_same_answers_both_paths_on_random_words() -> None:
    """The fork server and a fresh process give the same stdout for the same inputs."""
    rng = random.Random(11)
    inputs = [
        GAME.format_input("".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 40))))
        for _ in range(6)
    ]
    outputs = {}
    for fork_server in (True, False):
        with open_runner(Candidate.parse(str(CORRECT)), FAST, fork_server=fork_server) as runner:
            outputs[fork_server] = [runner.run(text).stdout for text in inputs]
    assert outputs[True] == outputs[False]


# --------------------------------------------------------------------------------------------
# broken candidates: one verdict each, the same on both paths, nothing left running


@PATHS
def test_uncaught_exception_is_re_with_traceback(tmp_path: Path, fork_server: bool) -> None:
    """An uncaught exception: RE, exit 1, the traceback's last line in the stderr tail."""
    result = run_once(copy_candidate(tmp_path, "crash_exception.py"), "WORD\n", FAST, fork_server)
    assert (result.status, result.exit_code, result.signal) == ("re", 1, None)
    assert "ValueError: cannot handle 'WORD'" in result.stderr_tail
    assert "ValueError" in result.describe()


@PATHS
def test_segfault_is_re_with_the_signal(tmp_path: Path, fork_server: bool) -> None:
    """Death by SIGSEGV: RE naming the signal; what was printed before is kept."""
    result = run_once(copy_candidate(tmp_path, "crash_segv.py"), "WORD\n", FAST, fork_server)
    assert (result.status, result.exit_code, result.signal) == ("re", None, signal.SIGSEGV)
    assert result.stdout == "Alice\n"
    assert result.describe().startswith("RE: killed by SIGSEGV (signal 11)")


@PATHS
def test_nonzero_exit_is_re(tmp_path: Path, fork_server: bool) -> None:
    """A right answer with exit status 3 is still RE."""
    result = run_once(copy_candidate(tmp_path, "exit_nonzero.py"), "WORD\n", FAST, fork_server)
    assert (result.status, result.exit_code, result.stdout) == ("re", 3, "Alice\n")
    assert "exit code 3" in result.describe()


@PATHS
def test_sys_exit_with_message_is_re_exit_1(tmp_path: Path, fork_server: bool) -> None:
    """sys.exit("text") prints the text to stderr and exits 1, as the interpreter does."""
    result = run_once(copy_candidate(tmp_path, "exit_message.py"), "WORD\n", FAST, fork_server)
    assert (result.status, result.exit_code) == ("re", 1)
    assert result.stderr_tail.strip() == "no answer for this word"


def test_syntax_error_is_ce_before_any_run(tmp_path: Path) -> None:
    """A .py program that does not compile: a CompileError (CE) with the interpreter's
    SyntaxError, before any runner starts (it was RE after a run, SyntaxError in stderr)."""
    from gamecert.engine.run.toolchains import CompileError

    with pytest.raises(CompileError, match="SyntaxError"):
        Candidate.parse(str(copy_candidate(tmp_path, "syntax_error.py")))


@PATHS
def test_busy_loop_is_tle_on_cpu_time(tmp_path: Path, fork_server: bool) -> None:
    """A busy loop is stopped near the CPU limit (not at the rounded-up RLIMIT_CPU): TLE."""
    limits = Limits(time_s=0.3)
    result = run_once(copy_candidate(tmp_path, "hang_busy.py"), "WORD\n", limits, fork_server)
    assert (
        result.status == "tle"
        and result.detail.startswith("CPU time ")
        and "> limit 0.3 s" in result.detail
    )
    # stopped near the limit, so confirmed by one re-run in a fresh process: two runs in all
    assert "confirmed by a re-run" in result.note
    # near the limit in CPU seconds, which a busy machine does not stretch (the wall clock it
    # was once bounded by does): well before RLIMIT_CPU's whole second
    assert 0.3 <= result.cpu_s < 0.9, result.cpu_s


@PATHS
def test_sleeping_forever_is_tle_on_wall_clock(tmp_path: Path, fork_server: bool) -> None:
    """A program that sleeps uses no CPU; the wall-clock limit ends it: TLE."""
    limits = Limits(time_s=0.25)
    result = run_once(copy_candidate(tmp_path, "sleep_forever.py"), "WORD\n", limits, fork_server)
    assert result.status == "tle" and "wall-clock" in result.detail
    assert limits.wall_s <= result.wall_s < limits.wall_s + 0.5
    assert result.signal == signal.SIGKILL


@PATHS
def test_orphaned_grandchildren_are_killed(tmp_path: Path, fork_server: bool) -> None:
    """Double-forked children that outlive the program are killed with its group (run_once
    checks that none is left); the program's own answer stands."""
    result = run_once(copy_candidate(tmp_path, "orphans.py"), "WORD\n", FAST, fork_server)
    assert (result.status, result.stdout) == ("ok", "Bob\n")


@PATHS
def test_fork_bomb_hits_the_process_limit(tmp_path: Path, fork_server: bool) -> None:
    """A fork bomb exceeds the process limit even as root: the group is killed, RE."""
    limits = Limits(time_s=2.0, processes=16)
    result = run_once(copy_candidate(tmp_path, "fork_bomb.py"), "WORD\n", limits, fork_server)
    assert result.status == "re" and "process limit" in result.detail, result.describe()


@PATHS
def test_memory_hog_is_mle(tmp_path: Path, fork_server: bool) -> None:
    """Allocating without end: MLE from the measured memory, which the message shows."""
    result = run_once(
        copy_candidate(tmp_path, "memory_hog.py"),
        "WORD\n",
        Limits(time_s=2.0, memory_mb=128),
        fork_server,
    )
    assert result.status == "mle", result.describe()
    assert result.max_rss_mb >= 128 and "limit 128 MB" in result.detail
    assert f"memory used {result.max_rss_mb:.1f} MB (" in result.detail


@PATHS
def test_output_flood_is_ole(tmp_path: Path, fork_server: bool) -> None:
    """Writing without end: stopped at the output cap, OLE; the captured stdout is capped."""
    limits = Limits(time_s=2.0, output_bytes=1 << 20)
    result = run_once(copy_candidate(tmp_path, "output_flood.py"), "WORD\n", limits, fork_server)
    assert result.status == "ole", result.describe()
    assert len(result.stdout) == limits.output_bytes


@PATHS
def test_output_up_to_the_cap_is_captured_whole(tmp_path: Path, fork_server: bool) -> None:
    """Big but legal output (exactly the cap) is OK and captured in full; one byte more is OLE."""
    limits = Limits(time_s=2.0, output_bytes=3 << 20)
    path = copy_candidate(tmp_path, "print_n_bytes.py")
    with open_runner(Candidate.parse(str(path)), limits, fork_server=fork_server) as runner:
        exact = runner.run(f"{limits.output_bytes}\n")
        over = runner.run(f"{limits.output_bytes + 1}\n")
    assert exact.status == "ok" and exact.stdout == "x" * limits.output_bytes
    assert over.status == "ole"


@PATHS
def test_invalid_utf8_output_never_raises(tmp_path: Path, fork_server: bool) -> None:
    """Garbage bytes on stdout are decoded with replacement characters, never an exception."""
    result = run_once(copy_candidate(tmp_path, "garbage_bytes.py"), "WORD\n", FAST, fork_server)
    assert result.status == "ok"
    assert result.stdout == "\ufffd\ufffd\ufffdAlice\ufffd\n"


@PATHS
def test_python_deep_recursion_on_a_big_thread_stack(tmp_path: Path, fork_server: bool) -> None:
    """setrecursionlimit + threading.stack_size, as contest Python solutions do: works on both paths."""
    result = run_once(
        copy_candidate(tmp_path, "deep_recursion.py"), "100000\n", Limits(time_s=2.0), fork_server
    )
    assert (result.status, result.stdout) == ("ok", "100000\n"), result.describe()


@PATHS
def test_contained_candidate_cannot_kill_its_supervisor(tmp_path: Path, fork_server: bool) -> None:
    """Contained, the supervisor is the sandbox's init: the candidate's SIGKILL to its parent is
    lost, the candidate goes on and answers, and the same supervisor serves the next test."""
    path = copy_candidate(tmp_path, "kill_parent.py")
    with open_runner(Candidate.parse(str(path)), FAST, fork_server=fork_server) as runner:
        assert runner.containment.enabled, runner.containment.describe()
        first_server = runner.server_pid
        result = runner.run("WORD\n")
        assert (result.status, result.stdout) == ("ok", "Alice\n"), result.describe()
        assert runner.server_pid == first_server and runner.run("WORD\n").status == "ok"
    assert live_processes_mentioning(str(path), set()) == []


LOWER_PARENT = """import os, resource, sys
if sys.stdin.readline().strip() == "lower":
    parent = os.getppid()
    resource.prlimit(parent, resource.RLIMIT_STACK, (1 << 20, 1 << 20))
    os.setpriority(os.PRIO_PROCESS, parent, 5)
    print("lowered")
elif sys.stdin.readline().strip() == "idle":
    os.sched_setscheduler(os.getppid(), os.SCHED_IDLE, os.sched_param(0))
    print("idled")
print("ok", os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0))
"""


@PATHS
def test_a_test_that_lowers_its_supervisors_limits_does_not_fail_the_next_ones(
    tmp_path: Path, fork_server: bool
) -> None:
    """A program can lower its supervisor's hard limits and priority (prlimit and setpriority
    reach any process of the same user, the sandbox's init too), which every later test would
    inherit: with a hard limit under the test's own, each later test's setup failed (exit 125).
    Its scheduling policy too (SCHED_IDLE needs no privilege): every later test would run only
    when the machine has nothing else to do. The supervisor sees it after the test and ends; a
    new one runs the next tests."""
    program = tmp_path / "lower.py"
    program.write_text(LOWER_PARENT)
    with open_runner(Candidate.parse(str(program)), FAST, fork_server=fork_server) as runner:
        texts = ("x\n", "lower\n", "x\n", "x\nidle\n", "x\n", "x\n")
        results = [runner.run(text) for text in texts]
    assert [r.status for r in results] == ["ok"] * 6, [r.describe() for r in results]
    first = results[0].stdout
    assert first.split()[:2] == ["ok", str(os.sched_getscheduler(0))], (
        first
    )  # the harness's own policy
    assert [r.stdout for r in results] == [
        first,
        "lowered\n" + first,
        first,
        "idled\n" + first,
        first,
        first,
    ]


@PATHS
def test_candidate_that_kills_its_supervisor(tmp_path: Path, fork_server: bool) -> None:
    """Not contained, a candidate that kills its parent takes down the supervisor, not the
    harness: RE, and the runner keeps working with a new supervisor."""
    path = copy_candidate(tmp_path, "kill_parent.py")
    with open_runner(
        Candidate.parse(str(path)), FAST, fork_server=fork_server, contain=False
    ) as runner:
        first_server = runner.server_pid
        result = runner.run("WORD\n")
        assert result.status == "re" and "supervisor" in result.detail
        assert runner.server_pid != first_server
        assert runner.run("WORD\n").status == "re"
        assert live_processes_mentioning(str(path), runner.supervisor_pids) == []
    assert live_processes_mentioning(str(path), set()) == []


def test_fork_server_restarts_when_killed() -> None:
    """If the fork server dies between tests, the next test starts a new one and answers."""
    with open_runner(Candidate.parse(str(CORRECT)), FAST) as runner:
        assert runner.run("WORD\n").stdout == "Bob\n"
        old = runner.server_pid
        gone = os.pidfd_open(old)
        os.kill(old, signal.SIGKILL)
        select.select([gone], [], [], 10.0)  # readable once it has exited
        os.close(gone)
        assert runner.run("ZADACHA\n").stdout == "Alice\n"
        assert runner.server_pid not in (None, old)


@PATHS
def test_scratch_folder_is_fresh_and_removed(tmp_path: Path, fork_server: bool) -> None:
    """Each test starts in an empty working folder (the box, emptied after every test, as a
    judge's box): what one test leaves there is gone for the next; not contained, the folder is
    a private one, removed with the runner."""
    path = copy_candidate(tmp_path, "scratch_files.py")
    for contain in (True, False):
        with open_runner(
            Candidate.parse(str(path)), FAST, fork_server=fork_server, contain=contain
        ) as runner:
            first, second = runner.run("A\n"), runner.run("A\n")
            contained = runner.containment.enabled
        cwd1, state1 = first.stdout.split()
        cwd2, state2 = second.stdout.split()
        assert (state1, state2) == ("empty", "empty") and cwd1 == cwd2, (
            first.stdout,
            second.stdout,
        )
        if contained:
            assert cwd1 == "/box"
        else:
            assert cwd1 != str(tmp_path) and not os.path.exists(cwd1)


# --------------------------------------------------------------------------------------------
# native candidates (compiled here)


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("g++")
    if compiler is None:
        if os.environ.get("GAMECERT_SKIP_NATIVE") != "1":
            pytest.fail(
                "g++ is not installed: the native (C++) candidate cannot be compiled; "
                "install g++, or set GAMECERT_SKIP_NATIVE=1 to skip these checks knowingly"
            )
        pytest.skip("GAMECERT_SKIP_NATIVE=1: the native (C++) candidate checks are skipped")
    binary = tmp_path_factory.mktemp("native") / "native"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(CANDIDATES / "native.cpp")], check=True)
    return binary


def test_native_null_dereference_is_re(native: Path) -> None:
    """A C++ null dereference: RE by SIGSEGV."""
    result = run_once_command(f"{native} segv", "1\n", FAST)
    assert (result.status, result.signal) == ("re", signal.SIGSEGV)


def run_once_command(spec: str, text: str, limits: Limits) -> RunResult:
    with open_runner(Candidate.parse(spec), limits) as runner:
        assert runner.mode == "fresh-process"
        result = runner.run(text)
        assert live_processes_mentioning(spec.split()[0], runner.supervisor_pids) == []
    return result


def test_native_deep_recursion_needs_the_raised_stack(native: Path) -> None:
    """Recursion 10**6 deep (~100 MB of stack) passes with the stack raised to the memory limit,
    as judges do, and crashes under an 8 MB stack."""
    raised = run_once_command(f"{native} deep", "1000000\n", Limits(time_s=2.0, memory_mb=256))
    assert (raised.status, raised.stdout) == ("ok", "500000\n"), raised.describe()
    small = run_once_command(
        f"{native} deep", "1000000\n", Limits(time_s=2.0, memory_mb=256, stack_mb=8)
    )
    assert (small.status, small.signal) == ("re", signal.SIGSEGV), small.describe()


def test_native_bad_alloc_is_mle(native: Path) -> None:
    """A C++ program allocating (and touching) memory without end: MLE from the measured
    memory, not from its own report."""
    result = run_once_command(f"{native} badalloc", "1\n", Limits(time_s=2.0, memory_mb=128))
    assert result.status == "mle" and result.max_rss_mb >= 128, result.describe()
    assert "memory used" in result.detail and "limit 128 MB" in result.detail


# --------------------------------------------------------------------------------------------
# naming candidates


def test_parse_python_file(tmp_path: Path) -> None:
    """A .py path runs with this interpreter, by absolute path; its name is the file stem."""
    path = copy_candidate(tmp_path, "garbage_bytes.py")
    candidate = Candidate.parse(str(path))
    assert candidate.argv == (sys.executable, str(path.resolve()))
    assert candidate.python_file == path.resolve() and candidate.name == "garbage_bytes"


def test_parse_executable_and_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An executable path runs as is; a command line finds its program on PATH and makes
    arguments naming existing files absolute (the candidate runs in a scratch folder)."""
    script = tmp_path / "my solver!"
    script.write_text("#!/bin/sh\nread w\necho Bob\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    candidate = Candidate.parse(str(script))
    assert candidate.argv == (str(script.resolve()),) and candidate.python_file is None
    assert candidate.name == "my_solver"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sol.sh").write_text("read w\necho Alice\n")
    command = Candidate.parse("sh sol.sh")
    assert command.argv == (shutil.which("sh"), str(tmp_path / "sol.sh")) and command.name == "sh"
    with open_runner(command, FAST) as runner:
        assert runner.run("WORD\n").stdout == "Alice\n"
    with open_runner(candidate, FAST) as runner:
        assert runner.run("WORD\n").stdout == "Bob\n"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("missing_solution.py", "does not exist"),
        ("./missing_binary", "does not exist"),
        ("no-such-command-xyz --fast", "not found"),
        ("", "empty"),
        ("sh -c 'unterminated", "not a valid command line"),
    ],
)
def test_parse_rejects_with_a_clear_message(
    spec: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Missing files, unknown commands and bad quoting are UsageErrors that say what is wrong."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match=message):
        Candidate.parse(spec)


def test_parse_rejects_folders_and_non_executables(tmp_path: Path) -> None:
    """A folder, or a file without the executable bit, is refused with a hint."""
    with pytest.raises(UsageError, match="folder"):
        Candidate.parse(str(tmp_path))
    data = tmp_path / "answer.bin"
    data.write_text("Alice\n")
    with pytest.raises(UsageError, match="chmod"):
        Candidate.parse(str(data))


def test_unrunnable_executable_is_re(tmp_path: Path) -> None:
    """A file marked executable that the OS cannot run is RE with the reason, not a harness crash."""
    bogus = tmp_path / "bogus"
    bogus.write_bytes(b"\x00\x01 not a program")
    bogus.chmod(0o755)
    with open_runner(Candidate.parse(str(bogus)), FAST) as runner:
        result = runner.run("WORD\n")
    assert (result.status, result.exit_code) == ("re", 127)
    assert "cannot run" in result.stderr_tail


def test_limits_are_validated() -> None:
    """Non-positive limits are refused with the offending name."""
    with pytest.raises(UsageError, match="time_s"):
        Limits(time_s=0)
    with pytest.raises(UsageError, match="stack_mb"):
        Limits(stack_mb=0)


KEYS = r"""import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
put = sys.stdin.readline().strip() == "put"
for ring in (-4, -5):  # the user's keyring and user session keyring: they outlive processes
    if put:  # add_key
        print(libc.syscall(248, b"user", b"k%d" % -ring, b"secret", 6, ring) > 0)
    else:  # keyctl(KEYCTL_SEARCH)
        print(libc.syscall(250, 10, ring, b"user", b"k%d" % -ring, 0) > 0)
"""


@PATHS
def test_a_key_a_test_adds_to_the_users_keyrings_is_gone_for_the_next(
    tmp_path: Path, fork_server: bool
) -> None:
    """The user's keyrings belong to the sandbox's user namespace, the runner's: a key one test
    adds (add_key, no privilege needed) the next test found. They are emptied after a test."""
    if os.uname().machine != "x86_64":
        pytest.skip("the system call numbers here are x86_64's")
    program = tmp_path / "keys.py"
    program.write_text(KEYS)
    with open_runner(Candidate.parse(str(program)), FAST, fork_server=fork_server) as runner:
        results = [runner.run(text) for text in ("get\n", "put\n", "get\n", "get\n")]
    assert [r.status for r in results] == ["ok"] * 4, [r.describe() for r in results]
    if results[1].stdout != "True\nTrue\n":
        pytest.skip(f"keys cannot be added here: {results[1].stdout!r}")
    assert [r.stdout for r in results] == [
        "False\nFalse\n",
        "True\nTrue\n",
        "False\nFalse\n",
        "False\nFalse\n",
    ]
