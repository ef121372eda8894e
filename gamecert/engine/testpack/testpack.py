"""Writing and checking a test package (``gamecert tests GAME --out DIR`` / ``--check DIR``).

Layout (Polygon's): ``tests/01``, ``tests/01.a``, ... (samples first), ``validator.py``,
``checker.py`` (:mod:`gamecert.kit.standalone`), ``README.md`` (one line per test, the totals,
the proof) and ``kills.csv`` (tests x programs, with verdicts). The choice of tests is
:mod:`gamecert.engine.testpack.testset`'s.
"""

from __future__ import annotations

import csv
import io
import runpy
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamecert.engine.judge.judge import expected_answer
from gamecert.engine.testpack import cpp, dmoj, kattis, plainjudge, polygon, strength
from gamecert.engine.testpack import mutants as mutants_mod
from gamecert.engine.testpack import testset as ts
from gamecert.errors import GamecertError
from gamecert.kit.tokens import verdict_of


@dataclass
class Knobs:
    max_tests: int = 100
    per_family: int = 24
    per_space: int = 300
    search_seconds: float = 60.0
    mutant_budget: float = 10.0
    max_mutants: int | None = None
    #: run ``gamecert certify --profile quick`` on each wrong program the package misses
    certify_survivors: bool = True
    #: the package's layout: ``polygon`` or ``plain`` (:mod:`.polygon`)
    format: str = "polygon"


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
    #: the project's broken solvers (tests/broken/GAME.py), in-process: verdict per test
    broken_rows: dict[str, list[str]] = field(default_factory=dict)
    #: mutants a planned input kills that no test of the package kills
    pool_killed: list[str] = field(default_factory=list)
    #: (right program, test index) -> (CPU seconds, peak MB) as the runner measured them
    usage: dict[tuple[str, int], tuple[float, float]] = field(default_factory=dict)
    #: the package's layout (:data:`.polygon.FORMATS`)
    layout: str = "plain"

    def killed(self, name: str, rows: dict[str, list[str]]) -> list[int]:
        return [k for k, v in enumerate(rows[name]) if ts.is_kill(v)]


def tn(k: int, count: int) -> str:
    """Test ``k`` (from 1) of ``count`` as its file is named: ``tests/01`` .. ``tests/NN``."""
    return f"{k:0{polygon.width(count)}d}"


def standalone_code(entry: Any) -> str:
    code = getattr(entry.game, "standalone_code", None)
    if not isinstance(code, str) or not code.strip():
        raise ts.PackageError(
            f"game {entry.name} has no standalone_code (the validator's and checker's part, see "
            "docs/tests.md): the game's author must write it before a package can be made"
        )
    return code


def _load(path: Path, name: str) -> Callable[..., Any]:
    try:
        return runpy.run_path(str(path), run_name="gamecert_package")[name]
    except Exception as exc:  # noqa: BLE001 - the game's standalone_code is the game author's code
        raise ts.PackageError(
            f"{path.name} does not load ({type(exc).__name__}: {exc}): "
            "a mistake in the game's standalone_code (the game author's)"
        ) from None


def _say_none(text: str) -> None:
    pass


def build(
    entry: Any,
    out: Path,
    against: Sequence[str],
    knobs: Knobs,
    say: Callable[[str], None] = _say_none,
) -> Outcome:
    """Choose the tests, measure the kill matrix, write the package into ``out``."""
    try:
        return _build(entry, out, against, knobs, say)
    finally:
        ts.close_runners()


