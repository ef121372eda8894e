"""string_cut (Codeforces 305E, "Playing with String"): rules, formats and exact searches.

A move picks a piece ``t`` and a 1-based position ``i`` with ``1 < i < |t|`` and
``t[i-1] == t[i+1]``, and cuts ``t`` into ``t[1..i-1]``, ``t[i]``, ``t[i+1..|t|]``. A player who
cannot move loses. The answer is ``Second``, or ``First`` and the smallest winning first cut.

Both searches work on the pieces' text itself, from the rules alone: no reduction to runs of
cuttable positions (that reduction is the fast solvers' business and is checked against this).
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Iterator
from functools import cache, lru_cache
from types import MappingProxyType

from gamecert.errors import OutOfReach
from gamecert.kit.core import Core
from gamecert.kit.deciding import DecidingFeature, size_ladder
from gamecert.kit.game import (
    ExhaustiveSpace,
    Explanation,
    Game,
    _smaller_strings,
    ensure_recursion,
    mex,
    parse_word,
    shrink_targets,
)
from gamecert.kit.shrink import Structure
from gamecert.kit.tokens import AnswerReader

MAX_LEN = 5000
#: answer: None for "Second", else the smallest winning first cut (1-based)
Answer = int | None


def cuts(piece: str) -> list[int]:
    """1-based positions a move may cut in ``piece``, in increasing order (a list: the search
    asks this of every piece of every string, and a list is made quicker than a generator runs).

    >>> cuts("abacaba")
    [2, 4, 6]
    """
    return [i for i in range(2, len(piece)) if piece[i - 2] == piece[i]]


def cut(piece: str, i: int) -> tuple[str, str, str]:
    """The three pieces cutting ``piece`` at 1-based ``i`` leaves."""
    return piece[: i - 1], piece[i - 1], piece[i:]


@cache
def piece_grundy(piece: str) -> int:
    """Grundy value of one piece, by search over its moves (pieces are independent games)."""
    values = []
    for i in cuts(piece):
        left, middle, right = cut(piece, i)
        values.append(piece_grundy(left) ^ piece_grundy(middle) ^ piece_grundy(right))
    return mex(values)


@cache
def _to_move_wins(pieces: tuple[str, ...]) -> bool:
    """Plain minimax over whole positions (a sorted tuple of the pieces that still allow a cut).

    The move is written out here again (0-based) rather than taken from :func:`cuts` and
    :func:`cut`, so a slip in either shows up as a disagreement between the two searches.
    """
    for k, piece in enumerate(pieces):
        for centre in range(1, len(piece) - 1):
            if piece[centre - 1] != piece[centre + 1]:
                continue
            rest = (
                pieces[:k] + pieces[k + 1 :] + (piece[:centre], piece[centre], piece[centre + 1 :])
            )
            if not _to_move_wins(_normal(rest)):
                return True
    return False


def _normal(pieces: tuple[str, ...]) -> tuple[str, ...]:
    # pieces shorter than 3 can never be cut again; dropping them changes no outcome
    return tuple(sorted(p for p in pieces if len(p) >= 3))


class StringCut(Game):
    name = "string_cut"
    title = "Playing with String (Codeforces 305E)"
    rules = (
        "A string on one piece of paper; the players alternate and a player who cannot move loses. A move "
        "picks a piece t and a 1-based position i with 1 < i < |t| and t[i-1] == t[i+1], and cuts t into "
        "t[1..i-1], t[i] and t[i+1..|t|]."
    )
    input_format = "One line: a string of 1 to 5000 lowercase letters a-z."
    output_format = (
        "Second if the second player wins; otherwise First and, on the next line, the smallest 1-based "
        "position of a winning first cut."
    )
    time_limit = 2.0
    memory_limit_mb = 256
    samples = (("abacaba\n", "First\n2\n"), ("abcde\n", "Second\n"))
    minimax_reach = 12
    oracle_reach = 120
    max_size = MAX_LEN
    size_measure = "letters"
    #: the certification core (gamecert.kit.core), sized for a JVM per test: 10 tests/s a runner, 2 runners
    certification_core = MappingProxyType(
        {
            "default": Core(
                families={
                    "decides-run-length-neighbours": 100,
                    "decides-input-size": 100,
                    "run-length-alone": 100,
                    "run-length-ends": 60,
                    "run-length-middle": 60,
                },
                exhaustive={"abc-strings": 3, "ab-strings": 6},
                reason=(
                    "a run of cuttable positions is worth the octal game 0.137's value of its "
                    "length, irregular below 52 and of period 34 from there (proofs/string_cut); "
                    "the families' first inputs run every run length to 100 alone (the pre-period "
                    "and a period), to 60 at the ends and in the middle, every piece structure, "
                    "every input size to 100, every worst case and the 5,000-letter inputs; every "
                    "string of a, b to 6 letters and of a, b, c to 3 holds every way two runs "
                    "meet: about 650 runs, 33 s for a JVM per test at 20 tests/s on 2 runners"
                ),
            ),
            "thorough": Core(
                families={
                    "decides-run-length-neighbours": 3000,
                    "decides-input-size": 2000,
                    "run-length-alone": 2000,
                    "run-length-ends": 2000,
                    "run-length-middle": 1000,
                },
                exhaustive={"abc-strings": 7, "ab-strings": 11},
                reason=(
                    "run lengths to 2,000 (58 periods of 0.137's value), every string of a, b to "
                    "11 letters and of a, b, c to 7 (about 17,400 runs)"
                ),
            ),
        }
    )

    #: the validator's and checker's part of a test package (`gamecert tests`; gamecert.kit.standalone):
    #: only the smallest winning cut is right, so the answer file's cut is the one to give
    standalone_code = """
