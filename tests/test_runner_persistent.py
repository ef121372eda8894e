"""Persistent Python children: many tests per process, each seeing a fresh interpreter state.

Every program here prints ``os.getpid()``, so that the tests can see which tests shared a
process: the isolation checks below would be empty if every test ran in a new process, so each
one also asserts that the process really was shared.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from gamecert.engine.limits import Limits
from gamecert.engine.sandbox import Candidate, RunResult, open_runner

LIMITS = Limits(time_s=2.0, memory_mb=256)


def program(tmp_path: Path, source: str, name: str = "prog.py") -> Candidate:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return Candidate.parse(str(path))


def pid_of(result: RunResult) -> int:
    return int(result.stdout.split()[0])


STATEFUL = """
    import builtins, io, os, sys
    import helper

    COUNT = []
    COUNT.append(1)
    helper.calls.append(1)
    line = sys.stdin.readline().strip()
    print(os.getpid(), len(COUNT), len(helper.calls), sys.getrecursionlimit(),
          os.environ.get("LEFT_BEHIND"), type(sys.stdin).__name__, builtins.input is input,
          sys.get_int_max_str_digits(), sys.argv[1:], os.listdir("."), line)
    # what a program may change, none of which the next test may see
    sys.setrecursionlimit(10**6)
    sys.set_int_max_str_digits(0)
    os.environ["LEFT_BEHIND"] = "yes"
    builtins.input = None
    sys.argv.append("extra")
    sys.stdin = io.StringIO("not the test's input")
    open("scratch.txt", "w").write("left in the working folder")
"""


def test_each_test_sees_a_fresh_interpreter_state(tmp_path: Path) -> None:
    """Module globals, the program's own imported modules, the recursion limit, int digits,
    environment, builtins, argv, sys.stdin and the working folder are fresh for every test,
    while the process is shared."""
    (tmp_path / "helper.py").write_text("calls = []\n")
    candidate = program(tmp_path, STATEFUL)
    # uncontained: the program imports a module beside it, which containment does not show it
    with open_runner(candidate, LIMITS, contain=False) as runner:
        results = [runner.run(f"test{i}\n") for i in range(5)]
    for i, result in enumerate(results):
        assert result.status == "ok", result.describe()
        fields = result.stdout.split(maxsplit=1)[1]
        assert fields == f"1 1 1000 None TextIOWrapper True 4300 [] [] test{i}\n", (i, result.stdout)
        assert result.fresh is False
    assert len({pid_of(r) for r in results}) == 1, "the tests must share one persistent process"


def test_threads_left_running_retire_the_process(tmp_path: Path) -> None:
    """A test that leaves a (daemon) thread running is the process's last; a thread that
    ended does not retire it."""
    candidate = program(tmp_path, """
        import os, sys, threading, time
        mode = sys.stdin.readline().strip()
        if mode == "daemon":
            threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
        elif mode == "raw":
            import _thread
            _thread.start_new_thread(time.sleep, (60,))
        elif mode == "joined":
            t = threading.Thread(target=print, args=("from a thread",))
            t.start(); t.join()
        print(os.getpid())
    """)
    with open_runner(candidate, LIMITS) as runner:
        plain = pid_of(runner.run("plain\n"))
        joined = runner.run("joined\n")
        daemon = pid_of(runner.run("daemon\n"))
        after = pid_of(runner.run("plain\n"))
        raw = pid_of(runner.run("raw\n"))
        after_raw = pid_of(runner.run("plain\n"))
    assert joined.stdout.splitlines()[0] == "from a thread"
    assert plain == int(joined.stdout.split()[-1]) == daemon
    assert after == raw and after != daemon and after_raw != raw


@pytest.mark.parametrize(("fault", "expect"), [
    ("exit3", ("re", 3)), ("os_exit", ("re", 4)), ("raise", ("re", 1)), ("ok", ("ok", 0)),
])  # fmt: skip
def test_faults_retire_the_process(tmp_path: Path, fault: str, expect: tuple) -> None:
    """A non-zero exit, os._exit or an uncaught exception gives its verdict and retires the
    process; a clean test keeps it."""
    candidate = program(tmp_path, """
        import os, sys
        mode = sys.stdin.readline().strip()
        print(os.getpid(), flush=True)
        if mode == "exit3": sys.exit(3)
        if mode == "os_exit": os._exit(4)
        if mode == "raise": raise KeyError(mode)
    """)
    with open_runner(candidate, LIMITS) as runner:
        before = pid_of(runner.run("ok\n"))
        result = runner.run(f"{fault}\n")
        after = pid_of(runner.run("ok\n"))
    assert (result.status, result.exit_code) == expect, result.describe()
    assert pid_of(result) == before
    assert (after == before) == (fault == "ok")


def test_a_process_runs_at_most_persistent_tests_tests(tmp_path: Path) -> None:
    """Limits.persistent_tests = 3: three tests per process; 1: a new process for every test."""
    candidate = program(tmp_path, "import os\nprint(os.getpid())\n")
    with open_runner(candidate, Limits(time_s=2.0, persistent_tests=3)) as runner:
        pids = [pid_of(runner.run("")) for _ in range(7)]
    assert pids[0] == pids[1] == pids[2] != pids[3] == pids[4] == pids[5] != pids[6]
    with open_runner(candidate, Limits(time_s=2.0, persistent_tests=1)) as runner:
        results = [runner.run("") for _ in range(3)]
    assert len({pid_of(r) for r in results}) == 3 and all(r.fresh for r in results)


def test_run_fresh_uses_a_new_process_and_keeps_the_persistent_one(tmp_path: Path) -> None:
    """run_fresh runs in a process of its own (fresh=True); the persistent process goes on."""
    candidate = program(tmp_path, "import os\nprint(os.getpid())\n")
    with open_runner(candidate, LIMITS) as runner:
        first = runner.run("")
        fresh = runner.run_fresh("")
        again = runner.run("")
    assert fresh.status == "ok" and fresh.fresh and not first.fresh
    assert pid_of(first) == pid_of(again) != pid_of(fresh)


MEMORY_AND_CPU = """
    import os, sys, time
    what, amount = sys.stdin.readline().split()
    if what == "mb":
        block = b"x" * (int(amount) << 20)  # written, so resident
    elif what == "spin":
        end = time.process_time() + int(amount) / 1000
        while time.process_time() < end:
            pass
    print(os.getpid())
