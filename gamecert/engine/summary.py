"""A batch's results: one :class:`CandidateResult` per candidate, ``summary.json`` and the
summary table (:func:`gamecert.engine.certification.certify_many` fills them)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from gamecert.engine.report.report_files import atomic_write_text
from gamecert.engine.report.reports import timestamp
from gamecert.kit.escape import visible
from gamecert.verdict import CERTIFIED, INCOMPLETE


@dataclass(frozen=True)
class CandidateResult:
    """How one candidate's certification ended: a row of a batch's summary."""

    spec: str
    name: str
    #: CERTIFIED, PASSED (incomplete), INTERRUPTED, a fault's verdict (WA, TLE, ..., CE), or NOT RUN
    verdict: str
    #: the exit status it alone would give: 0 certified (or incomplete), 1 fault found (or incomplete
    #: with ``--strict``), 130 interrupted
    status: int
    #: the report's or the certificate's folder ("" when nothing was written)
    path: str = ""
    #: the smallest failing input, exactly ("" when nothing failed)
    input: str = ""
    size: int | None = None
    tests: int = 0
    elapsed_s: float = 0.0
    interrupted: bool = False
    nondeterministic: bool = False
    #: the lines that told the outcome (the evidence per phase, the fault, the summary), as said
    lines: tuple[str, ...] = field(default=(), compare=False)
    #: when it fails, in one short line: the class learned and checked, with its figures ("" if none)
    diagnosis: str = ""

    def to_json(self) -> dict[str, Any]:
        """The row of ``summary.json`` (the lines are for the terminal, not the file)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "lines"}


def write_summary(
    report_dir: str,
    game: str,
    seed: int,
    profile: str,
    results: list[CandidateResult] | tuple[CandidateResult, ...],
    status: int,
) -> Path:
    """``report_dir/summary.json``, written atomically: one row per candidate."""
    failed = [r for r in results if r.status == 1]
    data = {
        "kind": "summary",
        "game": game,
        "seed": seed,
        "profile": profile,
        "created": timestamp(),
        "exit_status": status,
        "certified": sum(r.verdict == CERTIFIED for r in results),
        "incomplete": sum(r.verdict == INCOMPLETE for r in results),
        "failed": sum(r.verdict != INCOMPLETE for r in failed),
        "interrupted": any(r.interrupted for r in results),
        "candidates": [r.to_json() for r in results],
    }
    path = Path(report_dir) / "summary.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
    return path


SUMMARY_HEADERS = (
    "candidate",
    "verdict",
    "smallest failing input",
    "tests",
    "time",
    "when it fails",
)


def summary_rows(
    results: list[CandidateResult] | tuple[CandidateResult, ...], keep: int = 40
) -> list[tuple[str, ...]]:
    r"""The table's rows: candidate, verdict, smallest failing input (escaped, clipped), tests, time.

    >>> summary_rows([CandidateResult("a.py", "a", "WA", 1, input="1\n2\x1b\n", tests=5, elapsed_s=1.25)])
    [('a.py', 'WA', '1\\n2\\x1b', '5', '1.2 s', '-')]
    """
    rows: list[tuple[str, ...]] = []
    for r in results:
        shown = visible(r.input.rstrip("\n"))
        if len(shown) > keep:
            shown = shown[: keep - 3] + "..."
        verdict = r.verdict + (" (nondeterministic)" if r.nondeterministic else "")
        rows.append(
            (
                visible(r.spec),
                verdict,
                shown or "-",
                str(r.tests),
                f"{r.elapsed_s:.1f} s",
                visible(r.diagnosis) or "-",
            )
        )
    return rows


def summary_lines(results: list[CandidateResult] | tuple[CandidateResult, ...]) -> list[str]:
    """The summary table as aligned plain text."""
    rows = summary_rows(results)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(SUMMARY_HEADERS)]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
        for row in (SUMMARY_HEADERS, *rows)
    ]
