"""The supervisor's per-test loop in C (``gamecert/engine/run/supervisor/testloop.c``, loaded by
``_sv_fast.py``) and the batches of tests sent ahead (``forkserver.Lookahead``), inside the
sandbox: the same results as the supervisor's Python path (``GAMECERT_TESTLOOP=0``) on right,
wrong, crashing, slow, idle, forking, fork-bombing, memory-hungry and stderr-flooding programs,
alone and in batches; the Python path when the library cannot be built or loaded; the tests
sent ahead dropped, and run again, when the caller asks for something else or the server dies.

Every comparison here is shown to catch a loop that gets a result wrong: a copy of the loop
whose exit status is broken on purpose gives different results.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from gamecert.engine.run import forkserver, native_shim
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner
from gamecert.engine.run.testio import GATE

pytestmark = pytest.mark.skipif(
    native_shim.shim_path() is None or shutil.which("gcc") is None,
    reason="no C compiler: no native fork server",
)

KINDS = r"""
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    char w[64] = "";
    if (scanf("%63s", w) != 1) return 4;
    if (!strcmp(w, "wrong")) { puts("nonsense"); return 0; }
    if (!strcmp(w, "cpus")) {  /* the CPUs it may run on: those of a fresh exec */
        cpu_set_t set; CPU_ZERO(&set); sched_getaffinity(0, sizeof set, &set);
        printf("%d\n", CPU_COUNT(&set)); return 0;
    }
    if (!strcmp(w, "crash")) abort();
    if (!strcmp(w, "exit3")) return 3;
    if (!strcmp(w, "slow")) { volatile unsigned long x = 0; for (;;) x++; }
    if (!strcmp(w, "idle")) { sleep(30); return 0; }
    if (!strcmp(w, "nap")) { usleep(80000); puts("napped"); return 0; }
    if (!strcmp(w, "leaves")) {  /* a child left running after the test's process ends */
        if (fork() == 0) { sleep(30); _exit(0); }
        puts("left"); return 0;
    }
    if (!strcmp(w, "bomb")) {  /* forks past the cap, then ends every child it made */
        pid_t kids[64]; int n = 0;
        for (int i = 0; i < 64; i++) { pid_t p = fork(); if (p == 0) { pause(); _exit(0); } if (p > 0) kids[n++] = p; }
        for (int i = 0; i < n; i++) { kill(kids[i], SIGKILL); waitpid(kids[i], NULL, 0); }
        printf("%d\n", n); return 0;
    }
    if (!strcmp(w, "memory") || !strcmp(w, "huge")) {
        size_t size = (size_t)(w[0] == 'm' ? 18 : 400) << 20;
        char *p = malloc(size);
        for (size_t i = 0; p && i < size; i += 4096) p[i] = 1;
        puts("allocated"); return 0;
    }
    if (!strcmp(w, "flood")) {  /* 2 MB on stderr, far more than a pipe holds */
        static char lines[2 << 20];
        for (size_t i = 0; i < sizeof lines; i++) lines[i] = i % 100 == 99 ? '\n' : 'e';
        fwrite(lines, 1, sizeof lines, stderr);
        fprintf(stderr, "the last line\n");
    }
    int n = strlen(w);
    for (int i = n - 1; i >= 0; i--) putchar(w[i]);
    putchar(10);
    return 0;
}
"""
LIMITS = Limits(time_s=1.0, memory_mb=16, processes=8, output_bytes=1000)
FAST = ["abc", "wrong", "crash", "exit3", "flood", "bomb", "memory", "cpus", "xyz"] * 3
SLOW = ["leaves", "slow", "idle", "huge", "abc"]


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("testloop") / "kinds"
    source = out.with_suffix(".c")
    source.write_text(KINDS)
    subprocess.run(["gcc", "-O2", "-o", str(out), str(source)], check=True)
    return out


def _seen(results) -> list[tuple]:
    """What a judge reads of each result (the figures of time and memory aside; a test over a
    limit may be killed at a watchdog scan or end by itself first, whichever path runs it)."""
    return [
        (r.status, r.started)
        if r.status in ("tle", "mle")
        else (r.status, r.stdout, r.exit_code, r.signal, r.stderr_tail.splitlines()[-1:], r.started)
        for r in results
    ]


class _Recorder:
    """The supervisor's reports a runner receives: whether each went through the C loop."""

    def __init__(self, runner) -> None:
        self.loop: list[bool] = []
        client = runner._client
        one, batch = client.receive, client.receive_batch

        def receive(token):
            report = one(token)
            if report is not None:
                self.loop.append(bool(report.get("loop")))
            return report

        def receive_batch(token):
            reports = batch(token)
            self.loop.extend(bool(r.get("loop")) for r in reports or ())
            return reports

        client.receive, client.receive_batch = receive, receive_batch


