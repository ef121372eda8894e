"""The guided phase's coverage lines (of the certificate and the report): how much of the
program's own code its inputs reached, and where the rest is."""

from __future__ import annotations

from typing import Any

from gamecert.engine.run.instrument import REWRITTEN, Instrumented

#: sites the evidence lists by line
NEVER_SHOWN = 8


def evidence(built: Instrumented, reached: set[Any], runs: int) -> list[str]:
    """The coverage lines of the certificate and the report: how much of the program's own code
    the guided phase's inputs reached, and where the rest is."""
    sites = built.sites
    if not sites:
        return [
            f"guided phase ({built.language}): {runs} runs; the build names no source lines to count"
        ]
    got = [k for k in sites if k in reached]
    if built.language == "java":  # (class:line, the source line, the jump's side or the case)
        what = "branch sides taken"
        never = [k for k in sites if k not in reached]
        named = [
            f"{sites[k].where} `{sites[k].text}` {sites[k].what}"
            for k in sorted(never, key=lambda k: (sites[k].line, k))
        ]  # (several jumps of one line, `a == 1 || a == 2`, named once with their count)
        shown = [
            f"{n} ({named.count(n)} sites)" if named.count(n) > 1 else n
            for n in dict.fromkeys(named)
        ]
    elif built.language in REWRITTEN:
        what = "branch sides taken"
        never = [k for k in sites if k not in reached]
        shown = [
            f"line {sites[k].line} `{sites[k].text}` {'true' if k[1] else 'false'} side"
            for k in sorted(never, key=lambda k: (sites[k].line, k))
        ]
    else:
        what = "basic blocks reached"
        lines_hit = {sites[k].line for k in got}
        never_lines = sorted({sites[k].line for k in sites if k not in reached} - lines_hit)
        texts = {sites[k].line: sites[k].text for k in sites}
        shown = [f"line {n} `{texts[n]}`" for n in never_lines]
    line = f"guided phase ({built.language}, measured on its {runs} runs): {what} {len(got)} of {len(sites)}"
    if shown:
        more = f" and {len(shown) - NEVER_SHOWN} more" if len(shown) > NEVER_SHOWN else ""
        line += f"; never: {'; '.join(shown[:NEVER_SHOWN])}{more}"
    return [line]


__all__ = ["NEVER_SHOWN", "evidence"]
