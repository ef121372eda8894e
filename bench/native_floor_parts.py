"""How far the native fork server can get towards its fork floor, whatever the harness does.

``candidate_throughput.py``'s ``native floor ratio`` divides the native runner's rate by the fork
+ wait rate of a C++ program whose child ends at once (``_exit(0)``). A test's child does more:
it runs the program (reads its input, writes its answer, exits through its handlers and
destructors). This script measures, outside any sandbox and with no harness, in alternating
rounds (so that the machine's load touches every way alike):

  (a) fork + wait, the child ending at once: the floor itself (the same C++ program as there);
  (b) fork + wait, the child running the solver's own code on the test's input and exiting
      normally: what a fresh process per test costs at the least for this program;
  (c) the shim's fork server (``supervisor/shim.c``) preloaded into the solver, driven by a bare
      C loop: a clone request per test with the test's descriptors, the reply, ``wait4``. The
      mechanism the runner uses, without the supervisor, the client or the sandbox.

Per way: microseconds of wall time per test, microseconds of CPU per test (every process of the
way: the loop, the server, each test's child; ``RUSAGE_CHILDREN``) and minor faults per test.
The last lines are the ratios: (a)/(c) is the floor ratio the runner would reach with a harness
that costs nothing; (a)/(b) the one a runner at the fork + run floor would reach; (b)/(c) how
close the shim is to a plain fork of the same run.

    .venv/bin/python bench/native_floor_parts.py [--rounds 6] [--tests 1000]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamecert.engine.run import native_shim  # noqa: E402

#: the solver (as bench/native_forkserver.py's): read a word, print a name
SOLVE = r"""
    std::ios::sync_with_stdio(false);
    std::string word;
    std::cin >> word;
    std::cout << (word.size() % 3 ? "Alice" : "Bob") << "\n";
"""

SOLVER = "#include <iostream>\n#include <string>\nint main() {" + SOLVE + "}\n"

#: (a) and (b): the C++ image forks itself N times; the child ends at once (argv[1] "exit") or
#: runs the solver's code on the input file and returns from it as main would (exit(0): the
#: program's exit handlers, its streams flushed); prints the count and the seconds
FORKER = (
    r"""
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
static void solve() {"""
    + SOLVE
    + r"""}
