"""The words a contestant reads (issue 45): the PE line, the TLE line under the limit, the
diagnosis's runs against its share, and the class features' words. Each is checked against the
slip it replaced (the control: the old text must be gone)."""

from __future__ import annotations

from gamecert.engine import registry
from gamecert.engine.judge.evidence import failure_lines
from gamecert.engine.judge.judge import Failure
from gamecert.engine.report.diagnosis import diagnosis_markdown
from gamecert.kit.features import features_of, literal_words
from gamecert.verdict import Verdict


def test_a_pe_line_says_what_a_presentation_error_is_once() -> None:
    """A PE's first line names the verdict and says in plain words what it means, without the
    nested parentheses of "PE (presentation error (malformed output))"; a WA's line (the
    control) keeps its own words."""
    game = registry.get("word_game").game
    pe = Failure(Verdict.PE, "ABC", "ABC\n", "Alice\n", "Alic e\n", "two tokens", "samples", 3)
    line = failure_lines(game, pe)[0]
    assert line.startswith(
        "PE (presentation error: output that cannot be read as an answer) on a word_game"
    )
    assert "((" not in line and "))" not in line and "malformed output" not in line
    wa = Failure(Verdict.WA, "ABC", "ABC\n", "Alice\n", "Bob\n", "wrong winner", "samples", 3)
    assert failure_lines(game, wa)[0].startswith("WA (wrong answer) on a word_game")


def test_the_diagnosis_says_its_runs_against_its_share() -> None:
    """ "662 runs in 11.0 s of the 9.0 s it had" (an overrun said as if within) and "1 runs" are
    gone: an overrun says the share and why it ran over; a single run is "1 run"."""
    over = "\n".join(
        diagnosis_markdown({"status": "none", "runs": 662, "seconds": 11.0, "budget_s": 9.0})
    )
    assert "662 runs in 11.0 s; its share of the budget was 9.0 s" in over and "it had" not in over
    one = "\n".join(
        diagnosis_markdown({"status": "none", "runs": 1, "seconds": 2.0, "budget_s": 9.0})
    )
    assert "1 run in 2.0 s of its 9.0 s share" in one and "1 runs" not in one


def test_class_features_fit_numbers_and_runs_in_general() -> None:
    """Heaps 18 and 30 are both 6 mod 12 (the class a program wrong on n % 12 == 6 fails on, never
    "some heap is 6"), a heap of 70 has bit length 7, 64 is a power of two; a string's runs of
    cuttable positions by length's parity; the words say the class."""
    dk = registry.get("dawson_kayles").game
    f = features_of(dk, (18, 30, 70, 64))
    assert f["count[v%12=6]"] == 2 and f["count[bits=7]"] == 2 and f["count[pow2]"] == 1
    assert f["count[v%16=2]"] == 1 and f["count[ones=1]"] == 1 and f["max_value.bitlen"] == 7
    assert "count[v%12=6]" not in features_of(dk, (6 + 1, 19))
    assert literal_words("count[v%12=6]", ">=", 1, "heap") == "some heap is 6 mod 12"
    assert (
        literal_words("count[bits=7]%2", ">=", 1, "heap")
        == "the number of heaps of bit length 7 is odd"
    )
    cut = registry.get("string_cut").game
    g = features_of(cut, "ababxcdcdcdc")  # runs of 2 and 5 cuttable positions
    assert (g["run[2]"], g["run[5]"], g["run[%2=0]"], g["run[%2=1]"], g["run[>=5]"]) == (
        1,
        1,
        1,
        1,
        1,
    )
    assert literal_words("run[%2=0]", ">=", 1, "letter") == "one or more runs of even length"
    word = registry.get("word_game").game
    assert features_of(word, "AABBBC")["mult[%2=1]"] == 2  # B three times, C once


def test_a_long_input_is_shown_by_its_shape_with_its_file() -> None:
    """Issue 45: a TLE's 4,400-letter input was printed as one 600-character line. It is shown by
    its shape (its length, the unit it repeats and how often) and names the report's file that
    holds it whole; a short input (the control) is shown as it is."""
    from gamecert.engine.judge.shape import runs

    game = registry.get("string_cut").game
    text = "aab" * 1466 + "aa\n"
    tle = Failure(
        Verdict.TLE,
        text.strip(),
        text,
        "First\n1\n",
        "",
        "CPU time 2.5 s > limit 2 s",
        "worst",
        4400,
    )
    shown = "\n".join(failure_lines(game, tle))
    assert 'input:    a line of 4,400 letters: "aab" x 1,466, "aa"' in shown, shown
    assert "input.in in the report's folder" in shown and "aabaabaabaab" not in shown
    short = Failure(Verdict.TLE, "abab", "abab\n", "First\n2\n", "", "slow", "worst", 4)
    assert "  input:    abab" in failure_lines(game, short)
    many = "3\n" + " ".join("12" for _ in range(400)) + "\n" + "x" * 300 + "\n"
    lines = failure_lines(game, Failure(Verdict.TLE, None, many, "", "", "slow", "worst", 9))
    assert "3 lines, 1,502 characters" in "\n".join(lines) and '"12 " x 399' in "\n".join(lines)
    assert "".join(u * k for u, k in runs("q" + "ab" * 9 + "z")) == "q" + "ab" * 9 + "z"


