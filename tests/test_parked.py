"""The zygote's next test's process, forked while a test runs (supervisor/testloop.c, tl_park),
against a test that reaches it.

A test's process can do to any other process of the sandbox's user what the user may: signal
it (SIGKILL, SIGSTOP, or a signal it blocks while parked), lower its limits (prlimit), its
priority, its scheduling policy, its CPU affinity; not ptrace it, nor read or write its memory
or environment, nor follow or open its descriptors through /proc (it is not dumpable: the
"reach" mode tries). Each hostile test below does one of these to
every process of the sandbox but itself and the supervisor (PID 1), which leaves the parked
process; the test after it (a probe) must start as the first test of the runner did: the same
limits, priority, policy, affinity, no signal pending or blocked. A parked process that was hit
is not released (the server forks the test's process afresh), and the probe says so by being
equal to the first.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner

HOSTILE = r"""import os, resource, signal, sys
mode = sys.stdin.readline().strip()
me = os.getpid()
import time
deadline = time.monotonic() + (0.5 if mode != "probe" else 0)
while True:  # (the server parks the next test's process just after this one starts: wait for it)
    others = [int(n) for n in os.listdir("/proc") if n.isdigit() and int(n) not in (1, me)]
    if others or time.monotonic() > deadline:
        break
    time.sleep(0.002)
for pid in others:
    try:
        if mode == "kill":
            os.kill(pid, signal.SIGKILL)
        elif mode == "stop":
            os.kill(pid, signal.SIGSTOP)
        elif mode == "term":
            os.kill(pid, signal.SIGTERM)
        elif mode == "rt":
            os.kill(pid, signal.SIGRTMIN + 3)
        elif mode == "limits":
            resource.prlimit(pid, resource.RLIMIT_NOFILE, (64, 64))
            resource.prlimit(pid, resource.RLIMIT_CPU, (1, 2))
        elif mode == "nice":
            os.setpriority(os.PRIO_PROCESS, pid, 15)
        elif mode == "idle":
            os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))
        elif mode == "affinity":
            os.sched_setaffinity(pid, {min(os.sched_getaffinity(0))})
    except OSError:
        pass
breached = 0  # what no process of the same user may do to a process that is not dumpable
for pid in others if mode == "reach" else []:
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH
            breached += 1
    except OSError:
        pass
    for path, how in ((f"/proc/{pid}/mem", "r+b"), (f"/proc/{pid}/environ", "rb")):
        try:
            with open(path, how) as f:
                f.read(1)
            breached += 1
        except OSError:
            pass
    try:
        fds = os.listdir(f"/proc/{pid}/fd")  # (the numbers are listed, as the supervisor's are)
    except OSError:
        fds = []
    for fd in fds:
        for reach in (os.readlink, lambda path: os.close(os.open(path, os.O_RDONLY))):
            try:
                reach(f"/proc/{pid}/fd/{fd}")
                breached += 1
            except OSError:
                pass
if mode == "reach":
    print("touched", len(others), "breached", breached)
elif mode == "probe":
    limits = [resource.getrlimit(getattr(resource, n)) for n in sorted(dir(resource)) if n.startswith("RLIMIT_")]
    print(limits, os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0), sorted(os.sched_getaffinity(0)),
          sorted(signal.sigpending()), sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])))
else:
    print("touched", len(others))
"""

MODES = ("reach", "kill", "stop", "term", "rt", "limits", "nice", "idle", "affinity")


def test_a_test_that_reaches_the_parked_process_changes_nothing_of_the_next(tmp_path: Path) -> None:
    program = tmp_path / "hostile.py"
    program.write_text(HOSTILE)
    with open_runner(Candidate.parse(str(program)), Limits(time_s=2.0, memory_mb=256)) as runner:
        first = runner.run("probe\n")
        results, reached = [], set()
        for mode in MODES:
            # The server parks the next test's process only after a test that ended before the
            # first scan (10 ms): on a busy machine a probe can miss it, and the program can list
            # /proc before the server has parked the next one; so each mode is tried until it
            # reached a parked process, up to forty times.
            for _ in range(40):
                results.append((mode, runner.run(f"{mode}\n")))
                results.append(("probe", runner.run("probe\n")))
                results.append(
                    ("probe", runner.run("probe\n"))
                )  # (its parked process forked afresh)
                if results[-3][1].stdout.startswith("touched 1"):
                    reached.add(mode)
                    break
    assert first.status == "ok", first.describe()
    assert [(m, r.status) for m, r in results] == [(m, "ok") for m, _ in results], [
        (m, r.describe()) for m, r in results
    ]
    if not reached:
        pytest.skip(
            f"no process parked here (the zygote's C serve loop is off: {runner.accounting})"
        )
    assert reached == set(MODES), [(m, r.stdout) for m, r in results if m != "probe"]
    assert all(
        r.stdout.split()[:2] in (["touched", "0"], ["touched", "1"])
        for m, r in results
        if m != "probe"
    )
    assert all(r.stdout.split()[2:] == ["breached", "0"] for m, r in results if m == "reach"), [
        r.stdout for m, r in results if m == "reach"
    ]  # no ptrace, no /proc/PID/mem, environ, fd/N
    assert {r.stdout for m, r in results if m == "probe"} == {first.stdout}
    assert "[]" in first.stdout and str(os.sched_getscheduler(0)) in first.stdout.split()


AT_LIMIT = r"""import os, sys, time
children = int(sys.stdin.readline())
pids = []
for _ in range(children):
    pid = os.fork()
    if pid == 0:
        time.sleep(0.05)
        os._exit(0)
    pids.append(pid)
for pid in pids:
    os.waitpid(pid, 0)
print(len(pids))
"""


def test_a_parked_process_leaves_the_test_its_process_limit(tmp_path: Path) -> None:
    """The parked process takes a place in the sandbox's pids cgroup while a test runs: a test
    of exactly its limit's processes is still OK, and one of one more is still RE (refused at
    the cap, as a judge's pids.max refuses it, or seen over the limit)."""
    program = tmp_path / "at_limit.py"
    program.write_text(AT_LIMIT)
    limits = Limits(time_s=2.0, memory_mb=256, processes=6)
    with open_runner(Candidate.parse(str(program)), limits) as runner:
        if runner.cap is None:
            pytest.skip(f"no pids cgroup here: {runner.accounting}")
        results = [runner.run(f"{n}\n") for n in (0, 5, 5, 6, 5, 6, 0)]
    assert [r.status for r in results] == ["ok", "ok", "ok", "re", "ok", "re", "ok"], [
        r.describe() for r in results
    ]
    assert all("process limit exceeded" in r.detail for r in results if r.status == "re")
