"""Containment for an ordinary user (issue 44, point 7).

Most users are not root; CI is. Here, as root, a user id is made for the test (one no account
has; its HOME a folder of the test's own) and gamecert runs as that user (``setpriv``), on an
interpreter that user may run, the worktree's code and its packages on ``PYTHONPATH``.

* Default run: ``certify`` of ``tests/hostile/home_write.py`` (answers right; writes into its
  HOME) as that user. Checked from outside: exit 0, no file in the user's HOME, and the
  certificate's containment line says what holds there (bubblewrap's own network namespace,
  "its own loopback"; memory "limited per process only", with why: no memory cgroup of one's own
  on cgroup v1, a v2 controller systemd delegates not used; processes capped by ``RLIMIT_NPROC``)
  and claims none of root's (memory charged to a cgroup, the loopback down). The control: the line a
  root runner writes claims exactly those, so the check tells the two apart.
* Long (``GAMECERT_LONG_TESTS=1``): the containment test files themselves, run by pytest as that
  user, pass.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine.run import contain

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
#: the containment test files run as the ordinary user in the long run
CONTAINMENT_FILES = (
    "tests/test_contain.py",
    "tests/test_containment.py",
    "tests/test_build_view.py",
    "tests/test_plain_box.py",
    "tests/test_hidden_stale.py",
)


def _free_uid() -> int:
    for uid in range(42_000, 43_000):
        try:
            pwd.getpwuid(uid)
        except KeyError:
            return uid
    pytest.skip("no free user id")


def _site_packages() -> list[str]:
    return [p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p)]


@pytest.fixture
def base():
    """A folder the ordinary user can reach (pytest's own are root's only), removed after."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="ordinary-user-"))  # no "gamecert": a test looks for it
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


class User:
    """A user id made for the test, and how to run a command as it."""

    def __init__(self, tmp_path: Path) -> None:
        if os.geteuid() != 0 or shutil.which("setpriv") is None:
            pytest.skip("needs root (to become an ordinary user) and setpriv")
        self.uid = _free_uid()
        self.home = tmp_path / "home"
        self.tmp = tmp_path / "tmp"
        for folder in (tmp_path, self.home, self.tmp):
            folder.mkdir(exist_ok=True)
            os.chown(folder, self.uid, self.uid)
        tmp_path.chmod(0o755)
        self.python = self._interpreter()

    def env(self) -> dict[str, str]:
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "USER": "gamecert-test",
            "TMPDIR": str(self.tmp),
            "GAMECERT_CACHE": str(self.home / "cache"),
            "PYTHONPATH": os.pathsep.join([str(ROOT), *_site_packages()]),
            "LANG": "C.UTF-8",
        }

    def run(self, argv: list[str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
        user = [f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups"]
        return subprocess.run(
            ["setpriv", *user, "env", "-i", *(f"{k}={v}" for k, v in self.env().items()), *argv],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )

    def _interpreter(self) -> str:
        """An interpreter of this Python's version the user may run, importing gamecert."""
        version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
        tried = [os.path.realpath(getattr(sys, "_base_executable", sys.executable))]
        tried += [p for p in (shutil.which(version), f"/usr/bin/{version}") if p]
        for python in dict.fromkeys(tried):
            done = self.run([python, "-c", "import gamecert, hypothesis"], timeout=120)
            if done.returncode == 0:
                return python
        pytest.skip(f"no {version} the ordinary user may run imports gamecert from here")


def test_the_certificate_says_what_holds_for_an_ordinary_user(base):
    tmp_path = base
    if not contain.probe().enabled:
        pytest.skip("no sandbox here")
    user = User(tmp_path)
    reports = tmp_path / "reports"
    done = user.run(
        [user.python, "-m", "gamecert", "certify", "word_game", str(HOSTILE / "home_write.py"),
         "--profile", "quick", "--phases", "samples", "--report-dir", str(reports)]
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert not (user.home / "gamecert_was_here").exists()
    folder = Path(done.stdout.strip().splitlines()[-1])
    line = json.loads((folder / "certificate.json").read_text())["containment"]
    assert "own loopback" in line and "memory limited per process only" in line, line
    assert "RLIMIT_NPROC" in line and "a fork it refuses is not counted" in line, line
    assert "not root: cgroup v" in line, line  # why there is no memory cgroup, said
    claims_of_root = ("charged to a cgroup", "loopback down")
    assert not any(claim in line for claim in claims_of_root), line
    # control: where root's mechanisms hold, the line root's runner writes claims them
    if os.geteuid() == 0 and contain.dark_net_prefix():
        from gamecert.engine.run import memcg

        root_line = contain.probe().describe()
        assert "loopback down" in root_line
        if memcg.available():
            assert "charged to a cgroup" in root_line


@pytest.mark.long
@pytest.mark.parametrize("name", CONTAINMENT_FILES)
def test_the_containment_tests_pass_as_an_ordinary_user(base, name):
    user = User(base)
    done = user.run(
        [user.python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp",
         str(user.tmp / "pytest"), name],
        timeout=1800,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
