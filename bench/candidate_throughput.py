"""Tests per second for a Python candidate: `python FILE` per test versus the default runner.

The plain path execs `python FILE` for every test; the default runner forks every test's process
from a zygote that compiled the candidate once (a fresh process per test, see
gamecert.engine.run.supervisor). Both use the same sandbox (limits, box, output capture, verdict,
containment); only the way the candidate starts differs. Then the cost of containment (see gamecert.engine.run.contain): per test and per
runner start, contained versus not, on both paths. They are measured in alternating rounds, so that a change in
the machine's load during the run affects both alike. Every answer is checked against the
word_game oracle, so a fast but wrong path cannot look good.

    .venv/bin/python bench/candidate_throughput.py [--seconds S] [--seed N] [--breakdown[-only]]

Then a trivial C++ program: the native fork server versus an exec per test (both contained), and
a bare C loop of fork + exec + wait of the same binary as the machine's reference.

And the floor a fresh process per test cannot go below, in the same run and the same sandbox, a
short round between every round of the rates (so that a change in the machine's load touches both):
fork + wait of the zygote's own image (the supervisor, once ready, forks children that exit at
once), and fork + wait of a small C++ program's image (a program of the solver's kind, run as a
test, forks itself and waits, from inside the box, with the memory accounting on).

With ``--breakdown`` (``--breakdown-only``: nothing else), where a test's time goes, part by part,
on both paths: the harness, the socket, the supervisor's every step, the child's own start, code
and exit; from nanosecond stamps the supervisor, its client and the zygote's child take when
``GAMECERT_SV_PROFILE=1`` (one clock for all: CLOCK_MONOTONIC), tests run one at a time (none sent
ahead, so that the parts do not overlap); the native test twice, through the supervisor's C loop
(``supervisor/testloop.c``, its parts stamped in C on the same clocks) and through its Python
path alone (``GAMECERT_TESTLOOP=0``). A zygote's test is forked by the same C loop (its child set
up in C) but the supervisor's serve loop stays in Python with the profile on (``tl_serve``, which
reads, runs and answers fast tests in C otherwise, stamps nothing): the rates below include it,
the breakdown does not, nor the parking of each next test's process that the serve loop does
(``tl_park``: forked while a test runs). The zygote's rate is measured as the executor runs a
chunk of ``CHUNK_RUNS`` tests (gamecert.engine.plan.plan): its inputs announced
(``Runner.expect``), sent ahead while the ones before run; then 40 tests one at a time, none
sent ahead.

Before them, the zygote's rate against its floor by CPU time instead: the supervisor's own CPU
time and that of each test's processes (or of each floor child), per test and per fork + wait,
from the same rounds (``python floor CPU ratio``), a figure a machine busy with other work
disturbs less than the wall clock's.

The guided phase's instrumented builds (gamecert.engine.run.instrument) beside the plain ones, in
alternating rounds, both contained and every answer checked: the same C++ solver built with GCC's
coverage flags and gamecert's runtime (through the native fork server, as the plain one), a right
Rust program built with LLVM's sancov pass and the same runtime (where rustc is installed), the
Python candidate rewritten to record its branches and comparisons (through the zygote), a
JavaScript one rewritten the same way (issue 47; a fresh node per test, as the plain one), and a
Java program whose class files are rewritten with ASM (a JVM per test either way); each
instrumented run's coverage line is read, as the guided phase reads it (``--guided-only``: only
these).

And the fair floor of a native test (issue 37): a bare fork server, the same shim
(supervisor/shim.c) preloaded into the same C++ binary, started outside the sandbox with no
limits, driven from this process (open the input, create the output, ask for a clone, wait4,
read the output back), the program's own run included: ``native run floor ratio: R`` is the
contained native fork server's rate over the bare one's (the goal: 0.6 or more). Beside it, a
bare C loop of fork + exec + wait of the same binary (``exec floor ratio``): what an exec per
test would cost at best. The image-fork floor above cannot be reached by any runner that runs
the program.

The last lines are ``speedup: X`` (zygote rate / `python FILE` rate), ``native speedup: Y``
(native fork server rate / exec-per-test rate), ``python floor ratio: P`` (zygote rate / the
zygote image's fork rate) and ``native floor ratio: N`` (native fork server rate / the C++
image's fork rate).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from gamecert.oracles.word_game import GAME, LETTERS

from gamecert.engine.plan.plan import CHUNK_RUNS
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner

CANDIDATE = Path(__file__).resolve().parent.parent / "examples" / "word_game" / "correct.py"
#: the guided phase's JavaScript route is measured on this right program
JS_CANDIDATE = CANDIDATE.parents[2] / "tests" / "programs" / "javascript" / "word_game_right.js"
RIGHT_RS = (
    Path(__file__).resolve().parent.parent / "tests" / "programs" / "rust" / "word_game_right.rs"
)


def random_inputs(rng: random.Random, n: int) -> list[tuple[str, str]]:
    cases = []
    for _ in range(n):
        word = "".join(rng.choice(LETTERS[: rng.randint(1, 26)]) for _ in range(rng.randint(1, 40)))
        cases.append((GAME.format_input(word), GAME.oracle(word)))
    return cases


def timed_round(runner, cases, ahead: bool = True, cpu: list | None = None) -> float:
    """Seconds to run ``cases``, each answer checked; ``ahead``: the inputs announced first, as
    the executor announces a chunk's (each is sent ahead while the one before runs); each test's
    CPU seconds (its processes', from wait4) appended to ``cpu`` if given."""
    start = time.perf_counter()
    if ahead:
        runner.expect([text for text, _ in cases])
    for text, expected in cases:
        result = runner.run(text)
        if result.status != "ok" or result.stdout.split() != [expected]:
            raise SystemExit(f"wrong result on {text!r}: {result.describe()} {result.stdout!r}")
        if cpu is not None:
            cpu.append(result.cpu_s)
    return time.perf_counter() - start


def start_cost(candidate, limits, contain: bool, fork_server: bool, rng) -> float:
    """Seconds from opening a runner to its first answer (the sandbox is made once per runner)."""
    start = time.perf_counter()
    with open_runner(candidate, limits, fork_server=fork_server, contain=contain) as runner:
        timed_round(runner, random_inputs(rng, 1))
        return time.perf_counter() - start


def containment_cost(candidate, limits, rng, seconds: float) -> None:
    """Per-test time contained versus not, on both paths, in alternating rounds; and the start."""
    for fork_server, batch in ((True, 100), (False, 5)):
        times, counts = {True: 0.0, False: 0.0}, {True: 0, False: 0}
        with (
            open_runner(candidate, limits, fork_server=fork_server) as inside,
            open_runner(candidate, limits, fork_server=fork_server, contain=False) as outside,
        ):
            assert inside.containment.enabled, inside.containment.describe()
            runners = {True: inside, False: outside}
            for runner in runners.values():
                timed_round(runner, random_inputs(rng, 3))
            end = time.perf_counter() + seconds / 2
            while time.perf_counter() < end:
                for contained in (True, False):
                    cases = random_inputs(rng, batch)
                    times[contained] += timed_round(runners[contained], cases)
                    counts[contained] += len(cases)
        per = {c: 1e6 * times[c] / counts[c] for c in (True, False)}
        starts = {
            c: min(start_cost(candidate, limits, c, fork_server, rng) for _ in range(3))
            for c in (True, False)
        }
        path = "zygote" if fork_server else "python FILE"
        print(
            f"{path + ':':<15} contained {per[True]:.0f} us/test, not contained {per[False]:.0f} us/test "
            f"({per[True] - per[False]:+.0f} us/test); runner start to first answer "
            f"{1000 * starts[True]:.0f} ms vs {1000 * starts[False]:.0f} ms"
        )


def memory_accounting_cost(candidate, limits, rng, seconds: float) -> str:
    """Per-test time with the memory cgroup (gamecert.engine.run.memcg) and without it, on the
    zygote, in alternating rounds on two runners open side by side; one line."""
    from gamecert.engine.run import memcg

    with open_runner(candidate, limits) as on:
        if on.memory is None:
            return "memory accounting: no memory controller here (memory limited per process only)"
        real, memcg.memory_cap = memcg.memory_cap, lambda limit_mb: None
        try:
            off = open_runner(candidate, limits)
        finally:
            memcg.memory_cap = real
        with off:
            assert off.memory is None
            times, counts = {True: 0.0, False: 0.0}, {True: 0, False: 0}
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                for accounted, runner in ((True, on), (False, off)):
                    cases = random_inputs(rng, 50)
                    times[accounted] += timed_round(runner, cases)
                    counts[accounted] += len(cases)
    per = {a: 1e6 * times[a] / counts[a] for a in (True, False)}
    return (
        f"memory accounting (zygote): {per[True]:.0f} us/test with the memory cgroup, {per[False]:.0f} "
        f"without ({per[True] - per[False]:+.0f} us/test)"
    )


FLOOR_CPP = r"""
#include <chrono>
#include <iostream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
// The solver's kind of image (iostream, string); it forks itself N times and waits, each child
// ending at once, and prints microseconds per fork + wait.
int main() {
    std::ios::sync_with_stdio(false);
    int n = 0;
    std::cin >> n;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) _exit(0);
        int status = 0;
        waitpid(pid, &status, 0);
    }
    std::chrono::duration<double, std::micro> spent = std::chrono::steady_clock::now() - start;
    std::cout << spent.count() / n << "\n";
}
"""


class NativeFloor:
    """Seconds per fork + wait of a small C++ program's image, measured inside the sandbox by a
    test of its own, a short round at a time (between the rate's rounds: the same load)."""

    def __init__(self, work: Path, limits) -> None:
        source = work / "floor.cpp"
        source.write_text(FLOOR_CPP)
        self.runner = open_runner(Candidate.parse(str(source)), limits)
        self.forks, self.seconds = 0, 0.0

    def round(self, forks: int = 300) -> None:
        result = self.runner.run(f"{forks}\n")
        if result.status != "ok":
            raise SystemExit(f"the floor program failed: {result.describe()}")
        self.forks, self.seconds = (
            self.forks + forks,
            self.seconds + forks * float(result.stdout) / 1e6,
        )

    def close(self) -> float:
        self.runner.close()
        return self.seconds / self.forks


def supervisor_cpu_s(runner) -> float:
    """CPU seconds the runner's supervisor itself has used (``/proc/PID/schedstat``, in ns).
    With each test's own CPU time (wait4) it is the CPU a test costs in the sandbox; with the
    floor's children's (wait4 too), what a fork + wait costs: a ratio that a loaded machine
    disturbs less than the wall clock's (a process waiting for a CPU takes none)."""
    with open(f"/proc/{runner._client.server_host_pid}/schedstat", "rb") as f:
        return int(f.read().split()[0]) / 1e9


def python_floor_round(runner, forks: int = 60) -> tuple[int, float]:
    """Forks and seconds of one short round of fork + wait of the zygote's own image (the
    supervisor forks), between the rate's rounds."""
    return forks, forks * runner._client.fork_floor(forks)


def native_rates(rng, seconds: float) -> tuple[float, float, float, float]:
    """Tests per second of a trivial C++ word_game solver (compiled here), contained: through the
    native fork server and with an exec per test (alternating rounds), and the machine's
    reference, a bare C loop of fork + exec + wait of the same binary."""
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from native_forkserver import DRIVER, SOLVER, _compile, _driver_round, _server_round

    from gamecert.engine.run import native_shim
    from gamecert.engine.run.supervisor import _sv_native

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        exe = _compile("g++", SOLVER, work / "solver")
        driver = _compile("gcc", DRIVER, work / "driver")
        (work / "in.txt").write_text("ZADACHA\n")
        limits = Limits(time_s=1.0, memory_mb=256)
        runners = {}
        for flag in ("1", "0"):
            os.environ["GAMECERT_NATIVE_FORKSERVER"] = flag
            runners[flag] = open_runner(Candidate.parse(exe), limits)
        os.environ.pop("GAMECERT_NATIVE_FORKSERVER", None)
        assert runners["1"].startup.startswith("native fork server"), runners["1"].startup
        times, counts = {"1": 0.0, "0": 0.0}, {"1": 0, "0": 0}
        bare_n, bare_t = 0, 0.0
        server_n, server_t = 0, 0.0
        shim, why = native_shim.shim_status()
        bare_server = _sv_native.start([exe], {"PATH": "/usr/bin:/bin"}, shim) if shim else None
        if bare_server is None:
            raise SystemExit(f"the bare fork server did not start ({why or 'no hello'})")
        floor_meter = NativeFloor(work, limits)
        try:
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                for flag, batch in (("1", 40), ("0", 20)):
                    start = time.perf_counter()
                    runners[flag].expect(["ZADACHA\n"] * batch)
                    for _ in range(batch):
                        result = runners[flag].run("ZADACHA\n")
                        if result.stdout != "Alice\n":
                            raise SystemExit(f"wrong native result: {result.describe()}")
                    times[flag] += time.perf_counter() - start
                    counts[flag] += batch
                n, t = _driver_round(driver, exe, str(work / "in.txt"), str(work / "out.txt"), 0.3)
                bare_n, bare_t = bare_n + n, bare_t + t
                n, t = _server_round(
                    bare_server, str(work / "in.txt"), str(work / "out.txt"), b"Alice\n", 0.3
                )
                server_n, server_t = server_n + n, server_t + t
                floor_meter.round()
        finally:
            for runner in runners.values():
                runner.close()
            bare_server.close()
            floor = floor_meter.close()
    return (
        counts["1"] / times["1"],
        counts["0"] / times["0"],
        bare_n / bare_t,
        server_n / server_t,
        floor,
    )


#: the parts of a test, in time order: (label, from stamp, to stamp); stamps are "b:" the bench,
#: "c:" the client, "s:" the server, "k:" the zygote's child (start, program's code, its end)
PARTS = (
    ("harness: Runner.run to client (gate, encode)", "b:before", "c:run"),
    ("harness: the test's memfds", "c:run", "c:sending"),
    ("request: sendmsg to the server's recvmsg return", "c:sending", "s:recv"),
    ("loop (C): the call into it", "s:recv", "s:l_start"),
    ("loop (C): stderr pipe, peak reset, pids.current", "s:l_start", "s:l_request"),
    ("loop (C): clone request to the shim's reply, or the fork", "s:l_request", "s:l_reply"),
    ("loop (C): prlimit, pidfd, the child's life", "s:l_reply", "s:l_ended"),
    ("loop (C): pids.current, wait4", "s:l_ended", "s:l_reaped"),
    ("loop (C): schedstat, pids.events, peak, stderr", "s:l_reaped", "s:l_done"),
    ("loop: back in Python, the report made", "s:l_done", "s:drain"),
    ("server: stderr pipe", "s:recv", "s:pipe"),
    ("server: memory.before (peak reset, usage)", "s:pipe", "s:mem_before"),
    ("server: fork / native spawn (parent side)", "s:mem_before", "s:spawn"),
    ("server: close fds (+ pid line)", "s:spawn", "s:close_fds"),
    ("server: watch setup (pidfd, poll)", "s:close_fds", "s:watch_setup"),
    ("child: fork return to its first stamp", "s:mem_before", "k:start"),
    ("child: fork return to its first stamp (the loop's)", "s:l_request", "k:start"),
    ("child: (CPU from its fork to its first stamp)", "k:fork", "k:start"),
    ("child: memory cgroup join", "k:start", "k:joined"),
    ("child: dup2, closerange", "k:joined", "k:fds"),
    ("child: group or session, rlimits, chdir", "k:fds", "k:limits"),
    ("child: launch (dumpable, signals, unwind, take)", "k:limits", "k:code"),
    ("child: the program's code", "k:code", "k:done"),
    ("child: threading shutdown, atexit", "k:done", "k:atexit"),
    ("child: flush", "k:atexit", "k:flushed"),
    ("child: _exit to pidfd wake", "k:flushed", "s:ended"),
    ("child: _exit to the loop's pidfd wake", "k:flushed", "s:l_ended"),
    ("child: _exit's CPU (rusage total - CPU before _exit)", "k:flushed", "k:exit"),
    ("watch: spawn to end (native: the child's life)", "s:watch_setup", "s:ended"),
    ("server: wait4", "s:ended", "s:wait4"),
    ("server: _kill_everything", "s:wait4", "s:kill_all"),
    ("server: charge native server CPU", "s:kill_all", "s:charge"),
    ("server: memory.after", "s:charge", "s:mem_after"),
    ("server: drain stderr", "s:mem_after", "s:drain"),
    ("reply: json, sendall, client recv + parse", "s:drain", "c:replied"),
    ("server, after the reply: scratch check/empty", "s:clean", "s:scratch"),
    ("server, after the reply: clear_ipc", "s:scratch", "s:ipc"),
    ("harness: output read, classify", "c:replied", "b:after"),
)
#: parts that overlap others (the child's run alongside the server's, the server's clean-up after
#: its reply alongside the harness), left out of the sum
OVERLAPPING = ("child:", "watch:", "server, after")


def _stamps(
    prof: dict, before: tuple[int, int], after: tuple[int, int], child_cpu_s: float
) -> dict:
    """Every stamp of a test by name: (wall ns, CPU ns of the process that took it)."""
    stamps = {"b:before": before, "b:after": after}
    for side, key in (("s", "server"), ("c", "client")):
        for name, *values in prof.get(key, []):
            stamps.setdefault(f"{side}:{name}", tuple(values) if side == "s" else tuple(values[:2]))
    scans = [wall for name, wall, *_ in prof.get("server", []) if name in ("scan", "scanned")]
    stamps["scans"] = len(scans) // 2
    stamps["scans_ns"] = sum(b - a for a, b in zip(scans[::2], scans[1::2]))
    child = prof.get("child", [])
    names = (
        "k:start",
        "k:code",
        "k:done",
        "k:joined",
        "k:fds",
        "k:limits",
        "k:atexit",
        "k:flushed",
    )
    for slot, name in enumerate(names):
        if child[slot]:
            stamps[name] = (child[slot], child[8 + slot], child[16 + slot])
    # the Python path's stamps, or the C loop's (the zygote's fork in it)
    forked, ended = (
        stamps.get("s:mem_before", stamps.get("s:l_request")),
        stamps.get("s:ended", stamps.get("s:l_ended")),
    )
    if (
        "k:done" in stamps
    ):  # the child's whole CPU time, from wait4: its exit is what is left after its code
        stamps["k:exit"] = (ended[0], int(child_cpu_s * 1e9), prof.get("minflt", 0))
    if "k:start" in stamps:  # faults and CPU before the first stamp: from the fork on
        stamps["k:fork"] = (forked[0], 0, 0)
    return stamps


def _same_process(a: str, b: str) -> bool:
    side = {"b": "harness", "c": "harness", "s": "server", "k": "child"}
    return side[a[0]] == side[b[0]] or a == "k:fork"


def breakdown(runner, cases, expected_out) -> list[str]:
    """Run ``cases`` on a runner opened with GAMECERT_SV_PROFILE=1; the lines of a table of the
    median and mean wall microseconds per part of a test, and the mean CPU microseconds of the
    process it runs in where a part lies in one process (a figure a loaded machine disturbs less)."""
    profile = runner._client.profile
    rows = []
    for text, expected in cases:
        before = time.perf_counter_ns(), time.process_time_ns()
        result = runner.run(text)
        after = time.perf_counter_ns(), time.process_time_ns()
        if result.status != "ok" or result.stdout.split() != [expected_out(expected)]:
            raise SystemExit(f"wrong result on {text!r}: {result.describe()} {result.stdout!r}")
        rows.append(_stamps(profile[-1], before, after, result.cpu_s))
        profile.clear()
    lines = [
        f"  {'part':<52} {'wall median':>11} {'wall mean':>10} {'CPU mean':>9} (us) {'faults':>6}"
    ]
    total = sorted(r["b:after"][0] - r["b:before"][0] for r in rows)
    counted = cpu_counted = 0.0
    for label, a, b in PARTS:
        have = [r for r in rows if a in r and b in r]
        if not have:
            continue
        spans = sorted((r[b][0] - r[a][0]) / 1e3 for r in have)
        mean = sum(spans) / len(spans)
        cpu = (
            sum(r[b][1] - r[a][1] for r in have) / 1e3 / len(have) if _same_process(a, b) else None
        )
        faults = (
            f" {sum(r[b][2] - r[a][2] for r in have) / len(have):6.0f}"
            if len(have[0][a]) > 2 and len(have[0][b]) > 2
            else ""
        )
        if not label.startswith(OVERLAPPING):
            counted += mean
            cpu_counted += cpu or 0.0
        cpu_text = f"{cpu:9.1f}" if cpu is not None else f"{'':9}"
        lines.append(
            f"  {label:<52} {spans[len(spans) // 2]:11.1f} {mean:10.1f} {cpu_text}{faults}"
        )
    scans = sum(r["scans"] for r in rows)
    lines.append(
        f"  {'(within the watch) /proc scans':<52} {scans / len(rows):.2f} per test, "
        f"{sum(r['scans_ns'] for r in rows) / 1e3 / len(rows):.1f} us per test"
    )
    lines.append(
        f"  {'total per test (Runner.run)':<52} {total[len(total) // 2] / 1e3:11.1f} "
        f"{sum(total) / len(total) / 1e3:10.1f}   (parts above, the child's aside: wall {counted:.1f}, "
        f"CPU {cpu_counted:.1f})"
    )
    return lines


def breakdowns(rng, count: int) -> None:
    """The breakdown of a zygote test (word_game) and of a native fork server test (a trivial
    C++ solver), ``count`` tests each after a warm-up."""
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from native_forkserver import SOLVER, _compile

    os.environ["GAMECERT_SV_PROFILE"] = "1"
    try:
        limits = Limits(time_s=1.0, memory_mb=256)
        with open_runner(Candidate.parse(str(CANDIDATE)), limits) as runner:
            timed_round(runner, random_inputs(rng, 30))
            runner._client.profile.clear()
            print(f"breakdown, zygote (word_game), {count} tests, load {os.getloadavg()[0]:.2f}:")
            print("\n".join(breakdown(runner, random_inputs(rng, count), lambda e: e)))
        with tempfile.TemporaryDirectory() as tmp:
            exe = _compile("g++", SOLVER, Path(tmp) / "solver")
            for loop in ("1", "0"):  # the supervisor's C loop, then its Python path alone
                os.environ["GAMECERT_TESTLOOP"] = loop
                with open_runner(Candidate.parse(exe), limits) as runner:
                    assert runner.startup.startswith("native fork server"), runner.startup
                    cases = [("ZADACHA\n", "Alice")] * count
                    breakdown(runner, cases[:30], lambda e: e)
                    runner._client.profile.clear()
                    how = (
                        "the C loop" if runner._client.config.get("testloop") else "the Python path"
                    )
                    print(
                        f"breakdown, native fork server (C++), {how}, {count} tests, "
                        f"load {os.getloadavg()[0]:.2f}:"
                    )
                    print("\n".join(breakdown(runner, cases, lambda e: e)))
    finally:
        os.environ.pop("GAMECERT_SV_PROFILE", None)
        os.environ.pop("GAMECERT_TESTLOOP", None)


#: a right word_game solver in C++ (the letters' counts' Grundy values, xor)
RIGHT_CPP = r"""
#include <iostream>
#include <string>
int main() {
    std::ios::sync_with_stdio(false);
    std::string word;
    std::cin >> word;
    int count[26] = {0}, total = 0;
    for (char c : word) count[c - 'A']++;
    for (int c : count)
        if (c) total ^= c % 3 == 0 ? 3 : c % 3;
    std::cout << (total ? "Alice" : "Bob") << "\n";
}
"""


def instrumented_rates(rng, seconds: float) -> list[str]:
    """Tests per second of the plain and the instrumented build, C++ and Rust (native fork
    server), Python (zygote), JavaScript (node per test) and Java (a JVM per test: the class
    files rewritten beforehand), in alternating rounds; each answer checked, each instrumented
    run's coverage read."""
    import tempfile

    from gamecert.engine.run.instrument import instrument, read_coverage

    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "solver.cpp"
        source.write_text(RIGHT_CPP)
        limits = Limits(time_s=1.0, memory_mb=256)
        import shutil

        java = Path(__file__).resolve().parent.parent / "tests/programs/java/right_solution.java"
        programs = [
            ("C++", str(source), 60),
            ("Python", str(CANDIDATE), 60),
            ("JavaScript", str(JS_CANDIDATE), 20),  # a node per test
            ("Java", str(java), 8),  # a JVM per test, plain or rewritten
        ]
        if shutil.which("rustc"):  # the Rust route (issue 47): LLVM's sancov pass, covrt.c
            programs.insert(1, ("Rust", str(RIGHT_RS), 60))
        for label, spec, per_round in programs:
            plain = Candidate.parse(spec)
            built = instrument(plain)
            times, counts = {False: 0.0, True: 0.0}, {False: 0, True: 0}
            with open_runner(plain, limits) as a, open_runner(built.candidate, limits) as b:
                runners = {False: a, True: b}
                end = time.perf_counter() + seconds / 2
                while time.perf_counter() < end:
                    for instrumented, runner in runners.items():
                        cases = random_inputs(rng, per_round)
                        start = time.perf_counter()
                        runner.expect([t for t, _ in cases])
                        for text, expected in cases:
                            result = runner.run(text)
                            if result.status != "ok" or result.stdout.split() != [expected]:
                                raise SystemExit(
                                    f"{label}: wrong result on {text!r}: {result.describe()}"
                                )
                            if (
                                instrumented
                                and read_coverage(result.stderr_tail, built.language) is None
                            ):
                                raise SystemExit(
                                    f"{label}: no coverage line from the instrumented build"
                                )
                        times[instrumented] += time.perf_counter() - start
                        counts[instrumented] += len(cases)
                how = f"{a.startup.split(':')[0]}; instrumented: {b.startup.split(':')[0]}"
            plain_rate, inst_rate = counts[False] / times[False], counts[True] / times[True]
            lines.append(
                f"{label} ({how}): plain build {plain_rate:.1f} tests/s, instrumented build "
                f"{inst_rate:.1f} tests/s ({inst_rate / plain_rate:.2f} of the plain rate)"
            )
    return lines


def interpreted_floor(spec: str, seconds: float) -> tuple[float, float, str]:
    """A Java or JavaScript program through gamecert's runner (a fresh JVM or node per test, in
    the sandbox) against a bare loop of the same command line on the same input (subprocess, no
    sandbox, no limits), in alternating rounds: (runner tests/s, bare runs/s, how it started)."""
    import subprocess

    candidate = Candidate.parse(spec)
    limits = Limits(time_s=2.0, memory_mb=256)
    served_n = bare_n = 0
    served_t = bare_t = 0.0
    with open_runner(candidate, limits) as runner:
        how = runner.startup.split(":")[0]
        runner.run("ZADACHA\n")  # the first start (the sandbox) is not counted
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            start = time.perf_counter()
            runner.expect(["ZADACHA\n"] * 5)
            for _ in range(5):
                result = runner.run("ZADACHA\n")
                if result.stdout.split() != ["Alice"]:
                    raise SystemExit(f"{spec}: wrong result: {result.describe()}")
            served_t += time.perf_counter() - start
            served_n += 5
            start = time.perf_counter()
            for _ in range(5):
                out = subprocess.run(
                    list(candidate.argv), input=b"ZADACHA\n", capture_output=True, check=True
                )
                if out.stdout.split() != [b"Alice"]:
                    raise SystemExit(f"{spec}: wrong bare result: {out.stdout!r}")
            bare_t += time.perf_counter() - start
            bare_n += 5
    return served_n / served_t, bare_n / bare_t, how


def interpreted_floors(seconds: float) -> None:
    """The Java and JavaScript floor ratios (issue 42): runner rate / bare loop rate."""
    import shutil

    root = Path(__file__).resolve().parent.parent / "tests" / "programs"
    for label, tool, spec in (
        ("java", "javac", root / "java" / "right_solution.java"),
        ("javascript", "node", root / "javascript" / "word_game_right.js"),
    ):
        if shutil.which(tool) is None:
            print(f"{label} floor ratio: not measured ({tool} is not installed)")
            continue
        served, bare, how = interpreted_floor(str(spec), seconds)
        print(
            f"{label}: {how}: {served:.1f} tests/s through the runner, a bare loop of the same "
            f"command line {bare:.1f} runs/s; {label} floor ratio: {served / bare:.2f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="rough total budget (default 8)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--breakdown", action="store_true", help="also where a test's time goes, part by part"
    )
    parser.add_argument("--breakdown-only", action="store_true", help="only that")
    parser.add_argument("--tests", type=int, default=500, help="tests per breakdown (default 500)")
    parser.add_argument(
        "--interpreted-only",
        action="store_true",
        help="only the Java and JavaScript floor ratios (a JVM or node per test)",
    )
    parser.add_argument(
        "--guided-only",
        action="store_true",
        help="only the instrumented builds' rates beside the plain ones",
    )
    args = parser.parse_args(argv)
    if args.guided_only:
        for line in instrumented_rates(random.Random(args.seed), args.seconds):
            print(f"guided phase, {line}")
        return 0
    if args.interpreted_only:
        interpreted_floors(args.seconds)
        return 0
    rng = random.Random(args.seed)
    if args.breakdown or args.breakdown_only:
        breakdowns(rng, args.tests)
        if args.breakdown_only:
            return 0
    candidate = Candidate.parse(str(CANDIDATE))
    limits = Limits(time_s=1.0, memory_mb=256)
    fresh_n = fork_n = single_n = floor_n = 0
    fresh_t = fork_t = single_t = floor_t = fork_cpu = floor_cpu = 0.0
    with (
        open_runner(candidate, limits, fork_server=False) as fresh,
        open_runner(candidate, limits) as fork,
    ):
        assert fresh.mode == "fresh-process" and fork.mode == "fork-server"
        timed_round(fresh, random_inputs(rng, 3))  # warm up both
        timed_round(fork, random_inputs(rng, 30))
        end = time.perf_counter() + args.seconds
        while time.perf_counter() < end:
            cases = random_inputs(rng, 10)
            fresh_t += timed_round(fresh, cases)
            fresh_n += len(cases)
            cases, tests_cpu = (
                random_inputs(rng, CHUNK_RUNS),
                [],
            )  # (a chunk as the executor runs it)
            cpu = supervisor_cpu_s(fork)
            fork_t += timed_round(fork, cases, cpu=tests_cpu)
            fork_cpu += supervisor_cpu_s(fork) - cpu + sum(tests_cpu)
            fork_n += len(cases)
            cases = random_inputs(rng, 40)
            single_t += timed_round(fork, cases, ahead=False)
            single_n += len(cases)
            cpu = supervisor_cpu_s(fork)
            n, t = python_floor_round(fork)
            floor_cpu += supervisor_cpu_s(fork) - cpu + n * fork._client.floor_detail[1]
            floor_n, floor_t = floor_n + n, floor_t + t
        zygote_floor = floor_t / floor_n
    fresh_rate, fork_rate = fresh_n / fresh_t, fork_n / fork_t
    containment_cost(candidate, limits, rng, args.seconds / 2)
    print(memory_accounting_cost(candidate, limits, rng, args.seconds / 2))
    print(f"candidate: {candidate.spec} (word_game, every answer checked against the oracle)")
    print(f"python FILE per test:   {fresh_n} tests in {fresh_t:.2f} s = {fresh_rate:.1f} tests/s")
    print(
        f"zygote fork per test:   {fork_n} tests in {fork_t:.2f} s = {fork_rate:.1f} tests/s "
        f"(one at a time, none sent ahead: {single_n / single_t:.1f} tests/s)"
    )
    served, execd, bare, bare_server, cpp_floor = native_rates(rng, args.seconds)
    print(
        f"C++ native fork server: {served:.1f} tests/s; exec per test: {execd:.1f} tests/s (both contained); "
        f"bare C fork+exec+wait loop: {bare:.1f} execs/s"
    )
    print(
        f"floor, zygote image fork+wait: {1e3 * zygote_floor:.3f} ms ({1 / zygote_floor:.0f}/s); "
        f"C++ image fork+wait in the box: {1e3 * cpp_floor:.3f} ms ({1 / cpp_floor:.0f}/s)"
    )
    print(
        f"CPU in the sandbox (the supervisor's and the test's or the child's): {1e6 * fork_cpu / fork_n:.0f} us per zygote test, "
        f"{1e6 * floor_cpu / floor_n:.0f} us per fork+wait of its image; python floor CPU ratio: "
        f"{(floor_cpu / floor_n) / (fork_cpu / fork_n):.2f} (the same ratio by CPU time, which load disturbs less)"
    )
    for line in instrumented_rates(rng, args.seconds):
        print(f"guided phase, {line}")
    print(
        f"native run floor: a bare fork server (the same shim, one clone per run, no sandbox, no limits, no "
        f"measurement but wait4) running the same binary on the same input: {bare_server:.1f} runs/s; "
        f"the native fork server, contained and measured: {served:.1f} tests/s"
    )
    print(
        f"exec floor: a bare C loop of fork+exec+wait of the same binary: {bare:.1f} runs/s "
        f"(exec floor ratio: {served / bare:.2f})"
    )
    print(f"speedup: {fork_rate / fresh_rate:.1f}")
    print(f"native speedup: {served / execd:.1f}")
    print(f"python floor ratio: {fork_rate * zygote_floor:.2f}")
    print(f"native floor ratio: {served * cpp_floor:.2f}")
    print(f"native run floor ratio: {served / bare_server:.2f}")
    interpreted_floors(args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
