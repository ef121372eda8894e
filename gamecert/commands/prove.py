"""``gamecert prove GAME|all [--plot-dir DIR]``: check every claim a game's proofs module states.

Each claim is printed with its evidence level (bounded: which range; exhaustive: which family;
all sizes: which argument) and the time it took. A check that raises or hangs is a GAME ERROR
line naming the game's file, function and line (the traceback goes to a file), and the next
claim is checked; the exit status is then 2. A game that does not load (unfinished, broken,
incomplete) gets one line and the others are proved. Exit status: 2 if a game did not load or
on a usage error (unknown game, unwritable plot directory); otherwise 1 if a claim is refuted
(with the first index where it breaks) or could not be established, 0 if every claim holds.

A proofs module may also define ``PLOTS``: callables returning a
:class:`gamecert.kit.plots.SequencePlot`, drawn when ``--plot-dir`` is given.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from gamecert.commands.screen import echo
from gamecert.errors import GamecertError, GameError, UsageError
from gamecert.kit.claims import Claim, ClaimRefuted, Evidence

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
#: the outcome of a claim whose check raised or hung (the game author's code): exit 2, not 1
GAME_ERROR = "GAME ERROR"
#: a claim's check may take this many times the limit of one call into game code
CLAIM_SECONDS_FACTOR = 10


@dataclass(frozen=True)
class ClaimOutcome:
    """One checked claim: ``status`` is ``holds``, ``REFUTED`` or ``NOT ESTABLISHED``."""

    game: str
    claim: Claim
    status: str
    seconds: float
    evidence: Evidence | None = None
    index: object = None
    detail: str = ""

    @property
    def holds(self) -> bool:
        return self.status == "holds"

    def describe(self) -> str:
        head = f"[{self.status}] {self.claim.name} ({self.seconds:.2f} s)"
        if self.evidence is not None:
            return f"{head}\n      {self.evidence.describe()}"
        if self.status == "REFUTED":
            return f"{head}\n      fails first at {self.index}: {self.detail}"
        return f"{head}\n      {self.detail}"


def check_claim(game: str, claim: Claim) -> ClaimOutcome:
    """Check one claim, timing it; a refutation or a failure to establish becomes an outcome."""
    from gamecert.engine import gamecode

    start = time.perf_counter()
    try:
        # a claim's check is game code: an exception or a hang there is named, and the next claim runs
        with gamecode.section(
            game,
            f"the check of claim {claim.name!r}",
            CLAIM_SECONDS_FACTOR * gamecode.game_seconds(),
        ):
            evidence = claim()
    except ClaimRefuted as exc:
        return ClaimOutcome(
            game, claim, "REFUTED", time.perf_counter() - start, index=exc.index, detail=exc.detail
        )
    except GameError as exc:
        return ClaimOutcome(game, claim, GAME_ERROR, time.perf_counter() - start, detail=str(exc))
    except GamecertError as exc:
        return ClaimOutcome(
            game, claim, "NOT ESTABLISHED", time.perf_counter() - start, detail=str(exc)
        )
    if not isinstance(evidence, Evidence):
        raise UsageError(
            f"claim {claim.name!r} of {game} returned {type(evidence).__name__}, not Evidence"
        )
    if claim.level is not None and evidence.level != claim.level:
        return ClaimOutcome(
            game,
            claim,
            "NOT ESTABLISHED",
            time.perf_counter() - start,
            detail=(
                f"the claim states evidence '{claim.level}' but its check gave '{evidence.describe()}'"
            ),
        )
    return ClaimOutcome(game, claim, "holds", time.perf_counter() - start, evidence=evidence)


def check_claims(
    game: str,
    claims: Iterable[Claim],
    echo: Callable[[str], None] | None = None,
    starting: Callable[[Claim], None] | None = None,
) -> list[ClaimOutcome]:
    """Check each claim in turn (``starting(claim)`` told before each), ``echo`` its outcome."""
    outcomes = []
    for claim in claims:
        if starting is not None:
            starting(claim)
        outcome = check_claim(game, claim)
        if echo:
            echo("  " + outcome.describe())
        outcomes.append(outcome)
    return outcomes


def _plot_dir(path: str) -> str:
    import tempfile

    if not path.strip():
        raise UsageError("--plot-dir is empty; give a directory")
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError(f"--plot-dir {path}: it is a file, not a directory")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--plot-dir {path}: cannot create it: {exc.strerror}") from None
    try:  # os.access says yes to root even on a read-only file system: try it
        fd, probe = tempfile.mkstemp(prefix=".gamecert-probe-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"--plot-dir {path}: not writable: {exc.strerror}") from None
    return path


def prove_command(args: argparse.Namespace) -> int:
    from gamecert.engine import registry

    plot_dir = _plot_dir(args.plot_dir) if getattr(args, "plot_dir", None) is not None else None
    from gamecert.commands.screen import Live

    entries, problems = registry.load_all(args.game)
    total_start = time.perf_counter()
    outcomes: list[ClaimOutcome] = []
    total = sum(len(e.claims) for e in entries)
    # on a terminal, a live line: the claim being checked, the claims checked of all, the time left
    with Live(f"prove {args.game}") as live:

        def starting(game: str, claim: Claim) -> None:
            live.doing = (
                claim.name if claim.name.startswith(f"{game}:") else f"{game}: {claim.name}"
            )
            live.counted(
                "claims checked", len(outcomes) + checked[0], total
            )  # one count: the time left from all
            checked[0] += 1

        checked = [0]
        for item in sorted([*entries, *problems], key=lambda item: item.name):  # type: ignore[attr-defined]  # (an Entry or a Problem: each has a name)
            if isinstance(item, registry.Problem):
                echo(item.describe())  # one line, then on with the other games
            else:
                checked[0] = 0
                outcomes += _prove_game(item, plot_dir, starting)
    bad = [o for o in outcomes if not o.holds]
    held = len(outcomes) - len(bad)
    echo(f"{held} of {len(outcomes)} claims hold ({time.perf_counter() - total_start:.2f} s)")
    for o in bad:
        where = f" at {o.index}" if o.status == "REFUTED" else ""
        echo(f"{o.status}{where}: {o.claim.name} ({o.game})")
    if problems:
        echo(
            f"not proved: {len(problems)} game{'s' if len(problems) != 1 else ''} did not load "
            f"({', '.join(p.name for p in problems)})"
        )
        return EXIT_USAGE
    if any(o.status == GAME_ERROR for o in bad):
        return EXIT_USAGE  # a claim's own code failed: the game author's mistake, not a refutation
    return EXIT_FOUND if bad else EXIT_OK


def _prove_game(
    entry: Any,
    plot_dir: str | None,
    starting: Callable[[str, Claim], None] = lambda game, claim: None,
) -> list[ClaimOutcome]:
    """Check one game's claims, printing each, and draw its plots into ``plot_dir`` if given."""
    from gamecert.kit.plots import write_plot

    claims = entry.claims
    echo(f"{entry.name}: {len(claims)} claim{'s' if len(claims) != 1 else ''}")
    if not claims:
        echo("  (no claims stated)")
    game_start = time.perf_counter()
    outcomes = check_claims(
        entry.name, claims, echo=echo, starting=lambda claim: starting(entry.name, claim)
    )
    echo(f"  {entry.name}: {time.perf_counter() - game_start:.2f} s")
    if plot_dir is not None:
        for make in getattr(entry.proofs, "PLOTS", ()):
            try:
                _, line = write_plot(make(), plot_dir)
            except GamecertError as exc:
                line = f"plot skipped: {exc}"
            except OSError as exc:  # the directory went away or filled up meanwhile
                line = f"plot skipped: cannot write into {plot_dir}: {exc.strerror or exc}"
            echo(f"  {line}")
    return outcomes
