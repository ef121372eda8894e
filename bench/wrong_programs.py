"""How many of the deliberately wrong programs in ``tests/wrong/`` the default profile catches.

Each program is certified by ``gamecert certify`` as a user would run it (default profile, its
60 s budget, every core) once per seed; a program counts as caught when the run ends with the
verdict its first lines expect (``# expect: WA`` or ``TLE``). One line per run, then the total.

    .venv/bin/python bench/wrong_programs.py [--seeds 1 2] [--profile default] [--only GAME]

The last line is ``caught: K of N runs``. It takes about a minute per program and seed.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "tests" / "wrong"


def expected_verdict(program: Path) -> str:
    match = re.search(r"^# expect: (\w+)", program.read_text(), re.MULTILINE)
    return match.group(1) if match else "WA"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--profile", default="default")
    parser.add_argument("--only", default=None, metavar="GAME")
    args = parser.parse_args()
    programs = sorted(p for p in WRONG.glob("*/*.py") if args.only in (None, p.parent.name))
    caught = runs = 0
    with tempfile.TemporaryDirectory() as reports:
        for program in programs:
            game, want = program.parent.name, expected_verdict(program)
            for seed in args.seeds:
                start = time.perf_counter()
                proc = subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "gamecert",
                        "certify",
                        game,
                        str(program),
                        "--profile",
                        args.profile,
                        "--seed",
                        str(seed),
                        "--report-dir",
                        reports,
                    ],
                    capture_output=True,
                    text=True,
                    cwd=ROOT,
                )
                got = next(
                    (
                        line.split()[0]
                        for line in proc.stdout.splitlines()
                        if re.match(r"^(WA|TLE|RE|PE|MLE|OLE|CE)\b", line)
                    ),
                    "PASSED" if proc.returncode == 0 else f"exit {proc.returncode}",
                )
                ok = proc.returncode == 1 and got == want
                runs += 1
                caught += ok
                print(
                    f"{game}/{program.stem:<16} seed {seed}: {got:<9} (expected {want}) "
                    f"{time.perf_counter() - start:6.1f} s  {'caught' if ok else 'MISSED'}",
                    flush=True,
                )
    print(f"caught: {caught} of {runs} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
