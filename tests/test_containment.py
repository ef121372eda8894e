"""Hostile programs cannot touch the harness: checked from outside (files, processes, verdicts).

Each program in ``tests/hostile/`` attacks the harness around it rather than the machine: traps
under every name an I/O file could have, a forged report written into the supervisor, ptrace of
the measurer, rewriting the runner's own functions, fork bombs that leave their session, CPU
burnt by detached grandchildren, filling the scratch space, counting tests, and looking for signs
of gamecert. Each test fails if its attack succeeds. Tests that need the sandbox are skipped when
containment is off on purpose; the fork bomb runs only where a process cap holds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gamecert.engine.run import contain
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HOSTILE = HERE / "hostile"
LIMITS = Limits(time_s=1.0, memory_mb=256)
MODES = pytest.mark.parametrize("fork_server", [True, False], ids=["zygote", "plain-process"])

needs_sandbox = pytest.mark.skipif(
    not contain.probe().enabled, reason="containment is not available here"
)


def copy(tmp_path: Path, name: str) -> Path:
    """The hostile program copied into a neutral folder (its own path must not name gamecert)."""
    folder = tmp_path / "prog"
    folder.mkdir(exist_ok=True)
    target = folder / name
    shutil.copyfile(HOSTILE / name, target)
    return target


def live_mentioning(marker: str) -> list[int]:
    """Live (non-zombie) processes whose command line contains ``marker``."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z" and int(name) != os.getpid():
            found.append(int(name))
    return found


# -- no name the candidate controls is followed ----------------------------------------------


@MODES
def test_traps_under_every_name_are_never_followed(tmp_path: Path, fork_server: bool) -> None:
    """Symbolic links (to a file of the user's and to /) and FIFOs under every name an I/O file,
    a log or a report could have, in the working folder and /tmp: the next tests run normally,
    the user's file is untouched and never read as output."""
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's file\n")
    before = (victim.read_bytes(), victim.stat().st_mtime_ns)
    program = copy(tmp_path, "names.py")
    with open_runner(Candidate.parse(str(program)), LIMITS, fork_server=fork_server) as runner:
        results = [runner.run(f"{victim}\n") for _ in range(3)]
        plain = runner.run_fresh(f"{victim}\n")
    for result in [*results, plain]:
        assert (result.status, result.stdout) == ("ok", "Alice\n"), result.describe()
        assert "user's file" not in result.stdout + result.stderr_tail
    assert (victim.read_bytes(), victim.stat().st_mtime_ns) == before


def test_traps_from_a_command_line_program(tmp_path: Path) -> None:
    """The same traps from a shell command line (an executable: a fresh exec per test)."""
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's file\n")
    before = (victim.read_bytes(), victim.stat().st_mtime_ns)
    script = (
        "read t; k=0; for n in stdin0 stdin1 stdout0 stdout1 stderr0 stderr1 pid server.log; do "
        'ln -s "$t" "$n" 2>/dev/null && k=$((k+1)); ln -s "$t" "/tmp/$n" 2>/dev/null && k=$((k+1)); '
        'mkfifo "x$n" 2>/dev/null && k=$((k+1)); done; echo Bob; echo "$k traps" >&2'
    )
    with open_runner(Candidate.parse(f"/bin/sh -c '{script}'"), LIMITS) as runner:
        results = [runner.run(f"{victim}\n") for _ in range(3)]
    assert [(r.status, r.stdout) for r in results] == [("ok", "Bob\n")] * 3, [
        r.describe() for r in results
    ]
    assert all("24 traps" in r.stderr_tail for r in results), [
        r.stderr_tail for r in results
    ]  # all planted
    assert (victim.read_bytes(), victim.stat().st_mtime_ns) == before


# -- the measurer is out of reach ------------------------------------------------------------


@needs_sandbox
@MODES
def test_a_forged_report_and_ptrace_do_not_reach_the_supervisor(
    tmp_path: Path, fork_server: bool
) -> None:
    """A program that writes a forged "ok" report into every descriptor of the supervisor, opens
    its memory, ptraces it and signals it, then never ends: every attempt is blocked, and the
    verdict is TLE."""
    program = copy(tmp_path, "forge.py")
    with open_runner(Candidate.parse(str(program)), LIMITS, fork_server=fork_server) as runner:
        assert runner.containment.enabled
        result = runner.run("x\n")
        after = runner.run("x\n")  # the supervisor still serves
    assert result.status == "tle" and after.status == "tle", (result.describe(), after.describe())
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
    assert set(lines) == {
        "forge-report",
        "open-supervisor-memory",
        "ptrace-supervisor",
        "signal-supervisor",
    }
    assert all(outcome.startswith("blocked") for outcome in lines.values()), result.stdout


