"""What a finished (or interrupted) run can truthfully claim: reports and certificates.

Every claim is computed from what ran, never from what was planned: a space is "exhaustive up
to size K" only when every group of every size up to K ran to its end; a family is "complete"
only when every one of its inputs ran; a counterexample is called minimal only when every input
of the named spaces below its size ran as a whole input and passed.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamecert.engine import gamecode
from gamecert.engine.judge.audit import audit_statement
from gamecert.engine.judge.completeness import (  # noqa: F401 (evidence.left_out, as before)
    _core_of,
    _reach,
    _run_order,
    budget_to_complete,
    core_lines,
    core_reach,
    family_evidence,
    incomplete_sentence,
    left_out,
    passing_word,
    space_evidence,
    structured_evidence,
)
from gamecert.engine.judge.fault_words import (  # noqa: F401 (evidence.found_by, as before)
    _block,
    _decides_winner,
    _one_line,
    _plain,
    _read_tokens,
    failure_lines,
    fault_of,
    found_by,
    game_fault,
    sample_number,
    why_lines,
)
from gamecert.engine.judge.judge import Failure
from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.plan.plan import PHASES
from gamecert.engine.report.basis import answers_basis
from gamecert.engine.report.reports import (
    Certificate,
    FailureReport,
    Provenance,
    judge_provenance,
    timestamp,
)
from gamecert.errors import GameError, OutOfReach
from gamecert.verdict import Verdict


def minimality(outcome: Outcome | None, failure: Failure) -> str:
    """What is known about smaller inputs than ``failure``'s, in words that claim no more."""
    if (
        failure.verdict is Verdict.UB
    ):  # the plan's sweeps ran the judge's build: they show nothing of it
        outcome = None
    return minimality_of(
        outcome,
        failure.size,
        failure.shrink,
        failure.minimality,
        getattr(failure, "shrink_cut", ""),
    )


def minimality_brief(outcome: Outcome | None, failure: Failure) -> str:
    """:func:`minimality` as one short sentence for the terminal (the families it rests on are
    named in the report)."""
    return minimality_of(
        outcome,
        failure.size,
        failure.shrink,
        failure.minimality,
        getattr(failure, "shrink_cut", ""),
        brief=True,
    )


