"""Builds see a clean environment: none of the user's variables reaches a compiled program.

A source can carry its compiler's environment into its own output: ``include_bytes!(
"/proc/self/environ")``, ``option_env!`` and ``env!("HOME")`` in Rust; a ``--compile`` command
(here one that writes the step's /proc/self/environ into ``{exe}``) sees what every compiler,
preprocessor and assembler of the step sees. Each program here is built by :func:`gamecert.engine.run.toolchains.prepare` with a secret
variable in the harness's environment, then run directly; its output must not hold the secret,
nor the user's ``HOME``. The control builds the same source with the old environment (the
harness's own, as builds had it before) and sees the secret leak, so the programs do read it.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from gamecert.engine.run import toolchains

SECRET_NAME = "GAMECERT_TEST_SECRET_TOKEN"
SECRET = "s3cr3t-7f1c9a-not-for-candidates"

#: a C source under a --compile command that makes {exe} a script printing the step's environment
#: (what any compiler, preprocessor or assembler of the step would see)
C_SOURCE = "int main(void) { return 0; }\n"
ENV_DUMP = (
    "sh -c \"{ printf '#!/bin/sh\\ncat <<\\\\E\\n'; tr '\\\\000' '\\\\n' < /proc/self/environ; "
    "printf 'E\\n'; } > {exe} && chmod +x {exe}\""
)

#: Rust: rustc's environment as bytes, one variable read by name, and HOME at compile time
RUST_ENVIRON = r"""
fn main() {
    let env: &[u8] = include_bytes!("/proc/self/environ");
    for b in env { print!("{}", if *b == 0 { '\n' } else { *b as char }); }
    println!("named={}", option_env!("GAMECERT_TEST_SECRET_TOKEN").unwrap_or("-"));
    println!("home={}", env!("HOME"));
}
"""


def _built_output(tmp_path, name: str, source: str, compile: str | None) -> str:
    path = tmp_path / name
    path.write_text(source)
    build = toolchains.prepare(path, compile=compile)
    return subprocess.run(
        list(build.argv), capture_output=True, text=True, timeout=30, check=True
    ).stdout


def _old_environment(home: str) -> dict[str, str]:
    """The environment builds had before: the harness's whole environment."""
    return dict(os.environ)


@pytest.mark.parametrize(
    "name,source,compile,compiler",
    [("environ.c", C_SOURCE, ENV_DUMP, "sh"), ("environ.rs", RUST_ENVIRON, None, "rustc")],
)
def test_a_build_carries_none_of_the_users_variables(
    tmp_path, monkeypatch, name, source, compile, compiler
):
    """Built with a secret variable set in the harness: the program's output (its compiler's
    environment, embedded) holds no trace of it nor of the user's HOME, yet shows the build ran
    with the clean environment (PATH and the C.UTF-8 locale); the control, the old environment,
    leaks the secret through the same program."""
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed")
    monkeypatch.setenv(SECRET_NAME, SECRET)
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "clean-cache"))
    out = _built_output(tmp_path, name, source, compile)
    assert "LC_ALL=C.UTF-8" in out and "PATH=" in out, out[:500]
    assert SECRET not in out and SECRET_NAME not in out, out[:2000]
    user_home = os.path.expanduser("~")
    homes = [line for line in out.splitlines() if line.startswith(("HOME=", "home="))]
    assert homes and all(line.split("=", 1)[1] != user_home for line in homes), homes
    # control: the same source built with the harness's own environment carries the secret
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "old-cache"))
    monkeypatch.setattr(toolchains, "build_environment", _old_environment)
    (tmp_path / "old").mkdir()
    leaked = _built_output(tmp_path / "old", name, source, compile)
    assert SECRET in leaked, leaked[:2000]
