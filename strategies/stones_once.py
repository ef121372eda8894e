"""Hypothesis strategies for stones_once: up to 10**6 piles of 1..60 stones, corners first.

What matters to the game is which pile sizes occur an odd number of times and their values
``k`` (the largest with ``k(k+1)/2 <= s``), which change exactly at the triangular numbers. The
strategies reach: one pile; few piles of any size; all piles equal; every size 1..60 at once;
piles at triangular numbers and just below; n = 10**6 (built by tiling a short drawn block, so
a maximum input costs one list repetition, not a million draws); and plain random piles.
``python -m gamecert.strategies.stones_once`` prints what the examples cover.
"""

from __future__ import annotations

import random
from collections import Counter

from gamecert.oracles.stones_once import GAME, pile_grundy
from hypothesis import strategies as st

from gamecert.kit.coverage import bucket
from gamecert.kit.game import Family

MAX_N = 10**6
MAX_S = 60
TRIANGULAR = tuple(k * (k + 1) // 2 for k in range(1, 11))  # 1, 3, 6, ..., 55
NEAR_TRIANGULAR = tuple(sorted({t for t in TRIANGULAR} | {t - 1 for t in TRIANGULAR if t > 1}))
ALL_SIZES = tuple(range(1, MAX_S + 1))


def _tile(block: tuple[int, ...], n: int) -> tuple[int, ...]:
    """``block`` repeated and cut to ``n`` piles.

    >>> _tile((1, 2), 5)
    (1, 2, 1, 2, 1)
    """
    return (block * (n // len(block) + 1))[:n]


def sizes(choices: tuple[int, ...] = ALL_SIZES):
    return st.sampled_from(choices)


def few_piles(max_n: int = 8):
    """A handful of piles of any size: where most distinct xor patterns live."""
    return st.lists(sizes(), min_size=1, max_size=max_n).map(tuple)


def random_piles(max_n: int = 2000):
    return st.lists(st.integers(1, MAX_S), min_size=1, max_size=max_n).map(tuple)


def all_equal(max_n: int = MAX_N):
    """n piles of one size (xor 0 for even n, the pile's value for odd n)."""
    return st.builds(
        lambda s, n: (s,) * n,
        sizes(),
        st.integers(1, max_n) | st.sampled_from([1, 2, 3, max_n - 1, max_n]),
    )


def every_size():
    """Every size 1..60 at least once, in some order, possibly with extra piles."""
    return st.builds(
        lambda order, extra: tuple(order) + tuple(extra),
        st.permutations(ALL_SIZES),
        st.lists(sizes(), max_size=60),
    )


def near_triangular(max_n: int = 12):
    """Piles at triangular numbers and one below, where a pile's value steps up."""
    return st.lists(sizes(NEAR_TRIANGULAR), min_size=1, max_size=max_n).map(tuple)


def tiled(max_n: int = MAX_N):
    """Many piles (up to 10**6) as a short drawn block repeated: cheap to build at any n."""
    return st.builds(
        _tile,
        st.lists(sizes(), min_size=1, max_size=30).map(tuple)
        | st.lists(sizes(NEAR_TRIANGULAR), min_size=1, max_size=30).map(tuple),
        st.integers(1, max_n) | st.sampled_from([max_n - 1, max_n]),
    )


def maximum():
    """Exactly 10**6 piles."""
    return st.one_of(
        tiled(MAX_N).map(lambda p: _tile(p, MAX_N)), all_equal(MAX_N).map(lambda p: (p[0],) * MAX_N)
    )


def _weighted(*pairs):
    """Pick a strategy with the given weights; shrinking moves towards the first one."""
    pool = [strategy for weight, strategy in pairs for _ in range(weight)]
    return st.sampled_from(pool).flatmap(lambda strategy: strategy)


def instances():
    """The whole input space, corners weighted in; one example in about twenty has 5001 to
    10**6 piles (each costs a fraction of a second to format and parse; largest() always has
    the maximum)."""
    small = st.one_of(
        few_piles(),
        random_piles(),
        all_equal(60),
        every_size(),
        near_triangular(),
        tiled(5000),
    )
    large = st.one_of(tiled(), all_equal(), maximum())
    return _weighted((19, small), (1, large))


def oracle_instances():
    """The oracle reaches every valid input (its per-pile values are cached); corners first."""
    return st.one_of(
        few_piles(), near_triangular(), every_size(), all_equal(60), random_piles(200), tiled(5000)
    )


def largest() -> list[tuple[int, ...]]:
    """Inputs at n = 10**6 (one with 6 * 10**7 stones, the largest size), both answers."""
    return [
        (MAX_S,) * MAX_N,  # even count of one size: YES
        _tile(ALL_SIZES, MAX_N),  # 16666 full rounds and 1..40: NO
        _tile(NEAR_TRIANGULAR, MAX_N),
        (1,) * (MAX_N - 1) + (2,),  # xor 1 ^ 1: YES
    ]


# ---- designed families (component coverage and worst cases) ---------------------------------


def _value(size: int) -> int:
    return pile_grundy(size)


def _fix(
    piles: list[int], rng: random.Random, sizes: range = range(1, MAX_S + 1)
) -> list[int] | None:
    """``piles`` and one more pile (from ``sizes``) making the xor 0, or None if none does."""
    total = 0
    for p in piles:
        total ^= _value(p)
    fits = [t for t in sizes if _value(t) == total]
    return piles + [rng.choice(fits)] if fits else None


def _size_alone():
    return ((s,) for s in ALL_SIZES)


def _size_mixed():
    """For each size s: s with one other pile of the same value (xor 0); s among 1 to 6 random
    piles and a last pile that makes the xor 0, shuffled; s among 1 to 6 random piles."""
    rng = random.Random(8_14)
    twins = [
        (s, next(t for t in ALL_SIZES if t != s and _value(t) == _value(s))) for s in ALL_SIZES
    ]
    seen: set[tuple[int, ...]] = set(twins)  # the random inputs below never repeat one
    for s, twin in zip(ALL_SIZES, twins, strict=True):
        yield twin
        while True:
            fixed = _fix([s] + rng.choices(ALL_SIZES, k=rng.randint(1, 6)), rng)
            if fixed is not None:
                rng.shuffle(fixed)
                if tuple(fixed) not in seen:
                    break
        seen.add(tuple(fixed))
        yield tuple(fixed)
        while True:  # a new input (a few random piles can repeat an earlier one)
            mixed = [s] + rng.choices(ALL_SIZES, k=rng.randint(1, 6))
            rng.shuffle(mixed)
            if tuple(mixed) not in seen:
                break
        seen.add(tuple(mixed))
        yield tuple(mixed)


def _pile_count():
    """n = 1..100 piles of random sizes."""
    rng = random.Random(8_15)
    return (tuple(rng.choices(ALL_SIZES, k=n)) for n in range(1, 101))


#: numbers of piles past the pile-count family's 1..100, up to the worst cases' 10**6: every power
#: of two, and 1, 2 and 5 times a power of ten up to 10**5 (the thresholds a program's branch for
#: large inputs starts at; the powers of two between stand for 2 and 5 times 10**5)
COUNT_LADDER = tuple(
    sorted(
        {2**k for k in range(7, 20)} | {a * 10**k for k in range(2, 5) for a in (1, 2, 5)} | {10**5}
    )
)[1:]


def _xor_of(piles: bytes) -> int:
    """The xor of the values of ``piles`` (one byte a pile): a value counts where its pile size
    occurs an odd number of times (``bytes.count`` is a C loop; a million piles in a few ms)."""
    total = 0
    for size in ALL_SIZES:
        if piles.count(size) % 2:
            total ^= _value(size)
    return total


def _pile_count_ladder():
    """For every n of :data:`COUNT_LADDER`: n random piles whose xor is 0 (YES; the last pile
    makes it so) and n random piles whose xor is not (NO). Both answers at every count: a
    program that answers a large input from its count, its parity or a sample of its piles is
    wrong on one of the two. (Random bytes taken mod 60: sizes 1..16 come a little more often.)"""
    rng = random.Random(8_18)
    to_size = bytes(b % MAX_S + 1 for b in range(256))
    by_value: dict[int, list[int]] = {}
    for size in ALL_SIZES:
        by_value.setdefault(_value(size), []).append(size)
    for n in COUNT_LADDER:
        while True:
            yes = rng.randbytes(n - 1).translate(to_size)
            total = _xor_of(yes)
            if total in by_value:  # a last pile of the xor's value makes it 0
                yield tuple(yes) + (rng.choice(by_value[total]),)
                break
        no = rng.randbytes(n).translate(to_size)
        if _xor_of(no) == 0:
            last = next(t for t in ALL_SIZES if _value(t) != _value(no[-1]))
            no = no[:-1] + bytes([last])
        yield tuple(no)


def _every_size():
    rng = random.Random(8_16)
    shuffled = list(ALL_SIZES)
    rng.shuffle(shuffled)
    return [ALL_SIZES, ALL_SIZES[::-1], tuple(shuffled)]


def coverage() -> list[Family]:
    """Every pile size 1..60 alone and mixed (with a pile of equal value, xor 0, and among
    random piles); every number of piles 1..100; every size at once."""
    return [
        Family("pile-size-alone", "every pile size 1..60 as the only pile", _size_alone, MAX_S),
        Family(
            "pile-size-mixed",
            "every pile size 1..60 with a pile of the same value (xor 0), among random piles "
            "with a last pile making the xor 0, and among random piles",
            _size_mixed,
            3 * MAX_S,
        ),
        Family("pile-count", "every number of piles 1..100, random sizes", _pile_count, 100),
        Family(
            "pile-count-ladder",
            "n = 128, 200, 256, 500, ... 524,288 piles (powers of two; 1, 2, 5 times powers "
            "of ten up to 10**5), random sizes, each n with either answer",
            _pile_count_ladder,
            2 * len(COUNT_LADDER),
        ),
        Family(
            "every-size",
            "all 60 sizes in one input: ascending, descending, shuffled",
            _every_size,
            3,
        ),
    ]


def _max_varied():
    """10**6 random piles of 10..60 stones (3,000,008 bytes, the largest input) whose last pile
    makes the xor 0 (YES): without it, or cut anywhere before it, the answer is NO."""
    rng = random.Random(8_17)
    two_digit = range(10, MAX_S + 1)
    while True:
        fixed = _fix(rng.choices(two_digit, k=MAX_N - 1), rng, two_digit)
        if fixed is not None:
            return [tuple(fixed)]


def _max_shapes():
    """The most piles with either answer at either parity of their count (a program that judges a
    large input by its number of piles, or by anything but every pile, is wrong on one of them)."""
    return [
        (MAX_S,) * MAX_N,
        (47,) * (MAX_N - 1) + (45,),  # 9 ^ 9 = 0 (YES): decided by the last pile
        (47,) * (MAX_N - 1) + (60,),  # 9 ^ 10 (NO), an even count
        (MAX_S,) * (MAX_N - 4) + (1, 3, 6),  # 1 ^ 2 ^ 3 = 0 (YES), an odd count
    ]


def worst_cases() -> list[Family]:
    return [
        Family(
            "max-varied",
            "10**6 random piles of 10..60 (3,000,008 bytes), the xor made 0 by the last pile",
            _max_varied,
            1,
            kind="worst",
            adversary="input size: the largest input, varied, where a truncated read changes the answer",
        ),
        Family(
            "max-shapes",
            "10**6 piles: all 60; 999,999 of 47 and a last 45 (YES only with it) or 60 (NO); "
            "999,999 piles: 999,996 of 60, then 1, 3, 6 (YES)",
            _max_shapes,
            4,
            kind="worst",
            adversary="time: the most piles; a per-pile cost shows",
        ),
    ]


def features(piles: tuple[int, ...]):
    n = len(piles)
    counts = Counter(piles)
    yield "n " + bucket(n, (1, 2, 8, 60, 5000, 999_999, MAX_N))
    yield "distinct sizes " + bucket(len(counts), (1, 2, 8, 59, 60))
    if len(counts) == 1:
        yield f"all piles equal, n {'odd' if n % 2 else 'even'}"
    if len(counts) == MAX_S:
        yield "every size 1..60 present"
    if any(s in TRIANGULAR for s in counts):
        yield "some pile at a triangular number"
    if any(s + 1 in TRIANGULAR for s in counts):
        yield "some pile just below a triangular number"
    if MAX_S in counts:
        yield "some pile of 60"
    yield f"answer {GAME.oracle(piles)}"
    odd_sizes = sum(1 for c in counts.values() if c % 2)
    yield "sizes with odd count " + bucket(odd_sizes, (0, 1, 2, 8, 60))


if __name__ == "__main__":
    from gamecert.kit.coverage import print_coverage  # noqa: PLC0415

    print_coverage(instances, features)
