"""Hypothesis strategies for digit_game: batches of up to 100 games of up to 1000 digits.

What matters is n's parity and the parities of the digits in odd and in even positions. The
strategies reach: single games and full batches; n = 1, 2 and 1000; every digit the same
parity; exactly one odd (or one even) digit anywhere; layouts where only one position class
has the digit that decides. ``python -m gamecert.strategies.digit_game`` prints what examples cover.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from gamecert.kit.coverage import bucket
from gamecert.kit.game import Family

MAX_N = 1000
MAX_T = 100
ODD, EVEN = "13579", "02468"


def _no_leading_zero(digits: str) -> str:
    return ("8" + digits[1:]) if digits[0] == "0" else digits


@st.composite
def one_different(draw, max_n: int = MAX_N):
    """All digits one parity except a single digit of the other, anywhere."""
    n = draw(st.integers(1, max_n) | st.sampled_from([max_n - 1, max_n]).filter(lambda m: m >= 1))
    base, odd_one = draw(st.sampled_from([(EVEN, ODD), (ODD, EVEN)]))
    digits = [draw(st.sampled_from(base)) for _ in range(min(n, 30))]
    digits = (digits * (n // len(digits) + 1))[:n]
    where = draw(st.integers(0, n - 1))
    digits[where] = draw(st.sampled_from(odd_one))
    return _no_leading_zero("".join(digits))


@st.composite
def parity_layout(draw, max_n: int = MAX_N):
    """A layout drawn position class by position class (each class all one parity or mixed)."""
    n = draw(st.integers(1, max_n) | st.sampled_from([max_n - 1, max_n]).filter(lambda m: m >= 1))
    kinds = {cls: draw(st.sampled_from(["odd", "even", "mixed"])) for cls in (0, 1)}
    pick = {
        "odd": st.sampled_from(ODD),
        "even": st.sampled_from(EVEN),
        "mixed": st.sampled_from(ODD + EVEN),
    }
    blocks = [
        [draw(pick[kinds[cls]]) for _ in range(min((n + 1) // 2, 20))] or ["1"] for cls in (0, 1)
    ]
    digits = "".join(blocks[i % 2][(i // 2) % len(blocks[i % 2])] for i in range(n))
    return _no_leading_zero(digits)


def random_number(max_n: int = MAX_N):
    return st.text(st.sampled_from("0123456789"), min_size=1, max_size=max_n).map(_no_leading_zero)


def game(max_n: int = MAX_N):
    return st.one_of(
        random_number(min(max_n, 30)),
        random_number(max_n),
        one_different(max_n),
        parity_layout(max_n),
        st.sampled_from(["1", "2", "9", "10", "11", "21", "22"]).filter(lambda d: len(d) <= max_n),
    )


def batch(max_n: int = MAX_N, max_t: int = MAX_T):
    return st.lists(game(max_n), min_size=1, max_size=max_t).map(tuple)


def big_batch(max_n: int = MAX_N):
    """Batches of any size up to t = 100 built from a few drawn games, cycled (large batches
    drawn game by game would exceed what Hypothesis generates in one example)."""
    return st.builds(
        lambda templates, t: tuple(templates[i % len(templates)] for i in range(t)),
        st.lists(
            st.one_of(one_different(max_n), parity_layout(max_n), random_number(12)),
            min_size=2,
            max_size=6,
        ),
        st.integers(1, MAX_T),
    )


def instances():
    """Single games and batches up to t = 100, digits up to 1000."""
    return st.one_of(
        game().map(lambda d: (d,)),
        batch(40, MAX_T),
        batch(MAX_N, 8),
        big_batch(),
        big_batch(40).map(lambda b: (b * MAX_T)[:MAX_T]),
        st.lists(
            st.sampled_from(["1" * MAX_N, "2" * MAX_N, "1" * (MAX_N - 1), "12" * (MAX_N // 2)]),
            min_size=1,
            max_size=MAX_T,
        ).map(tuple),
    )


def oracle_instances():
    """Within the oracle's reach (n <= 300)."""
    return st.one_of(game(60).map(lambda d: (d,)), batch(60, 20), batch(300, 3))


