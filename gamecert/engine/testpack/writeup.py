"""A package's write-up: ``kills.csv`` (tests x programs, with verdicts), the strength line and
the mutation score, and ``README.md`` (why each test is there, the totals, the layout).

May import: the testpack room's own modules, the kit, the engine's floor.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from gamecert.engine.testpack import testset as ts
from gamecert.engine.testpack.outcome import Outcome, tn


def kills_csv(o: Outcome) -> str:
    """Tests x programs (wrong, right, broken solvers, mutants), then a last row ``killed``: for
    each column the number of tests that kill it, and in its origin cell the totals."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    programs = [p.name for p in o.programs]
    broken = sorted(o.broken_rows)
    names = programs + [f"broken/{n}" for n in broken] + o.mutant_names
    w.writerow(["test", "origin", "bytes", *names])
    for k, t in enumerate(o.tests):
        cells = (
            [o.program_rows[n][k] for n in programs]
            + [o.broken_rows[n][k] for n in broken]
            + [o.mutant_rows[n][k] for n in o.mutant_names]
        )
        w.writerow([tn(k + 1, len(o.tests)), t.origin, t.bytes, *cells])
    rows = (
        [o.program_rows[n] for n in programs]
        + [o.broken_rows[n] for n in broken]
        + [o.mutant_rows[n] for n in o.mutant_names]
    )
    w.writerow(["killed", strength_line(o), "", *[sum(ts.is_kill(v) for v in r) for r in rows]])
    return buf.getvalue()


def strength_counts(o: Outcome) -> dict[str, tuple[int, int]]:
    """(killed, of) for the wrong programs, the broken solvers and the non-equivalent mutants."""
    wrong = [p for p in o.programs if p.kind != "right"]
    broken_killed = sum(1 for r in o.broken_rows.values() if any(ts.is_kill(v) for v in r))
    return {
        "wrong programs": (len(wrong) - len(o.survivors), len(wrong)),
        "broken solvers": (broken_killed, len(o.broken_rows)),
        "mutants": mutation_score(o),
    }


def strength_line(o: Outcome) -> str:
    c = strength_counts(o)
    missed = len(o.pool_killed) + len(o.survivors) + c["broken solvers"][1] - c["broken solvers"][0]
    return (
        "; ".join(f"{name} killed {k}/{n}" for name, (k, n) in c.items())
        + f"; caught by the plan or certify but not by this package: {missed}"
    )


def mutation_score(o: Outcome) -> tuple[int, int]:
    killed = sum(1 for n in o.mutant_names if any(ts.is_kill(v) for v in o.mutant_rows[n]))
    return killed, len(o.mutant_names) - len(o.equivalent)


