"""``gamecert certify`` as the user runs it, with a clock on its first failing input.

    python bench/afl/certify_timed.py GAME PROGRAM --seed S [other certify options]

runs gamecert's own command line in this process (``gamecert.commands.cli.main``), the same code
as ``gamecert certify``, with one thing added: the first time a fault is about to be confirmed
(``Judge.settle``, which every phase's fault goes through before its confirming re-runs and its
shrinking; a guided find after its one plain re-run) it writes to stderr

    gamecert-first-failure <seconds since this process started> <phase> <size>

once per process (a forked worker inherits the hook; the earliest line counts). Nothing of the
engine is changed: the hook wraps the method and calls it unchanged. Used by
``bench/afl_vs_guided.py``; gamecert's output alone does not say when a fault was found (its FAIL
line comes when the phase ends, and the guided phase searches on below a fault to its deadline).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

STARTED = time.monotonic()


def main() -> int:
    from gamecert.commands.cli import main as certify_main
    from gamecert.engine.judge.judge import Judge

    settle = Judge.settle
    said = [False]

    def timed_settle(self: Any, found: Any, *args: Any, **kwargs: Any) -> Any:
        if not said[0]:
            said[0] = True
            line = (
                f"gamecert-first-failure {time.monotonic() - STARTED:.3f} "
                f"{getattr(found, 'phase', '?')} {getattr(found, 'size', '?')}\n"
            )
            os.write(2, line.encode())
        return settle(self, found, *args, **kwargs)

    Judge.settle = timed_settle  # type: ignore[method-assign]
    return certify_main(["certify", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
