"""A strong, small test set for problem setters (``gamecert tests GAME``): which inputs, and why.

The plan's inputs (the *pool*) are the samples, the largest inputs, the designed families
(coverage and worst cases, up to ``per_family`` of each) and the smallest inputs of each
exhaustive space (up to ``per_space``). The wrong programs are the mutants of the registered
fast solvers (:mod:`gamecert.engine.testpack.mutants`, judged in-process), the project's own wrong
programs (``tests/wrong/GAME/*.py`` and ``examples/GAME/wrong*.py``) and the user's
(``--against``), both run as stdin/stdout programs through the engine's runner with the game's
limits.

The chosen tests: the samples, the largest inputs and one test from each family (the one that
kills the most), then greedy set cover over the rest of the pool, smallest first among equals,
until every mutant some pool input kills is killed or ``max_tests`` is reached. A wrong program
the chosen tests do not kill is searched for through the runner in certify's order
(:func:`.selection.search_order`), and the first input that kills it is added. Multi-game formats pack small tests into
files of up to ``max_batch`` games. The final kill matrix is measured on the final files.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamecert.engine.judge.judge import expected_answer
from gamecert.engine.run.limits import game_limits
from gamecert.engine.run.sandbox import Candidate, open_runner
from gamecert.engine.testpack import margins
from gamecert.engine.testpack import mutants as mutants_mod
from gamecert.engine.testpack.margins import STRETCH, is_kill, is_timed_out, timed  # noqa: F401 - ts.is_kill
from gamecert.errors import AnswerError, GamecertError
from gamecert.kit.tokens import verdict_of, verdict_under_testlib

#: kills of one mutant collected before it is left alone (the set cover needs a few, not all)
KILL_CAP = 6
#: (program, input text) -> (verdict, why, stdout) of runs made during one build (each run once)
_RUNS: dict[tuple[str, str], tuple[str, str, str]] = {}
#: (program, input text) -> (CPU seconds, peak memory MB) of those runs, as the runner measured them
USAGE: dict[tuple[str, str], tuple[float, float]] = {}
#: called after each run through a runner with (program, test number, tests of the matrix or 0 in a
#: search): the command's live line counts them; None: nothing is told
ON_RUN: Callable[[Program, int, int], None] | None = None
#: called with (what, done, total) as in-process work goes (answers, solvers timed, mutants, runs)
ON_STEP: Callable[[str, int, int], None] | None = None
#: wrong-program runs stop after this many TLE or slow verdicts (each costs up to three times the time limit)
TLE_CAP = 3


class PackageError(GamecertError):
    """A test package could not be made or checked (one line)."""


@dataclass
class Test:
    """One input of the pool or of the package."""

    __test__ = False  # not a pytest test class (the doctest run collects this module)

    instance: Any
    text: str
    origin: str  # "sample 1", "largest 2", "family NAME #k", "exhaustive SPACE size s", "packed"
    group: str  # "samples", "largest", "family:NAME", "exhaustive", "packed"
    expected_text: str = ""
    parts: list[int] = field(default_factory=list)  # pool indices a packed test holds
    role: str = ""  # why the package holds it: "sample", "kills", "time: ...", "deciding", ...

    @property
    def bytes(self) -> int:
        return len(self.text.encode())


@dataclass
class Program:
    """A wrong or right stdin/stdout program, or a mutant (``mutant`` set)."""

    name: str
    spec: str
    kind: str  # "mutant", "project", "user", "right"
    what: str = ""
    mutant: Any = None


def _spread(
    items: Iterator[Any], count: int, keep: int, seconds: float = 1.0
) -> list[tuple[int, Any]]:
    """The first ``keep // 2`` items and up to ``keep - keep // 2`` more spread evenly over
    ``count``, listing items for at most ``seconds`` (a family of huge inputs gives fewer)."""
    if count <= keep:
        wanted = set(range(count))
    else:
        head = keep // 2
        step = max(1, (count - head) // max(1, keep - head))
        wanted = set(range(head)) | set(range(head + step - 1, count, step))
    last = max(wanted, default=-1)
    deadline = time.perf_counter() + seconds
    out = []
    for k, x in enumerate(items):
        if k in wanted:
            out.append((k, x))
        if k >= last or len(out) >= keep or (out and time.perf_counter() > deadline):
            break
    return out


def families(entry: Any) -> list[Any]:
    s = entry.strategies
    return list(getattr(s, "coverage", lambda: [])()) + list(
        getattr(s, "worst_cases", lambda: [])()
    )


#: input bytes each family may bring into the plan (at least one input each)
FAMILY_BYTES = 4 << 20


def build_pool(entry: Any, per_family: int = 24, per_space: int = 300) -> list[Test]:
    """The plan's inputs, de-duplicated by text, in priority order: every family brings up to
    ``per_family`` inputs and :data:`FAMILY_BYTES` bytes (at least one input)."""
    game = entry.game
    pool: list[Test] = []
    seen: set[str] = set()

    def add(instance: Any, origin: str, group: str) -> None:
        text = game.format_input(instance)
        if text not in seen:
            seen.add(text)
            pool.append(Test(instance, text, origin, group))

    for k, (text, _) in enumerate(game.samples, 1):
        add(game.parse_input(text), f"sample {k}", "samples")
    for k, inst in enumerate(entry.strategies.largest(), 1):
        add(inst, f"largest {k}", "largest")
    for fam in families(entry):
        used = 0
        for k, inst in _spread(iter(fam.instances()), fam.count, per_family):
            if used and used + len(game.format_input(inst)) > FAMILY_BYTES:
                break
            add(inst, f"{fam.kind} family {fam.name} #{k + 1}", f"family:{fam.name}")
            used += len(pool[-1].text) if pool[-1].instance is inst else 0
    for space in game.exhaustive_spaces():
        taken = 0
        for size in space.sizes:
            for inst in space.instances(size):
                if taken >= per_space:
                    break
                add(inst, f"exhaustive {space.name} size {size}", "exhaustive")
                taken += 1
    return pool


def expected_texts(entry: Any, tests: Sequence[Test]) -> list[Any]:
    """The right answer of each test (oracle, else every fast solver, agreeing), its text set."""
    game = entry.game
    answers = []
    if len(_ANSWERS) > 50_000:
        _ANSWERS.clear()
    for n, t in enumerate(tests, 1):
        key = (entry.name, t.text)
        if (
            key not in _ANSWERS
        ):  # an input met again (a test kept as it was when packing) is answered once
            _ANSWERS[key] = expected_answer(entry, t.instance, every=True)[0]
        if ON_STEP is not None:
            ON_STEP("expected answers", n, len(tests))
        answers.append(_ANSWERS[key])
        t.expected_text = game.format_answer(answers[-1])
    return answers


#: (game, input text) -> the answer :func:`expected_texts` gave it
_ANSWERS: dict[tuple[str, str], Any] = {}


_BOUNDS: dict[tuple[str, str], float] = {}


def _bound(entry: Any, test: Test) -> float:
    """A mutant's in-process time per call: ten times the slowest registered solver's, at least
    0.5 s (measured once per input)."""
    key = (entry.name, test.text)
    if key not in _BOUNDS:
        if len(_BOUNDS) > 20_000:
            _BOUNDS.clear()
        _BOUNDS[key] = _measure_bound(entry, test.instance)
    return _BOUNDS[key]


def _measure_bound(entry: Any, instance: Any) -> float:
    slowest = 0.0
    for fn in entry.solvers.values():
        start = time.perf_counter()
        fn(instance)
        slowest = max(slowest, time.perf_counter() - start)
    return max(0.5, 10 * slowest)


# ---- programs ---------------------------------------------------------------------------------


def project_programs(entry: Any) -> tuple[list[Program], list[Program]]:
    """(wrong, right) programs the project keeps for the game, where its folders are present."""
    from gamecert.engine import registry

    source, _ = registry._source_of(entry.name)  # noqa: SLF001 - where the game's folders are
    if source.kind not in ("project", "folder"):
        return [], []
    root = Path(source.where)
    wrong = sorted((root / "tests" / "wrong" / entry.name).glob("*.py"))
    wrong += sorted((root / "examples" / entry.name).glob("wrong*.py"))
    right = sorted((root / "examples" / entry.name).glob("correct*.py"))

    def what(p: Path) -> str:
        first = p.read_text(errors="replace").splitlines()[:1]
        return first[0][len("# kind: ") :] if first and first[0].startswith("# kind: ") else ""

    wrong_programs = [
        Program(
            f"{p.parent.name}/{p.stem}" if p.parent.name != entry.name else p.stem,
            str(p),
            "project",
            what(p),
        )
        for p in wrong
    ]
    for prog in wrong_programs:
        if "examples" in prog.spec:
            prog.name = f"examples/{Path(prog.spec).stem}"
    right_programs = [Program(f"examples/{p.stem}", str(p), "right") for p in right]
    # tests/programs/LANG/: one right and one wrong program of a game in each language (a
    # language whose compiler is not installed is left out)
    for p in sorted((root / "tests" / "programs").glob(f"*/{entry.name}_*")):
        if not _toolchain_present(p):
            continue
        if p.stem.endswith("_right"):
            right_programs.append(Program(f"programs/{p.parent.name}/{p.name}", str(p), "right"))
        elif p.stem.endswith("_wrong"):
            wrong_programs.append(
                Program(f"programs/{p.parent.name}/{p.name}", str(p), "project", what(p))
            )
    return wrong_programs, right_programs


def _toolchain_present(path: Path) -> bool:
    import shutil

    from gamecert.engine.run import toolchains

    lang = toolchains.language_of(path)
    if lang is None:
        return False
    return lang == "python" or shutil.which(toolchains.LANGUAGES[lang].compiler) is not None


def user_programs(paths: Sequence[str]) -> list[Program]:
    """``--against`` files and folders (a folder: every source file in it)."""
    from gamecert.engine.run import toolchains

    out: list[Program] = []
    for spec in paths:
        p = Path(spec)
        if p.is_dir():
            files = sorted(
                f for f in p.iterdir() if f.is_file() and toolchains.language_of(f) is not None
            )
            if not files:
                raise PackageError(
                    f"--against {spec}: the folder holds no source file of a known language"
                )
            out.extend(Program(f.name, str(f), "user") for f in files)
        elif p.exists():
            out.append(Program(p.name, str(p), "user"))
        else:
            raise PackageError(f"--against {spec}: no such file or folder")
    return out


def run_verdict(
    entry: Any, runner: Any, test: Test, expected: Any, usage: list[float] | None = None
) -> tuple[str, str, str]:
    """(verdict, why, stdout) of one run, judged as gamecert judges a candidate; ``usage`` gets
    the run's CPU seconds and peak memory (MB). A wrong program's runner runs under
    :data:`STRETCH` times the limit, and its verdict says how its time holds (:func:`timed`)."""
    result = runner.run(test.text)
    cpu = float(getattr(result, "cpu_s", 0.0) or 0.0)
    if usage is not None:
        usage[:] = [cpu, float(getattr(result, "max_rss_mb", 0.0) or 0.0)]
    limit = getattr(runner, "testpack_limit", None)
    verdict, why, out = _run_verdict(entry, result, test, expected)
    return (*timed(verdict, why, cpu, limit), out)


def _run_verdict(entry: Any, result: Any, test: Test, expected: Any) -> tuple[str, str, str]:
    if result.status != "ok":
        return result.status.upper(), result.describe(), ""
    game = entry.game
    if game.max_batch > 1 and len(game.split(test.instance)) > 1:
        try:
            got = game.parse_answer(result.stdout, test.instance)
        except AnswerError as exc:
            return str(exc.verdict), str(exc), result.stdout
        singles = game.split(test.instance)
        for k, (single, part, exp) in enumerate(
            zip(
                singles,
                game.split_answer(test.instance, got),
                game.split_answer(test.instance, expected),
            ),
            1,
        ):
            why = game.judge(single, part, exp)
            if why is not None:
                return "WA", f"game {k} of {len(singles)}: {why}", result.stdout
        return "OK", "", result.stdout
    verdict, why = verdict_of(game, test.instance, result.stdout, expected)
    return verdict.value, why, result.stdout


def open_program(program: Program, entry: Any) -> Any:
    try:
        candidate = Candidate.parse(program.spec)
    except GamecertError as exc:
        raise PackageError(f"program {program.spec}: {exc}") from None
    limits = game_limits(entry.game)
    if program.kind == "right":
        return open_runner(candidate, limits)
    return margins.open_stretched(candidate, limits)


#: program spec -> its open runner: one runner (one build of a compiled program, one fork server)
#: per program for a whole build or check, the least recently used closed past :data:`OPEN_RUNNERS`
_RUNNERS: dict[str, Any] = {}
OPEN_RUNNERS = 32


def runner_for(program: Program, entry: Any) -> Any:
    """The program's open runner (opened on first use, kept until :func:`close_runners`)."""
    runner = _RUNNERS.pop(program.spec, None)
    if runner is None:
        while len(_RUNNERS) >= OPEN_RUNNERS:
            _close(_RUNNERS.pop(next(iter(_RUNNERS))))
        runner = open_program(program, entry)
    _RUNNERS[program.spec] = runner  # the most recently used last
    return runner


