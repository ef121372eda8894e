"""Wrong programs of kinds written after the designed families, to see whether the default
profile still catches them (tests/wrong_kinds/: a right-answer program slow on one input shape,
TLE; a token too many after one shape of batch, WA; a heap index zero-padded from ten heaps on, PE). Long: each is certified under the default
profile with seeds 1 and 2 and must get the verdict its ``# expect:`` line names. Where the
shrink finishes, the size is the ``# smallest:`` one; a TLE's shrink is often cut by its budget
(each try costs the time limit), and then its report must say that a smaller input may fail."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted((ROOT / "tests" / "wrong_kinds").glob("*/*.py"))


def _header(program: Path, key: str) -> str:
    for line in program.read_text().splitlines()[:5]:
        if line.startswith(f"# {key}: "):
            return line.split(": ", 1)[1]
    raise AssertionError(f"{program} has no '# {key}:' line")


@pytest.mark.long
@pytest.mark.parametrize("seed", ["1", "2"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_caught_under_the_default_profile(program: Path, seed: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            program.parent.name,
            str(program),
            "--seed",
            seed,
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )
    assert done.returncode == 1, done.stdout[-3000:]
    report = json.loads((Path(done.stdout.strip().splitlines()[-1]) / "report.json").read_text())
    assert report["verdict"] == _header(program, "expect"), report["verdict"]
    smallest = int(_header(program, "smallest").split()[0])
    assert report["size"] >= smallest
    if report["size"] > smallest:  # not at its smallest: the words must not claim it
        assert "a smaller failing input may exist" in report["minimality"], report["minimality"]
