"""What a finished (or interrupted) run can truthfully claim: reports and certificates.

Every claim is computed from what ran, never from what was planned: a space is "exhaustive up
to size K" only when every group of every size up to K ran to its end; a family is "complete"
only when every one of its inputs ran; a counterexample is called minimal only when every input
of the named spaces below its size ran as a whole input and passed.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamecert.engine import gamecode
from gamecert.engine.judge.audit import audit_statement
from gamecert.engine.judge.judge import Failure, visible
from gamecert.engine.judge.outcome import Outcome
from gamecert.engine.plan.plan import PHASES
from gamecert.engine.report.reports import (
    Certificate,
    FailureReport,
    FamilyEvidence,
    Provenance,
    SpaceEvidence,
    judge_provenance,
    timestamp,
)
from gamecert.errors import GameError, OutOfReach
from gamecert.kit.game import Game
from gamecert.verdict import CERTIFIED, INCOMPLETE, Verdict


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
        if g.phase in ("coverage", "worst")
    )


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
    short_spaces = [ev for ev in spaces if not ev.complete]
    if short_spaces:
        out.append(
            "exhaustive ("
            + ", ".join(
                f"{ev.name} {'not swept' if ev.up_to is None else f'up to size {ev.up_to} of {_reach(outcome, ev.name)}'}"
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
    if brief:
        if smallest:
            return f"smallest possible: no input is smaller than size {k}"
        if swept:
            text = (
                f"smallest in size: no input of size < {k} fails in the {len(swept)} "
                f"famil{'y' if len(swept) == 1 else 'ies'} swept below it (named in the report)"
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
    elif swept:
        names = ", ".join(ev.name for ev in swept)
        parts.append(
            f"minimal in size within {names}: every input of size < {k} in them ran as a whole "
            "input and passed"
        )
    if shrink is not None and not smallest:
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
        notes=tuple([*notes, *outcome.notes, *_not_reproduced(stats)]),
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
        left_out=left,
        incomplete=incomplete_sentence(left, budget_to_complete(outcome), plan.by_counts)
        if left
        else "",
    )


__all__ = [
    "budget_to_complete",
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


def game_fault(game: Game, instance: Any, expected_text: str, got_text: str) -> str:
    """The fault at the game's level, one line: the first token of the output that differs from
    the expected answer's and what it stands for in the game, e.g. "the winner: expected Second,
    got First" ("" when the tokens do not differ, or the expected answer cannot be read).

    A token is called the winner when the game calls it so ("the winner of game 2 of 3"), or
    when it is a choice of words that decides :meth:`Game.first_player_wins` on the game's samples
    and the expected answer (First/Second, Alice/Bob, YES/NO); any other token is named by the
    game's description of it, as a difference, not as the fault (the judge's reason says that).
    """
    from gamecert.kit.tokens import split_tokens

    want, got = split_tokens(expected_text or ""), split_tokens(got_text or "")
    k = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
    if k >= len(want) and k >= len(got):
        return ""
    if k >= len(want):
        return f"an extra token after the answer: token {k + 1}, {_plain(got[k])}"
    read = _read_tokens(game, expected_text, instance)
    if read is None or k >= len(read):
        return ""
    _, what, choices = read[k]
    if k >= len(got):
        return f"the output ends before token {k + 1} ({what}): expected {want[k]}"
    if "winner" in what.lower():
        return f"{what}: expected {want[k]}, got {_plain(got[k])}"
    if (
        choices
        and got[k] in choices
        and _decides_winner(game, instance, expected_text, k, want[k], got[k])
    ):
        return f"the winner: expected {want[k]}, got {got[k]}"
    return f"the first token that differs, token {k + 1} ({what}): expected {want[k]}, got {_plain(got[k])}"


def _plain(token: str) -> str:
    """A token as it is when plain and short, else quoted with its escapes."""
    from gamecert.kit.tokens import SHOWN_CHARS, shown

    return (
        token
        if token.isprintable() and len(token) <= SHOWN_CHARS and "'" not in token
        else shown(token)
    )


def _read_tokens(game: Game, text: str, instance: Any) -> list[tuple[int, str, Any]] | None:
    """What each token of ``text`` stands for, as the game's parse_answer reads it (None if it
    cannot be read: the game's own answer always can)."""
    from gamecert.kit.tokens import recording

    with recording() as read:
        try:
            game.parse_answer(text, instance)
        except Exception:  # noqa: BLE001 - a game's reader that fails here only loses the naming
            return None
    return read


def _decides_winner(
    game: Game, instance: Any, expected_text: str, k: int, want: str, got: str
) -> bool:
    """Token ``k`` (a choice of words) tells who wins: over the game's samples and the expected
    answer (single games only), its words ``want`` and ``got`` go with different outcomes."""
    seen: dict[str, set[bool]] = {}
    pairs: list[tuple[Any, str]] = [(instance, expected_text)]
    for text, answer in getattr(game, "samples", ()):
        try:
            pairs.append((game.parse_input(text), answer))
        except Exception:  # noqa: BLE001 - a bad sample is the plan's to report, not this naming's
            continue
    from gamecert.kit.tokens import split_tokens

    for inst, text in pairs:
        try:
            if len(game.split(inst)) != 1:
                continue
            tokens = split_tokens(text)
            if k < len(tokens):
                seen.setdefault(tokens[k], set()).add(
                    bool(game.first_player_wins(game.parse_answer(text, inst)))
                )
        except Exception:  # noqa: BLE001 - as above: only the naming is lost
            continue
    a, b = seen.get(want, set()), seen.get(got, set())
    return len(a) == 1 and len(b) == 1 and a != b