def close_runners() -> None:
    while _RUNNERS:
        _close(_RUNNERS.pop(next(iter(_RUNNERS))))


def _close(runner: Any) -> None:
    try:
        runner.close()
    except Exception:  # noqa: BLE001 - a runner that fails to close has nothing left to give
        pass


def mutant_matrix(
    entry: Any,
    muts: Sequence[Any],
    tests: Sequence[Test],
    answers: Sequence[Any],
    kill_cap: int,
    budget: float,
) -> list[mutants_mod.MutantResult]:
    """Each mutant on ``tests`` (smallest first), in-process under time bounds."""
    bounds = []
    for t in tests:
        bounds.append(_bound(entry, t))
        if ON_STEP is not None:
            ON_STEP("inputs the solvers were timed on", len(bounds), len(tests))
    order = sorted(range(len(tests)), key=lambda k: tests[k].bytes)
    told = (lambda n: ON_STEP("mutants judged", n, len(muts))) if ON_STEP is not None else None
    return mutants_mod.evaluate(
        entry.game,
        entry.solvers,
        muts,
        [t.instance for t in tests],
        answers,
        bounds,
        order=order,
        kill_cap=kill_cap,
        budget=budget,
        progress=told,
    )


def solver_verdicts(
    entry: Any, tests: Sequence[Test], answers: Sequence[Any]
) -> dict[str, list[str]]:
    """Every registered fast solver on every test, in-process, judged as a program's answer."""
    game = entry.game
    out: dict[str, list[str]] = {}
    for name in sorted(entry.solvers):
        row = []
        for t, a in zip(tests, answers):
            try:
                text = game.format_answer(entry.solvers[name](t.instance))
            except Exception as exc:  # noqa: BLE001 - a registered solver's crash is a verdict too
                row.append(f"RE ({type(exc).__name__})")
                continue
            row.append(verdict_of(game, t.instance, text, a)[0].value)
        out[name] = row
    return out


