"""The standalone validator and checker a test package ships (``gamecert tests GAME``).

Both are one Python file each, standard library only, no gamecert import, so a judge (Polygon,
a gym, ``oj``-style local judging) runs them without gamecert installed. Each is
:data:`COMMON` (the token reader of :mod:`gamecert.kit.tokens` again, testlib's exit codes, the
strict line helpers of :mod:`gamecert.kit.game`) plus the game's own part, the text a game gives
as ``standalone_code``. That text defines three functions:

- ``parse_input(text)``: the input as the game's ``parse_input`` validates it; raise
  ``Invalid(message)`` (naming the line) for anything the game refuses;
- ``read_answer(reader, inp)``: read one whole output through ``reader`` (a :class:`Reader`
  below: ``word``, ``integer``, ``finish``), exactly as the game's ``parse_answer`` reads it;
- ``judge(inp, got, expected)``: ``None`` if ``got`` is right, else why not, as the game's
  ``judge`` decides;
- optionally ``format_input(inp)``: the input's text exactly as the game's ``format_input``
  writes it; the package's generator ``files/gen.py`` needs it
  (:mod:`gamecert.engine.testpack.recipes`; without it every test stays manual).

``gamecert tests`` checks the result: the validator must accept every test and the checker must
give gamecert's verdict on every output it judged (a disagreement names the game's
``standalone_code`` as at fault).

Exit codes (testlib's): checker 0 OK, 1 WA, 2 PE, 3 fail (the input or the answer file is
bad: the package's fault, never the participant's); validator 0 valid, 3 invalid. A missing or an
extra token is PE here, as testlib.h says it (gamecert's own judge calls it WA, as ``wcmp`` does:
:func:`gamecert.kit.tokens.verdict_under_testlib`).
"""

from __future__ import annotations

#: the shared part of both programs (stdlib only); the game's part and a ``main`` follow it
COMMON = r'''
import re
import sys

OK, WA_EXIT, PE_EXIT, FAIL_EXIT = 0, 1, 2, 3
INT32 = (-(2 ** 31), 2 ** 31 - 1)
INT64 = (-(2 ** 63), 2 ** 63 - 1)
_SPLIT = re.compile("[ \t\r\n]+")


class WA(Exception):
    """Wrong answer: a wrong, missing or extra token, an integer out of range, a wrong answer."""


class PE(Exception):
    """Presentation error: an integer not written as testlib's readInt reads one."""


class Invalid(Exception):
    """The input breaks the constraints."""


def tokens(text):
    """Tokens are separated by space, tab, CR and LF only (testlib's blanks)."""
    return [t for t in _SPLIT.split(text) if t]


def shown(token):
    return repr(token if len(token) <= 24 else token[:24] + "...")


def malformed(token):
    """Why ``token`` is not an integer written as testlib writes one ('' if it is one)."""
    if len(token) > 20:
        return "longer than 20 characters"
    digits = token[1:] if token.startswith("-") and len(token) > 1 else token
    for ch in digits:
        if not "0" <= ch <= "9":
            return "a '+' sign is not allowed" if ch == "+" else repr(ch) + " is not a digit"
    if digits.startswith("0") and (len(digits) > 1 or digits is not token):
        return "minus zero" if digits == "0" else "leading zero"
    return ""


class Reader:
    """One output's tokens, read in order, as gamecert's AnswerReader reads them."""

    def __init__(self, text):
        self.tokens = tokens(text)
        self.position = 0

    def at_end(self):
        return self.position >= len(self.tokens)

    def _next(self, what):
        if self.at_end():
            raise PE("unexpected end of output: expected " + what)
        self.position += 1
        return self.tokens[self.position - 1]

    def word(self, choices, what):
        token = self._next(what)
        if token in choices:
            return token
        raise WA("token %d: expected %s, got %s" % (self.position, what, shown(token)))

    def integer(self, low, high, what, bits=32):
        token = self._next(what)
        why = malformed(token)
        if why:
            raise PE("token %d (%s): expected an integer, got %s (%s)" % (self.position, what, shown(token), why))
        value = int(token)
        lo, hi = INT32 if bits == 32 else INT64
        if not lo <= value <= hi:
            raise PE("token %d (%s): %s is out of the %d-bit range" % (self.position, what, shown(token), bits))
        if not low <= value <= high:
            raise WA("token %d (%s): %d is outside %d..%d" % (self.position, what, value, low, high))
        return value

    def finish(self):
        if not self.at_end():
            raise PE("extra tokens after the answer, the first " + shown(self.tokens[self.position]))


def input_lines(text):
    """Lines as a strict validator splits them: a final newline optional, CRLF accepted."""
    if text.endswith("\n"):
        text = text[:-1]
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def require_line(lines, index, what):
    if index >= len(lines):
        raise Invalid("line %d: missing line: expected %s" % (index + 1, what))
    return lines[index]


def reject_trailing(lines, used):
    if len(lines) > used:
        raise Invalid("line %d: trailing data after the input: %r" % (used + 1, lines[used][:20]))


def reject_spaces(line, number):
    if line.strip() != line:
        raise Invalid("line %d: unexpected whitespace" % number)


def parse_int(line, number, what, low, high):
    """An integer in [low, high] that is the whole line (no sign, no leading zeros)."""
    reject_spaces(line, number)
    if not line:
        raise Invalid("line %d: %s: expected an integer, got an empty line" % (number, what))
    if not (line.isascii() and line.isdigit()) or (len(line) > 1 and line[0] == "0"):
        raise Invalid("line %d: %s: expected an integer without sign or leading zeros, got %r" % (number, what, line[:20]))
    value = int(line)
    if not low <= value <= high:
        raise Invalid("line %d: %s must be between %d and %d, got %d" % (number, what, low, high, value))
    return value


def parse_word(text, alphabet, max_len, noun):
    """A one-line input holding one word of 1 to max_len characters from alphabet."""
    lines = input_lines(text)
    word = require_line(lines, 0, "a " + noun)
    reject_spaces(word, 1)
    if not word:
        raise Invalid("line 1: the %s must have 1 to %d letters, got an empty line" % (noun, max_len))
    for column, ch in enumerate(word, 1):
        if ch not in alphabet:
            raise Invalid("line 1, column %d: character %r is not allowed" % (column, ch))
    if len(word) > max_len:
        raise Invalid("line 1: the %s must have 1 to %d letters, got %d" % (noun, max_len, len(word)))
    reject_trailing(lines, 1)
    return word


def read_file(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")
'''