def _runs(program: Path, inputs: list[str], *, ahead: bool, limits: Limits = LIMITS):
    """Results of ``inputs`` on a runner, one at a time or announced (sent ahead in batches),
    and which of the runner's reports came through the C loop."""
    with open_runner(Candidate.parse(str(program)), limits) as runner:
        assert runner.startup.startswith("native fork server"), runner.startup
        recorder = _Recorder(runner)
        if ahead:
            runner.expect([text + "\n" for text in inputs])
        results = [runner.run(text + "\n") for text in inputs]
        if ahead:
            assert runner._ahead.sent > 0
    return results, recorder.loop


def _reference(program: Path, inputs: list[str], monkeypatch) -> list:
    monkeypatch.setenv("GAMECERT_TESTLOOP", "0")
    results, loop = _runs(program, inputs, ahead=False)
    monkeypatch.delenv("GAMECERT_TESTLOOP")
    assert not any(loop)  # the Python path only
    return _seen(results)


def _needs_pids_cgroup(program: Path) -> None:
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        if runner.cap is None or runner._client.config.get("testloop") is None:
            pytest.skip(f"no C loop here (it needs a pids cgroup): {runner.accounting}")


def test_fast_tests_give_the_python_paths_results(program: Path, monkeypatch) -> None:
    _needs_pids_cgroup(program)
    reference = _reference(program, FAST, monkeypatch)
    alone, loop_alone = _runs(program, FAST, ahead=False)
    ahead, loop_ahead = _runs(program, FAST, ahead=True)
    assert _seen(alone) == reference and _seen(ahead) == reference
    statuses = {r[0] for r in reference}
    assert statuses == {"ok", "re", "mle"}, reference
    flood = [r for r, text in zip(ahead, FAST) if text == "flood"]
    assert all(r.stderr_tail.endswith("the last line") for r in flood)
    # the C loop ran most of them (a first test starts the fork server through the Python path;
    # one still running at the first scan, a machine's hiccup, is handed over)
    assert sum(loop_alone) >= len(FAST) // 2 and sum(loop_ahead) >= len(FAST) // 2, (
        loop_alone,
        loop_ahead,
    )


def test_slow_and_leftover_tests_are_handed_to_the_python_path(program: Path, monkeypatch) -> None:
    _needs_pids_cgroup(program)
    reference = _reference(program, SLOW, monkeypatch)
    results, loop = _runs(program, SLOW, ahead=False)
    assert _seen(results) == reference
    assert [r[0] for r in reference] == ["ok", "tle", "tle", "mle", "ok"], reference
    # a test still running at the first scan, or one that left a process, is finished in Python
    assert loop[1:4] == [False, False, False] and loop[-1], loop


def test_a_broken_loop_is_caught_by_the_comparison(
    program: Path, monkeypatch, tmp_path: Path
) -> None:
    """The comparison above fails for a loop whose exit status is wrong (a copy of the loop
    that reports every test as exit 0)."""
    _needs_pids_cgroup(program)
    reference = _reference(program, FAST, monkeypatch)
    broken = tmp_path / "testloop.c"
    text = native_shim.TESTLOOP_SOURCE.read_text()
    assert "    job->status = status;\n" in text
    broken.write_text(text.replace("    job->status = status;\n", "    job->status = 0;\n"))
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(native_shim, "TESTLOOP_SOURCE", broken)
    results, loop = _runs(program, FAST, ahead=False)
    assert any(loop)
    assert _seen(results) != reference
    assert "ok" in {r.status for r, text in zip(results, FAST) if text in ("crash", "exit3")}


