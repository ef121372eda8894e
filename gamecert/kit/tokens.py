"""Program output read token by token, as a testlib checker reads the participant's output.

Every game's ``parse_answer`` reads through :class:`AnswerReader`, so all games agree on what a
token is and which faults are PE and which are WA (docs/certify.md, "How answers are read"):

- **Separators** are exactly space, tab, CR and LF (testlib's blanks). Any other character, a
  no-break space U+00A0, an em space U+2003, a vertical tab, a form feed, a NUL byte, is part of
  its token: ``Alice\\u00a0`` is one token, and it is not ``Alice``.
- **Words** are compared exactly, case included, as ``wcmp`` compares them: a different word is
  WA (:class:`~gamecert.errors.WrongAnswerError`).
- **Missing and extra tokens** are WA, as ``wcmp`` says them ("unexpected EOF", "extra tokens"):
  the reader looks for the end of the output before each token and after the last.
- **Integers** are read as testlib's ``readInt`` / ``readLong`` read them: an optional ``-``
  then ASCII digits only, no ``+``, no leading zeros, no ``-0``, at most 20 characters, within
  int32 (or int64). A token that breaks any of these is PE
  (:class:`~gamecert.errors.PresentationError`); a well-formed integer outside the answer's
  range (``readInt(low, high)``) is WA.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from gamecert.errors import AnswerError, PresentationError, WrongAnswerError
from gamecert.kit.escape import quoted
from gamecert.verdict import Verdict

#: the characters that separate tokens; nothing else does
SEPARATORS = " \t\r\n"
_SPLIT = re.compile("[ \t\r\n]+")
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
#: testlib refuses an integer token longer than this before looking at its digits
MAX_INTEGER_CHARS = 20
#: how much of a token a message shows
SHOWN_CHARS = 24


def split_tokens(text: str) -> list[str]:
    """The tokens of ``text``: maximal runs of characters other than space, tab, CR and LF.

    >>> split_tokens(" First\\r\\n\\t2 \\n")
    ['First', '2']
    >>> split_tokens("First\\u00a0\\n2\\x0b")
    ['First\\xa0', '2\\x0b']
    """
    return [t for t in _SPLIT.split(text) if t]


def shown(token: str, keep: int = SHOWN_CHARS) -> str:
    """``token`` quoted for a message: control and invisible characters escaped, long ones cut.

    >>> print(shown("Alice\\u00a0"))
    'Alice\\xa0'
    >>> print(shown("\\x1b[31mred"))
    '\\x1b[31mred'
    >>> print(shown("9" * 30))
    '999999999999999999999999'... (30 characters)
    """
    if len(token) <= keep:
        return _escaped(token)
    return f"{_escaped(token[:keep])}... ({len(token)} characters)"


def _escaped(text: str) -> str:
    """repr-style quoting that also escapes what repr leaves bare: Unicode spaces, zero-width and
    other invisible characters, combining marks standing alone (:func:`.escape.quoted`)."""
    return quoted(text)


def parse_integer(token: str, low: int, high: int, bits: int = 32) -> int:
    """``token`` as testlib's ``readInt(low, high)`` (``bits=64``: ``readLong``) reads it.

    PE if it is not an integer written strictly (or does not fit the type); WA if it is one but
    lies outside ``[low, high]``.

    >>> parse_integer("2", 1, 5), parse_integer("0", 0, 5), parse_integer("-7", -9, 9)
    (2, 0, -7)
    >>> parse_integer("02", 1, 5)
    Traceback (most recent call last):
    gamecert.errors.PresentationError: expected an integer, got '02' (leading zero)
    >>> parse_integer("9", 1, 5)
    Traceback (most recent call last):
    gamecert.errors.WrongAnswerError: 9 is outside 1..5
    """
    why = _malformed(token)
    if why:
        raise PresentationError(f"expected an integer, got {shown(token)} ({why})")
    value = int(token)
    lo, hi = INT32 if bits == 32 else INT64
    if not lo <= value <= hi:
        raise PresentationError(
            f"expected a {bits}-bit integer, got {shown(token)} (out of the type's range)"
        )
    if not low <= value <= high:
        raise WrongAnswerError(f"{value} is outside {low}..{high}")
    return value


def _malformed(token: str) -> str:
    """Why ``token`` is not an integer as testlib writes one ('' if it is one)."""
    if len(token) > MAX_INTEGER_CHARS:
        return f"longer than {MAX_INTEGER_CHARS} characters"
    digits = token[1:] if token.startswith("-") and len(token) > 1 else token
    for ch in digits:
        if not "0" <= ch <= "9":
            if ch == "+":
                return "a '+' sign is not allowed"
            return f"{_escaped(ch)} is not a digit"
    if digits.startswith("0") and (len(digits) > 1 or digits is not token):
        return "minus zero" if digits == "0" else "leading zero"
    return ""


#: while :func:`recording` runs, what every token read stands for: (its number, what the game
#: calls it, the words it may be, or None for an integer)
_RECORD: ContextVar[list[tuple[int, str, tuple[str, ...] | None]] | None] = ContextVar(
    "gamecert_tokens", default=None
)


@contextmanager
def recording() -> Iterator[list[tuple[int, str, tuple[str, ...] | None]]]:
    """What each token read inside the block stands for, in the game's words (how a report
    names the first token that differs).

    >>> with recording() as read:
    ...     r = AnswerReader("First 2"); _ = r.word(("First", "Second"), "First or Second"), r.integer(1, 5, "the cut")
    >>> read
    [(1, 'First or Second', ('First', 'Second')), (2, 'the cut', None)]
    """
    read: list[tuple[int, str, tuple[str, ...] | None]] = []
    token = _RECORD.set(read)
    try:
        yield read
    finally:
        _RECORD.reset(token)


class AnswerReader:
    """The tokens of one output, read in order; the errors name the token and what was expected.

    >>> r = AnswerReader("First\\r\\n2 \\n")
    >>> r.word(("First", "Second"), "First or Second"), r.integer(1, 7, "the cut position")
    ('First', 2)
    >>> r.finish()
    >>> AnswerReader("first\\n").word(("First", "Second"), "First or Second")
    Traceback (most recent call last):
    gamecert.errors.WrongAnswerError: token 1: expected First or Second, got 'first' (answers are case-sensitive)
    """

    def __init__(self, text: str) -> None:
        self.tokens = split_tokens(text)
        self.position = 0  # tokens read so far

    def at_end(self) -> bool:
        return self.position >= len(self.tokens)

    def peek(self) -> str | None:
        """The next token without reading it, or None at the end of the output."""
        return None if self.at_end() else self.tokens[self.position]

    def _next(self, what: str, choices: Sequence[str] | None = None) -> str:
        read = _RECORD.get()
        if read is not None:
            read.append((self.position + 1, what, tuple(choices) if choices is not None else None))
        if self.at_end():
            after = (
                f" after {self.position} token{'s' if self.position != 1 else ''}"
                if self.position
                else ""
            )
            raise WrongAnswerError(f"unexpected end of output{after}: expected {what}")
        self.position += 1
        return self.tokens[self.position - 1]

    def word(self, choices: Sequence[str], what: str) -> str:
        """The next token, which must be one of ``choices`` exactly (else WA)."""
        token = self._next(what, choices)
        if token in choices:
            return token
        raise WrongAnswerError(
            f"token {self.position}: expected {what}, got {shown(token)}{_hint(token, choices)}"
        )

    def integer(self, low: int, high: int, what: str, bits: int = 32) -> int:
        """The next token as ``readInt(low, high)`` reads it (PE if malformed, WA if out of range)."""
        token = self._next(what)
        try:
            return parse_integer(token, low, high, bits)
        except AnswerError as exc:
            raise type(exc)(f"token {self.position} ({what}): {exc}") from None

    def finish(self) -> None:
        """WA if any token is left after the answer."""
        if not self.at_end():
            extra = len(self.tokens) - self.position
            raise WrongAnswerError(
                f"extra token{'s' if extra > 1 else ''} after the answer: {extra} more, the first {shown(self.tokens[self.position])}"
            )


#: the starts of the two WA messages :class:`AnswerReader` gives for a missing and an extra token
MISSING_TOKEN, EXTRA_TOKEN = "unexpected end of output", "extra token"


def verdict_under_testlib(verdict: str, why: str) -> str:
    """The verdict a testlib checker gives where gamecert gives ``verdict`` for ``why``: the same,
    except a missing or an extra token, which gamecert calls WA (as ``wcmp`` does) and testlib.h
    PE (its "unexpected end of file" and "extra information in the output file").

    >>> verdict_under_testlib("WA", "extra token after the answer: 1 more, the first 'x'")
    'PE'
    >>> verdict_under_testlib("WA", "token 1: expected First or Second, got 'first'")
    'WA'
    """
    if verdict == "WA" and why.startswith((MISSING_TOKEN, EXTRA_TOKEN)):
        return "PE"
    return verdict


def _hint(token: str, choices: Sequence[str]) -> str:
    """Why a near miss is a miss: case, or a character that looks like a separator and is not one."""
    odd = [ch for ch in token if ch.isspace() or not ch.isprintable()]
    if odd:
        names = ", ".join(dict.fromkeys(f"U+{ord(ch):04X}" for ch in odd))
        return f" ({names} is not a separator: only space, tab, CR and LF are)"
    if any(token.casefold() == c.casefold() for c in choices):
        return " (answers are case-sensitive)"
    return ""


def verdict_of(game: Any, instance: Any, text: str, expected: Any) -> tuple[Verdict, str]:
    """The verdict a single output gets, and why: read (PE or WA), then judged (WA), else OK.

    The same two steps a candidate run takes after a clean exit.

    >>> from gamecert.oracles.word_game import GAME
    >>> verdict_of(GAME, "AAA", "Alice\\r\\n", "Alice")
    (<Verdict.OK: 'OK'>, '')
    """
    try:
        got = game.parse_answer(text, instance)
    except AnswerError as exc:
        return Verdict(exc.verdict), str(exc)
    why = game.judge(instance, got, expected)
    return (Verdict.OK, "") if why is None else (Verdict.WA, why)