def minimality_of(
    outcome: Outcome | None,
    k: int,
    shrink: tuple[int, bool] | None,
    known: str = "",
    cut: str = "",
    brief: bool = False,
) -> str:
    """:func:`minimality` from its parts (the pytest route keeps only these of a failure);
    ``brief``: one short sentence, no family named."""
    spaces = [*space_evidence(outcome), *structured_evidence(outcome)] if outcome else []
    sizes_of = (
        {
            name: sizes
            for name, _, sizes in [*outcome.plan.spaces, *getattr(outcome.plan, "structured", ())]
        }
        if outcome
        else {}
    )

    def reaches(ev: Any) -> bool:
        """Every size of the space below k ran, and the space has sizes from k on (a space that
        stops below k is not named: the fault is not among its inputs)."""
        if ev.up_to is None:
            return False
        if ev.up_to >= k - 1:
            return True
        later = [s for s in sizes_of.get(ev.name, ()) if s > ev.up_to]
        return bool(later) and later[0] >= k

    swept = [ev for ev in spaces if reaches(ev)]
    # spaces swept only part of the way below the fault: what they do show
    partial = [ev for ev in spaces if ev.up_to is not None and not reaches(ev) and ev.inputs]
    smallest_sizes = [sizes[0] for _, _, sizes in outcome.plan.spaces if sizes] if outcome else []
    smallest = bool(smallest_sizes) and k <= min(smallest_sizes)
    finished = shrink is not None and shrink[1]
    # spaces swept below k that list one input of each class the game plays alike: a program
    # that tells the class's inputs apart (reads the piles' order) may fail on one left out
    classes = dict(getattr(outcome.plan, "one_of_each", ())) if outcome else {}
    held = [(ev.name, classes[ev.name]) for ev in swept if ev.name in classes]
    # a swept space that lists every input of its sizes: no input at all below k fails
    everything = next(
        (
            ev
            for ev in swept
            if outcome is not None and ev.name in getattr(outcome.plan, "every_input", ())
        ),
        None,
    )
    if everything is not None:
        held = []
    if brief:
        if smallest:
            return f"smallest possible: no input is smaller than size {k}"
        if everything is not None:
            return (
                f"smallest in size: every input of size < {k} ran and passed ({everything.name} "
                "lists every input of its sizes)"
            )
        if swept:
            text = (
                f"smallest in size: no input of size < {k} fails in the {len(swept)} "
                f"famil{'y' if len(swept) == 1 else 'ies'} swept below it (named in the report)"
            )
            if held:
                text = (
                    f"smallest in size within the {len(swept)} famil{'y' if len(swept) == 1 else 'ies'} "
                    f"swept below it: none of their inputs of size < {k} fails (named in the report; "
                    + (
                        f"{held[0][0]} lists one input of each {held[0][1]}"
                        if len(held) == 1
                        else f"{' and '.join(name for name, _ in held)} list one input of each "
                        "class of inputs the game plays alike"
                    )
                    + ": another input alike may fail smaller)"
                )
            if shrink is not None and not finished:  # other inputs below k were not all tried
                text += f"; shrinking stopped after {shrink[0]:,} smaller inputs: a smaller one may fail"
            return text
        if finished and shrink is not None:
            return f"locally minimal: none of the {shrink[0]:,} smaller inputs tried from it fails"
        if shrink is not None:
            return f"not shown minimal: shrinking stopped by its budget after {shrink[0]:,} smaller inputs"
        return known or "not shown minimal: no smaller input was tried"
    parts = []
    if smallest:
        parts.append(f"minimal in size: {k} is the smallest size the game's inputs have")
    elif everything is not None:
        parts.append(
            f"minimal in size: every input of size < {k} ran as a whole input and passed "
            f"({everything.name} lists every input of its sizes)"
        )
    elif swept:
        names = ", ".join(ev.name for ev in swept)
        parts.append(
            f"minimal in size within {names}: every input of size < {k} in them ran as a whole "
            "input and passed"
            + (
                " ("
                + "; ".join(f"{name} lists one input of each {what}" for name, what in held)
                + ": an input the game plays alike that they leave out may fail at a smaller size)"
                if held
                else ""
            )
        )
    if shrink is not None and not smallest and everything is None:
        tried, done = shrink
        if done:
            parts.append(
                f"{'' if parts else 'locally minimal: '}no smaller input among {tried:,} structural "
                "reductions and the game's shrinker's moves fails (every one offered from the reported "
                "input ran or had run)"
            )
        else:
            parts.append(
                f"shrinking stopped by its budget after {tried:,} smaller inputs"
                f"{f' ({cut})' if cut else ''}; a smaller failing input may exist"
            )
    if partial and not smallest:
        parts.append(
            "no smaller failing input among "
            + ", ".join(
                f"every input of {ev.name} up to size {ev.up_to} ({ev.inputs:,} inputs)"
                for ev in partial
            )
        )
    if known and not parts:
        parts.append(known)
    if not parts:
        parts.append("not shown minimal: no smaller input was tried")
    return "; ".join(parts)


