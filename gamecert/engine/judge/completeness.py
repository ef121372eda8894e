"""What a run's evidence is complete for: each exhaustive space's reach, each designed family
run whole or not, the certification core and the depth beyond it, and what of the plan was left
out (an empty list is the only ground for CERTIFIED), with the budget that would complete it."""

from __future__ import annotations

import math
from collections.abc import Sequence

from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.plan.plan import PHASES
from gamecert.engine.report.reports import FamilyEvidence, SpaceEvidence
from gamecert.verdict import CERTIFIED, INCOMPLETE


def space_evidence(outcome: Outcome) -> tuple[SpaceEvidence, ...]:
    """For each exhaustive space, the largest size K such that every size up to K ran whole."""
    return _evidence(outcome, False)


def structured_evidence(outcome: Outcome) -> tuple[SpaceEvidence, ...]:
    """For each deciding-feature family, the largest size K such that every size up to K ran: at
    every size when the coverage phase ran it whole, else size by size as the sweep below a fault
    ran it."""
    if not getattr(outcome.plan, "structured", ()):
        return ()
    return _evidence(outcome, True)


def _evidence(outcome: Outcome, structured: bool) -> tuple[SpaceEvidence, ...]:
    done: dict[tuple[str, int], bool] = {}
    counts: dict[tuple[str, int], int] = {}
    for g in outcome.groups:
        if g.phase == "exhaustive" and g.size is not None:
            for name, n in g.space_counts:
                done[name, g.size] = done.get((name, g.size), False) or g.completed
                counts[name, g.size] = n
    whole = {
        g.key.split("-", 1)[1]: g for g in outcome.groups if g.phase == "coverage" and g.completed
    }
    out = []
    for name, description, sizes in outcome.plan.structured if structured else outcome.plan.spaces:
        if structured and name in whole:
            out.append(
                SpaceEvidence(
                    name, description, sizes[-1] if sizes else None, whole[name].runs, bool(sizes)
                )
            )
            continue
        up_to, count = None, 0
        for size in sizes:
            if not done.get((name, size), False):
                break
            up_to = size
            count += counts.get((name, size), 0)
        complete = bool(sizes) and up_to == sizes[-1]
        out.append(
            SpaceEvidence(name, description, up_to, count, complete, outcome.plan.size_measure)
        )
    return tuple(out)


def family_evidence(outcome: Outcome) -> tuple[FamilyEvidence, ...]:
    return tuple(
        FamilyEvidence(
            g.phase, g.key.split("-", 1)[1], g.label, g.runs, g.runs_done, g.completed, g.adversary
        )
        for g in outcome.groups
        if g.phase in ("coverage", "worst") and not g.depth
    )


def core_reach(outcome: Outcome, name: str) -> int | None:
    """The size up to which the exhaustive space ``name`` must be swept whole for CERTIFIED: the
    certification core's reach, else the space's declared reach (None: no size)."""
    sizes = next((sizes for n, _, sizes in outcome.plan.spaces if n == name), ())
    inner = outcome.plan.core_reach(name, tuple(sizes)) if hasattr(outcome.plan, "core") else sizes
    return inner[-1] if inner else None


def core_lines(outcome: Outcome) -> tuple[str, ...]:
    """What a plan with a certification core states: the core (and whether it completed), then
    the depth reached beyond it: each exhaustive space's reach and inputs, the families' rest."""
    plan = outcome.plan
    core = getattr(plan, "core", None)
    if core is None:
        return ()
    capped = [
        f"{name} first {cap:,}"
        for name, cap in core.families.items()
        if any(
            g.key.endswith(f"-{name}") and g.phase in ("coverage", "worst") for g in outcome.groups
        )
    ]
    reaches = [
        f"{name} to size {reach}"
        for name, _, sizes in plan.spaces
        for reach in [core_reach(outcome, name)]
        if reach is not None
    ]
    done = "completed" if not left_out(outcome) else "not completed"
    what = "the samples, every worst case, the largest inputs, every coverage family whole"
    if capped:
        what += f" (of {', '.join(capped)})"
    if reaches:
        what += f", exhaustive {', '.join(reaches)}"
    lines = [f"certification core ({plan.profile.name} profile), {done}: {what}"]
    if core.reason:
        lines.append(f"the core's reason (the game's author): {core.reason}")
    depth = []
    for ev in space_evidence(outcome):
        reach = core_reach(outcome, ev.name)
        if ev.up_to is not None and (reach is None or ev.up_to > reach):
            unit = f" {ev.measure}" if ev.measure else ""
            depth.append(f"exhaustive {ev.name} to {ev.up_to}{unit} ({ev.inputs:,} inputs)")
    for g in outcome.groups:
        if not g.depth or not g.runs_done:
            continue
        if g.phase == "exhaustive" and not g.completed:  # the size the depth stopped in
            name = g.spaces[0] if g.spaces else "exhaustive"
            depth.append(f"{name} size {g.size}: {g.runs_done:,} of {g.runs:,} inputs")
        elif g.phase != "exhaustive":
            whole = "whole" if g.completed else f"{g.runs_done:,} of {g.runs:,} inputs"
            depth.append(f"{g.key.split('-', 1)[1].removesuffix('-beyond-core')}'s rest {whole}")
    lines.append(
        "depth beyond the core: " + ("; ".join(depth) if depth else "none (the core took the time)")
    )
    return tuple(lines)