def _build(
    entry: Any, out: Path, against: Sequence[str], knobs: Knobs, say: Callable[[str], None]
) -> Outcome:
    code = standalone_code(entry)
    if knobs.format in ("polygon", "dmoj", "kattis"):
        cpp.game_part(entry)  # a game without its C++ part is told so before any work
    game = entry.game
    user = ts.user_programs(against)
    wrong, right = ts.project_programs(entry)
    wrong += user
    pool = full_pool(entry, knobs)
    say(
        f"pool: {len(pool)} planned inputs (samples, largest, families, deciding features, exhaustive spaces)"
    )
    answers = ts.expected_texts(entry, pool)
    muts = mutants_mod.make_mutants(entry.solvers, knobs.max_mutants)
    say(
        f"mutants: {len(muts)} of {', '.join(sorted(entry.solvers))}; judging them on the pool in-process"
    )
    results = ts.mutant_matrix(entry, muts, pool, answers, ts.KILL_CAP, knobs.mutant_budget)
    kills: dict[int, set[str]] = {}
    for m, r in zip(muts, results):
        for i in r.kills:
            kills.setdefault(i, set()).add(m.name)
    broken = _broken(entry)
    for name, row in strength.broken_rows(
        entry, broken, pool, answers, kill_cap=ts.KILL_CAP, budget=knobs.mutant_budget
    ).items():
        for i, v in enumerate(row):
            if ts.is_kill(v):
                kills.setdefault(i, set()).add(f"broken/{name}")
    ts._RUNS.clear()  # noqa: SLF001 - runs are remembered within one build only
    _CERTIFIED.clear()
    ts.USAGE.clear()
    time_idx, time_roles = strength.pick_time_tests(
        entry, pool, answers, strength.slow_programs(wrong), right, say
    )
    chosen = strength.choose(entry, pool, kills, time_roles, knobs.max_tests)
    tests = [pool[k] for k in chosen]
    test_answers = [answers[k] for k in chosen]
    say(f"chosen: {len(tests)} tests; running the wrong programs on them")
    # wrong programs: on the chosen tests, then a search for one that is not killed; an input
    # found takes the place of the last test taken only to fill the package
    by_search: set[int] = set()
    rows, _ = ts.runs_matrix(
        entry, wrong, tests, test_answers, on_program=lambda p: say(f"  running {p.name}")
    )
    fillers = ("worst case", "deciding feature", "smallest exhaustive", "coverage")
    missed = [p for p in wrong if not any(ts.is_kill(v) for v in rows[p.name])]
    # the search's time: search_seconds a program, what one leaves unused going to the next
    left = knobs.search_seconds * len(missed)
    for n, prog in enumerate(missed):
        share = left / (len(missed) - n)
        say(
            f"  {prog.name} passes every chosen test; looking for an input that kills it ({share:.0f} s)"
        )
        began = time.perf_counter()
        found = ts.search_kill(entry, prog, pool, answers, share)
        left = max(0.0, left - (time.perf_counter() - began))
        if found is None and knobs.certify_survivors:
            found = _certify_input(
                entry, prog, say, knobs.search_seconds
            )  # the input certify fails it on, where it does
        if found is None:
            continue
        if len(tests) >= knobs.max_tests:
            drop = next(
                (k for k in range(len(tests) - 1, -1, -1) if tests[k].role in fillers), None
            )
            if drop is None:
                say(
                    f"  no room for the input that kills {prog.name} (--max-tests {knobs.max_tests})"
                )
                continue
            del tests[drop], test_answers[drop]
            by_search = {k - (k > drop) for k in by_search}
        found[0].role = f"kills {prog.name}"
        tests.append(found[0])
        test_answers.append(found[1])
        by_search.add(len(tests) - 1)
    # only the small exhaustive tests the set cover chose are packed (a wrong program's killing
    # input stays as it was found: a batch may hide it, as a t = 1 path shows)
    packed = ts.pack(
        entry, tests, {k for k, t in enumerate(tests) if t.group != "exhaustive" or k in by_search}
    )
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
    tests, test_answers = _valid_only(entry, tests, test_answers, knobs, say)
    polygon.write_tests(out, tests)
    polygon.write_files(out, entry, code, knobs.format, tests)
    return measure(
        entry, out, tests, test_answers, muts, wrong, right, knobs, say, pool=(pool, answers)
    )


def _valid_only(
    entry: Any, tests: list[ts.Test], answers: list[Any], knobs: Knobs, say: Callable[[str], None]
) -> tuple[list[ts.Test], list[Any]]:
    """The tests that pass strict validation (gamecert's: valid and written as the format says;
    the C++ validator's where g++ is): a test that fails it is never written."""
    judge = (
        cpp.Judge.of(entry)
        if knobs.format in ("polygon", "dmoj", "kattis") and cpp.compiler()
        else None
    )
    kept: list[int] = []
    for k, t in enumerate(tests):
        why = cpp.strict_fault(entry.game, t.text) or (
            judge.validate(t.text) if judge is not None else ""
        )
        if why:
            say(f"  {t.origin} fails validation and is left out ({why[:120]})")
        else:
            kept.append(k)
    if judge is not None:
        judge.close()
    return [tests[k] for k in kept], [answers[k] for k in kept]


def full_pool(entry: Any, knobs: Knobs) -> list[ts.Test]:
    """The plan's inputs (:func:`.testset.build_pool`), then every deciding-feature family and the
    smallest exhaustive inputs packed (:mod:`.strength`), de-duplicated by text."""
    pool = ts.build_pool(entry, knobs.per_family, knobs.per_space)
    seen = {t.text for t in pool}
    for t in strength.deciding_tests(entry) + strength.packed_smallest(entry, pool):
        if t.text not in seen:
            seen.add(t.text)
            pool.append(t)
    return pool


