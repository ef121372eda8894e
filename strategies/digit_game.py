"""Hypothesis strategies for digit_game: batches of up to 100 games of up to 1000 digits.

What matters is n's parity and the parities of the digits in odd and in even positions. The
strategies reach: single games and full batches; n = 1, 2 and 1000; every digit the same
parity; exactly one odd (or one even) digit anywhere; layouts where only one position class
has the digit that decides. ``python -m strategies.digit_game`` prints what examples cover.
"""

from __future__ import annotations

from hypothesis import strategies as st

from gamecert.coverage import bucket

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
    pick = {"odd": st.sampled_from(ODD), "even": st.sampled_from(EVEN), "mixed": st.sampled_from(ODD + EVEN)}
    blocks = [[draw(pick[kinds[cls]]) for _ in range(min((n + 1) // 2, 20))] or ["1"] for cls in (0, 1)]
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
        st.lists(st.one_of(one_different(max_n), parity_layout(max_n), random_number(12)), min_size=2, max_size=6),
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
        st.lists(st.sampled_from(["1" * MAX_N, "2" * MAX_N, "1" * (MAX_N - 1), "12" * (MAX_N // 2)]), min_size=1, max_size=MAX_T).map(tuple),
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
    from gamecert.coverage import print_coverage  # noqa: PLC0415

    print_coverage("digit_game")
