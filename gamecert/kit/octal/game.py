"""Every part of a registered octal heap game, built from its code alone (:func:`octal_parts`):
the :class:`~gamecert.kit.game.Game` (:class:`OctalHeapGame`: formats, the exhaustive oracle,
explanations), its solvers, Hypothesis strategies and claims, so a new heap game is a few lines
per folder. The theory it rests on is :mod:`gamecert.kit.octal.theory`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from gamecert.errors import InputError, OutOfReach, UsageError
from gamecert.kit.claims import Claim
from gamecert.kit.deciding import DecidingFeature
from gamecert.kit.game import (
    ExhaustiveSpace,
    Explanation,
    Family,
    Game,
    drop_chunks,
    input_lines,
    mex,
    parse_int,
    partitions,
    reject_spaces,
    reject_trailing,
    require_line,
    shrink_targets,
)
from gamecert.kit.octal.theory import (
    NotPeriodicYet,
    OctalGame,
    periodicity_claim,
    plot_data,
    recurrence_claim,
)
from gamecert.kit.shrink import Structure
from gamecert.kit.tokens import INT32, AnswerReader

# ---- a registered game from a code ---------------------------------------------------------------

MAX_HEAPS = 100
MAX_HEAP = 1000
#: winning moves an explanation lists (all are counted)
SHOWN_MOVES = 12
#: moves of an explanation's line of play before it is cut
LINE_STEPS = 60


class OctalAnswer(NamedTuple):
    """An answer of a heap game: who wins and, when the first player does, a winning move.

    ``move`` is ``(i, a, b)``: heap ``i`` (1-based, in input order) is replaced by heaps of ``a``
    and ``b`` tokens, ``a >= b``, 0 standing for no heap; the move takes ``h_i - a - b`` tokens.
    Written ``Second``, or ``First`` and a line ``i a b`` (see :class:`OctalHeapGame`).
    """

    winner: str
    move: tuple[int, int, int] | None = None


def _pair(left: tuple[int, ...]) -> tuple[int, int]:
    """Heaps left by a move (an :meth:`OctalGame.options` tuple) as ``(a, b)``, ``a >= b``, 0 for none.

    >>> _pair(()), _pair((5,)), _pair((2, 3))
    ((0, 0), (5, 0), (3, 2))
    """
    if not left:
        return (0, 0)
    if len(left) == 1:
        return (left[0], 0)
    return (max(left), min(left))


def _shown(a: int, b: int) -> str:
    return f"{a} + {b}" if b else str(a) if a else "nothing"


def _mex_dp(digits: tuple[int, ...], table: list[int], upto: int) -> None:
    """Extend ``table`` (Grundy values) to ``upto``, enumerating moves straight from the digits.

    Written apart from :meth:`OctalGame.options` so the two solvers are independent.
    """
    for n in range(len(table), upto + 1):
        seen = set()
        for j in range(min(n, len(digits) - 1) + 1):
            d, r = digits[j], n - j
            if j and d & 1 and r == 0:
                seen.add(0)
            if j and d & 2 and r:
                seen.add(table[r])
            if d & 4:
                seen.update(table[a] ^ table[r - a] for a in range(1, r))
        table.append(mex(seen))


def _first_move_to(
    digits: tuple[int, ...], g: Callable[[int], int], h: int, target: int
) -> tuple[int, int] | None:
    """The first move from a heap of ``h`` to value ``target`` in the canonical order (fewest
    tokens taken, then smallest second heap), as ``(a, b)``; ``None`` if there is none.

    >>> _first_move_to((0, 0, 7), [0, 0, 1, 1, 2, 0, 3, 1].__getitem__, 7, 0)  # 0.07: 7 -> 5
    (5, 0)
    """
    for j, d in enumerate(digits):
        r = h - j
        if r < 0:
            break
        if j and r == 0 and d & 1 and target == 0:
            return (0, 0)
        if j and r and d & 2 and g(r) == target:
            return (r, 0)
        if d & 4:
            for b in range(1, r // 2 + 1):
                if g(r - b) ^ g(b) == target:
                    return (r - b, b)
    return None


def _last_move_to(
    digits: tuple[int, ...], table: list[int], h: int, target: int
) -> tuple[int, int] | None:
    """The last move from a heap of ``h`` to value ``target`` in the canonical order (most tokens
    taken, then largest second heap), as ``(a, b)``; ``None`` if there is none.

    >>> _last_move_to((0, 0, 7), [0, 0, 1, 1, 2, 0, 3, 1], 7, 0)  # 0.07: 7 -> 3 + 2, not 7 -> 5
    (3, 2)
    """
    for j in range(min(h, len(digits) - 1), -1, -1):
        d, r = digits[j], h - j
        if d & 4:
            for b in range(r // 2, 0, -1):
                if table[r - b] ^ table[b] == target:
                    return (r - b, b)
        if j and r and d & 2 and table[r] == target:
            return (r, 0)
        if j and not r and d & 1 and target == 0:
            return (0, 0)
    return None


_STANDALONE = """
CODE_DIGITS = @DIGITS@


