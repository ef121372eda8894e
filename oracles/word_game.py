"""word_game (Codeforces gym 102780F, "A word game"): rules, formats and exact searches.

A move picks a letter still present and removes one copy, two copies (if two remain) or every
remaining copy. Whoever removes the last letter wins; Alice moves first.
"""

from __future__ import annotations

import itertools
import string
from collections import Counter
from collections.abc import Iterator
from functools import cache
from types import MappingProxyType

from gamecert.errors import OutOfReach
from gamecert.kit.core import Core
from gamecert.kit.deciding import DecidingFeature
from gamecert.kit.game import (
    ExhaustiveSpace,
    Explanation,
    Game,
    mex,
    parse_word,
    partitions,
    shrink_targets,
)
from gamecert.kit.shrink import Structure
from gamecert.kit.tokens import AnswerReader

MAX_LEN = 40
LETTERS = string.ascii_uppercase


def letter_options(count: int) -> tuple[int, ...]:
    """Counts one letter can go to in one move, from the rules (remove 1, 2 or all).

    >>> letter_options(3)
    (2, 1, 0)
    >>> letter_options(1)
    (0,)
    """
    options = {count - 1, 0}
    if count >= 2:
        options.add(count - 2)
    return tuple(sorted(options, reverse=True))


@cache
def letter_grundy(count: int) -> int:
    """Grundy value of one letter with ``count`` copies, by search over its moves."""
    if count < 0:
        raise ValueError("a count is never negative")
    # iterate upwards so deep counts never recurse deeply
    for c in range(count):
        letter_grundy(c)
    return mex(letter_grundy(c) for c in letter_options(count)) if count else 0


def counts_of(word: str) -> tuple[int, ...]:
    """The position up to renaming letters: positive counts, largest first."""
    return tuple(sorted(Counter(word).values(), reverse=True))


@cache
def _first_player_wins(counts: tuple[int, ...]) -> bool:
    """Plain minimax over whole positions (sorted count tuples): no Sprague-Grundy.

    The moves are spelled out here again rather than taken from :func:`letter_options`, so a
    slip in either shows up as a disagreement between the two searches.
    """
    for i, c in enumerate(counts):
        remove_one, remove_two, remove_all = c - 1, (c - 2 if c >= 2 else None), 0
        for to in {remove_one, remove_two, remove_all} - {None}:
            rest = counts[:i] + ((to,) if to else ()) + counts[i + 1 :]
            if not _first_player_wins(tuple(sorted(rest, reverse=True))):
                return True
    return False


def _move_text(letter: str, count: int, to: int) -> str:
    taken = count - to
    if to == 0 and taken > 2:
        return f"remove all {taken} copies of {letter}"
    return f"remove {taken} cop{'y' if taken == 1 else 'ies'} of {letter}"


