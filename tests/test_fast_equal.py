"""Quicker code checked equal to the code it replaced, on every input of a bound and on random
inputs at full size.

The fast solvers and the input parsers run on every input of a certification (a million and more
for `gamecert certify all`), so they were made quicker; each previous version is kept here,
word for word, as the reference the new one must agree with. Each check is also shown to fail
on a deliberately broken variant (the reference disagreeing with a wrong version).
"""

from __future__ import annotations

import itertools
import random

import pytest
from gamecert.fast import digit_game

# ---- digit_game: the previous code ---------------------------------------------------------------


def _closed_one_before(digits: str) -> int:
    n = len(digits)
    if n % 2:
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


def _play_out_before(digits: str) -> int:
    pools = {}
    for player, mine in ((1, digits[0::2]), (2, digits[1::2])):
        odd = sum(mine.count(d) for d in "13579")
        pools[player] = [len(mine) - odd, odd]
    left = len(digits)
    player = 1
    while left > 1:
        pool = pools[player]
        unwanted = 0 if player == 1 else 1
        pool[unwanted if pool[unwanted] else 1 - unwanted] -= 1
        left -= 1
        player = 3 - player
    last_odd = pools[1][1] + pools[2][1]
    return 1 if last_odd else 2


def _digit_strings() -> list[str]:
    """Every parity pattern up to 16 digits (each written with a random digit of its parity),
    every digit string up to 4 digits, and 2,000 random ones of up to 1,000 digits."""
    rng = random.Random(27)
    out = ["".join(p) for n in range(1, 5) for p in itertools.product("0123456789", repeat=n)]
    for n in range(1, 17):
        for pattern in itertools.product((0, 1), repeat=n):
            out.append("".join(rng.choice("13579" if odd else "02468") for odd in pattern))
    for _ in range(2000):
        n = rng.choice([rng.randint(1, 40), rng.randint(1, 1000), 999, 1000])
        pool = rng.choice(["0123456789", "13579", "02468", "1111112", "2222221"])
        out.append("".join(rng.choice(pool) for _ in range(n)))
    return out


DIGITS = _digit_strings()


@pytest.mark.parametrize(
    "new, old",
    [(digit_game._closed_one, _closed_one_before), (digit_game._play_out, _play_out_before)],
    ids=["closed_form", "play_out"],
)
def test_digit_game_solvers_equal_the_previous_code(new, old):
    """Every parity pattern up to 16 digits, every string up to 4 digits and 2,000 random ones
    up to 1,000 digits: the same winner as before."""
    bad = [d for d in DIGITS if new(d) != old(d)]
    assert not bad, f"{len(bad)} inputs differ, first {bad[0][:40]!r}"


def test_digit_game_check_catches_a_wrong_play_out():
    """The comparison fails on a play-out that gives Breach one mark too few."""

    def wrong(digits: str) -> int:
        n = len(digits)
        last_odd = 0
        for mine, marks, unwanted in (
            (digits[0::2], n // 2, 0),
            (digits[1::2], max(0, (n - 1) // 2 - 1), 1),
        ):
            odd = sum(mine.count(d) for d in "13579")
            pool = [len(mine) - odd, odd]
            taken = min(marks, pool[unwanted])
            pool[unwanted] -= taken
            pool[1 - unwanted] -= marks - taken
            last_odd += pool[1]
        return 1 if last_odd else 2

    assert any(wrong(d) != _play_out_before(d) for d in DIGITS)


# ---- parse_word: the previous code ---------------------------------------------------------------


def _parse_word_before(
    text: str, alphabet: str, alphabet_name: str, max_len: int, noun: str
) -> str:
    from gamecert.errors import InputError
    from gamecert.kit.game import input_lines, reject_spaces, reject_trailing, require_line

    lines = input_lines(text)
    word = require_line(lines, 0, f"a {noun} of 1 to {max_len} {alphabet_name}")
    reject_spaces(word, 1)
    if not word:
        raise InputError(1, f"the {noun} must have 1 to {max_len} letters, got an empty line")
    if word.strip(alphabet):
        for column, ch in enumerate(word, 1):
            if ch not in alphabet:
                raise InputError(1, f"only {alphabet_name} are allowed, got {ch!r}", column=column)
    if len(word) > max_len:
        raise InputError(
            1, f"the {noun} must have 1 to {max_len} letters, got {len(word)}", column=max_len + 1
        )
    reject_trailing(lines, 1)
    return word


def _outcome(parse, text: str, *args) -> str:
    from gamecert.errors import InputError

    try:
        return "ok " + parse(text, *args)
    except InputError as exc:
        return f"error {exc}"


def _word_texts() -> list[str]:
    """Every text up to 4 characters over letters, blanks, line breaks and a letter outside the
    alphabet, and 3,000 random texts of up to 7 characters over the same, around a maximum of 5."""
    pieces = ["a", "b", "z", "\n", "\r", " ", "\t", "\x0c", "\u2028", "é", ""]
    out = ["".join(t) for n in range(5) for t in itertools.product(pieces[:-1], repeat=n)]
    rng = random.Random(27)
    out += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 7))) for _ in range(3000)]
    return out


