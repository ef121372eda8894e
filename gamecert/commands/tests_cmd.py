"""``gamecert tests GAME --out DIR`` (write a test package) and ``--check DIR`` (re-run one).

Exit status: 0 the package is sound (every right program and solver passes every test, the
validator accepts every test, the checker agrees with gamecert's judge); 1 a fault in it; 2 a
usage or input error. Wrong programs that survive are listed, and do not change the status.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamecert.errors import UsageError
from gamecert.kit.escape import visible

if TYPE_CHECKING:
    from gamecert.engine.testpack.testpack import Outcome


def add_parser(sub: argparse._SubParsersAction) -> None:
    t = sub.add_parser(
        "tests",
        help="write a small test set that kills every known wrong solution, with its kill matrix",
    )
    t.add_argument("game")
    where = t.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="write the package here: a new or empty folder, or a package gamecert wrote (replaced whole)",
    )
    where.add_argument(
        "--check",
        default=None,
        metavar="DIR",
        help="re-run a package (possibly edited) and print its matrix; --against programs are judged as a judge "
        "does (plain builds and runs, the package's check.cpp where g++ is, else checker.py; no gamecert)",
    )
    t.add_argument(
        "--against",
        nargs="+",
        default=[],
        metavar="FILE|DIR",
        help="more wrong programs (sources in any language gamecert compiles, or folders of them)",
    )
    t.add_argument(
        "--max-tests", type=int, default=100, metavar="N", help="at most N tests (default 100)"
    )
    t.add_argument(
        "--per-family",
        type=int,
        default=None,
        metavar="N",
        help="inputs of each designed family in the plan (default 24: the first 12 and 12 spread out)",
    )
    t.add_argument(
        "--per-space",
        type=int,
        default=None,
        metavar="N",
        help="smallest inputs of each exhaustive space in the plan (default 300)",
    )
    t.add_argument(
        "--search-seconds",
        type=float,
        default=None,
        metavar="S",
        help="runs spent looking for an input that kills a wrong program the chosen tests miss (default 60)",
    )
    t.add_argument(
        "--mutant-seconds",
        type=float,
        default=None,
        metavar="S",
        help="in-process time for each mutant on the plan (default 10)",
    )
    t.add_argument(
        "--max-mutants",
        type=int,
        default=None,
        metavar="N",
        help="make at most N mutants (default: all; 0: none)",
    )
    t.add_argument(
        "--format",
        default="polygon",
        choices=["polygon", "plain", "dmoj", "kattis"],
        help="the package's layout: polygon (problem.xml, files/validator.cpp and check.cpp, the model solution, "
        "doall.sh; the default), dmoj (init.yml, the bridged testlib checker files/check.cpp), kattis (problem.yaml, "
        "data/sample and data/secret, input_validators and output_validators, as Kattis' verifyproblem and DOMjudge "
        "load it) or plain "
        "(tests/, validator.py and checker.py)",
    )
    t.add_argument(
        "--no-certify",
        action="store_true",
        help="do not run `gamecert certify --profile quick` on the wrong programs the package misses",
    )
    t.add_argument(
        "--profile",
        default=None,
        choices=[*PROFILE_KNOBS, "ci"],
        help="how hard the build looks (default: $GAMECERT_PROFILE, else default): quick "
        + "; default ".join(
            ", ".join(f"{k.replace('_', '-')} {v}" for k, v in PROFILE_KNOBS[p].items())
            for p in ("quick", "default")
        )
        + "; thorough more; an option given wins over its profile",
    )
    edits = t.add_mutually_exclusive_group()
    edits.add_argument(
        "--keep-edits",
        action="store_true",
        help="a file of the package gamecert wrote and you edited since is kept in the rebuilt package "
        "(default: the rebuild refuses and names it)",
    )
    edits.add_argument(
        "--discard-edits",
        action="store_true",
        help="a file of the package you edited is written over by gamecert's",
    )


#: ``gamecert tests --profile``: the build's knobs per profile (an option given on the command
#: line wins); ``quick`` also skips certifying the wrong programs the package misses
PROFILE_KNOBS: dict[str, dict[str, float | int | bool]] = {
    "quick": {
        "per_family": 6,
        "per_space": 60,
        "search_seconds": 10.0,
        "mutant_seconds": 2.0,
        "certify": False,
    },
    "default": {
        "per_family": 24,
        "per_space": 300,
        "search_seconds": 60.0,
        "mutant_seconds": 10.0,
        "certify": True,
    },
    "thorough": {
        "per_family": 48,
        "per_space": 1000,
        "search_seconds": 300.0,
        "mutant_seconds": 30.0,
        "certify": True,
    },
}


def apply_profile(args: argparse.Namespace) -> None:
    """Fill the knobs not given from ``--profile``, else ``$GAMECERT_PROFILE``, else default."""
    import os

    from gamecert.engine.plan.profiles import ALIASES, ENV_VAR

    name = args.profile or os.environ.get(ENV_VAR) or "default"
    name = ALIASES.get(name, name)
    if name not in PROFILE_KNOBS:
        raise UsageError(
            f"unknown profile {name!r} (from ${ENV_VAR}); choose one of {', '.join(PROFILE_KNOBS)}"
        )
    knobs = PROFILE_KNOBS[name]
    for key in ("per_family", "per_space", "search_seconds", "mutant_seconds"):
        if getattr(args, key) is None:
            setattr(args, key, knobs[key])
    if not knobs["certify"]:
        args.no_certify = True


def run_tests_command(args: argparse.Namespace) -> int:
    from gamecert.engine import registry
    from gamecert.engine.testpack import outdir
    from gamecert.engine.testpack import testpack as tp

    apply_profile(args)
    for name in ("max_tests", "per_family", "per_space"):
        if getattr(args, name) < 1:
            raise UsageError(
                f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}"
            )
    if args.max_mutants is not None and args.max_mutants < 0:
        raise UsageError(f"--max-mutants must be at least 0, got {args.max_mutants}")
    if not args.search_seconds >= 0 or not args.mutant_seconds > 0:
        raise UsageError("--search-seconds must be >= 0 and --mutant-seconds > 0")
    if not sys.platform.startswith(
        "linux"
    ):  # the runner's sandbox needs Linux (as cli.require_sandbox_platform says)
        raise UsageError(
            f"tests runs programs in gamecert's sandbox, which needs Linux; this system is {sys.platform}"
        )
    entry = registry.get(args.game)
    if args.check is None:
        least = least_tests(entry)
        if (
            args.max_tests < least
        ):  # before any work (the package's own count, with its time tests, comes later)
            raise UsageError(
                f"--max-tests {args.max_tests} is below the {least} tests every {args.game} package "
                "holds at least (its samples and one test per designed family; then its largest "
                "inputs and time tests)"
            )
    knobs = tp.Knobs(
        args.max_tests,
        args.per_family,
        args.per_space,
        args.search_seconds,
        args.mutant_seconds,
        args.max_mutants,
        not args.no_certify,
        args.format,
    )

    from gamecert.engine.testpack import testset as ts

    kept: list[str] = []
    edits = "keep" if args.keep_edits else "discard" if args.discard_edits else "refuse"
    if args.out is not None:
        out = Path(args.out).resolve()
        # before any work: a folder of the user's is refused, never emptied; an edit named
        outdir.check_out(out, edits)
    with _Live(f"tests {args.game}") as live:
        ts.ON_RUN, ts.ON_STEP = live.ran, live.counted
        try:
            if args.check is not None:
                outcome = tp.check(entry, Path(args.check), args.against, knobs, live.say)
            else:
                tmp = outdir.atomic_out(out, edits)
                try:
                    outcome = tp.build(entry, tmp, args.against, knobs, live.say)
                    kept = outdir.commit_out(tmp, out, edits)
                finally:
                    if tmp.exists():
                        import shutil

                        shutil.rmtree(tmp, ignore_errors=True)
        finally:
            ts.ON_RUN = ts.ON_STEP = None
    print(visible(_matrix(outcome), keep_newlines=True))  # (program names are the user's files)
    if args.check is None:
        for name in kept:
            print(f"kept your edit of {visible(name)} (--keep-edits), in place of gamecert's")
        print(f"package: {out}")
    return 1 if outcome.faults else 0


def least_tests(entry: Any) -> int:
    """The fewest tests a package of ``entry``'s game holds, known before any work: its distinct
    samples and one test per designed family (the largest inputs and the time tests come on top,
    once the inputs are drawn and the programs timed)."""
    from gamecert.engine.testpack.testset import families

    return len({text for text, _ in entry.game.samples}) + len(families(entry))


class _Live:
    """What a build or check tells as it goes, on stderr. To a pipe or a file: each step, one
    timestamped line. On a terminal: the steps above a live line (:class:`.screen.Live`: the step,
    its work done of the work known and the time left, the program running and its test, the
    time spent); the per-program lines are left to the live line."""

    def __init__(self, title: str) -> None:
        from gamecert.commands.screen import Live

        self.live = Live(title)
        self.clock, self.started, self.enabled = (
            self.live.clock,
            self.live.started,
            self.live.enabled,
        )

    def __enter__(self) -> _Live:
        self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.live.__exit__(*exc)

    def say(self, text: str) -> None:
        text = visible(text)  # (a program's file name may hold escape sequences)
        stamp = f"[{self.clock() - self.started:6.1f} s]"
        if not self.enabled:
            print(f"{stamp} {text}", file=sys.stderr, flush=True)
            return
        if text.startswith("  running ") or text.startswith("  judging "):
            self.live.extra = text.split()[1]
            self.live.refresh(force=True)
            return
        self.live.line(f"{stamp} {text}")
        if not text.startswith("  "):
            self.live.step(text.split(":", 1)[0])

    def ran(self, program: Any, k: int, n: int) -> None:
        self.live.extra = f"{visible(program.name)}, " + (
            f"test {k}/{n}" if n else f"{k} inputs tried"
        )
        self.live.refresh()

    def counted(self, what: str, done: int, total: int) -> None:
        self.live.counted(what, done, total)


def _matrix(o: Outcome) -> str:
    from gamecert.engine.testpack import testset as ts
    from gamecert.engine.testpack.outcome import tn
    from gamecert.engine.testpack.writeup import mutation_score, strength_line

    lines = []
    width = max([len(p.name) for p in o.programs] + [8])
    lines.append(f"{'program':<{width}}  kills  killed by")
    for p in o.programs:
        ks = o.killed(p.name, o.program_rows)
        tag = " (right)" if p.kind == "right" else ""
        shown = ", ".join(
            f"{tn(k + 1, len(o.tests))}:{o.program_rows[p.name][k]}" for k in ks[:12]
        ) + (" ..." if len(ks) > 12 else "")
        lines.append(
            f"{p.name:<{width}}  {len(ks):>5}  {shown or ('passes every test' if tag else 'SURVIVES')}{tag}"
        )
    killed, non_eq = mutation_score(o)
    lines.append(
        f"tests: {len(o.tests)}; mutation score {killed}/{non_eq} non-equivalent mutants killed; "
        f"{len(o.equivalent)} equivalent, {len(o.undecided)} undecided, of {len(o.mutant_names)}"
    )
    wrong = [p for p in o.programs if p.kind != "right"]
    lines.append(f"wrong programs killed: {len(wrong) - len(o.survivors)}/{len(wrong)}")
    for name, row in sorted(o.broken_rows.items()):
        if not any(ts.is_kill(v) for v in row):
            lines.append(f"broken solver {name}: SURVIVES")
    lines.append(f"strength: {strength_line(o)}")
    lines.extend(f"FAULT: {f}" for f in o.faults)
    return "\n".join(lines)
