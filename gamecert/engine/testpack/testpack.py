"""Writing and checking a test package (``gamecert tests GAME --out DIR`` / ``--check DIR``).

Layout (Polygon's): ``tests/01``, ``tests/01.a``, ... (samples first), ``validator.py``,
``checker.py`` (:mod:`gamecert.kit.standalone`), ``README.md`` (one line per test, the totals,
the proof) and ``kills.csv`` (tests x programs, with verdicts). The choice of tests is
:mod:`gamecert.engine.testpack.testset`'s.
"""

from __future__ import annotations

import csv
import io
import os
import runpy
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamecert.engine.testpack import mutants as mutants_mod
from gamecert.engine.testpack import testset as ts
from gamecert.engine.judge.judge import expected_answer
from gamecert.errors import GamecertError
from gamecert.kit.standalone import program as standalone_program
from gamecert.kit.tokens import verdict_of


@dataclass
class Knobs:
    max_tests: int = 100
    per_family: int = 24
    per_space: int = 300
    search_seconds: float = 60.0
    mutant_budget: float = 10.0
    max_mutants: int | None = None


@dataclass
class Outcome:
    """What a build or a check found; ``faults`` make the exit status 1."""

    tests: list[ts.Test]
    mutant_names: list[str]
    mutant_rows: dict[str, list[str]]
    equivalent: list[str]
    undecided: list[str]
    survivors: dict[str, str]
    programs: list[ts.Program]
    program_rows: dict[str, list[str]]
    right_rows: dict[str, list[str]]
    faults: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def killed(self, name: str, rows: dict[str, list[str]]) -> list[int]:
        return [k for k, v in enumerate(rows[name]) if v not in ("OK", "-")]


def standalone_code(entry: Any) -> str:
    code = getattr(entry.game, "standalone_code", None)
    if not isinstance(code, str) or not code.strip():
        raise ts.PackageError(
            f"game {entry.name} has no standalone_code (the validator's and checker's part, see "
            "docs/tests.md): the game's author must write it before a package can be made")
    return code


def _load(path: Path, name: str) -> Callable[..., Any]:
    try:
        return runpy.run_path(str(path), run_name="gamecert_package")[name]
    except Exception as exc:  # noqa: BLE001 - the game's standalone_code is the game author's code
        raise ts.PackageError(f"{path.name} does not load ({type(exc).__name__}: {exc}): "
                              "a mistake in the game's standalone_code (the game author's)") from None


def _say_none(text: str) -> None:
    pass