@pytest.mark.parametrize("why", ["not built", "not loaded"])
def test_without_the_library_the_python_path_runs_every_test(
    program: Path, monkeypatch, tmp_path: Path, why: str
) -> None:
    _needs_pids_cgroup(program)
    reference = _reference(program, FAST[:8], monkeypatch)
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    if why == "not built":  # a source that does not compile
        bad = tmp_path / "testloop.c"
        bad.write_text("#error not this time\n")
        monkeypatch.setattr(native_shim, "TESTLOOP_SOURCE", bad)
        path, reason = native_shim.testloop_status()
        assert path is None and "could not compile" in reason
    else:  # a file that is not a library
        junk = tmp_path / "junk.so"
        junk.write_bytes(b"not an ELF file")
        monkeypatch.setattr(native_shim, "testloop_status", lambda: (str(junk), ""))
    for ahead in (False, True):
        results, loop = _runs(program, FAST[:8], ahead=ahead)
        assert _seen(results) == reference and not any(loop)


def test_tests_sent_ahead_are_dropped_and_run_again_when_asked(program: Path, monkeypatch) -> None:
    monkeypatch.setattr(
        forkserver, "AHEAD_MAX_WALL_S", 30.0
    )  # every test counts as fast, whatever the load
    words = [f"w{k:02d}" for k in range(40)]
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        ahead = runner._ahead
        runner.expect([w + "\n" for w in words])
        got = [runner.run(w + "\n").stdout for w in words[:12]]
        pending = ahead.pending()
        assert len(ahead.batches) <= 1 and pending and pending[0] == words[12] + "\n", pending
        assert ahead.size > 1  # fast tests: the batches grew
        other = runner.run_plain(
            "other\n"
        ).stdout  # not the expected run: everything sent ahead is dropped
        assert ahead.pending() == [] and GATE._running == 0
        assert list(ahead.queue) == [w + "\n" for w in words[12:]]  # and asked for again, in order
        got += [runner.run(w + "\n").stdout for w in words[12:30]]
        assert ahead.pending()
        runner.expect(())  # the chunk ends early (the executor's stop): nothing is left sent ahead
        assert ahead.pending() == [] and GATE._running == 0 and not ahead.queue
        got += [runner.run(w + "\n").stdout for w in words[30:]]
        sent, used = ahead.sent, ahead.used
    assert got == [w[::-1] + "\n" for w in words] and other == "rehto\n"
    assert used < sent


def test_a_server_lost_with_a_batch_in_flight_runs_its_tests_again(
    program: Path, monkeypatch
) -> None:
    monkeypatch.setattr(
        forkserver, "AHEAD_MAX_WALL_S", 30.0
    )  # every test counts as fast, whatever the load
    words = [f"v{k:02d}" for k in range(60)]
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        runner.expect([w + "\n" for w in words])
        got = [runner.run(w + "\n").stdout for w in words[:20]]
        batches = runner._ahead.batches
        assert batches and len(batches[0][0]) > 1  # a batch of several tests is in flight
        os.kill(runner._client.server_host_pid, signal.SIGKILL)  # the supervisor, from outside
        got += [runner.run(w + "\n").stdout for w in words[20:]]
        restarts = runner._client.restarts
    assert got == [w[::-1] + "\n" for w in words] and restarts == 1 and GATE._running == 0


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to tell apart")
def test_a_test_gets_back_the_cpus_the_program_started_with(
    program: Path, monkeypatch, tmp_path: Path
) -> None:
    """The loop keeps the fork server on its own CPU; the shim gives each test's process back
    the CPUs the program started with. A shim that does not is caught."""
    _needs_pids_cgroup(program)
    words = ["abc"] * 3 + ["cpus"] * 3
    reference = _reference(program, words, monkeypatch)
    results, loop = _runs(program, words, ahead=False)
    assert _seen(results) == reference and any(loop[3:]), loop
    assert int(results[-1].stdout) == len(os.sched_getaffinity(0)) > 1
    broken = tmp_path / "shim.c"
    text = native_shim.SOURCE.read_text()
    assert "        sched_setaffinity(0, sizeof gc_cpus, &gc_cpus);\n" in text
    broken.write_text(
        text.replace("        sched_setaffinity(0, sizeof gc_cpus, &gc_cpus);\n", "        ;\n")
    )
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(native_shim, "SOURCE", broken)
    results, loop = _runs(program, words, ahead=False)
    assert any(loop[3:]) and [r.stdout for r in results[3:]] == ["1\n"] * 3


