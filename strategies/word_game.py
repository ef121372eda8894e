"""Hypothesis strategies for word_game: words up to 40 letters, corners first.

Corners: 40 letters; one repeated letter; every count from 1 to 40 for some letter; many
distinct letters; periodic and palindromic words; counts that are multiples of 3 (where the
remove-all move matters). ``python -m gamecert.strategies.word_game`` prints what the examples cover.
"""

from __future__ import annotations

import random
import string
from collections import Counter

from gamecert.oracles.word_game import GAME
from hypothesis import strategies as st

from gamecert.kit.coverage import bucket
from gamecert.kit.game import Family

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
    return st.lists(st.integers(1, total_max), min_size=1, max_size=26).filter(
        lambda cs: sum(cs) <= total_max
    )


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
    return _from_counts(
        st.lists(st.sampled_from([3, 6, 9, 12]), min_size=1, max_size=13).filter(
            lambda cs: sum(cs) <= MAX
        )
    )


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
    return [
        "A" * MAX,
        "AB" * (MAX // 2),
        (LETTERS * 2)[:MAX],
        "AAABBBCCCDDDEEEFFFGGGHHHIIIJJJKKKLLLMMMN",
    ]


# ---- designed families (component coverage and worst cases) ---------------------------------


def _others(role: str, total: int, rng: random.Random) -> list[str]:
    """``total`` letters other than ``role``, in 1 to 5 letters with random counts."""
    pool = [ch for ch in LETTERS if ch != role]
    kinds = rng.sample(pool, min(total, rng.randint(1, 5)))
    cut = sorted(rng.sample(range(1, total), len(kinds) - 1))
    sizes = [b - a for a, b in zip([0, *cut], [*cut, total], strict=True)]
    return [ch for ch, c in zip(kinds, sizes, strict=True) for _ in range(c)]


def _count_alone():
    return (LETTERS[(c - 1) % 26] * c for c in range(1, MAX + 1))


def _count_mixed():
    """For each count c of 1..39: the letter in that role (each of A..Z in turn) with other
    letters, twice: filled to 40 letters and with a few others, shuffled."""
    rng = random.Random(8_1)
    for c in range(1, MAX):
        role = LETTERS[(7 * c) % 26]
        for rest in (MAX - c, min(MAX - c, 1 + c % 4)):
            word = [role] * c + _others(role, rest, rng)
            rng.shuffle(word)
            yield "".join(word)


def _every_letter():
    return (ch * c for ch in LETTERS for c in (1, 2, 3))


def _distinct_letters():
    """k distinct letters for k = 1..26, counts cycling 1, 2, 3 (at most 40 letters)."""
    rng = random.Random(8_2)
    for k in range(1, 27):
        chosen = rng.sample(LETTERS, k)
        counts = [1 + (i % 3) for i in range(k)]
        while sum(counts) > MAX:
            counts[counts.index(max(counts))] -= 1
        word = [ch for ch, c in zip(chosen, counts, strict=True) for _ in range(c)]
        rng.shuffle(word)
        yield "".join(word)


def coverage() -> list[Family]:
    """Every letter count 1..40 alone and 1..39 mixed with other letters (each of A..Z in the
    role), every letter A..Z at counts 1-3, every number of distinct letters 1..26."""
    return [
        Family(
            "letter-count-alone",
            "every letter count 1..40 as the whole word (letters A..Z in turn)",
            _count_alone,
            MAX,
        ),
        Family(
            "letter-count-mixed",
            "every letter count 1..39 mixed with 1 to 5 other letters, filled to 40 and "
            "with a few others, shuffled (each of A..Z in the role)",
            _count_mixed,
            2 * (MAX - 1),
        ),
        Family("every-letter", "every letter A..Z alone at counts 1, 2 and 3", _every_letter, 78),
        Family(
            "distinct-letters",
            "every number of distinct letters 1..26, counts 1-3, shuffled",
            _distinct_letters,
            26,
        ),
    ]


def _max_varied():
    """40-letter words: holding all 26 letters, or over 2 to 13 letters."""
    rng = random.Random(8_3)
    for k in range(40):
        if k % 2 == 0:  # every letter once, 14 more anywhere
            word = list(LETTERS) + rng.choices(LETTERS, k=MAX - 26)
            rng.shuffle(word)
            yield "".join(word)
        else:
            yield "".join(rng.choices(rng.sample(LETTERS, 2 + k % 12), k=MAX))


def worst_cases() -> list[Family]:
    """The word_game input is tiny; the worst it can be is maximal and varied."""
    return [
        Family(
            "max-varied",
            "40 distinct 40-letter words, half holding all 26 letters, half over 2-13 letters",
            _max_varied,
            40,
            kind="worst",
            adversary="input size: maximal words with varied content (no uniform word hides a misread tail)",
        ),
    ]


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
    from gamecert.kit.coverage import print_coverage  # noqa: PLC0415

    print_coverage(instances, features)