def build(entry: Any, out: Path, against: Sequence[str], knobs: Knobs, say: Callable[[str], None] = _say_none) -> Outcome:
    """Choose the tests, measure the kill matrix, write the package into ``out``."""
    code = standalone_code(entry)
    game = entry.game
    user = ts.user_programs(against)
    wrong, right = ts.project_programs(entry)
    wrong += user
    pool = ts.build_pool(entry, knobs.per_family, knobs.per_space)
    say(f"pool: {len(pool)} planned inputs (samples, largest, families, exhaustive spaces)")
    answers = ts.expected_texts(entry, pool)
    muts = mutants_mod.make_mutants(entry.solvers, knobs.max_mutants)
    say(f"mutants: {len(muts)} of {', '.join(sorted(entry.solvers))}; judging them on the pool in-process")
    results = ts.mutant_matrix(entry, muts, pool, answers, ts.KILL_CAP, knobs.mutant_budget)
    kills: dict[int, set[str]] = {}
    for m, r in zip(muts, results):
        for i in r.kills:
            kills.setdefault(i, set()).add(m.name)
    sizes = {k: t.bytes for k, t in enumerate(pool)}

    def best(indices: list[int]) -> int:
        return max(indices, key=lambda k: (len(kills.get(k, ())), -sizes[k], -k))

    chosen = [k for k, t in enumerate(pool) if t.group in ("samples", "largest")]
    groups: dict[str, list[int]] = {}
    for k, t in enumerate(pool):
        if t.group.startswith("family:"):
            groups.setdefault(t.group, []).append(k)
    chosen += [best(ix) for ix in groups.values()]
    if len(chosen) > knobs.max_tests:
        raise ts.PackageError(f"--max-tests {knobs.max_tests} is below the {len(chosen)} tests every package holds "
                              "(the samples, the largest inputs and one test per family)")
    keep = set(chosen)
    covered = set().union(*(kills.get(k, set()) for k in chosen))
    rest = sorted((k for k in range(len(pool)) if k not in keep), key=lambda k: (sizes[k], k))
    chosen += ts.greedy_cover(rest, kills, sizes, covered, knobs.max_tests - len(chosen))
    tests = [pool[k] for k in chosen]
    test_answers = [answers[k] for k in chosen]
    say(f"chosen: {len(tests)} tests for the mutants; running the wrong programs on them")
    # wrong programs: on the chosen tests, then a search for one that is not killed
    ts._RUNS.clear()  # noqa: SLF001 - runs are remembered within one build only
    by_search: set[int] = set()
    rows, _ = ts.runs_matrix(entry, wrong, tests, test_answers, on_program=lambda p: say(f"  running {p.name}"))
    for prog in wrong:
        if any(v not in ("OK", "-") for v in rows[prog.name]):
            continue
        if len(tests) >= knobs.max_tests:
            break
        say(f"  {prog.name} passes every chosen test; looking for an input that kills it")
        found = ts.search_kill(entry, prog, pool, answers, knobs.search_seconds)
        if found is not None:
            tests.append(found[0])
            test_answers.append(found[1])
            by_search.add(len(tests) - 1)
    # only the small exhaustive tests the set cover chose are packed (a wrong program's killing
    # input stays as it was found: a batch may hide it, as a t = 1 path shows)
    packed = ts.pack(entry, tests, {k for k, t in enumerate(tests) if t.group != "exhaustive" or k in by_search})
    if packed is not tests:
        packed_answers = ts.expected_texts(entry, packed)
        say(f"packed: {len(tests)} tests into {len(packed)} files of up to {game.max_batch} games")
        before = _mutant_kills(entry, muts, tests, test_answers, knobs)
        after = _mutant_kills(entry, muts, packed, packed_answers, knobs)
        if set(before) - set(after):
            say("packing lost a mutant kill: the tests stay one to a file")
        else:
            tests, test_answers = packed, packed_answers
    order = sorted(range(len(tests)), key=lambda k: (tests[k].group != "samples", k))
    tests = [tests[k] for k in order]
    test_answers = [test_answers[k] for k in order]
    for t, a in zip(tests, test_answers):
        t.expected_text = game.format_answer(a)
    _write_tests(out, tests, entry, code)
    return measure(entry, out, tests, test_answers, muts, wrong, right, knobs, say, pool=(pool, answers))


def _mutant_kills(entry: Any, muts: Sequence[Any], tests: Sequence[ts.Test], answers: Sequence[Any], knobs: Knobs) -> dict[str, int]:
    res = ts.mutant_matrix(entry, muts, list(tests), list(answers), 1, knobs.mutant_budget)
    return {m.name: 1 for m, r in zip(muts, res) if r.kills}


