"""The wrong programs a package misses, given to ``gamecert certify --profile quick``: whether
certify catches them, and the input of its report (a test the package then takes).

May import: the testpack room's own modules, the engine's floor.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamecert.engine.testpack import testset as ts
from gamecert.errors import GamecertError

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
