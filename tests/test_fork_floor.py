"""The per-test path cut towards the fork floor (issue 27) keeps what a test sees and what the
judge is told.

* **Signal dispositions.** A harness started as a shell's background job ignores SIGINT and
  SIGQUIT, and an exec keeps what is ignored. A test's program starts from the defaults however it
  starts: a zygote's child as ``python FILE`` (plain), a native fork server's clone as an exec'd
  test. (The native child once showed "non-default 2" under ``pytest -n 2`` run in the
  background: the fork server's program inherited the two ignored signals, an exec'd test not.)
* **The bench's breakdown.** With ``GAMECERT_SV_PROFILE=1`` every part of a test is stamped, in
  time order, on one clock, and the answers are the same as without it.
* **Clean-up after the report.** The supervisor sends a test's report before it empties the box
  and the IPC namespace, but before it reads the next request: the next test finds nothing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from gamecert.engine.run import native_shim
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner

LIMITS = Limits(time_s=2.0, memory_mb=256)

PY_SIGNALS = """
import signal
names = []
for number in range(1, 32):  # the standard signals (32 and 33 are the C library's own)
    try:
        handler = signal.getsignal(number)
    except (OSError, ValueError):
        continue
    if number == signal.SIGINT:
        kind = "int" if handler is signal.default_int_handler else repr(handler)
    else:
        kind = "dfl" if handler == signal.SIG_DFL else "ign" if handler == signal.SIG_IGN else "handler"
    if kind != "dfl":
        names.append(f"{number}:{kind}")
print(" ".join(names))
"""

C_SIGNALS = r"""
#include <signal.h>
#include <stdio.h>
int main(void) {
    sigset_t mask;
    sigprocmask(SIG_SETMASK, NULL, &mask);
    for (int s = 1; s < 65; s++) {
        struct sigaction sa;
        if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL)
            printf("%d:%s ", s, sa.sa_handler == SIG_IGN ? "ign" : "handler");
        if (sigismember(&mask, s) == 1)
            printf("%d:blocked ", s);
    }
    printf("end\n");
    return 0;
}
"""


@contextlib.contextmanager
def ignoring(*numbers: int):
    """This process ignores ``numbers`` meanwhile (as a shell's background job does)."""
    old = {n: signal.signal(n, signal.SIG_IGN) for n in numbers}
    try:
        yield
    finally:
        for n, handler in old.items():
            signal.signal(n, handler)


def test_a_python_test_starts_from_a_fresh_interpreters_signals(tmp_path: Path) -> None:
    program = tmp_path / "signals.py"
    program.write_text(PY_SIGNALS)
    with (
        ignoring(signal.SIGINT, signal.SIGQUIT),
        open_runner(Candidate.parse(str(program)), LIMITS) as runner,
    ):
        assert runner.mode == "fork-server"
        forked, plain = runner.run(""), runner.run_plain("")
    assert (forked.status, plain.status) == ("ok", "ok"), (forked.describe(), plain.describe())
    assert forked.stdout == plain.stdout
    seen = set(plain.stdout.split())
    # as `python FILE` from a clean start: SIGINT's handler, SIGPIPE and SIGXFSZ ignored, no other
    assert f"{int(signal.SIGINT)}:int" in seen and f"{int(signal.SIGQUIT)}:ign" not in seen
    assert seen == {
        f"{int(signal.SIGINT)}:int",
        f"{int(signal.SIGPIPE)}:ign",
        f"{int(signal.SIGXFSZ)}:ign",
    }


@pytest.mark.skipif(
    native_shim.shim_path() is None or shutil.which("gcc") is None, reason="no C compiler"
)
def test_a_native_clone_starts_from_an_exec_tests_signals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "signals.c"
    source.write_text(C_SIGNALS)
    exe = tmp_path / "signals"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(source)], check=True)
    seen = {}
    with ignoring(signal.SIGINT, signal.SIGQUIT):
        for flag in ("1", "0"):
            monkeypatch.setenv("GAMECERT_NATIVE_FORKSERVER", flag)
            with open_runner(Candidate.parse(str(exe)), LIMITS) as runner:
                results = [runner.run("") for _ in range(3)]
            assert {r.started for r in results} == {"native" if flag == "1" else "exec"}, (
                runner.startup
            )
            assert {r.status for r in results} == {"ok"}, results[0].describe()
            seen[flag] = {r.stdout for r in results}
    assert seen["1"] == seen["0"] == {"end\n"}