class WordGame(Game):
    name = "word_game"
    title = "A word game (Codeforces gym 102780F)"
    rules = (
        "A word of uppercase letters; Alice moves first, then turns alternate. A move picks a letter still "
        "present and removes one copy of it, two copies (if two remain) or every remaining copy. Whoever "
        "removes the last letter wins."
    )
    input_format = "One line: a word of 1 to 40 uppercase letters A-Z."
    output_format = "Alice if the first player wins with optimal play, else Bob."
    time_limit = 2.0
    memory_limit_mb = 256
    samples = (("ZADACHA\n", "Alice\n"), ("WORD\n", "Bob\n"))
    minimax_reach = MAX_LEN  # memoised over sorted count tuples, the whole space takes ~5 s
    oracle_reach = MAX_LEN
    max_size = MAX_LEN
    size_measure = "letters"
    #: the certification core (gamecert.kit.core), sized for a JVM per test: 10 tests/s a runner, 2 runners
    certification_core = MappingProxyType(
        {
            "default": Core(
                families={"decides-letter-count": 100, "letter-count-mixed": 40},
                exhaustive={"letter-count multisets": 11, "short-words": 1},
                reason=(
                    "a letter's value has period 3 in its count (proofs/word_game); the families "
                    "run every count 1..40 of a letter alone, counts 1..20 mixed with others, "
                    "counts 1..3 of every letter A..Z alone and each count beside its cancelling "
                    "partner for the first 100 settings; every multiset of letter counts to 11 "
                    "letters holds every count 1..11 (each residue mod 3 three times) beside every "
                    "other: about 550 runs, 28 s for a JVM per test at 20 tests/s on 2 runners"
                ),
            ),
            "thorough": Core(
                exhaustive={"letter-count multisets": 24, "short-words": 2},
                reason=(
                    "every family whole, letter-count multisets to 24 letters (8 periods of the "
                    "count's value) and every word of 1 or 2 letters (about 11,400 runs)"
                ),
            ),
        }
    )

    #: the validator's and checker's part of a test package (`gamecert tests`; gamecert.kit.standalone)
    standalone_code = """
def parse_input(text):
    return parse_word(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", 40, "word")


def format_input(inp):
    return inp + "\\n"


def read_answer(reader, inp):
    winner = reader.word(("Alice", "Bob"), "Alice or Bob")
    reader.finish()
    return winner


def judge(inp, got, expected):
    return None if got == expected else "expected %s, got %s" % (expected, got)
"""

    def parse_input(self, text: str) -> str:
        return parse_word(text, LETTERS, "uppercase letters A-Z", MAX_LEN, "word")

    def format_input(self, instance: str) -> str:
        return instance + "\n"

    def size(self, instance: str) -> int:
        return len(instance)

    def parse_answer(self, text: str, instance: str) -> str:
        reader = AnswerReader(text)
        winner = reader.word(("Alice", "Bob"), "Alice or Bob")
        reader.finish()
        return winner

    def format_answer(self, answer: str) -> str:
        return answer + "\n"

    def first_player_wins(self, answer: str) -> bool:
        return answer == "Alice"

    def minimax(self, instance: str) -> str:
        if len(instance) > self.minimax_reach:
            raise OutOfReach(
                f"word_game minimax is built for words up to {self.minimax_reach} letters"
            )
        return "Alice" if _first_player_wins(counts_of(instance)) else "Bob"

    def grundy(self, instance: str) -> int:
        """Sprague-Grundy: letters are independent components, the word is their xor."""
        value = 0
        for count in Counter(instance).values():
            value ^= letter_grundy(count)
        return value

    def oracle(self, instance: str) -> str:
        return "Alice" if self.grundy(instance) else "Bob"

    def _winning_moves(self, counts: dict[str, int]) -> list[tuple[str, int, int]]:
        total = 0
        for c in counts.values():
            total ^= letter_grundy(c)
        moves = []
        for letter in sorted(counts):
            c = counts[letter]
            for to in letter_options(c):
                if total ^ letter_grundy(c) ^ letter_grundy(to) == 0:
                    moves.append((letter, c, to))
        return moves

    def explain(self, instance: str) -> Explanation:
        counts = dict(sorted(Counter(instance).items()))
        components = tuple((f"{letter} x{c}", letter_grundy(c)) for letter, c in counts.items())
        total = self.grundy(instance)
        winning = tuple(_move_text(*m) for m in self._winning_moves(counts))
        line: list[str] = []
        player, state = "Alice", dict(counts)
        while state:
            moves = self._winning_moves(state)
            if moves:
                letter, c, to = moves[0]
            else:  # a lost position: any move will do; take one copy of the first letter
                letter = next(iter(state))
                c = state[letter]
                to = c - 1
            line.append(f"{player}: {_move_text(letter, c, to)}")
            if to:
                state[letter] = to
            else:
                del state[letter]
            player = "Bob" if player == "Alice" else "Alice"
        winner = "Bob" if player == "Alice" else "Alice"
        line.append(f"{winner} removed the last letter and wins")
        outcome = f"{'Alice' if total else 'Bob'} wins (xor {total} {'!=' if total else '=='} 0)"
        return Explanation(
            outcome, components, total, winning, tuple(line), first_player_wins=bool(total)
        )

    def exhaustive_spaces(self) -> list[ExhaustiveSpace]:
        return [
            ExhaustiveSpace(
                "letter-count multisets",
                "every multiset of letter counts with total <= 40 over at most 26 letters (214,044 words: every "
                "valid word up to renaming and reordering letters)",
                tuple(range(1, MAX_LEN + 1)),
                words_of_length,
                one_of_each="set of words alike up to renaming and reordering their letters",
            ),
            # the space above is complete only for solvers blind to letter names; this one
            # catches solvers that treat some letters differently (every word up to 3 letters)
            ExhaustiveSpace(
                "short-words",
                "every word of 1 to 3 letters over A-Z (18,278 words)",
                (1, 2, 3),
                lambda n: ("".join(t) for t in itertools.product(LETTERS, repeat=n)),
                every_input=True,
            ),
        ]

    def deciding_features(self) -> list[DecidingFeature]:
        """A letter's count: every count 1..40 of every letter A..Z, alone (Alice wins) and beside
        a second letter of equal value and a different count, before or after it (Bob wins exactly
        when both values are right)."""
        return [
            DecidingFeature(
                "letter-count",
                "every count 1..40 of every letter A..Z: alone, and beside the next letter at the smallest other count "
                "of the same value (before it and after it, where the word stays within 40 letters), which cancels it",
                tuple(range(1, MAX_LEN + 1)),
                _letter_places,
                lambda count, place: count + (_partner_count(count) if place[1] != "alone" else 0),
                lambda count, place: [_letter_decides(count, *place)],
            )
        ]

    def diagnosis_features(self, word: str) -> dict[str, int]:
        """For the diagnosis (gamecert.kit.features): letters by Grundy value (a count c is worth
        c % 3, or 3 when that is 0) and their xor, the whole game's value."""
        out: dict[str, int] = {"xor": 0}
        for c in Counter(word).values():
            v = c % 3 or 3
            out[f"value[{v}]"] = out.get(f"value[{v}]", 0) + 1
            out["xor"] ^= v
        return out

    def structure(self) -> Structure:
        """For structural shrinking: the letters, each a value 0..25 (A..Z); no classes (a letter's
        part in the game depends on the others of its kind)."""
        return Structure(
            tuple,
            "".join,
            lambda ch: ord(ch) - 65,
            lambda ch, v: chr(65 + v),
            0,
            part_name="letter",
        )

    def smaller(self, instance: str) -> Iterator[str]:
        """Smaller words, largest cuts first: one letter's count lowered (to 1, 2, ... up to one
        less; the last copies go), then one letter dropped whole (the most frequent first), then
        two letters merged into one letter of the xor of their values, when that is shorter.

        >>> list(GAME.smaller("ABA"))  # values 2 and 1 would merge into AAA: no shorter
        ['AB', 'B', 'AA']
        >>> list(GAME.smaller("AABBC"))[-1]  # A x2 and B x2 cancel (values 2 ^ 2 = 0)
        'C'
        >>> list(GAME.smaller("AAAAABC"))[-3:]  # A x5 with B (2 ^ 1 = 3): A x3; B, C cancel
        ['AAAC', 'AAAB', 'AAAAA']
        """
        counts = Counter(instance)
        order = sorted(counts, key=lambda ch: (-counts[ch], instance.index(ch)))
        for ch in order:
            for target in shrink_targets(counts[ch]):
                yield _keep_first(instance, ch, target)
        if len(counts) > 1:
            for ch in order:
                yield instance.replace(ch, "")
            smallest = {letter_grundy(c): c for c in range(MAX_LEN, 0, -1)}
            for a, b in itertools.combinations(
                order, 2
            ):  # two letters merged into one of their xor
                value = letter_grundy(counts[a]) ^ letter_grundy(counts[b])
                rest = instance.replace(b, "")
                if not value:
                    yield rest.replace(a, "") or instance.replace(a, "")
                elif smallest[value] < counts[a] + counts[b]:
                    keep = min(smallest[value], counts[a])
                    yield _keep_first(rest, a, keep) + a * (smallest[value] - keep)


