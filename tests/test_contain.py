"""Candidates run contained: hostile programs of our own try to escape and fail.

``tests/hostile/hostile.py`` (and ``hostile.c``, compiled here) try, each attempt on its own
line: writing into the home folder, the shared temporary folder, the reports folder, their own
folder and the parent of the scratch folder; reading a secret file in the home folder;
connecting to a socket this test listens on; finding the test's process in ``/proc``;
signalling a process standing in for the harness; killing their parent. Contained, every
attempt fails inside the program and nothing outside changes. The same program run NOT
contained does escape: the checks can see an escape.
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest

from gamecert.engine.run import contain
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.sandbox import Candidate, open_runner

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HOSTILE = HERE / "hostile"
LIMITS = Limits(time_s=2.0, memory_mb=512)
ATTEMPTS = (
    "write-home",
    "read-home-secret",
    "write-tmp-harness-file",
    "read-tmp-harness-file",
    "write-reports",
    "write-own-folder",
    "overwrite-own-program",
    "write-scratch-parent-parent",
    "write-scratch-parent-file",
    "connect-local-socket",
    "find-harness-in-proc",
    "signal-harness",
    "read-harness-environment",
    "kill-parent",
)

pytestmark = pytest.mark.skipif(
    not contain.probe().enabled and os.environ.get("GAMECERT_CONTAIN") == "0",
    reason="GAMECERT_CONTAIN=0: containment is off on purpose",
)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its contents."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


class World:
    """What a hostile candidate aims at, all made by this test outside the scratch folder."""

    def __init__(self, tmp_path: Path) -> None:
        self.token = uuid.uuid4().hex[:12]
        self.home = tmp_path / "home"
        self.home.mkdir()
        (self.home / "secret.txt").write_text("the user's secret\n")
        self.reports = tmp_path / "reports"
        self.reports.mkdir()
        self.program_dir = tmp_path / "program"
        self.program_dir.mkdir()
        self.program = self.program_dir / "hostile.py"
        shutil.copyfile(HOSTILE / "hostile.py", self.program)
        fd, tmp_file = tempfile.mkstemp(prefix="gamecert-harness-", dir="/tmp")
        os.write(fd, b"the harness's own temporary file\n")
        os.close(fd)
        self.tmp_file = Path(tmp_file)
        scratch_root = os.environ.get("GAMECERT_TMPDIR") or (
            "/dev/shm" if os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()
        )
        self.scratch_root = Path(scratch_root)
        fd, neighbour = tempfile.mkstemp(prefix="gamecert-neighbour-", dir=scratch_root)
        os.write(fd, b"a neighbour of the scratch folder\n")
        os.close(fd)
        self.neighbour = Path(neighbour)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.listener.setblocking(False)
        # a stand-in for the harness that may be signalled (the real one must survive the control run)
        self.decoy = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(120)", f"decoy-{self.token}"]
        )
        self.before = {p: snapshot(p) for p in (self.home, self.reports, self.program_dir)}

    def task(self) -> str:
        return (
            json.dumps(
                {
                    "token": self.token,
                    "home": str(self.home),
                    "home_secret": str(self.home / "secret.txt"),
                    "tmp_file": str(self.tmp_file),
                    "reports": str(self.reports),
                    "scratch_neighbour": str(self.neighbour),
                    "port": self.listener.getsockname()[1],
                    "harness_pid": os.getpid(),
                    "stand_in_pid": self.decoy.pid,
                    "harness_marker": f"decoy-{self.token}",
                }
            )
            + "\n"
        )

    def escapes(self) -> list[str]:
        """What changed outside: empty when everything is untouched."""
        found = [f"{p} changed" for p, snap in self.before.items() if snapshot(p) != snap]
        if self.tmp_file.read_bytes() != b"the harness's own temporary file\n":
            found.append("the harness's /tmp file changed")
        if self.neighbour.read_bytes() != b"a neighbour of the scratch folder\n":
            found.append("the scratch folder's neighbour changed")
        found += [
            f"{p} appeared"
            for p in (
                Path("/tmp") / f"hostile-{self.token}",
                self.scratch_root / f"hostile-{self.token}",
            )
            if p.exists()
        ]
        try:
            self.listener.accept()[0].close()
            found.append("a connection reached the test's socket")
        except BlockingIOError:
            pass
        if self.decoy.poll() is not None:
            found.append("the harness stand-in was killed")
        return found

    def close(self) -> None:
        self.listener.close()
        self.decoy.kill()
        self.decoy.wait()
        for path in (self.tmp_file, self.neighbour, self.scratch_root / f"hostile-{self.token}"):
            path.unlink(missing_ok=True)


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    made = World(tmp_path)
    monkeypatch.setenv("HOME", str(made.home))
    monkeypatch.setenv(
        "GAMECERT_CACHE", str(tmp_path / "cache")
    )  # the harness's own cache is not the candidate's doing
    monkeypatch.setenv(
        f"GAMECERT_TEST_API_KEY_{made.token}", f"secret-{made.token}"
    )  # the user's environment
    yield made
    made.close()


def attempts(stdout: str) -> dict[str, str]:
    lines = [line.partition(": ") for line in stdout.splitlines() if ": " in line]
    return {name: outcome for name, _, outcome in lines}


@pytest.mark.parametrize("fork_server", [True, False], ids=["fork-server", "fresh-process"])
def test_hostile_python_candidate_is_contained(world: World, fork_server: bool) -> None:
    """Every escape attempt fails inside the program; nothing outside the scratch folder changes."""
    with open_runner(
        Candidate.parse(str(world.program)), LIMITS, fork_server=fork_server
    ) as runner:
        assert runner.containment.enabled, runner.containment.describe()
        result = runner.run(world.task())
    assert result.status == "ok", result.describe()
    seen = attempts(result.stdout)
    assert sorted(seen) == sorted(ATTEMPTS) and result.stdout.endswith("end\n"), result.stdout
    escaped = {name: outcome for name, outcome in seen.items() if not outcome.startswith("blocked")}
    assert escaped == {}, result.stdout
    assert world.escapes() == []


def test_the_same_program_not_contained_does_escape(
    world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    """The control: without containment the attempts work and the checks above see it."""
    with open_runner(Candidate.parse(str(world.program)), LIMITS, contain=False) as runner:
        assert not runner.containment.enabled
        result = runner.run(world.task())
    seen = attempts(result.stdout)
    for name in (
        "write-home",
        "read-home-secret",
        "write-tmp-harness-file",
        "write-reports",
        "write-own-folder",
        "write-scratch-parent-parent",
        "connect-local-socket",
        "find-harness-in-proc",
        "signal-harness",
    ):
        assert seen[name].startswith("DONE"), (name, result.stdout)
    assert "supervisor" in result.detail  # kill-parent worked: the test ended with the supervisor
    # the environment is a judge's even without namespaces; the same check run here sees the variable
    assert seen["read-harness-environment"].startswith("blocked"), result.stdout
    probe = runpy.run_path(
        str(HOSTILE / "hostile.py"), run_name="hostile"
    )  # its functions, not its main()
    probe["attempt"]("read-harness-environment", probe["read_environment"](world.token))
    assert capsys.readouterr().out.startswith(
        "read-harness-environment: DONE saw GAMECERT_TEST_API_KEY_"
    )
    found = " | ".join(world.escapes())
    for what in (
        "home",
        "reports",
        "program",
        "/tmp file",
        "neighbour",
        "appeared",
        "connection",
        "stand-in",
    ):
        assert what in found, found


def test_hostile_native_candidate_is_contained(world: World, tmp_path: Path) -> None:
    """The same attempts from a C program (compiled here with gcc)."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler: the native hostile program cannot be built")
    binary = tmp_path / "program" / "hostile_c"
    subprocess.run([compiler, "-O1", "-o", str(binary), str(HOSTILE / "hostile.c")], check=True)
    task = f"{world.home} {world.home / 'secret.txt'} {world.decoy.pid} {world.listener.getsockname()[1]}\n"
    with open_runner(Candidate.parse(str(binary)), LIMITS) as runner:
        result = runner.run(task)
    seen = attempts(result.stdout)
    assert result.status == "ok" and result.stdout.endswith("end\n"), result.describe()
    for name in (
        "write-home",
        "read-home-secret",
        "connect-local-socket",
        "signal-harness",
        "kill-parent",
    ):
        assert seen[name].startswith("blocked"), (name, result.stdout)
    assert seen["create-private-tmp"] == "ok"  # /tmp is private and writable ...
    assert not Path("/tmp/hostile-c-marker").exists()  # ... and nothing reaches the real one
    binary.unlink()
    assert world.escapes() == []


