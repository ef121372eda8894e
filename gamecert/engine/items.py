"""A certification cut into items that run anywhere, then merged into one report or certificate.

The pytest route (:mod:`gamecert.commands.pytest_candidate`) makes one test item per chunk of a
plan fixed by counts; each item, in whichever process or host runs it, calls :func:`run_item`
(the chunk judged, its evidence as plain data, the report of a fault found); at the end the
controller alone calls :func:`merge_items`, which writes the same files ``gamecert certify``
writes: the report of the smallest fault found over all items, or the certificate if every item
passed (marked interrupted if some did not run). The front end only moves the data and prints.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, replace
from typing import Any

from gamecert.engine.certification import CandidateResult
from gamecert.engine.judge.evidence import (
    build_certificate,
    build_report,
    candidate_spec_for_replay,
    compile_error_report,
)
from gamecert.engine.judge.judge import Failure, Judge, Stats
from gamecert.engine.judge.outcome import GroupOutcome, Outcome
from gamecert.engine.plan.plan import SHRINK_SECONDS
from gamecert.engine.report.report_files import write_certificate, write_report
from gamecert.engine.report.reports import FailureReport
from gamecert.engine.run.contain import probe, stamp
from gamecert.verdict import INTERRUPTED, passing_status


@dataclass(frozen=True)
class ItemResult:
    """One item's run: its evidence (plain data, sent to the controller), the fault's report as
    JSON data (None if it passed) and the fault itself (for the item's own message)."""

    evidence: dict[str, Any]
    report: dict[str, Any] | None = None
    failure: Failure | None = None


def run_item(
    entry: Any,
    candidate: Any,
    plan: Any,
    limits: Any,
    chunk: Any,
    group_id: str,
    worker: str = "main",
) -> ItemResult:
    """Judge ``chunk`` of ``plan`` on ``candidate`` in a runner of its own; a fault found is
    confirmed and shrunk here, within the profile's shrinking time."""
    from gamecert.engine.run.sandbox import open_runner

    stats = Stats()
    with open_runner(candidate, limits, fork_server=True) as runner:
        judge = Judge(entry, runner, stats)
        outcome = judge.run_chunk(chunk, shrink_seconds=SHRINK_SECONDS.get(plan.profile.name, 30.0))
    failure = outcome.failure
    evidence = {
        "group": group_id,
        "chunk": chunk.key,
        "tests": stats.tests,
        "runs": stats.runs,
        "samples": stats.samples,
        "random_examples": stats.random_examples,
        "largest_sizes": stats.largest_sizes,
        "slowest_s": stats.slowest_cpu_s,
        "slowest_what": stats.slowest_what,
        "audits": stats.audits,
        "audit": stats.audit_counts(),
        "passed": failure is None,
        "worker": worker,
        "host": socket.gethostname(),
        "binary_sha256": candidate.binary_sha256,
    }
    if failure is None:
        return ItemResult(evidence)
    report = stamp(
        build_report(entry, candidate, failure, None, limits, stats.tests, plan=plan), runner
    )
    return ItemResult(evidence, report.to_json(), failure)


def where_it_ran(
    evidence: dict[str, dict[str, Any]], shipment_kind: str = "", own_binary: str = ""
) -> list[str]:
    """Notes on which processes ran the items, and whether their builds were the controller's
    (``own_binary``: the controller's build of a source shipped as such).

    >>> where_it_ran({"a": {"worker": "gw0", "host": "h1", "binary_sha256": ""},
    ...               "b": {"worker": "gw1", "host": "h2", "binary_sha256": ""}})
    ['items run by 2 processes: gw0 on h1 (1), gw1 on h2 (1)']
    """
    counts: dict[tuple[str, str], int] = {}
    builds: set[str] = set()
    for data in evidence.values():
        key = (data.get("worker", "?"), data.get("host", "?"))
        counts[key] = counts.get(key, 0) + 1
        if data.get("binary_sha256"):
            builds.add(data["binary_sha256"])
    if not counts:
        return []
    shown = ", ".join(f"{w} on {h} ({n})" for (w, h), n in sorted(counts.items()))
    notes = [f"items run by {len(counts)} process{'es' if len(counts) != 1 else ''}: {shown}"]
    mine = own_binary if shipment_kind == "source" else ""
    if mine and builds - {mine}:
        notes.append(
            f"the same source was compiled into {len(builds | {mine})} different binaries on the hosts "
            f"(sha256 {', '.join(sorted(b[:12] for b in builds | {mine}))}): their compilers differ"
        )
    return notes


def compile_error_item(
    entry: Any,
    exc: Any,
    spec: str,
    name: str,
    *,
    seed: int,
    profile: str,
    limits: Any,
    report_dir: str,
) -> CandidateResult:
    """A candidate that did not compile: its CE report, written."""
    report = compile_error_report(entry, exc, seed=seed, profile=profile, limits=limits)
    path = write_report(report, report_dir)
    return CandidateResult(spec, name, report.verdict, 1, str(path))


def merged_outcome(
    plan: Any, groups: list[Any], evidence: dict[str, dict[str, Any]], started: float | None = None
) -> tuple[Outcome, list[str], bool]:
    """An :class:`Outcome` of ``plan`` (its ``groups`` drawn) from its items' evidence (by chunk
    key, whichever process ran them), the chunk keys in plan order, and whether every chunk
    reported: a group is complete only when all its chunks passed."""
    stats = Stats() if started is None else Stats(started=started)
    outcome = Outcome(plan, stats)
    keys = [c.key for g in groups for c in g.chunks]
    for g in groups:
        done = [evidence.get(c.key) for c in g.chunks]
        outcome.groups.append(
            GroupOutcome(
                g.phase,
                g.key,
                g.label,
                g.tests,
                done=sum(d["tests"] for d in done if d),
                chunks=len(g.chunks),
                chunks_done=sum(1 for d in done if d and d["passed"]),
                size=g.size,
                spaces=g.spaces,
                adversary=g.adversary,
                failed=any(d and not d["passed"] for d in done),
                space_counts=g.space_counts,
                runs=g.runs,
                runs_done=sum(d["runs"] for d in done if d),
            )
        )
    for data in evidence.values():
        stats.tests += data["tests"]
        stats.runs += data["runs"]
        stats.samples += data["samples"]
        stats.random_examples += data["random_examples"]
        stats.add_audits(data.get("audit") or {"audits": data.get("audits", 0)})
        if data["slowest_s"] > stats.slowest_cpu_s:
            stats.slowest_cpu_s, stats.slowest_what = data["slowest_s"], data["slowest_what"]
    order = {k: i for i, k in enumerate(keys)}  # the largest inputs in plan order
    stats.largest_sizes = [
        s
        for k in sorted(evidence, key=lambda k: order.get(k, len(order)))
        for s in evidence[k]["largest_sizes"]
    ]
    return outcome, keys, all(k in evidence for k in keys)


def merge_items(
    entry: Any,
    candidate: Any,
    plan: Any,
    limits: Any,
    groups: list[Any],
    evidence: dict[str, dict[str, Any]],
    failures: list[tuple[str, dict[str, Any]]],
    *,
    started: float,
    report_dir: str,
    spec: str,
    name: str,
    where: list[str],
) -> CandidateResult:
    """Every item's evidence (from whichever process ran it) merged into one report or
    certificate, written once, here; the candidate's result (its tests summed over the items)."""
    outcome, keys, _ = merged_outcome(plan, groups, evidence, started)
    stats = outcome.stats
    finished = sum(1 for k in keys if k in evidence)
    if failures:
        # the smallest input; between equal ones, the item first in plan order, so that the
        # report does not depend on which worker finished first
        order = {k: i for i, k in enumerate(keys)}
        found = sorted(
            ((FailureReport.from_json(r), order.get(chunk, len(order))) for chunk, r in failures),
            key=lambda x: (x[0].size, len(x[0].input), x[0].input, x[1]),
        )
        reports = [r for r, _ in found]
        best = reports[0]
        others = len(reports) - 1
        notes = list(best.notes)
        if others:
            notes.append(
                f"{others} other item(s) of this run failed too; this is the smallest input"
            )
        notes.extend(where)
        # the program as the user named it here, not a worker's copy of it
        best = replace(
            best,
            candidate=candidate.name,
            candidate_spec=candidate_spec_for_replay(candidate),
            tests_run=stats.tests,
            notes=tuple(notes),
            interrupted=finished < len(keys),
        )
        path = write_report(best, report_dir)
        return CandidateResult(
            spec, name, best.verdict, 1, str(path), best.input, best.size, stats.tests
        )
    outcome.interrupted = finished < len(keys)
    ran = sum(1 for k in keys if k in evidence and evidence[k]["passed"])
    cert = build_certificate(
        entry,
        candidate,
        outcome,
        limits,
        notes=[f"run by pytest: {ran} of {len(keys)} items", *where],
    )
    cert = stamp(
        cert, probe()
    )  # the items' runners, in this process or its workers, probed the same way
    path = write_certificate(cert, report_dir)
    return CandidateResult(
        spec,
        name,
        cert.verdict,
        passing_status(cert.verdict),
        str(path),
        tests=stats.tests,
        interrupted=cert.verdict == INTERRUPTED,
    )
