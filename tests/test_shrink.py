"""Structural shrinking (gamecert/kit/shrink.py): unit tests against in-process predicates, and
wrong programs (tests/shrink_wrong/) that a default certification must report at their exact
smallest size whatever the seed.

The unit tests run no sandbox: ``fails`` is a plain function, so each step's effect and the
count of runs it takes can be seen directly. Every predicate here is a fault of one kind the
issue names (a count threshold, a byte length, a pattern, a late batch position); each test
checks the exact smallest size, which the test's own argument gives.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from gamecert.kit.shrink import Shrinker, Structure, default_structure, structure_of
from oracles.dawson_kayles import GAME as DAWSON
from oracles.digit_game import GAME as DIGITS
from oracles.stones_once import GAME as STONES
from oracles.stones_once import pile_grundy
from oracles.string_cut import GAME as CUT
from oracles.word_game import GAME as WORDS
from tests.variance_float import variance_float_fails

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "tests" / "shrink_wrong"


def shrink(game, fails, instance, **kw):
    calls = []

    def counted(inst, text):
        calls.append(text)
        assert game.parse_input(text) == inst  # only valid inputs are ever run
        return fails(inst, text)

    result = Shrinker(game, game.structure(), counted, **kw).shrink(instance)
    assert result.runs == len(calls) == len(set(calls))  # each candidate runs once
    assert fails(result.instance, result.text)  # what it reports fails
    return result


def _digit_batch(rng, games=100, n=1000):
    return tuple(
        str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))
        for _ in range(games)
    )


# ---- each step ---------------------------------------------------------------------------------


def test_binary_search_on_the_count_takes_logarithmic_runs():
    """A count threshold past 30,000 piles: 40,000 piles of assorted sizes down to exactly 32,769
    piles of one stone (every value lowered at once, then a binary search on the count)."""
    rng = random.Random(3)
    piles = tuple(rng.randint(1, 60) for _ in range(33_000))
    result = shrink(STONES, lambda inst, text: len(inst) >= 32_769, piles, max_runs=60)
    assert result.instance == (1,) * 32_769
    assert STONES.size(result.instance) == 32_769
    assert result.runs <= 60
    assert result.steps["values: every one the smallest"] == 1
    assert not result.finished and "their time" not in result.cut  # ended by max_runs, said so


def test_halving_brings_a_long_input_down_in_few_parts_run():
    """Past 5,000 piles the answer is read from the parity of the count: the worst case's shape,
    99,999 piles of 47 and a pile of 60, fails, and no prefix of it does (all piles of one size).
    A binary search keeping the start climbs back near the full count at every step; halving
    (the first half or the last) follows the last half down, so the candidates above 10,000 piles
    hold at most four inputs' worth of piles (two for lowering every value at once). Without
    halving they hold 17.9 inputs' worth. Where it ends: 5,002 piles (an even count, xor not 0),
    in 90 runs (80 before the lone pile not at its lowest was searched down on 5,004 piles)."""
    piles = (47,) * 99_999 + (60,)
    run = []

    def fails(inst, text):
        run.append(len(inst))
        return len(inst) > 5_000 and (STONES.grundy(inst) == 0) != (len(inst) % 2 == 0)

    result = shrink(STONES, fails, piles, max_runs=100)
    assert sum(n for n in run if n > 10_000) <= 4 * len(piles), run
    assert len(result.instance) == 5_002


def test_a_byte_length_threshold_lowers_values_before_cutting_the_count():
    """Input bytes >= B: the smallest is n piles of one (2 bytes, 1 stone each) with the fewest n
    reaching B; lowering the values first, then the count, finds it."""
    rng = random.Random(4)
    piles = tuple(rng.randint(1, 60) for _ in range(30_000))
    limit = 50_000
    smallest = next(n for n in range(1, 30_001) if len(f"{n}\n") + 2 * n >= limit)
    result = shrink(STONES, lambda inst, text: len(text) >= limit, piles, max_runs=60)
    assert result.instance == (1,) * smallest


def test_values_go_to_the_smallest_of_their_class():
    """A pile keeps its Grundy value (the class) where the fault needs the xor: every pile becomes
    the smallest pile of its value, which is what a class is for."""
    piles = (60, 59, 58, 45, 44)
    values = tuple(map(pile_grundy, piles))

    def fails(inst, text):  # a fault that needs these piles' values, in this order
        return tuple(map(pile_grundy, inst)) == values

    result = shrink(STONES, fails, piles)
    assert result.finished
    for before, after in zip(piles, result.instance):
        assert pile_grundy(after) == pile_grundy(before)
        assert after == min(v for v in range(1, 61) if pile_grundy(v) == pile_grundy(before))


def test_ddmin_finds_a_pattern_outside_every_family():
    """A pattern in 5,000 letters: ddmin over the letters by halves, then single removals, leaves
    exactly the pattern; the shrink ends by itself (finished) and says so."""
    rng = random.Random(5)
    text = "".join(rng.choice("abc") for _ in range(5000))
    text = text[:1200] + "xx" + text[1200:3900] + "zz" + text[3900:]
    result = shrink(CUT, lambda inst, t: "xx" in inst and "zz" in inst, text)
    assert result.instance == "xxzz"
    assert result.finished and not result.cut
    assert result.runs < 600


def test_a_pattern_of_letter_names_in_word_game():
    rng = random.Random(6)
    word = "".join(rng.choice("ABCDEFGH") for _ in range(30)) + "JKQXZ"
    word = "".join(rng.sample(word, len(word)))
    result = shrink(WORDS, lambda inst, t: set("JKQXZ") <= set(inst), word)
    assert sorted(result.instance) == list("JKQXZ")
    assert result.finished


def test_a_late_batch_position_keeps_the_position_and_cuts_every_game():
    """Games from the 64th on fail: the batch is cut to 64 games of one digit (size 1); the failing
    game alone at position 1 is tried first and passes."""
    rng = random.Random(7)
    batch = _digit_batch(rng, 100, 40)
    result = shrink(DIGITS, lambda inst, text: len(inst) >= 64, batch, failing_game=70)
    assert len(result.instance) == 64 and DIGITS.size(result.instance) == 1
    assert result.moved is None


def test_the_failing_game_moves_to_position_one():
    rng = random.Random(8)
    batch = _digit_batch(rng, 100, 30)
    target = batch[41]
    result = shrink(
        DIGITS, lambda inst, text: any(g[:5] == target[:5] for g in inst), batch, failing_game=42
    )
    assert result.moved == (42, 100)
    assert result.instance == (target[:5],)


def test_a_count_of_digits_in_all_caps_every_game():
    """Digits in all >= 32,768 over at most 100 games: the cap on every game's length comes
    before the count of games, so the longest game falls to ceil(32,768 / 100) = 328."""
    rng = random.Random(9)
    batch = _digit_batch(rng)
    result = shrink(DIGITS, lambda inst, text: sum(map(len, inst)) >= 32_768, batch, max_runs=40)
    assert DIGITS.size(result.instance) == 328


def test_a_count_in_all_reached_from_a_batch_of_short_games():
    """Digits in all >= 32,768, found on 100 games of which 50 have 1,000 digits and 50 have 10
    (50,500 digits). A cut of every game to c digits keeps 50c + 500, which fails only from
    c = 646: no cut reaches below size 646. Bringing every game to 328 digits (the longer cut, the
    shorter grown by their own digits) gives 32,800 digits: size 328, the exact smallest. Without
    the step the shrink ends above it (control)."""
    rng = random.Random(13)
    batch = tuple(
        g for pair in zip(_digit_batch(rng, 50, 1000), _digit_batch(rng, 50, 10)) for g in pair
    )
    fails = lambda inst, text: sum(map(len, inst)) >= 32_768  # noqa: E731
    assert fails(batch, "")
    result = shrink(DIGITS, fails, batch, max_runs=60)
    assert DIGITS.size(result.instance) == 328
    assert result.steps.get("binary search on a length every game is brought to (the batch filled)")

    assert DIGITS.size(_without_fill(DIGITS, fails, batch).instance) >= 646


def test_the_batch_is_filled_to_its_largest_where_the_games_are_few():
    """A byte length: 70 games of 1,000 digits (70,424 bytes) fail when the input has 65,536
    bytes or more. No cut of 70 games reaches it below 932 digits; the batch filled to its 100
    games does at 651 digits, the exact smallest (tests/shrink_wrong/digit_game/bytes65536.py)."""
    rng = random.Random(14)
    batch = _digit_batch(rng, 70, 1000)
    fails = lambda inst, text: len(text) >= 65_536  # noqa: E731
    result = shrink(DIGITS, fails, batch, max_runs=60)
    assert DIGITS.size(result.instance) == 651
    assert DIGITS.size(_without_fill(DIGITS, fails, batch).instance) >= 932


def _without_fill(game, fails, instance):
    """The control: the same shrink without the step that brings every game to one length."""

    class NoFill(Shrinker):
        def _fill(self):
            pass

    return NoFill(game, game.structure(), fails, max_runs=60).shrink(instance)


def test_a_late_heap_position_in_dawson_kayles():
    """Heaps after the 63rd lost: fails when their xor is not 0. Smallest 65 (63 heaps of 1, a
    64th of 2), reached through the values' classes and single value searches."""
    rng = random.Random(10)
    heaps = tuple(rng.randint(1, 1000) for _ in range(100))

    def fails(inst, text):
        lost = 0
        for h in inst[63:]:
            lost ^= DAWSON.grundy(h)
        return lost != 0

    if not fails(heaps, ""):
        heaps = heaps[:99] + (2,)
    result = shrink(DAWSON, fails, heaps)
    assert DAWSON.size(result.instance) == 65