@pytest.mark.skipif(
    os.geteuid() != 0, reason="the control needs root, whose capabilities pass every check"
)
def test_the_forging_program_not_contained_does_reach_its_supervisor(tmp_path: Path) -> None:
    """The control: not contained, as root, the same program reaches its supervisor: it writes
    into its descriptors, opens its memory, attaches to it, and its signals kill it (the test's
    result is then the harness's "supervisor died", and the runner starts a new one): the
    attempts above are real."""
    program = copy(tmp_path, "forge.py")
    with open_runner(Candidate.parse(str(program)), LIMITS, contain=False) as runner:
        result = runner.run("x\n")
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
    assert lines.get("open-supervisor-memory", "").startswith("DONE"), result.stdout
    if os.geteuid() == 0:  # as another user the kernel's ptrace settings may close these
        assert lines.get("forge-report", "").startswith("DONE") and lines.get(
            "ptrace-supervisor", ""
        ).startswith("DONE")
        assert result.status == "re" and "supervisor died" in result.detail, result.describe()


@MODES
def test_rewriting_the_runner_does_not_change_the_exit_status(
    tmp_path: Path, fork_server: bool
) -> None:
    """Right output, then exit status 3 after replacing os._exit, os.write, sys.excepthook and any
    harness method it finds: RE (exit code 3) every time, in the zygote and in plain runs."""
    program = copy(tmp_path, "patch_exit.py")
    with open_runner(Candidate.parse(str(program)), LIMITS, fork_server=fork_server) as runner:
        results = [runner.run("AAB\n") for _ in range(3)] + [runner.run_fresh("AAB\n")]
    for result in results:
        assert (result.status, result.exit_code, result.stdout) == ("re", 3, "Alice\n"), (
            result.describe()
        )


