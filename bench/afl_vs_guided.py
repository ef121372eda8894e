"""gamecert's search against AFL++ on the same wrong C programs: time to the first failing input.

Each wrong C program of ``tests/guided_wrong/`` and ``tests/uncaught/`` (or those given), after a
control with a shallow fault (``bench/afl/control/``), is run
through both tools, one after the other (never at once: each gets the same cores), once per seed:

- gamecert: ``gamecert certify GAME PROGRAM --seed S`` (the default profile; ``--budget`` only when
  ``--seconds`` is not 60), run through ``bench/afl/certify_timed.py``: the same command line in
  one process with a clock on the first failing input. Its time to the first failing input is
  the seconds from that process's start (its builds of the candidate included) to the moment
  the first fault goes to be confirmed (a guided find after its one plain re-run). Once the
  fault is confirmed (a FAIL line: "WA at N s" beside the time) the run is interrupted (Ctrl-C:
  it writes what it found); a run that ends without one is "not found", with its verdict.
- AFL++: a harness built with ``afl-clang-fast`` (``bench/afl/harness.c``: the wrong program as
  ``wrong_main``, a right C solver of the game as ``right_main``, the game's validity check from
  ``bench/afl/valid_GAME.c``, an abort when the answers differ), a second build with
  ``AFL_LLVM_CMPLOG=1``, the game's samples as the seed corpus; one afl-fuzz instance per core as
  gamecert has one runner per core (``--jobs``): a main (``-M``) with the cmplog build (``-c``),
  secondaries (``-S``) without, sharing the corpus; ``-s S`` (S + 1000 k for the k-th),
  ``-V SECONDS``, stopped at the first crash. Its time to the first failing input is the
  ``time:`` in the first crash file's name (milliseconds from that afl-fuzz's start, plus the
  seconds after the first instance's start it was started; its build not included: the build's
  seconds are printed beside it). The crash input is parsed by gamecert's own validator (a
  harness that let an invalid input through would be said). The samples are run through the
  harness first: it must not abort on them (the control on the harness); and each game's
  validity check is first compared with gamecert's validator on 300 mutated samples (a
  disagreement stops the bench).

No option is tuned for one program: every program gets the same commands. Run it with nothing
else of yours running; the machine's load average is printed at the start and with each row.

    .venv/bin/python bench/afl_vs_guided.py [--seconds 60] [--seeds 1,2] [PROGRAM.c ...]

Without ``afl-fuzz`` and ``afl-clang-fast`` on the PATH it says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "bench" / "afl"
#: the control first (a shallow fault both must find: a side that misses it is broken), then the
#: wrong C programs of the guided phase's tests and the uncaught ones
PROGRAMS = ("bench/afl/control/*/*.c", "tests/guided_wrong/*/*.c", "tests/uncaught/*/*.c")
AFL_ENV = {
    "AFL_BENCH_UNTIL_CRASH": "1",  # stop at the first crash: its time is what is measured
    "AFL_NO_UI": "1",
    "AFL_SKIP_CPUFREQ": "1",  # a shared VM: no governor to set
    "AFL_NO_AFFINITY": "1",  # the cores are shared; binding one would fail or favour AFL++
    "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES": "1",
    "AFL_QUIET": "1",
}


@dataclass
class Found:
    """One tool's run on one program and seed."""

    seconds: float | None  # to the first failing input; None: not found
    note: str  # where (gamecert: phase and size; AFL++: the input's size) or why not


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f}/{five:.1f}"


def right_solver(game: str) -> Path | None:
    for candidate in (
        HARNESS / "right" / f"{game}.c",
        ROOT / "tests/right_langs" / game / "right.c",
    ):
        if candidate.is_file():
            return candidate
    return None


def build(program: Path, game: str, folder: Path) -> tuple[Path, Path, float]:
    """The harness and its cmplog build for ``program``; the seconds both builds took."""
    right = right_solver(game)
    assert right is not None
    sources = [
        (HARNESS / "harness.c", []),
        (HARNESS / f"valid_{game}.c", [f"-I{HARNESS}"]),
        (program, ["-Dmain=wrong_main", "-w"]),
        (right, ["-Dmain=right_main", "-w"]),
    ]
    started = time.monotonic()
    binaries = []
    for kind, extra_env in (("plain", {}), ("cmplog", {"AFL_LLVM_CMPLOG": "1"})):
        env = {**os.environ, "AFL_QUIET": "1", **extra_env}
        objects = []
        for k, (source, flags) in enumerate(sources):
            obj = folder / f"{kind}{k}.o"
            cmd = ["afl-clang-fast", "-O2", *flags, "-c", str(source), "-o", str(obj)]
            subprocess.run(cmd, env=env, check=True, capture_output=True)
            objects.append(str(obj))
        binary = folder / f"harness.{kind}"
        cmd = ["afl-clang-fast", "-O2", *objects, "-lm", "-o", str(binary)]
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        binaries.append(binary)
    return binaries[0], binaries[1], time.monotonic() - started


