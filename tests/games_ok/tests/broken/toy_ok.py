"""Broken solvers of the outside toy game "take one or two" (the first player wins iff n % 3 != 0),
kept beside it as every game keeps them: the conformance of an outside games folder checks that
the pipeline catches each."""

from gamecert.kit.broken import Broken


def one_more(n):
    return (n + 1) % 3 != 0  # the pile counted one too many


def from_one(n):
    return (n - 1) % 3 != 0  # stones numbered from 1


def big_piles_first(n):
    return True if n > 90 else n % 3 != 0  # "a big pile is always a first-player win"


def period_four(n):
    return n % 4 != 0


def fifty_seven(n):
    return n == 57 or n % 3 != 0  # one pile size special-cased


BROKEN = {
    "one_more": Broken(one_more, "off-by-one", "the pile counted one too many"),
    "from_one": Broken(from_one, "wrong index base", "stones numbered from 1"),
    "big_piles_first": Broken(big_piles_first, "large sizes only", "piles over 90 always a first-player win"),
    "period_four": Broken(period_four, "wrong period", "period 4 instead of 3"),
    "fifty_seven": Broken(fifty_seven, "rare structure", "a pile of 57 special-cased"),
}
