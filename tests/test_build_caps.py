"""Compile steps under judge limits (``gamecert.engine.run.buildcap``): a compile bomb per compiled
language (``tests/hostile/build_bomb*``) is CE whose first line names the cap that stopped it, and
the machine is unharmed, checked from outside while the bomb builds: the resident memory (its own, anonymous and shared-memory pages) of every
process below this one (the build's) and the machine's MemAvailable, sampled every 10 ms.

The bombs run under a build memory cap of :data:`CAP_MB` (``GAMECERT_BUILD_MEMORY_MB``), not the
default 2 GB, to stay light on a shared machine; and under a watch that holds whatever gamecert
does: it kills every process below this one once their memory passes :data:`KILL_MB` or
MemAvailable falls by :data:`KILL_DROP_MB`. The test of the check itself builds a bomb with the
caps taken away and sees the watch fire.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
from pathlib import Path

import pytest

from gamecert.engine.run import buildcap, toolchains
from gamecert.engine.run.toolchains import CompileError

HOSTILE = Path(__file__).resolve().parent / "hostile"
PROGRAMS = Path(__file__).resolve().parent / "programs"
CAP_MB = 512
#: javac cannot start under an address-space cap of 512 MB (its JVM reserves more); it gets this
JAVA_AS_CAP_MB = 1024
#: the watch kills the build past these (the test then fails): well above the cap, far below harm
KILL_MB = JAVA_AS_CAP_MB * 3 // 2
KILL_DROP_MB = KILL_MB + 3072
#: MemAvailable may fall by the cap and this much (other users of the machine) during a bomb
SLACK_MB = 1024

BOMBS = {
    "c": ("build_bomb.c", ("gcc",)),
    "cpp-zero": ("build_bomb_zero.cpp", ("g++",)),
    "cpp-constexpr": ("build_bomb.cpp", ("g++",)),
    "rust": ("build_bomb.rs", ("rustc",)),
    "java": ("BuildBomb.java", ("javac", "java")),
}
RIGHT = {
    "c": "c/word_game_right.c",
    "cpp": "cpp/word_game_right.cpp",
    "rust": "rust/word_game_right.rs",
    "java": "java/right_solution.java",
}
TOOLS = {"c": ("gcc",), "cpp": ("g++",), "rust": ("rustc",), "java": ("javac", "java")}


def need(tools: tuple[str, ...]) -> None:
    """Fail (or, with GAMECERT_SKIP_LANGUAGES=1, skip knowingly) when a toolchain is missing."""
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        if os.environ.get("GAMECERT_SKIP_LANGUAGES") != "1":
            pytest.fail(
                f"{', '.join(missing)} not installed (GAMECERT_SKIP_LANGUAGES=1 skips knowingly)"
            )
        pytest.skip(f"GAMECERT_SKIP_LANGUAGES=1 and {', '.join(missing)} not installed")


def memory_cgroups() -> bool:
    return (
        os.geteuid() == 0
        and os.access(buildcap.V1_MEMORY, os.W_OK)
        and os.path.isfile(os.path.join(buildcap.V1_MEMORY, "cgroup.procs"))
    )


def mem_available_mb() -> int:
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) >> 10
    raise AssertionError("no MemAvailable in /proc/meminfo")


def _own_resident_kb(pid: str) -> int:
    """The resident memory a process made itself: anonymous and shared-memory pages (RssAnon +
    RssShmem), not the pages of the files it maps. A compiler's own binary and libraries
    (rustc's driver library is over 100 MB resident) are shared with every other process that
    maps them, and their page cache is charged to whoever read them first: counted in each
    process's RSS, they made a capped build look 260 MB over its cap."""
    kb = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("RssAnon:", "RssShmem:")):
                    kb += int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return kb


def descendants(root: int, old: frozenset[int] = frozenset()) -> dict[int, int]:
    """pid -> resident memory in MB (its own: :func:`_own_resident_kb`) of every process below ``root``, less the subtrees of ``old``
    (the processes that were there before the build: in a pytest-xdist worker, the supervisors and
    zygotes of runners that earlier tests left open for the session, which are not the build's)."""
    with open("/proc/self/cmdline", "rb") as f:
        worker = f.read()
    parent, rss = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if f.read() == worker:
                    # a copy of this process not yet exec'd (subprocess's vfork shares its memory, so
                    # its RssAnon is the worker's: CI saw 589 MB "of the build" under a 512 MB cap)
                    continue
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parent[int(name)] = int(fields[1])
            rss[int(name)] = _own_resident_kb(name) >> 10
        except (OSError, IndexError, ValueError):
            continue
    below, grew = {root}, True
    while grew:
        grew = False
        for pid, ppid in parent.items():
            if ppid in below and pid not in below and pid not in old:
                below.add(pid)
                grew = True
    below.discard(root)
    return {pid: rss[pid] for pid in below}


