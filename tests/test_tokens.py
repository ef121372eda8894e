"""Answers as a testlib checker reads them (gamecert.kit.tokens, docs/certify.md "How answers are read").

Per game, each output goes through ``game.parse_answer`` and ``game.judge`` (``verdict_of``) and
its verdict is asserted: OK for whitespace a judge accepts (CRLF, tabs, trailing spaces), WA for
another word, a missing or an extra token or a number out of range, PE for a number written
wrongly. Then the same through real candidate runs (``gamecert certify``). A last test runs the
table against a deliberately lax reader (``str.split`` and ``int``) to show the table catches it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.errors import AnswerError, PresentationError, WrongAnswerError
from gamecert.kit import tokens
from gamecert.kit.tokens import AnswerReader, parse_integer, verdict_of

ROOT = Path(__file__).resolve().parent.parent
NBSP, EM_SPACE = "\u00a0", "\u2003"

# (game, input text, output text, verdict); the expected answer is the oracle's
CASES = [
    # word_game: AAA -> Alice (remove all three)
    ("word_game", "AAA\n", "Alice\n", "OK"),
    ("word_game", "AAA\n", "Alice", "OK"),
    ("word_game", "AAA\n", "Alice \n", "OK"),
    ("word_game", "AAA\n", "Alice\r\n", "OK"),
    ("word_game", "AAA\n", "\tAlice\t\n\n", "OK"),
    ("word_game", "AAA\n", f"Alice{NBSP}\n", "WA"),
    ("word_game", "AAA\n", f"Alice{EM_SPACE}\n", "WA"),
    ("word_game", "AAA\n", "Alice\x0b\n", "WA"),  # vertical tab: not a separator
    ("word_game", "AAA\n", "Alice\x0c\n", "WA"),  # form feed: not a separator
    ("word_game", "AAA\n", "Alice\x00\n", "WA"),
    ("word_game", "AAA\n", "alice\n", "WA"),
    ("word_game", "AAA\n", "Alice\nAlice\n", "WA"),  # extra token
    ("word_game", "AAA\n", "", "WA"),  # missing token
    ("word_game", "AAA\n", "\r\n \t\n", "WA"),
    ("word_game", "AAA\n", "Bob\n", "WA"),
    # string_cut: abacaba -> First 2; abcde -> Second
    ("string_cut", "abacaba\n", "First\n2\n", "OK"),
    ("string_cut", "abacaba\n", "First\r\n2\r\n", "OK"),
    ("string_cut", "abacaba\n", "First\t2", "OK"),
    ("string_cut", "abacaba\n", "First 2 \n", "OK"),
    ("string_cut", "abacaba\n", "First\n0002\n", "PE"),
    ("string_cut", "abacaba\n", "First\n+2\n", "PE"),
    ("string_cut", "abacaba\n", "First\n-0\n", "PE"),
    ("string_cut", "abacaba\n", f"First\n2{NBSP}\n", "PE"),
    ("string_cut", "abacaba\n", "First\n2\x00\n", "PE"),
    ("string_cut", "abacaba\n", "First\n2x\n", "PE"),
    ("string_cut", "abacaba\n", "First\n99999999999999999999999\n", "PE"),  # huge: too long
    ("string_cut", "abacaba\n", "First\n2147483648\n", "PE"),  # beyond int32
    (
        "string_cut",
        "abacaba\n",
        "First\n\u0662\n",
        "PE",
    ),  # ARABIC-INDIC DIGIT TWO is not an ASCII digit
    ("string_cut", "abacaba\n", f"First{NBSP}\n2\n", "WA"),
    ("string_cut", "abacaba\n", "first\n2\n", "WA"),
    ("string_cut", "abacaba\n", "First\n2\n2\n", "WA"),  # extra token
    ("string_cut", "abacaba\n", "First\n", "WA"),  # missing token
    ("string_cut", "abacaba\n", "First\n0\n", "WA"),  # out of 1..7
    ("string_cut", "abacaba\n", "First\n8\n", "WA"),
    ("string_cut", "abacaba\n", "First\n-3\n", "WA"),  # well-formed, out of range
    ("string_cut", "abacaba\n", "First\n4\n", "WA"),  # a legal cut, not the smallest winning one
    ("string_cut", "abacaba\n", "Second\n", "WA"),
    ("string_cut", "abcde\n", "Second\n", "OK"),
    ("string_cut", "abcde\n", "Second\n1\n", "WA"),
    # digit_game: 4 games -> 2 1 1 2
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "2\n1\n1\n2\n", "OK"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "2 1 1 2", "OK"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "2\r\n1\r\n1\r\n2\r\n", "OK"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "02\n1\n1\n2\n", "PE"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "+2 1 1 2\n", "PE"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", f"2{NBSP}\n1\n1\n2\n", "PE"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "2 1 1 -0\n", "PE"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "2 1 1 2.0\n", "PE"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "2 1 1\n", "WA"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "2 1 1 2 1\n", "WA"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "3 1 1 2\n", "WA"),
    ("digit_game", "4\n1\n2\n1\n3\n3\n102\n4\n2069\n", "1 1 1 2\n", "WA"),
    # stones_once: piles 1, 2 -> YES (Jon wins)
    ("stones_once", "2\n1\n2\n", "YES\n", "OK"),
    ("stones_once", "2\n1\n2\n", "YES\r\n", "OK"),
    ("stones_once", "2\n1\n2\n", "yes\n", "WA"),
    ("stones_once", "2\n1\n2\n", f"YES{NBSP}\n", "WA"),
    ("stones_once", "2\n1\n2\n", "YES YES\n", "WA"),
    ("stones_once", "2\n1\n2\n", "", "WA"),
    ("stones_once", "2\n1\n2\n", "NO\n", "WA"),
    # dawson_kayles: one heap of 7; 7 -> 5 and 7 -> 3 + 2 both win
    ("dawson_kayles", "1\n7\n", "First\n1 5 0\n", "OK"),
    ("dawson_kayles", "1\n7\n", "First\r\n1\t3 2", "OK"),
    ("dawson_kayles", "1\n7\n", "First\n01 5 0\n", "PE"),
    ("dawson_kayles", "1\n7\n", "First\n1 +5 0\n", "PE"),
    ("dawson_kayles", "1\n7\n", "First\n1 5 99999999999999999999999\n", "PE"),
    ("dawson_kayles", "1\n7\n", "First\n1 5\n", "WA"),
    ("dawson_kayles", "1\n7\n", "First\n1 5 0 0\n", "WA"),
    ("dawson_kayles", "1\n7\n", f"First{NBSP}\n1 5 0\n", "WA"),
    ("dawson_kayles", "1\n7\n", "First\n2 5 0\n", "WA"),  # no heap 2: the judge says so
    ("dawson_kayles", "1\n7\n", "Second\n", "WA"),
]


def _verdict(game_name: str, text: str, output: str) -> tuple[str, str]:
    game = registry.get(game_name).game
    instance = game.parse_input(text)
    verdict, why = verdict_of(game, instance, output, game.oracle(instance))
    return verdict.value, why


@pytest.mark.parametrize(
    "game_name,text,output,verdict", CASES, ids=[f"{g}-{o!r}" for g, _, o, _ in CASES]
)
def test_verdict_of_each_output(game_name, text, output, verdict):
    """parse_answer then judge give the verdict a testlib checker gives."""
    got, why = _verdict(game_name, text, output)
    assert got == verdict, why


def test_every_game_reads_through_the_shared_reader(monkeypatch):
    """Every registered game's parse_answer splits its output with gamecert.kit.tokens: a reader
    that refuses every output makes every game refuse its own sample answer."""

    def refuse(text):
        raise WrongAnswerError("refused by the test")

    monkeypatch.setattr(tokens, "split_tokens", refuse)
    for entry in registry.all_entries():
        text, answer = entry.game.samples[0]
        with pytest.raises(WrongAnswerError, match="refused by the test"):
            entry.game.parse_answer(answer, entry.game.parse_input(text))


def test_the_table_catches_a_lax_reader(monkeypatch):
    """Against a reader that splits on every Unicode space and takes what int() takes (what
    gamecert did before), the table fails: a no-break space, leading zeros, '+' and '-0' all get
    a verdict other than testlib's."""
    monkeypatch.setattr(tokens, "split_tokens", str.split)
    monkeypatch.setattr(
        tokens, "_malformed", lambda token: "" if token.strip("+-").isdigit() else "not digits"
    )
    missed = [(g, o) for g, t, o, v in CASES if _verdict(g, t, o)[0] != v]
    for needle in (
        ("word_game", f"Alice{NBSP}\n"),
        ("string_cut", "First\n0002\n"),
        ("string_cut", "First\n+2\n"),
        ("string_cut", "First\n-0\n"),
        ("digit_game", "02\n1\n1\n2\n"),
        ("string_cut", f"First{NBSP}\n2\n"),
    ):
        assert needle in missed, needle


