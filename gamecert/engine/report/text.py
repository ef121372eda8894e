"""The text helpers of reports and certificates: what a candidate printed made visible, a
reason without its verdict word, Markdown fences, clipping, counts and names, timestamps."""

from __future__ import annotations

import re
from datetime import datetime

from gamecert.kit import escape

#: how much of a candidate's output a report keeps (the whole thing goes nowhere: it may be huge)
GOT_KEEP = 4000


def n_of(count: int, word: str) -> str:
    """A count and its noun, singular for one.

    >>> n_of(1, "run"), n_of(662, "run")
    ('1 run', '662 runs')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


def visible(text: str, keep_newlines: bool = False) -> str:
    r"""``text`` with control and invisible characters (NUL, ESC, other C0 and C1 codes, format
    characters such as U+200B, separators other than the plain space, default-ignorable code
    points such as U+034F, combining marks standing alone) shown as escapes, so that what a
    candidate printed can neither drive a terminal nor hide in a report
    (:func:`gamecert.kit.escape.visible`). ``keep_newlines`` keeps line feeds (for blocks).

    >>> print(visible("Bob\x1b[2J\x00\u200b\xa0."))
    Bob\x1b[2J\x00\u200b\xa0.
    >>> print(visible("a\nb\tc", keep_newlines=True))
    a
    b\tc
    """
    return escape.visible(text, keep_newlines)  # (the one place: gamecert.kit.escape)


def without_verdict(reason: str, verdict: str) -> str:
    """``reason`` without a leading copy of the verdict word, which a report states once.

    >>> without_verdict("TLE: CPU time limit 2 s exceeded (2.31 s)", "TLE")
    'CPU time limit 2 s exceeded (2.31 s)'
    >>> without_verdict("TLE: TLE: x", "TLE"), without_verdict("expected 1", "WA")
    ('x', 'expected 1')
    """
    prefix = f"{verdict}: "
    while verdict and reason.startswith(prefix):
        reason = reason[len(prefix) :]
    return reason


def one_line(text: str, keep: int = 300) -> str:
    """The first line of ``text``, escaped and clipped, for a list item."""
    line = text.strip().split("\n")[0] if text.strip() else ""
    return visible(line if len(line) <= keep else line[: keep - 3] + "...")


def fence(text: str, lang: str = "text") -> str:
    r"""A Markdown code block that survives backticks inside ``text``; control and invisible
    characters escaped (newlines kept).

    >>> print(fence("a\x00b\n"))
    ```text
    a\x00b
    ```
    """
    text = visible(text, keep_newlines=True)
    ticks = "```"
    while ticks in text:
        ticks += "`"
    body = text if text.endswith("\n") else text + "\n"
    return f"{ticks}{lang}\n{body}{ticks}"


def clip(text: str, keep: int = GOT_KEEP) -> str:
    """At most ``keep`` characters, saying how much was cut.

    >>> clip("abcdef", 3)
    'abc\\n... (3 more characters not shown)'
    """
    if len(text) <= keep:
        return text
    return text[:keep] + f"\n... ({len(text) - keep} more characters not shown)"


def timestamp(now: datetime | None = None) -> str:
    """A sortable, filesystem-safe timestamp.

    >>> timestamp(datetime(2024, 5, 6, 7, 8, 9, 123456))
    '20240506-070809-123'
    """
    now = now or datetime.now()
    return now.strftime("%Y%m%d-%H%M%S-") + f"{now.microsecond // 1000:03d}"


def safe_name(name: str) -> str:
    """A candidate name usable as a directory name.

    >>> safe_name("java -cp build Main")
    'java--cp-build-Main'
    """
    cleaned = re.sub(r"[^A-Za-z0-9._+-]+", "-", name).strip("-.")
    return (cleaned or "candidate")[:60]


__all__ = [
    "GOT_KEEP",
    "clip",
    "fence",
    "n_of",
    "one_line",
    "safe_name",
    "timestamp",
    "visible",
    "without_verdict",
]
