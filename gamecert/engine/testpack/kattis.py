"""Kattis' layout (``--format kattis``): a problem folder Kattis' ``verifyproblem`` (problemtools)
and DOMjudge load as they are.

::

    problem.yaml                              the name, the source, ``validation: custom``, the memory limit
    problem_statement/problem.en.tex          the statement from the game's own text (``gamecert show``)
    data/sample/01.in 01.ans ...              the samples, data/secret/NN.in NN.ans the other tests
    input_validators/validator/validator.cpp  the package's validator.cpp, built for Kattis' exit codes
    output_validators/checker/check.cpp       the package's check.cpp as it is
    submissions/accepted/model.py             the game's right program
    tests/ files/ README.md kills.csv         as in every package (``gamecert tests --check`` reads tests/)

What the Kattis problem format (legacy version, the one problemtools checks by default) says and
this follows: an input validator reads a test's input on standard input and exits 42 when it is
valid, 43 when not; an output validator is run as ``check INPUT ANSWER FEEDBACK_DIR < OUTPUT``
and exits 42 (accepted) or 43 (wrong answer), its message in ``FEEDBACK_DIR/judgemessage.txt``.
check.cpp takes that convention by itself (its third argument is a folder: :mod:`.cpp`'s
reader); validator.cpp is the same text after ``#define GAMECERT_KATTIS``. The time limit is not
written: Kattis derives it from the accepted submissions' times (``time_multiplier``); nor is a
license (the setter's to choose: verifyproblem warns that it is 'unknown').

May import: the testpack room's own modules, the kit, the engine's floor.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamecert.engine.testpack.testset import Test

#: the define that makes validator.cpp exit as Kattis' input validators do (42 valid, 43 not)
KATTIS_DEFINE = "#define GAMECERT_KATTIS 1\n"


def _yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def problem_yaml(entry: Any) -> str:
    game = entry.game
    return "\n".join(
        [
            f"name: {_yaml_string(game.title)}",
            # the same problem gets the same uuid at every rebuild (Kattis keys a problem by it)
            f"uuid: {uuid.uuid5(uuid.NAMESPACE_URL, 'gamecert:' + entry.name)}",
            "source: gamecert",
            "validation: custom",
            "limits:",
            f"    memory: {game.memory_limit_mb}",
            "",
        ]
    )


def statement(entry: Any) -> str:
    """``problem.en.tex`` in problemtools' class: the rules, the input and the output as the game
    states them (the samples come from data/sample)."""
    game = entry.game

    def tex(text: str) -> str:
        return "".join("\\" + c if c in "&%$#_{}" else c for c in text)

    return "\n".join(
        [
            f"\\problemname{{{tex(game.title)}}}",
            "",
            tex(game.rules or "(the rules)"),
            "",
            "\\section*{Input}",
            "",
            tex(game.input_format or "(the input)"),
            "",
            "\\section*{Output}",
            "",
            tex(game.output_format or "(the output)"),
            "",
        ]
    )


def write(
    out: Path, entry: Any, tests: Sequence[Test], validator: str, checker: str, model: Path | None
) -> None:
    """The Kattis part of a package (the tests/ and files/ of every package are written apart)."""
    (out / "problem.yaml").write_text(problem_yaml(entry))
    (out / "problem_statement").mkdir(exist_ok=True)
    (out / "problem_statement" / "problem.en.tex").write_text(statement(entry))
    width = max(2, len(str(len(tests))))
    for k, t in enumerate(tests, 1):
        where = out / "data" / ("sample" if t.group == "samples" else "secret")
        where.mkdir(parents=True, exist_ok=True)
        (where / f"{k:0{width}d}.in").write_text(t.text)
        (where / f"{k:0{width}d}.ans").write_text(t.expected_text)
    (out / "input_validators" / "validator").mkdir(parents=True, exist_ok=True)
    (out / "input_validators" / "validator" / "validator.cpp").write_text(KATTIS_DEFINE + validator)
    (out / "output_validators" / "checker").mkdir(parents=True, exist_ok=True)
    (out / "output_validators" / "checker" / "check.cpp").write_text(checker)
    if model is not None:
        (out / "submissions" / "accepted").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(model, out / "submissions" / "accepted" / f"model{model.suffix}")


def is_kattis(package: Path) -> bool:
    return (package / "problem.yaml").is_file() and (package / "data").is_dir()