def _broken(entry: Any) -> dict[str, Any]:
    """The game's broken solvers (``tests/broken/GAME.py``), none where it keeps none."""
    from gamecert.engine import registry

    try:
        return dict(registry.broken_solvers(entry.name))
    except GamecertError:
        pass
    source, _ = registry._source_of(entry.name)  # noqa: SLF001 - the project's tests/ needs its root on the path
    if source.kind != "project" or not (Path(source.where) / "tests" / "broken").is_dir():
        return {}
    import sys

    sys.path.insert(0, str(source.where))
    try:
        return dict(registry.broken_solvers(entry.name))
    except GamecertError:
        return {}
    finally:
        sys.path.remove(str(source.where))


def _mutant_kills(
    entry: Any, muts: Sequence[Any], tests: Sequence[ts.Test], answers: Sequence[Any], knobs: Knobs
) -> dict[str, int]:
    res = ts.mutant_matrix(entry, muts, list(tests), list(answers), 1, knobs.mutant_budget)
    return {m.name: 1 for m, r in zip(muts, res) if r.kills}


def read_package(entry: Any, folder: Path) -> tuple[list[ts.Test], list[Any], list[str]]:
    """The tests of a package on disk (possibly edited by hand): each parsed, its answer file
    checked against gamecert's expected answer; the faults found."""
    game = entry.game
    tests_dir = folder / "tests"
    if not tests_dir.is_dir():
        raise ts.PackageError(f"{folder} is not a test package: it has no tests/ folder")
    names = sorted(
        (p for p in tests_dir.iterdir() if p.is_file() and "." not in p.name),
        key=lambda p: (len(p.name), p.name),
    )
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
        t = ts.Test(
            inst, text, f"tests/{p.name}", "package", expected_text=game.format_answer(expected)
        )
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


def check(
    entry: Any,
    folder: Path,
    against: Sequence[str],
    knobs: Knobs,
    say: Callable[[str], None] = _say_none,
) -> Outcome:
    """Re-run a package on disk against the same programs."""
    ts._RUNS.clear()  # noqa: SLF001 - every program runs anew on the package as it is now
    _CERTIFIED.clear()
    tests, answers, faults = read_package(entry, folder)
    if polygon.is_polygon(folder) or dmoj.is_dmoj(folder):
        try:
            polygon.read_problem_xml(folder) if polygon.is_polygon(folder) else dmoj.read_init_yml(
                folder
            )
        except dmoj.NoYaml as exc:  # not the package's fault: init.yml is not read here
            say(f"note: {exc}")
        except ts.PackageError as exc:
            faults.append(str(exc))
    wrong, right = ts.project_programs(entry)
    wrong += ts.user_programs(against)
    muts = mutants_mod.make_mutants(entry.solvers, knobs.max_mutants)
    try:
        outcome = measure(
            entry,
            folder,
            tests,
            answers,
            muts,
            wrong,
            right,
            knobs,
            say,
            write=False,
            plain_users=True,
        )
    finally:
        ts.close_runners()
    outcome.faults[:0] = faults
    return outcome