int main(int argc, char **argv) {
    bool run = std::strcmp(argv[1], "run") == 0;
    int n = std::atoi(argv[2]);
    int in = open(argv[3], O_RDONLY), out = open("/dev/null", O_WRONLY);
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; i++) {
        lseek(in, 0, SEEK_SET);
        pid_t pid = fork();
        if (pid == 0) {
            if (!run) _exit(0);
            dup2(in, 0);
            dup2(out, 1);
            close(in);
            close(out);
            solve();
            exit(0);
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid || status != 0) return 1;
    }
    std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start;
    std::printf("%d %.6f\n", n, spent.count());
}
"""
)

#: (c): start the solver with the shim preloaded and the control socket on its descriptor (as
#: _sv_native.start does), then N times: a 'c' request with stdin, stdout, stderr and a folder,
#: the reply P<pid>, wait4 (the clone is this loop's child: CLONE_PARENT); prints count, seconds
DRIVER = r"""
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}
int main(int argc, char **argv) {  /* shim solver count input control_fd */
    int sv[2], control = atoi(argv[5]);
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0) return 2;
    pid_t server = fork();
    if (server == 0) {
        close(sv[0]);
        if (dup2(sv[1], control) < 0) _exit(127);
        close(sv[1]);
        char preload[4200];
        snprintf(preload, sizeof preload, "LD_PRELOAD=%s", argv[1]);
        char *env[] = {"PATH=/usr/bin:/bin", "LD_BIND_NOW=1", preload, NULL};
        char *args[] = {argv[2], NULL};
        execve(argv[2], args, env);
        _exit(127);
    }
    close(sv[1]);
    char reply[64];
    ssize_t got = recv(sv[0], reply, sizeof reply - 1, 0);
    if (got != 5 || memcmp(reply, "GCFS2", 5) != 0) return 3;  /* HELLO in _sv_native.py */
    int n = atoi(argv[3]);
    int fds[4] = {open(argv[4], O_RDONLY), open("/dev/null", O_WRONLY), open("/dev/null", O_WRONLY),
                  open("/tmp", O_RDONLY | O_DIRECTORY)};
    double start = now();
    for (int i = 0; i < n; i++) {
        lseek(fds[0], 0, SEEK_SET);
        char byte = 'c';
        union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof fds)]; } control_msg;
        memset(&control_msg, 0, sizeof control_msg);
        struct iovec iov = {&byte, 1};
        struct msghdr msg;
        memset(&msg, 0, sizeof msg);
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control_msg.buf;
        msg.msg_controllen = sizeof control_msg.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof fds);
        memcpy(CMSG_DATA(c), fds, sizeof fds);
        if (sendmsg(sv[0], &msg, 0) != 1) return 4;
        got = recv(sv[0], reply, sizeof reply - 1, 0);
        if (got < 2 || reply[0] != 'P') return 5;
        reply[got] = 0;
        pid_t pid = atoi(reply + 1);
        int status = 0;
        if (waitpid(pid, &status, 0) != pid || status != 0) return 6;
    }
    double spent = now() - start;
    close(sv[0]);  /* end of file: the server exits */
    waitpid(server, NULL, 0);
    printf("%d %.6f\n", n, spent);
    return 0;
}
"""

WAYS = ("(a) fork + _exit", "(b) fork + the program's run", "(c) shim clone + the program's run")


def _compile(compiler: str, source: str, out: Path) -> str:
    src = out.with_suffix(".cpp" if compiler == "g++" else ".c")
    src.write_text(source)
    subprocess.run([compiler, "-O2", "-o", str(out), str(src)], check=True)
    return str(out)


def _children() -> tuple[float, int]:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime, usage.ru_minflt


def _round(argv: list[str]) -> tuple[int, float, float, int]:
    """Tests, wall seconds, CPU seconds and minor faults of one way's run (all its processes)."""
    cpu, faults = _children()
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{argv[0]} failed ({done.returncode}): {done.stderr.strip()}")
    count, seconds = done.stdout.split()
    cpu2, faults2 = _children()
    return int(count), float(seconds), cpu2 - cpu, faults2 - faults


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--tests", type=int, default=1000, help="tests per way per round")
    args = parser.parse_args(argv)
    shim, why = native_shim.shim_status()
    if shim is None:
        print(f"no shim: {why}")
        return 2
    from gamecert.engine.run.supervisor._sv_native import CONTROL_FD

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        solver = _compile("g++", SOLVER, work / "solver")
        forker = _compile("g++", FORKER, work / "forker")
        driver = _compile("gcc", DRIVER, work / "driver")
        inp = work / "in.txt"
        inp.write_text("ZADACHA\n")
        n = str(args.tests)
        commands = {
            WAYS[0]: [forker, "exit", n, str(inp)],
            WAYS[1]: [forker, "run", n, str(inp)],
            WAYS[2]: [driver, shim, solver, n, str(inp), str(CONTROL_FD)],
        }
        print(
            f"{args.rounds} rounds x {args.tests} tests per way, alternating; load {os.getloadavg()[0]:.2f}"
        )
        totals = {way: [0, 0.0, 0.0, 0] for way in WAYS}
        for r in range(args.rounds):
            order = WAYS if r % 2 == 0 else WAYS[::-1]
            for way in order:
                for i, value in enumerate(_round(commands[way])):
                    totals[way][i] += value
            print(
                f"round {r + 1}: "
                + ", ".join(
                    f"{way[:3]} {1e6 * totals[way][1] / totals[way][0]:.0f} us" for way in WAYS
                )
                + " (so far)"
            )
    per = {way: (1e6 * t / c, 1e6 * cpu / c, f / c) for way, (c, t, cpu, f) in totals.items()}
    for way in WAYS:
        wall, cpu, faults = per[way]
        print(
            f"{way:36s} {wall:7.1f} us/test wall, {cpu:6.1f} us CPU, {faults:5.1f} minor faults per test"
        )
    print(f"load at the end {os.getloadavg()[0]:.2f}")
    print(f"shim against fork + run, (b)/(c): {per[WAYS[1]][0] / per[WAYS[2]][0]:.2f}")
    print(f"floor ratio at the fork + run floor, (a)/(b): {per[WAYS[0]][0] / per[WAYS[1]][0]:.2f}")
    print(
        f"floor ratio with a harness that costs nothing, (a)/(c): {per[WAYS[0]][0] / per[WAYS[2]][0]:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
