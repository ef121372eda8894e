"""Hypothesis strategies for string_cut: strings up to 5000 letters, corners first.

What matters to the game is the layout of cuttable positions (``s[i-1] == s[i+1]``): how many
maximal runs of them there are and how long each is. The strategies build strings with runs of
chosen lengths (every length, short and far past the run game's preperiod), one repeated
letter, long periodic and palindromic patterns, maximum lengths, and plain random text.
``python -m strategies.string_cut`` prints what the examples cover.
"""

from __future__ import annotations

from hypothesis import strategies as st

from fast.string_cut import RUN_GAME_CODE, cuttable_runs
from gamecert.coverage import bucket
from gamecert.octal import OctalGame

MAX = 5000
LOWER = "abcdefghijklmnopqrstuvwxyz"


def run_block(length: int, a: str, b: str) -> str:
    """A block with exactly one run of ``length`` cuttable positions (``abab...``, length + 2).

    >>> run_block(3, "a", "b")
    'ababa'
    """
    return "".join(a if i % 2 == 0 else b for i in range(length + 2))


@st.composite
def runs(draw, max_len: int = MAX, max_run: int = 200):
    """Runs of chosen lengths separated so that no cut spans two blocks."""
    out: list[str] = []
    total = 0
    pairs = [("a", "b"), ("c", "d"), ("e", "f")]
    k = 0
    while total < max_len:
        length = draw(st.integers(0, max_run))
        if total + length + 2 > max_len or (out and not draw(st.booleans())):
            break
        a, b = pairs[k % 3]
        out.append(run_block(length, a, b))
        total += length + 2
        k += 1
    if not out:
        return "a"
    return "".join(out)


def random_text(alphabet: str = "ab", max_len: int = MAX):
    return st.text(st.sampled_from(alphabet), min_size=1, max_size=max_len)


def periodic(max_len: int = MAX):
    return st.builds(
        lambda block, n: (block * (n // len(block) + 1))[:n],
        st.text(st.sampled_from("abc"), min_size=1, max_size=7),
        st.integers(1, max_len),
    )


def palindromes(max_len: int = MAX):
    half = max_len // 2
    return st.builds(
        lambda h, mid: h + mid + h[::-1],
        st.text(st.sampled_from("abc"), max_size=min(half, 400)) | periodic(half),
        st.sampled_from(["", "a", "b", "z"]),
    ).filter(lambda s: 1 <= len(s) <= max_len)


def one_letter(max_len: int = MAX):
    return st.builds(lambda ch, n: ch * n, st.sampled_from(LOWER), st.integers(1, max_len))


def maximum():
    """Exactly 5000 letters."""
    return st.one_of(
        periodic(MAX).map(lambda s: (s * (MAX // len(s) + 1))[:MAX]),
        runs(MAX, 2000).map(lambda s: (s + "xy" * MAX)[:MAX]),
        st.sampled_from(["a" * MAX, "ab" * (MAX // 2), "abc" * (MAX // 3) + "ab"]),
    )


def instances():
    """The whole input space, corners weighted in."""
    return st.one_of(
        random_text("ab"),
        random_text("abc", 300),
        random_text(LOWER, 300),
        runs(),
        runs(MAX, 60),
        periodic(),
        palindromes(),
        one_letter(),
        maximum(),
    )


def oracle_instances():
    """Within the rules-only oracle's reach (120 letters), same corners."""
    n = 120
    return st.one_of(
        random_text("ab", n),
        random_text("abc", n),
        runs(n, 60),
        periodic(n),
        palindromes(n),
        one_letter(n),
    )


def largest() -> list[str]:
    return ["a" * MAX, "ab" * (MAX // 2), ("abacaba" * MAX)[:MAX], ("abcabd" * MAX)[:MAX], "abc" * (MAX // 3) + "ab"]


def features(s: str):
    periodicity = OctalGame.parse(RUN_GAME_CODE).periodicity()
    e, p = periodicity.preperiod, periodicity.period
    lengths = [length for _, length in cuttable_runs(s)]
    yield "length " + bucket(len(s), (1, 2, 12, 120, 1000, 4999, 5000))
    yield "runs " + bucket(len(lengths), (0, 1, 2, 10, 100))
    if lengths:
        top = max(lengths)
        yield "longest run " + bucket(top, (1, 2, 3, 10, e - 1, e + p - 1, 500, 4998))
        if top >= e:
            yield f"some run in the periodic part (>= {e})"
    if len(set(s)) == 1:
        yield "one letter"
    if len(s) > 1 and s == s[::-1]:
        yield "palindrome"


if __name__ == "__main__":
    from gamecert.coverage import print_coverage  # noqa: PLC0415

    print_coverage("string_cut")
