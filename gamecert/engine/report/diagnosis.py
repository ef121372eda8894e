"""The diagnosis of a fault as a report shows it: the section "When it fails" of report.md and
the one short line of the terminal and of a batch's summary table.

The data is the dictionary :meth:`gamecert.engine.judge.diagnose.Diagnosis.to_json` makes (kept
as is in report.json); this module only words it, so a report read back from its JSON
(``gamecert explain REPORT_DIR``) says the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def diagnosis_line(data: Mapping[str, Any] | None) -> str:
    """The one line: the class with its figures, or why none is stated ("" without a diagnosis)."""
    if not data:
        return ""
    return str(data.get("line", ""))


def diagnosis_short(data: Mapping[str, Any] | None) -> str:
    """A summary table's cell: the rule and its figures, or why none.

    >>> diagnosis_short({"status": "class", "rule": "games >= 64", "satisfying": 9, "satisfying_failed": 9,
    ...                  "others": 12, "others_failed": 0})
    'games >= 64 (9/9 fail, 0/12 others)'
    >>> diagnosis_short({"status": "none"})
    'no class at 95%'
    """
    if not data:
        return "-"
    if data.get("status") == "class":
        return (
            f"{data['rule']} ({data['satisfying_failed']}/{data['satisfying']} fail, "
            f"{data['others_failed']}/{data['others']} others)"
        )
    if data.get("status") == "none":
        return "no class at 95%"
    return "not diagnosed"


def diagnosis_markdown(data: Mapping[str, Any] | None) -> list[str]:
    """The report's section "When it fails" (no lines without a diagnosis)."""
    if not data:
        return []
    out = ["", "## When it fails", "", diagnosis_line(data) + "."]
    status = data.get("status")
    if status == "class":
        sat, sat_f = data.get("satisfying", 0), data.get("satisfying_failed", 0)
        oth, oth_f = data.get("others", 0), data.get("others_failed", 0)
        out += [
            "",
            f"- **Rule:** `{data.get('rule', '')}`",
            f"- **Checked on fresh inputs:** {sat_f:,} of {sat:,} inputs that satisfy it failed (precision "
            f"{data.get('precision', 0):.1%}); {oth_f:,} of {oth:,} that do not failed (it holds for "
            f"{data.get('recall', 0):.1%} of the fresh failing inputs)",
        ]
    elif status == "none":
        differ = data.get("differ") or []
        if differ:
            out += [
                "",
                "Features that differ most between failing and passing inputs (not a class):",
                "",
            ]
            out += [
                f"- `{d['test']}`: holds for {d['failing']} of {d['of_failing']} failing inputs, "
                f"{d['passing']} of {d['of_passing']} passing"
                for d in differ
            ]
        if data.get("tried"):
            out += [
                "",
                f"The best rule learned, `{data['tried']}`, held on {data.get('satisfying_failed', 0)} of "
                f"{data.get('satisfying', 0)} fresh inputs satisfying it: not stated as a class.",
            ]
    if status in ("class", "none"):
        rounds = data.get("rounds", 0)
        out += [
            "",
            f"Learned from {data.get('learned_on', 0):,} inputs ({data.get('learned_failing', 0):,} failing) "
            f"near the shrunk input and from the whole input space, in {rounds} "
            f"round{'s' if rounds != 1 else ''}; {_runs(data)}. A class is "
            'evidence on the inputs tried, not a proof (docs/certify.md, "When it fails").',
        ]
    return out


def _runs(data: Mapping[str, Any]) -> str:
    """The runs and the time, against the share of the budget it had.

    >>> _runs({"runs": 1, "seconds": 2.0, "budget_s": 9.0})
    '1 run in 2.0 s of its 9.0 s share of the budget'
    >>> _runs({"runs": 662, "seconds": 11.0, "budget_s": 9.0})
    '662 runs in 11.0 s; its share of the budget was 9.0 s, and the runs under way at its end were finished'
    """
    runs, took, share = data.get("runs", 0), data.get("seconds", 0), data.get("budget_s", 0)
    head = f"{runs:,} run{'s' if runs != 1 else ''} in {took:.1f} s"
    if took > share:
        return (
            f"{head}; its share of the budget was {share:.1f} s, and the runs under way at its "
            "end were finished"
        )
    return f"{head} of its {share:.1f} s share of the budget"


__all__ = ["diagnosis_line", "diagnosis_markdown", "diagnosis_short"]
