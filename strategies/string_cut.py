"""Hypothesis strategies for string_cut: strings up to 5000 letters, corners first.

What matters to the game is the layout of cuttable positions (``s[i-1] == s[i+1]``): how many
maximal runs of them there are and how long each is. The strategies build strings with runs of
chosen lengths (every length, short and far past the run game's preperiod), one repeated
letter, long periodic and palindromic patterns, maximum lengths, and plain random text.
``python -m gamecert.strategies.string_cut`` prints what the examples cover.
"""

from __future__ import annotations

import random

from gamecert.fast.string_cut import RUN_GAME_CODE, cuttable_runs
from hypothesis import strategies as st

from gamecert.kit.coverage import bucket
from gamecert.kit.game import Family
from gamecert.kit.octal import OctalGame

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
    return [
        "a" * MAX,
        "ab" * (MAX // 2),
        ("abacaba" * MAX)[:MAX],
        ("abcabd" * MAX)[:MAX],
        "abc" * (MAX // 3) + "ab",
    ]


# ---- designed families (component coverage and worst cases) ---------------------------------

#: letter pairs for run blocks; x, y, z are kept for filler, so blocks and filler never make a cut
PAIRS = tuple(zip("acegikmoqsu", "bdfhjlnprtv", strict=True))
FILLER = "xyz"
LONGEST = MAX - 2  # the longest run a 5000-letter string holds


def _block(length: int, k: int) -> str:
    """A run of ``length`` cuttable positions in pair ``k``'s letters (one letter when 3 | k)."""
    a, b = PAIRS[k % len(PAIRS)]
    pair = a + (a if k % 3 == 0 else b)
    return (pair * (length // 2 + 2))[: length + 2]


def _filler(n: int) -> str:
    return (FILLER * (n // 3 + 1))[:n]


def _run_alone():
    return (_block(length, length) for length in range(1, LONGEST + 1))


def _run_ends():
    """Run L at the start and run 4996 - L at the end of 5000 letters (no filler between), then
    the three longest runs at the end after filler."""
    for length in range(1, LONGEST + 1):
        other = MAX - 4 - length
        tail = _block(other, length + 1) if other > 0 else _filler(MAX - length - 2)
        yield _block(length, length) + tail
    for length in range(MAX - 4, LONGEST):
        yield _filler(MAX - length - 2) + _block(length, length)


def _run_middle():
    """Runs L and 4990 - L (L = 1..2495) between 3 filler letters at each end, then the runs
    4990..4994 alone, centred in filler."""
    inner = MAX - 6
    for length in range(1, MIDDLE_PAIRS + 1):
        yield (
            _filler(3)
            + _block(length, length)
            + _block(inner - 4 - length, length + 1)
            + _filler(3)
        )
    for length in range(inner - 4, MAX - 5):
        left = (MAX - length - 2) // 2
        yield _filler(left) + _block(length, length) + _filler(MAX - length - 2 - left)


MIDDLE_PAIRS = (MAX - 10) // 2


LAYOUT_RUNS = (1, 2, 3, 4, 5, 8, 13, 34, 51, 52)
LAYOUT_GAPS = (1, 2, 3, 5)
LETTERS_FOR_RUNS = "abcdefghijklmnopqrstuvw"


def layout(length: int, gap: int, size: int = MAX) -> str:
    """Runs of ``length`` separated by ``gap`` non-cuttable positions, cut to ``size`` letters.

    Gap 1: each block starts on the previous block's last letter (that letter's position has
    two different neighbours); gap g >= 2: g - 2 filler letters between blocks of new letters.

    >>> layout(1, 1, 9), layout(2, 3, 12)
    ('abacadaea', 'ababxcdcdxef')
    """
    out = ""
    k = 0
    while len(out) < size:
        if gap == 1 and out:
            first = out[-1]
            other = next(
                ch
                for ch in LETTERS_FOR_RUNS[k % 23 :] + LETTERS_FOR_RUNS
                if ch not in (first, out[-2])
            )
            out += ((first + other) * (length // 2 + 2))[1 : length + 2]
        else:
            a, b = LETTERS_FOR_RUNS[(2 * k) % 22], LETTERS_FOR_RUNS[(2 * k + 1) % 22]
            out += _filler(gap - 2) * bool(out) + ((a + b) * (length // 2 + 2))[: length + 2]
        k += 1
    return out[:size]


def _structures():
    """Runs of each length in LAYOUT_RUNS at each gap in LAYOUT_GAPS through 5000 letters, and
    random text."""
    for length in LAYOUT_RUNS:
        for gap in LAYOUT_GAPS:
            yield layout(length, gap)
    rng = random.Random(8_4)
    for alphabet in ("ab", "ab", "ab", "abc", "abc", LOWER):
        yield "".join(rng.choice(alphabet) for _ in range(MAX))


def coverage() -> list[Family]:
    """Every run length 1..4998 alone, at the start, at the end and inside 5000 letters; varied
    layouts of runs and gaps."""
    return [
        Family(
            "run-length-alone",
            f"every run length 1..{LONGEST} of cuttable positions as the whole string "
            "(two alternating letters, or one letter for every third length)",
            _run_alone,
            LONGEST,
        ),
        Family(
            "run-length-ends",
            f"every run length 1..{LONGEST} at the start and at the end of a 5000-letter "
            "string (run L first and run 4996 - L, or filler, last; then 4996 and 4997 last)",
            _run_ends,
            LONGEST + 2,
        ),
        Family(
            "run-length-middle",
            f"every run length 1..{MAX - 6} inside a 5000-letter string, away from both ends "
            "(runs L and 4990 - L between filler, then 4990..4994 alone in filler)",
            _run_middle,
            MIDDLE_PAIRS + 5,
        ),
        Family(
            "piece-structures",
            f"5000 letters of runs of each length in {LAYOUT_RUNS} separated by each gap in "
            f"{LAYOUT_GAPS} (non-cuttable positions); random 5000-letter text over ab, abc and a-z",
            _structures,
            len(LAYOUT_RUNS) * len(LAYOUT_GAPS) + 6,
        ),
    ]


def late_cut() -> list[str]:
    """5000 letters whose winning cuts all lie in the last 5 letters (checked cut by cut in the
    tests): 1664 to 2495 losing cuts first, so a solution that re-solves the whole string for
    each cut in turn is quadratic."""
    end = "ababa"  # a run of 3 (value 2): its cuts win, those before lose
    out = []
    for pattern in ("abac", "cdcx", "aab"):
        body = (pattern * (MAX // len(pattern) + 1))[: MAX - len(end) - 3]
        out.append(body + "xyz" + end)
    return out


def _max_random():
    rng = random.Random(8_5)
    for alphabet in ("ab", "ab", "abc", "abc", "abcd", LOWER):
        yield "".join(rng.choice(alphabet) for _ in range(MAX))


def _slow_shapes():
    """Shapes that cost a quadratic solution most: one run of 4998 (a mex over every cut of
    every length), two equal runs (Second: every cut is tried and loses), runs of 1 throughout."""
    half = MAX // 2 - 2
    return [
        "a" * MAX,
        _block(LONGEST, 1),
        _block(half, 1) + _block(half, 2),
        ("abac" * MAX)[:MAX],
        ("aab" * MAX)[:MAX],
    ]


def worst_cases() -> list[Family]:
    return [
        Family(
            "late-winning-cut",
            "5000 letters whose winning cuts all lie in the last 5 letters, after "
            "1664 to 2495 losing cuts (runs of 1)",
            late_cut,
            3,
            kind="worst",
            adversary="time: a solution that re-solves the string for every cut in turn (winning move as late as possible)",
        ),
        Family(
            "slow-shapes",
            "one run of 4998, two equal runs of 2498 (every cut loses), 2499 runs of 1 and no run",
            _slow_shapes,
            5,
            kind="worst",
            adversary="time: quadratic run DPs and exhaustive cut searches",
        ),
        Family(
            "max-random",
            "6 random 5000-letter strings over ab, abc, abcd and a-z",
            _max_random,
            6,
            kind="worst",
            adversary="input size: maximal strings with varied content",
        ),
    ]


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
    from gamecert.kit.coverage import print_coverage  # noqa: PLC0415

    print_coverage(instances, features)
