"""A native test that reaches the fork server (supervisor/shim.c): what it does to it changes
nothing of the next tests.

The C program below is the test: it does to every process of the sandbox but itself and the
supervisor (PID 1), the fork server among them, what a process of the same user may (signal it,
stop it, lower its limits, its CPU time limit, its priority, its policy, its CPU affinity), or
tries what it may not (ptrace it, open its memory, environment or descriptors: "reach"). The
tests after it (probes) must start as the first test of the runner did: the same limits (the CPU
time limit the test's own, set by its process before the program runs), priority, policy,
affinity, no signal pending or blocked; a fork server that was hit ends (or is ended: stopped,
it is seen before a request is sent to it) and a new one starts.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner

HOSTILE = r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void) {
    char mode[32] = "";
    if (scanf("%31s", mode) != 1)
        return 2;
    pid_t me = getpid(), others[64];
    int n = 0;
    DIR *proc = opendir("/proc");
    for (struct dirent *e; proc && (e = readdir(proc)) && n < 64;) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid > 1 && pid != me)
            others[n++] = pid;
    }
    int breached = 0;
    for (int i = 0; i < n; i++) {
        pid_t pid = others[i];
        struct rlimit few = {64, 64}, cpu = {1, 2};
        cpu_set_t one;
        struct sched_param param = {0};
        if (!strcmp(mode, "kill")) kill(pid, SIGKILL);
        else if (!strcmp(mode, "stop")) kill(pid, SIGSTOP);
        else if (!strcmp(mode, "term")) kill(pid, SIGTERM);
        else if (!strcmp(mode, "rt")) kill(pid, SIGRTMIN + 3);
        else if (!strcmp(mode, "limits")) { prlimit(pid, RLIMIT_NOFILE, &few, NULL); prlimit(pid, RLIMIT_CPU, &cpu, NULL); }
        else if (!strcmp(mode, "cpu")) prlimit(pid, RLIMIT_CPU, &cpu, NULL);
        else if (!strcmp(mode, "nice")) setpriority(PRIO_PROCESS, pid, 15);
        else if (!strcmp(mode, "idle")) sched_setscheduler(pid, SCHED_IDLE, &param);
        else if (!strcmp(mode, "affinity")) { CPU_ZERO(&one); CPU_SET(0, &one); sched_setaffinity(pid, sizeof one, &one); }
        else if (!strcmp(mode, "reach")) {
            if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) == 0) breached++;
            char path[64], link[256];
            const char *files[] = {"mem", "environ"};
            for (int f = 0; f < 2; f++) {
                snprintf(path, sizeof path, "/proc/%d/%s", pid, files[f]);
                int fd = open(path, f == 0 ? O_RDWR : O_RDONLY);
                char byte;
                if (fd >= 0 && read(fd, &byte, 1) >= 0) breached++;
                if (fd >= 0) close(fd);
            }
            for (int fd = 0; fd < 1100; fd++) {
                snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
                if (readlink(path, link, sizeof link) >= 0) breached++;
                int opened = open(path, O_RDONLY);
                if (opened >= 0) { breached++; close(opened); }
            }
        }
    }
    if (!strcmp(mode, "probe")) {
        for (int which = 0; which < RLIM_NLIMITS; which++) {
            struct rlimit rl;
            getrlimit(which, &rl);
            printf("%llu/%llu ", (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max);
        }
        cpu_set_t cpus;
        sched_getaffinity(0, sizeof cpus, &cpus);
        sigset_t pending, blocked;
        sigpending(&pending);
        sigprocmask(SIG_BLOCK, NULL, &blocked);
        printf("nice %d policy %d cpus %d", getpriority(PRIO_PROCESS, 0), sched_getscheduler(0), CPU_COUNT(&cpus));
        for (int sig = 1; sig < 65; sig++)
            if (sigismember(&pending, sig) == 1 || sigismember(&blocked, sig) == 1)
                printf(" signal %d", sig);
        printf("\n");
    } else {
        printf("touched %d breached %d\n", n, breached);
    }
    return 0;
}
"""