def _partner_count(count: int) -> int:
    """The smallest count other than ``count`` with the same value (values repeat with period 3).

    >>> _partner_count(1), _partner_count(5), _partner_count(40)
    (4, 2, 1)
    """
    value = letter_grundy(count)
    return next(c for c in range(1, MAX_LEN + 1) if c != count and letter_grundy(c) == value)


def _letter_places(count: int) -> list[tuple[str, str]]:
    places = []
    for letter in string.ascii_uppercase:
        places.append((letter, "alone"))
        if count + _partner_count(count) <= MAX_LEN:
            places += [(letter, "partner after"), (letter, "partner before")]
    return places


def _letter_decides(count: int, letter: str, where: str) -> str:
    """``letter`` ``count`` times, alone or beside the next letter at its partner count.

    >>> _letter_decides(2, "Z", "partner before")
    'AAAAAZZ'
    """
    if where == "alone":
        return letter * count
    other = string.ascii_uppercase[
        (string.ascii_uppercase.index(letter) + 1) % 26
    ] * _partner_count(count)
    return letter * count + other if where == "partner after" else other + letter * count


def _keep_first(word: str, letter: str, keep: int) -> str:
    """``word`` with only the first ``keep`` copies of ``letter``.

    >>> _keep_first("ABACA", "A", 2)
    'ABAC'
    """
    out, seen = [], 0
    for ch in word:
        if ch == letter:
            seen += 1
            if seen > keep:
                continue
        out.append(ch)
    return "".join(out)


def words_of_length(length: int) -> Iterator[str]:
    """One word per multiset of letter counts summing to ``length`` (at most 26 letters).

    >>> list(words_of_length(3))
    ['AAA', 'AAB', 'ABC']
    """
    for counts in partitions(length, length, len(LETTERS)):
        yield "".join(LETTERS[i] * c for i, c in enumerate(counts))


GAME = WordGame()