# ---- the claim ------------------------------------------------------------------------------------


def test_finished_means_every_offered_reduction_of_the_result_passes():
    """The claim checked by hand: from the result, every single removal and every lower value is
    a valid input that passes (or no input at all)."""
    fails = lambda inst, t: inst.count("x") >= 2 and "q" in inst  # noqa: E731
    result = shrink(CUT, fails, "abxcqdxe" * 20)
    assert result.finished
    s = result.instance
    assert len(s) == 3
    for k in range(len(s)):
        assert not fails(s[:k] + s[k + 1 :], "")
        for v in range(ord(s[k]) - 97):
            lowered = s[:k] + chr(97 + v) + s[k + 1 :]
            assert not fails(lowered, "")


def test_a_cut_shrink_is_never_called_finished():
    """Ended by its runs or its deadline: not finished, and the cut names the step it was in."""
    rng = random.Random(11)
    text = "".join(rng.choice("ab") for _ in range(4000)) + "xxzz"
    result = shrink(CUT, lambda inst, t: "xx" in inst and "zz" in inst, text, max_runs=5)
    assert not result.finished and result.cut.startswith("its time was up during:")
    result = shrink(CUT, lambda inst, t: "xx" in inst and "zz" in inst, text, deadline=0.0)
    assert not result.finished and result.runs == 0


