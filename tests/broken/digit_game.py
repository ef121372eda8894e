"""Broken digit_game solvers."""

from __future__ import annotations

from gamecert.fast.digit_game import _closed_one

from tests.broken import Broken


def odd_n_checks_even_positions(games):
    out = []
    for d in games:
        n = len(d)
        if n % 2:
            out.append(1 if any(int(ch) % 2 for ch in d[1::2]) else 2)  # 1-based thinking on 0-based slices
        else:
            out.append(_closed_one(d))
    return tuple(out)


def last_position_skipped(games):
    out = []
    for d in games:
        n = len(d)
        if n % 2:
            out.append(1 if any(int(d[i]) % 2 for i in range(0, n - 1, 2)) else 2)
        else:
            out.append(_closed_one(d))
    return tuple(out)


def first_game_only(games):
    return (_closed_one(games[0]),)


def truncated_digits(games):
    return tuple(_closed_one(d[:500]) for d in games)  # a 500-byte line buffer


def zero_counts_as_odd(games):
    def parity(ch):
        return 1 if ch == "0" else int(ch) % 2

    out = []
    for d in games:
        if len(d) % 2:
            out.append(1 if any(parity(ch) for ch in d[0::2]) else 2)
        else:
            out.append(2 if any(parity(ch) == 0 for ch in d[1::2]) else 1)
    return tuple(out)


def big_batches_reversed(games):
    answers = tuple(_closed_one(d) for d in games)
    return answers[::-1] if len(games) >= 64 else answers


BROKEN = {
    "odd_n_checks_even_positions": Broken(odd_n_checks_even_positions, "wrong index base", "odd n: looks at even positions"),
    "last_position_skipped": Broken(last_position_skipped, "off-by-one", "odd n: the last odd position is never looked at"),
    "first_game_only": Broken(first_game_only, "multi-game batch", "answers only the first game of a batch"),
    "truncated_digits": Broken(truncated_digits, "large sizes only", "reads only the first 500 digits", smallest_size=501),
    "zero_counts_as_odd": Broken(zero_counts_as_odd, "rare structure", "the digit 0 counted as odd"),
    "big_batches_reversed": Broken(big_batches_reversed, "large sizes only", "batches of 64+ games answered in reverse"),
}