def game_of(name: str) -> Any:  # a game object from the registry
    from gamecert.engine import registry

    return registry.get(name).game


def seed_corpus(game: str, folder: Path, harness: Path) -> Path:
    """The game's samples as AFL++'s seeds; each checked to pass the harness (the control: a
    harness that aborts on a right answer would make every crash meaningless)."""
    corpus = folder / "seeds"
    corpus.mkdir()
    for k, (text, _answer) in enumerate(game_of(game).samples):
        (corpus / f"sample{k}").write_text(text)
        run = subprocess.run([str(harness)], input=text.encode(), capture_output=True)
        if run.returncode != 0:
            raise SystemExit(f"{harness}: exit {run.returncode} on a sample, {text!r}")
    return corpus


def check_validity(game: str, folder: Path, rng: random.Random, tries: int = 300) -> str | None:
    """``bench/afl/valid_GAME.c`` against gamecert's own validator on ``tries`` samples with up
    to three characters inserted, deleted or replaced (about half stay valid): the first input
    they disagree on, or None. AFL++ would otherwise search inputs a judge never gives, or miss
    ones it does."""
    binary = folder / "valid"
    sources = [str(HARNESS / "valid_main.c"), str(HARNESS / f"valid_{game}.c")]
    subprocess.run(["cc", "-O2", f"-I{HARNESS}", *sources, "-o", str(binary)], check=True)
    the_game = game_of(game)
    texts: list[str] = [text for text, _ in the_game.samples]
    symbols = sorted({c for text in texts for c in text} | set("0123456789aAzZ \r-"))
    for _ in range(tries):
        text = rng.choice(texts)
        for _ in range(rng.randint(0, 3)):
            at, symbol = rng.randrange(len(text) + 1), rng.choice(symbols)
            text = rng.choice((text[:at] + symbol + text[at:], text[:at] + text[at + 1 :]))
        try:
            the_game.parse_input(text)
            valid = True
        except Exception:  # noqa: BLE001 - any refusal of the validator is "not valid"
            valid = False
        said = subprocess.run([str(binary)], input=text.encode(), capture_output=True).stdout
        if said.strip() != (b"1" if valid else b"0"):
            return text
    return None