def test_the_breakdown_stamps_every_part_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = tmp_path / "echo.py"
    program.write_text("import sys\nprint(int(sys.stdin.readline()) * 2)\n")
    monkeypatch.setenv("GAMECERT_SV_PROFILE", "1")
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        results = [runner.run(f"{k}\n") for k in range(5)]
        profile = list(runner._client.profile)
        looped = bool(runner._client.config.get("testloop"))
    assert [r.stdout for r in results] == [f"{2 * k}\n" for k in range(5)]
    assert len(profile) == 5
    # the Python path; the C loop (supervisor/testloop.c: the zygote's fork in it); the C loop up
    # to the fork, then the Python watch (a test not over by the first scan: the first one, say)
    python = [
        "recv",
        "pipe",
        "mem_before",
        "spawn",
        "close_fds",
        "watch_setup",
        "ended",
        "wait4",
        "kill_all",
        "charge",
        "mem_after",
        "drain",
    ]
    loop = ["recv", "l_start", "l_request", "l_reply", "l_ended", "l_reaped", "l_done", "drain"]
    handed = [*loop[:4], *python[5:]]
    paths = []
    for k, prof in enumerate(profile):
        server = prof["server"]
        server = [
            mark for mark in server if mark[0] not in ("scan", "scanned")
        ]  # the watch's, if any
        names = [name for name, *_ in server]
        order = next((o for o in (python, loop, handed) if names[-len(o) :] == o), None)
        assert order is not None, names
        paths.append("python" if order is python else "loop" if order is loop else "handed")
        # the previous test's clean-up, after its report, comes first in this test's list
        assert names[: -len(order)] == ([] if k == 0 else ["clean", "scratch", "ipc"]), names
        walls = [wall for _, wall, *_ in server]
        assert walls == sorted(walls)
        client = dict((name, wall) for name, wall, *_ in prof["client"])
        start, code, done = prof["child"][:3]
        # one clock: the client sends before the server receives, the child runs within the watch
        assert client["run"] <= client["sending"] <= dict(zip(names, walls))["recv"]
        forked, ended = (
            ("mem_before", "ended")
            if order is python
            else ("l_request", "l_ended" if order is loop else "ended")
        )
        assert (
            dict(zip(names, walls))[forked]
            <= start
            <= code
            <= done
            <= dict(zip(names, walls))[ended]
        )
        assert walls[-1] <= client["replied"]
        assert prof["minflt"] > 0
    # with the loop's library, the zygote's fast tests are forked and followed by it
    assert ("loop" in paths) == looped and (looped or set(paths) == {"python"}), paths


