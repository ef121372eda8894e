"""What a certification says as it runs: a line for each phase as it ends (what ran, and
whether the budget cut it, Ctrl-C stopped it or it failed), a cut phase's line held until it is
resumed, and the live progress handed to the front end's display."""

from __future__ import annotations

from collections.abc import Callable, Set
from typing import Any

from gamecert.engine.judge import guided_phase
from gamecert.engine.judge.evidence import found_by
from gamecert.engine.judge.judge import Failure
from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.plan.plan import PHASES

Say = Callable[[str], None]


class _Lines:
    """The lines of one certification: kept for its result, and handed to ``say`` as they come."""

    def __init__(self, say: Say | None) -> None:
        self.say = say
        self.lines: list[str] = []

    def __call__(self, text: str = "") -> None:
        self.lines.append(text)
        if self.say is not None:
            self.say(text)


class _NoDisplay:
    def __enter__(self) -> _NoDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def phase(self, name: str, deadline: float | None) -> None: ...
    def advance(self, tests: int) -> None: ...
    def event(self, text: str) -> None: ...


class _Progress:
    """What the executor tells: the live progress to the front end's display, and a line for
    each phase as it ends (and for a fault as soon as it is seen) to the certification's lines."""

    #: phases the executor may go on with after the budget cut them (before the random phase)
    RESUMABLE = ("coverage", "worst", "exhaustive")

    def __init__(self, display: Any, out: _Lines, game: Any = None) -> None:
        self.display, self.out, self.game = display, out, game
        self.reported: set[str] = set()  # phases whose line is already out
        #: a cut phase's line, held until it is resumed (one line per phase, the last word)
        self.held: dict[str, str] = {}

    def phase(self, name: str, deadline: float | None) -> None:
        if self.held and name in ("random", "largest"):  # the cut phases are not resumed after this
            self._release()
        self.display.phase(name, deadline)

    def advance(self, tests: int) -> None:
        self.display.advance(tests)

    def event(self, text: str) -> None:
        self.display.event(text)

    def phase_done(self, outcome: Outcome, name: str) -> None:
        line = phase_line(outcome, name, self.game)
        if not line or name in self.reported:
            return
        if name in outcome.cut and name in self.RESUMABLE and name not in self.held:
            self.held[name] = line  # it may go on before the random phase: its line waits
            return
        self.held.pop(name, None)
        self.reported.add(name)
        self.out(line)

    def _release(self) -> None:
        for name, line in list(self.held.items()):
            self.held.pop(name)
            if name not in self.reported:
                self.reported.add(name)
                self.out(line)

    def flush(self, outcome: Outcome) -> None:
        """At the end: the held lines of cut phases never resumed, and, when nothing failed, a line
        for each phase the budget cut before it started."""
        self._release()
        if outcome.failures:
            return
        for name in PHASES:
            if name in outcome.cut and name not in self.reported:
                line = phase_line(outcome, name, self.game)
                if line:
                    self.reported.add(name)
                    self.out(line)

    def sweeping(self, outcome: Outcome, failure: Failure) -> None:
        self._release()
        self.reported.add(failure.phase)
        self.out(
            f"  {failure.phase:<11} {fail_status(self.game, failure)}; sweeping smaller inputs for a minimal one"
        )


def phase_lines(
    outcome: Outcome,
    only_failed: bool = False,
    skip: Set[str] = frozenset(),
    game: Any = None,
) -> list[str]:
    """One line per phase that ran: what ran, and whether the budget cut it short or it failed."""
    failed = {f.phase for f in outcome.failures}
    lines = []
    for phase in PHASES:
        if (only_failed and phase not in failed) or phase in skip:
            continue
        line = phase_line(outcome, phase, game)
        if line:
            lines.append(line)
    return lines


def fail_status(game: Any, failure: Failure) -> str:
    """FAIL, the verdict and where: a sample by its number and text, else the size."""
    where = found_by(game, failure) if game is not None else failure.phase
    if where.startswith("sample "):
        return f"FAIL ({failure.verdict}) on {where}"
    return f"FAIL ({failure.verdict}) at size {failure.size}"


def phase_line(outcome: Outcome, phase: str, game: Any = None) -> str:
    """What ``phase`` ran, in a few words, and how it ended ("" if it did not run)."""
    from gamecert.engine.judge.evidence import family_evidence, space_evidence

    stats = outcome.stats
    failed = {f.phase: f for f in sorted(outcome.failures, key=Failure.sort_key, reverse=True)}
    groups = [g for g in outcome.groups if g.phase == phase]
    if not groups and phase not in outcome.cut:
        return ""
    if phase in failed:
        status = fail_status(game, failed[phase])
    elif phase in outcome.cut:
        status = "stopped by the interrupt" if outcome.interrupted else "cut short by the budget"
    else:
        status = "ok"
    tests = stats.by_phase.get(phase, 0)
    if phase in ("coverage", "worst"):
        fams = [f for f in family_evidence(outcome) if f.phase == phase]
        whole = sum(f.complete for f in fams)
        what = f"{len(fams)} families, {whole} complete, {tests} tests"
    elif phase == "exhaustive":  # a fault's line names what was swept, never what was not
        what = "; ".join(
            ev.describe()
            for ev in space_evidence(outcome)
            if phase not in failed or ev.up_to is not None
        )
    elif phase == "random":
        counted = (
            f"{stats.random_examples} Hypothesis examples"
            if stats.random_inputs == stats.random_examples
            else f"{stats.random_examples} games in {stats.random_inputs} Hypothesis examples"
        )
        what = f"{counted}, seed {outcome.plan.seed}" + (
            "" if outcome.plan.random_fixed else " (as many as the time allowed)"
        )
        if not stats.random_inputs and status == "ok":  # no evidence: never "ok" beside a verdict
            what, status = "none run", "no time was left for it"
    elif phase == "guided":
        what = f"{tests} tests on the instrumented build, steered by its coverage and comparisons"
        if status == "ok" and any(note.startswith(guided_phase.STOPPED) for note in outcome.notes):
            status = "stopped on an internal error (the notes say which)"
    elif phase == "largest":
        what = (
            f"{len(stats.largest_sizes)} inputs at sizes {', '.join(map(str, stats.largest_sizes))}"
            if stats.largest_sizes
            else "none run"
        )
    else:
        what = f"{stats.samples}" if phase not in failed else ""
    if status == "ok" and not tests and phase in ("coverage", "worst", "exhaustive", "largest"):
        status = "ran no test: no evidence"  # never "ok" beside a verdict without a test run
    return f"  {phase:<11} {what}: {status}" if what else f"  {phase:<11} {status}"