def test_a_slow_test_sends_the_batches_back_to_one_test(program: Path) -> None:
    """Batches grow while tests are fast; after a test slower than AHEAD_MAX_WALL_S the next
    ones are not sent ahead, and sending starts again from one test."""
    from gamecert.engine.run.forkserver import AHEAD_MAX_WALL_S

    words = [f"u{k:02d}" for k in range(30)] + ["nap"] + [f"t{k:02d}" for k in range(10)]
    assert AHEAD_MAX_WALL_S < 0.08
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        ahead = runner._ahead
        runner.expect([w + "\n" for w in words])
        got = [runner.run(w + "\n").stdout for w in words[:30]]
        grown = ahead.size
        got.append(runner.run("nap\n").stdout)
        after = ahead.size, ahead.fast
        got += [runner.run(w + "\n").stdout for w in words[31:]]
    assert got == [("napped" if w == "nap" else w[::-1]) + "\n" for w in words]
    assert grown > 1 and after == (1, False), (grown, after)


LOWERS = r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void) {  /* "lower": the output size limit of every other process it can reach, to 0 */
    char w[64] = "";
    if (scanf("%63s", w) != 1) return 4;
    if (!strcmp(w, "lower")) {
        DIR *d = opendir("/proc");
        struct dirent *e;
        struct rlimit none = {0, 0};
        int n = 0;
        while (d && (e = readdir(d))) {
            int pid = atoi(e->d_name);  /* the supervisor (pid 1, the parent) is spared: its own check is elsewhere */
            if (pid > 1 && pid != getpid() && pid != getppid() && prlimit(pid, RLIMIT_FSIZE, &none, NULL) == 0)
                n++;
        }
        printf("lowered %d\n", n);
    }
    puts("ok");
    return 0;
}
"""


@pytest.mark.parametrize("loop", ["1", "0"])
def test_a_test_that_lowers_the_fork_servers_limits_does_not_reach_the_next_ones(
    tmp_path, monkeypatch, loop
):
    """The fork server runs as the test's user and its pid is in /proc: a test can lower its hard
    limits (prlimit), which every later clone would inherit (here the output size: every later
    right answer was OLE). The supervisor checks them after every test and starts a new server."""
    monkeypatch.setenv("GAMECERT_TESTLOOP", loop)
    program = tmp_path / "lowers"
    source = program.with_suffix(".c")
    source.write_text(LOWERS)
    subprocess.run(["gcc", "-O2", "-o", str(program), str(source)], check=True)
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        assert runner.startup.startswith("native fork server"), runner.startup
        results = [runner.run(text) for text in ("x\n", "lower\n", "x\n", "x\n")]
    assert [r.status for r in results] == ["ok"] * 4, [r.describe() for r in results]
    assert results[1].stdout == "lowered 1\nok\n"  # it did reach the fork server
    assert [r.stdout for r in results[2:]] == ["ok\n", "ok\n"]


RENICES = r"""
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void) {  /* "renice": the nice value of every other process it can reach, to 19 */
    char w[64] = "";
    if (scanf("%63s", w) != 1) return 4;
    if (!strcmp(w, "renice")) {
        DIR *d = opendir("/proc");
        struct dirent *e;
        int n = 0;
        while (d && (e = readdir(d))) {
            int pid = atoi(e->d_name);  /* the supervisor (pid 1, the parent) is spared */
            if (pid > 1 && pid != getpid() && pid != getppid() && setpriority(PRIO_PROCESS, pid, 19) == 0)
                n++;
        }
        printf("reniced %d\n", n);
    }
    printf("nice %d\n", getpriority(PRIO_PROCESS, 0));
    return 0;
}
"""


@pytest.mark.parametrize("loop", ["1", "0"])
def test_a_test_that_renices_the_fork_server_does_not_slow_the_next_ones(
    tmp_path, monkeypatch, loop
):
    """A test can also raise the fork server's nice value (setpriority), which every later clone
    would inherit. The server compares its priority with the one it started with before each
    clone, and a new server serves the next tests."""
    monkeypatch.setenv("GAMECERT_TESTLOOP", loop)
    program = tmp_path / "renices"
    source = program.with_suffix(".c")
    source.write_text(RENICES)
    subprocess.run(["gcc", "-O2", "-o", str(program), str(source)], check=True)
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        assert runner.startup.startswith("native fork server"), runner.startup
        results = [runner.run(text) for text in ("x\n", "renice\n", "x\n", "x\n")]
    assert [r.status for r in results] == ["ok"] * 4, [r.describe() for r in results]
    first = results[0].stdout
    assert first != "nice 19\n", "the tests already run at nice 19: nothing to see"
    assert results[1].stdout == "reniced 1\n" + first  # it did reach the fork server
    assert [r.stdout for r in results[2:]] == [first, first]


IDLES = r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {  /* "idle": the scheduling policy of every other process it can reach, to SCHED_IDLE */
    char w[64] = "";
    if (scanf("%63s", w) != 1) return 4;
    if (!strcmp(w, "idle")) {
        DIR *d = opendir("/proc");
        struct dirent *e;
        struct sched_param none = {0};
        int n = 0;
        while (d && (e = readdir(d))) {
            int pid = atoi(e->d_name);  /* the supervisor (pid 1, the parent) is spared */
            if (pid > 1 && pid != getpid() && pid != getppid() && sched_setscheduler(pid, SCHED_IDLE, &none) == 0)
                n++;
        }
        printf("idled %d\n", n);
    }
    printf("policy %d\n", sched_getscheduler(0));
    return 0;
}
"""


