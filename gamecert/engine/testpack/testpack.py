"""Writing and checking a test package (``gamecert tests GAME --out DIR`` / ``--check DIR``).

Layout (Polygon's): ``tests/01``, ``tests/01.a``, ... (samples first), ``validator.py``,
``checker.py`` (:mod:`gamecert.kit.standalone`), ``README.md`` (one line per test, the totals,
the proof) and ``kills.csv`` (tests x programs, with verdicts). The choice of tests is
:mod:`gamecert.engine.testpack.testset`'s.
"""

from __future__ import annotations

import runpy
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from gamecert.engine.judge.judge import expected_answer
from gamecert.engine.testpack import cpp, dmoj, kattis, plainjudge, polygon, selection, strength
from gamecert.engine.testpack import mutants as mutants_mod
from gamecert.engine.testpack import testset as ts
from gamecert.engine.testpack.outcome import Knobs, Outcome, tn  # noqa: F401 - tp.Knobs, tp.Outcome
from gamecert.engine.testpack.survivors import (  # noqa: F401 - tp._CERTIFIED, tp._certify_input
    _CERTIFIED,
    _certify_catches,
    _certify_input,
)
from gamecert.engine.testpack.writeup import kills_csv, mutation_score, readme  # noqa: F401
from gamecert.errors import GamecertError
from gamecert.kit.tokens import verdict_of


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
        found = selection.search_kill(entry, prog, pool, answers, share)
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
    packed = selection.pack(
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
            assert pool is not None  # (on_pool was run on it)
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
            ratios = [
                float(v.split()[1].rstrip("x"))
                for v in program_rows[p.name]
                if v.startswith("slow ")
            ]
            if ratios:
                survivors[p.name] += (
                    f"; over the limit on {len(ratios)} tests but at most {max(ratios):.1f}x it: a TLE "
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
