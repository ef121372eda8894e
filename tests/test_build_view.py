"""Builds see the compiler's files, never a home (issue 44, point 1).

A source runs its author's code at compile time: ``include_str!`` in Rust, ``.incbin`` in C.
Each hostile program of ``tests/hostile/`` (``home_token.rs``, ``home_secret.c``) embeds a file
planted in a fake user's home (a registry token in the cargo home's ``credentials.toml``, a
fake ssh key) and prints it. The fake home is the test's own: ``HOME`` points at it and, for
Rust, its ``.cargo/bin/rustc`` is a copy of the installed rustup proxy, as a rustup install
leaves it. Checked from outside the box: the build fails to find the file (compile error, whose
message holds no token) or the built program's answer holds no token. Each control builds the
same source with the view builds had before (the compiler's installation folder bound whole,
rustup's home too, the home for C) and shows the token in the program's answer.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gamecert.engine.run import buildview, toolchains

HOSTILE = Path(__file__).parent / "hostile"
TOKEN = "cio-fake-registry-token-4c1d9e"


def _old_view(argv: list[str]) -> tuple[list[str], list[str]]:
    """The view builds had before: the compiler's installation whole (for a rustup proxy,
    the cargo home) and rustup's home (named to the build by ``RUSTUP_HOME``, as before)."""
    program = argv[0] if os.path.isabs(argv[0]) else shutil.which(argv[0]) or argv[0]
    paths = [program]
    real = os.path.realpath(program)
    if not real.startswith(("/usr/", "/bin/", "/lib")):
        paths.append(os.path.dirname(os.path.dirname(real)))
    if "/.cargo/" in program:
        paths.append(os.environ.get("RUSTUP_HOME") or os.path.expanduser("~/.rustup"))
    return list(argv), [p for p in paths if os.path.exists(p)]


def _build_and_run(source: Path) -> tuple[str, str]:
    """(the built program's output, "") or ("", the compile error's message)."""
    try:
        build = toolchains.prepare(source)
    except toolchains.CompileError as exc:
        return "", f"{exc}\n{exc.output}"
    done = subprocess.run(list(build.argv), capture_output=True, text=True, timeout=30)
    return done.stdout, ""


@dataclasses.dataclass(frozen=True)
class _Candidate:
    """What the guided phase's instrumented build reads of a candidate."""

    source: Path
    compile_command: tuple[str, ...]
    language: str = "c"
    argv: tuple[str, ...] = ()
    binary: Path | None = None
    python_file: str | None = None
    binary_sha256: str = ""


def _run(argv: list[str]) -> str:
    return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout


def _fake_rust_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    proxy = shutil.which("rustc")
    if proxy is None or os.path.basename(os.path.realpath(proxy)) != "rustup":
        pytest.skip("rustc through a rustup proxy is not installed")
    rustup_home = os.environ.get("RUSTUP_HOME") or os.path.expanduser("~/.rustup")
    home = tmp_path / "home"
    cargo_bin = home / ".cargo" / "bin"
    cargo_bin.mkdir(parents=True)
    shutil.copy2(os.path.realpath(proxy), cargo_bin / "rustc")
    (home / ".cargo" / "credentials.toml").write_text(f'[registry]\ntoken = "{TOKEN}"\n')
    monkeypatch.setenv("RUSTUP_HOME", rustup_home)
    monkeypatch.setenv("CARGO_HOME", str(home / ".cargo"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", f"{cargo_bin}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    buildview._ask.cache_clear()
    return home


def test_a_rust_build_cannot_read_the_cargo_home(tmp_path, monkeypatch):
    home = _fake_rust_home(tmp_path, monkeypatch)
    source = tmp_path / "home_token.rs"
    source.write_text(
        (HOSTILE / "home_token.rs").read_text().replace("CARGO_HOME_PATH", str(home / ".cargo"))
    )
    argv, readable = buildview.toolchain_view(["rustc", "x.rs"])
    assert argv[0].endswith("/bin/rustc") and not argv[0].startswith(str(home)), argv
    assert all(not p.startswith(str(home)) for p in readable), readable
    out, error = _build_and_run(source)
    assert TOKEN not in out and TOKEN not in error, (out, error)
    assert "credentials.toml" in error, (out, error)  # the file was not there to read
    # control: the old view (the cargo home bound whole) lets the token through
    monkeypatch.setattr(buildview, "toolchain_view", _old_view)
    clean = toolchains.build_environment
    monkeypatch.setattr(
        toolchains,
        "build_environment",
        lambda h: {**clean(h), "RUSTUP_HOME": os.environ["RUSTUP_HOME"]},
    )
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "old-cache"))
    (tmp_path / "old").mkdir()
    old_source = tmp_path / "old" / "home_token.rs"
    old_source.write_text(source.read_text())
    leaked, _ = _build_and_run(old_source)
    assert TOKEN in leaked, leaked


@pytest.mark.parametrize("kind", ["plain", "asan", "guided"])
def test_c_builds_cannot_read_the_home(tmp_path, monkeypatch, kind):
    """The plain build, a sanitizer build and the guided phase's instrumented build all start
    through the same box."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    secret = home / ".ssh" / "id_ed25519"
    secret.write_text(f"-----BEGIN FAKE KEY-----\n{TOKEN}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "home_secret.c"
    source.write_text(
        (HOSTILE / "home_secret.c").read_text().replace("HOME_FILE_PATH", str(secret))
    )

    def build(path: Path) -> str:
        try:
            if kind == "asan":
                built = toolchains.sanitizer_build(path, "asan")
            else:
                built = toolchains.prepare(path)
                if kind == "guided":
                    from gamecert.engine.run import instrument

                    made = instrument._native(_Candidate(path, built.compile_command))
                    return _run([str(made.candidate.binary)])
        except Exception as exc:  # a compile error or no instrumented route: its message is checked
            return f"{type(exc).__name__}: {exc}"
        return _run(list(built.argv))

    out = build(source)
    assert TOKEN not in out and "id_ed25519" in out, out  # the build did not find the file
    # control: the home bound into the build's view lets the secret through
    real_view = buildview.toolchain_view
    monkeypatch.setattr(
        buildview,
        "toolchain_view",
        lambda argv: (real_view(argv)[0], [*real_view(argv)[1], str(home)]),
    )
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "old-cache"))
    (tmp_path / "old").mkdir()
    old = tmp_path / "old" / "home_secret.c"
    old.write_text(source.read_text())
    assert TOKEN in build(old)
