"""The guided phase in a certification: whether it runs for a candidate (:func:`applies`, which
starts its instrumented build beside the designed phases), its share of the budget
(:func:`share`), and the phase itself (:func:`run_phase`): the search of
:mod:`gamecert.engine.judge.guided` on the instrumented build, a failing input handed to the
plain build, what it did written into the outcome's notes.
"""

from __future__ import annotations

import time
from typing import Any

from gamecert.engine.judge.guided import Search, seeds_of
from gamecert.engine.judge.guided_evidence import evidence

#: languages the guided phase has a route for (:func:`gamecert.engine.run.instrument.instrument`)
ROUTES = ("c", "cpp", "python", "rust", "javascript", "java")


def applies(executor: Any) -> bool:
    """Whether the guided phase will run for ``executor``'s candidate: a plan by time with a
    guided phase, and a C, C++, Python, Rust, JavaScript or Java source (known once the samples
    ran)."""
    found = getattr(executor, "_guided_applies", None)
    if found is None:
        plain = executor.judges[0].runner if executor.judges else None
        candidate = getattr(plain, "candidate", None)
        found = (
            executor.plan.phase("guided") is not None
            and not executor.plan.by_counts
            and candidate is not None
            and getattr(candidate, "language", "") in ROUTES
            and getattr(candidate, "source", None) is not None
        )
        if executor.judges:
            executor._guided_applies = found
            if found:  # the instrumented build is made meanwhile, beside the designed phases
                import threading

                box: dict[str, Any] = {}
                thread = threading.Thread(
                    target=_build_into,
                    args=(candidate, box),
                    daemon=True,
                    name="gamecert-guided-build",
                )
                thread.start()
                executor._guided_build = (thread, box)
    return found


def _build_into(candidate: Any, box: dict[str, Any]) -> None:
    from gamecert.engine.run.instrument import instrument

    try:
        box["built"] = instrument(candidate)
    except BaseException as exc:  # noqa: BLE001 - said by the phase (NoRoute, a failed build)
        box["error"] = exc


def share(executor: Any, phase: str, cumulative: float | None) -> float | None:
    """The cumulative share of the budget of ``phase`` for ``executor``: the designed phases'
    scaled by ``1 - GUIDED_SHARE`` when the guided phase will run (:func:`applies`); then, for a
    run whose sanitizer phase comes before the random phase (``executor.midway_share``, its part
    of the budget), every phase's before it scaled by ``1 - midway_share``."""
    from gamecert.engine.plan.plan import GUIDED_SHARE

    if phase == "guided" and not applies(executor):
        return None  # nothing to cut: the phase only says why it did not run
    if (
        cumulative is not None
        and phase in ("coverage", "worst", "exhaustive")
        and applies(executor)
    ):
        cumulative *= 1 - GUIDED_SHARE
    if cumulative is not None and phase in ("coverage", "worst", "exhaustive", "guided"):
        cumulative *= 1 - getattr(executor, "midway_share", 0.0)
    return cumulative