def parse_input(text):
    lines = input_lines(text)
    m = parse_int(require_line(lines, 0, "m, the number of heaps"), 1, "m", 1, @MAX_HEAPS@)
    line = require_line(lines, 1, "%d heap sizes separated by single spaces" % m)
    reject_spaces(line, 2)
    fields = line.split(" ")
    if len(fields) != m:
        raise Invalid("line 2: expected m = %d heap sizes separated by single spaces, got %d fields" % (m, len(fields)))
    for tok in fields:
        if not tok:
            raise Invalid("line 2: two spaces in a row")
    heaps = tuple(parse_int(tok, 2, "a heap size", 1, @MAX_HEAP@) for tok in fields)
    reject_trailing(lines, 2)
    return heaps


def format_input(inp):
    return "%d\\n%s\\n" % (len(inp), " ".join(map(str, inp)))


def read_answer(reader, inp):
    if reader.word(("First", "Second"), "First or Second") == "Second":
        reader.finish()
        return ("Second", None)
    i = reader.integer(1, INT32[1], "the heap i of the move 'i a b'")
    x = reader.integer(0, @MAX_HEAP@, "the heap a of the move 'i a b'")
    y = reader.integer(0, @MAX_HEAP@, "the heap b of the move 'i a b'")
    reader.finish()
    return ("First", (i, max(x, y), min(x, y)))


def digit(taken):
    return CODE_DIGITS[taken] if taken < len(CODE_DIGITS) else 0