def test_steps_left_out_for_size_are_said_and_not_finished():
    """Over the exhaustive limit, the single-part steps do not run: the shrink does not claim to
    have finished, and the cut says which steps were left out."""
    rng = random.Random(12)
    piles = tuple(rng.randint(1, 60) for _ in range(3000))
    result = shrink(
        STONES, lambda inst, text: len(inst) >= 2000, piles, exhaustive_parts=100, level_chunks=8
    )
    assert len(result.instance) == 2000
    assert not result.finished
    assert "single piles removed" in result.cut


def test_invalid_candidates_never_run():
    """A digit game never has a leading zero: lowering every digit to 0 builds invalid inputs,
    which the shrinker skips (``shrink`` above asserts every run input parses back)."""
    result = shrink(DIGITS, lambda inst, text: "7" in inst[0], ("97531",))
    assert result.instance == ("7",)


def test_every_registered_game_declares_its_structure():
    for game in (WORDS, CUT, DIGITS, STONES, DAWSON):
        assert isinstance(game.structure(), Structure), game.name
        assert structure_of(game, None) is game.structure() or isinstance(
            structure_of(game, None), Structure
        )


def test_the_default_structure():
    class Plain:
        max_batch = 1

    assert default_structure(Plain(), "abc").parts("abc") == ("a", "b", "c")
    assert default_structure(Plain(), (3, 4)).value(3) == 3
    assert default_structure(Plain(), 3.5) is None


# ---- wrong programs, certified -------------------------------------------------------------------

LONG = pytest.mark.long
PROGRAMS = [
    "stones_once/count32769.py",
    "stones_once/parity50004.py",
    "digit_game/digits32768.py",
    "stones_once/bytes1874314.py",
    "digit_game/bytes65536.py",
    "string_cut/xx_zz.py",
    "word_game/jkqxz.py",
    "digit_game/late64.py",
    "dawson_kayles/heaps63.py",
]


def _smallest(program: Path) -> int:
    line = next(line for line in program.read_text().splitlines() if line.startswith("# smallest:"))
    return int(line.split(":", 1)[1])