CHECKER_MAIN = r'''

def check(input_text, output_text, answer_text):
    """(exit code, message) for one output, as gamecert judges it."""
    try:
        inp = parse_input(input_text)
    except Invalid as exc:
        return FAIL_EXIT, "the input is not valid: %s" % exc
    try:
        expected = read_answer(Reader(answer_text), inp)
    except (WA, PE) as exc:
        return FAIL_EXIT, "the answer file is not a valid answer: %s" % exc
    try:
        got = read_answer(Reader(output_text), inp)
    except PE as exc:
        return PE_EXIT, str(exc)
    except WA as exc:
        return WA_EXIT, str(exc)
    why = judge(inp, got, expected)
    return (OK, "ok") if why is None else (WA_EXIT, why)


def main(argv):
    if len(argv) < 4:
        print("usage: checker.py INPUT OUTPUT ANSWER", file=sys.stderr)
        return FAIL_EXIT
    code, message = check(read_file(argv[1]), read_file(argv[2]), read_file(argv[3]))
    print(("ok " if code == OK else "wrong answer " if code == WA_EXIT else
           "wrong output format " if code == PE_EXIT else "FAIL ") + message, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''

VALIDATOR_MAIN = r'''

def validate(text):
    """'' if ``text`` is a valid input written strictly (lines end with a line feed alone, the
    last one too, as a testlib validator's readEoln and readEof want), else why not."""
    try:
        parse_input(text)
    except Invalid as exc:
        return str(exc)
    if "\r" in text:
        return "line %d: a carriage return (a line ends with a line feed alone)" % (text[:text.index("\r")].count("\n") + 1)
    if not text.endswith("\n"):
        return "line %d: no end of line at the end of the file" % (text.count("\n") + 1)
    return ""


def main(argv):
    if len(argv) > 1:
        text = read_file(argv[1])
    else:
        text = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    why = validate(text)
    if why:
        print("FAIL " + why, file=sys.stderr)
        return FAIL_EXIT
    return OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''


def program(kind: str, game_name: str, game_code: str) -> str:
    """The text of ``validator.py`` (``kind="validator"``) or ``checker.py`` for one game.

    >>> text = program("checker", "g", "def parse_input(t):\\n    return t\\n")
    >>> text.startswith("#!/usr/bin/env python3") and "def check(" in text
    True
    """
    if kind not in ("validator", "checker"):
        raise ValueError(kind)
    head = (
        "#!/usr/bin/env python3\n"
        f'"""The {kind} of {game_name}\'s test package, written by `gamecert tests`.\n\n'
        "Standard library only. "
        + (
            "Usage: checker.py INPUT OUTPUT ANSWER (testlib's order); exit 0 OK, 1 WA, 2 PE, 3 fail\n"
            "(the input or the answer file is bad). Tokens are read as gamecert and testlib read them."
            if kind == "checker"
            else "Usage: validator.py [INPUT] (default: standard input); exit 0 valid, 3 invalid,\n"
            "with the reason on standard error."
        )
        + '\n"""\n'
    )
    main = CHECKER_MAIN if kind == "checker" else VALIDATOR_MAIN
    return (
        head
        + COMMON
        + "\n\n# ---- the game's part (its standalone_code) ----\n"
        + game_code.strip("\n")
        + "\n"
        + main
    )