def test_a_certificate_names_what_its_answers_rest_on_past_the_oracle() -> None:
    """Issue 45: past the oracle's reach a certificate said "every fast solver (1: closed_form)
    agreeing" and not that closed_form's only claim was bounded. Now each range of sizes names
    its basis: the oracle up to its reach, then the fast solvers with every claim's level (a
    bounded claim with its range and that it stops short of the largest size). The control: a
    game whose oracle reaches every size names the oracle alone."""
    from types import SimpleNamespace as C

    from gamecert.engine.report.basis import answers_basis
    from gamecert.engine.report.reports import Certificate

    game = C(name="new_game", oracle_reach=60, max_size=10**6)
    bounded = C(name="closed_form == rule", level="bounded", span=(1, 10_000))
    lines = answers_basis(C(game=game, solvers={"closed_form": None}, claims=[bounded]))
    assert lines[0] == "sizes up to 60: the oracle (memoised exact search over the rules)"
    assert lines[1].startswith("sizes 61 to 1,000,000: the fast solvers (1: closed_form;")
    assert "no claim proved for every size" in lines[1]
    assert (
        "closed_form == rule (bounded: checked for 1..10,000 only, not up to the largest size 1,000,000)"
        in lines[1]
    )
    none = answers_basis(C(game=game, solvers={"closed_form": None}, claims=[]))
    assert "with no claim proved" in none[1] and "(sampled)" in none[1]
    digits = answers_basis(registry.get("digit_game"))  # oracle 300, sizes to 1,000
    assert (
        len(digits) == 2
        and "(proved for every size)" in digits[1]
        and "sizes 301 to 1,000" in digits[1]
    )
    assert answers_basis(registry.get("stones_once")) == (
        "sizes up to 60,000,000: the oracle (memoised exact search over the rules)",
    )
    cert = Certificate(
        game="new_game",
        candidate="c",
        candidate_spec="c.py",
        seed=1,
        profile="quick",
        samples=1,
        exhaustive=(),
        random_examples=0,
        largest_sizes=(),
        tests=5,
        runs=5,
        elapsed_s=1.0,
        slowest_s=0.1,
        slowest_what="",
        time_limit_s=2.0,
        memory_limit_mb=256,
        created="now",
        judged_by={"oracle": 3, "all fast solvers": 2},
        solvers=("closed_form",),
        answers_rest_on=lines,
    )
    text = cert.describe()
    assert (
        "expected answers for sizes 61 to 1,000,000: the fast solvers" in text
        and "bounded: checked for 1..10,000 only" in text
    )
    assert Certificate.from_json(cert.to_json()).answers_rest_on == lines


def test_show_counts_the_samples_as_certify_does() -> None:
    """Issue 45: `show` said "Samples (1)" where certify said "samples 4" (a batch sample of four
    games). show now says the inputs and, for a batch format, the games certify counts; a
    one-game format (the control) counts inputs alone."""
    from gamecert.commands.show import describe

    digits = describe(registry.get("digit_game"))
    assert "Samples (1 input of 4 games in all; certify counts the games):" in digits
    assert "Samples (2 inputs):" in describe(registry.get("word_game"))


def test_a_game_gets_no_features_of_another_game() -> None:
    """Issue 45: digit_game's diagnosis listed `games_xor_nonzero` among its features, an xor of
    its classes (a digit's parity), which is no Sprague-Grundy total. digit_game says its classes
    are no Grundy values and gets no xor; it gets its games by length's parity instead. The
    control: stones_once (classes are Grundy values) keeps its xor."""
    digits = features_of(registry.get("digit_game").game, ("12", "345", "6789"))
    assert not [k for k in digits if "xor" in k], sorted(k for k in digits if "xor" in k)
    assert digits["length[%2=0]"] == 2 and digits["length[%2=1]"] == 1
    stones = features_of(registry.get("stones_once").game, (3, 5))
    assert "xor_class" in stones


def test_an_unfinished_shrink_says_the_time_it_had() -> None:
    """CI: "after trying 196 smaller inputs in 9.6 s of the 30 s it had" where the budget's end
    left the shrink 9.6 s. The line says the seconds it had, and its share where the budget's end
    came first, or the faults found before it that used the share; control: a shrink that had its
    whole share says it alone."""
    from types import SimpleNamespace

    from gamecert.engine.sweep_below import SweepBelow

    def line(given: float, bound: str = "budget") -> str:
        failure = SimpleNamespace(size=50, shrink=(196, False), shrink_cut="", shrink_s=9.6)
        outcome = SimpleNamespace(failure=failure, interrupted=False, unfinished=[])
        me = SimpleNamespace(outcome=outcome, shrink_s=30.0, shrink_granted=30.0)
        me.shrink_given, me.shrink_bound = given, bound
        SweepBelow._note_unfinished(me)  # type: ignore[arg-type]  # noqa: SLF001
        return outcome.unfinished[0]

    cut = line(9.6)
    assert "in 9.6 s of the 9.6 s it had (its share was 30 s; the budget's end came first)" in cut
    assert "of the 30 s it had" not in cut
    whole = line(30.0)
    assert "in 9.6 s of the 30.0 s it had;" in whole and "share" not in whole
    # variance_float.c: "0.0 s of the 0.0 s it had (...; the budget's end came first)" where the
    # shrinks of three larger faults before it had taken the share: that is said instead
    late = line(0.0, "share")
    assert "of the 0.0 s it had (its share was 30 s from the run's first shrink; the larger" in late
    assert "budget" not in late
    # a guided near-constant fault shrinks for what its size asks: said as such, not as a cut
    brief = line(7.3, "brief")
    assert "in 9.6 s of the 7.3 s it had (what a shrink at its size asks for" in brief
    assert "near-constant input of the guided search" in brief and "share" not in brief
