r"""Text from outside shown safely: every character that could drive a terminal or hide in a
report is written as an escape.

What a candidate printed (its output, its stderr), a file name and a compiler's message reach
the terminal and ``report.md`` only through :func:`visible` (``report.json`` and the ``.in`` and
``.ans`` files keep the exact text). Escaped:

* control characters (Unicode category Cc: NUL, ESC, the other C0 and C1 codes, DEL), as
  ``\x1b``, ``\t``, ``\n`` (line feeds kept where a block is shown);
* format characters (Cf: zero-width spaces and joiners, the byte order mark, bidirectional
  controls such as U+202E), line and paragraph separators (Zl, Zp), spaces other than the plain
  space (Zs: U+00A0, U+2003, ...), private-use (Co), unassigned (Cn) and surrogate (Cs) code
  points;
* the default-ignorable code points that other categories hide (U+034F the combining grapheme
  joiner, the variation selectors U+FE00..U+FE0F and U+E0100..U+E01EF, the Hangul fillers, the
  Mongolian selectors, the tags block), which no terminal draws;
* a combining mark (Mn, Me) standing alone: at the start, or after a space or anything escaped,
  where it would draw over the text before it.

A character below U+0100 is written ``\xNN`` (or ``\t``, ``\n``, ``\r``), others ``\uNNNN`` or
``\UNNNNNNNN``: ``"Alice\u034f"`` never shows as ``Alice``.
"""

from __future__ import annotations

import unicodedata

#: categories never shown as they are (the plain space, U+0020, is the one Zs kept)
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt), inclusive: drawn as
#: nothing, whatever their category
IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escaped(ch: str) -> str:
    r"""One character as its escape.

    >>> escaped("\x1b"), escaped("\n"), escaped("\u200b"), escaped("\U000e0100")
    ('\\x1b', '\\n', '\\u200b', '\\U000e0100')
    """
    code = ord(ch)
    if ch in _SHORT:
        return _SHORT[ch]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def ignorable(code: int) -> bool:
    """Whether ``code`` is a default-ignorable code point (see :data:`IGNORABLE`)."""
    return any(low <= code <= high for low, high in IGNORABLE)


def visible(text: str, keep_newlines: bool = False, keep: str = "") -> str:
    r"""``text`` with every control, invisible or format character escaped, and every combining
    mark that stands alone; ``keep_newlines`` keeps line feeds (for blocks), ``keep`` other
    characters as they are (a compiler message keeps its tabs).

    >>> print(visible("Bob\x1b[2J\x00\u200b\xa0."))
    Bob\x1b[2J\x00\u200b\xa0.
    >>> print(visible("Alice\u034f\U000e0100\ufe0f"))
    Alice\u034f\U000e0100\ufe0f
    >>> print(visible("\u202eevil"))
    \u202eevil
    >>> visible("\u0301a e\u0301 \u0301") == "\\u0301a e\u0301 \\u0301"  # a mark alone, and on its e
    True
    >>> print(visible("a\nb\tc", keep_newlines=True))
    a
    b\tc
    """
    if text.isascii() and text.isprintable():
        return text
    kept = keep + ("\n" if keep_newlines else "")
    out: list[str] = []
    base = False  # whether the last character shown can carry a combining mark
    for ch in text:
        if ch in kept:
            out.append(ch)
            base = False
            continue
        if ch < "\x7f" and ch >= " ":
            out.append(ch)
            base = ch != " "
            continue
        category = unicodedata.category(ch)
        hidden = (category in HIDDEN_CATEGORIES and ch != " ") or ignorable(ord(ch))
        if not hidden and category in ("Mn", "Me") and not base:
            hidden = True  # a mark standing alone
        if hidden:
            out.append(escaped(ch))
            base = False
        else:
            out.append(ch)
            base = True
    return "".join(out)


def quoted(text: str) -> str:
    r"""``text`` quoted as Python's ``repr`` quotes it, with everything :func:`visible` escapes
    escaped too.

    >>> print(quoted("Alice\u034f"), quoted("it's\x00"), quoted("\xa0"))
    'Alice\u034f' "it's\x00" '\xa0'
    """
    return visible(repr(text))


__all__ = ["HIDDEN_CATEGORIES", "IGNORABLE", "escaped", "ignorable", "quoted", "visible"]