def build_report(
    entry: Any,
    candidate: Any,
    failure: Failure,
    outcome: Outcome | None,
    limits: Any,
    tests_run: int,
    interrupted: bool = False,
    extra_notes: Sequence[str] = (),
    plan: Any = None,
    provenance: Provenance | None = None,
) -> FailureReport:
    """The report of ``failure``; ``provenance`` defaults to the candidate's own (built with the
    default compile command and interpreter)."""
    game = entry.game
    if plan is None:
        assert outcome is not None  # a report without an outcome is given its plan
        plan = outcome.plan
    try:
        with gamecode.section(game.name, "explain()"):
            explanation = game.explain(failure.instance).describe()
    except OutOfReach as exc:
        explanation = (
            f"(no explanation: {exc}; the expected answer comes from {failure.expected_source})"
        )
    except (
        GameError
    ) as exc:  # the fault stands (explain() is not asked for the verdict): kept, and said
        explanation = f"(no explanation: {exc})"
    result = failure.result
    notes = [*failure.notes, *extra_notes]
    if outcome is not None:
        notes += outcome.notes
        notes += [f"not finished within the budget: {what}" for what in outcome.unfinished]
    if failure.expected_source:
        notes.append(f"expected answer from {failure.expected_source}")
    if failure.reruns is not None:
        failed, runs = failure.reruns
        notes.append(f"re-run {runs} times {failure.rerun_where}: failed {failed} of {runs}")
    return FailureReport(
        game=game.name,
        candidate=candidate.name,
        candidate_spec=candidate_spec_for_replay(candidate),
        verdict=failure.verdict.value,
        verdict_meaning=failure.verdict.meaning,
        input=failure.input_text,
        expected=failure.expected_text,
        got=failure.got_text,
        reason=failure.reason,
        seed=plan.seed,
        profile=plan.profile.name,
        phase=failure.phase,
        size=failure.size,
        explanation=explanation,
        created=timestamp(),
        minimality=minimality(outcome, failure),
        stderr_tail=getattr(result, "stderr_tail", "") or "",
        exit_code=getattr(result, "exit_code", None),
        signal=getattr(result, "signal", None),
        wall_s=_round(getattr(result, "wall_s", None)),
        cpu_s=_round(getattr(result, "cpu_s", None)),
        max_rss_mb=_round(getattr(result, "max_rss_mb", None)),
        time_limit_s=limits.time_s,
        memory_limit_mb=limits.memory_mb,
        tests_run=tests_run,
        interrupted=interrupted,
        notes=tuple(notes),
        provenance=provenance if provenance is not None else Provenance.of(candidate),
        games_env=_games_env(entry),
        diagnosis=dict(failure.diagnosis or {}),
        fault=fault_of(game, failure),
        found_by=found_by(game, failure, sized=False),
        reproduce=reproduce_command(candidate),
    )


def reproduce_command(candidate: Any, input_file: str = "input.in") -> str:
    """The plain command that runs the program on the report's input, from the report's folder:
    ``python3 /path/wrong.py < input.in``, the built binary's command for a compiled language, the
    command line as given ("" for a registered solver, which runs in-process)."""
    argv = getattr(candidate, "argv", None)
    if not argv:
        return ""
    python_file = getattr(candidate, "python_file", None)
    if (
        python_file
        and getattr(candidate, "language", "") == "python"
        and Path(argv[0]).name.startswith("python")
    ):
        argv = ("python3", *argv[1:])
    return f"{shlex.join(argv)} < {input_file}"


def _games_env(entry: Any) -> str:
    """``GAMECERT_GAMES`` with its folders made absolute, for a game from a games folder."""
    import os

    from gamecert.engine.registry import ENV_VAR

    if "games folder" not in getattr(entry, "source", ""):
        return ""
    folders = [
        str(Path(p).expanduser().resolve())
        for p in os.environ.get(ENV_VAR, "").split(os.pathsep)
        if p.strip()
    ]
    return os.pathsep.join(folders)


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def candidate_spec_for_replay(candidate: Any) -> str:
    """The candidate's spec with a path made absolute, so replay works from any directory."""
    python_file = getattr(candidate, "python_file", None)
    if python_file:
        return str(Path(python_file).resolve())
    path = Path(candidate.spec).expanduser()
    if path.exists():
        return str(path.resolve())
    argv = getattr(candidate, "argv", None)
    return shlex.join(argv) if argv else candidate.spec