MODES = ("reach", "kill", "stop", "term", "rt", "limits", "cpu", "nice", "idle", "affinity")


def test_a_test_that_reaches_the_fork_server_changes_nothing_of_the_next(tmp_path: Path) -> None:
    program = tmp_path / "hostile.c"
    program.write_text(HOSTILE)
    limits = Limits(time_s=2.0, memory_mb=256)
    with open_runner(Candidate.parse(str(program)), limits) as runner:
        if not runner.startup.startswith("native fork server"):
            pytest.skip(f"no native fork server here: {runner.startup}")
        served = _served(runner)
        looped = bool(
            runner._client.config.get("testloop")
        )  # (the supervisor has its C serve loop)
        first = runner.run("probe\n")
        results = []
        for mode in MODES:
            results.append((mode, runner.run(f"{mode}\n")))
            for _ in range(
                3
            ):  # (a fork server that was hit is started anew: its first tests are fresh)
                results.append(("probe", runner.run("probe\n")))
    assert first.status == "ok", first.describe()
    assert [(m, r.status) for m, r in results] == [(m, "ok") for m, _ in results], [
        (m, r.describe()) for m, r in results
    ]
    if looped:  # (some ran there)
        assert any(served), served
    assert all(int(r.stdout.split()[1]) >= 1 for m, r in results if m != "probe"), (
        results
    )  # the fork server
    assert all(r.stdout.split()[3] == "0" for m, r in results if m == "reach"), [
        r.stdout for m, r in results if m == "reach"
    ]  # no ptrace, no /proc/PID/mem, environ, fd/N
    assert {r.stdout for m, r in results if m == "probe"} == {first.stdout}
    assert " signal " not in first.stdout and f"policy {os.sched_getscheduler(0)} " in first.stdout
    assert first.stdout.startswith("2/3 "), (
        first.stdout
    )  # RLIMIT_CPU: the test's (2 s, hard one more)


def _served(runner) -> list[bool]:
    """Whether each next report of ``runner`` came from the supervisor's C serve loop (True) or
    its Python loop."""
    seen: list[bool] = []
    client = runner._client
    receive = client.receive

    def recording(token):
        report = receive(token)
        if report is not None:
            seen.append(bool(report.get("serve")))
        return report

    client.receive = recording
    return seen


AT_LIMIT = r"""
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    int children = 0, made = 0, gate[2];
    if (scanf("%d", &children) != 1 || pipe(gate) != 0)
        return 2;
    for (int i = 0; i < children; i++) {
        pid_t pid = fork();
        if (pid == 0) {  /* alive until every fork is done: the parent closes its end */
            char byte;
            close(gate[1]);
            (void)read(gate[0], &byte, 1);
            _exit(0);
        }
        if (pid < 0)
            return 3;
        made++;
    }
    close(gate[1]);
    while (wait(NULL) > 0) {
    }
    printf("%d\n", made);
    return 0;
}
"""


def test_a_native_tests_process_limit_is_exact(tmp_path: Path) -> None:
    """A test of exactly its limit's processes (all alive at once) is OK, and one of one more is
    RE, whichever loop runs it."""
    program = tmp_path / "at_limit.c"
    program.write_text(AT_LIMIT)
    limits = Limits(time_s=2.0, memory_mb=256, processes=6)
    with open_runner(Candidate.parse(str(program)), limits) as runner:
        if runner.cap is None or not runner.startup.startswith("native fork server"):
            pytest.skip(
                f"no pids cgroup or no native fork server here: {runner.accounting}; {runner.startup}"
            )
        results = [runner.run(f"{n}\n") for n in (0, 5, 5, 6, 5, 6, 0)]
    assert [r.status for r in results] == ["ok", "ok", "ok", "re", "ok", "re", "ok"], [
        r.describe() for r in results
    ]
