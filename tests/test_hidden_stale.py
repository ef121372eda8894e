"""The list of harness paths to hide follows the machine, not the first answer (issue 44, point 8).

A site folder (here one of the test's own, bound into the sandbox as a readable path) holds a
``gamecert`` entry when the list is first made; the entry is then removed (another install that
briefly existed). The sandbox must still start: bubblewrap cannot cover a path that is gone
(``bwrap: Can't create file at .../site-packages/gamecert: Read-only file system``, exit 2). An
entry made after the first answer is hidden too. Checked from outside: the sandbox's exit status
and what a command inside it reads. The control: the first answer kept as it was (the old
per-process cache) makes bubblewrap fail.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gamecert.engine.run import contain, hidden

contained = contain.probe().enabled


def _fake_site(site: Path):
    def ask(interpreter: str) -> list[str]:
        hidden._site_folders[interpreter] = (str(site),)
        return sorted(str(p) for p in site.glob("gamecert*"))

    return ask


def _inside(site: Path, *command: str) -> subprocess.CompletedProcess[str]:
    argv = contain.wrap(
        list(command), writable=[], readable=[str(site)], workdir="/", containment=contain.probe()
    )
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not contained, reason="no sandbox here")
def test_a_removed_install_does_not_break_the_sandbox(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    (site / "gamecert").mkdir(parents=True)
    (site / "gamecert" / "oracle.py").write_text("SECRET = 1\n")
    (site / "numpy.py").write_text("")
    monkeypatch.setattr(hidden, "_ask", _fake_site(site))
    hidden._harness_paths.cache_clear()
    first = _inside(site, "cat", str(site / "gamecert" / "oracle.py"))
    assert first.returncode != 0 and "SECRET" not in first.stdout  # hidden
    kept = hidden.harness_paths(contain.base_python())
    (site / "gamecert" / "oracle.py").unlink()
    (site / "gamecert").rmdir()
    (site / "gamecert-2.0.dist-info").mkdir()
    (site / "gamecert-2.0.dist-info" / "METADATA").write_text("Name: gamecert\n")
    later = _inside(site, "ls", str(site))
    assert later.returncode == 0, later.stderr
    metadata = _inside(site, "cat", str(site / "gamecert-2.0.dist-info" / "METADATA"))
    assert "Name: gamecert" not in metadata.stdout  # the new entry is hidden as well
    # control: the first answer, kept as the old cache kept it, names a path that is gone
    monkeypatch.setattr(hidden, "harness_paths", lambda interpreter: kept)
    stale = _inside(site, "ls", str(site))
    assert stale.returncode != 0 and "Can't create file" in stale.stderr, stale.stderr