def build_certificate(
    entry: Any,
    candidate: Any,
    outcome: Outcome,
    limits: Any,
    notes: Sequence[str] = (),
    provenance: Provenance | None = None,
) -> Certificate:
    """The certificate of a run that found nothing (see :func:`build_report` for ``provenance``)."""
    stats = outcome.stats
    plan = outcome.plan
    left = () if outcome.interrupted else left_out(outcome)
    return Certificate(
        game=entry.game.name,
        candidate=candidate.name,
        candidate_spec=candidate_spec_for_replay(candidate),
        seed=plan.seed,
        profile=plan.profile.name,
        samples=stats.samples,
        exhaustive=space_evidence(outcome),
        random_examples=stats.random_examples,
        largest_sizes=tuple(stats.largest_sizes),
        tests=stats.tests,
        runs=stats.runs,
        elapsed_s=round(stats.elapsed, 3),
        slowest_s=round(stats.slowest_cpu_s, 4),
        slowest_what=stats.slowest_what,
        time_limit_s=limits.time_s,
        memory_limit_mb=limits.memory_mb,
        created=timestamp(),
        interrupted=outcome.interrupted,
        notes=tuple([*core_lines(outcome), *notes, *outcome.notes, *_not_reproduced(stats)]),
        families=family_evidence(outcome),
        budget_s=None if plan.by_counts else plan.budget_s,
        jobs=outcome.jobs,
        cut_phases=tuple(sorted(outcome.cut, key=_run_order)),
        audits=stats.audits,
        audit_line=audit_statement(stats),
        skipped_phases=tuple(p for p in PHASES if plan.phase(p) is None),
        provenance=provenance if provenance is not None else Provenance.of(candidate),
        random_inputs=stats.random_inputs,
        judged_by=dict(stats.judged_by),
        solvers=tuple(sorted(entry.solvers)),
        answers_rest_on=answers_basis(entry),
        left_out=left,
        incomplete=incomplete_sentence(left, budget_to_complete(outcome), plan.by_counts)
        if left
        else "",
    )


__all__ = [
    "budget_to_complete",
    "core_lines",
    "core_reach",
    "build_certificate",
    "build_report",
    "candidate_spec_for_replay",
    "family_evidence",
    "incomplete_sentence",
    "left_out",
    "minimality",
    "space_evidence",
]


def compile_error_report(
    entry: Any,
    exc: Any,
    *,
    seed: int,
    profile: str,
    limits: Any,
    compile_option: str | None = None,
    python_option: str | None = None,
) -> FailureReport:
    """The CE report of a source that did not compile (``exc``, a CompileError): empty input,
    the compiler's message as its stderr, the source's sha256 and the command that failed."""
    import hashlib

    from gamecert.engine.run.sandbox import _safe_name
    from gamecert.engine.run.toolchains import language_of

    source = Path(exc.source)
    command = shlex.join(exc.command) if exc.command else "(none)"
    try:
        source_sha = hashlib.sha256(source.read_bytes()).hexdigest()
    except OSError:
        source_sha = ""
    provenance = Provenance(
        language=language_of(source) or "",
        source=str(source),
        source_sha256=source_sha,
        compile_command=shlex.join(exc.command) if exc.command else "",
        compile_option=compile_option or "",
        python_option=python_option or "",
        **judge_provenance(),
    )
    return FailureReport(
        game=entry.game.name,
        candidate=_safe_name(source.stem),
        candidate_spec=str(source),
        verdict=Verdict.CE.value,
        verdict_meaning=Verdict.CE.meaning,
        input="",
        expected="",
        got="",
        reason=f"{exc}",
        seed=seed,
        profile=profile,
        phase="compile",
        size=0,
        explanation="(the candidate did not compile; no input was run)",
        created=timestamp(),
        stderr_tail=exc.output,
        time_limit_s=limits.time_s,
        memory_limit_mb=limits.memory_mb,
        notes=(f"compile command: {command}",),
        provenance=provenance,
    )


def _not_reproduced(stats: Any) -> list[str]:
    """Certificate notes for faults seen once that never reproduced as a judge runs the program."""
    seen = list(getattr(stats, "not_reproduced", []) or [])
    return [f"not counted (did not reproduce as a judge runs the program): {line}" for line in seen]