def test_a_supervisor_death_mid_test_is_lost_and_leaves_nothing(tmp_path: Path) -> None:
    """The sandbox's server killed from outside during a test, twice: the run is RE ("supervisor
    died"), and no process of the candidate is left (ending the sandbox's init ends them all)."""
    program = tmp_path / "sleeper.py"
    program.write_text("import time\ninput()\ntime.sleep(1.5)\nprint('late')\n")
    with open_runner(Candidate.parse(str(program)), LIMITS, fork_server=False) as runner:
        client = runner._client
        killed: list[int] = []

        def kill_twice() -> None:
            end = time.monotonic() + 20
            while len(killed) < 2 and time.monotonic() < end:
                server = client._init  # set once a server has said it is ready
                if server is not None and server[0] not in killed and client.busy:
                    os.kill(server[0], signal.SIGKILL)  # a test is running in a ready server
                    killed.append(server[0])
                time.sleep(0.02)

        killer = threading.Thread(target=kill_twice)
        killer.start()
        result = runner.run("x\n")
        killer.join()
        assert len(killed) == 2
        assert result.status == "re" and "supervisor" in result.detail, result.describe()
        assert runner.run("x\n").stdout == "late\n"  # a new sandbox serves the next test
    assert [
        pid
        for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
        if _mentions(pid, str(program))
    ] == []


