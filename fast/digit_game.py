"""digit_game's fast solvers: the closed form, and an independent play-out of a strategy pair."""

from __future__ import annotations


def _closed_one(digits: str) -> int:
    n = len(digits)
    if n % 2:  # the last digit left stands in an odd position: Raze keeps an odd one if any
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


def closed_form(games: tuple[str, ...]) -> tuple[int, ...]:
    """Odd n: Raze wins iff an odd position holds an odd digit. Even n: Breach wins iff an even
    position holds an even digit.

    >>> closed_form(("2", "3", "102", "2069"))
    (2, 1, 1, 2)
    """
    return tuple(_closed_one(d) for d in games)


def _play_out(digits: str) -> int:
    # Each player marks, while they can, a digit of the parity they do not want left: Raze
    # marks even digits first, Breach odd ones. Marking is simulated move by move, each player's
    # unmarked digits kept as counts by parity ([even, odd]).
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


def play_out(games: tuple[str, ...]) -> tuple[int, ...]:
    """Plays the greedy strategy pair to the end, move by move; O(n) per game.

    >>> play_out(("2", "3", "102", "2069"))
    (2, 1, 1, 2)
    """
    return tuple(_play_out(d) for d in games)


SOLVERS = {"closed_form": closed_form, "play_out": play_out}
