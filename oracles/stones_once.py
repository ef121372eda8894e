"""stones_once (Codeforces 768E, "Game of Stones"): rules, formats and exact searches.

There are ``n`` piles. A move removes a positive number of stones from one pile, but the same
number can never be removed from the same pile twice. A player who cannot move loses. Sam moves
first, Jon second; the answer is ``YES`` if Jon wins, else ``NO``.

A pile's position is its size and the set of amounts already taken from it. Amounts larger than
what is left can never be taken again, so they are dropped from the set: that is the only
normalisation, and it follows from the rules. Both searches start from the rules alone:

- :meth:`StonesOnce.minimax`: a plain win/lose search over whole positions (every pile with its
  own set), for inputs of a few stones in all;
- :meth:`StonesOnce.oracle`: Sprague-Grundy. A move touches one pile and its legality depends
  only on that pile's own history, so the piles are independent components; each pile's Grundy
  value comes from a memoised search over (stones left, amounts taken), and the position's value
  is their xor.

The size of an input (what ``minimax_reach`` and ``oracle_reach`` are stated in) is the total
number of stones, at most ``60 * 10**6``.
"""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from collections.abc import Iterator
from functools import cache
from types import MappingProxyType

from gamecert.errors import InputError, OutOfReach
from gamecert.kit.core import Core
from gamecert.kit.deciding import DecidingFeature
from gamecert.kit.game import (
    ExhaustiveSpace,
    Explanation,
    Game,
    drop_chunks,
    input_lines,
    parse_int,
    partitions,
    reject_trailing,
    require_line,
    shrink_targets,
)
from gamecert.kit.shrink import Structure
from gamecert.kit.tokens import AnswerReader

MAX_N = 10**6
MAX_S = 60
#: answer: "YES" if Jon (the second player) wins, else "NO"
Answer = str

# ---- one pile ---------------------------------------------------------------------------------


def pile_moves(left: int, taken: frozenset[int]) -> Iterator[tuple[int, int, frozenset[int]]]:
    """Moves from a pile with ``left`` stones whose amounts ``taken`` are used up.

    Yields ``(amount, stones left after, amounts still forbidden after)``; amounts larger than
    what is left are dropped from the set, since they can never be taken anyway.

    >>> [(k, rest, sorted(t)) for k, rest, t in pile_moves(4, frozenset({1}))]
    [(2, 2, [1, 2]), (3, 1, [1]), (4, 0, [])]
    """
    for amount in range(1, left + 1):
        if amount in taken:
            continue
        rest = left - amount
        yield amount, rest, frozenset(a for a in (*taken, amount) if a <= rest)


@cache
def _grundy(left: int, taken_mask: int) -> int:
    """Grundy value of one pile; ``taken_mask`` has bit ``a`` set when amount ``a`` is used up.

    The same position as :func:`pile_moves` describes, with the set held as an integer so that
    the search over every pile size up to 60 (about 110,000 positions) takes under a second.
    """
    reached = 0
    for amount in range(1, left + 1):
        if taken_mask >> amount & 1:
            continue
        rest = left - amount
        reached |= 1 << _grundy(rest, (taken_mask | 1 << amount) & ((2 << rest) - 1))
    value = 0
    while reached >> value & 1:
        value += 1
    return value


def _mask(taken: frozenset[int]) -> int:
    mask = 0
    for a in taken:
        mask |= 1 << a
    return mask


def state_grundy(left: int, taken: frozenset[int] = frozenset()) -> int:
    """Grundy value of a pile with ``left`` stones and the amounts ``taken`` used up.

    >>> [state_grundy(s) for s in range(7)]
    [0, 1, 1, 2, 2, 2, 3]
    >>> state_grundy(3, frozenset({1}))
    1
    """
    return _grundy(left, _mask(frozenset(a for a in taken if a <= left)))


def pile_grundy(size: int) -> int:
    """Grundy value of a fresh pile of ``size`` stones, by search over the rules."""
    if size < 0:
        raise ValueError("a pile size is never negative")
    return _grundy(size, 0)


# ---- whole positions ----------------------------------------------------------------------------

Pile = tuple[int, frozenset[int]]


def _normal(piles: Iterator[Pile] | tuple[Pile, ...]) -> tuple[Pile, ...]:
    # empty piles allow no move; dropping them and sorting changes no outcome
    return tuple(sorted((p for p in piles if p[0] > 0), key=lambda p: (p[0], sorted(p[1]))))