def parse_input(text):
    return parse_word(text, "abcdefghijklmnopqrstuvwxyz", 5000, "string")


def format_input(inp):
    return inp + "\\n"


def read_answer(reader, inp):
    position = None
    if reader.word(("First", "Second"), "First or Second") == "First":
        position = reader.integer(1, len(inp), "the cut position after First")
    reader.finish()
    return position


def judge(inp, got, expected):
    if got == expected:
        return None
    if expected is None:
        return "the first player loses (Second), but the answer claims First with cut %d" % got
    if got is None:
        return "the first player wins by cutting at %d, but the answer says Second" % expected
    return "cut %d is not the smallest winning cut, which is %d" % (got, expected)
"""

    def parse_input(self, text: str) -> str:
        return parse_word(text, string.ascii_lowercase, "lowercase letters a-z", MAX_LEN, "string")

    def format_input(self, instance: str) -> str:
        return instance + "\n"

    def size(self, instance: str) -> int:
        return len(instance)

    def parse_answer(self, text: str, instance: str) -> Answer:
        """``Second``, or ``First`` and the cut position, an integer in ``1..|s|``."""
        reader = AnswerReader(text)
        position = None
        if reader.word(("First", "Second"), "First or Second") == "First":
            position = reader.integer(1, len(instance), "the cut position after First")
        reader.finish()
        return position

    def format_answer(self, answer: Answer) -> str:
        return "Second\n" if answer is None else f"First\n{answer}\n"

    def first_player_wins(self, answer: Answer) -> bool:
        return answer is not None

    def judge(self, instance: str, got: Answer, expected: Answer) -> str | None:
        if got == expected:
            return None
        if expected is None:
            return f"the first player loses (Second), but the answer claims First with cut {got}"
        if got is None:
            return f"the first player wins by cutting at {expected}, but the answer says Second"
        if got not in set(cuts(instance)):
            return f"position {got} is not a legal cut; the smallest winning cut is {expected}"
        if len(instance) > self.oracle_reach:  # too long to value the cut by the rules alone
            return f"cut {got} is not the smallest winning cut, which is {expected}"
        if self._cut_value(instance, got) == 0:
            return f"cut {got} wins, but {expected} is a smaller winning cut"
        return f"cut {got} loses (it leaves Grundy value {self._cut_value(instance, got)}); the smallest winning cut is {expected}"

    def _cut_value(self, s: str, i: int) -> int:
        left, _, right = cut(s, i)
        return piece_grundy(left) ^ piece_grundy(right)

    def minimax(self, instance: str) -> Answer:
        if len(instance) > self.minimax_reach:
            raise OutOfReach(
                f"string_cut minimax is built for strings up to {self.minimax_reach} letters"
            )
        for centre in range(1, len(instance) - 1):
            if instance[centre - 1] == instance[centre + 1]:
                after = (instance[:centre], instance[centre], instance[centre + 1 :])
                if not _to_move_wins(_normal(after)):
                    return centre + 1  # 1-based
        return None

    def oracle(self, instance: str) -> Answer:
        if len(instance) > self.oracle_reach:
            raise OutOfReach(
                f"string_cut oracle is built for strings up to {self.oracle_reach} letters"
            )
        with ensure_recursion(len(instance)):
            if piece_grundy(instance) == 0:
                return None
            return next(i for i in cuts(instance) if self._cut_value(instance, i) == 0)

    def explain_by_runs(self, instance: str, rows: int = 40, moves: int = 20) -> Explanation:
        """The explanation beyond the oracle's reach, from the proven reductions: the string's
        components are its maximal runs of cuttable positions (reduction checked exhaustively
        against this module's search), a run's Grundy value comes from the proven periodic table of
        octal 0.137, and the winning cuts follow from the runs as the fast solvers find them.
        At most ``rows`` runs and ``moves`` moves of the line of play are listed."""
        from gamecert.fast import string_cut as fast

        g = fast.run_grundy_periodic
        table = fast._period_table()
        runs = fast.cuttable_runs(instance)
        total = 0
        for _, length in runs:
            total ^= g(length)
        components = [
            (
                f"run of {length} cuttable position{'s' * (length > 1)} at {_span(start, length)}",
                g(length),
            )
            for start, length in runs[:rows]
        ]
        if len(runs) > rows:
            rest = 0
            for _, length in runs[rows:]:
                rest ^= g(length)
            components.append((f"{len(runs) - rows} more runs (their values xored)", rest))
        if not runs:
            components.append(
                (f"whole string ({len(instance)} letters, cuttable at no position)", 0)
            )
        winning = [f"cut at {p}" for p in _winning_cuts(runs, total, g)]
        smallest = fast.periodic_table(instance)
        shown = winning[:12] + (
            [f"... ({len(winning)} winning cuts in all)"] if len(winning) > 12 else []
        )
        line = _run_line_of_play(runs, g, moves)
        outcome = "First wins" if total else "Second wins"
        notes = (
            f"Beyond the oracle's reach ({self.oracle_reach} letters), this explanation rests on proven reductions "
            "(`gamecert prove string_cut`): the reduction to runs of cuttable positions (checked exhaustively "
            f"against the rules-only search) and the periodic table of the run game, octal {fast.RUN_GAME_CODE} "
            f"(preperiod {table.preperiod}, period {table.period}, by the octal periodicity theorem, all lengths).",
            f"The smallest winning cut by the fast solver periodic_table: {smallest if smallest else 'none (Second)'}.",
        )
        return Explanation(
            f"{outcome} (Grundy value {total})",
            tuple(components),
            total,
            tuple(shown),
            tuple(line),
            notes,
            first_player_wins=bool(total),
        )

    def explain(self, instance: str) -> Explanation:
        if len(instance) > self.oracle_reach:
            return self.explain_by_runs(instance)
        with ensure_recursion(len(instance)):
            return self._explain_searched(instance)

    def _explain_searched(self, instance: str) -> Explanation:
        total = piece_grundy(instance)
        positions = list(cuts(instance))
        components = (
            (
                f"whole string ({len(instance)} letters, cuttable at {_ranges(positions) or 'no position'})",
                total,
            ),
        )
        winning = tuple(f"cut at {i}" for i in positions if self._cut_value(instance, i) == 0)
        line: list[str] = []
        pieces = [instance]
        players = itertools.cycle(("First", "Second"))
        player = next(players)
        while True:
            moves = [(k, i) for k, p in enumerate(pieces) for i in cuts(p)]
            if not moves:
                line.append(f"{player} has no cut left and loses")
                break
            value = 0
            for p in pieces:
                value ^= piece_grundy(p)
            chosen = moves[0]
            for k, i in moves:
                left, _, right = cut(pieces[k], i)
                if value ^ piece_grundy(pieces[k]) ^ piece_grundy(left) ^ piece_grundy(right) == 0:
                    chosen = (k, i)
                    break
            k, i = chosen
            piece = pieces.pop(k)
            new = cut(piece, i)
            pieces[k:k] = list(new)
            line.append(f"{player}: cut {piece!r} at {i} into {' | '.join(repr(p) for p in new)}")
            player = next(players)
        outcome = "First wins" if total else "Second wins"
        return Explanation(
            f"{outcome} (Grundy value {total})",
            components,
            total,
            winning,
            tuple(line),
            first_player_wins=bool(total),
        )

    def exhaustive_spaces(self) -> list[ExhaustiveSpace]:
        return [
            ExhaustiveSpace(
                "abc-strings",
                "every string over {a,b,c} of length <= 12",
                tuple(range(1, 13)),
                _strings("abc"),
            ),
            ExhaustiveSpace(
                "ab-strings",
                "every string over {a,b} of length <= 18",
                tuple(range(1, 19)),
                _strings("ab"),
            ),
        ]

    def deciding_features(self) -> list[DecidingFeature]:
        """A run's length and its neighbours: every run length 1..4998 alone (its value alone
        decides, and the smallest winning cut follows from it), and beside the smallest other run of
        the same value, which cancels it (Second exactly when both are valued right): that run
        after it at gap 1 (the blocks share a letter) and before it at gap 2. And the string's
        length: every length 1..5000 once, in a content cheap to answer (a size ladder)."""
        return [
            DecidingFeature(
                "run-length-neighbours",
                f"every run length 1..{MAX_LEN - 2} of cuttable positions: alone as the whole string; followed at gap 1 "
                "and preceded at gap 2 by the smallest other run length of the same value (octal 0.137), which cancels "
                "it (where the string stays within 5000 letters)",
                tuple(range(1, MAX_LEN - 1)),
                _run_places,
                _run_setting_size,
                lambda length, place: [_run_decides(length, place)],
            ),
            size_ladder(
                "input-size",
                f"every length 1..{MAX_LEN} in a cheap content: abcabc... ending in xyx, whose one cut is the last but one "
                "position (First; a program that misreads or truncates the string there misses it), abc and ab below 3",
                range(1, MAX_LEN + 1),
                [("one cut, at the end", _cut_at_end)],
            ),
        ]

    def diagnosis_features(self, instance: str) -> dict[str, int]:
        """For the diagnosis (gamecert.kit.features): the runs of cuttable positions by length,
        their count and the longest, and the xor of their Grundy values (octal 0.137)."""
        from gamecert.fast import string_cut as fast

        runs = [length for _, length in fast.cuttable_runs(instance)]
        out = {"runs": len(runs), "longest_run": max(runs, default=0), "xor": 0}
        for length in runs:
            out[f"run[{length}]"] = out.get(f"run[{length}]", 0) + 1
            out["xor"] ^= fast.run_grundy_periodic(length)
        return out

    def structure(self) -> Structure:
        """For structural shrinking: the letters, each a value 0..25 (a..z); no classes (whether a
        position is cuttable depends on its neighbours)."""
        return Structure(
            tuple,
            "".join,
            lambda ch: ord(ch) - 97,
            lambda ch, v: chr(97 + v),
            0,
            part_name="letter",
        )

    def smaller(self, instance: str) -> Iterator[str]:
        """Smaller strings, largest cuts first: one run of cuttable positions removed whole (the
        others kept as they are), the same runs packed into the fewest letters
        (:func:`packed_runs`), one run shortened (to 1 for each run in turn, then 2, ... up to
        one less), then chunks of letters deleted (halving sizes). Every candidate is a valid
        string. The runs are tried in turn at each target, so a run whose shortening never fails
        (the one a program gets wrong) costs one try per target, not all of its targets first.

        >>> list(GAME.smaller("aaaaa"))[:3]
        ['aa', 'aaa', 'aaaa']
        """
        runs = cut_runs(instance)
        for k in range(len(runs)):
            found = _with_run(instance, runs, k, 0)
            if found is not None:
                yield found
        packed = packed_runs([length for _, length in runs])
        if packed is not None and len(packed) < len(instance):
            yield packed  # the same runs, in the same order, with the fewest letters around them
        targets = [shrink_targets(length) for _, length in runs]
        for i in range(max(map(len, targets), default=0)):
            for k, run_targets in enumerate(targets):
                if i < len(run_targets):
                    found = _with_run(instance, runs, k, run_targets[i])
                    if found is not None:
                        yield found
        yield from _smaller_strings(instance)


@lru_cache(maxsize=1)
def _run_values() -> tuple[int, ...]:
    """The Grundy value of a run of each length 0..5000 (octal 0.137: preperiod and period proved by
    the kit's periodicity theorem, ``gamecert prove string_cut``)."""
    from gamecert.kit.octal import OctalGame

    table = OctalGame.parse("0.137").periodicity()  # the periodic table the theorem establishes
    return tuple(table.grundy(n) for n in range(MAX_LEN + 1))


@cache
def _partner_run(length: int) -> int:
    """The smallest run length other than ``length`` with the same value.

    >>> _partner_run(1), _run_values()[1] == _run_values()[_partner_run(1)]
    (2, True)
    """
    values = _run_values()
    return next(m for m in range(1, MAX_LEN) if m != length and values[m] == values[length])


def _no_cut(n: int) -> str:
    """``n`` letters with no cuttable position (Second).

    >>> _no_cut(7), cuts(_no_cut(50))
    ('abcabca', [])
    """
    return ("abc" * (n // 3 + 1))[:n]


def _cut_at_end(n: int) -> str | None:
    """``n`` letters whose only cuttable position is ``n - 1`` (a run of 1: First, cut ``n - 1``);
    below 3 letters, where no cut exists, :func:`_no_cut`.

    >>> _cut_at_end(3), _cut_at_end(6), cuts(_cut_at_end(60)), _cut_at_end(2)
    ('xyx', 'abcxyx', [59], 'ab')
    """
    return _no_cut(n - 3) + "xyx" if n >= 3 else _no_cut(n)


def _run_setting_size(length: int, place: str) -> int:
    return {
        "alone": length + 2,
        "partner after, gap 1": length + _partner_run(length) + 3,
        "partner before, gap 2": length + _partner_run(length) + 4,
    }[place]


def _run_places(length: int) -> list[str]:
    return [
        p
        for p in ("alone", "partner after, gap 1", "partner before, gap 2")
        if _run_setting_size(length, p) <= MAX_LEN
    ]


def _run_decides(length: int, place: str) -> str:
    """The string in which a run of ``length`` at ``place`` decides.

    >>> _run_decides(3, "alone"), _run_decides(1, "partner after, gap 1"), _run_decides(1, "partner before, gap 2")
    ('ababa', 'abacac', 'cdcdaba')
    >>> cut_runs(_run_decides(1, "partner after, gap 1")), cut_runs(_run_decides(1, "partner before, gap 2"))
    ([(2, 1), (4, 2)], [(2, 2), (6, 1)])
    """
    run = ("ab" * (length // 2 + 2))[: length + 2]
    if place == "alone":
        return run
    partner = _partner_run(length)
    if place == "partner after, gap 1":  # the partner's block starts on the run's last letter
        last = run[-1]
        return run + ((last + "c") * (partner // 2 + 2))[1 : partner + 2]
    return ("cd" * (partner // 2 + 2))[: partner + 2] + run


def cut_runs(s: str) -> list[tuple[int, int]]:
    """Maximal runs of consecutive cuttable positions, as (first 1-based position, length).

    >>> cut_runs("abacabaxx"), cut_runs("aaaaa")
    ([(2, 1), (4, 1), (6, 1)], [(2, 3)])
    """
    out: list[tuple[int, int]] = []
    for i in cuts(s):
        if out and out[-1][0] + out[-1][1] == i:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((i, 1))
    return out


def packed_runs(lengths: list[int]) -> str | None:
    """The shortest string found whose runs of cuttable positions are ``lengths``, in that order:
    each run's letters alternate two letters (``length + 2`` of them), the next run's first
    letter is the last of the one before (one position between them that is not cuttable), and
    the letters are chosen from three so that no other position is cuttable; None when there is
    no run, or the string is not within the game's 5000 letters. The game's value depends on the
    runs' lengths only, and a program that looks at a run's neighbours sees the same order.

    >>> packed_runs([1]), packed_runs([2, 1]), cut_runs(packed_runs([40, 1]))
    ('aba', 'ababcb', [(2, 40), (43, 1)])
    >>> len(packed_runs([40, 1])), packed_runs([])
    (44, None)
    """
    if not lengths or any(length < 1 for length in lengths):
        return None
    letters: list[str] = []
    for length in lengths:
        if not letters:
            pair = "ab"
        else:  # start on the last letter; alternate with one that is neither it nor the one before
            last, before = letters[-1], letters[-2]
            other = next(c for c in "abc" if c not in (last, before))
            pair = last + other
            letters.pop()  # (shared)
        letters += [pair[i % 2] for i in range(length + 2)]
    out = "".join(letters)
    if len(out) > MAX_LEN or [n for _, n in cut_runs(out)] != list(lengths):
        return None
    return out


def _with_run(s: str, runs: list[tuple[int, int]], k: int, target: int) -> str | None:
    """``s`` with run ``k`` shortened to ``target`` cuttable positions (0: gone) and every other
    run as it was (shifted), or None if neither way of rebuilding it keeps the others so.

    The run's letters alternate two letters; they are replaced by the first (or the last)
    ``target + 2`` of them. Only the centres next to the replaced letters can change, so only
    they are compared: each must be cuttable exactly when its counterpart in ``s`` was (inside
    the new run: always).
    """
    start, length = runs[k]
    lo, hi = start - 2, start + length  # the run's letters: s[lo:hi]
    region = s[lo:hi]
    keep = target + 2 if target else 2
    options = [region[:keep]]
    if target:
        options.append(region[len(region) - keep :])
    for middle in options:
        new = s[:lo] + middle + s[hi:]
        end, shift = lo + len(middle), len(region) - len(middle)
        if all(
            _cuttable(new, c)
            == (_cuttable(s, c) if c <= lo else _cuttable(s, c + shift) if c >= end - 1 else True)
            for c in range(lo - 1, end + 1)
        ):
            return new
    return None


def _cuttable(s: str, centre: int) -> bool:
    """Whether the 0-based ``centre`` of ``s`` is a legal cut."""
    return 0 < centre < len(s) - 1 and s[centre - 1] == s[centre + 1]


def _strings(alphabet: str):
    def instances(length: int) -> Iterator[str]:
        return ("".join(t) for t in itertools.product(alphabet, repeat=length))

    return instances


def _span(start: int, length: int) -> str:
    """Positions ``start`` to ``start + length - 1``, as text."""
    return str(start) if length == 1 else f"{start}-{start + length - 1}"


def _winning_cuts(runs: list[tuple[int, int]], total: int, g) -> list[int]:
    """Every 1-based cut that leaves Grundy value 0, from the runs (see fast/string_cut.py)."""
    out = []
    for start, length in runs:
        rest = total ^ g(length)
        for k in range(1, length + 1):
            if rest ^ g(max(0, k - 2)) ^ g(max(0, length - k - 1)) == 0:
                out.append(start + k - 1)
    return out


def _run_line_of_play(runs: list[tuple[int, int]], g, moves: int) -> list[str]:
    """Play on the runs: each player makes the smallest winning cut, or else the smallest cut;
    the first ``moves`` moves, then a line saying how play goes on."""
    runs = list(runs)
    players = itertools.cycle(("First", "Second"))
    line: list[str] = []
    for _ in range(moves):
        player = next(players)
        if not runs:
            line.append(f"{player} has no cut left and loses")
            return line
        total = 0
        for _, length in runs:
            total ^= g(length)
        cuts_now = _winning_cuts(runs, total, g)
        position = cuts_now[0] if cuts_now else runs[0][0]
        k, (start, length) = next(
            (position - st + 1, (st, ln)) for st, ln in runs if st <= position < st + ln
        )
        left, right = (start, k - 2), (position + 2, length - k - 1)
        index = runs.index((start, length))
        runs[index : index + 1] = [r for r in (left, right) if r[1] > 0]
        after = [_span(*r) for r in (left, right) if r[1] > 0]
        line.append(
            f"{player}: cut at {position} (run {_span(start, length)} leaves "
            f"{' and '.join(after) if after else 'no run'}){'' if cuts_now else ', a losing move: none wins'}"
        )
    left_cuts = sum(length for _, length in runs)
    if runs:
        line.append(
            f"... {len(runs)} runs ({left_cuts} cuttable positions) remain; play goes on the same way, "
            "the player who faces Grundy value 0 loses"
        )
    else:
        line.append(f"{next(players)} has no cut left and loses")
    return line


def _ranges(positions: list[int]) -> str:
    """'2-4, 7' for [2, 3, 4, 7]."""
    out = []
    for _, group in itertools.groupby(enumerate(positions), lambda t: t[1] - t[0]):
        g = [p for _, p in group]
        out.append(str(g[0]) if len(g) == 1 else f"{g[0]}-{g[-1]}")
    return ", ".join(out)


GAME = StringCut()