def left_out(outcome: Outcome) -> tuple[str, ...]:
    """What of the plan did not run to its end, one phrase per phase ("" nowhere: an empty tuple
    is complete evidence, the only ground for CERTIFIED): designed families (coverage, worst
    cases) not run whole, exhaustive spaces short of their declared reach, phases the budget cut
    or ``--phases`` left out, sanitizer runs of a C or C++ program its time left out. The random
    phase by time is endless: its end is the plan's."""
    plan = outcome.plan
    out = []
    skipped = [p for p in PHASES if plan.phase(p) is None]
    if skipped:
        out.append(f"{', '.join(skipped)} (left out with --phases)")
    for phase, title in (("coverage", "coverage"), ("worst", "worst cases")):
        if phase in skipped:
            continue
        fams = [f for f in family_evidence(outcome) if f.phase == phase]
        short = [f for f in fams if not f.complete]
        if short:
            out.append(f"{title} ({len(fams) - len(short)} of {len(fams)} families whole)")
        elif phase in outcome.cut and plan.phase(phase) is not None:
            out.append(title)
    spaces = space_evidence(outcome) if "exhaustive" not in skipped else ()
    short_spaces = [
        ev
        for ev in spaces
        if not ev.complete and (ev.up_to is None or ev.up_to < (core_reach(outcome, ev.name) or 0))
    ]
    if short_spaces:
        out.append(
            "exhaustive ("
            + ", ".join(
                f"{ev.name} {'not swept' if ev.up_to is None else f'up to size {ev.up_to} of {_core_of(outcome, ev.name)}'}"
                for ev in short_spaces
            )
            + ")"
        )
    elif (
        "exhaustive" in outcome.cut and plan.phase("exhaustive") is not None and not plan.by_counts
    ):
        out.append("exhaustive")
    if "largest" in outcome.cut and plan.phase("largest") is not None:
        out.append("largest")
    if "random" in outcome.cut and plan.random_fixed and plan.phase("random") is not None:
        out.append("random")
    if (
        "sanitizer" in outcome.cut
    ):  # (C and C++: runs under the sanitizer builds its time cap left out)
        out.append("sanitizer runs (cut at the phase's time)")
    return tuple(out)


def _run_order(phase: str) -> int:
    """Where ``phase`` runs: the plan's phases in order, the sanitizer phase after the guided one."""
    order = (
        *PHASES[: PHASES.index("guided") + 1],
        "sanitizer",
        *PHASES[PHASES.index("guided") + 1 :],
    )
    return order.index(phase) if phase in order else len(order)


def _core_of(outcome: Outcome, name: str) -> str:
    """The size CERTIFIED needs of space ``name``: "13 (the core; 40 in all)" or the reach."""
    reach = core_reach(outcome, name)
    whole = _reach(outcome, name)
    if reach is None:
        return whole
    return str(reach) if str(reach) == whole else f"{reach} (the core; {whole} in all)"


def _reach(outcome: Outcome, name: str) -> str:
    sizes = next((sizes for n, _, sizes in outcome.plan.spaces if n == name), ())
    return str(sizes[-1]) if sizes else "?"


def passing_word(outcome: Outcome) -> str:
    """A run that found nothing: CERTIFIED on the plan's complete evidence, else PASSED (incomplete)."""
    return INCOMPLETE if left_out(outcome) else CERTIFIED


def budget_to_complete(outcome: Outcome) -> float | None:
    """The budget (seconds) that would let every designed phase the budget cut end, at this run's
    speed (the largest of :attr:`Outcome.budget_wanted`); None when not measured."""
    wanted = [s for s in outcome.budget_wanted.values() if s]
    return max(wanted) if wanted else None


def incomplete_sentence(
    left: Sequence[str], budget_s: float | None, by_counts: bool = False
) -> str:
    """One sentence: what was left out and what budget would complete it.

    >>> print(incomplete_sentence(["coverage (0 of 6 families whole)", "largest"], 2462.3))
    left out: coverage (0 of 6 families whole), largest; a budget of about 2,463 s would complete it (--budget 2463), at this run's speed
    """
    text = "left out: " + ", ".join(left)
    if budget_s is not None:
        seconds = math.ceil(budget_s)
        what = (
            "the phases run"
            if any(part.endswith("(left out with --phases)") for part in left)
            else "it"
        )
        return (
            text
            + f"; a budget of about {seconds:,} s would complete {what} (--budget {seconds}), at this run's speed"
        )
    if by_counts:
        return (
            text
            + "; the plan by counts stopped there (a larger --exhaustive-runs or profile goes further)"
        )
    return text + "; a larger --budget goes further"