@cache
def _to_move_wins(piles: tuple[Pile, ...]) -> bool:
    """Plain minimax over whole positions: no Sprague-Grundy, no per-pile values."""
    for i, (left, taken) in enumerate(piles):
        for _, rest, after in pile_moves(left, taken):
            if not _to_move_wins(_normal((*piles[:i], (rest, after), *piles[i + 1 :]))):
                return True
    return False


def _answer(first_player_wins: bool) -> Answer:
    return "NO" if first_player_wins else "YES"


class StonesOnce(Game):
    name = "stones_once"
    title = "Game of Stones (Codeforces 768E)"
    rules = (
        "n piles of stones; Sam moves first, then Jon, alternately. A move removes a positive number of "
        "stones from one pile, but never a number already removed from that same pile. A player who "
        "cannot move loses."
    )
    input_format = "Line 1: n (1 <= n <= 10^6). Then n lines, each a pile size s (1 <= s <= 60)."
    output_format = "YES if Jon (the second player) wins with optimal play, else NO."
    time_limit = 3.0
    memory_limit_mb = 256
    samples = (("1\n5\n", "NO\n"), ("2\n1\n2\n", "YES\n"))
    minimax_reach = 18  # total stones; every multiset of up to 18 stones takes about a second
    oracle_reach = MAX_N * MAX_S  # per-pile values are cached; a whole input is one xor pass
    max_size = MAX_N * MAX_S
    size_measure = "stones in all"
    #: the certification core (gamecert.kit.core), sized for a JVM per test: 10 tests/s a runner, 2 runners
    certification_core = MappingProxyType(
        {
            "default": Core(
                families={"pile-size-mixed": 60, "pile-count": 50},
                exhaustive={"pile multisets": 9, "one or two piles": 14, "pile sequences": 1},
                reason=(
                    "a pile's value is the largest k with k(k+1)/2 <= s (proofs/stones_once), 0..10 "
                    "for s to 60; the families run every pile size 1..60 alone, beside its "
                    "cancelling partner and among 100 piles, every size mixed, pile counts 1..50 "
                    "and the ladder; every multiset to 9 stones and every one or two piles to 14 "
                    "meet the values 0..4 beside each other: about 630 runs, within a minute for a "
                    "JVM per test on 2 runners (57 s measured for 690, with every order of piles to "
                    "6 stones; every order is the depth's, beyond its first size)"
                ),
            ),
            "thorough": Core(
                exhaustive={"pile multisets": 24},
                reason="every family whole, pile multisets to 24 stones, every one or two piles",
            ),
        }
    )

    # ---- input ---------------------------------------------------------------------------
    #: the validator's and checker's part of a test package (`gamecert tests`; gamecert.kit.standalone)
    standalone_code = """
def parse_input(text):
    lines = input_lines(text)
    n = parse_int(require_line(lines, 0, "n, the number of piles"), 1, "n", 1, 10 ** 6)
    piles = []
    for k in range(n):
        line = require_line(lines, 1 + k, "pile %d of n = %d" % (k + 1, n))
        piles.append(parse_int(line, k + 2, "pile %d of %d" % (k + 1, n), 1, 60))
    reject_trailing(lines, 1 + n)
    return tuple(piles)


def format_input(inp):
    return "%d\\n" % len(inp) + "".join("%d\\n" % p for p in inp)


def read_answer(reader, inp):
    answer = reader.word(("YES", "NO"), "YES or NO")
    reader.finish()
    return answer


def judge(inp, got, expected):
    return None if got == expected else "expected %s, got %s" % (expected, got)
"""

    def parse_input(self, text: str) -> tuple[int, ...]:
        lines = input_lines(text)
        n = parse_int(require_line(lines, 0, "n, the number of piles"), 1, "n", 1, MAX_N)
        body = lines[1 : 1 + n]
        try:  # the fast path: every line is exactly one of "1" .. "60"
            piles = tuple(map(_PILE_TEXT.__getitem__, body))
        except KeyError:
            for k, line in enumerate(body, 2):
                parse_int(line, k, f"pile {k - 1} of {n}", 1, MAX_S)
            raise AssertionError("a line the fast path rejected passed the strict check") from None
        if len(piles) < n:
            raise InputError(
                len(piles) + 2, f"missing line: expected pile {len(piles) + 1} of n = {n}"
            )
        reject_trailing(lines, 1 + n)
        return piles

    def format_input(self, instance: tuple[int, ...]) -> str:
        return f"{len(instance)}\n" + "\n".join(map(_PILE_STR.__getitem__, instance)) + "\n"

    def size(self, instance: tuple[int, ...]) -> int:
        return sum(instance)

    # ---- answers ---------------------------------------------------------------------------
    def parse_answer(self, text: str, instance: tuple[int, ...]) -> Answer:
        reader = AnswerReader(text)
        answer = reader.word(("YES", "NO"), "YES or NO")
        reader.finish()
        return answer

    def format_answer(self, answer: Answer) -> str:
        return answer + "\n"

    def first_player_wins(self, answer: Answer) -> bool:
        return answer == "NO"  # the question is whether Jon, the second player, wins

    def judge(self, instance: tuple[int, ...], got: Answer, expected: Answer) -> str | None:
        """One right answer; the message says why, from the piles' Grundy values."""
        if got == expected:
            return None
        total = self.grundy(instance)
        why = (
            "the xor of the piles' Grundy values is 0, so Jon (second) wins"
            if total == 0
            else (f"the xor of the piles' Grundy values is {total} != 0, so Sam (first) wins")
        )
        return f"expected {expected}, got {got}: {why}"

    # ---- the two exact searches --------------------------------------------------------------
    def minimax(self, instance: tuple[int, ...]) -> Answer:
        if self.size(instance) > self.minimax_reach:
            raise OutOfReach(
                f"stones_once minimax is built for inputs of up to {self.minimax_reach} stones in all"
            )
        return _answer(_to_move_wins(_normal((s, frozenset()) for s in instance)))

    def grundy(self, instance: tuple[int, ...]) -> int:
        """Sprague-Grundy: the xor of the piles' values (a size seen an even number of times cancels)."""
        total = 0
        for size, count in Counter(instance).items():
            if count % 2:
                total ^= pile_grundy(size)
        return total

    def oracle(self, instance: tuple[int, ...]) -> Answer:
        return _answer(self.grundy(instance) != 0)

    # ---- explanation ---------------------------------------------------------------------------
    def explain(self, instance: tuple[int, ...]) -> Explanation:
        counts = sorted(Counter(instance).items())
        components = tuple(
            (
                f"pile of {size}"
                + (f" (x{count}, {'odd' if count % 2 else 'even'} count)" if count > 1 else ""),
                pile_grundy(size),
            )
            for size, count in counts
        )
        total = self.grundy(instance)
        winning = tuple(
            f"take {amount} from a pile of {size}"
            for size, _ in counts
            for amount, rest, after in pile_moves(size, frozenset())
            if total ^ pile_grundy(size) ^ state_grundy(rest, after) == 0
        )
        line = _line_of_play(instance)
        outcome = (
            f"Jon (second) wins: YES (xor {total} == 0)"
            if total == 0
            else f"Sam (first) wins: NO (xor {total} != 0)"
        )
        notes = (
            "A pile's Grundy value is its search value over (stones left, amounts taken);"
            " piles are independent, so the position's value is their xor.",
        )
        return Explanation(
            outcome, components, total, winning, line, notes, first_player_wins=total != 0
        )

    def exhaustive_spaces(self) -> list[ExhaustiveSpace]:
        return [
            ExhaustiveSpace(
                "pile multisets",
                "every multiset of pile sizes with at most 30 stones in all (piles in any order play alike)",
                tuple(range(1, 31)),
                multisets_of_total,
                one_of_each="multiset of piles (largest pile first)",
            ),
            ExhaustiveSpace(
                "one or two piles",
                "every single pile 1..60 and every pair of piles 1..60 (sizes are total stones, up to 120)",
                tuple(range(1, 2 * MAX_S + 1)),
                _one_or_two_piles,
                one_of_each="pair of piles (the larger first)",
            ),
            # the spaces above list one order of each multiset: this one lists every order, so a
            # program that reads the piles' order (the first pile, the last) is swept at its
            # smallest too, as far as every order is cheap (4,095 inputs to 12 stones)
            ExhaustiveSpace(
                "pile sequences",
                f"every sequence of piles, in every order, with at most {SEQUENCE_REACH} stones in all",
                tuple(range(1, SEQUENCE_REACH + 1)),
                pile_sequences,
                every_input=True,
            ),
        ]

    def deciding_features(self) -> list[DecidingFeature]:
        """A pile's value: every pile size 1..60 alone (Jon loses), and beside the smallest other
        pile of the same value (Jon wins exactly when both are valued right): second (the first
        place is the partner's own setting, when the partner's partner is this pile), and after or
        before 98 neutral piles (49 equal pairs of varied sizes)."""
        return [
            DecidingFeature(
                "pile-value",
                "every pile size 1..60: alone (first of one); second, after the smallest other pile of the same value, "
                "which cancels it; last of 100 piles and first of 100 piles (the cancelling pile and 49 equal "
                "pairs of sizes 1..49 beside it)",
                tuple(range(1, MAX_S + 1)),
                lambda size: ("alone", "second", "last of 100", "first of 100"),
                lambda size, place: (
                    size
                    + (0 if place == "alone" else _partner_pile(size))
                    + (2 * sum(range(1, 50)) if place.endswith("100") else 0)
                ),
                lambda size, place: [_pile_decides(size, place)],
            )
        ]

    def structure(self) -> Structure:
        """For structural shrinking: the piles, each a value 1..60; piles of equal Grundy value
        play alike (the class), so a pile may become the smallest pile of its value."""
        return Structure(
            tuple, tuple, lambda p: p, lambda p, v: v, 1, pile_grundy, part_name="pile"
        )

    def smaller(self, instance: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Smaller inputs, largest cuts first: the copies of one size cut to one or two (its
        count's parity kept, so the xor is kept), pairs of one size dropped, chunks of piles
        dropped (halving sizes), two piles merged into the smallest pile of their xor (inputs
        of up to 64 piles; fewer piles, maybe more stones); then one size made smaller (every
        copy, then the last copy alone), to 1, 2, ... up to one less. Every candidate is a
        valid input with fewer piles, or as many piles and fewer stones.

        >>> list(GAME.smaller((3, 3, 3)))[:8]
        [(3,), (3, 3), (3,), (3,), (3,), (1, 1, 1), (3, 3, 1), (2, 2, 2)]
        """
        piles = tuple(instance)
        counts = Counter(piles)
        for size, count in counts.items():
            keep = 1 if count % 2 else 2
            if count > keep:
                yield _keep_copies(piles, size, keep)
            if count % 2 == 0 and len(counts) > 1:
                yield _keep_copies(piles, size, 0)
        if len(piles) > 1:
            yield from drop_chunks(piles)
        yield from _merged(piles)
        for size in sorted(counts, reverse=True):
            last = len(piles) - 1 - piles[::-1].index(size)
            for target in shrink_targets(size):
                if counts[size] > 1:
                    yield tuple(target if p == size else p for p in piles)
                yield piles[:last] + (target,) + piles[last + 1 :]


def _partner_pile(size: int) -> int:
    """The smallest pile other than ``size`` with the same value.

    >>> _partner_pile(1), _partner_pile(50), pile_grundy(45) == pile_grundy(50)
    (2, 45, True)
    """
    value = pile_grundy(size)
    return next(p for p in range(1, MAX_S + 1) if p != size and pile_grundy(p) == value)


def _pile_decides(size: int, place: str) -> tuple[int, ...]:
    """The piles in which ``size`` at ``place`` decides (see :meth:`StonesOnce.deciding_features`).

    >>> _pile_decides(50, "second"), _pile_decides(50, "last of 100")[-3:], len(_pile_decides(3, "first of 100"))
    ((45, 50), (49, 45, 50), 100)
    """
    if place == "alone":
        return (size,)
    partner = _partner_pile(size)
    pairs = tuple(p for k in range(1, 50) for p in (k, k))
    return {
        "second": (partner, size),
        "last of 100": pairs + (partner, size),
        "first of 100": (size, partner) + pairs,
    }[place]


def _merged(piles: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Two piles replaced by the smallest pile of the xor of their values (both dropped when it
    is 0): one pile fewer (it may hold more stones than the two did), the same answer from a
    right solver. Only for up to 64 piles.

    >>> list(_merged((2, 3, 4)))  # values 1, 2, 2: 1 ^ 2 = 3 is first worth a pile of 6
    [(6, 4), (6, 3), (2,)]
    """
    if len(piles) > 64:
        return
    smallest = {}
    for size in range(MAX_S, 0, -1):
        smallest[pile_grundy(size)] = size
    for i, j in itertools.combinations(range(len(piles)), 2):
        value = pile_grundy(piles[i]) ^ pile_grundy(piles[j])
        rest = piles[:i] + piles[i + 1 : j] + piles[j + 1 :]
        if value == 0 and rest:
            yield rest
        elif value in smallest:  # a xor no single pile has (values reach 10, xors 15) cannot merge
            yield piles[:i] + (smallest[value],) + piles[i + 1 : j] + piles[j + 1 :]


def _keep_copies(piles: tuple[int, ...], size: int, keep: int) -> tuple[int, ...]:
    """``piles`` with only the first ``keep`` piles of ``size``.

    >>> _keep_copies((1, 2, 1, 1), 1, 1)
    (1, 2)
    """
    out, seen = [], 0
    for p in piles:
        if p == size:
            seen += 1
            if seen > keep:
                continue
        out.append(p)
    return tuple(out)


_PILE_TEXT = {str(s): s for s in range(1, MAX_S + 1)}
#: a pile's line, by its size (format_input of a million piles in a fraction of a second)
_PILE_STR = [str(s) for s in range(MAX_S + 1)]
_LINE_STEPS = 60


def _line_of_play(instance: tuple[int, ...]) -> tuple[str, ...]:
    """Optimal play from the oracle's values: the player who can keeps the xor at 0, the other
    takes the fewest stones it can. Cut after ``_LINE_STEPS`` moves (10**6 piles last long).

    Piles in the same state are interchangeable, so the search for a move runs over the
    distinct states, not over every pile.
    """
    where: dict[Pile, list[int]] = {}
    for i, s in enumerate(instance):
        where.setdefault((s, frozenset()), []).append(i)
    total = 0
    for (s, _), indices in where.items():
        if len(indices) % 2:
            total ^= pile_grundy(s)
    line: list[str] = []
    players = itertools.cycle(("Sam", "Jon"))
    player = next(players)
    while len(line) < _LINE_STEPS:
        order = sorted(where, key=lambda st: where[st][0])
        if not order:
            line.append(f"{player} has no move left and loses")
            return tuple(line)
        if total:  # a state of value v can move to any smaller value, so to v ^ total < v
            state = next(st for st in order if state_grundy(*st) ^ total < state_grundy(*st))
            target = state_grundy(*state) ^ total
            amount, rest, after = next(
                m for m in pile_moves(*state) if state_grundy(m[1], m[2]) == target
            )
        else:  # lost: take the fewest stones possible, from the lowest-numbered pile
            state, (amount, rest, after) = min(
                ((st, next(pile_moves(*st))) for st in order),
                key=lambda sm: (sm[1][0], where[sm[0]][0]),
            )
        i = heapq.heappop(where[state])  # the lowest-numbered pile in that state
        if not where[state]:
            del where[state]
        if any(pile_moves(rest, after)):  # a pile with no legal move left plays no further part
            heapq.heappush(where.setdefault((rest, after), []), i)
        total ^= state_grundy(*state) ^ state_grundy(rest, after)
        left, taken = state
        used = sorted(taken)
        line.append(
            f"{player}: take {amount} from pile {i + 1} ({left} -> {rest}"
            + (f"; {', '.join(map(str, used))} already taken there" if used else "")
            + ")"
        )
        player = next(players)
    line.append(
        f"... (the line is cut after {_LINE_STEPS} moves; {player} is to move, xor {total})"
    )
    return tuple(line)


def multisets_of_total(total: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of pile sizes (each 1..60) with ``total`` stones, largest pile first.

    >>> list(multisets_of_total(3))
    [(3,), (2, 1), (1, 1, 1)]
    """
    return partitions(total, MAX_S)


#: the pile sequences space's largest total: 2**(t-1) sequences of t stones, 4,095 up to 12
SEQUENCE_REACH = 12


def pile_sequences(total: int) -> Iterator[tuple[int, ...]]:
    """Every sequence of pile sizes (each 1..60) with ``total`` stones, fewest piles first, each
    count's sequences in increasing order.

    >>> list(pile_sequences(3))
    [(3,), (1, 2), (2, 1), (1, 1, 1)]
    >>> sum(1 for _ in pile_sequences(12))
    2048
    """

    def of(left: int, count: int) -> Iterator[tuple[int, ...]]:
        if count == 1:
            if 1 <= left <= MAX_S:
                yield (left,)
            return
        for first in range(1, min(MAX_S, left - count + 1) + 1):
            for rest in of(left - first, count - 1):
                yield (first, *rest)

    for count in range(1, total + 1):
        yield from of(total, count)


def _one_or_two_piles(total: int) -> Iterator[tuple[int, ...]]:
    if total <= MAX_S:
        yield (total,)
    for a in range(max(1, total - MAX_S), total // 2 + 1):
        yield (total - a, a)


GAME = StonesOnce()