def largest() -> list[tuple[str, ...]]:
    odd_one_even = tuple(("2" * i + "1" + "2" * (MAX_N - 1 - i)) for i in range(MAX_T))
    # answers 1 and 2 in an order that no reversal, rotation or shift of the batch preserves
    mixed = tuple(("1" if bin(k).count("1") % 2 else "2") * MAX_N for k in range(MAX_T))
    return [
        mixed,
        ("1" * MAX_N,) * MAX_T,
        ("2" * MAX_N,) * MAX_T,
        odd_one_even,
        tuple(("9" * (MAX_N - 1 - k) + "0" * k)[: MAX_N - 1] for k in range(MAX_T)),
    ]


# ---- designed families (component coverage and worst cases) ---------------------------------


class _Pool:
    """Random digits of a fixed seed, sliced into games cheaply (no draw per digit)."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.rng = rng
        self.any = "".join(rng.choice("0123456789") for _ in range(4 * MAX_N))
        self.odd = "".join(rng.choice(ODD) for _ in range(2 * MAX_N))
        self.even = "".join(rng.choice(EVEN) for _ in range(2 * MAX_N))

    def digits(self, n: int) -> str:
        start = self.rng.randrange(len(self.any) - n)
        return _no_leading_zero(self.any[start : start + n])

    def of(self, kind: str, m: int) -> str:
        """``m`` digits all odd, all even, or mixed (both parities present when m >= 2)."""
        if kind == "mixed":
            start = self.rng.randrange(len(self.any) - m)
            part = list(self.any[start : start + m])
            i, j = self.rng.sample(range(m), 2)
            part[i], part[j] = self.rng.choice(ODD), self.rng.choice(EVEN)
            return "".join(part)
        pool = self.odd if kind == "odd" else self.even
        start = self.rng.randrange(len(pool) - m)
        return pool[start : start + m]


def _interleave(odd_positions: str, even_positions: str) -> str:
    """The number whose positions 1, 3, 5, ... hold ``odd_positions`` and 2, 4, ... the other."""
    out = [""] * (len(odd_positions) + len(even_positions))
    out[0::2], out[1::2] = odd_positions, even_positions
    return "".join(out)


def _kinds(m: int) -> tuple[str, ...]:
    return ("",) if m == 0 else ("even", "odd") if m == 1 else ("even", "odd", "mixed")


def parity_classes(n: int, pool: _Pool) -> list[str]:
    """One game per parity class of ``n``: the digits on odd positions all even, all odd or
    mixed, times the same for even positions (2, 4, 6 and 9 classes for n = 1, 2, 3 and >= 4).
    A leading zero is avoided by drawing the first digit from 2, 4, 6, 8 when it must be even."""
    out = []
    for first in _kinds((n + 1) // 2):
        for second in _kinds(n // 2):
            odd_part = pool.of(first, (n + 1) // 2)
            if odd_part[0] == "0":
                odd_part = pool.rng.choice("2468") + odd_part[1:]
            out.append(_interleave(odd_part, pool.of(second, n // 2) if second else ""))
    return out


def _n_single():
    pool = _Pool(8_6)
    return ((pool.digits(n),) for n in range(1, MAX_N + 1))


def _n_batch_position():
    """Batch j (0..999) holds n = (j + k) % 1000 + 1 at position k + 1: every (n, position)."""
    pool = _Pool(8_7)
    for j in range(MAX_N):
        yield tuple(pool.digits((j + k) % MAX_N + 1) for k in range(MAX_T))


def _t_values():
    pool = _Pool(8_8)
    for t in range(1, MAX_T + 1):
        yield tuple(pool.digits(1 + (7 * t + 3 * k) % 40) for k in range(t))


def _classes_single():
    pool = _Pool(8_9)
    for n in range(1, MAX_N + 1):
        for digits in parity_classes(n, pool):
            yield (digits,)


def _classes_batched():
    games = [g for (g,) in _classes_single()]
    return (tuple(games[i : i + MAX_T]) for i in range(0, len(games), MAX_T))


CLASS_COUNT = 2 + 4 + 6 + 9 * (MAX_N - 3)


def coverage() -> list[Family]:
    """Every n 1..1000 as a single game and at every position of a full batch; every t 1..100;
    every parity class of every n, singly and batched."""
    return [
        Family(
            "n-single", "every n 1..1000 as a single game (t = 1), random digits", _n_single, MAX_N
        ),
        Family(
            "n-batch-position",
            "every n 1..1000 at every position 1..100 of a full batch (t = 100): batch j holds "
            "n = (j + k) mod 1000 + 1 at position k + 1",
            _n_batch_position,
            MAX_N,
        ),
        Family("t-values", "every t 1..100, games of 1 to 40 digits", _t_values, MAX_T),
        Family(
            "parity-classes-single",
            f"every parity class of every n 1..1000 as a single game ({CLASS_COUNT:,} "
            "games): odd positions all even, all odd or mixed, times the same for even positions",
            _classes_single,
            CLASS_COUNT,
        ),
        Family(
            "parity-classes-batched",
            f"the {CLASS_COUNT:,} parity-class games packed 100 to a batch, in order",
            _classes_batched,
            -(-CLASS_COUNT // MAX_T),
        ),
    ]


def _late_decided(seed: int, n: int) -> tuple[str, ...]:
    """100 distinct n-digit games; in the last 50 the answer rests on the last digit alone: for
    even n every even position is odd but position n (even: Breach wins), for odd n every odd
    position is even but position n (odd: Raze wins)."""
    pool = _Pool(seed)
    games = []
    for k in range(MAX_T):
        if k < MAX_T // 2:
            games.append(pool.digits(n))
            continue
        odd_part, even_part = pool.of("mixed", (n + 1) // 2), pool.of("odd", n // 2)
        if n % 2:
            odd_part = pool.of("even", (n + 1) // 2 - 1) + pool.rng.choice(ODD)
            even_part = pool.of("mixed", n // 2)
            if odd_part[0] == "0":
                odd_part = pool.rng.choice("2468") + odd_part[1:]
        else:
            even_part = even_part[:-1] + pool.rng.choice(EVEN)
        games.append(_no_leading_zero(_interleave(odd_part, even_part)))
    return tuple(games)


def _max_bytes():
    return [_late_decided(8_10, MAX_N), _late_decided(8_11, MAX_N - 1)]


def _distinct_max():
    rng = random.Random(8_12)
    return [
        tuple(_no_leading_zero("".join(rng.choices("0123456789", k=MAX_N))) for _ in range(MAX_T))
        for _ in range(3)
    ]


def _extremes():
    return [
        tuple("123456789"[k % 9] for k in range(MAX_T)),
        tuple(("21", "12", "22", "11")[k % 4] for k in range(MAX_T)),
        _late_decided(8_13, MAX_N)[-1:],
        ("1" * (MAX_N - 1) + "2",),
    ]


def worst_cases() -> list[Family]:
    return [
        Family(
            "max-bytes-late-digit",
            "100 distinct games of n = 1000 (100,604 bytes, the largest input) and of "
            "n = 999, the last 50 decided by their last digit alone",
            _max_bytes,
            2,
            kind="worst",
            adversary="input size: a program that reads only the first 100,000 bytes or the first 500 digits of a game",
        ),
        Family(
            "distinct-max",
            "100 distinct random 1000-digit games, three times",
            _distinct_max,
            3,
            kind="worst",
            adversary="time: a solution slow per distinct number (large batches elsewhere repeat a few numbers)",
        ),
        Family(
            "extremes",
            "t = 100 one-digit games; t = 100 two-digit games; t = 1 with n = 1000 decided by the last "
            "digit (twice)",
            _extremes,
            4,
            kind="worst",
            adversary="the smallest games at t = max, the largest at t = 1",
        ),
    ]


def features(instance: tuple[str, ...]):
    yield "t " + bucket(len(instance), (1, 2, 10, 99, 100))
    for digits in set(instance):
        n = len(digits)
        yield "n " + bucket(n, (1, 2, 16, 300, 999, 1000))
        yield f"n {'odd' if n % 2 else 'even'}"
        odd_pos = sum(int(ch) % 2 for ch in digits[0::2])
        even_pos = sum(1 - int(ch) % 2 for ch in digits[1::2])
        yield "odd digits in odd positions " + bucket(odd_pos, (0, 1, 2))
        yield "even digits in even positions " + bucket(even_pos, (0, 1, 2))
        parities = {int(ch) % 2 for ch in digits}
        if len(parities) == 1:
            yield "all digits one parity"
        elif min(sum(int(ch) % 2 for ch in digits), sum(1 - int(ch) % 2 for ch in digits)) == 1:
            yield "exactly one digit of the other parity"


if __name__ == "__main__":
    from gamecert.kit.coverage import print_coverage  # noqa: PLC0415

    print_coverage(instances, features)
