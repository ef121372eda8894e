"""A long input shown by its shape, not as one unreadable line: its lines and characters counted,
each long line as the units it repeats (``"aab" x 1,466``), the whole text left in the report's
file (``input.in``)."""

from __future__ import annotations

#: a line longer than this is shown by its shape
LONG_LINE = 100
#: the text shown for one line's shape, at most (then "...")
SHOWN = 120
#: lines shown of a long input, at most
LINES = 8
#: the longest repeated unit looked for
MAX_UNIT = 32


def runs(line: str) -> list[tuple[str, int]]:
    """``line`` as (unit, times) pieces, greedily: at each place the unit that covers the most
    characters repeated three times or more, else one character (joined with the next ones).

    >>> runs("aab" * 5 + "aa")
    [('aab', 5), ('aa', 1)]
    >>> runs("xy" + "1 " * 4)
    [('xy', 1), ('1 ', 4)]
    """
    out: list[tuple[str, int]] = []
    literal = ""
    i, n = 0, len(line)
    while i < n:
        best_unit, best_times = "", 0
        for p in range(1, min(MAX_UNIT, (n - i) // 3) + 1):
            unit = line[i : i + p]
            times = 1
            while line.startswith(unit, i + times * p):
                times += 1
            if times >= 3 and times * p > best_times * len(best_unit):
                best_unit, best_times = unit, times
        if best_unit:
            if literal:
                out.append((literal, 1))
                literal = ""
            out.append((best_unit, best_times))
            i += best_times * len(best_unit)
        else:
            literal += line[i]
            i += 1
    if literal:
        out.append((literal, 1))
    return out


def _what(line: str) -> str:
    if line.isalpha():
        return "letters"
    if line.isdigit():
        return "digits"
    return "characters"


def line_shape(line: str) -> str:
    """One long line in words: its length and the units it repeats.

    >>> line_shape("aab" * 1466 + "aa")
    'a line of 4,400 letters: "aab" x 1,466, "aa"'
    """
    pieces = []
    used = 0
    for unit, times in runs(line):
        piece = f'"{unit}"' + (f" x {times:,}" if times > 1 else "")
        if used + len(piece) > SHOWN:
            pieces.append("...")
            break
        pieces.append(piece)
        used += len(piece) + 2
    return f"a line of {len(line):,} {_what(line)}: {', '.join(pieces)}"


def input_shape(text: str, keep: int = 600) -> list[str] | None:
    """A long input (over ``keep`` characters) as a few lines describing it: the first its size
    and where the whole text is, then its first lines (each long one by its shape); None for an
    input short enough to show as it is.

    >>> input_shape("abc")
    >>> input_shape("aab" * 1466 + "aa\\n")
    ['a line of 4,400 letters: "aab" x 1,466, "aa" (the whole input: input.in in the report\\'s folder)']
    """
    body = text.rstrip("\n")
    if len(body) <= keep:
        return None
    lines = body.split("\n")
    where = "(the whole input: input.in in the report's folder)"
    if len(lines) == 1:
        return [f"{line_shape(lines[0])} {where}"]
    out = [f"{len(lines):,} lines, {len(body):,} characters {where}"]
    for line in lines[:LINES]:
        out.append(line_shape(line) if len(line) > LONG_LINE else line)
    if len(lines) > LINES:
        out.append(f"... ({len(lines) - LINES:,} more lines)")
    return out


__all__ = ["input_shape", "line_shape", "runs"]