class Watch:
    """Samples, from outside, the build's memory (every process below this one) and the
    machine's MemAvailable; kills the build when either passes the watch's own limits."""

    def __init__(self) -> None:
        self.before = mem_available_mb()
        self.lowest = self.before
        self.peak_rss = 0
        self.peak_one = 0  # the largest single process's
        self.fired = ""
        self.old = frozenset(descendants(os.getpid()))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def drop(self) -> int:
        return self.before - self.lowest

    def _run(self) -> None:
        me = os.getpid()
        while not self._stop.wait(0.01):
            self.lowest = min(self.lowest, mem_available_mb())
            below = descendants(me, self.old)
            self.peak_rss = max(self.peak_rss, sum(below.values()))
            self.peak_one = max(self.peak_one, max(below.values(), default=0))
            if sum(below.values()) > KILL_MB or self.drop > KILL_DROP_MB:
                self.fired = f"build at {sum(below.values())} MB, MemAvailable down {self.drop} MB"
                for pid in below:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass


@pytest.fixture()
def small_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv(buildcap.MEMORY_ENV, str(CAP_MB))
    return tmp_path


def build_bomb(name: str) -> tuple[CompileError | None, Watch]:
    with Watch() as watch:
        try:
            toolchains.prepare(HOSTILE / name)
            error = None
        except CompileError as exc:
            error = exc
    return error, watch


