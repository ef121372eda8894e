"""A right program at ~60% of its time limit, certified while the machine is loaded: how often
is it rejected? (The goal is never: a load spike is not a property of the program.)

The program is word_game's right solution plus a busy loop of 0.6 x the time limit of CPU time
on every test. The load is one busy process per core (plus one), started before and stopped after
each certification. Each round certifies it with ``gamecert certify --budget B`` once loaded and
once quiet, alternating.

    .venv/bin/python bench/loaded_limit.py [--rounds K] [--budget B] [--time-limit T]

The last line is ``rejected under load: R of K`` (and the quiet figure before it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = """import sys, time
end = time.process_time() + {busy}
while time.process_time() < end:
    pass
word = sys.stdin.readline().strip()
total = 0
for letter in set(word):
    c = word.count(letter)
    total ^= 3 if c % 3 == 0 else c % 3
print("Alice" if total else "Bob")
"""


def certify(program: Path, budget: float, limit: float, seed: int, out: Path) -> tuple[bool, str]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            "word_game",
            str(program),
            "--budget",
            str(budget),
            "--time-limit",
            str(limit),
            "--seed",
            str(seed),
            "--report-dir",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    summary = next(
        (line for line in proc.stdout.splitlines() if line.startswith("summary:")),
        proc.stdout[-200:],
    )
    if proc.returncode == 1:
        folder = Path(proc.stdout.strip().splitlines()[-1])
        try:
            report = json.loads((folder / "report.json").read_text())
            summary += f" | {report['verdict']}: {report['reason'][:160]}"
        except (OSError, ValueError, KeyError):
            pass
    return proc.returncode == 0, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", type=float, default=15.0)
    parser.add_argument("--time-limit", type=float, default=1.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "near_limit.py"
        program.write_text(PROGRAM.format(busy=0.6 * args.time_limit))
        rejected = {True: 0, False: 0}
        for k in range(args.rounds):
            for loaded in (True, False):
                hogs = []
                if loaded:
                    hogs = [
                        subprocess.Popen([sys.executable, "-c", "while True: pass"])
                        for _ in range((os.cpu_count() or 1) + 1)
                    ]
                start = time.perf_counter()
                try:
                    ok, summary = certify(
                        program, args.budget, args.time_limit, k, Path(tmp) / f"r{k}{loaded}"
                    )
                finally:
                    for hog in hogs:
                        hog.kill()
                        hog.wait()
                rejected[loaded] += not ok
                print(
                    f"round {k + 1} {'loaded' if loaded else 'quiet '}: {'PASSED' if ok else 'REJECTED'} "
                    f"in {time.perf_counter() - start:.1f} s; {summary}",
                    flush=True,
                )
        print(f"rejected quiet: {rejected[False]} of {args.rounds}")
        print(f"rejected under load: {rejected[True]} of {args.rounds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