def _mentions(pid: int, marker: str) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return marker.encode() in cmdline and state != "Z"


def test_java_and_node_run_contained(tmp_path: Path) -> None:
    """Toolchains in the system folders work inside: a Java class and a Node script answer."""
    ran = 0
    if shutil.which("javac") and shutil.which("java"):
        (tmp_path / "Main.java").write_text(
            "public class Main { public static void main(String[] a) throws Exception {"
            " System.out.println(new java.util.Scanner(System.in).nextLine().length()); } }\n"
        )
        subprocess.run(["javac", "-d", str(tmp_path), str(tmp_path / "Main.java")], check=True)
        java = (
            f"java -Xmx128m -XX:CompressedClassSpaceSize=64m -XX:+UseSerialGC -cp {tmp_path} Main"
        )
        with open_runner(Candidate.parse(java), Limits(time_s=5, memory_mb=2048)) as r:
            assert r.containment.enabled
            result = r.run("WORD\n")
        assert (result.status, result.stdout) == ("ok", "4\n"), result.describe()
        ran += 1
    if shutil.which("node"):
        script = tmp_path / "main.js"
        script.write_text(
            "const fs=require('fs');console.log(fs.readFileSync(0,'utf8').trim().length);"
            f"try{{fs.writeFileSync({json.dumps(str(Path.home()))}+'/x','y');console.log('home written')}}"
            "catch(e){console.log('home blocked')}\n"
        )
        with open_runner(
            Candidate.parse(f"node {script}"), Limits(time_s=5, memory_mb=2048, stack_mb=8)
        ) as r:
            result = r.run("WORD\n")
        assert (result.status, result.stdout) == ("ok", "4\nhome blocked\n"), result.describe()
        ran += 1
    if ran == 0:
        pytest.skip("neither java nor node is installed")


# --------------------------------------------------------------------------------------------
# not contained: said on the terminal and in every report and certificate


def test_probe_fails_cleanly_and_is_said(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bwrap that cannot make a sandbox: a one-line reason, candidates still run, a warning."""
    monkeypatch.setenv("GAMECERT_BWRAP", "/bin/false")
    found = contain.probe()
    assert not found.enabled and found.reason.startswith(
        "bubblewrap (/bin/false) cannot make a sandbox here"
    )
    with open_runner(
        Candidate.parse(str(ROOT / "examples" / "word_game" / "correct.py")), LIMITS
    ) as runner:
        assert runner.run("WORD\n").stdout == "Bob\n"
        assert runner.containment == found
    assert (
        capsys.readouterr().err.count(
            "gamecert: warning: candidates run NOT contained: bubblewrap (/bin/false)"
        )
        <= 1
    )
    assert contain.probe(False).reason == "--no-contain was given"
    monkeypatch.setenv("GAMECERT_CONTAIN", "0")
    assert contain.probe().reason == "GAMECERT_CONTAIN=0 is set"


@pytest.mark.parametrize("how", ["bwrap-fails", "no-contain", "contained"])
def test_certify_says_whether_it_contained(tmp_path: Path, how: str) -> None:
    """`gamecert certify`: the warning line on stderr, and the containment line in the
    certificate and in the failure report (md and json). Samples and the exhaustive phase only
    (the wrong example fails there, the right one is certified): the lines are the same whatever
    phases ran, and the families would add ~1,000 runs a certification."""
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="20")
    env.pop("GAMECERT_CONTAIN", None)
    extra = ["--no-contain"] if how == "no-contain" else []
    if how == "bwrap-fails":
        env["GAMECERT_BWRAP"] = "/bin/false"
    expected = {
        "bwrap-fails": "NOT contained: bubblewrap (/bin/false) cannot make a sandbox here",
        "no-contain": "NOT contained: --no-contain was given",
        "contained": "contained (bubblewrap",
    }[how]
    for name, kind in (("correct.py", "certificate"), ("wrong.py", "report")):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "gamecert",
                "certify",
                "word_game",
                str(ROOT / "examples" / "word_game" / name),
                "--profile",
                "quick",
                "--examples",
                "5",
                "--seed",
                "3",
                "--phases",
                "exhaustive",
                "--report-dir",
                str(tmp_path / name),
                *extra,
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
        )
        assert proc.returncode == (0 if kind == "certificate" else 1), proc.stdout + proc.stderr
        warnings = [line for line in proc.stderr.splitlines() if "NOT contained" in line]
        if how == "contained":
            assert warnings == []
        else:
            assert warnings == [
                f"gamecert: warning: candidates run {expected}" + warnings[0].split(expected)[1]
            ]
        folder = Path(proc.stdout.strip().splitlines()[-1])
        data = json.loads((folder / f"{kind}.json").read_text())
        assert data["containment"].startswith(expected)
        # the containment once, at the end; its accounting clause where the runner's exact one is not listed
        assert (
            f"- **Containment:** {data['containment'].partition('; accounting: ')[0]}"
            in (folder / f"{kind}.md").read_text()
        )
