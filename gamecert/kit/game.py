"""The contract every game fulfils, and the plain data that flows between the layers.

A game is one module name in each of ``oracles/``, ``fast/``, ``strategies/`` and ``proofs/``.
The oracle module holds ``GAME``, an instance of a :class:`Game` subclass: the rules, the input
and output formats, the two exact searches and the explanation of a position. Everything else
(cross-checks, candidate runs, reports) is generic and lives in :mod:`gamecert`.

Data flow: ``input text -> parse_input -> instance -> solver -> answer -> judge``.
An *instance* is the parsed whole input (for a multi-game format, a tuple of games); an
*answer* is the parsed whole output. Both are plain hashable values chosen by the game.
"""

from __future__ import annotations

import abc
import functools
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from gamecert.errors import InputError
from gamecert.kit.core import Core

Instance = Any
Answer = Any
Solver = Callable[[Instance], Answer]


@dataclass(frozen=True)
class Explanation:
    """Why a position is won or lost: what a report shows next to expected and got."""

    outcome: str
    components: tuple[tuple[str, int], ...] = ()
    total: int | None = None
    winning_moves: tuple[str, ...] = ()
    line_of_play: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    #: what the numbers beside the components are
    value_label: str = "Grundy value"
    #: whether the player to move first wins (what the winning moves are winning for)
    first_player_wins: bool | None = None
    #: the first player wins without moving at all (a game decided before any move)
    no_moves: bool = False

    def describe(self) -> str:
        """Markdown text, the same in reports and on the terminal."""
        out = [f"**Outcome:** {self.outcome}"]
        if self.components:
            out.append("")
            out.append(f"| component | {self.value_label} |")
            out.append("|---|---|")
            out.extend(f"| {name} | {value} |" for name, value in self.components)
        if self.total is not None:
            out.append(f"\nXor of the components: **{self.total}**")
        if self.winning_moves:
            out.append("\n**Winning moves:** " + "; ".join(self.winning_moves))
        if self.line_of_play:
            out.append("\n**A line of play:**")
            out.extend(f"{i}. {step}" for i, step in enumerate(self.line_of_play, 1))
        out.extend(f"\n{note}" for note in self.notes)
        return "\n".join(out)


@dataclass(frozen=True)
class ExhaustiveSpace:
    """A finite family of inputs checked in full, listed in increasing size.

    ``sizes`` are the sizes (in the game's own measure) the space covers; ``instances(size)``
    lists every instance of that size. Listing size by size lets a failure found by a sweep be
    minimal by construction and lets pytest spread the sizes over workers.

    ``one_of_each``: when the space lists one input for each class of inputs the game plays
    alike (not every input of its sizes), what a class is, in words that follow "one input of
    each" ("multiset of piles, largest pile first"). A program may tell such inputs apart where
    the game does not (it reads the piles' order): a fault's minimality over this space is then
    stated with what the space leaves out. Empty: the space lists its inputs as they are.

    ``every_input``: the space lists every valid input of each of its sizes (stones_once's pile
    sequences: every order of every pile count): a fault with every size below it swept there is
    the smallest of all inputs, whatever the program reads.
    """

    name: str
    description: str
    sizes: tuple[int, ...]
    instances: Callable[[int], Iterable[Instance]] = field(repr=False)
    one_of_each: str = ""
    every_input: bool = False

    def all(self) -> Iterator[Instance]:
        for size in self.sizes:
            yield from self.instances(size)


@dataclass(frozen=True)
class Family:
    """A designed list of whole inputs (component coverage or a stated worst case).

    ``instances()`` lists them deterministically, in priority order, each a valid whole input
    (``parse_input(format_input(x)) == x``); ``count`` is how many it yields. ``kind`` is
    ``"coverage"`` (every value of a component, alone and mixed) or ``"worst"`` (a stated
    adversary, said in ``adversary``).
    """

    name: str
    description: str
    instances: Callable[[], Iterable[Instance]] = field(repr=False)
    count: int
    kind: str = "coverage"
    adversary: str = ""
    #: a first pass, cheap enough to end within its phase's share whatever the machine's load (a
    #: size ladder): run before the other families of its phase, which then share what is left
    first: bool = False


def shrink_targets(size: int, smallest: int = 1, dense: int = 64) -> list[int]:
    """Sizes to try for one component of ``size``, largest cut (smallest size) first.

    Every size from ``smallest`` up when there are at most ``dense`` of them below ``size``;
    otherwise the first ``dense`` and then sizes closing in on ``size`` by halving the gap, so
    a greedy shrinker reaches a small failing size in few runs and always tries ``size - 1``.

    >>> shrink_targets(5)
    [1, 2, 3, 4]
    >>> shrink_targets(200, dense=4)
    [1, 2, 3, 4, 101, 151, 176, 188, 194, 197, 199]
    """
    if size - smallest <= dense:
        return list(range(smallest, size))
    out = list(range(smallest, smallest + dense))
    gap = size - smallest
    while gap > 1:
        gap //= 2
        if size - gap > out[-1]:
            out.append(size - gap)
    if out[-1] != size - 1:
        out.append(size - 1)
    return out