def sample_number(game: Game, text: str) -> int | None:
    """Which of the game's samples ``text`` is (1-based), or None."""
    for number, (sample, _answer) in enumerate(getattr(game, "samples", ()), 1):
        if sample == text or sample.strip() == text.strip():
            return number
    return None


def found_by(game: Game, failure: Failure, sized: bool = True) -> str:
    """Where the fault was found, as the user knows it: a sample by its number and text
    ("sample 2 (`abcde`), shrunk to size 4"; not ``sized``: "shrinking sample 2 (`abcde`)"), else
    the phase."""
    first = getattr(failure, "found_input", "") or failure.input_text
    number = sample_number(game, first) if failure.phase == "samples" else None
    if number is None:
        return failure.phase
    text = visible(first.strip())
    shown = text if len(text) <= 40 else text[:37] + "..."
    if first.strip() == failure.input_text.strip():
        return f"sample {number} (`{shown}`)"
    return (
        f"sample {number} (`{shown}`), shrunk to size {failure.size}"
        if sized
        else f"shrinking sample {number} (`{shown}`)"
    )


def fault_of(game: Game, failure: Failure) -> str:
    """:func:`game_fault` of a wrong or unreadable answer ("" for other verdicts: a crash's or a
    time-out's partial output is not an answer)."""
    if failure.verdict not in (Verdict.WA, Verdict.PE):
        return ""
    try:
        return game_fault(game, failure.instance, failure.expected_text, failure.got_text)
    except Exception:  # noqa: BLE001 - the game's code: only the naming is lost, the verdict stands
        return ""


def why_lines(fault: str, reason: str) -> list[str]:
    """The why of a fault, the game's level first: the token that differs and what it means, then
    the judge's reason (left out when it says only the same two words again).

    >>> why_lines("the winner: expected Alice, got Bob", "expected 'Alice', got 'Bob'")
    ['the winner: expected Alice, got Bob']
    >>> why_lines("the winner of game 1 of 1: expected 1, got 2", "game 1 of 1 (n = 2): expected 1, got 2")
    ['the winner of game 1 of 1: expected 1, got 2']
    >>> why_lines("the winner: expected Second, got First", "token 2 (the cut position after First): 2 is outside 1..1")
    ['the winner: expected Second, got First', 'token 2 (the cut position after First): 2 is outside 1..1']
    """
    reason = reason.strip().splitlines()[0] if reason.strip() else ""
    if not fault:
        return [reason] if reason else []
    said = fault.rpartition(": ")[2]
    if (
        reason.replace("'", "").rpartition(": ")[2] == said
    ):  # the same two answers again, however prefixed
        return [fault]
    return [fault, reason] if reason else [fault]


def failure_lines(game: Game, failure: Failure) -> list[str]:
    """The verdict, input, expected and got answers and why (the game's level first), as every
    certification shows them."""
    kind = " (nondeterministic)" if failure.nondeterministic else ""
    where = found_by(game, failure, sized=False)
    lines = [
        f"{failure.verdict}{kind} ({failure.verdict.meaning}) on a {game.name} input of size "
        f"{failure.size}, found by {where}:"
    ]
    for label, text in (
        ("input", failure.input_text),
        ("expected", failure.expected_text),
        ("got", failure.got_text or "(no output)"),
    ):
        lines.append(_block(label, text))
    why = why_lines(fault_of(game, failure), failure.reason) or [""]
    lines.append(f"  {'why:':<9} {_one_line(why[0])}")
    lines += [f"  {'':<9} {_one_line(line)}" for line in why[1:]]
    return lines


def _block(label: str, text: str, keep: int = 600) -> str:
    """A labelled value: one line inline, several lines as an indented block (never joined)."""
    body = text.rstrip("\n")
    clipped = (
        body if len(body) <= keep else body[:keep] + f"\n... ({len(body) - keep} more characters)"
    )
    lines = [visible(line) for line in clipped.split("\n")]
    if len(lines) == 1:
        return f"  {label + ':':<9} {lines[0]}"
    shown = lines[:12] + ([f"... ({len(lines) - 12} more lines)"] if len(lines) > 12 else [])
    return f"  {label}:\n" + "\n".join(f"    {line}" for line in shown)


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return visible(line if len(line) <= 160 else line[:157] + "...")


def _not_reproduced(stats: Any) -> list[str]:
    """Certificate notes for faults seen once that never reproduced as a judge runs the program."""
    seen = list(getattr(stats, "not_reproduced", []) or [])
    return [f"not counted (did not reproduce as a judge runs the program): {line}" for line in seen]