@pytest.mark.parametrize(
    "token,why",
    [
        ("0002", "leading zero"),
        ("00", "leading zero"),
        ("-0", "minus zero"),
        ("-01", "leading zero"),
        ("+2", "'+' sign"),
        ("-", "not a digit"),
        ("1e3", "not a digit"),
        ("9" * 21, "longer than 20"),
    ],
)
def test_integer_syntax_follows_testlib(token, why):
    """readInt's rules: optional '-', ASCII digits, no '+', no leading zeros, no -0, <= 20 chars."""
    with pytest.raises(PresentationError, match=why.replace("+", r"\+")):
        parse_integer(token, -100, 100)


def test_integer_types_and_ranges():
    """int32 by default, int64 on request (beyond the type: PE); outside low..high: WA."""
    assert parse_integer("0", 0, 0) == 0
    assert parse_integer("-2147483648", -(2**31), 0) == -(2**31)
    with pytest.raises(PresentationError, match="32-bit"):
        parse_integer("2147483648", 0, 2**40)
    assert parse_integer("2147483648", 0, 2**40, bits=64) == 2**31
    with pytest.raises(PresentationError, match="64-bit"):
        parse_integer("9223372036854775808", 0, 2**70, bits=64)
    with pytest.raises(WrongAnswerError, match="outside 1..2"):
        parse_integer("3", 1, 2)


