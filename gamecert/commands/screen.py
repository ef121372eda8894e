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
    return textwrap.wrap(line, width, subsequent_indent=" " * indent, break_long_words=False,
                         break_on_hyphens=False) or [line]


def echo(text: str = "") -> None:
    """Print ``text`` (one line or several) fitted to :func:`columns`, flushed, with every control
    or invisible character in it escaped (:func:`gamecert.kit.escape.visible`): whatever a line
    quotes (a file name, a candidate's output) cannot drive the terminal."""
    width = columns()
    for line in str(text).split("\n"):
        for part in fit(visible(line), width):
            print(part, flush=True)