def drop_chunks(items: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """``items`` with one chunk removed, chunks halving from half the items to one; never empty.
    Removing a chunk equal to the one before it gives the same items as removing that one, so it
    is left out: a run of equal items costs a candidate or two per chunk size, not one per chunk.

    >>> list(drop_chunks((1, 2, 3)))
    [(2, 3), (1, 3), (1, 2)]
    >>> list(drop_chunks((7, 7, 7, 7, 5)))
    [(7, 7, 5), (7, 7, 7, 7), (7, 7, 7, 5), (7, 7, 7, 7)]
    """
    chunk = max(1, len(items) // 2)
    while True:
        for start in range(0, len(items), chunk):
            if start and items[start - chunk : start] == items[start : start + chunk]:
                continue
            rest = items[:start] + items[start + chunk :]
            if rest:
                yield rest
        if chunk == 1:
            return
        chunk //= 2


class Game(abc.ABC):
    """Base class of every game. Subclasses fill in the abstract parts; the rest has defaults."""

    name: ClassVar[str]
    title: ClassVar[str]
    #: the rules in brief (who moves, what a move is, who wins), for ``gamecert show``
    rules: ClassVar[str] = ""
    #: the input format and constraints, in words
    input_format: ClassVar[str] = ""
    #: the output format, in words (how it is read: :mod:`gamecert.kit.tokens`)
    output_format: ClassVar[str] = ""
    #: the problem's limits, used as defaults when a candidate is judged
    time_limit: ClassVar[float] = 1.0
    memory_limit_mb: ClassVar[int] = 256
    #: (input text, output text) pairs from the statement; checked against the oracle, not trusted
    samples: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: largest size for which :meth:`minimax` is meant to be called
    minimax_reach: ClassVar[int]
    #: largest size for which :meth:`oracle` is meant to be called
    oracle_reach: ClassVar[int]
    #: largest size the constraints allow
    max_size: ClassVar[int]
    #: what :meth:`size` counts, in a few words ("letters", "stones in all", "bit length of n"):
    #: evidence labels say "size (bit length of n) <= 17" rather than a bare number
    size_measure: ClassVar[str] = ""
    #: how many single instances one input may hold (multi-game formats); 1 means no batching
    max_batch: ClassVar[int] = 1
    #: the certification core per profile name (:mod:`gamecert.kit.core`): what a user's program
    #: must complete to be CERTIFIED; a profile not named keeps the whole plan as its core
    certification_core: Mapping[str, Core] = MappingProxyType({})

    # ---- input -------------------------------------------------------------------------
    @abc.abstractmethod
    def parse_input(self, text: str) -> Instance:
        """Validate and parse a whole input; raise :class:`InputError` naming line and rule."""

    @abc.abstractmethod
    def format_input(self, instance: Instance) -> str:
        """The exact input text a contest program reads for ``instance``."""

    @abc.abstractmethod
    def size(self, instance: Instance) -> int:
        """The game's size measure (what the constraints bound and reaches are stated in)."""

    # ---- answers -----------------------------------------------------------------------
    @abc.abstractmethod
    def parse_answer(self, text: str, instance: Instance) -> Answer:
        """Read a program's output with :class:`gamecert.kit.tokens.AnswerReader`.

        Raise :class:`PresentationError` (PE) for a malformed number and
        :class:`WrongAnswerError` (WA) for a wrong, missing or extra token; the reader does both.
        """

    @abc.abstractmethod
    def format_answer(self, answer: Answer) -> str:
        """The canonical output text for ``answer``."""

    @abc.abstractmethod
    def first_player_wins(self, answer: Answer) -> bool:
        """Whether ``answer`` (one game's) says the player who moves first wins.

        The conformance suite uses it to check :meth:`explain` against the plain minimax.
        """

    def judge(self, instance: Instance, got: Answer, expected: Answer) -> str | None:
        """``None`` if ``got`` is a right answer for ``instance``, else why it is wrong.

        The default accepts exactly ``expected``. A game with several right answers (any
        winning move, say) overrides this and checks ``got`` against the position itself.
        """
        if got == expected:
            return None
        return f"expected {self.format_answer(expected).strip()!r}, got {self.format_answer(got).strip()!r}"

    # ---- the two exact searches ----------------------------------------------------------
    @abc.abstractmethod
    def minimax(self, instance: Instance) -> Answer:
        """Plain game-tree search over whole positions, from the rules alone."""

    @abc.abstractmethod
    def oracle(self, instance: Instance) -> Answer:
        """Memoised exact search (Sprague-Grundy or a checked reduction); the reference."""

    @abc.abstractmethod
    def explain(self, instance: Instance) -> Explanation:
        """Components, Grundy values, winning moves and a line of play, from the oracle."""

    @abc.abstractmethod
    def exhaustive_spaces(self) -> Sequence[ExhaustiveSpace]:
        """The input families every solver is checked on in full."""

    # ---- batching (multi-game formats) -----------------------------------------------------
    def merge(self, instances: Sequence[Instance]) -> Instance:
        """One input holding several single instances (only when ``max_batch > 1``)."""
        raise NotImplementedError(f"{self.name} has no multi-game format")

    def split(self, instance: Instance) -> tuple[Instance, ...]:
        """The single instances a (possibly batched) instance holds, each a valid input."""
        return (instance,)

    def split_answer(self, instance: Instance, answer: Answer) -> tuple[Answer, ...]:
        """The answers to each of :meth:`split`'s instances."""
        return (answer,)

    # ---- what decides the outcome -------------------------------------------------------------
    def deciding_features(self) -> Sequence[Any]:
        """The features the outcome rests on (:class:`gamecert.kit.deciding.DecidingFeature`): the
        plan runs, for each, every value at every place it can stand, alone deciding the outcome,
        and sweeps them below a fault's size when it looks for a smaller failing input."""
        return ()

    # ---- shrinking beyond Hypothesis ---------------------------------------------------------
    def structure(self) -> Any:
        """How one single game is built of parts, for structural shrinking
        (:class:`gamecert.kit.shrink.Structure`: its parts, their values and value classes).
        None: the kit's default (a string's letters, a tuple's integers; see
        :func:`gamecert.kit.shrink.default_structure`)."""
        return None

    def smaller(self, instance: Instance) -> Iterator[Instance]:
        """Candidate inputs a little smaller than ``instance``, largest cuts first.

        Used after Hypothesis has shrunk a failure, to push its size down further (Hypothesis
        shrinks towards simple, not always towards small). The default handles a string
        (delete chunks of halving size) and a tuple of strings (drop items, then shrink each);
        candidates need not be valid inputs, invalid ones are skipped by the caller.
        """
        if isinstance(instance, str):
            yield from _smaller_strings(instance)
        elif isinstance(instance, tuple) and all(isinstance(x, str) for x in instance):
            for k in range(len(instance)):
                if len(instance) > 1:
                    yield instance[:k] + instance[k + 1 :]
            for k, item in enumerate(instance):
                for shorter in _smaller_strings(item):
                    yield instance[:k] + (shorter,) + instance[k + 1 :]

    # ---- conveniences ------------------------------------------------------------------
    def solve_text(self, text: str, solver: Solver | None = None) -> str:
        """Parse, solve (with the oracle unless told otherwise), format."""
        instance = self.parse_input(text)
        return self.format_answer((solver or self.oracle)(instance))

    def __repr__(self) -> str:
        return f"<game {self.name}>"


def _smaller_strings(s: str) -> Iterator[str]:
    """``s`` with one chunk deleted, chunk sizes halving from ``len(s) // 2`` to 1.

    >>> sorted(set(_smaller_strings("abc")))
    ['ab', 'ac', 'bc']
    """
    chunk = max(1, len(s) // 2)
    while True:
        for start in range(0, len(s), chunk):
            rest = s[:start] + s[start + chunk :]
            if rest:
                yield rest
        if chunk == 1:
            return
        chunk //= 2


# ---- small helpers games share ------------------------------------------------------------


def partitions(total: int, largest: int, parts: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a non-increasing tuple of positive parts, each at most
    ``largest``, with at most ``parts`` of them (no bound if None); largest first.

    >>> list(partitions(4, 4))
    [(4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    >>> list(partitions(4, 2, 2))
    [(2, 2)]
    """
    if total == 0:
        yield ()
        return
    if parts == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in partitions(total - first, first, None if parts is None else parts - 1):
            yield (first,) + rest


def mex(values: Iterable[int]) -> int:
    """Smallest non-negative integer not in ``values``.

    >>> mex([0, 1, 3])
    2
    >>> mex([])
    0
    """
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def input_lines(text: str) -> list[str]:
    """Split an input into lines the way a strict contest validator does.

    A final newline is optional and Windows line ends are accepted; anything after the last
    expected line is the caller's to reject.

    >>> input_lines("ab\\r\\ncd\\n")
    ['ab', 'cd']
    """
    if text.endswith("\n"):
        text = text[:-1]
    if "\r" not in text:  # the common case, fast on a million lines
        return text.split("\n")
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def require_line(lines: list[str], index: int, what: str) -> str:
    """Line ``index`` (0-based) or an :class:`InputError` saying it is missing."""
    if index >= len(lines):
        raise InputError(index + 1, f"missing line: expected {what}")
    return lines[index]


def reject_trailing(lines: list[str], used: int) -> None:
    """Reject anything after the first ``used`` lines."""
    if len(lines) > used:
        extra = lines[used]
        shown = extra if len(extra) <= 20 else extra[:20] + "..."
        raise InputError(used + 1, f"trailing data after the input: {shown!r}")


def reject_spaces(line: str, number: int) -> None:
    """Reject leading or trailing blanks, which a strict validator does not allow."""
    stripped = line.strip()
    if stripped != line:
        column = 1 if line[:1].isspace() else len(stripped) + 1
        raise InputError(number, "unexpected whitespace", column=column)


def parse_word(text: str, alphabet: str, alphabet_name: str, max_len: int, noun: str) -> str:
    """A one-line input holding one word of 1 to ``max_len`` characters from ``alphabet``.

    >>> parse_word("ab\\n", "ab", "a or b", 3, "string")
    'ab'
    >>> parse_word("abc\\n", "ab", "a or b", 3, "string")
    Traceback (most recent call last):
    gamecert.errors.InputError: line 1, column 3: only a or b are allowed, got 'c'
    """
    word = text[:-1] if text.endswith("\n") else text
    if word and len(word) <= max_len and not word.strip(alphabet) and _plain_alphabet(alphabet):
        # the common case in a few C calls (a certification parses a million short inputs): every
        # character is in an alphabet without blanks or line breaks, so this is the one line,
        # without blanks, within the length; anything else is read and named below
        return word
    lines = input_lines(text)
    word = require_line(lines, 0, f"a {noun} of 1 to {max_len} {alphabet_name}")
    reject_spaces(word, 1)
    if not word:
        raise InputError(1, f"the {noun} must have 1 to {max_len} letters, got an empty line")
    if word.strip(
        alphabet
    ):  # a letter outside the alphabet (strip is the fast check; the loop finds it)
        for column, ch in enumerate(word, 1):
            if ch not in alphabet:
                raise InputError(1, f"only {alphabet_name} are allowed, got {ch!r}", column=column)
    if len(word) > max_len:
        raise InputError(
            1, f"the {noun} must have 1 to {max_len} letters, got {len(word)}", column=max_len + 1
        )
    reject_trailing(lines, 1)
    return word


@functools.lru_cache(maxsize=64)
def _plain_alphabet(alphabet: str) -> bool:
    """Whether ``alphabet`` holds no blank and no line break (:func:`parse_word`'s quick path)."""
    return not any(ch.isspace() for ch in alphabet)


def parse_int(line: str, number: int, what: str, low: int, high: int) -> int:
    """An integer in ``[low, high]`` that is the whole line, or an :class:`InputError`."""
    reject_spaces(line, number)
    if not line:
        raise InputError(number, f"{what}: expected an integer, got an empty line")
    if not (line.isascii() and line.isdigit()) or (len(line) > 1 and line[0] == "0"):
        raise InputError(
            number, f"{what}: expected an integer without sign or leading zeros, got {line[:20]!r}"
        )
    value = int(line)
    if not low <= value <= high:
        raise InputError(number, f"{what} must be between {low} and {high}, got {value}")
    return value


class ensure_recursion:  # noqa: N801 - used as a function and as a context manager
    """Room for a search ``depth`` calls deep: raise Python's recursion limit (never lower it).

    Use it as a context manager, ``with ensure_recursion(n): ...``: the limit goes back to what
    it was at the end of the block, so a test framework that watches the limit (Hypothesis
    warns when a test leaves it changed, and the test suite turns warnings into errors) sees
    nothing. Called alone, it raises the limit for good (the older use).

    >>> import sys
    >>> before = sys.getrecursionlimit()
    >>> with ensure_recursion(before):
    ...     sys.getrecursionlimit() > before
    True
    >>> sys.getrecursionlimit() == before
    True
    """

    __slots__ = ("previous",)

    def __init__(self, depth: int) -> None:
        self.previous = sys.getrecursionlimit()
        needed = 4 * depth + 200
        if self.previous < needed:
            sys.setrecursionlimit(needed)

    def __enter__(self) -> ensure_recursion:
        return self

    def __exit__(self, *exc: object) -> None:
        if sys.getrecursionlimit() != self.previous:  # an oracle enters this once per input
            sys.setrecursionlimit(self.previous)
