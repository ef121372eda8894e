"""digit_game's fast solvers: the closed form, and an independent play-out of a strategy pair."""

from __future__ import annotations


def _closed_one(digits: str) -> int:
    # the digits are 0-9 (parse_input says so): what is left once the even (odd) digits are
    # stripped from both ends is empty exactly when every digit there is even (odd)
    if (
        len(digits) % 2
    ):  # the last digit left stands in an odd position: Raze keeps an odd one if any
        return 1 if digits[0::2].strip("02468") else 2
    return 2 if digits[1::2].strip("13579") else 1


def closed_form(games: tuple[str, ...]) -> tuple[int, ...]:
    """Odd n: Raze wins iff an odd position holds an odd digit. Even n: Breach wins iff an even
    position holds an even digit.

    >>> closed_form(("2", "3", "102", "2069"))
    (2, 1, 1, 2)
    """
    return tuple(_closed_one(d) for d in games)


def _play_out(digits: str) -> int:
    # Each player marks, while they can, a digit of the parity they do not want left: Raze
    # marks even digits first, Breach odd ones. The n - 1 marks alternate, Raze first, so Raze
    # makes n // 2 of them and Breach (n - 1) // 2, each in their own positions (which always
    # hold that many). A mark touches no other player's digits, so each player's marks are made
    # at once rather than move by move: the unwanted parity as far as it goes, then the other.
    n = len(digits)
    last_odd = 0
    for mine, marks, unwanted in ((digits[0::2], n // 2, 0), (digits[1::2], (n - 1) // 2, 1)):
        odd = sum(mine.count(d) for d in "13579")
        pool = [len(mine) - odd, odd]  # unmarked [even, odd]
        taken = min(marks, pool[unwanted])
        pool[unwanted] -= taken
        pool[1 - unwanted] -= marks - taken
        last_odd += pool[1]
    return 1 if last_odd else 2


def play_out(games: tuple[str, ...]) -> tuple[int, ...]:
    """Plays the greedy strategy pair to the end, each player's marks at once; O(n) per game (counting digits).

    >>> play_out(("2", "3", "102", "2069"))
    (2, 1, 1, 2)
    """
    return tuple(_play_out(d) for d in games)


SOLVERS = {"closed_form": closed_form, "play_out": play_out}
