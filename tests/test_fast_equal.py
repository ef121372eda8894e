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


@pytest.mark.parametrize("new, old", [(digit_game._closed_one, _closed_one_before),
                                      (digit_game._play_out, _play_out_before)], ids=["closed_form", "play_out"])
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
        for mine, marks, unwanted in ((digits[0::2], n // 2, 0), (digits[1::2], max(0, (n - 1) // 2 - 1), 1)):
            odd = sum(mine.count(d) for d in "13579")
            pool = [len(mine) - odd, odd]
            taken = min(marks, pool[unwanted])
            pool[unwanted] -= taken
            pool[1 - unwanted] -= marks - taken
            last_odd += pool[1]
        return 1 if last_odd else 2

    assert any(wrong(d) != _play_out_before(d) for d in DIGITS)