def test_rewriting_the_runner_is_caught_by_certify_and_replay(tmp_path: Path) -> None:
    """The same program through the command line, with one runner: NOT CERTIFIED (RE), and the
    report's replay gives RE again."""
    program = copy(tmp_path, "patch_exit.py")
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="20")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            "word_game",
            str(program),
            "--jobs",
            "1",
            "--budget",
            "10",
            "--seed",
            "1",
            "--report-dir",
            str(tmp_path / "reports"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    folder = Path(proc.stdout.strip().splitlines()[-1])
    assert json.loads((folder / "report.json").read_text())["verdict"] == "RE"
    replay = subprocess.run(
        [sys.executable, "-m", "gamecert", "replay", str(folder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "RE" in replay.stdout and replay.returncode == 1, replay.stdout + replay.stderr


@pytest.mark.slow
@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_rewriting_the_runner_is_caught_by_the_pytest_route(
    tmp_path: Path, workers: list[str]
) -> None:
    """The pytest route, serial and under -n: the same program fails (RE in its report). Only
    the exhaustive phase runs (``--candidate-phases``): the program fails on every input."""
    program = copy(tmp_path, "patch_exit.py")
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="20")
    env.pop("PYTEST_ADDOPTS", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--rootdir",
            str(tmp_path),
            *workers,
            "--candidate",
            f"word_game={program}",
            "--candidate-profile",
            "quick",
            "--candidate-examples",
            "2",
            "--candidate-seed",
            "1",
            "--candidate-report-dir",
            str(tmp_path / "reports"),
            "--candidate-phases",
            "exhaustive",
        ],  # the RE shows on every input: one phase decides it
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    reports = list((tmp_path / "reports" / "word_game").glob("*/report.json"))
    assert reports and all(json.loads(r.read_text())["verdict"] == "RE" for r in reports)


# -- every process counted, every CPU second charged ------------------------------------------


@needs_sandbox
def test_a_setsid_fork_bomb_is_capped_and_leaves_nothing(tmp_path: Path) -> None:
    """Children that leave the session and group, forking again: the count of the sandbox's
    processes never passes the cap (read from outside, in the runner's cgroup), the verdict is
    RE (process limit), and no process of it survives the test."""
    program = copy(tmp_path, "setsid_bomb.py")
    limits = Limits(time_s=2.0, memory_mb=256, processes=16)
    with open_runner(Candidate.parse(str(program)), limits) as runner:
        if runner.cap is None and os.geteuid() == 0:
            pytest.skip("running as root without a writable pids cgroup: no process cap holds here")
        seen: list[int] = []
        done = threading.Event()

        def watch() -> None:
            while not done.is_set():
                if runner.cap is not None:
                    seen.append(runner.cap.current())
                time.sleep(0.002)

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            result = runner.run("x\n")
        finally:
            done.set()
            watcher.join()
        if runner.cap is not None:
            assert seen and max(seen) <= runner.cap.limit, (max(seen), runner.cap.limit)
            # after the test only the sandbox's launcher and the supervisor are in the cgroup
            assert runner.cap.current() == 2, runner.cap.current()
        cgroup = runner.cap.path if runner.cap is not None else None
        accounting = runner.accounting
    if runner.cap is None and os.geteuid() != 0:
        # an ordinary user: RLIMIT_NPROC refused the forks past the cap (each process says so),
        # but without a pids cgroup no refusal is counted: the verdict is the program's own, and
        # the certificate's line says exactly that (issue 44, point 7)
        assert "refused 1" in result.stdout and result.status in ("ok", "re"), result.describe()
        assert "a fork it refuses is not counted" in accounting, accounting
        return
    assert result.status == "re" and "process limit" in result.detail, result.describe()
    assert cgroup is None or not os.path.exists(cgroup)  # removed with the runner


def test_leftover_cgroups_are_swept_when_a_runner_starts(tmp_path: Path) -> None:
    """A gamecert process killed before it removed its pids cgroup leaves an empty ``box-*``
    behind: the next runner removes those older than ``STALE_S``, and keeps a young one (its
    launcher may be about to enter it) and one with a process in it."""
    from gamecert.engine.run import cgroups

    found = cgroups._writable_root()
    if os.geteuid() != 0 or found is None:
        pytest.skip("no writable pids cgroup here: no cgroups are made, so none are left over")
    root = found[0]
    old, young, busy = (
        os.path.join(root, f"box-{tag}{os.getpid()}") for tag in ("0ld", "y0ung", "bu5y")
    )
    for path in (old, young, busy):
        os.mkdir(path)
    sleeper = subprocess.Popen(
        ["/bin/sh", "-c", 'echo $$ > "$0" && exec sleep 30', os.path.join(busy, "cgroup.procs")]
    )
    try:
        deadline = time.monotonic() + 5
        while not Path(busy, "cgroup.procs").read_text().strip() and time.monotonic() < deadline:
            time.sleep(0.01)
        stale = time.time() - cgroups.STALE_S - 60
        os.utime(old, (stale, stale))
        os.utime(busy, (stale, stale))
        cap = cgroups.process_cap(8)
        assert cap is not None
        cap.close()
        assert not os.path.exists(old) and os.path.exists(young) and os.path.exists(busy)
    finally:
        sleeper.kill()
        sleeper.wait()
        for path in (old, young, busy):
            for _ in range(100):
                try:
                    os.rmdir(path)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


@MODES
def test_cpu_of_detached_grandchildren_is_charged(tmp_path: Path, fork_server: bool) -> None:
    """The main process sleeps while a detached grandchild burns CPU, and answers once that has
    passed the limit: TLE on CPU time (the grandchild's), not OK."""
    program = copy(tmp_path, "detached_cpu.py")
    with open_runner(
        Candidate.parse(str(program)), Limits(time_s=0.3, memory_mb=256), fork_server=fork_server
    ) as r:
        result = r.run("0.45\n")
    assert result.status == "tle" and result.cpu_s > 0.3, result.describe()
    assert live_mentioning(str(program)) == []


# -- scratch like a judge's box ----------------------------------------------------------------


@needs_sandbox
def test_scratch_is_capped_in_bytes_and_files_and_fresh_for_every_test(tmp_path: Path) -> None:
    """200 MB into the working folder stops at the box's cap; 50,000 files stop the test at the
    file limit; /dev/shm, / and /usr are not writable; a marker left by one test is gone in the
    next (in the working folder and in /tmp)."""
    program = copy(tmp_path, "fill.py")
    with open_runner(Candidate.parse(str(program)), Limits(time_s=5.0, memory_mb=256)) as runner:
        big = runner.run("bytes\n")
        many = runner.run("files\n")
        places = runner.run("shm\n")
        counts = [runner.run("count\n").stdout for _ in range(3)]
    assert big.stdout.startswith("stopped OSError") and int(big.stdout.split()[-1]) < 200, (
        big.describe()
    )
    assert int(big.stdout.split()[-1]) <= contain.BOX_BYTES >> 20
    assert many.status == "re" and "file limit" in many.detail, many.describe()
    assert places.stdout.split("\n")[:4] == [
        "/dev/shm blocked",
        "/tmp writable",
        "/ blocked",
        "/usr blocked",
    ], places.stdout
    assert counts == ["fresh\n"] * 3


# -- looks like a judge, not like gamecert ---------------------------------------------------


@needs_sandbox
@MODES
def test_nothing_a_program_can_read_names_gamecert(tmp_path: Path, fork_server: bool) -> None:
    """Host name, working folder, environment, command lines (its own and PID 1's), mounts,
    cgroup, memory map, modules and frames: the word "gamecert" appears in none of them."""
    program = copy(tmp_path, "detect.py")
    with open_runner(Candidate.parse(str(program)), LIMITS, fork_server=fork_server) as runner:
        result = runner.run("x\n")
    assert (result.status, result.stdout) == ("ok", "nothing\n"), result.stdout + result.describe()


@needs_sandbox
def test_nothing_a_compiled_program_can_read_names_gamecert(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same from C, compiled through a build cache whose own path says "gamecert": the
    program runs from a private copy of its build (and through the native fork server, whose
    shim is a private copy too), so its command line, executable and mounts do not say it."""
    if shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "gamecert-cache"))
    source = copy(tmp_path, "detect.c")
    candidate = Candidate.parse(str(source))
    assert "gamecert" in str(candidate.binary)
    for native in ("1", "0"):
        monkeypatch.setenv("GAMECERT_NATIVE_FORKSERVER", native)
        with open_runner(candidate, LIMITS) as runner:
            result = runner.run("x\n")
        assert (result.status, result.stdout) == ("ok", "nothing\n"), (
            native,
            result.stdout,
            result.describe(),
        )


@needs_sandbox
@pytest.mark.parametrize("kind", ["PREINIT", "IFUNC"])
def test_code_before_the_fork_server_stops_the_program_is_charged_every_test(
    tmp_path: Path, kind: str
) -> None:
    """A program whose own code runs before the shim's constructor (a pre-initialisation array,
    an IFUNC resolver) would run it once, in the native fork server, for free: it burns 1.5 s of
    CPU there. Such a program is exec'd per test, says why, and every test is TLE (limit 1 s)."""
    if shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    binary = tmp_path / "prog" / "early"
    binary.parent.mkdir()
    subprocess.run(
        ["gcc", "-O1", f"-D{kind}", "-o", str(binary), str(HOSTILE / "early.c")], check=True
    )
    plain = subprocess.run([str(binary)], capture_output=True, text=True, timeout=30)
    assert plain.stdout == "Alice\n"  # the program works, and burns its 1.5 s, when run plainly
    with open_runner(Candidate.parse(str(binary)), Limits(time_s=1.0, memory_mb=256)) as runner:
        results = [runner.run("x\n") for _ in range(2)]
        startup = runner.startup
    assert startup.startswith("exec per test") and (
        "pre-initialisation" in startup or "IFUNC" in startup
    ), startup
    assert [r.status for r in results] == ["tle"] * 2, [r.describe() for r in results]
    assert {r.started for r in results} == {"exec"}


@needs_sandbox
def test_symlink_swaps_found_descriptors_and_a_detached_writer_reach_nothing(
    tmp_path: Path,
) -> None:
    """Symlinks swapped in the scratch folder (to the user's file, to /, to the supervisor's
    descriptors), writes through every descriptor under /proc/self/fd and /proc/1/fd, and a
    grandchild in its own session and group writing to the user's file forever: checked from
    outside, the file is unchanged, no process of the program is left, and each test ends OK
    (what got through is the program's own stdout and stderr, which it may write anyway)."""
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's file\n")
    before = (victim.read_bytes(), victim.stat().st_mtime_ns)
    program = copy(tmp_path, "swap.py")
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        results = []
        for _ in range(3):
            results.append(runner.run(f"{victim}\n"))
            time.sleep(0.1)
            if (
                runner.cap is not None
            ):  # read from outside: only the launcher and the supervisor are left
                assert runner.cap.current() == 2, runner.cap.current()
    time.sleep(0.3)
    assert [(r.status, r.stdout) for r in results] == [("ok", "Alice\n")] * 3, [
        r.describe() for r in results
    ]
    assert all("2 writes got through" in r.stderr_tail for r in results), [
        r.stderr_tail for r in results
    ]
    assert (victim.read_bytes(), victim.stat().st_mtime_ns) == before


@needs_sandbox
def test_kill_everything_from_inside_touches_nothing_outside(tmp_path: Path) -> None:
    """A compiled program that sends SIGKILL to every process it may (``kill(-1)``): inside the
    sandbox that reaches only its own siblings (the native fork server, which is started again),
    never the supervisor or anything outside. A stand-in process outside, of the same user,
    survives; every test is OK with the right answer."""
    if shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    binary = tmp_path / "prog" / "killall"
    binary.parent.mkdir()
    subprocess.run(["gcc", "-O1", "-o", str(binary), str(HOSTILE / "killall.c")], check=True)
    outside = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with open_runner(Candidate.parse(str(binary)), LIMITS) as runner:
            results = [runner.run(word) for word in ("AAB\n", "ZADACHA\n", "AB\n")]
        assert [(r.status, r.stdout) for r in results] == [
            ("ok", "Alice\n"),
            ("ok", "Alice\n"),
            ("ok", "Bob\n"),
        ], [r.describe() for r in results]
        assert all("kill(-1): sent" in r.stderr_tail for r in results)  # the attempt was real
        assert outside.poll() is None  # not reached
    finally:
        outside.kill()
        outside.wait()


def test_the_detector_sees_the_word_where_it_is(tmp_path: Path) -> None:
    """The control of the two tests above: not contained, run from a folder whose name says
    "gamecert", the same program does report it (its command line and working state show it)."""
    folder = tmp_path / "gamecert-prog"
    folder.mkdir()
    program = folder / "detect.py"
    shutil.copyfile(HOSTILE / "detect.py", program)
    with open_runner(Candidate.parse(str(program)), LIMITS, contain=False) as runner:
        result = runner.run("x\n")
    assert result.status == "ok" and "seen in argv" in result.stdout, result.stdout
    if shutil.which("gcc") is None:
        return
    binary = folder / "detect"  # the C detector, the same way: it must see the word too
    subprocess.run(["gcc", "-O1", "-o", str(binary), str(HOSTILE / "detect.c")], check=True)
    with open_runner(Candidate.parse(str(binary)), LIMITS, contain=False) as runner:
        result = runner.run("x\n")
    assert result.status == "ok" and "seen in" in result.stdout, result.stdout


# -- the certificate says how processes were counted ---------------------------------------------


def test_the_runner_says_its_accounting(tmp_path: Path) -> None:
    """Every runner says how processes are counted and capped and CPU charged, in one line that
    names the cap actually in force."""
    program = copy(tmp_path, "detect.py")
    with open_runner(Candidate.parse(str(program)), LIMITS) as runner:
        line = runner.accounting
        cap = runner.cap
        # the cap named is the one in force: read back from the kernel, not from the runner
        in_force = Path(cap.path, "pids.max").read_text().strip() if cap is not None else None
        members = Path(cap.path, "cgroup.procs").read_text().split() if cap is not None else []
    if not contain.probe().enabled:
        assert line.startswith("NOT contained")
    elif cap is not None:
        assert f"pids.max {in_force}" in line and cap.kind in line
        assert members, "the sandbox runs inside the cgroup"
    elif os.geteuid() != 0:
        assert "RLIMIT_NPROC" in line
    else:
        assert "NO process cap" in line