@pytest.mark.parametrize("loop", ["1", "0"])
def test_a_test_that_idles_the_fork_server_does_not_slow_the_next_ones(tmp_path, monkeypatch, loop):
    """A test can also put the fork server in the SCHED_IDLE policy (sched_setscheduler needs no
    privilege for that), which every later clone would inherit: each would run only when the
    machine has nothing else to do. The server compares its policy with the one it started with
    before each clone, and a new server serves the next tests."""
    monkeypatch.setenv("GAMECERT_TESTLOOP", loop)
    program = tmp_path / "idles"
    source = program.with_suffix(".c")
    source.write_text(IDLES)
    subprocess.run(["gcc", "-O2", "-o", str(program), str(source)], check=True)
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        assert runner.startup.startswith("native fork server"), runner.startup
        results = [runner.run(text) for text in ("x\n", "idle\n", "x\n", "x\n")]
    assert [r.status for r in results] == ["ok"] * 4, [r.describe() for r in results]
    first = results[0].stdout
    assert first != "policy 5\n", "the tests already run as SCHED_IDLE: nothing to see"
    assert results[1].stdout == "idled 1\n" + first  # it did reach the fork server
    assert [r.stdout for r in results[2:]] == [first, first]


def test_a_batch_sent_to_two_servers_has_every_live_report_read() -> None:
    """A batch sent one request a test can straddle a restart: its first request to a server that
    was dying, the rest to the one started then. Its reports are all read (the batch counts as
    lost, and its tests run again); a report left unread would be taken for a later test's, which
    then shows an empty output (seen: a loaded run of the test above). Checked on a stand-in
    client that answers in order."""

    class Client:
        contained, config, generation = True, {"mode": "exec", "native_shim": "shim"}, 2

        def __init__(self) -> None:
            self.answers = [
                "r1",
                "r2",
            ]  # the live server's answers to the batch's last two requests

        def receive(self, token):
            if token is None or token[0] != self.generation:
                return None  # to a server that is gone: at once, nothing read
            return {"wall": 0.001, "id": self.answers.pop(0)}

    client = Client()
    ahead = forkserver.Lookahead(client, make_files=None, gate=None)
    assert ahead._receive(("each", [(1, "to the dead server"), (2, "r1"), (2, "r2")])) is None
    assert client.answers == []  # both of the live server's answers were read
    client.answers = ["r3"]
    assert (
        ahead._receive(("each", [None, (2, "r3")])) is None and client.answers == []
    )  # (one not sent)