def options(n):
    for j, d in enumerate(CODE_DIGITS):
        rest = n - j
        if rest < 0:
            break
        if d & 1 and rest == 0 and j > 0:
            yield ()
        if d & 2 and rest > 0 and j > 0:
            yield (rest,)
        if d & 4 and rest >= 2:
            for a in range(1, rest // 2 + 1):
                yield (a, rest - a)


def grundy_values(top):
    g = [0] * (top + 1)
    for n in range(1, top + 1):
        seen = set()
        for left in options(n):
            value = 0
            for h in left:
                value ^= g[h]
            seen.add(value)
        m = 0
        while m in seen:
            m += 1
        g[n] = m
    return g


_VALUES = []


def judge(inp, got, expected):
    if len(_VALUES) <= max(inp):
        _VALUES[:] = grundy_values(max(inp))
    g = _VALUES
    total = 0
    for h in inp:
        total ^= g[h]
    winner, move = got
    if winner == "Second":
        return None if total == 0 else "wrong winner: the first player wins (Grundy xor %d); got Second" % total
    if total == 0:
        return "wrong winner: the second player wins (Grundy xor 0); got First"
    i, a, b = move
    if not 1 <= i <= len(inp):
        return "illegal move: there is no heap %d" % i
    h = inp[i - 1]
    taken = h - a - b
    parts = (a > 0) + (b > 0)
    bit = (1, 2, 4)[parts]
    if taken < 0 or (parts < 2 and taken == 0) or not digit(taken) & bit:
        return "illegal move: heap %d (%d) -> %d %d" % (i, h, a, b)
    after = total ^ g[h] ^ g[a] ^ g[b]
    if after:
        return "losing move: heap %d (%d) -> %d %d leaves Grundy xor %d, not 0" % (i, h, a, b, after)
    return None
"""


class OctalHeapGame(Game):
    """Heaps of tokens under an octal code; the player who cannot move loses.

    Input: line 1 ``m`` (1..100), line 2 the ``m`` heap sizes (1..1000), single spaces.
    Output: ``Second`` if the player to move loses; otherwise ``First`` and, on the next line, a
    winning move ``i a b``: heap ``i`` (1-based) becomes heaps of ``a`` and ``b`` tokens, 0 for
    no heap (so ``i 0 0`` takes the whole heap, ``i a 0`` leaves one heap of ``a``); the move
    takes ``h_i - a - b`` tokens, and ``a`` and ``b`` may come in either order. Any winning move
    is right (:meth:`judge` checks it against the position); the canonical answer names the
    first in input order: smallest ``i``, then fewest tokens taken, then smallest second heap.

    Size is the total number of tokens. The oracle is Sprague-Grundy (heaps are independent),
    the minimax searches whole positions (sorted heap tuples) from the rules.
    """

    time_limit = 1.0
    memory_limit_mb = 256
    minimax_reach = 12
    max_batch = 1

    def __init__(
        self, name: str, octal: OctalGame, max_heaps: int = MAX_HEAPS, max_heap: int = MAX_HEAP
    ) -> None:
        self.name = name  # type: ignore[misc]  # per instance: one class serves every code
        self.title = f"octal game {octal.code}"  # type: ignore[misc]
        self.rules = _octal_rules(octal)  # type: ignore[misc]
        self.input_format = (  # type: ignore[misc]
            f"Line 1: m (1 <= m <= {max_heaps}), the number of heaps. Line 2: the m heap sizes "
            f"(1 to {max_heap} each), separated by single spaces."
        )
        self.output_format = (  # type: ignore[misc]
            "Second if the player to move loses; otherwise First and, on the next line, a winning move "
            "'i a b': heap i (1-based) becomes heaps of a and b tokens (0: no heap; either order). "
            "Any winning move is accepted."
        )
        self.octal = octal
        self.max_heaps = max_heaps
        self.max_heap = max_heap
        self.max_size = max_heaps * max_heap  # type: ignore[misc]
        self.oracle_reach = self.max_size  # type: ignore[misc]
        #: heap size -> {Grundy value of an option: [how many moves reach it, the first few (a, b)]}
        self._index: dict[int, dict[int, list[Any]]] = {}

    @cached_property
    def samples(self) -> tuple[tuple[str, str], ...]:  # type: ignore[override]
        """Small positions answered by the plain minimax (an independent route: the samples
        check compares them with the oracle, winning move included), and one large position
        answered by the oracle, to show the format at full heap sizes."""
        out = []
        for heaps in ((1,), (2,), (3,), (1, 2), (2, 2), (4, 5), (1, 2, 3, 4), (3, 4, 5)):
            if (
                len(heaps) <= self.max_heaps
                and max(heaps) <= self.max_heap
                and sum(heaps) <= self.minimax_reach
            ):
                out.append((self.format_input(heaps), self.format_answer(self.minimax(heaps))))
        top = self.max_heap
        big = tuple(h for h in (top, top - 1, top // 2 + 1, 7) if 1 <= h <= top)[: self.max_heaps]
        out.append((self.format_input(big), self.format_answer(self.oracle(big))))
        return tuple(out)

    @property
    def standalone_cpp(self) -> str:
        """The C++ part of a test package's validator.cpp and check.cpp (``standalone.cpp`` beside
        this module, filled in with the code's digits and bounds; see docs/adding-a-game.md)."""
        from pathlib import Path

        text = (Path(__file__).with_name("standalone.cpp")).read_text()
        return (
            text.replace("@DIGITS@", ", ".join(map(str, self.octal.digits)))
            .replace("@MAX_HEAPS@", str(self.max_heaps))
            .replace("@MAX_HEAP@", str(self.max_heap))
        )

    @property
    def standalone_code(self) -> str:
        """The validator's and checker's part of a test package (`gamecert tests`,
        :mod:`gamecert.kit.standalone`): the input rules, and any winning move accepted, judged
        from Grundy values the checker computes from the code's digits by the mex rule."""
        return (
            _STANDALONE.replace("@DIGITS@", repr(tuple(self.octal.digits)))
            .replace("@MAX_HEAPS@", str(self.max_heaps))
            .replace("@MAX_HEAP@", str(self.max_heap))
        )

    def parse_input(self, text: str) -> tuple[int, ...]:
        lines = input_lines(text)
        m = parse_int(require_line(lines, 0, "m, the number of heaps"), 1, "m", 1, self.max_heaps)
        line = require_line(lines, 1, f"{m} heap sizes separated by single spaces")
        reject_spaces(line, 2)
        tokens = line.split(" ")
        if len(tokens) != m:
            raise InputError(
                2,
                f"expected m = {m} heap sizes separated by single spaces, got {len(tokens)} fields",
            )
        heaps = []
        column = 1
        for tok in tokens:
            if not tok:
                raise InputError(2, "two spaces in a row", column=column)
            try:
                heaps.append(parse_int(tok, 2, "a heap size", 1, self.max_heap))
            except InputError as exc:
                raise InputError(2, exc.rule, column=column) from None
            column += len(tok) + 1
        reject_trailing(lines, 2)
        return tuple(heaps)

    def format_input(self, instance: tuple[int, ...]) -> str:
        return f"{len(instance)}\n{' '.join(map(str, instance))}\n"

    size_measure = "tokens in all heaps"

    def size(self, instance: tuple[int, ...]) -> int:
        return sum(instance)

    # ---- answers -------------------------------------------------------------------------
    def parse_answer(self, text: str, instance: tuple[int, ...]) -> OctalAnswer:
        """``Second``, or ``First`` and three integers ``i a b``: ``i`` positive (the judge says
        when there is no heap ``i``), ``a`` and ``b`` in ``0..max_heap`` (:mod:`gamecert.kit.tokens`).

        >>> g = octal_parts("0.07").game
        >>> g.parse_answer("First\\n2 0 3\\n", (1, 5))
        OctalAnswer(winner='First', move=(2, 3, 0))
        """
        reader = AnswerReader(text)
        if reader.word(("First", "Second"), "First or Second") == "Second":
            reader.finish()
            return OctalAnswer("Second")
        i = reader.integer(1, INT32[1], "the heap i of the move 'i a b'")
        x = reader.integer(0, self.max_heap, "the heap a of the move 'i a b'")
        y = reader.integer(0, self.max_heap, "the heap b of the move 'i a b'")
        reader.finish()
        return OctalAnswer("First", (i, max(x, y), min(x, y)))

    def format_answer(self, answer: OctalAnswer) -> str:
        if answer.move is None:
            return f"{answer.winner}\n"
        i, a, b = answer.move
        return f"{answer.winner}\n{i} {a} {b}\n"

    def first_player_wins(self, answer: OctalAnswer) -> bool:
        return answer.winner == "First"

    def judge(self, instance: tuple[int, ...], got: Any, expected: Any) -> str | None:
        """``None`` if ``got`` names the right winner and, for the first player, a legal move that
        leaves a position of Grundy value 0; else why not. ``expected`` is not compared: any
        winning move is right.

        >>> g = octal_parts("0.07").game
        >>> g.judge((4,), OctalAnswer("First", (1, 2, 0)), g.oracle((4,)))
        'losing move: heap 1 (4) -> 2 leaves Grundy xor 1, not 0 (the second player wins from there); a winning move is 1 1 1'
        """
        if not isinstance(got, OctalAnswer) or got.winner not in ("First", "Second"):
            return f"not an answer of this game: {got!r}"
        seq = self._values(max(instance, default=0))
        total = 0
        for h in instance:
            total ^= seq[h]
        best = self.oracle(instance)
        canonical = " ".join(map(str, best.move)) if best.move else ""
        if got.winner == "Second":
            if not total:
                return None
            return f"wrong winner: the first player wins (Grundy xor {total}), e.g. with the move {canonical}; got Second"
        if not total:
            return (
                f"wrong winner: the second player wins (Grundy xor 0: every move leaves a non-zero xor); got First "
                f"with {' '.join(map(str, got.move or ()))}"
            )
        if got.move is None or len(got.move) != 3:
            return f"First needs a winning move 'i a b'; got {got!r}"
        i, a, b = got.move
        a, b = max(a, b), min(a, b)
        if not 1 <= i <= len(instance):
            return f"illegal move: there is no heap {i} (heaps are numbered 1..{len(instance)})"
        h = instance[i - 1]
        why = self._illegal(h, a, b)
        if why:
            return f"illegal move: heap {i} ({h}) -> {_shown(a, b)}: {why}"
        after = total ^ seq[h] ^ seq[a] ^ seq[b]
        if after:
            return (
                f"losing move: heap {i} ({h}) -> {_shown(a, b)} leaves Grundy xor {after}, not 0 (the second player "
                f"wins from there); a winning move is {canonical}"
            )
        return None

    def _illegal(self, h: int, a: int, b: int) -> str | None:
        """Why heap ``h`` -> heaps ``a >= b`` (0 for none) is not a move of the code, or ``None``."""
        taken = h - a - b
        if taken < 0:
            return f"the heap has only {h} tokens, {a + b} cannot be left"
        parts = (a > 0) + (b > 0)
        bit, what = ((1, "no heap"), (2, "one heap"), (4, "two heaps"))[parts]
        digit = self.octal.digits[taken] if taken < len(self.octal.digits) else 0
        if parts < 2 and taken == 0:
            return "that takes nothing and leaves the heap as it was"
        if not digit & bit:
            return (
                f"taking {taken} and leaving {what} is not a move of octal {self.octal.code} "
                f"(digit {taken} of the code is {digit}, which lacks the {bit})"
            )
        return None

    # ---- the searches ----------------------------------------------------------------------
    def minimax(self, instance: tuple[int, ...]) -> OctalAnswer:
        """Whole positions from the rules, no Grundy values: the first move (canonical order)
        that leaves a position where the player to move loses, else ``Second``."""
        if self.size(instance) > self.minimax_reach:
            raise OutOfReach(
                f"{self.name} minimax is built for at most {self.minimax_reach} tokens in all"
            )
        heaps = tuple(instance)
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1 :]
            for left in self.octal.options(h):
                if not _to_move_wins(self.octal, tuple(sorted(rest + left))):
                    return OctalAnswer("First", (i + 1, *_pair(left)))
        return OctalAnswer("Second")

    def _values(self, upto: int) -> list[int]:
        """The Grundy values ``G(0..)``, grown to cover heap ``upto`` (shared: read only)."""
        seq = self.octal._seq
        if len(seq) <= upto:
            self.octal.sequence(upto + 1)
        return seq

    def grundy(self, heap: int) -> int:
        return self._values(heap)[heap]

    def _moves_by_value(self, h: int) -> dict[int, list[Any]]:
        """For a heap of ``h``: each option value -> [number of moves reaching it, the first
        :data:`SHOWN_MOVES` of them as ``(a, b)`` in canonical order]."""
        found = self._index.get(h)
        if found is None:
            seq = self._values(h)
            found = {}
            for left in self.octal.options(h):  # each move once, in canonical order
                v = 0
                for x in left:
                    v ^= seq[x]
                entry = found.get(v)
                if entry is None:
                    entry = found[v] = [0, []]
                entry[0] += 1
                if len(entry[1]) < SHOWN_MOVES:
                    entry[1].append(_pair(left))
            self._index[h] = found
        return found

    def oracle(self, instance: tuple[int, ...]) -> OctalAnswer:
        """Sprague-Grundy: the xor of the heaps' values; the canonical winning move from each
        heap's table of option values."""
        seq = self._values(max(instance, default=0))
        total = 0
        for h in instance:
            total ^= seq[h]
        if not total:
            return OctalAnswer("Second")
        for i, h in enumerate(instance, 1):
            entry = self._moves_by_value(h).get(seq[h] ^ total)
            if entry:
                return OctalAnswer("First", (i, *entry[1][0]))
        raise AssertionError(
            f"{self.name}: a non-zero xor with no move to zero contradicts Sprague-Grundy"
        )

    def explain(self, instance: tuple[int, ...]) -> Explanation:
        seq = self._values(max(instance, default=0))
        components = tuple((f"heap {i} ({h} tokens)", seq[h]) for i, h in enumerate(instance, 1))
        total = 0
        for h in instance:
            total ^= seq[h]
        winning: list[str] = []
        count = heaps_with = 0
        if total:
            for i, h in enumerate(instance, 1):
                entry = self._moves_by_value(h).get(seq[h] ^ total)
                if entry:
                    count += entry[0]
                    heaps_with += 1
                    room = SHOWN_MOVES - len(winning)
                    winning.extend(
                        f"{i} {a} {b} (heap {i}: {h} -> {_shown(a, b)})" for a, b in entry[1][:room]
                    )
        notes = [
            "A move 'i a b' replaces heap i by heaps of a and b tokens (0: no heap); any winning move is a right answer, "
            "the first listed is the canonical one."
        ]
        if count > len(winning):
            notes.append(
                f"{count} winning moves in all, on {heaps_with} heap(s); the first {len(winning)} are listed."
            )
        outcome = f"{'First' if total else 'Second'} wins (xor {total})"
        return Explanation(
            outcome,
            components,
            total,
            tuple(winning),
            self._line_of_play(instance),
            tuple(notes),
            first_player_wins=bool(total),
        )

    def _line_of_play(self, instance: tuple[int, ...]) -> tuple[str, ...]:
        """Both sides play the canonical winning move when they have one, else the first legal
        move; heaps are renumbered left to right after each move. Cut after LINE_STEPS moves."""
        heaps = list(instance)
        line: list[str] = []
        player, other = "First", "Second"
        for _ in range(LINE_STEPS):
            seq = self._values(max(heaps, default=0))
            x = 0
            for h in heaps:
                x ^= seq[h]
            move = None
            for k, h in enumerate(heaps):
                if x:
                    entry = self._moves_by_value(h).get(seq[h] ^ x)
                    first = entry[1][0] if entry else None
                else:
                    left = next(iter(self.octal.options(h)), None)
                    first = None if left is None else _pair(left)
                if first is not None:
                    move = (k, first)
                    break
            if move is None:
                line.append(f"{player} has no move and loses")
                return tuple(line)
            k, (a, b) = move
            line.append(f"{player}: heap {k + 1} ({heaps[k]}) -> {_shown(a, b)}")
            heaps[k : k + 1] = [h for h in (a, b) if h]
            player, other = other, player
        line.append(
            f"... (cut after {LINE_STEPS} moves, {sum(heaps)} tokens left in {len(heaps)} heaps)"
        )
        return tuple(line)

    def exhaustive_spaces(self) -> list[ExhaustiveSpace]:
        reach = min(self.minimax_reach, self.max_size)
        return [
            ExhaustiveSpace(
                "heap-multisets",
                f"every multiset of heap sizes with at most {self.max_heaps} heaps and {reach} tokens in all",
                tuple(range(1, reach + 1)),
                lambda total: partitions(total, min(total, self.max_heap), self.max_heaps),
                one_of_each="multiset of heaps (largest heap first)",
            )
        ]

    def deciding_features(self) -> list[DecidingFeature]:
        """A heap's value: every heap size alone (its value alone decides), second after the
        smallest other heap of the same value (which cancels it), and last of as many heaps as
        the input allows (the cancelling heap and equal pairs before it)."""
        pairs = tuple(
            h for k in range(1, (self.max_heaps - 2) // 2 + 1) for h in (min(k, self.max_heap),) * 2
        )

        def partner(h: int) -> int | None:
            value = self.grundy(h)
            return next(
                (p for p in range(1, self.max_heap + 1) if p != h and self.grundy(p) == value), None
            )

        def places(h: int) -> list[str]:
            return ["alone"] + (
                ["second", "last"] if partner(h) is not None and self.max_heaps >= 2 else []
            )

        def heaps(h: int, place: str) -> tuple[int, ...]:
            if place == "alone":
                return (h,)
            p = partner(h)
            assert (
                p is not None
            )  # places() offers "second" and "last" only to a heap with a partner
            return (p, h) if place == "second" else pairs + (p, h)

        return [
            DecidingFeature(
                "heap-value",
                f"every heap size 1..{self.max_heap}: alone; second, after the smallest other heap of the same value, "
                f"which cancels it; last of {len(pairs) + 2} heaps (that heap and {len(pairs) // 2} equal pairs before it)",
                tuple(range(1, self.max_heap + 1)),
                places,
                lambda h, place: sum(heaps(h, place)),
                lambda h, place: [heaps(h, place)],
            )
        ]

    def structure(self) -> Structure:
        """For structural shrinking: the heaps, each a value 1..max_heap; heaps of equal Grundy
        value play alike (the class), so a heap may become the smallest heap of its value."""
        return Structure(
            tuple, tuple, lambda h: h, lambda h, v: v, 1, self.grundy, part_name="heap"
        )

    def smaller(self, instance: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Smaller inputs, largest cuts first: chunks of heaps dropped (halving sizes), two heaps
        merged into the smallest heap of their xor, then one heap made smaller, to 1, 2, ... up
        to one less. Every candidate is a valid input with fewer heaps, or as many and fewer tokens.

        >>> list(octal_parts("0.07").game.smaller((4, 1)))  # G(4) ^ G(1) = 2, first at heap 4
        [(1,), (4,), (4,), (1, 1), (2, 1), (3, 1)]
        """
        heaps = tuple(instance)
        if len(heaps) > 1:
            yield from drop_chunks(heaps)
            yield from self._merged(heaps)
        for k, h in enumerate(heaps):
            for less in shrink_targets(h):
                yield heaps[:k] + (less,) + heaps[k + 1 :]

    def _merged(self, heaps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Two heaps replaced by the smallest heap of the xor of their Grundy values (both
        dropped when it is 0): one heap fewer, the same winner for a right solver."""
        seq = self._values(self.max_heap)
        smallest: dict[int, int] = {}
        for h in range(self.max_heap, 0, -1):
            smallest[seq[h]] = h
        for i, j in itertools.combinations(range(len(heaps)), 2):
            value = seq[heaps[i]] ^ seq[heaps[j]]
            rest = heaps[:i] + heaps[i + 1 : j] + heaps[j + 1 :]
            if value == 0 and rest:
                yield rest
            elif value in smallest:
                yield heaps[:i] + (smallest[value],) + heaps[i + 1 : j] + heaps[j + 1 :]


def _octal_rules(octal: OctalGame) -> str:
    """The rules of a heap game in words, from its code's digits.

    >>> print(_octal_rules(OctalGame.parse("0.07")))
    Heaps of tokens (octal game 0.07); players alternate and the player who cannot move loses. A move takes 2 tokens from a heap, leaving nothing, one heap or two heaps.
    """
    kinds = ("nothing", "one heap", "two heaps")
    moves = []
    for k, digit in enumerate(octal.digits):
        leaves = [kinds[bit] for bit in range(3) if digit >> bit & 1]
        if not leaves:
            continue
        what = (
            "splits a heap in two without taking any"
            if k == 0
            else f"takes {k} token{'s' if k > 1 else ''} from a heap, leaving"
        )
        moves.append(what if k == 0 else f"{what} {_or(leaves)}")
    return (
        f"Heaps of tokens (octal game {octal.code}); players alternate and the player who cannot move loses. "
        f"A move {'; or '.join(moves)}."
    )


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


@functools.cache
def _to_move_wins(octal: OctalGame, heaps: tuple[int, ...]) -> bool:
    """Plain minimax over whole positions (sorted heap tuples), from the rules."""
    for i, h in enumerate(heaps):
        for left in set(octal.options(h)):
            after = tuple(sorted(heaps[:i] + heaps[i + 1 :] + left))
            if not _to_move_wins(octal, after):
                return True
    return False


def _tiled(args: tuple[int, list[int]]) -> tuple[int, ...]:
    """``m`` heaps repeating a short drawn block: a large input from a few drawn values."""
    m, block = args
    return tuple(block[k % len(block)] for k in range(m))


def _seeded(args: tuple[int, int, int, int]) -> tuple[int, ...]:
    """``m`` heaps drawn in ``low..high`` by a seeded generator: varied large inputs from four draws."""
    import random

    m, low, high, seed = args
    rng = random.Random(seed)
    return tuple(rng.randint(low, high) for _ in range(m))


@dataclass(frozen=True)
class OctalParts:
    """Every part of a registered heap game, built from its octal code. See :func:`octal_parts`."""

    name: str
    octal: OctalGame
    game: OctalHeapGame
    #: how many values the period search may compute (quadratic for splitting games)
    limit: int = 4096
    _table: list[int] = field(default_factory=lambda: [], repr=False)
    #: (heap, target value) -> winning move (a, b) or None, one cache per solver
    _table_moves: dict[tuple[int, int], Any] = field(default_factory=dict, repr=False)
    _dp_moves: dict[tuple[int, int], Any] = field(default_factory=dict, repr=False)

    # ---- fast/ ----------------------------------------------------------------------------
    def periodic_table(self, instance: tuple[int, ...]) -> OctalAnswer:
        """Grundy values from the table the periodicity theorem establishes: O(1) a heap; the
        canonical winning move (first heap, fewest tokens taken, smallest second heap), found by
        enumerating the moves of each heap from the digits.

        For a code not shown periodic within ``limit`` values this raises
        :class:`NotPeriodicYet`; ``mex_dp`` still works.
        """
        per = self.octal.periodicity(self.limit)
        g = per.grundy
        total = 0
        for h in instance:
            total ^= g(h)
        if not total:
            return OctalAnswer("Second")
        for i, h in enumerate(instance, 1):
            key = (h, g(h) ^ total)
            if key not in self._table_moves:
                self._table_moves[key] = _first_move_to(self.octal.digits, g, *key)
            move = self._table_moves[key]
            if move is not None:
                return OctalAnswer("First", (i, *move))
        raise AssertionError(f"{self.name}: no move to xor 0 from a non-zero position")

    def mex_dp(self, instance: tuple[int, ...]) -> OctalAnswer:
        """Direct mex dynamic programme over heap sizes, grown to the largest heap asked. Names
        the *last* winning move (last heap, most tokens taken, largest second heap): a different
        right answer from the canonical one, which only the game's judge accepts."""
        _mex_dp(self.octal.digits, self._table, max(instance))
        table = self._table
        total = 0
        for h in instance:
            total ^= table[h]
        if not total:
            return OctalAnswer("Second")
        for i in range(len(instance), 0, -1):
            h = instance[i - 1]
            key = (h, table[h] ^ total)
            if key not in self._dp_moves:
                self._dp_moves[key] = _last_move_to(self.octal.digits, table, *key)
            move = self._dp_moves[key]
            if move is not None:
                return OctalAnswer("First", (i, *move))
        raise AssertionError(f"{self.name}: no move to xor 0 from a non-zero position")

    @property
    def solvers(self) -> dict[str, Callable[[Any], Any]]:
        return {"periodic_table": self.periodic_table, "mex_dp": self.mex_dp}

    # ---- strategies/ ----------------------------------------------------------------------
    def instances(self) -> Any:
        """Heap lists over the whole input space, corners weighted in: one heap, many heaps,
        heaps at the largest size, heaps around the end of the preperiod.

        Large inputs are built from a few drawn values (a short block tiled to ``m`` heaps, or
        ``m`` heaps from a seeded generator), so Hypothesis draws and shrinks them cheaply.
        """
        from hypothesis import strategies as st

        g = self.game
        size = st.integers(1, g.max_heap)
        count = st.one_of(
            st.integers(1, g.max_heaps), st.just(g.max_heaps)
        )  # the maximum weighted in
        small = st.integers(1, min(g.max_heap, 40))
        corners = [
            st.tuples(count, st.lists(size, min_size=1, max_size=4)).map(_tiled),
            st.tuples(count, st.just(1), size, st.integers(0, 2**32 - 1)).map(_seeded),
            st.lists(small, min_size=1, max_size=8).map(tuple),
            size.map(lambda h: (h,)),
            st.just(tuple([g.max_heap] * g.max_heaps)),
            st.tuples(
                count, st.lists(st.sampled_from([1, 2, 3, g.max_heap]), min_size=1, max_size=4)
            ).map(_tiled),
        ]
        edge = self._edge_sizes()
        if edge:
            corners.append(st.lists(st.sampled_from(edge), min_size=1, max_size=6).map(tuple))
        return st.one_of(corners)

    def oracle_instances(self) -> Any:
        """The oracle's tables reach every allowed heap (and it is O(m) a position once they are
        built): the same space."""
        return self.instances()

    def features(self, instance: tuple[int, ...]) -> Iterator[str]:
        from gamecert.kit.coverage import bucket

        g = self.game
        yield "heaps " + bucket(len(instance), (1, 2, 8, g.max_heaps - 1, g.max_heaps))
        yield "largest heap " + bucket(max(instance), (1, 3, 40, g.max_heap - 1, g.max_heap))
        edge = self._edge_sizes()
        if edge and any(h >= max(edge) for h in instance):
            yield "a heap past the preperiod"
        answer = g.oracle(instance)
        if answer.move is None:
            yield "second player wins"
        else:
            yield "first player wins"
            _, a, b = answer.move
            yield "the canonical winning move " + (
                "splits a heap" if b else "leaves one heap" if a else "takes a whole heap"
            )

    def largest(self) -> list[tuple[int, ...]]:
        g = self.game
        return [
            tuple([g.max_heap] * g.max_heaps),
            tuple(range(g.max_heap, g.max_heap - g.max_heaps, -1)),
            (g.max_heap,),
        ]

    # ---- designed families (component coverage and worst cases) -----------------------------
    def coverage(self) -> list[Family]:
        """Every heap size alone and beside a heap of the same value (xor 0); every heap count."""
        g = self.game
        top, most = g.max_heap, g.max_heaps

        def mixed() -> Iterator[tuple[int, ...]]:
            for h in range(1, top + 1):
                twin = next(
                    (t for t in range(1, top + 1) if t != h and g.grundy(t) == g.grundy(h)), h
                )
                yield (h, twin) if most >= 2 else (h,)

        def counts() -> Iterator[tuple[int, ...]]:
            import random

            rng = random.Random(8_18)
            return (tuple(rng.randint(1, top) for _ in range(m)) for m in range(1, most + 1))

        return [
            Family(
                "heap-size-alone",
                f"every heap size 1..{top} as the only heap",
                lambda: ((h,) for h in range(1, top + 1)),
                top,
            ),
            Family(
                "heap-size-mixed",
                f"every heap size 1..{top} beside another heap of the same Grundy value "
                "(xor 0: the second player wins)",
                mixed,
                top,
            ),
            Family("heap-count", f"every number of heaps 1..{most}, random sizes", counts, most),
        ]

    def worst_cases(self) -> list[Family]:
        """Maximal inputs with varied heaps, and a position whose only winning moves are in the
        last heap."""
        g = self.game
        top, most = g.max_heap, g.max_heaps

        def varied() -> list[tuple[int, ...]]:
            import random

            rng = random.Random(8_19)
            return [
                tuple([top] * most),
                tuple(rng.randint(max(1, top // 10), top) for _ in range(most)),
            ]

        return [
            Family(
                "max-varied",
                f"{most} heaps of {top}; {most} random heaps",
                varied,
                2,
                kind="worst",
                adversary="input size: the most heaps at the largest sizes, varied",
            ),
            Family(
                "late-winning-move",
                "heaps of value 0 none of which can move to the last heap's value, then that "
                "heap: every winning move is in the last heap",
                lambda: self._late_move()[:1],
                len(self._late_move()[:1]),
                kind="worst",
                adversary="a winning move as late as possible (a search that gives up early)",
            ),
        ]

    def _late_move(self) -> list[tuple[int, ...]]:
        """One input (none if the code allows no such shape): ``max_heaps - 1`` heaps of the
        largest size ``h`` with value 0 that has no move to value ``v``, then the largest heap
        of value ``v > 0``."""
        g = self.game
        for last in range(g.max_heap, 0, -1):
            v = g.grundy(last)
            if not v:
                continue
            for h in range(g.max_heap, 0, -1):
                if g.grundy(h) == 0 and v not in g._moves_by_value(h):
                    return [(h,) * (g.max_heaps - 1) + (last,)]
            return []
        return []

    def _edge_sizes(self) -> list[int]:
        try:
            per = self.octal.periodicity(self.limit)
        except NotPeriodicYet:
            return []
        e, p = per.preperiod, per.period
        return sorted(
            {
                h
                for h in (e - 1, e, e + 1, e + p - 1, e + p, e + 2 * p)
                if 1 <= h <= self.game.max_heap
            }
        )

    # ---- proofs/ --------------------------------------------------------------------------
    @property
    def claims(self) -> list[Claim]:
        return [
            periodicity_claim(self.octal, self.limit),
            recurrence_claim(self.octal, limit=self.limit),
        ]

    @property
    def plots(self) -> list[Callable[[], Any]]:
        return [functools.partial(plot_data, self.octal, self.name, self.limit)]

    def exports(self, part: str) -> dict[str, Any]:
        """What the module of ``part`` (``oracles``, ``fast``, ``strategies``, ``proofs``) defines.

        >>> sorted(octal_parts("0.07", "dawson_kayles").exports("strategies"))
        ['coverage', 'features', 'instances', 'largest', 'oracle_instances', 'worst_cases']
        """
        table: dict[str, dict[str, Any]] = {
            "oracles": {"GAME": self.game},
            "fast": {"SOLVERS": self.solvers},
            "strategies": {
                "instances": self.instances,
                "oracle_instances": self.oracle_instances,
                "features": self.features,
                "largest": self.largest,
                "coverage": self.coverage,
                "worst_cases": self.worst_cases,
            },
            "proofs": {"CLAIMS": self.claims, "PLOTS": self.plots},
        }
        if part not in table:
            raise UsageError(f"unknown part {part!r}; the parts are {', '.join(table)}")
        return table[part]


@functools.cache
def octal_parts(code: str, name: str | None = None) -> OctalParts:
    """Every part of the heap game with octal ``code``, registered as ``name``.

    The same object is returned for the same arguments, so the four modules share it. Each
    module of the game is two lines, for example ``oracles/dawson_kayles.py``::

        from gamecert.kit.octal import octal_parts
        globals().update(octal_parts("0.07", "dawson_kayles").exports("oracles"))

    (``fast``, ``strategies`` and ``proofs`` the same with their folder name.) The default name
    is ``octal_`` and the code's digits: ``octal_0_07``.

    >>> parts = octal_parts("0.07", "dawson_kayles")
    >>> parts.game.name, parts.game.solve_text("2\\n3 4\\n")  # G(3) ^ G(4) = 1 ^ 2; 4 -> 2 leaves 1 ^ 1
    ('dawson_kayles', 'First\\n2 2 0\\n')
    """
    octal = OctalGame.parse(code)
    if name is None:
        name = "octal_" + octal.code.replace(".", "_")
    if not name.isidentifier():
        raise UsageError(f"game name {name!r} must be a Python identifier (it is a module name)")
    return OctalParts(name, octal, OctalHeapGame(name, octal))
