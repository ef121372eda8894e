"""Scaling of ``pytest --candidate`` over xdist gateways: one worker versus two.

The same certification (a game, a candidate, a seed and a plan fixed by counts, so both runs do
exactly the same tests) runs three ways, each in a fresh folder like a user's:

* ``one process``: ``pytest -p no:xdist`` (the items in the controller, no workers);
* ``1 gateway``: ``pytest -d --tx popen//chdir=A``;
* ``2 gateways``: ``pytest -d --tx popen//chdir=A --tx popen//chdir=B`` (two hosts stand-ins).

Each prints its wall time, the tests it ran (read back from the certificate, which must be
CERTIFIED with equal counts in all three) and the fixed start-up cost (the same command with a
plan of no tests). The scaling is the 1-gateway wall time over the 2-gateway wall time; on a
machine with two cores shared with other work it is bounded by what those cores have free.

    .venv/bin/python bench/scale_out.py [--game word_game] [--runs 3000] [--examples 400]

The last line is ``scaling: X``.
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


def certify(
    folder: Path, candidate: Path, game: str, runs: int, examples: int, mode: list[str], tag: str
) -> tuple[float, dict]:
    """One ``pytest --candidate`` run in ``folder``; (wall seconds, the certificate)."""
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS=str(runs), PYTHONPATH=str(ROOT))
    env.pop("PYTEST_ADDOPTS", None)
    start = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--rootdir={folder}",
            *mode,
            "--candidate",
            f"{game}={candidate.name}",
            "--candidate-seed=5",
            "--candidate-profile=default",
            f"--candidate-examples={examples}",
            f"--candidate-report-dir={tag}",
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    certs = list((folder / tag).glob("*/*/certificate.json"))
    if proc.returncode != 0 or len(certs) != 1:
        sys.exit(
            f"{tag}: pytest exited {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        )
    return wall, json.loads(certs[0].read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="word_game")
    parser.add_argument("--runs", type=int, default=3000, help="exhaustive runs of the plan")
    parser.add_argument("--examples", type=int, default=400, help="random examples of the plan")
    args = parser.parse_args()
    source = ROOT / "examples" / args.game / "correct.py"
    with tempfile.TemporaryDirectory(prefix="gamecert-scale-") as tmp:
        base = Path(tmp)
        user, host_a, host_b = base / "user", base / "host-a", base / "host-b"
        for d in (user, host_a, host_b):
            d.mkdir()
        candidate = user / "prog.py"
        candidate.write_bytes(source.read_bytes())
        modes = {
            "one process": ["-p", "no:xdist"],
            "1 gateway": ["-d", "--tx", f"popen//chdir={host_a}"],
            "2 gateways": [
                "-d",
                "--tx",
                f"popen//chdir={host_a}",
                "--tx",
                f"popen//chdir={host_b}",
            ],
        }
        walls: dict[str, float] = {}
        counts = None
        for tag, mode in modes.items():
            idle, _ = certify(user, candidate, args.game, 0, 0, mode, f"idle-{len(walls)}")
            wall, cert = certify(
                user, candidate, args.game, args.runs, args.examples, mode, f"run-{len(walls)}"
            )
            mine = (cert["verdict"], cert["tests"], cert["runs"], cert["random_examples"])
            if counts is not None and mine != counts:
                sys.exit(f"{tag}: the certificate differs from the first run's: {mine} != {counts}")
            counts = mine
            walls[tag] = wall
            items = next((n for n in cert["notes"] if n.startswith("run by pytest")), "")
            print(
                f"{tag:12s} {wall:6.1f} s wall, {cert['tests']} tests ({cert['tests'] / wall:,.0f} tests/s); "
                f"start-up with an empty plan {idle:.1f} s; {items}"
            )
        print(
            f"game {args.game}, {counts[1]} tests, {os.cpu_count()} cores, load average "
            f"{os.getloadavg()[0]:.1f} at the end"
        )
        work1 = walls["1 gateway"]
        print(f"scaling: {work1 / walls['2 gateways']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