def measure(
    entry: Any,
    out: Path,
    tests: list[ts.Test],
    answers: list[Any],
    muts: Sequence[Any],
    wrong: list[ts.Program],
    right: list[ts.Program],
    knobs: Knobs,
    say: Callable[[str], None],
    write: bool = True,
    pool: tuple[list[ts.Test], list[Any]] | None = None,
    plain_users: bool = False,
) -> Outcome:
    """The final matrix: mutants and broken solvers in-process, programs through the runner
    (``--against`` programs judged as a judge does, by :mod:`.plainjudge`, where
    ``plain_users``), the package's own validator and checker on every test and every output
    judged, and every right program's CPU time against half the limit."""
    faults: list[str] = []
    validate = _load(polygon.script_path(out, "validator"), "validate")
    checker = _load(polygon.script_path(out, "checker"), "check")
    native = cpp.package_judge(out, faults)
    for k, t in enumerate(tests, 1):
        for name, why in (
            ("validator.py", validate(t.text)),
            ("validator.cpp", native.validate(t.text) if native else ""),
        ):
            if why:
                faults.append(f"{name} rejects tests/{tn(k, len(tests))}: {why}")
    if native is not None:
        py_checker, checker = checker, cpp.both(checker, native)
    say(f"final: {len(tests)} tests; {len(muts)} mutants in-process")
    # each mutant on the tests smallest first, until it is killed KILL_CAP times: the later cells
    # are "-" (not run), as they are for a program after its TLE cap
    results = ts.mutant_matrix(entry, muts, tests, answers, ts.KILL_CAP, knobs.mutant_budget)
    mutant_rows = {
        m.name: ["OK" if k in r.tried else "-" for k in range(len(tests))]
        for m, r in zip(muts, results)
    }
    for m, r in zip(muts, results):
        for i, (v, _) in r.kills.items():
            mutant_rows[m.name][i] = v
    say(f"final: {len(wrong)} wrong and {len(right)} right programs through the runner")
    plain = [p for p in wrong if p.kind == "user"] if plain_users else []
    through_runner = [p for p in wrong + right if p not in plain]
    try:
        program_rows, disagree = ts.runs_matrix(
            entry,
            through_runner,
            tests,
            answers,
            checker,
            on_program=lambda p: say(f"  running {p.name}"),
        )
    finally:
        ts.close_runners()  # every program has run: their runners are done with
    for p in plain:
        say(
            f"  judging {p.name} as a judge does (plain build and run, {'check.cpp' if native else 'checker.py'})"
        )
        try:
            program_rows[p.name] = plainjudge.judge(
                out,
                Path(p.spec),
                entry.game.time_limit,
                entry.game.memory_limit_mb,
                tle_cap=ts.TLE_CAP,
                checker_cmd=[str(native.checker)] if native else None,
            )
        except plainjudge.JudgeError as exc:
            faults.append(str(exc))
            program_rows[p.name] = ["-"] * len(tests)
    limit = entry.game.time_limit
    for p in right:
        slow = [
            (k + 1, ts.USAGE[p.spec, t.text][0])
            for k, t in enumerate(tests)
            if (p.spec, t.text) in ts.USAGE and ts.USAGE[p.spec, t.text][0] > limit / 2
        ]
        if slow:
            faults.append(
                f"the right program {p.name} uses more than half the {limit:g} s limit (no 2x margin) on "
                + ", ".join(f"tests/{tn(k, len(tests))} ({cpu:.2f} s)" for k, cpu in slow)
            )
    broken_rows = strength.broken_rows(entry, _broken(entry), tests, answers, kill_cap=ts.KILL_CAP)
    faults += [
        f"the package's checker disagrees with gamecert's judge ({d}): a mistake in the game's standalone_code "
        "or its C++ part"
        for d in disagree
    ]
    for p in right:
        bad = [k + 1 for k, v in enumerate(program_rows[p.name]) if v != "OK"]
        if bad:
            faults.append(
                f"the right program {p.name} fails tests {', '.join(tn(k, len(tests)) for k in bad)}"
            )
    right_rows = ts.solver_verdicts(entry, tests, answers)
    for name, row in right_rows.items():
        bad = [k + 1 for k, v in enumerate(row) if v != "OK"]
        if bad:
            faults.append(
                f"the registered solver {name} fails tests {', '.join(tn(k, len(tests)) for k in bad)}"
            )
    if native is not None:
        native.close()
        checker = py_checker
    # the answers themselves pass the checker (a right output is accepted)
    for k, t in enumerate(tests, 1):
        code, why = checker(t.text, t.expected_text, t.expected_text)
        if code != 0:
            faults.append(
                f"checker.py does not accept tests/{tn(k, len(tests))}.a, the test's own answer file ({why})"
            )
    # a mutant no test kills: on the whole pool, is there an input that kills it?
    alive = [m for m in muts if not any(ts.is_kill(v) for v in mutant_rows[m.name])]
    if alive:
        if pool is None:
            pool_tests = full_pool(entry, knobs)
            pool = (pool_tests, ts.expected_texts(entry, pool_tests))
        say(
            f"{len(alive)} mutants pass every test; trying them on the {len(pool[0])} planned inputs"
        )
        on_pool = ts.mutant_matrix(entry, alive, pool[0], pool[1], 1, knobs.mutant_budget)
    else:
        on_pool = []
    equivalent, undecided, survivors, pool_killers = [], [], {}, {}
    for m, r in zip(alive, on_pool):
        if r.kills:
            k = min(r.kills)
            pool_killers[m.name] = (
                f"killed by the planned input {pool[0][k].origin} ({r.kills[k][0]}), left out by --max-tests"
            )
        elif r.status == "ok" and r.complete:
            equivalent.append(m.name)
        else:
            undecided.append(m.name)
    for p in wrong:
        if not any(ts.is_kill(v) for v in program_rows[p.name]):
            caught = (
                _certify_catches(entry, p, say, knobs.search_seconds)
                if knobs.certify_survivors
                else "not run"
            )
            survivors[p.name] = (
                "passes every test; "
                + {
                    True: "`gamecert certify --profile quick` catches it",
                    False: "`gamecert certify --profile quick` does not catch it",
                    None: "`gamecert certify` could not be run on it",
                    "not run": "not certified (--no-certify)",
                }[caught]
            )
            slow = [
                float(v.split()[1].rstrip("x"))
                for v in program_rows[p.name]
                if v.startswith("slow ")
            ]
            if slow:
                survivors[p.name] += (
                    f"; over the limit on {len(slow)} tests but at most {max(slow):.1f}x it: a TLE "
                    "there would not hold on a faster judge (no 2x margin), so it is no kill"
                )
    outcome = Outcome(
        tests,
        [m.name for m in muts],
        mutant_rows,
        equivalent,
        undecided,
        survivors,
        wrong + right,
        program_rows,
        right_rows,
        faults,
    )
    outcome.broken_rows = broken_rows
    outcome.layout = (
        "polygon"
        if polygon.is_polygon(out)
        else "dmoj"
        if dmoj.is_dmoj(out)
        else "kattis"
        if kattis.is_kattis(out)
        else "plain"
    )
    outcome.pool_killed = sorted(pool_killers)
    outcome.usage = {
        (p.name, k): ts.USAGE[p.spec, t.text]
        for p in right
        for k, t in enumerate(tests)
        if (p.spec, t.text) in ts.USAGE
    }
    outcome.notes.extend(f"{n}: {why}" for n, why in pool_killers.items())
    if write:
        (out / "kills.csv").write_text(kills_csv(outcome))
        (out / "README.md").write_text(readme(entry, outcome, muts) + polygon.readme_section(out))
    return outcome


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