def run_gamecert(program: Path, game: str, seed: int, seconds: int, folder: Path) -> Found:
    """``gamecert certify`` through ``bench/afl/certify_timed.py`` (its own command line with a
    clock on the first failing input); interrupted once the fault is confirmed (its FAIL line)."""
    cmd = [sys.executable, str(HARNESS / "certify_timed.py"), game, str(program)]
    cmd += ["--seed", str(seed), "--report-dir", str(folder / f"reports{seed}")]
    if seconds != 60:
        cmd += ["--budget", str(seconds)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    started = time.monotonic()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    first: tuple[float, str] | None = None  # the clock's line: seconds, "phase, size N"
    confirmed = ""
    last = ""  # the verdict of a run that found nothing
    for line in proc.stdout:
        if verdict_word := re.search(r"\b(CERTIFIED|PASSED \(incomplete\)|PASSED)", line):
            last = verdict_word[1]
        clock = re.match(r"gamecert-first-failure (\S+) (\S+) (\S+)", line)
        if clock and first is None:
            first = (float(clock[1]), f"{clock[2]}, size {clock[3]}")
        if re.search(r"\bFAIL\b", line):
            verdict = re.search(r"FAIL \((\w+)\)", line)
            confirmed = f"{verdict[1] if verdict else 'FAIL'} at {time.monotonic() - started:.0f} s"
            os.killpg(proc.pid, signal.SIGINT)  # what it found is kept; the rest is not measured
            break
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    wall = time.monotonic() - started
    if first is not None and confirmed:
        return Found(first[0], f"{first[1]}; {confirmed}")
    if first is not None:
        return Found(None, f"a fault at {first[0]:.1f} s never confirmed ({last or 'no verdict'})")
    return Found(None, f"not found in {seconds} s ({last or 'no verdict'} after {wall:.0f} s)")


def run_afl(
    plain: Path, cmplog: Path, corpus: Path, game: str, seed: int, seconds: int, jobs: int
) -> Found:
    """AFL++ on ``jobs`` instances (as its docs run one per core: a main with cmplog, secondaries
    without, sharing the corpus); ended when one saves a crash, or after ``seconds``."""
    out = plain.parent / f"afl{seed}"
    env = {**os.environ, **AFL_ENV}
    procs: list[tuple[str, float, subprocess.Popen[bytes]]] = []
    started = time.monotonic()
    for k in range(jobs):
        name = "main" if k == 0 else f"second{k}"
        role = ["-M", name, "-c", str(cmplog)] if k == 0 else ["-S", name]
        cmd = ["afl-fuzz", "-i", str(corpus), "-o", str(out), "-s", str(seed + 1000 * k)]
        cmd += ["-V", str(seconds), *role, "--", str(plain)]
        log = (plain.parent / f"afl{seed}.{name}.log").open("w")
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        procs.append((name, time.monotonic() - started, proc))
    while time.monotonic() - started < seconds + 120:
        if any(list((out / name / "crashes").glob("id:*")) for name, _, _ in procs):
            break
        if all(proc.poll() is not None for _, _, proc in procs):
            break
        time.sleep(0.2)
    for _, _, proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for _, _, proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    execs = 0
    timed: list[tuple[float, Path]] = []
    for name, offset, _ in procs:
        stats = out / name / "fuzzer_stats"
        done = re.search(r"execs_done\s*:\s*(\d+)", stats.read_text()) if stats.is_file() else None
        execs += int(done[1]) if done else 0
        for crash in (out / name / "crashes").glob("id:*"):
            if m := re.search(r"time:(\d+)", crash.name):
                timed.append((offset + int(m[1]) / 1000, crash))
    runs = f"{execs:,} runs, {jobs} instances"
    if not timed:
        return Found(None, f"not found in {seconds} s ({runs})")
    at, first = min(timed)
    text = first.read_bytes().decode("utf-8", "replace")
    try:
        size = f"size {game_of(game).size(game_of(game).parse_input(text))}"
    except Exception as exc:  # noqa: BLE001 - the harness let an invalid input through: say so
        size = f"INVALID input ({exc})"
    return Found(at, f"{size}, {runs}")


def seeds(text: str) -> list[int]:
    return [int(part) for part in text.split(",")]


def shown(found: Found) -> str:
    if found.seconds is None:
        return found.note
    return f"{found.seconds:.1f} s ({found.note})"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]),
    )  # fmt: skip
    parser.add_argument("programs", nargs="*", type=Path, help="wrong C programs (default: all)")
    parser.add_argument("--seconds", type=int, default=60, help="each tool's time per run")
    parser.add_argument("--seeds", type=seeds, default=[1, 2], help="comma-separated (default 1,2)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1,
        help="AFL++ instances (default: every core, as gamecert's runners)",
    )  # fmt: skip
    args = parser.parse_args()
    missing = [tool for tool in ("afl-fuzz", "afl-clang-fast") if shutil.which(tool) is None]
    if missing:
        print(f"{' and '.join(missing)} not installed (Debian: apt-get install afl++): nothing run")
        return 0
    programs = args.programs or [p for g in PROGRAMS for p in sorted(ROOT.glob(g))]
    print(f"{len(programs)} programs, seeds {args.seeds}, {args.seconds} s per tool and run;")
    print(f"{os.cpu_count()} cores, load average (1/5 min) {load()} at the start")
    rows = []
    checked: set[str] = set()  # games whose validity check agreed with gamecert's validator
    with tempfile.TemporaryDirectory(prefix="afl_vs_guided") as scratch:
        for n, program in enumerate(programs):
            game = program.resolve().parent.name
            name = f"{game}/{program.name}"
            if not (HARNESS / f"valid_{game}.c").is_file() or right_solver(game) is None:
                print(f"{name}: skipped (no bench/afl/valid_{game}.c or right C solver)")
                continue
            folder = Path(scratch) / str(n)
            folder.mkdir()
            if game not in checked:
                if (text := check_validity(game, folder, random.Random(len(checked)))) is not None:
                    print(f"bench/afl/valid_{game}.c and gamecert disagree on {text!r}: stopped")
                    return 1
                checked.add(game)
            plain, cmplog, build_s = build(program.resolve(), game, folder)
            corpus = seed_corpus(game, folder, plain)
            for seed in args.seeds:
                ours = run_gamecert(program.resolve(), game, seed, args.seconds, folder)
                theirs = run_afl(plain, cmplog, corpus, game, seed, args.seconds, args.jobs)
                row = (name, seed, shown(ours), shown(theirs), f"{build_s:.1f} s", load())
                rows.append(row)
                print(" | ".join(map(str, row)), flush=True)
    print()
    print("| program | seed | gamecert: first failing input | AFL++: first crash | AFL++ build "
          "| load |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(map(str, row)) + " |")
    print(f"load average (1/5 min) at the end: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
