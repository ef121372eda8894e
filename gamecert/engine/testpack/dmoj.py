"""DMOJ's layout (``--format dmoj``): a problem folder its judge (``judge-server``) loads as it is.

::

    init.yml                         the problem's data: ``test_cases`` (``in``, ``out``, ``points``) and
                                     the checker: DMOJ's ``bridged`` checker over files/check.cpp, type testlib
    tests/01 tests/01.a ...          the inputs and their answers (``in`` and ``out`` of each case)
    files/check.cpp validator.cpp    plain C++17, testlib's protocol (:mod:`.cpp`); the judge builds check.cpp
    files/checker.py validator.py    the same in standard-library Python
    README.md kills.csv              why each test is there, the kill matrix

What DMOJ documents and does (its judge's ``problem.py`` and ``checkers/bridged.py``): ``init.yml``
must hold ``test_cases``, a list of cases each with ``points`` and, for a normal case, ``in`` and
``out``, paths relative to the problem's folder (no ``archive`` here); a case with ``points: 0`` is a
pretest, so every case here is worth 1 point (samples too). A ``checker`` node names a checker and
its ``args``; the ``bridged`` checker compiles ``files`` in language ``lang`` (``CPP17``) and runs it
as ``checker INPUT OUTPUT ANSWER``; its ``type: testlib`` reads testlib's exit codes (0 AC, 1 WA,
2 PE, 3 internal error, 7 partial). The time and memory limits are not in ``init.yml``: the judge
gets them from the site's problem settings (time in seconds, memory in KB), which the admin sets.

May import: the testpack room's own modules, the kit, the engine's floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamecert.engine.testpack.testset import PackageError

#: DMOJ's executor name for the checker's language, and its checker's contrib type
CHECKER_LANG, CHECKER_TYPE = "CPP17", "testlib"
#: the keys DMOJ documents for init.yml, a normal test case, and the bridged checker's args
TOP_KEYS = frozenset(
    {
        "archive",
        "test_cases",
        "pretest_test_cases",
        "checker",
        "grader",
        "interactive",
        "custom_judge",
        "signature_grader",
        "validator",
        "output_limit_length",
        "output_prefix_length",
        "unbuffered",
        "symlinks",
        "hints",
    }
)
CASE_KEYS = frozenset({"in", "out", "points"})
#: what else a normal case may hold (DMOJ's judge reads these per case)
CASE_EXTRA = frozenset({"checker", "generator_args", "output_limit_length", "output_prefix_length"})
BRIDGED_ARGS = frozenset(
    {
        "files",
        "lang",
        "type",
        "feedback",
        "flags",
        "time_limit",
        "memory_limit",
        "compiler_time_limit",
        "args_format_string",
    }
)


def is_dmoj(package: Path) -> bool:
    return (package / "init.yml").is_file()


def init_yml(entry: Any, tests: Sequence[Any], width: int) -> str:
    """``init.yml``: the bridged testlib checker and one case a test (1 point each), in order.
    Written by hand in plain YAML (flow mappings for the cases, as DMOJ's own examples are)."""
    game = entry.game
    lines = [
        f"# DMOJ problem data for {game.title} ({entry.name}), written by `gamecert tests --format dmoj`.",
        f"# Set on the site's problem page (not read from here): time limit {game.time_limit:g} s,",
        f"# memory limit {game.memory_limit_mb << 10} KB ({game.memory_limit_mb} MB). The samples are tests "
        + ", ".join(f"{k:0{width}d}" for k, t in enumerate(tests, 1) if t.group == "samples")
        + ".",
        "checker:",
        "  name: bridged",
        "  args:",
        "    files: files/check.cpp",
        f"    lang: {CHECKER_LANG}",
        f"    type: {CHECKER_TYPE}",
        "    feedback: true",
        "test_cases:",
    ]
    lines += [
        f"- {{in: tests/{k:0{width}d}, out: tests/{k:0{width}d}.a, points: 1}}"
        for k in range(1, len(tests) + 1)
    ]
    return "\n".join(lines) + "\n"


def check_init(package: Path, data: Any) -> dict[str, Any]:
    """``init.yml``'s content (as a YAML reader gives it) checked as DMOJ's judge loads it: a
    mapping of documented keys only, ``test_cases`` a non-empty list of normal cases (``in``,
    ``out``, integer ``points`` >= 0, each file present in the package; no batches, which this
    package does not write), the checker ``bridged``
    with documented args, ``lang`` and ``type: testlib``, its source present. A fault raises
    :class:`PackageError` naming it; else the cases' files and the checker's source."""
    if not isinstance(data, dict):
        raise PackageError("init.yml: not a YAML mapping")
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise PackageError(f"init.yml: keys DMOJ does not document: {', '.join(map(str, unknown))}")
    cases = data.get("test_cases")
    if not isinstance(cases, list) or not cases:
        raise PackageError("init.yml: test_cases must be a non-empty list")
    files = []
    for k, case in enumerate(cases, 1):
        if not isinstance(case, dict) or not CASE_KEYS <= set(case) <= CASE_KEYS | CASE_EXTRA:
            raise PackageError(
                f"init.yml: test case {k} must have in, out and points (a normal case), got {case!r}"
            )
        if type(case["points"]) is not int or case["points"] < 0:
            raise PackageError(
                f"init.yml: test case {k}: points must be an integer >= 0, got {case['points']!r}"
            )
        for key in ("in", "out"):
            if not isinstance(case[key], str) or not (package / case[key]).is_file():
                raise PackageError(
                    f"init.yml: test case {k}'s {key} file {case[key]!r} is not in the package"
                )
        files.append((case["in"], case["out"]))
    checker = data.get("checker")
    if (
        not isinstance(checker, dict)
        or checker.get("name") != "bridged"
        or not isinstance(checker.get("args"), dict)
    ):
        raise PackageError("init.yml: the checker must be {name: bridged, args: {...}}")
    args = checker["args"]
    unknown = sorted(set(args) - BRIDGED_ARGS)
    if unknown:
        raise PackageError(
            f"init.yml: bridged checker args DMOJ does not document: {', '.join(map(str, unknown))}"
        )
    if args.get("type") != CHECKER_TYPE or not isinstance(args.get("lang"), str):
        raise PackageError(
            f"init.yml: the bridged checker needs a lang and type {CHECKER_TYPE}, got {args!r}"
        )
    sources = args.get("files")
    sources = [sources] if isinstance(sources, str) else sources
    if not isinstance(sources, list) or not sources:
        raise PackageError("init.yml: the bridged checker's files must name its source")
    for src in sources:
        if not isinstance(src, str) or not (package / src).is_file():
            raise PackageError(f"init.yml: the checker's source {src!r} is not in the package")
    return {"cases": files, "checker": sources}


class NoYaml(PackageError):
    """PyYAML is not installed: init.yml cannot be read as DMOJ reads it (not the package's fault)."""


def read_init_yml(package: Path) -> dict[str, Any]:
    """``init.yml`` parsed with PyYAML (as DMOJ's judge reads it) and checked (:func:`check_init`)."""
    try:
        import yaml
    except ImportError:
        raise NoYaml(
            "init.yml is not checked: reading it as DMOJ does needs PyYAML (pip install pyyaml)"
        ) from None
    try:
        data = yaml.safe_load((package / "init.yml").read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise PackageError(f"init.yml: not readable YAML ({str(exc).splitlines()[0]})") from None
    return check_init(package, data)
