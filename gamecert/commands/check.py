"""``gamecert check GAME FILE``: check claimed examples (an input and its claimed answer).

Editorials and statements state examples as facts: "for ``AAA`` the answer is ``Alice``". This
command checks each one: is the input valid (else the validator's message, naming line and
rule), does the claimed answer hold, and if not, why and what the right answer is (from the
oracle within its reach, else from the registered fast solvers, which must agree).

Claims file format
------------------
Plain text, read line by line::

    # word_game: the editorial's own tests
    --- input sample 1
    ZADACHA
    --- answer
    Alice

    --- input maximum size
    AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
    --- answer
    Bob

- ``--- input`` starts a claim; any text after it on the same line is the claim's name.
- The lines after it, up to ``--- answer``, are the input, exactly as a program would read it
  (each line ends with a newline). Blank lines at the end of a block are dropped, so blank
  lines may separate claims; blank lines inside a block are kept (and are usually invalid).
- ``--- answer`` is followed by the claimed output, up to the next ``--- input`` or the end of
  the file. Answers are compared as a judge does, after whitespace normalisation.
- A line starting with ``#`` is a comment, anywhere. A line that must start with ``#`` is
  written with a backslash first (``\\#...``); a leading backslash is always removed once.

Exit status: 0 every claim holds, 1 a claim is false or its input invalid, 2 the file cannot be
read or breaks the format.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamecert.errors import (
    InputError,
    OutOfReach,
    PresentationError,
    UsageError,
    WrongAnswerError,
)

INPUT_MARK = "--- input"
ANSWER_MARK = "--- answer"


@dataclass(frozen=True)
class ClaimedExample:
    """One claim read from a claims file."""

    number: int
    name: str
    line: int  # the line of its ``--- input`` marker in the file
    input: str
    answer: str
    input_file_lines: tuple[int, ...] = ()  # the file line of each input line

    def file_line(self, input_line: int) -> int:
        """The file line holding line ``input_line`` (1-based) of the input."""
        if 1 <= input_line <= len(self.input_file_lines):
            return self.input_file_lines[input_line - 1]
        return (self.input_file_lines[-1] + 1) if self.input_file_lines else self.line + 1

    @property
    def title(self) -> str:
        named = f" [{self.name}]" if self.name else ""
        return f"claim {self.number} (line {self.line}){named}"


@dataclass(frozen=True)
class ClaimResult:
    """What checking one claim found. ``status`` is ``holds``, ``false`` or ``invalid``."""

    claim: ClaimedExample
    status: str
    detail: str
    right_answer: str = ""
    source: str = ""

    def describe(self) -> str:
        head = f"{self.claim.title}: "
        if self.status == "invalid":
            return head + f"INVALID INPUT: {self.detail}"
        if self.status == "holds":
            return head + f"holds: {self.detail}"
        return (
            head + f"FALSE: {self.detail}\n    right answer: {_inline(self.right_answer)} "
            f"(from {self.source})"
        )


def parse_claims(text: str, where: str = "the claims file") -> list[ClaimedExample]:
    """Read a claims file (format in the module docstring).

    >>> [(c.name, c.input, c.answer) for c in parse_claims("--- input one\\nAB\\n--- answer\\nBob\\n")]
    [('one', 'AB\\n', 'Bob\\n')]
    >>> parse_claims("AB\\n")
    Traceback (most recent call last):
    ...
    gamecert.errors.UsageError: the claims file line 1: text outside a claim; start each claim with '--- input'
    """
    claims: list[ClaimedExample] = []
    state = None  # None, "input" or "answer"
    name, start = "", 0
    input_lines: list[str] = []
    input_numbers: list[int] = []
    answer_lines: list[str] = []

    def finish(at: int) -> None:
        if state == "input":
            raise UsageError(
                f"{where} line {at}: the claim started on line {start} has no '{ANSWER_MARK}'"
            )
        if state == "answer":
            claims.append(
                ClaimedExample(
                    len(claims) + 1,
                    name,
                    start,
                    _block(input_lines),
                    _block(answer_lines),
                    tuple(input_numbers),
                )
            )

    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        if line.startswith("#"):
            continue
        if line.startswith(INPUT_MARK):
            finish(number)
            state, name, start = "input", line[len(INPUT_MARK) :].strip(" :"), number
            input_lines, input_numbers, answer_lines = [], [], []
            continue
        if line.startswith(ANSWER_MARK):
            if state != "input":
                raise UsageError(
                    f"{where} line {number}: '{ANSWER_MARK}' without a '{INPUT_MARK}' before it"
                )
            if line[len(ANSWER_MARK) :].strip():
                raise UsageError(
                    f"{where} line {number}: nothing may follow '{ANSWER_MARK}' on its line"
                )
            state = "answer"
            continue
        if line.startswith("---"):
            raise UsageError(
                f"{where} line {number}: unknown marker {line[:30]!r}; use '{INPUT_MARK}' or '{ANSWER_MARK}'"
            )
        if line.startswith("\\"):
            line = line[1:]
        if state == "input":
            input_lines.append(line)
            input_numbers.append(number)
        elif state == "answer":
            answer_lines.append(line)
        elif line.strip():
            raise UsageError(
                f"{where} line {number}: text outside a claim; start each claim with '{INPUT_MARK}'"
            )
    finish(len(lines) + 1)
    if not claims:
        raise UsageError(
            f"{where} holds no claims; each claim is '{INPUT_MARK}', the input, '{ANSWER_MARK}', the answer"
        )
    return claims


def _block(lines: list[str]) -> str:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return "".join(line + "\n" for line in lines)


def check_claim(entry: Any, claim: ClaimedExample) -> ClaimResult:
    """Check one claim against the oracle (or the agreeing fast solvers beyond its reach)."""
    from gamecert.commands.certify import expected_answer

    game = entry.game
    try:
        instance = game.parse_input(claim.input)
    except InputError as exc:
        return ClaimResult(claim, "invalid", f"{exc} (file line {claim.file_line(exc.line)})")
    expected, source = expected_answer(entry, instance, every=True)
    right = game.format_answer(expected)
    try:
        claimed = game.parse_answer(claim.answer, instance)
    except PresentationError as exc:
        return ClaimResult(
            claim, "false", f"the claimed answer is not a well-formed output: {exc}", right, source
        )
    except WrongAnswerError as exc:
        return ClaimResult(claim, "false", f"the claimed answer is wrong: {exc}", right, source)
    reason = game.judge(instance, claimed, expected)
    if reason is None:
        return ClaimResult(
            claim, "holds", f"{_inline(claim.answer)} (confirmed by {source})", right, source
        )
    why = reason
    try:
        why += f"; the position: {game.explain(instance).outcome}"
    except OutOfReach:
        pass
    return ClaimResult(claim, "false", why, right, source)


def _inline(text: str, keep: int = 120) -> str:
    flat = " / ".join(text.split("\n")).strip(" /") or "(empty)"
    return (
        repr(flat)
        if len(flat) <= keep
        else repr(flat[:keep]) + f"... ({len(flat) - keep} more characters)"
    )


def check_command(args: Any) -> int:
    """``gamecert check GAME FILE``: exit 0 all claims hold, 1 some do not, 2 unreadable file.

    ``FILE`` may be ``-`` for standard input.
    """
    from gamecert.commands.files import read_text
    from gamecert.engine import registry

    entry = registry.get(args.game)
    text = read_text(args.file)  # bounded: /dev/zero or a huge file is refused, not read
    claims = parse_claims(text, where="standard input" if args.file == "-" else args.file)
    results = [check_claim(entry, c) for c in claims]
    for r in results:
        print(r.describe())
    counts = {s: sum(1 for r in results if r.status == s) for s in ("holds", "false", "invalid")}
    print(
        f"{args.game}: {len(results)} claims: {counts['holds']} hold, {counts['false']} false, "
        f"{counts['invalid']} with an invalid input"
    )
    return 0 if counts["holds"] == len(results) else 1