def test_nothing_of_a_test_is_there_for_the_next_one(tmp_path: Path) -> None:
    """Files in the working folder and /tmp, a SysV segment and a POSIX queue left by one test,
    run back to back with the next (the clean-up now follows the report)."""
    program = tmp_path / "leave.py"
    program.write_text(
        "import ctypes, os, sys\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "def counts():\n"
        "    found = os.listdir('.') + [n for n in os.listdir('/tmp') if n.startswith('left')]\n"
        "    info = (ctypes.c_int * 16)()\n"
        "    libc.shmctl(0, 14, info)\n"  # SHM_INFO: used_ids
        "    return len(found), info[0], len(os.listdir('/dev/mqueue'))\n"
        "print(*counts())\n"
        "open('left_here', 'w').write('x')\n"
        "open('/tmp/left_tmp', 'w').write('x')\n"
        "libc.shmget(0, 4096, 0o1600)\n"  # IPC_PRIVATE, IPC_CREAT | 0600
        "libc.mq_open(b'/left_queue', 0o100 | 0o2, 0o600, None)\n"  # O_CREAT | O_RDWR
        "print(*counts())\n"
    )
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        if not runner.containment.enabled:
            pytest.skip(f"not contained here: {runner.containment.describe()}")
        results = [runner.run("") for _ in range(6)] + [runner.run_plain("") for _ in range(2)]
    assert {r.status for r in results} == {"ok"}, [r.describe() for r in results]
    # each test left two files, a segment and a queue (second line), and found none (first line)
    assert [r.stdout for r in results] == ["0 0 0\n2 1 1\n"] * 8


# ---- tests sent ahead (Runner.expect) --------------------------------------------------------

MIXED = """
import os, sys
word = sys.stdin.readline().strip()
if word == "crash":
    os.kill(os.getpid(), 11)
if word == "fail":
    sys.stderr.write("boom\\n")
    sys.exit(3)
if word == "loud":
    sys.stdout.write("x" * 5000)
if word == "forks":
    for _ in range(40):
        try:
            if os.fork() == 0:
                import time
                time.sleep(5)
                os._exit(0)
        except OSError:
            break
print(word[::-1])
"""

WORDS = ["abc", "fail", "x", "crash", "hello", "loud", "fail", "zz", "", "crash", "abc"] * 3


def _seen(results) -> list[tuple]:
    return [
        (
            r.status,
            r.stdout,
            r.exit_code,
            r.signal,
            r.detail.split(";")[0] if r.status != "ok" else "",
        )
        for r in results
    ]


def _program(tmp_path: Path, source: str = MIXED) -> Candidate:
    program = tmp_path / "mixed.py"
    program.write_text(source)
    return Candidate.parse(str(program))


