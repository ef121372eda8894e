"""Undefined behaviour as a finding: the sanitizer phase of a C or C++ candidate.

A program that answers right as the judge compiles it may still rest on undefined behaviour
(a signed overflow that wraps, a read one past an array, a variable read before it is set, a
shift past the width): another judge's compiler, or the next version of this one, can make it
answer wrong. After the plan has run, a candidate built from a C or C++ source runs again on the
inputs that matter (:func:`inputs_that_matter`: the samples, the worst cases, the largest
inputs, every fault found, and any list of inputs handed in) in three more builds
(:data:`gamecert.engine.run.toolchains.SANITIZER_FLAGS`), never timed but each run capped:

- ``asan``: AddressSanitizer and UndefinedBehaviorSanitizer at ``-O1 -g``, every finding fatal:
  a run the sanitizer stops is a finding, named by its message and the source line;
- ``pattern`` and ``zero``: the judge's compile command at ``-O0`` with every automatic variable
  started as 0xFE bytes or as zero bytes, and what ``malloc`` and ``new`` return filled by glibc
  (``MALLOC_PERTURB_``) with 0x5A bytes or with 0xA5 bytes, the two fills of opposite parity (an
  int of 0x5A5A5A5A is even, of 0xA5A5A5A5 odd and negative; a program that counts into an array
  it never set shows under one of them): a run judged wrong (WA, PE, RE, OLE)
  where the judge's build answers right is a finding, the program's answer rests on memory it
  reads before it sets it. GCC has
  no MemorySanitizer; at ``-O1`` and ``-O2`` it takes a variable set on one path only to hold
  that value on every path, so neither valgrind's memcheck nor an initialised build at ``-O2``
  sees such a read (tests/ub_wrong/digit_uninit_branch.c); at ``-O0`` every read is made as
  written, as another compiler may make it.

A finding is shrunk by the structural shrinker and the game's own moves
(:func:`gamecert.engine.judge.shrinking.minimise`), a smaller input counting when the same build
fires again at the same place; the judge's build then runs on the input found. With no fault of
the plan's own, the finding becomes the certification's verdict, UB; beside a fault, it is a
note of that fault's report. ``GAMECERT_SANITIZE=0`` turns the phase off.

The builds and their runs are :mod:`gamecert.engine.judge.sanitize_builds` (:class:`Check`), the
sanitizers' messages are read in :mod:`gamecert.engine.judge.sanitize_read`; this module chooses
the inputs, runs the phase within its time and settles a finding.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from typing import Any

from gamecert.engine.judge.judge import Failure, Judge, Stats
from gamecert.engine.judge.sanitize_builds import (
    ASAN_EXTRA_MB,
    ASAN_OPTIONS,
    BUILDS,
    ENVIRONMENT,
    HOW,
    MEMCHECK,
    PHASE,
    UBSAN_OPTIONS,
    WRONG,
    Check,
    _Again,
    _why_not,
    asan_memory_mb,
)
from gamecert.engine.judge.sanitize_lanes import (
    HANDED_IN,
    LANES,
    _lanes,
    _search,  # noqa: F401 (the phase's search, reached from here as before)
    _summary,
    is_core,
)
from gamecert.engine.judge.sanitize_read import (
    NOT_FINDINGS,
    Finding,
    _one_line,
    named,
    read_finding,
    read_memcheck,
)
from gamecert.engine.plan.plan import SHRINK_SECONDS
from gamecert.engine.run.limits import Limits
from gamecert.errors import GamecertError
from gamecert.verdict import Verdict

#: ``GAMECERT_SANITIZE=0`` turns the phase off
ENV = "GAMECERT_SANITIZE"
LANGUAGES = ("c", "cpp")
#: inputs of each worst-case family run, and of all inputs at most
PER_FAMILY, MAX_INPUTS = 4, 64
#: the phase's wall time at most, builds included, within the certification's budget: this share
#: of it, at most CAP_SECONDS (its inputs are few: the samples, worst and largest inputs, the
#: guided corpus); what it does not use goes to the phases after it. The phase's core (every
#: input but those handed in) may go on past it, within the time of the phases after it (the
#: depth, never required): on a loaded machine the core is still whole, the depth shorter
SHARE, CAP_SECONDS = 0.25, 15.0


def applies(candidate: Any) -> str:
    """Why the phase does not run for ``candidate`` ("" when it does)."""
    if os.environ.get(ENV, "").strip() == "0":
        return f"{ENV}=0"
    if (
        getattr(candidate, "language", "") not in LANGUAGES
        or getattr(candidate, "source", None) is None
    ):
        return "not a C or C++ source"
    return ""


# ---- the inputs and the phase -------------------------------------------------------------------


def inputs_that_matter(
    plan: Any, outcome: Any = None, extra: Any = ()
) -> list[tuple[str, Any, str]]:
    """(where from, instance, text) of the inputs the phase runs, each text once: every fault the
    plan found, then the samples, the first :data:`PER_FAMILY` inputs of each worst-case family,
    the largest inputs and ``extra`` (texts or (where, text) pairs handed in: a corpus), parsed by
    the game; at most :data:`MAX_INPUTS`, taken in that order. After the faults they run source by
    source in turn, the shortest of each source first."""
    from gamecert.engine import gamecode, registry

    game = registry.get(plan.game).game
    out: list[tuple[str, Any, str]] = []
    seen: set[str] = set()

    def add(where: str, instance: Any, text: str) -> None:
        if text not in seen and len(out) < MAX_INPUTS:
            seen.add(text)
            out.append((where, instance, text))

    for f in getattr(outcome, "failures", ()) or ():
        add(f"the fault ({f.verdict})", f.instance, f.input_text)
    for name in ("samples", "worst", "largest"):
        phase = plan.phase(name)
        for group in phase.groups() if phase is not None else ():
            taken = 0
            for chunk in group.iter_chunks():
                for instance, text in zip(chunk.instances, chunk.texts):
                    if name == "worst" and taken >= PER_FAMILY:
                        break
                    add(name if name != "worst" else group.key, instance, text)
                    taken += 1
                if name == "worst" and taken >= PER_FAMILY:
                    break
    for item in extra:
        where, text = item if isinstance(item, tuple) else (HANDED_IN, item)
        add(
            where,
            gamecode.call(
                game.name,
                "parse_input on an input handed to the sanitizer phase",
                game.parse_input,
                text,
            ),
            text,
        )
    faults = sum(w.startswith("the fault") for w, _, _ in out)
    # each source of the core (the samples, each worst-case family, the largest inputs) its
    # shortest first, a finding on a short input being shrunk in fewer, cheaper runs; the sources
    # taken in turn, so that a phase cut by its time has run some of each; the inputs handed in
    # (the depth) after them, shortest first
    sources: dict[str, list[tuple[str, Any, str]]] = {}
    for item in out[faults:]:
        sources.setdefault(item[0], []).append(item)
    depth = sorted(sources.pop(HANDED_IN, []), key=lambda item: len(item[2]))
    queues = [sorted(items, key=lambda item: len(item[2])) for items in sources.values()]
    turns = [q[i] for i in range(max(map(len, queues), default=0)) for q in queues if i < len(q)]
    return out[:faults] + turns + depth


def phase_seconds(budget_s: float) -> float:
    """The sanitizer phase's wall time at most (builds and runs) within a certification's budget
    of ``budget_s`` seconds; the phases after it get what it leaves.

    >>> phase_seconds(60.0), phase_seconds(10.0)
    (15.0, 2.5)
    """
    return min(CAP_SECONDS, SHARE * budget_s)


#: the sanitizer builds compiling beside the plan's phases (:func:`prebuild`), by source and command
_PREBUILDS: dict[tuple[str, str | None], threading.Thread] = {}


def _prebuild_key(candidate: Any, compile: str | None) -> tuple[str, str | None]:
    return str(getattr(candidate, "source", "")), compile


def prebuild(candidate: Any, compile: str | None = None) -> None:
    """Start compiling ``candidate``'s sanitizer builds now, in the background, beside the plan's
    first phases (each build is cached as every build is): the phase's own seconds then go to its
    runs, not to three compilers, which on a loaded machine took more than all of them (a C++
    program's quick certification ran 33 s of its 10). A build that fails here fails again, and is
    said, when the phase makes it; the phase waits for these builds until its deadline only."""
    key = _prebuild_key(candidate, compile)
    if applies(candidate) or key in _PREBUILDS:
        return
    from gamecert.engine.run.toolchains import sanitizer_build

    def work() -> None:
        for kind in BUILDS:
            try:
                sanitizer_build(candidate.source, kind, compile=compile)
            except Exception:  # noqa: BLE001 - said by the phase, which builds it again
                pass

    thread = threading.Thread(target=work, daemon=True, name="gamecert-sanitizer-builds")
    _PREBUILDS[key] = thread
    thread.start()


def run_phase(
    entry: Any,
    candidate: Any,
    plan: Any,
    outcome: Any,
    limits: Limits,
    say: Any,
    *,
    containment: Any = None,
    provenance: Any = None,
    expected_cache: dict[str, Any] | None = None,
    extra: Any = (),
    seconds: float | None = None,
    core_seconds: float | None = None,
    hand_back: Any = None,
) -> None:
    """The sanitizer phase of ``candidate`` after ``plan`` ran (see the module's words), for up to
    ``seconds`` (the part of the budget kept for it; default :func:`phase_seconds` of the plan's):
    says one line, puts its note on ``outcome`` and, with no fault of the plan's own, its finding
    among ``outcome.failures`` (verdict UB); beside a fault, what the sanitizer says of the fault's
    input goes into that fault's notes. Runs the time cap left out mark the phase cut
    (``outcome.cut``): the evidence is then incomplete. Nothing happens for a candidate it does
    not apply to or a run that was interrupted; Ctrl-C here marks the outcome interrupted.

    The core's inputs (:func:`is_core`) may run until ``core_seconds`` (at least ``seconds``); the
    runs go on in :data:`LANES` lanes. An input on which the judge's build, run as a judge runs it,
    answers wrong (a program right only as the fork server's clone) is no UB: with no fault of the
    plan's own it goes to ``hand_back(instance, text)``, which judges it as a fault."""
    if outcome.interrupted or applies(candidate):
        return
    contain = containment.enabled if containment is not None else True
    fault = outcome.failure
    checks = [
        Check(
            entry,
            candidate,
            limits,
            contain=contain,
            compile=getattr(provenance, "compile_option", "") or None,
            expected_cache=expected_cache,
        )
        for _ in range(1 if fault is not None else max(1, min(LANES, os.cpu_count() or 1)))
    ]
    check = checks[0]
    try:
        if fault is None:
            inputs, kinds = inputs_that_matter(plan, None, extra), tuple(BUILDS)
        else:  # the fault's own input, under the sanitizers: what they say of it
            inputs, kinds = (
                [(f"the fault ({fault.verdict})", fault.instance, fault.input_text)],
                ("asan",),
            )
        allowed = phase_seconds(plan.budget_s) if seconds is None else seconds
        now = time.monotonic()
        deadline = now + allowed
        core_deadline = now + max(allowed, core_seconds or 0.0)
        early = _PREBUILDS.get(_prebuild_key(candidate, check.compile))
        if early is not None:  # the builds started beside the plan: done by now, or by the deadline
            early.join(max(0.0, core_deadline - time.monotonic()))
        if fault is not None and ASAN_SLOWDOWN * _wall(fault) > allowed:
            # one run of the asan build on the fault's input would end past the budget
            line = (
                f"the fault's input under {BUILDS['asan']}: not run (its run here took "
                f"{_wall(fault):.1f} s; the sanitizer build's, about {ASAN_SLOWDOWN:g} times that, "
                f"would end past the budget: {allowed:.1f} s were left)"
            )
            fault.notes.append(f"sanitizer phase: {line}")
            say(f"  {PHASE:<11} {line}")
            return
        found, ran, skipped, why_not, check = _lanes(checks, inputs, deadline, kinds, core_deadline)
        if check.plain_fault is not None and fault is None and hand_back is not None:
            _hand_back(check, hand_back, outcome, say)
            return
        if skipped and found is None and fault is None:
            outcome.cut[PHASE] = allowed
        if found is not None and fault is not None:
            failure, finding, kind = found
            fault.notes.append(
                f"under the sanitizer build ({BUILDS[kind]}) this input shows undefined behaviour: "
                f"{finding.line}; reproduce: {check.reproduce(kind)}"
            )
            say(f"  {PHASE:<11} the fault's input under {BUILDS[kind]}: {finding.line}")
            return
        if found is None:
            line = _summary(inputs, ran, skipped, why_not, checks, kinds)
            outcome.notes.append(f"sanitizer phase: {line}")
            say(f"  {PHASE:<11} {line}")
            return
        failure, finding, kind = found
        _settle(
            check, entry, candidate, outcome, limits, failure, finding, kind, plan, contain, say
        )
    except KeyboardInterrupt:
        outcome.interrupted = True
    except GamecertError:
        raise  # a game's own mistake (GAME ERROR): said as such
    except Exception as exc:  # noqa: BLE001 - a fault of gamecert's own must not end the certification
        line = (
            f"stopped on an internal error of gamecert's ({type(exc).__name__}: {exc}): no claim about "
            "undefined behaviour is made"
        )
        outcome.notes.append(f"sanitizer phase: {line}")
        say(f"  {PHASE:<11} {line}")
    finally:
        for c in checks:
            c.close()


#: how much slower a run of the asan build is taken to be than the judge's build's, to tell
#: whether one run on a fault's input fits the time left (AddressSanitizer's usual cost is 2 to 4)
ASAN_SLOWDOWN = 4.0


def _wall(failure: Any) -> float:
    """The wall time of the run that showed ``failure`` (0 where unknown)."""
    return float(getattr(getattr(failure, "result", None), "wall_s", None) or 0.0)


def _hand_back(check: Check, hand_back: Any, outcome: Any, say: Any) -> None:
    """The judge's build answered wrong, run as a judge runs it, on an input the plan's runs
    passed: handed back to be judged, confirmed and shrunk as any fault (``hand_back``); said."""
    instance, text = check.plain_fault or (None, "")
    say(
        f"  {PHASE:<11} the judge's build, run as a judge runs it, answers wrong on an input the "
        "plan's runs passed: judged as a fault"
    )
    if hand_back(instance, text) is None:  # it passed this time: nondeterministic, said
        outcome.notes.append(
            "sanitizer phase: the judge's build answered wrong once, run as a judge runs it, on an "
            "input the plan's runs passed, and right when judged again"
        )


def _settle(
    check: Check,
    entry: Any,
    candidate: Any,
    outcome: Any,
    limits: Limits,
    failure: Failure,
    finding: Finding,
    kind: str,
    plan: Any,
    contain: bool,
    say: Any,
) -> None:
    """Shrink the finding, run the judge's build on the input found, and make it the outcome's
    failure (verdict UB) with the commands that reproduce it."""
    from gamecert.engine.judge.shrinking import minimise
    from gamecert.engine.run.sandbox import open_runner

    say(f"  {PHASE:<11} FAIL ({Verdict.UB}) at size {failure.size}: {finding.line}; shrinking")
    seconds = SHRINK_SECONDS.get(plan.profile.name, 30.0)  # as a fault's shrink: the profile's time
    shrunk = minimise(_Again(check, kind, finding), failure, seconds)
    if kind == "asan":
        finding = read_finding(kind, shrunk.result, check.source) or finding
    else:  # the words of the run on the input found, not of the one before the shrink
        finding = replace(finding, line=shrunk.reason or finding.line)
    if (
        kind != "asan"
    ):  # the line of the read, from valgrind on an unoptimised build with line numbers
        try:
            where = check.memcheck(shrunk.instance, shrunk.input_text)
        except GamecertError as exc:
            where = ""
            shrunk.notes.append(
                f"valgrind's memcheck did not run: {_why_not(exc, check.candidate)}"
            )
        if where:
            finding = replace(
                finding, where=where.split(": ", 1)[0], line=f"{where}; {finding.line}"
            )
            shrunk.notes.append(f"reproduce the line: {check.reproduce('memcheck')}")
    with open_runner(candidate, limits, contain=contain) as runner:
        plain = Judge(entry, runner, Stats(), expected_cache=check.cache)
        wrong = plain.run_one(
            shrunk.instance, PHASE, text=shrunk.input_text, count=False, fresh=True
        )
        got = plain.last_result.stdout if plain.last_result is not None else ""
    if wrong is None:
        shrunk.notes.append(
            "the judge's build answers right on this input: the fault is the undefined "
            "behaviour, which another compiler or other options may turn into a wrong answer"
        )
    else:
        shrunk.notes.append(
            f"the judge's build fails on this input too: {wrong.verdict} ({_one_line(wrong.reason)})"
        )
    shrunk.notes.append(
        f"shrunk while the {kind} build ({BUILDS[kind]}) showed {finding.kind!r}"
        f"{' at ' + finding.where if finding.where else ''} again"
    )
    command = check.reproduce(kind)
    shrunk.notes.append(f"reproduce: {command}")
    shrunk.notes.append(
        "`gamecert replay` runs the judge's build, then the sanitizer builds on this input"
    )
    say(f"  {'reproduce:':<11} {command}")
    shown = replace(
        shrunk.result,
        stdout=named(shrunk.result.stdout, check.source),
        stderr_tail=named(shrunk.result.stderr_tail, check.source),
    )
    outcome.failures.append(replace(shrunk, reason=finding.line, got_text=got[:4096], result=shown))


def replay_lines(
    entry: Any, candidate: Any, instance: Any, text: str, limits: Limits, compile: str | None = None
) -> tuple[bool, list[str]]:
    """``gamecert replay`` of a UB report: the input on each sanitizer build in turn until one
    fires; (whether one fired, the lines that say so)."""
    if applies(candidate):
        return False, [f"sanitizer: not run ({applies(candidate)})"]
    check = Check(entry, candidate, limits, compile=compile)
    try:
        for kind in BUILDS:
            try:
                _, finding = check.run(kind, instance, text)
            except GamecertError as exc:
                return False, [f"sanitizer: the {kind} build cannot be made: {_one_line(str(exc))}"]
            if finding is not None:
                return True, [
                    f"sanitizer: {finding.line}",
                    f"reproduce: {check.reproduce(kind)}",
                    f"verdict:  {Verdict.UB} ({Verdict.UB.meaning}): {_one_line(finding.line)}",
                ]
        return False, ["verdict:  OK (no sanitizer build fired on this input again)"]
    finally:
        check.close()


#: the phase's own names, and those of its builds and messages (kept importable from here)
__all__ = [
    "ASAN_EXTRA_MB",
    "ASAN_OPTIONS",
    "BUILDS",
    "asan_memory_mb",
    "ENV",
    "ENVIRONMENT",
    "HOW",
    "LANGUAGES",
    "MEMCHECK",
    "NOT_FINDINGS",
    "PHASE",
    "UBSAN_OPTIONS",
    "WRONG",
    "Check",
    "Finding",
    "applies",
    "inputs_that_matter",
    "is_core",
    "phase_seconds",
    "read_finding",
    "read_memcheck",
    "replay_lines",
    "run_phase",
]
