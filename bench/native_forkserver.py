"""Tests per second of a trivial C++ solver (read a word, print a name), three ways, in one run
with alternating rounds:

  (i)   the native fork server (gamecert/engine/run/supervisor/shim.c through _sv_native.py): one
        clone of the stopped program per test;
  (ii)  fork + exec per test from Python (what the supervisor's exec mode does);
  (iii) a bare C loop of fork + exec + wait4 of the same binary: the machine's reference.

Every way does the same per test: open the input, create the output anew, run, wait4; the two
Python ways also read the output back and check it. No sandbox, no limits: the raw mechanisms.
Also the CPU time per test of each way (this process, its children and the fork server: the
figure a loaded machine disturbs least). Last line: ``native speedup: X`` (tests per second,
fork server over exec per test from Python).

    python bench/native_forkserver.py [--rounds 5] [--seconds 1.5]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamecert.engine.run import native_shim  # noqa: E402
from gamecert.engine.run.supervisor import _sv_native  # noqa: E402

SOLVER = r"""
#include <iostream>
#include <string>
int main() {
    std::ios::sync_with_stdio(false);
    std::string word;
    std::cin >> word;
    std::cout << (word.size() % 3 ? "Alice" : "Bob") << "\n";
}
"""

DRIVER = r"""
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    double seconds = atof(argv[3]), start = now(), elapsed = 0;
    char *args[] = {argv[4], NULL};
    long count = 0;
    while ((elapsed = now() - start) < seconds) {
        pid_t pid = fork();
        if (pid == 0) {
            int in = open(argv[1], O_RDONLY), out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(in, 0);
            dup2(out, 1);
            close(in);
            close(out);
            execv(argv[4], args);
            _exit(127);
        }
        int status;
        struct rusage ru;
        if (wait4(pid, &status, 0, &ru) != pid || status != 0) return 1;
        count++;
    }
    printf("%ld %.6f\n", count, elapsed);
    return 0;
}
"""


def _cpu(server_pid: int | None = None) -> float:
    """CPU seconds of this process, its reaped children and (if given) the live fork server."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    if server_pid is not None:
        with open(f"/proc/{server_pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _compile(compiler: str, source: str, out: Path) -> str:
    src = out.with_suffix(".cpp" if compiler == "g++" else ".c")
    src.write_text(source)
    subprocess.run([compiler, "-O2", "-o", str(out), str(src)], check=True)
    return str(out)


def _server_round(
    server, inp: str, outp: str, expected: bytes, seconds: float
) -> tuple[int, float]:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fin = os.open(inp, os.O_RDONLY)
        fout = os.open(outp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        pid = server.spawn(fin, fout, 2)
        os.close(fin)
        os.close(fout)
        _, status, _ = os.wait4(pid, 0)
        with open(outp, "rb") as f:
            assert status == 0 and f.read() == expected
        count += 1
    return count, time.perf_counter() - start


def _exec_round(
    exe: str, inp: str, outp: str, expected: bytes, seconds: float
) -> tuple[int, float]:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        pid = os.fork()
        if pid == 0:
            try:
                fin = os.open(inp, os.O_RDONLY)
                fout = os.open(outp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fin, 0)
                os.dup2(fout, 1)
                os.execv(exe, [exe])
            finally:
                os._exit(127)
        _, status, _ = os.wait4(pid, 0)
        with open(outp, "rb") as f:
            assert status == 0 and f.read() == expected
        count += 1
    return count, time.perf_counter() - start


def _driver_round(driver: str, exe: str, inp: str, outp: str, seconds: float) -> tuple[int, float]:
    done = subprocess.run(
        [driver, inp, outp, str(seconds), exe], capture_output=True, text=True, check=True
    )
    count, elapsed = done.stdout.split()
    return int(count), float(elapsed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.5, help="per way per round")
    args = parser.parse_args()
    shim, why = native_shim.shim_status()
    if shim is None:
        print(f"no shim: {why}")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        exe = _compile("g++", SOLVER, work / "solver")
        driver = _compile("gcc", DRIVER, work / "driver")
        inp, outp = str(work / "in"), str(work / "out")
        Path(inp).write_text("ZADACHA\n")
        expected = b"Alice\n"
        started = time.perf_counter()
        server = _sv_native.start([exe], {"PATH": "/usr/bin:/bin"}, shim)
        if server is None:
            print("the fork server did not start")
            return 2
        start_ms = (time.perf_counter() - started) * 1e3
        print(
            f"{sys.argv[0]}: {args.rounds} rounds x {args.seconds} s per way; load {os.getloadavg()[0]:.2f};"
            f" fork server started in {start_ms:.1f} ms"
        )
        ways = ("fork server", "exec from Python", "C fork+exec loop")
        totals = {way: [0, 0.0, 0.0] for way in ways}  # tests, wall seconds, CPU seconds
        try:
            for r in range(args.rounds):
                order = ways if r % 2 == 0 else tuple(reversed(ways))
                figures = {}
                for way in order:
                    cpu = _cpu(server.pid)
                    if way == "fork server":
                        n, t = _server_round(server, inp, outp, expected, args.seconds)
                    elif way == "exec from Python":
                        n, t = _exec_round(exe, inp, outp, expected, args.seconds)
                    else:
                        n, t = _driver_round(driver, exe, inp, outp, args.seconds)
                    totals[way][0] += n
                    totals[way][1] += t
                    totals[way][2] += _cpu(server.pid) - cpu
                    figures[way] = n / t
                print(f"round {r + 1}: " + ", ".join(f"{way} {figures[way]:.0f}/s" for way in ways))
        finally:
            server.close()
        rate = {way: n / t for way, (n, t, _) in totals.items()}
        cpu_us = {way: c / n * 1e6 for way, (n, _, c) in totals.items()}
        for way in ways:
            print(
                f"{way:18s} {rate[way]:8.0f} tests/s ({totals[way][0]} tests in {totals[way][1]:.1f} s);"
                f" {cpu_us[way]:6.0f} us CPU per test (harness, test processes, server)"
            )
        print(
            f"CPU per test, exec from Python / fork server: {cpu_us['exec from Python'] / cpu_us['fork server']:.1f}"
        )
        print(
            f"fork server / C fork+exec loop: {rate['fork server'] / rate['C fork+exec loop']:.1f}"
        )
        print(f"native speedup: {rate['fork server'] / rate['exec from Python']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
