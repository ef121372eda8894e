"""Printing to the width of the terminal: a long line is wrapped, never a table's cell.

The width is ``COLUMNS`` when it is set, else the terminal's when standard output is one; output
going to a file or a pipe with no ``COLUMNS`` is not wrapped (one line stays one line for grep).
A line is wrapped at spaces with a hanging indent under its text (after a label such as
``  minimal:`` or a phase name); a single word longer than the width (a path) is not cut. The
details behind a shortened line are in the files a command writes (report.md, the certificate).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from typing import Any

from gamecert.kit.escape import visible

#: the narrowest width taken from COLUMNS; below it lines are not wrapped
MIN_COLUMNS = 40
#: a label ("  minimal:  ", "  exhaustive  ") up to this long sets the hanging indent
_LABEL = re.compile(r" +\S+ +")
_MAX_LABEL = 16


def columns() -> int | None:
    """The width to print to, or None (not a terminal, no ``COLUMNS``): do not wrap."""
    value = os.environ.get("COLUMNS", "").strip()
    if value.isdigit():
        return int(value) if int(value) >= MIN_COLUMNS else None
    try:
        if sys.stdout.isatty():
            return shutil.get_terminal_size().columns
    except (AttributeError, ValueError, OSError):
        pass
    return None


def fit(line: str, width: int | None) -> list[str]:
    """``line`` as lines of at most ``width`` characters (one word longer than that stays whole).

    >>> fit("  minimal:  locally minimal: none of the 132 smaller inputs fails", 40)
    ['  minimal:  locally minimal: none of the', '            132 smaller inputs fails']
    >>> fit("summary: 12 tests in 1.0 s; certificate in", 30)
    ['summary: 12 tests in 1.0 s;', '  certificate in']
    >>> fit("short", None)
    ['short']
    """
    if width is None or len(line) <= width:
        return [line]
    label = _LABEL.match(line)
    if label and len(label.group(0)) <= _MAX_LABEL:
        indent = len(label.group(0))
    else:
        indent = len(line) - len(line.lstrip(" ")) + 2
    return textwrap.wrap(
        line, width, subsequent_indent=" " * indent, break_long_words=False, break_on_hyphens=False
    ) or [line]


def echo(text: str = "") -> None:
    """Print ``text`` (one line or several) fitted to :func:`columns`, flushed, with every control
    or invisible character in it escaped (:func:`gamecert.kit.escape.visible`): whatever a line
    quotes (a file name, a candidate's output) cannot drive the terminal."""
    width = columns()
    for line in str(text).split("\n"):
        for part in fit(visible(line), width):
            print(part, flush=True)


def count_text(what: str, done: int, total: int, seconds: float) -> str:
    """``done`` of ``total`` and the time left, estimated from the ``seconds`` these ``done``
    took (none before the first is done, or once all are).

    >>> count_text("mutants judged", 12, 48, 6.0)
    '12 of 48 mutants judged, ~18 s left'
    >>> count_text("claims", 0, 17, 2.0)
    '0 of 17 claims'
    """
    text = f"{done:,} of {total:,} {what}"
    if 0 < done < total:
        text += f", ~{seconds * (total - done) / done:.0f} s left"
    return text


class Live:
    """A live line on a terminal's stderr: what the command does, the work done of the work
    known and the time left; nothing of it to a pipe or a file. Lines printed meanwhile go above
    it, fitted to the width (a path is never cut: :func:`fit`); standard output is routed
    around the line only when it is the terminal too (``cmd > file`` keeps its lines in the file).
    """

    def __init__(self, title: str, console: Any = None) -> None:
        import time

        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn

        self.clock = time.perf_counter
        self.console = Console(stderr=True) if console is None else console
        self.enabled = self.console.is_terminal
        try:
            stdout_on_terminal = sys.stdout.isatty()
        except (AttributeError, ValueError, OSError):
            stdout_on_terminal = False
        # the time spent ticks on its own between updates (a claim or a step may take a while)
        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description} | {task.elapsed:.0f} s"),
            console=self.console,
            transient=True,
            disable=not self.enabled,
            redirect_stdout=stdout_on_terminal,
        )
        self.task = self.progress.add_task(title)
        self.title = title
        self.started = self.clock()
        self.doing = "starting"
        self.count: tuple[str, int, int, float] | None = (
            None  # what, done, total, when that count began
        )
        self.extra = ""
        self._counted_at = self.started

    def __enter__(self) -> Live:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.__exit__(*exc)

    def step(self, doing: str) -> None:
        """A new step: what is being done now (its count starts afresh)."""
        self.doing, self.count, self.extra = doing, None, ""
        self._counted_at = self.clock()
        self.refresh(force=True)

    def counted(self, what: str, done: int, total: int) -> None:
        """``done`` of ``total`` ``what`` so far in this step."""
        now = self.clock()
        fresh = self.count is None or self.count[0] != what or done < self.count[1]
        # a fresh count began when the step, or the count before it, last moved
        began = self._counted_at if fresh or self.count is None else self.count[3]
        self.count, self._counted_at = (what, done, total, began), now
        self.refresh(force=fresh or done >= total)

    def line(self, text: str) -> None:
        """A line printed above the live line (on a terminal), fitted to the width."""
        width = self.console.width if self.enabled else columns()
        for part in fit(text, width):
            self.progress.console.print(part, markup=False, highlight=False, soft_wrap=True)

    def text(self) -> str:
        now = self.clock()
        parts = [f"{self.title}: {self.doing}"]
        if self.count is not None:
            what, done, total, began = self.count
            parts.append(count_text(what, done, total, now - began))
        if self.extra:
            parts.append(self.extra)
        return " | ".join(parts)

    def refresh(self, force: bool = False) -> None:
        """The line's text set anew (rich draws it 10 times a second, on its own; ``force``: now,
        so that a step's last count or a new step is seen however short it was)."""
        if not self.enabled:
            return
        from rich.markup import escape

        self.progress.update(self.task, description=escape(self.text()), refresh=force)
