"""A package's layout: Polygon's (the default) or the plain one, and ``problem.xml`` written and
read back against Polygon's documented structure.

Polygon (``--format polygon``)::

    problem.xml                      names, limits, the tests (samples marked), checker, validator, solutions
    tests/01 tests/01.a ...          the inputs and their answers (``tests/%02d``, ``tests/%02d.a``)
    files/validator.cpp check.cpp    C++17 on testlib's API: the judge's testlib.h, else gamecert's reader (:mod:`.cpp`)
    check.cpp                        the checker again, where problem.xml's <copy path="check.cpp"/> says
    statement-sections/english/      name.tex legend.tex input.tex output.tex example.NN(.a), the game's text
    files/validator.py checker.py    the same in standard-library Python (where no compiler is)
    solutions/model.py               the model solution: the game's right program, standalone
    script.txt files/gen.py          the recipes (``gen ARGS > N``) and their generator: the setter's
                                     tool; problem.xml lists every test as manual (its file)
    statements/english/problem.tex   a statement stub: the rules, input and output formats, limits
    statements/.pdf/english/problem.pdf  the same as a PDF (:mod:`.pdf`), as Polygon's packages hold it
    doall.sh                         builds the validator and checker, validates every test, runs the
                                     model solution on each and checks its output against the answer
    README.md kills.csv              why each test is there, the kill matrix

DMOJ (``--format dmoj``): ``init.yml``, ``tests/``, ``files/`` (:mod:`.dmoj`).

Plain (``--format plain``): ``tests/``, ``validator.py`` and ``checker.py`` at the top, README.md
and kills.csv (the layout before Polygon's).

May import: the testpack room's own modules, the kit, the engine's floor.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamecert.engine.testpack import cpp, dmoj, kattis, pdf, recipes
from gamecert.engine.testpack.testset import PackageError, Test
from gamecert.kit.standalone import program as standalone_program

FORMATS = ("polygon", "plain", "dmoj", "kattis")
#: where Polygon's packages hold the statement as a PDF (the one p2d carries into DOMjudge's)
PDF_STATEMENT = "statements/.pdf/english/problem.pdf"
#: Polygon's source types of the files it holds
CPP_TYPE, PYTHON_TYPE = "cpp.g++17", "python.3"


def width(count: int) -> int:
    return max(2, len(str(count)))


def script_path(package: Path, kind: str) -> Path:
    """``validator.py`` or ``checker.py`` of a package of either layout."""
    name = f"{kind}.py"
    return package / "files" / name if (package / "files" / name).is_file() else package / name


def is_polygon(package: Path) -> bool:
    return (package / "problem.xml").is_file()


def write_tests(out: Path, tests: Sequence[Test]) -> None:
    folder = out / "tests"
    if folder.exists():
        shutil.rmtree(folder)  # ``out`` is the build's own fresh folder
    folder.mkdir(parents=True)
    w = width(len(tests))
    for k, t in enumerate(tests, 1):
        (folder / f"{k:0{w}d}").write_text(t.text)
        (folder / f"{k:0{w}d}.a").write_text(t.expected_text)


def write_files(out: Path, entry: Any, code: str, fmt: str, tests: Sequence[Test]) -> None:
    """Everything but the tests, README.md and kills.csv, in layout ``fmt``."""
    if fmt not in FORMATS:
        raise PackageError(
            f"--format {fmt}: not a package format (choose one of {', '.join(FORMATS)})"
        )
    where = out / "files" if fmt != "plain" else out
    where.mkdir(parents=True, exist_ok=True)
    for kind in ("validator", "checker"):
        path = where / f"{kind}.py"
        path.write_text(standalone_program(kind, entry.name, code))
        path.chmod(0o755)
    if fmt == "plain":
        return
    part = cpp.game_part(entry)
    (where / "validator.cpp").write_text(cpp.source("validator", part))
    (where / "check.cpp").write_text(cpp.source("checker", part))
    if fmt == "dmoj":
        (out / "init.yml").write_text(dmoj.init_yml(entry, tests, width(len(tests))))
        return
    model = model_solution(entry)
    if fmt == "kattis":
        checker = (where / "check.cpp").read_text()
        kattis.write(out, entry, tests, (where / "validator.cpp").read_text(), checker, model)
        return
    # Polygon's packages hold the checker at the root too (problem.xml's <copy path="check.cpp"/>)
    shutil.copyfile(where / "check.cpp", out / "check.cpp")
    write_statement_sections(out, entry)
    (out / "solutions").mkdir(exist_ok=True)
    if model is not None:
        shutil.copyfile(model, out / "solutions" / f"model{model.suffix}")
    (out / "statements" / "english").mkdir(parents=True, exist_ok=True)
    (out / "statements" / "english" / "problem.tex").write_text(statement(entry))
    (out / PDF_STATEMENT).parent.mkdir(parents=True, exist_ok=True)
    (out / PDF_STATEMENT).write_bytes(pdf.statement(entry))
    gen, made = recipes.plan(entry.name, code, tests)
    if gen is not None and any(a is not None for a, _ in made):
        (where / "gen.py").write_text(gen)
        (where / "gen.py").chmod(0o755)
    else:
        made = [(None, why) for _, why in made]
    (out / "script.txt").write_text(recipes.script(made, width(len(tests))))
    _SECTIONS[out.resolve()] = recipes.readme_section(made, width(len(tests)))
    doall = out / "doall.sh"
    doall.write_text(
        DOALL.replace(
            "@MODEL@", f"solutions/model{model.suffix}" if model is not None else ""
        ).replace("@WIDTH@", str(width(len(tests))))
    )
    doall.chmod(0o755)
    (out / "problem.xml").write_text(problem_xml(entry, tests, model))


#: package folder -> its README's section on generated tests (:func:`readme_section`)
_SECTIONS: dict[Path, str] = {}


def readme_section(out: Path) -> str:
    """The README's lines on which tests gen.py makes and which stay manual, and why ('' for a
    package this process did not write, or a plain one)."""
    return _SECTIONS.pop(out.resolve(), "")


def model_solution(entry: Any) -> Path | None:
    """The game's right program the project keeps (``examples/GAME/correct.py``: its fast solver
    as a standalone program, standard library only)."""
    from gamecert.engine.testpack.testset import project_programs

    right = [Path(p.spec) for p in project_programs(entry)[1]]
    return next((p for p in right if p.name == "correct.py"), right[0] if right else None)


def write_statement_sections(out: Path, entry: Any) -> None:
    """``statement-sections/english/``, as Polygon's packages hold the statement: name.tex,
    legend.tex, input.tex, output.tex and example.NN / example.NN.a for each sample, from the game's
    own text (what ``gamecert show`` prints)."""
    game = entry.game
    where = out / "statement-sections" / "english"
    where.mkdir(parents=True, exist_ok=True)
    for name, text in (
        ("name.tex", game.title),
        ("legend.tex", game.rules or "(the rules)"),
        ("input.tex", game.input_format or "(the input)"),
        ("output.tex", game.output_format or "(the output)"),
    ):
        (where / name).write_text(_tex(text) + "\n")
    for k, (sample, answer) in enumerate(game.samples, 1):
        (where / f"example.{k:02d}").write_text(sample)
        (where / f"example.{k:02d}.a").write_text(
            answer if answer.endswith("\n") else answer + "\n"
        )


def _tex(text: str) -> str:
    return "".join("\\" + c if c in "&%$#_{}" else c for c in text)


def statement(entry: Any) -> str:
    game = entry.game

    def tex(text: str) -> str:
        return "".join("\\" + c if c in "&%$#_{}" else c for c in text)

    return "\n".join(
        [
            f"\\begin{{problem}}{{{tex(game.title)}}}{{standard input}}{{standard output}}"
            f"{{{game.time_limit:g} second{'s' if game.time_limit != 1 else ''}}}{{{game.memory_limit_mb} megabytes}}",
            "",
            tex(game.rules or "(the rules)"),
            "",
            "\\InputFile",
            "",
            tex(game.input_format or "(the input)"),
            "",
            "\\OutputFile",
            "",
            tex(game.output_format or "(the output)"),
            "",
            *[f"\\exmp{{{s.rstrip()}}}{{{a.rstrip()}}}%" for s, a in game.samples],
            "",
            "\\end{problem}",
            "",
        ]
    )


def problem_xml(entry: Any, tests: Sequence[Test], model: Path | None) -> str:
    """``problem.xml`` in Polygon's structure: one testset ``tests`` (limits, tests in order, the
    samples marked), the checker, the validator, the model solution (tag main).

    Every test is ``manual``: its file is the test, which Polygon and every converter (p2d,
    ejudge's import, ...) take as it is, with no generator to run. The recipes stay the setter's
    tool beside it (script.txt, files/gen.py, ``doall.sh gen``): a ``python.3`` generator listed
    here would ask a judge that makes generated tests again to run Python, which no real
    package does."""
    game = entry.game
    w = width(len(tests))
    root = ET.Element("problem", {"revision": "1", "short-name": entry.name.replace("_", "-")})
    names = ET.SubElement(root, "names")
    ET.SubElement(names, "name", {"language": "english", "value": game.title})
    statements = ET.SubElement(root, "statements")
    ET.SubElement(
        statements,
        "statement",
        {
            "charset": "UTF-8",
            "language": "english",
            "mathjax": "true",
            "path": "statements/english/problem.tex",
            "type": "application/x-tex",
        },
    )
    ET.SubElement(
        statements,
        "statement",
        {"language": "english", "path": PDF_STATEMENT, "type": "application/pdf"},
    )
    judging = ET.SubElement(
        root, "judging", {"cpu-name": "", "cpu-speed": "", "input-file": "", "output-file": ""}
    )
    testset = ET.SubElement(judging, "testset", {"name": "tests"})
    ET.SubElement(testset, "time-limit").text = str(round(game.time_limit * 1000))
    ET.SubElement(testset, "memory-limit").text = str(game.memory_limit_mb << 20)
    ET.SubElement(testset, "test-count").text = str(len(tests))
    ET.SubElement(testset, "input-path-pattern").text = f"tests/%0{w}d"
    ET.SubElement(testset, "answer-path-pattern").text = f"tests/%0{w}d.a"
    listed = ET.SubElement(testset, "tests")
    for t in tests:
        ET.SubElement(
            listed,
            "test",
            {"method": "manual", **({"sample": "true"} if t.group == "samples" else {})},
        )
    files = ET.SubElement(root, "files")
    ET.SubElement(files, "resources")
    executables = ET.SubElement(files, "executables")
    for name in ("check", "validator"):
        ex = ET.SubElement(executables, "executable")
        ET.SubElement(ex, "source", {"path": f"files/{name}.cpp", "type": CPP_TYPE})
    assets = ET.SubElement(root, "assets")
    checker = ET.SubElement(assets, "checker", {"type": "testlib"})
    ET.SubElement(checker, "source", {"path": "files/check.cpp", "type": CPP_TYPE})
    ET.SubElement(checker, "copy", {"path": "check.cpp"})
    validators = ET.SubElement(assets, "validators")
    validator = ET.SubElement(validators, "validator")
    ET.SubElement(validator, "source", {"path": "files/validator.cpp", "type": CPP_TYPE})
    solutions = ET.SubElement(assets, "solutions")
    if model is not None:
        solution = ET.SubElement(solutions, "solution", {"tag": "main"})
        kind = PYTHON_TYPE if model.suffix == ".py" else CPP_TYPE
        ET.SubElement(solution, "source", {"path": f"solutions/model{model.suffix}", "type": kind})
    ET.SubElement(root, "tags")
    ET.indent(root)
    return (
        '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n'
        + ET.tostring(root, encoding="unicode")
        + "\n"
    )


def read_problem_xml(package: Path) -> dict[str, Any]:
    """``problem.xml`` read as a judge imports it, checked against Polygon's documented structure:
    the root ``problem`` with a short name of letters, digits and dashes; a testset with a time
    limit (ms) and memory limit (bytes), ``test-count`` equal to the tests listed, each ``manual``
    (its input file present) or ``generated`` (with ``cmd``, whose first word names an executable
    of ``<files>`` whose source exists), every answer file present; a ``testlib`` checker and the
    validators with sources that exist; every statement declared present. A generated test whose
    generator is the package's Python ``gen.py`` is made again (in this process, as the judge would
    make it) and must equal its file in ``tests/`` byte for byte, and so is every recipe of
    ``script.txt`` (``gen ARGS > N``, the setter's tool beside the manual tests). A fault raises
    :class:`PackageError` naming it; else the limits, the tests' files, the samples' numbers, the
    generated tests' commands, script.txt's, and the checker's, validators' and solutions' source
    paths."""
    import re

    path = package / "problem.xml"
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise PackageError(f"{path}: not readable XML ({exc})") from None

    def need(parent: ET.Element, tag: str) -> ET.Element:
        found = parent.find(tag)
        if found is None:
            raise PackageError(f"problem.xml: <{parent.tag}> has no <{tag}>")
        return found

    def number(parent: ET.Element, tag: str) -> int:
        text = (need(parent, tag).text or "").strip()
        if not text.isdigit() or int(text) <= 0:
            raise PackageError(f"problem.xml: <{tag}> must be a positive integer, got {text!r}")
        return int(text)

    def source(parent: ET.Element, what: str) -> str:
        src = need(parent, "source")
        where, kind = src.get("path", ""), src.get("type", "")
        if not where or not kind:
            raise PackageError(f"problem.xml: the {what}'s <source> needs a path and a type")
        if not (package / where).is_file():
            raise PackageError(f"problem.xml: the {what}'s source {where} is not in the package")
        return where

    if root.tag != "problem":
        raise PackageError(f"problem.xml: the root is <{root.tag}>, not <problem>")
    if not re.fullmatch(r"[A-Za-z0-9-]+", root.get("short-name", "")):
        raise PackageError(
            f"problem.xml: short-name {root.get('short-name')!r} is not letters, digits and dashes"
        )
    testset = need(need(root, "judging"), "testset")
    time_ms, memory = number(testset, "time-limit"), number(testset, "memory-limit")
    count = number(testset, "test-count")
    listed = need(testset, "tests").findall("test")
    if len(listed) != count:
        raise PackageError(
            f"problem.xml: test-count is {count}, but {len(listed)} tests are listed"
        )
    pattern_in = (need(testset, "input-path-pattern").text or "").strip()
    pattern_ans = (need(testset, "answer-path-pattern").text or "").strip()
    inputs, samples, generated = [], [], {}
    for k, test in enumerate(listed, 1):
        method = test.get("method")
        if method not in ("manual", "generated") or (method == "generated" and not test.get("cmd")):
            raise PackageError(
                f"problem.xml: test {k}: method {method!r} (manual, or generated with a cmd)"
            )
        for pattern, what in ((pattern_in, "input"), (pattern_ans, "answer")):
            if not (package / (pattern % k)).is_file() and (method == "manual" or what == "answer"):
                raise PackageError(
                    f"problem.xml: test {k}'s {what} file {pattern % k} is not in the package"
                )
        inputs.append(pattern_in % k)
        if method == "generated":
            generated[k] = test.get("cmd", "")
        if test.get("sample") == "true":
            samples.append(k)
    for st in root.findall("statements/statement"):
        if not (package / st.get("path", "")).is_file():
            raise PackageError(
                f"problem.xml: the {st.get('type')} statement {st.get('path')!r} is not in the package"
            )
    assets = need(root, "assets")
    checker = need(assets, "checker")
    if checker.get("type") != "testlib":
        raise PackageError(
            f"problem.xml: the checker's type is {checker.get('type')!r}, not testlib"
        )
    for copy in checker.findall("copy"):
        if not (package / copy.get("path", "")).is_file():
            raise PackageError(
                f"problem.xml: the checker's <copy path={copy.get('path')!r}/> names no file of the package"
            )
    validators = [source(v, "validator") for v in need(assets, "validators").findall("validator")]
    if not validators:
        raise PackageError("problem.xml: no validator")
    solutions = {s.get("tag"): source(s, "solution") for s in assets.findall("solutions/solution")}
    executables = {
        Path(s.get("path", "")).stem: s.get("path", "")
        for s in root.findall("files/executables/executable/source")
    }
    _regenerate(package, executables, generated, pattern_in, "problem.xml")
    scripted = _script(package, count)
    _regenerate(
        package, {recipes.GEN: f"files/{recipes.GEN}.py"}, scripted, pattern_in, "script.txt"
    )
    return {
        "time_ms": time_ms,
        "memory_bytes": memory,
        "tests": inputs,
        "samples": samples,
        "generated": generated,
        "scripted": scripted,
        "checker": source(checker, "checker"),
        "validators": validators,
        "solutions": solutions,
    }


def _script(package: Path, count: int) -> dict[int, str]:
    """script.txt's recipes, test number -> ``gen ARGS`` (none without the file)."""
    import re

    path = package / "script.txt"
    if not path.is_file():
        return {}
    scripted = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        m = re.fullmatch(r"(\S.*?) > (\d+)", line.strip())
        if m is None or not 1 <= int(m.group(2)) <= count:
            raise PackageError(
                f"script.txt, line {number}: {line[:80]!r} is not `gen ARGS > N` with N a test (1..{count})"
            )
        scripted[int(m.group(2))] = m.group(1)
    return scripted


def _regenerate(
    package: Path,
    executables: dict[str, str],
    generated: dict[int, str],
    pattern_in: str,
    said: str,
) -> None:
    """Every generated test's command (as ``said``: problem.xml or script.txt) names an executable
    of the package; those of a Python generator are made again and compared with their files
    (:func:`read_problem_xml`)."""
    loaded: dict[str, Any] = {}
    for k, command in generated.items():
        name, *args = command.split()
        where = executables.get(name)
        if where is None or not (package / where).is_file():
            raise PackageError(
                f"{said}: test {k}: its cmd runs {name!r}, which is not an executable of the package"
            )
        target = package / (pattern_in % k)
        if not where.endswith(".py") or not target.is_file():
            continue
        if where not in loaded:
            try:
                loaded[where] = recipes.load((package / where).read_text())["generate"]
            except Exception as exc:  # noqa: BLE001 - a package's generator may be edited by hand
                raise PackageError(f"{where} does not load ({type(exc).__name__}: {exc})") from None
        try:
            made = loaded[where](args)
        except Exception as exc:  # noqa: BLE001 - as above: one line naming the test
            raise PackageError(
                f"{said}: test {k}: `{command[:80]}` fails ({type(exc).__name__}: {exc})"
            ) from None
        if made.encode() != target.read_bytes():
            raise PackageError(
                f"{said}: test {k}: `{command[:80]}` does not write {pattern_in % k} byte for byte"
            )


#: the package's doall.sh: what a judge's preparation does with it, with g++ and python3 only
DOALL = r"""#!/bin/sh
# Builds the validator and the checker, validates every test, runs the model solution on each
# and checks its output against the answer file, then makes every generated test again with
# files/gen.py and compares it with its file (written by `gamecert tests`; README.md says why
# each test is there). `sh doall.sh gen` does the last step alone (after editing a recipe).
set -e
cd "$(dirname "$0")"
build=$(mktemp -d)  # outside the package: the package holds only what gamecert wrote
trap 'rm -rf "$build"' EXIT
bad=0
if [ "$1" != gen ]; then
g++ -std=c++17 -O2 -o "$build/validator" files/validator.cpp
g++ -std=c++17 -O2 -o "$build/check" files/check.cpp
for t in tests/[0-9]*; do
  case "$t" in *.a) continue ;; esac
  "$build/validator" < "$t" || { echo "validator rejects $t"; bad=1; continue; }
  model="@MODEL@"
  if [ -n "$model" ]; then
    python3 "$model" < "$t" > "$build/out"
    "$build/check" "$t" "$build/out" "$t.a" 2> "$build/comment" || { echo "$t: the model solution's output: $(cat "$build/comment")"; bad=1; }
  fi
done
if [ "$bad" = 0 ]; then echo "every test valid, the model solution accepted on each"; fi
fi
# every generated test made again by files/gen.py from its line of script.txt (`gen ARGS > N`),
# compared byte for byte with its file (the arguments split on blanks, never globbed, as Polygon does)
set -f
while read -r line; do
  [ -n "$line" ] || continue
  n=${line##*> }
  set -- ${line% > *}
  shift
  t=tests/$(printf '%0@WIDTH@d' "$n")
  if ! python3 files/gen.py "$@" > "$build/gen"; then
    echo "gen.py fails on the recipe of $t"; bad=1
  elif ! cmp -s "$build/gen" "$t"; then
    echo "gen.py does not make $t again byte for byte"; bad=1
  fi
done < script.txt
set +f
if [ "$bad" = 0 ]; then echo "every generated test made again byte for byte"; fi
exit "$bad"
"""