#: program spec -> (whether certify --profile quick caught it, the input of its report): once a build
_CERTIFIED: dict[str, tuple[bool | None, str | None]] = {}


def _certify(
    entry: Any, program: ts.Program, say: Callable[[str], None], seconds: float = 60.0
) -> tuple[bool | None, str | None]:
    """``gamecert certify --profile quick --budget SECONDS`` on ``program``: whether it finds a
    fault, and the failing input its report holds (run on a program the package misses: a package
    should kill what certify catches). The budget is the search's (``--search-seconds``), not the
    quick profile's 10 s: on a loaded machine those 10 s ended before the coverage family reached
    a fault certify finds in 3 s on an idle one."""
    import subprocess
    import sys

    if program.spec in _CERTIFIED:
        return _CERTIFIED[program.spec]
    say(
        f"  {program.name} passes every test: certifying it (quick profile) to see whether certify catches it"
    )
    with tempfile.TemporaryDirectory(prefix="gamecert-tests-certify-") as tmp:
        try:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "gamecert",
                    "certify",
                    entry.name,
                    program.spec,
                    "--profile",
                    "quick",
                    "--budget",
                    f"{max(10.0, seconds):g}",
                    "--report-dir",
                    tmp,
                ],
                capture_output=True,
                timeout=900 + seconds,
            )
        except subprocess.TimeoutExpired:
            _CERTIFIED[program.spec] = (None, None)
            return None, None
        inputs = sorted(Path(tmp).glob("*/*/input.in"))
        text = inputs[0].read_text(errors="replace") if inputs else None
    _CERTIFIED[program.spec] = ({0: False, 1: True}.get(done.returncode), text)
    return _CERTIFIED[program.spec]


def _certify_catches(
    entry: Any, program: ts.Program, say: Callable[[str], None], seconds: float = 60.0
) -> bool | None:
    return _certify(entry, program, say, seconds)[0]


def _certify_input(
    entry: Any, program: ts.Program, say: Callable[[str], None], seconds: float = 60.0
) -> tuple[ts.Test, Any] | None:
    """The input certify's report fails ``program`` on, as a test, where certify catches it and
    the input, read back and run again here, kills it."""
    caught, text = _certify(entry, program, say, seconds)
    if not caught or text is None:
        return None
    try:
        inst = entry.game.parse_input(text)
    except GamecertError:
        return None
    test = ts.Test(inst, entry.game.format_input(inst), "certify's failing input", "certify")
    expected = ts.expected_texts(entry, [test])[0]
    ts._RUNS[program.spec, test.text] = found = ts.run_verdict(
        entry, ts.runner_for(program, entry), test, expected
    )
    verdict = found[0]
    if not ts.is_kill(verdict):
        return None
    say(f"  {program.name}: certify's failing input kills it ({verdict}); it goes in the package")
    return test, expected


def t_role(t: ts.Test) -> str:
    return t.role.split("time/memory: ", 1)[-1]
