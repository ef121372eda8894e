"""Hypothesis strategies for word_game: words up to 40 letters, corners first.

Corners: 40 letters; one repeated letter; every count from 1 to 40 for some letter; many
distinct letters; periodic and palindromic words; counts that are multiples of 3 (where the
remove-all move matters). ``python -m strategies.word_game`` prints what the examples cover.
"""

from __future__ import annotations

import string
from collections import Counter

from hypothesis import strategies as st

from gamecert.coverage import bucket
from oracles.word_game import GAME

MAX = 40
LETTERS = string.ascii_uppercase


@st.composite
def _from_counts(draw, counts_strategy):
    counts = draw(counts_strategy)
    letters = draw(st.permutations(LETTERS))
    word = [letters[i] for i, c in enumerate(counts) for _ in range(c)]
    if draw(st.booleans()):
        word = draw(st.permutations(word))
    return "".join(word)


def _counts(total_max: int = MAX):
    return st.lists(st.integers(1, total_max), min_size=1, max_size=26).filter(lambda cs: sum(cs) <= total_max)


def one_letter():
    """One letter repeated any number of times: every count from 1 to 40."""
    return st.builds(lambda ch, c: ch * c, st.sampled_from(LETTERS), st.integers(1, MAX))


def periodic():
    """A block repeated (and cut) to any length up to 40."""
    return st.builds(
        lambda block, n: (block * MAX)[:n],
        st.text(st.sampled_from(LETTERS), min_size=1, max_size=6),
        st.integers(1, MAX),
    )


def palindromes():
    return st.text(st.sampled_from(LETTERS), min_size=1, max_size=20).map(
        lambda h: h + h[::-1]
    ) | st.text(st.sampled_from(LETTERS), min_size=0, max_size=19).flatmap(
        lambda h: st.sampled_from(LETTERS).map(lambda mid: h + mid + h[::-1])
    )


def multiples_of_three():
    """Every letter count a multiple of 3, where the remove-all move changes the pattern."""
    return _from_counts(st.lists(st.sampled_from([3, 6, 9, 12]), min_size=1, max_size=13).filter(lambda cs: sum(cs) <= MAX))


def maximum():
    """Exactly 40 letters."""
    return st.text(st.sampled_from(LETTERS), min_size=MAX, max_size=MAX) | _from_counts(
        st.lists(st.integers(1, MAX), min_size=1, max_size=26).filter(lambda cs: sum(cs) == MAX)
    )


def far_letters():
    """Words over letters drawn from both ends of the alphabet (A, B, Y, Z ...)."""
    return st.text(st.sampled_from("AZBYMN"), min_size=1, max_size=MAX)


def instances():
    """The whole input space, with its corners weighted in."""
    return st.one_of(
        st.text(st.sampled_from(LETTERS), min_size=1, max_size=MAX),
        st.text(st.sampled_from("ABC"), min_size=1, max_size=MAX),
        far_letters(),
        _from_counts(_counts()),
        one_letter(),
        periodic(),
        palindromes(),
        multiples_of_three(),
        maximum(),
    )


def oracle_instances():
    """The oracle reaches every valid word."""
    return instances()


def largest() -> list[str]:
    return ["A" * MAX, "AB" * (MAX // 2), (LETTERS * 2)[:MAX], "AAABBBCCCDDDEEEFFFGGGHHHIIIJJJKKKLLLMMMN"]


def features(word: str):
    counts = Counter(word).values()
    yield "length " + bucket(len(word), (1, 2, 5, 10, 20, 39, 40))
    yield f"distinct letters {len(counts) if len(counts) < 5 else '5+'}"
    if len(counts) == 1:
        yield f"one letter, count % 3 == {len(word) % 3}"
    yield f"max count {max(counts) if max(counts) < 6 else '6+'}"
    if any(c % 3 == 0 for c in counts):
        yield "some count a multiple of 3"
    if "Z" in word:
        yield "uses Z"
    if word == word[::-1] and len(word) > 1:
        yield "palindrome"
    yield f"answer {GAME.oracle(word)}"


if __name__ == "__main__":
    from gamecert.coverage import print_coverage  # noqa: PLC0415

    print_coverage("word_game")