@pytest.mark.parametrize("contained", [True, False])
def test_tests_sent_ahead_get_the_answers_of_tests_run_one_at_a_time(
    tmp_path: Path, contained: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    _steady(monkeypatch)  # (under load 7, one test over 50 ms of wall: 30 of 33 were sent ahead)
    limits = Limits(time_s=2.0, memory_mb=256, output_bytes=1000)
    with open_runner(_program(tmp_path), limits, contain=contained) as runner:
        alone = [runner.run(word + "\n") for word in WORDS]
        runner.expect([word + "\n" for word in WORDS])
        ahead = [runner.run(word + "\n") for word in WORDS]
        sent, used = runner._ahead.sent, runner._ahead.used
    assert _seen(ahead) == _seen(alone)
    assert {r.status for r in alone} == {"ok", "re", "ole"}
    if contained:  # every test after a fast one was sent ahead, and its report used
        assert sent == used >= len(WORDS) - 2, (sent, used)
    else:  # not contained a program can count its runs (a file beside it): none is sent ahead
        assert sent == used == 0


def _steady(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests are sent ahead only after a test under ``AHEAD_MAX_WALL_S`` (50 ms of wall): on a busy
    machine one of them can take longer, and what is in flight at a given moment would then
    depend on the load. These tests are about what happens to what was sent, so every test
    counts as fast here."""
    from gamecert.engine.run import forkserver

    monkeypatch.setattr(forkserver, "AHEAD_MAX_WALL_S", 30.0)


def test_a_run_out_of_order_drops_the_test_sent_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _steady(monkeypatch)
    from gamecert.engine.run.testio import GATE

    with open_runner(_program(tmp_path), LIMITS) as runner:
        runner.expect(["a\n", "b\n", "c\n", "d\n"])
        first, second = runner.run("a\n"), runner.run("b\n")  # "c" is sent ahead meanwhile
        assert runner._ahead.pending() == ["c\n"]
        plain = runner.run_plain("q\n")  # not the expected one: "c"'s report is dropped
        assert runner._ahead.pending() == [] and GATE._running == 0
        third, other = runner.run("c\n"), runner.run("zz\n")  # "c" runs again; then the queue ends
        assert runner._ahead.queue == type(runner._ahead.queue)()
    assert [r.stdout for r in (first, second, plain, third, other)] == [
        "a\n",
        "b\n",
        "q\n",
        "c\n",
        "zz\n",
    ]
    assert GATE._running == 0


def test_a_server_lost_with_a_test_sent_ahead_runs_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _steady(monkeypatch)
    import os

    with open_runner(_program(tmp_path), LIMITS) as runner:
        words = [f"w{k}\n" for k in range(6)]
        runner.expect(words)
        got = [runner.run(words[0]).stdout, runner.run(words[1]).stdout]  # words[2] sent ahead
        client = runner._client
        assert runner._ahead.pending()
        os.kill(client.server_host_pid, signal.SIGKILL)  # the supervisor, from outside
        got += [runner.run(word).stdout for word in words[2:]]
        restarts = client.restarts
    assert got == [w[::-1][1:] + "\n" for w in words] and restarts == 1


def test_forks_refused_are_the_test_that_made_them(tmp_path: Path) -> None:
    """A test that forks past the process cap, sent ahead of its turn, is the one that is RE;
    the test before it (answered while it had started) is not."""
    limits = Limits(time_s=2.0, memory_mb=256, processes=8)
    words = ["a", "b", "forks", "c", "forks", "d", "e"] * 2
    with open_runner(_program(tmp_path), limits) as runner:
        if runner.cap is None:
            pytest.skip(f"no pids cgroup here: {runner.accounting}")
        alone = [runner.run(word + "\n") for word in words]
        receive = runner._client.receive

        def slow_receive(token):  # a slow harness: the test sent ahead has long started
            report = receive(token)
            time.sleep(0.3)
            return report

        runner._client.receive = slow_receive
        runner.expect([word + "\n" for word in words])
        ahead = [runner.run(word + "\n") for word in words]
    for seen in (alone, ahead):
        assert [r.status for r in seen] == ["re" if w == "forks" else "ok" for w in words], [
            r.describe() for r in seen
        ]
        # (refused at the cap, or seen over the limit by the first scan while it still forks:
        # which comes first is the machine's timing, the verdict is the same)
        assert all(
            "process limit exceeded" in r.detail for r, w in zip(seen, words) if w == "forks"
        ), [r.detail for r in seen]


@pytest.mark.skipif(
    native_shim.shim_path() is None or shutil.which("gcc") is None, reason="no C compiler"
)
def test_native_tests_sent_ahead_get_the_same_answers(tmp_path: Path) -> None:
    source = tmp_path / "rev.c"
    source.write_text(
        "#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n"
        'int main(void) { char w[64] = ""; if (scanf("%63s", w) != 1) return 4;\n'
        ' if (!strcmp(w, "crash")) abort();\n int n = strlen(w);\n'
        " for (int i = n - 1; i >= 0; i--) putchar(w[i]);\n putchar(10); return 0; }\n"
    )
    exe = tmp_path / "rev"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(source)], check=True)
    with open_runner(Candidate.parse(str(exe)), LIMITS) as runner:
        assert runner.startup.startswith("native fork server"), runner.startup
        alone = [runner.run(word + "\n") for word in WORDS]
        runner.expect([word + "\n" for word in WORDS])
        ahead = [runner.run(word + "\n") for word in WORDS]
        used = runner._ahead.used
    assert _seen(ahead) == _seen(alone) and {r.started for r in ahead} == {"native"}
    assert used >= len(WORDS) - 4


def test_a_client_that_leaves_with_a_request_queued_ends_the_running_test(tmp_path: Path) -> None:
    """The client closes while a test runs and the next request waits unread: the supervisor
    takes it for the client leaving (not for a request) and kills the test at once."""
    from gamecert.engine.run.testio import _test_files

    program = tmp_path / "slow.py"
    program.write_text("import time\ntime.sleep(float(input()))\nprint('done')\n")
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        client = runner._client
        files = [_test_files(b"3\n"), _test_files(b"0\n")]
        tokens = [client.send((made[0], made[1]), False) for made in files]
        assert None not in tokens
        time.sleep(0.3)  # the first test is running, the second request waits
        start = time.monotonic()
        client.close()
        runner._client = None
        spent = time.monotonic() - start
        for made in files:
            for fd in made:
                os.close(fd)
    assert spent < 2.0, spent


PY_GROUP = """
import os, signal, sys
leader = os.getpgid(0) == os.getpid()
try:
    os.setsid()
    setsid = "made"
except PermissionError:
    setsid = "refused"
print(leader, setsid, flush=True)
if sys.stdin.readline().strip() == "kill":
    os.kill(0, signal.SIGTERM)  # the whole of its process group
    print("still here")
"""


def test_a_python_tests_process_group_is_its_own_on_both_paths(tmp_path: Path) -> None:
    """A test's process leads a process group of its own, as under a shell: setsid() is refused
    (as for a shell's job), and a signal to its whole group ends the test alone; the supervisor
    serves the next test. The zygote's child and ``python FILE`` agree."""
    program = tmp_path / "group.py"
    program.write_text(PY_GROUP)
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        assert runner.mode == "fork-server"
        server = runner.server_pid
        forked, plain = runner.run("\n"), runner.run_plain("\n")
        killed, killed_plain = runner.run("kill\n"), runner.run_plain("kill\n")
        after = runner.run("\n")
        assert runner.server_pid == server
    assert forked.stdout == plain.stdout == after.stdout == "True refused\n", (
        forked.stdout,
        plain.stdout,
    )
    for result in (killed, killed_plain):
        assert result.status == "re" and result.stdout == "True refused\n", result.describe()
        assert "SIGTERM" in result.describe() or "15" in result.describe(), result.describe()


PY_PROCESS_STATE = """
import ctypes, os, resource
libc = ctypes.CDLL(None)
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
limits = [resource.getrlimit(getattr(resource, name)) for name in sorted(dir(resource)) if name.startswith("RLIMIT_")]
print("dumpable", libc.prctl(3, 0, 0, 0, 0))  # PR_GET_DUMPABLE
print("blocked", status["SigBlk"].strip(), "ignored", status["SigIgn"].strip())
print("open", sorted(int(fd) for fd in os.listdir("/proc/self/fd"))[:4])
print("cwd", os.getcwd(), "leader", os.getpgid(0) == os.getpid())
print("limits", limits)
"""


def test_a_python_tests_process_is_set_up_as_python_files(tmp_path: Path) -> None:
    """What the zygote's child is set up with (in C where the per-test loop's library is there,
    see supervisor/_sv_python.ZygoteFork) is what ``python FILE`` gets: dumpable, no signal
    blocked, only SIGPIPE and SIGXFSZ ignored, descriptors 0-2 and the one it lists with, the
    box as working folder, its own process group, every resource limit alike."""
    program = tmp_path / "state.py"
    program.write_text(PY_PROCESS_STATE)
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        forked = [runner.run("") for _ in range(3)]
        plain = runner.run_plain("")
    assert {r.status for r in [*forked, plain]} == {"ok"}, [r.describe() for r in [*forked, plain]]
    assert {r.stdout for r in forked} == {plain.stdout}, (forked[-1].stdout, plain.stdout)
    lines = plain.stdout.splitlines()
    assert lines[0] == "dumpable 1", lines[0]
    assert lines[1] == "blocked 0000000000000000 ignored 0000000001001000", lines[
        1
    ]  # SIGPIPE, SIGXFSZ
    assert lines[2] == "open [0, 1, 2, 3]", lines[2]
    assert lines[3].endswith("leader True"), lines[3]


PY_OUTCOMES = """
import os, sys
word = sys.stdin.readline().strip()
print(word[::-1])
if word == "err":
    sys.stderr.write("e" * 20000)  # more than the tail kept
elif word == "exit":
    sys.exit(3)
elif word == "raise":
    raise ValueError(word)
elif word == "kill":
    os.kill(os.getpid(), 9)
"""


def _reports(runner) -> list[dict]:
    """Every report the runner's client gets from now on (appended to the list returned)."""
    seen: list[dict] = []
    client = runner._client
    run = client.run

    def keep(*args, **kwargs):
        report = run(*args, **kwargs)
        seen.append(dict(report))
        return report

    client.run = keep
    return seen


def test_the_serve_loop_in_c_reports_as_the_python_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A zygote's plain fast tests are read, run, reported and checked in C (testloop.c's
    tl_serve, report key ``serve``) unless the bench's profile is on, when the Python loop runs
    them: both give the same report, field for field (times aside), on a right answer, a long
    stderr, an exit status, an uncaught exception and a signal."""
    program = tmp_path / "outcomes.py"
    program.write_text(PY_OUTCOMES)
    words = ["abc", "err", "exit", "raise", "kill", "zz"] * 2
    # an uncaught exception or SystemExit ends by the interpreter's whole finalisation (~20 ms,
    # past the first scan: the Python watch ends those); the others end in a few ms
    quick = [i for i, word in enumerate(words) if word not in ("exit", "raise")]
    timed = {
        "pid",
        "utime",
        "stime",
        "wall",
        "maxrss_kb",
        "cg_kb",
        "cg_cpu",
        "fds",
        "serve",
        "parked",
        "prof",
        "minflt",
        "sampled_kb",
    }
    # (and "parked": whether the serve loop's test ran in a process parked ahead, the C report's own)
    # (cg_cpu: the test's CPU from the cpuacct cgroup, a time like utime)
    compared = 0
    rounds = 0
    # A busy machine can push any test past the first scan, in either run: a test is compared
    # where the C loop served it and the Python loop ran it, and a round is run again (up to
    # four) until two of them were.
    while compared < 2 and rounds < 4:
        rounds += 1
        got = {}
        for profile in ("0", "1"):
            monkeypatch.setenv("GAMECERT_SV_PROFILE", profile)
            with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
                if not runner._client.config.get("testloop"):
                    pytest.skip("no per-test loop library here (no C compiler, or not contained)")
                for word in words[
                    :2
                ]:  # the first test of a runner is often not over by the first scan
                    runner.run(word + "\n")
                reports = _reports(runner)
                results = [runner.run(word + "\n") for word in words]
            got[profile] = reports, results
        (served, served_results), (python, python_results) = got["0"], got["1"]
        assert [r.describe().split(",")[0] for r in served_results] == [
            r.describe().split(",")[0] for r in python_results
        ]
        assert [r.stdout for r in served_results] == [r.stdout for r in python_results]
        assert not any(r.get("serve") for r in python)
        if sum(bool(served[i].get("serve")) for i in quick) < len(quick) // 2:
            continue  # most quick tests are served in C on a machine that is not swamped
        for c_report, py_report in zip(served, python):
            if not c_report.get("serve") or not py_report.get("loop"):
                continue
            compared += 1
            assert set(c_report) - timed == set(py_report) - timed
            assert {k: v for k, v in c_report.items() if k not in timed} == {
                k: v for k, v in py_report.items() if k not in timed
            }
            for key in ("utime", "stime", "wall"):
                assert isinstance(c_report[key], float) and c_report[key] >= 0
    assert compared >= 2, (rounds, served, python)