"""


def test_cpu_and_memory_are_counted_per_test(tmp_path: Path) -> None:
    """In one persistent process, a 100 MB test shows its own peak and the small test after
    it a small one; a 300 ms CPU test shows its CPU time and the next one almost none."""
    candidate = program(tmp_path, MEMORY_AND_CPU)
    with open_runner(candidate, LIMITS) as runner:
        small = [runner.run("mb 1\n") for _ in range(3)]
        spin = runner.run("spin 300\n")
        after_spin = runner.run("mb 1\n")
        mid = runner.run("mb 40\n")
        after_mid = runner.run("mb 1\n")
        big = runner.run("mb 100\n")
        after_big = runner.run("mb 1\n")
    assert all(r.status == "ok" for r in [*small, spin, after_spin, mid, after_mid, big, after_big])
    assert len({pid_of(r) for r in [*small, spin, after_spin, mid, after_mid, big]}) == 1, "one shared process"
    assert mid.max_rss_mb >= 40 and after_mid.max_rss_mb < 30, (mid.max_rss_mb, after_mid.max_rss_mb)
    assert all(r.max_rss_mb < 40 for r in small), [r.max_rss_mb for r in small]
    assert big.max_rss_mb >= 100 + min(r.max_rss_mb for r in small) - 2, big.max_rss_mb
    assert after_big.max_rss_mb < 40, after_big.max_rss_mb
    assert 0.29 <= spin.cpu_s < 0.6, spin.cpu_s
    assert after_spin.cpu_s < 0.05 and all(r.cpu_s < 0.05 for r in small)