def readme(entry: Any, o: Outcome, muts: Sequence[Any]) -> str:
    game = entry.game
    killed, non_eq = mutation_score(o)
    wrong = [p for p in o.programs if p.kind != "right"]
    right = [p for p in o.programs if p.kind == "right"]
    lines = [
        f"# Tests for {game.title} ({entry.name})",
        "",
        "Written by `gamecert tests`. Layout: "
        + (
            "Polygon's: `problem.xml`; "
            if o.layout == "polygon"
            else "DMOJ's: `init.yml` (the cases, 1 point each; DMOJ's bridged checker over `files/check.cpp`, type "
            "testlib; set the time and memory limits below in the site's problem settings); "
            if o.layout == "dmoj"
            else "Kattis': `problem.yaml`, `data/sample` and `data/secret` (the same tests as `.in` and "
            "`.ans`), `input_validators/` and `output_validators/` (the validator and checker below, in "
            "Kattis' exit codes 42 and 43), `submissions/accepted/`; "
            if o.layout == "kattis"
            else ""
        )
        + f"`tests/{tn(1, len(o.tests))}`..`tests/{tn(len(o.tests), len(o.tests))}` (inputs) and the same names with "
        "`.a` (the expected answers), samples first; "
        + (
            "`files/validator.cpp` and `files/check.cpp` (plain C++17, testlib's protocol: the validator exits 3 "
            "with the line and column of the first fault; `check INPUT OUTPUT ANSWER` exits 0 OK, 1 WA, 2 PE, 3 "
            "fail), the same in Python (`files/validator.py`, `files/checker.py`)"
            + (
                ", the model solution in `solutions/`, `doall.sh` (builds, validates every test, checks the model "
                "solution on each); "
                if o.layout == "polygon"
                else "; "
            )
            if o.layout in ("polygon", "dmoj", "kattis")
            else "`validator.py` (exit 0 valid, 3 invalid) and `checker.py INPUT OUTPUT ANSWER` (exit 0 OK, 1 WA, 2 PE, "
            "3 fail), standard library only; "
        )
        + "`kills.csv`: tests x programs, with verdicts (a TLE kill with its margin: CPU time over the limit).",
        "",
        f"Limits: {game.time_limit:g} s CPU, {game.memory_limit_mb} MB per test.",
        "",
        "## Tests",
        "",
        f"Each mutant and broken solver runs on the tests smallest first until {ts.KILL_CAP} of them kill it (its "
        "later cells in `kills.csv` are `-`, not run): a test's counts are of those run on it.",
        "",
    ]
    for k, t in enumerate(o.tests):
        progs = [p.name for p in wrong if ts.is_kill(o.program_rows[p.name][k])]
        mk = sum(1 for n in o.mutant_names if ts.is_kill(o.mutant_rows[n][k]))
        bk = [n for n, r in o.broken_rows.items() if ts.is_kill(r[k])]
        lines.append(
            f"- `tests/{tn(k + 1, len(o.tests))}` {t.origin}"
            + (f" [{t.role}]" if t.role else "")
            + f"; size {game.size(t.instance)}, {t.bytes} bytes; kills {mk} mutants, {len(bk)} broken solvers"
            + (f" and {', '.join(progs)}" if progs else "")
        )
    lines += [
        "",
        "## Totals",
        "",
        f"- tests: {len(o.tests)}, {sum(t.bytes for t in o.tests):,} bytes of input",
        f"- mutation score: {killed} / {non_eq} non-equivalent mutants killed"
        + (f" ({100 * killed / non_eq:.1f}%)" if non_eq else ""),
        f"- mutants made: {len(o.mutant_names)} ({len(o.equivalent)} equivalent on the planned inputs, "
        f"{len(o.undecided)} undecided: stopped by their time budget or hung)",
        f"- wrong programs killed: {len(wrong) - len(o.survivors)} / {len(wrong)} (run through gamecert's runner "
        "with the problem's limits)",
    ]
    c = strength_counts(o)
    lines += [
        f"- broken solvers killed (tests/broken/{entry.name}.py, in-process): {c['broken solvers'][0]} / "
        f"{c['broken solvers'][1]}",
        f"- strength: {strength_line(o)} (mutants: a planned input kills them; wrong programs: "
        "`gamecert certify` was run on each survivor, see below)",
    ]
    lines += [
        "",
        "## Time and memory tests",
        "",
        "Kept because a slow or memory-hungry program (a slow wrong program the project keeps, a right "
        "program, a registered solver) used the most time or memory on them among the largest and "
        "worst-case inputs. CPU time as gamecert's runner measured it on this machine (noisy under load):",
        "",
    ]
    ref = next(
        (p.name for p in right if p.name == "examples/correct"), right[0].name if right else None
    )
    timed = [k for k, t in enumerate(o.tests) if "time/memory" in t.role]
    for k in timed:
        cpu = {p.name: o.usage[p.name, k] for p in right if (p.name, k) in o.usage}
        slowest = max(cpu, key=lambda n: cpu[n][0]) if cpu else None
        lines.append(
            f"- `tests/{tn(k + 1, len(o.tests))}`: "
            + (f"reference {ref} {cpu[ref][0]:.2f} s, {cpu[ref][1]:.0f} MB; " if ref in cpu else "")
            + (
                f"slowest right program {slowest} {cpu[slowest][0]:.2f} s (limit {game.time_limit:g} s)"
                if slowest
                else "not timed"
            )
            + f"; {t_role(o.tests[k])}"
        )
    if not timed:
        lines.append("- none")
    lines += ["", "## Proof", ""]
    for p in right:
        ok = all(v == "OK" for v in o.program_rows[p.name])
        lines.append(f"- right program {p.name}: {'passes every test' if ok else 'FAILS a test'}")
    for name, row in o.right_rows.items():
        lines.append(
            f"- registered solver {name}: {'passes every test' if all(v == 'OK' for v in row) else 'FAILS a test'}"
        )
    lines.append(
        f"- the validator accepts every test: {'yes' if not any('validator' in f for f in o.faults) else 'NO'}"
    )
    lines.append(
        f"- the checker gives gamecert's verdict on every judged output: "
        f"{'yes' if not any('checker' in f for f in o.faults) else 'NO'}"
    )
    for f in o.faults:
        lines.append(f"- FAULT: {f}")
    lines += ["", "## Wrong programs", ""]
    for p in wrong:
        ks = o.killed(p.name, o.program_rows)
        verdicts = sorted({o.program_rows[p.name][k] for k in ks})
        lines.append(
            f"- {p.name}"
            + (f" ({p.what})" if p.what else "")
            + ": "
            + (
                f"killed by {', '.join(tn(k + 1, len(o.tests)) for k in ks)} ({', '.join(verdicts)})"
                if ks
                else f"SURVIVES: {o.survivors.get(p.name, '')}"
            )
        )
    by_name = {m.name: m for m in muts}
    lines += [
        "",
        "## Mutants",
        "",
        "Equivalent on the planned inputs (no input of the plan, every pool input included, tells them from "
        "the oracle):",
        "",
    ]
    lines += [
        f"- {n}: {by_name[n].kind} at {by_name[n].where}: {by_name[n].what}" for n in o.equivalent
    ] or ["- none"]
    lines += [
        "",
        "Undecided (their time budget ran out, or they hung, before every input was tried):",
        "",
    ]
    lines += [
        f"- {n}: {by_name[n].kind} at {by_name[n].where}: {by_name[n].what}" for n in o.undecided
    ] or ["- none"]
    survivors = [
        n
        for n in o.mutant_names
        if n not in o.equivalent
        and n not in o.undecided
        and not any(ts.is_kill(v) for v in o.mutant_rows[n])
    ]
    lines += ["", "Surviving (killed by a planned input that did not fit in the package):", ""]
    lines += [
        f"- {n}: {by_name[n].kind} at {by_name[n].where}: {by_name[n].what}" for n in survivors
    ] or ["- none"]
    lines += ["", *[f"- {note}" for note in o.notes]] if o.notes else []
    return "\n".join(lines) + "\n"


def t_role(t: ts.Test) -> str:
    return t.role.split("time/memory: ", 1)[-1]