def run_phase(executor: Any, deadline: float | None) -> None:
    """The guided phase of ``executor`` (a :class:`gamecert.engine.execute.Executor`, by duck
    typing): the candidate's instrumented build searched until ``deadline`` or the phase's own
    share of the budget; a failing input goes to the plain build as a chunk of its own, judged,
    confirmed and shrunk by a worker as any fault. A candidate without a route gets a note."""
    import dataclasses

    from gamecert.engine.judge.handback import hand_back
    from gamecert.engine.judge.judge import Judge
    from gamecert.engine.plan.plan import GUIDED_SHARE, Group
    from gamecert.engine.run.instrument import NoRoute, instrument
    from gamecert.engine.run.sandbox import open_runner
    from gamecert.errors import GamecertError

    plain = executor.judges[0].runner if executor.judges else None
    candidate, limits = getattr(plain, "candidate", None), getattr(plain, "limits", None)
    if candidate is None or limits is None or executor.plan.by_counts:
        return  # an in-process solver, or a plan by counts: nothing to instrument
    if not applies(executor):
        try:
            instrument(candidate)
        except NoRoute as exc:
            executor.outcome.notes.append(f"the guided phase did not run: {exc}")
        return
    plan, outcome = executor.plan, executor.outcome
    thread, box = executor._guided_build
    thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
    until = time.monotonic() + GUIDED_SHARE * plan.budget_s
    until = until if deadline is None else min(deadline, until)
    error = box.get("error")
    if isinstance(error, NoRoute):
        outcome.notes.append(f"the guided phase did not run: {error}")
        return
    if isinstance(error, (GamecertError, OSError)):
        outcome.notes.append(
            f"the guided phase did not run: the instrumented build failed ({error})"
        )
        return
    if error is not None:
        raise error
    built = box.get("built")
    if built is None:
        outcome.notes.append(
            "the guided phase did not run: its instrumented build was not done by the phase's deadline"
        )
        return
    group = executor._register(
        Group("guided", "guided", "inputs steered by the candidate's coverage", runs=0)
    )
    made = [0]

    def suspect(inst: Any, text: str) -> Any:
        made[0] += 1
        key = f"guided-{made[0]}"
        if search.near_constant and search.smaller:  # the families below it are the way down
            executor.brief_keys.add(key)
        new = hand_back(
            executor,
            "guided",
            key,
            "an input the instrumented build failed, run plainly",
            inst,
            text,
        )
        if new is None:
            return None
        # a smaller fault of the search below the first replaces the guided ones it undercuts
        outcome.failures[:] = [
            f
            for f in outcome.failures[:-1]
            if f.phase != "guided" or getattr(f, "size", 0) < getattr(new, "size", 0)
        ] + [new]
        return new

    try:
        slower = dataclasses.replace(limits, time_s=limits.time_s * 3)
        runner = open_runner(
            built.candidate,
            slower,
            contain=getattr(getattr(plain, "containment", None), "enabled", True),
        )
    except (GamecertError, OSError) as exc:
        outcome.notes.append(f"the guided phase did not run: its runner did not start ({exc})")
        built.close()
        return
    try:
        judge = Judge(
            executor.entry,
            runner,
            executor.stats,
            on_test=getattr(executor.display, "advance", None),
            expected_cache=executor.expected_cache,
            known=executor.known,
        )
        search = Search(executor.entry, judge, built, plan.seed, suspect, limits)
        report = search.search(
            seeds_of(executor.entry, plan),
            until,
            hard=lambda: executor.fault_deadline,
        )
    except GamecertError:
        raise  # a game's own mistake (GAME ERROR) or a usage error: said as such
    except Exception as exc:  # noqa: BLE001 - a fault of gamecert's own must not end the certification
        outcome.notes.append(
            f"{STOPPED}: {type(exc).__name__}: {exc}; the faults found so far stand, "
            "and the rest of the certification ran as usual"
        )
        group.done = True
        return
    finally:
        runner.close()
    group.done = group.runs = group.runs_done = report.runs
    executor.guided_corpus = [item.text for item in search.corpus]
    outcome.notes += [
        f"guided phase: {report.runs} runs of the instrumented build ({built.how}), {report.kept} "
        f"inputs kept for reaching new code or bringing a comparison's operands closer "
        f"({report.closer} for closeness alone), {report.suspects} sent to the plain build"
        + (
            f" ({len(report.unconfirmed)} failed only instrumented: {', '.join(report.unconfirmed[:3])})"
            if report.unconfirmed
            else ""
        ),
        *report.lines,
        *evidence(built, report.reached, report.runs),
    ]
    if report.malformed:
        outcome.notes.append(
            f"guided phase: {report.malformed} runs wrote a coverage record that could not be read; "
            "ignored: the record came from the program (it writes it on its own stderr), not from "
            "gamecert"
        )


#: the start of the note a guided phase that stopped on an error of gamecert's own leaves
STOPPED = "the guided phase stopped on an internal error of gamecert's"


__all__ = ["ROUTES", "STOPPED", "applies", "run_phase", "share"]