def test_messages_name_the_token_and_escape_what_cannot_be_seen():
    """The reason says which token and what was expected; NBSP, NUL and ESC appear escaped,
    never raw, and a look-alike separator is named."""
    with pytest.raises(WrongAnswerError) as info:
        AnswerReader(f"First{NBSP}\n2").word(("First", "Second"), "First or Second")
    message = str(info.value)
    assert NBSP not in message and "\\xa0" in message and "U+00A0 is not a separator" in message
    with pytest.raises(PresentationError) as info:
        reader = AnswerReader("First\n2\x00\x1b[31m")
        reader.word(("First", "Second"), "First or Second")
        reader.integer(1, 9, "the cut position")
    message = str(info.value)
    assert (
        "token 2 (the cut position)" in message and "\x00" not in message and "\x1b" not in message
    )
    assert "\\x00" in message
    with pytest.raises(WrongAnswerError, match="extra tokens after the answer: 2 more"):
        reader = AnswerReader("Alice Bob Alice")
        reader.word(("Alice", "Bob"), "Alice or Bob")
        reader.finish()
    with pytest.raises(
        WrongAnswerError, match="unexpected end of output after 1 token: expected the cut"
    ):
        reader = AnswerReader("First")
        reader.word(("First", "Second"), "First or Second")
        reader.integer(1, 9, "the cut position")
    assert issubclass(PresentationError, AnswerError) and issubclass(WrongAnswerError, AnswerError)


def test_a_malformed_claimed_answer_is_false_and_says_why():
    """`gamecert check` reads claimed answers through the same reader: a leading zero is not
    a well-formed output, another word is a wrong one."""
    from gamecert.commands.check import check_claim, parse_claims

    entry = registry.get("string_cut")
    claims = parse_claims(
        "--- input\nabacaba\n--- answer\nFirst\n02\n--- input\nabacaba\n--- answer\nfirst\n2\n"
    )
    results = [check_claim(entry, c) for c in claims]
    assert [r.status for r in results] == ["false", "false"]
    assert "not a well-formed output" in results[0].detail and "leading zero" in results[0].detail
    assert "claimed answer is wrong" in results[1].detail and "case-sensitive" in results[1].detail


# ---- real candidate runs ---------------------------------------------------------------------------

WORD_GAME_SOLVER = """import sys
word = sys.stdin.readline().strip()
total = 0
for letter in set(word):
    c = word.count(letter)
    total ^= 3 if c % 3 == 0 else c % 3
sys.stdout.write(("Alice" if total else "Bob") + {end!r})
"""

DIGIT_GAME_SOLVER = """import sys
data = sys.stdin.read().split()
out = []
for k in range(int(data[0])):
    n, d = int(data[1 + 2 * k]), data[2 + 2 * k]
    if n % 2:
        out.append(1 if any(int(x) % 2 for x in d[0::2]) else 2)
    else:
        out.append(2 if any(int(x) % 2 == 0 for x in d[1::2]) else 1)
sys.stdout.write("".join({fmt!r}.format(w) for w in out))
"""


def _certify(
    game: str, program: Path, tmp_path: Path
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Samples, the exhaustive sweep and 3 random examples: every answer is read the same way
    in every phase, so the families (about 1,000 runs) are left out."""
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="40")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            game,
            str(program),
            "--profile",
            "quick",
            "--examples",
            "3",
            "--phases",
            "exhaustive,random",
            "--seed",
            "3",
            "--report-dir",
            str(tmp_path / "reports"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc, Path(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "end,certified", [("\r\n", True), ("\n", True), (NBSP, False), (NBSP + "\n", False)]
)
def test_certify_reads_whitespace_as_a_judge_does(tmp_path, end, certified):
    """A right word_game program ending its answer with CRLF is certified; the same program
    ending it with a no-break space is not (WA on the first input, with the reason named)."""
    program = tmp_path / "prog.py"
    program.write_text(WORD_GAME_SOLVER.format(end=end), encoding="utf-8")
    proc, path = _certify("word_game", program, tmp_path)
    if certified:
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert json.loads((path / "certificate.json").read_text())["verdict"] in (
            "CERTIFIED",
            "PASSED (incomplete)",
        )
        return
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((path / "report.json").read_text())
    assert report["verdict"] == "WA" and report["input"] == "A\n"
    assert "U+00A0 is not a separator" in report["reason"]


def test_certify_gives_pe_for_a_leading_zero(tmp_path):
    """A right digit_game program that writes its winners as 01 / 02 gets PE, not OK; written
    plainly, the same program is certified."""
    program = tmp_path / "prog.py"
    program.write_text(DIGIT_GAME_SOLVER.format(fmt="0{}\n"), encoding="utf-8")
    proc, path = _certify("digit_game", program, tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((path / "report.json").read_text())
    assert report["verdict"] == "PE" and "leading zero" in report["reason"]
    program.write_text(DIGIT_GAME_SOLVER.format(fmt="{}\r\n"), encoding="utf-8")
    proc, _ = _certify("digit_game", program, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