def runs_matrix(
    entry: Any,
    programs: Sequence[Program],
    tests: Sequence[Test],
    answers: Sequence[Any],
    checker: Callable[[str, str, str], tuple[int, str]] | None = None,
    on_program: Callable[[Program], None] = lambda p: None,
    cache_runs: bool = True,
    tle_cap: int = TLE_CAP,
) -> tuple[dict[str, list[str]], list[str]]:
    """Each program on each test through its runner (:func:`runner_for`; a run made before in
    this build is not made again, and counts first): verdicts (``-`` where not run after
    ``tle_cap`` TLEs), and every disagreement between ``checker`` and gamecert's judge."""
    matrix: dict[str, list[str]] = {}
    disagreements: list[str] = []
    cache = _RUNS if cache_runs else {}
    code_of = {"OK": 0, "WA": 1, "PE": 2}
    judged: dict[
        tuple[int, str], tuple[int, str]
    ] = {}  # the same output of one test is judged once
    for program in programs:
        on_program(program)
        keys = [(program.spec, t.text) for t in tests]
        tles = sum(is_timed_out(cache[key][0]) for key in set(keys) if key in cache)
        row: list[str] = []
        for k, (t, a, key) in enumerate(zip(tests, answers, keys)):
            if key not in cache:
                if tles >= tle_cap:
                    row.append("-")
                    continue
                used: list[float] = []
                cache[key] = run_verdict(entry, runner_for(program, entry), t, a, used)
                if used:
                    USAGE[key] = (used[0], used[1])
                tles += is_timed_out(cache[key][0])
                if ON_RUN is not None:
                    ON_RUN(program, k + 1, len(tests))
            if ON_STEP is not None:
                ON_STEP(
                    f"runs of {len(programs)} program{'s' if len(programs) != 1 else ''}",
                    programs.index(program) * len(tests) + k + 1,
                    len(programs) * len(tests),
                )
            verdict, said, stdout = cache[key]
            row.append(verdict)
            if checker is not None and verdict in code_of:
                if (k, stdout) not in judged:
                    judged[k, stdout] = checker(t.text, stdout, t.expected_text)
                code, why = judged[k, stdout]
                if code != code_of[verdict_under_testlib(verdict, said)]:
                    disagreements.append(
                        f"test {k + 1:02d}, {program.name}: gamecert says {verdict}, checker.py "
                        f"exits {code} ({why[:100]})"
                    )
        matrix[program.name] = row
    return matrix, disagreements