@LONG
@pytest.mark.parametrize("path", PROGRAMS)
@pytest.mark.parametrize("seed", ["1", "2"])
def test_reported_at_the_exact_smallest_size(tmp_path, path, seed):
    program = WRONG / path
    game = program.parent.name
    env = {k: v for k, v in os.environ.items() if k != "GAMECERT_EXHAUSTIVE_RUNS"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            game,
            str(program),
            "--seed",
            seed,
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=900,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((Path(proc.stdout.strip().splitlines()[-1]) / "report.json").read_text())
    assert report["verdict"] == "WA"
    assert report["size"] == _smallest(program), report["minimality"]


def test_a_parity_threshold_on_many_parts_comes_down_to_its_smallest():
    """CI: parity50004.py's rule (past 50,000 piles the answer is read from the count's parity)
    on 65,536 random piles stopped at 50,006 to 50,706 stones, every step done: its few piles
    not at their lowest waited for chunks over all 50,000 piles (skipped), and no step removed
    two piles of a run of ones (the count's parity kept). The values not at their lowest are
    lowered and searched by themselves, and one or two parts come off each run of equal ones:
    50,004 stones (50,001 piles of 1 and one of 3) for every seed tried. And each ddmin level is
    probed (its first, middle and last chunks) before it runs whole: the levels whose every chunk
    takes the count under 50,001 cost three runs a pass, not up to 256; 98 runs reach 50,004
    here, 329 without the probes, so 200 is the cap. Control: a rule on the count alone (past
    50,000) ends at 50,001 piles of 1."""
    rng = random.Random(3)

    def parity(inst, text):
        return len(inst) > 50_000 and (STONES.grundy(inst) == 0) != (len(inst) % 2 == 0)

    while True:
        piles = tuple(rng.randint(1, 60) for _ in range(65_536))
        if parity(piles, ""):
            break
    result = shrink(STONES, parity, piles, max_runs=200)
    assert sum(result.instance) == 50_004 and sorted(result.instance)[-1] == 3
    control = shrink(STONES, lambda inst, text: len(inst) > 50_000, piles, max_runs=2_000)
    assert control.instance == (1,) * 50_001


def test_two_values_lowered_together_keep_a_parity():
    """The long step alone: m57h777.py's guided find came to 777, five 2s and 51 ones (838 tokens)
    and stopped there: one 2 lowered to 1 flips the xor, and the chunks of the values not at their
    lowest went from 3 to 1. They go 3, 2, 1: two 2s lowered together keep it, down to 834 (777, a
    2 and 55 ones). Control: the fault's own input is minimal in the count it needs (57 heaps)."""
    import functools

    def fails(inst, text):
        xor = functools.reduce(lambda a, h: a ^ DAWSON.grundy(h), inst, 0)
        return len(inst) == 57 and inst[0] == 777 and xor != 0

    result = shrink(DAWSON, fails, (777,) + (2,) * 5 + (1,) * 51)
    assert result.finished and DAWSON.size(result.instance) == 834
    assert len(result.instance) == 57 and sorted(result.instance) == [1] * 55 + [2, 777]


def test_a_near_constant_fault_comes_down_to_its_smallest_count_and_level():
    """variance_float.c's fault (a float variance that rounds to 0 over thousands of nearly equal
    piles) fails at counts that follow no order: 55s with one 54 fail at 2,486 piles and 2,558,
    not between. Its guided finds stayed at 5,732 and 3,104 piles: no halving or chunk lands on
    such a count from another. The count of the common pile is searched down one by one, and the
    common pile exchanged with the odd one (54s with one 55) and searched again: 2,393 of 54 and
    one of 55, 129,277 stones, which tests/scans/variance_float_smallest.c finds is the smallest
    failing input of all. Control: without the exchange the shrink stays among 55s (2,485 of
    them and one 54, 136,729 stones)."""
    found = (55,) * 2865 + (54,)
    assert variance_float_fails(found, "")
    # (1,541 runs reach it here; its other steps then lower each of the 2,394 piles in turn)
    result = shrink(STONES, variance_float_fails, found, max_runs=3_000)
    assert sorted(result.instance) == [54] * 2393 + [55] and sum(result.instance) == 129_277

    def no_exchange(inst, text):  # the same fault, but an input whose common pile is 54 passes
        return Counter(inst).most_common(1)[0][0] != 54 and variance_float_fails(inst, text)

    control = shrink(STONES, no_exchange, found, max_runs=3_000)
    assert sorted(control.instance) == [54] + [55] * 2485 and sum(control.instance) == 136_729