def check_unharmed(watch: Watch, cap_mb: int = CAP_MB, per_process: bool = False) -> None:
    """The build stayed under its cap: all its processes together (the memory cgroup's cap), or,
    with ``per_process`` (the address-space cap, which is each process's), its largest one: there
    the driver, the assembler and the sandbox's own processes come on top (CI's run saw 583 MB in
    all under a 512 MB cap)."""
    assert not watch.fired, f"the watch had to stop the build: {watch.fired}"
    if per_process:
        assert watch.peak_one <= cap_mb, (
            f"a process of the build held {watch.peak_one} MB (cap {cap_mb} MB)"
        )
    else:
        assert watch.peak_rss <= cap_mb + 64, (
            f"the build's processes held {watch.peak_rss} MB (cap {cap_mb} MB)"
        )
    assert watch.drop < cap_mb + SLACK_MB, f"MemAvailable fell by {watch.drop} MB during the build"


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_a_compile_bomb_is_ce_naming_the_memory_cap(kind: str, small_cap: Path) -> None:
    """Under a memory cgroup: CE, the first line says the memory cap stopped it (the kernel killed
    the compiler), and from outside the build never held more than the cap."""
    if not memory_cgroups():
        pytest.skip(
            "no writable cgroup v1 memory controller here (root needed); the RLIMIT_AS test covers this"
        )
    name, tools = BOMBS[kind]
    need(tools)
    error, watch = build_bomb(name)
    check_unharmed(watch)
    assert error is not None, "the bomb compiled"
    first = error.output.splitlines()[0]
    assert (
        first.startswith("(compilation stopped by the build's memory cap")
        and f"{CAP_MB} MB (a memory cgroup" in first
    ), error.output[:600]


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_a_compile_bomb_under_the_address_space_cap(
    kind: str, small_cap: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without cgroups (GAMECERT_CGROUPS=0): the address-space cap stops the bomb, CE names it;
    the compiler did start (its own words on running out of memory follow the line)."""
    monkeypatch.setenv("GAMECERT_CGROUPS", "0")
    name, tools = BOMBS[kind]
    need(tools)
    cap = JAVA_AS_CAP_MB if kind == "java" else CAP_MB
    monkeypatch.setenv(buildcap.MEMORY_ENV, str(cap))
    error, watch = build_bomb(name)
    check_unharmed(watch, cap, per_process=True)
    assert error is not None, "the bomb compiled"
    lines = error.output.splitlines()
    assert (
        lines[0].startswith("(compilation stopped by the build's memory cap")
        and f"address-space cap of {cap} MB (RLIMIT_AS" in lines[0]
    ), error.output[:600]
    # the compiler's own words on running out: cc1plus says either, by where its allocation failed
    said = {
        "java": ("java.lang.OutOfMemoryError",),
        "rust": ("tried to allocate more memory than available",),
        "cpp-constexpr": ("virtual memory exhausted", "out of memory allocating"),
    }
    assert any(words in error.output for words in said.get(kind, ("out of memory allocating",))), (
        error.output[:600]
    )


def test_the_watch_catches_an_uncapped_bomb(
    small_cap: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check can fail: with the caps taken away (no cgroup, an address-space cap of 64 GB) the
    /dev/zero bomb grows past the watch's limit and the watch has to kill it; no cap is named."""
    need(("gcc",))
    monkeypatch.setattr(buildcap, "build_cap", lambda: buildcap.BuildCap(64 << 30, 256, 1 << 30))
    error, watch = build_bomb("build_bomb.c")
    assert watch.fired and watch.peak_rss > KILL_MB
    assert error is not None and not error.output.startswith("(compilation stopped by")
    with pytest.raises(AssertionError, match="the watch had to stop the build"):
        check_unharmed(watch)


@pytest.mark.parametrize("language", sorted(RIGHT))
@pytest.mark.parametrize("cgroups", ("1", "0"))
def test_normal_builds_fit_the_default_caps(
    language: str, cgroups: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each language's right program builds under the default caps, with a memory cgroup and
    with the address-space cap in its place (javac then gets its JVM options)."""
    need(TOOLS[language])
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(buildcap.MEMORY_ENV, raising=False)
    monkeypatch.setenv("GAMECERT_CGROUPS", cgroups)
    build = toolchains.prepare(PROGRAMS / RIGHT[language])
    assert not build.cached and build.binary is not None and build.binary.exists()


def test_the_file_size_and_process_caps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step writing a file past the file-size cap is stopped (SIGXFSZ) and the cap named; one
    starting more processes than the process cap (a pids cgroup, as root) likewise."""
    monkeypatch.setattr(buildcap, "BUILD_FILE_BYTES", 1 << 20)
    rc, out = toolchains._run_build(
        ["sh", "-c", "head -c 5000000 /dev/zero > big; exit $?"], tmp_path, 30
    )
    assert (
        rc != 0
        and out.splitlines()[0]
        == "(compilation stopped by the build's file-size cap: a file it wrote reached 1 MB)"
    ), out
    assert (tmp_path / "big").stat().st_size == 1 << 20
    rc, out = toolchains._run_build(["sh", "-c", "head -c 500000 /dev/zero > small"], tmp_path, 30)
    assert rc == 0 and out == ""
    if not (os.geteuid() == 0 and os.path.isfile(os.path.join(buildcap.V1_PIDS, "cgroup.procs"))):
        pytest.skip(
            "no writable cgroup v1 pids controller here: the process cap is not held (file-size cap checked)"
        )
    monkeypatch.setattr(buildcap, "BUILD_PROCESSES", 20)
    forks = "i=0; while [ $i -lt 40 ]; do sleep 5 & i=$((i+1)); done; wait; exit 1"
    rc, out = toolchains._run_build(["sh", "-c", forks], tmp_path, 30)
    assert rc != 0 and out.splitlines()[0] == (
        "(compilation stopped by the build's process cap: it tried to have "
        "more than 20 processes and threads (a pids cgroup))"
    ), out
    rc, out = toolchains._run_build(
        ["sh", "-c", forks.replace("40", "5").replace("exit 1", "exit 0")], tmp_path, 30
    )
    assert rc == 0


def test_no_build_cgroup_is_left(tmp_path: Path) -> None:
    """After a step that left a process behind, the cgroups made for it are gone (the leftover
    killed, the folders removed)."""
    if not memory_cgroups():
        pytest.skip("no writable cgroup v1 memory controller here: no build cgroups are made")
    made: list[str] = []
    real = buildcap.build_cap

    def spy() -> buildcap.BuildCap:
        cap = real()
        made.extend(p for p in (cap.memory_cgroup, cap.pids_cgroup) if p)
        return cap

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(buildcap, "build_cap", spy)
        rc, _ = toolchains._run_build(["sh", "-c", "sleep 30 & exit 4"], tmp_path, 30)
    assert rc == 4 and len(made) == 2
    assert not [p for p in made if os.path.exists(p)]