@pytest.mark.parametrize("alphabet", ["ab", "abz", "ab ", "a\nb", "ab\r"])
def test_parse_word_equals_the_previous_code(alphabet):
    """The same word or the same error, word for word, on every short text (alphabets with a blank
    or a line break take the full path)."""
    from gamecert.kit.game import parse_word

    args = (alphabet, "the letters", 5, "string")
    bad = [
        t
        for t in _word_texts()
        if _outcome(parse_word, t, *args) != _outcome(_parse_word_before, t, *args)
    ]
    assert not bad, f"{len(bad)} texts differ, first {bad[0]!r}"


def test_parse_word_check_catches_a_lax_quick_path():
    """The comparison fails on a quick path that forgets the length bound."""

    def lax(text, alphabet, alphabet_name, max_len, noun):
        word = text[:-1] if text.endswith("\n") else text
        if word and not word.strip(alphabet):
            return word
        return _parse_word_before(text, alphabet, alphabet_name, max_len, noun)

    args = ("ab", "the letters", 3, "string")
    assert any(
        _outcome(lax, t, *args) != _outcome(_parse_word_before, t, *args) for t in _word_texts()
    )


# ---- string_cut: the previous search for the winning cut ---------------------------------------


def _solve_before(s: str, g) -> int | None:
    from collections import Counter

    from gamecert.fast.string_cut import _SHORT, _cuttable_runs_by_letters, _gaps, _starts

    gaps = _gaps(s) if len(s) > _SHORT else None
    if gaps is None:
        starts = _cuttable_runs_by_letters(s)
        lengths = [length for _, length in starts]
    else:
        starts = None
        lengths = [len(p) for p in gaps if p]
    counts = Counter(lengths)
    total = 0
    for length, count in counts.items():
        if count & 1:
            total ^= g(length)
    if total == 0:
        return None
    winning: dict[int, int] = {}
    for length in counts:
        rest = total ^ g(length)
        for k in range(1, (length + 1) // 2 + 1):
            if rest ^ g(k - 2 if k > 2 else 0) ^ g(length - k - 1 if length > k + 1 else 0) == 0:
                winning[length] = k
                break
    for start, length in _starts(gaps) if starts is None else starts:
        if length in winning:
            return start + winning[length] - 1
    raise AssertionError("a non-zero Grundy value always has a move to zero")


def _cut_strings() -> list[str]:
    """Every string over {a,b,c} up to 9 letters and over {a,b} up to 14, and 1,500 random ones of
    up to 5,000 letters (runs of every kind: two letters alternating, repeated blocks)."""
    rng = random.Random(27)
    out = ["".join(t) for n in range(1, 10) for t in itertools.product("abc", repeat=n)]
    out += ["".join(t) for n in range(1, 15) for t in itertools.product("ab", repeat=n)]
    for _ in range(1500):
        n = rng.choice([rng.randint(1, 60), rng.randint(1, 5000), 5000])
        kind = rng.random()
        if kind < 0.3:
            out.append("".join(rng.choice("abc") for _ in range(n)))
        elif kind < 0.6:
            out.append(
                "".join(
                    rng.choice(["ab" * rng.randint(1, 40), "c", "aa", "abc"]) for _ in range(n)
                )[:n]
            )
        else:
            out.append("".join(rng.choice("ab") for _ in range(n)))
    return out


STRINGS = _cut_strings()


@pytest.mark.parametrize("g", ["run_grundy_periodic", "run_grundy_dp"])
def test_string_cut_solve_equals_the_previous_code(g):
    """The smallest winning cut (the winning cut of each run length remembered) as before."""
    from gamecert.fast import string_cut

    fn = getattr(string_cut, g)
    bad = [s for s in STRINGS if string_cut._solve(s, fn) != _solve_before(s, fn)]
    assert not bad, f"{len(bad)} strings differ, first {bad[0][:40]!r}"


def test_string_cut_check_catches_a_wrong_memo():
    """The comparison fails on a memo keyed by the run length alone (the rest's value left out)."""
    from gamecert.fast import string_cut

    memo: dict[int, int | None] = {}

    def wrong(s: str) -> int | None:
        saved = string_cut._winning_cut

        def by_length(length, rest, g):
            if length not in memo:
                memo[length] = saved(length, rest, g)
            return memo[length]

        string_cut._winning_cut = by_length
        string_cut._WINNING.clear()
        try:
            return string_cut._solve(s, string_cut.run_grundy_dp)
        finally:
            string_cut._winning_cut = saved
            string_cut._WINNING.clear()

    assert any(wrong(s) != _solve_before(s, string_cut.run_grundy_dp) for s in STRINGS[:20000])


def test_string_cut_periodic_values_equal_the_periodic_table():
    """The values listed once are the periodic table's, at every length up to 5,000 and beyond."""
    from gamecert.fast import string_cut

    table = string_cut._period_table()
    assert [string_cut.run_grundy_periodic(n) for n in range(6000)] == [
        table.grundy(n) for n in range(6000)
    ]


def test_string_cut_oracle_cuts_equal_the_previous_generator():
    """The oracle's legal cuts, now a list, are the positions the previous generator yielded, on
    every string over {a,b,c} up to 8 letters and the random long ones."""
    from gamecert.oracles.string_cut import cuts

    def before(piece):
        for i in range(2, len(piece)):
            if piece[i - 2] == piece[i]:
                yield i

    strings = [
        "".join(t) for n in range(0, 9) for t in itertools.product("abc", repeat=n)
    ] + STRINGS[-1500:]
    assert all(cuts(s) == list(before(s)) for s in strings)