def _write_tests(out: Path, tests: Sequence[ts.Test], entry: Any, code: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    folder = out / "tests"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    width = max(2, len(str(len(tests))))
    for k, t in enumerate(tests, 1):
        (folder / f"{k:0{width}d}").write_text(t.text)
        (folder / f"{k:0{width}d}.a").write_text(t.expected_text)
    for kind in ("validator", "checker"):
        path = out / f"{kind}.py"
        path.write_text(standalone_program(kind, entry.name, code))
        path.chmod(0o755)


def read_package(entry: Any, folder: Path) -> tuple[list[ts.Test], list[Any], list[str]]:
    """The tests of a package on disk (possibly edited by hand): each parsed, its answer file
    checked against gamecert's expected answer; the faults found."""
    game = entry.game
    tests_dir = folder / "tests"
    if not tests_dir.is_dir():
        raise ts.PackageError(f"{folder} is not a test package: it has no tests/ folder")
    names = sorted((p for p in tests_dir.iterdir() if p.is_file() and "." not in p.name), key=lambda p: (len(p.name), p.name))
    if not names:
        raise ts.PackageError(f"{tests_dir} holds no tests (files named 01, 02, ...)")
    tests, answers, faults = [], [], []
    for p in names:
        text = p.read_bytes().decode("utf-8", errors="replace")
        try:
            inst = game.parse_input(text)
        except GamecertError as exc:
            faults.append(f"tests/{p.name}: not a valid input ({exc})")
            continue
        a_path = p.with_name(p.name + ".a")
        expected = expected_answer(entry, inst, every=True)[0]
        t = ts.Test(inst, text, f"tests/{p.name}", "package", expected_text=game.format_answer(expected))
        if not a_path.exists():
            faults.append(f"tests/{p.name}.a is missing")
        else:
            v, why = verdict_of(game, inst, a_path.read_text(errors="replace"), expected)
            if v.value != "OK":
                faults.append(f"tests/{p.name}.a is not a right answer ({v.value}: {why})")
            else:
                t.expected_text = a_path.read_text(errors="replace")
        tests.append(t)
        answers.append(expected)
    return tests, answers, faults


def check(entry: Any, folder: Path, against: Sequence[str], knobs: Knobs, say: Callable[[str], None] = _say_none) -> Outcome:
    """Re-run a package on disk against the same programs."""
    ts._RUNS.clear()  # noqa: SLF001 - every program runs anew on the package as it is now
    tests, answers, faults = read_package(entry, folder)
    wrong, right = ts.project_programs(entry)
    wrong += ts.user_programs(against)
    muts = mutants_mod.make_mutants(entry.solvers, knobs.max_mutants)
    outcome = measure(entry, folder, tests, answers, muts, wrong, right, knobs, say, write=False)
    outcome.faults[:0] = faults
    return outcome


def measure(entry: Any, out: Path, tests: list[ts.Test], answers: list[Any], muts: Sequence[Any],
            wrong: list[ts.Program], right: list[ts.Program], knobs: Knobs, say: Callable[[str], None],
            write: bool = True, pool: tuple[list[ts.Test], list[Any]] | None = None) -> Outcome:
    """The final matrix: mutants in-process, programs through the runner, the package's own
    validator and checker on every test and every output judged."""
    faults: list[str] = []
    validate = _load(out / "validator.py", "validate")
    checker = _load(out / "checker.py", "check")
    for k, t in enumerate(tests, 1):
        why = validate(t.text)
        if why:
            faults.append(f"validator.py rejects test {k:02d}: {why}")
    say(f"final: {len(tests)} tests; {len(muts)} mutants in-process")
    results = ts.mutant_matrix(entry, muts, tests, answers, 0, knobs.mutant_budget)
    mutant_rows = {m.name: ["OK"] * len(tests) for m in muts}
    for m, r in zip(muts, results):
        for i, (v, _) in r.kills.items():
            mutant_rows[m.name][i] = v
        if not r.complete and not r.kills:
            mutant_rows[m.name] = ["-"] * len(tests)
    say(f"final: {len(wrong)} wrong and {len(right)} right programs through the runner")
    program_rows, disagree = ts.runs_matrix(entry, wrong + right, tests, answers, checker,
                                            on_program=lambda p: say(f"  running {p.name}"))
    faults += [f"checker.py disagrees with gamecert's judge ({d}): a mistake in the game's standalone_code" for d in disagree]
    for p in right:
        bad = [k + 1 for k, v in enumerate(program_rows[p.name]) if v != "OK"]
        if bad:
            faults.append(f"the right program {p.name} fails tests {', '.join(f'{k:02d}' for k in bad)}")
    right_rows = ts.solver_verdicts(entry, tests, answers)
    for name, row in right_rows.items():
        bad = [k + 1 for k, v in enumerate(row) if v != "OK"]
        if bad:
            faults.append(f"the registered solver {name} fails tests {', '.join(f'{k:02d}' for k in bad)}")
    # the answers themselves pass the checker (a right output is accepted)
    for k, t in enumerate(tests, 1):
        code, why = checker(t.text, t.expected_text, t.expected_text)
        if code != 0:
            faults.append(f"checker.py does not accept test {k:02d}'s own answer file ({why})")
    # a mutant no test kills: on the whole pool, is there an input that kills it?
    alive = [m for m in muts if not any(v not in ("OK", "-") for v in mutant_rows[m.name])]
    if alive:
        if pool is None:
            pool_tests = ts.build_pool(entry, knobs.per_family, knobs.per_space)
            pool = (pool_tests, ts.expected_texts(entry, pool_tests))
        say(f"{len(alive)} mutants pass every test; trying them on the {len(pool[0])} planned inputs")
        on_pool = ts.mutant_matrix(entry, alive, pool[0], pool[1], 1, knobs.mutant_budget)
    else:
        on_pool = []
    equivalent, undecided, survivors, pool_killers = [], [], {}, {}
    for m, r in zip(alive, on_pool):
        if r.kills:
            k = min(r.kills)
            pool_killers[m.name] = f"killed by the planned input {pool[0][k].origin} ({r.kills[k][0]}), left out by --max-tests"
        elif r.status == "ok" and r.complete:
            equivalent.append(m.name)
        else:
            undecided.append(m.name)
    for p in wrong:
        if not any(v not in ("OK", "-") for v in program_rows[p.name]):
            survivors[p.name] = "no planned input kills it (the chosen tests, then the families and the pool " \
                                f"searched for {knobs.search_seconds:g} s)"
    outcome = Outcome(tests, [m.name for m in muts], mutant_rows, equivalent, undecided, survivors, wrong + right,
                      program_rows, right_rows, faults)
    outcome.notes.extend(f"{n}: {why}" for n, why in pool_killers.items())
    if write:
        (out / "kills.csv").write_text(kills_csv(outcome))
        (out / "README.md").write_text(readme(entry, outcome, muts))
    return outcome


def kills_csv(o: Outcome) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = [p.name for p in o.programs] + o.mutant_names
    w.writerow(["test", "origin", "bytes", *names])
    for k, t in enumerate(o.tests):
        cells = [o.program_rows[n][k] for n in (p.name for p in o.programs)] + [o.mutant_rows[n][k] for n in o.mutant_names]
        w.writerow([f"{k + 1:02d}", t.origin, t.bytes, *cells])
    return buf.getvalue()


def mutation_score(o: Outcome) -> tuple[int, int]:
    killed = sum(1 for n in o.mutant_names if any(v not in ("OK", "-") for v in o.mutant_rows[n]))
    return killed, len(o.mutant_names) - len(o.equivalent)


def readme(entry: Any, o: Outcome, muts: Sequence[Any]) -> str:
    game = entry.game
    killed, non_eq = mutation_score(o)
    wrong = [p for p in o.programs if p.kind != "right"]
    right = [p for p in o.programs if p.kind == "right"]
    lines = [f"# Tests for {game.title} ({entry.name})", "",
             "Written by `gamecert tests`. Layout: `tests/NN` (input) and `tests/NN.a` (the expected answer), "
             "samples first; `validator.py` (exit 0 valid, 3 invalid) and `checker.py INPUT OUTPUT ANSWER` "
             "(exit 0 OK, 1 WA, 2 PE, 3 fail), standard library only; `kills.csv`: tests x programs, with verdicts.",
             "", f"Limits: {game.time_limit:g} s CPU, {game.memory_limit_mb} MB per test.", "", "## Tests", ""]
    for k, t in enumerate(o.tests):
        progs = [p.name for p in wrong if o.program_rows[p.name][k] not in ("OK", "-")]
        mk = sum(1 for n in o.mutant_names if o.mutant_rows[n][k] not in ("OK", "-"))
        lines.append(f"- `{k + 1:02d}` {t.origin}; size {game.size(t.instance)}, {t.bytes} bytes; kills "
                     f"{mk} mutants" + (f" and {', '.join(progs)}" if progs else ""))
    lines += ["", "## Totals", "",
              f"- tests: {len(o.tests)}, {sum(t.bytes for t in o.tests):,} bytes of input",
              f"- mutation score: {killed} / {non_eq} non-equivalent mutants killed"
              + (f" ({100 * killed / non_eq:.1f}%)" if non_eq else ""),
              f"- mutants made: {len(o.mutant_names)} ({len(o.equivalent)} equivalent on the planned inputs, "
              f"{len(o.undecided)} undecided: stopped by their time budget or hung)",
              f"- wrong programs killed: {len(wrong) - len(o.survivors)} / {len(wrong)} (run through gamecert's runner "
              "with the problem's limits)"]
    lines += ["", "## Proof", ""]
    for p in right:
        ok = all(v == "OK" for v in o.program_rows[p.name])
        lines.append(f"- right program {p.name}: {'passes every test' if ok else 'FAILS a test'}")
    for name, row in o.right_rows.items():
        lines.append(f"- registered solver {name}: {'passes every test' if all(v == 'OK' for v in row) else 'FAILS a test'}")
    lines.append(f"- validator.py accepts every test: {'yes' if not any('validator' in f for f in o.faults) else 'NO'}")
    lines.append(f"- checker.py gives gamecert's verdict on every judged output: "
                 f"{'yes' if not any('checker.py' in f for f in o.faults) else 'NO'}")
    for f in o.faults:
        lines.append(f"- FAULT: {f}")
    lines += ["", "## Wrong programs", ""]
    for p in wrong:
        ks = o.killed(p.name, o.program_rows)
        verdicts = sorted({o.program_rows[p.name][k] for k in ks})
        lines.append(f"- {p.name}" + (f" ({p.what})" if p.what else "") + ": "
                     + (f"killed by {', '.join(f'{k + 1:02d}' for k in ks)} ({', '.join(verdicts)})" if ks
                        else f"SURVIVES: {o.survivors.get(p.name, '')}"))
    by_name = {m.name: m for m in muts}
    lines += ["", "## Mutants", "",
              "Equivalent on the planned inputs (no input of the plan, every pool input included, tells them from "
              "the oracle):", ""]
    lines += [f"- {n}: {by_name[n].kind} at {by_name[n].where}: {by_name[n].what}" for n in o.equivalent] or ["- none"]
    lines += ["", "Undecided (their time budget ran out, or they hung, before every input was tried):", ""]
    lines += [f"- {n}: {by_name[n].kind} at {by_name[n].where}: {by_name[n].what}" for n in o.undecided] or ["- none"]
    survivors = [n for n in o.mutant_names if n not in o.equivalent and n not in o.undecided
                 and not any(v not in ("OK", "-") for v in o.mutant_rows[n])]
    lines += ["", "Surviving (killed by a planned input that did not fit in the package):", ""]
    lines += [f"- {n}: {by_name[n].kind} at {by_name[n].where}: {by_name[n].what}" for n in survivors] or ["- none"]
    lines += ["", *[f"- {note}" for note in o.notes]] if o.notes else []
    return "\n".join(lines) + "\n"


def atomic_out(out: Path) -> Path:
    """A fresh temporary folder beside ``out`` (renamed into place by :func:`commit_out`)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))


def commit_out(tmp: Path, out: Path) -> None:
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
        os.rename(out, old / "x")
        os.rename(tmp, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(tmp, out)
