"""A toy game for the game-author-mistake tests, with one mistake switched on per game.

The game ("take one or two"): a pile of ``n`` stones, 1 <= n <= 100; players take one or two
stones in turn, and whoever takes the last stone wins. Input: one line with ``n``. Output:
``First`` if the first player wins, else ``Second``. The first player wins exactly when
``n % 3 != 0``.

Each game of this folder is ``parts(NAME, MISTAKE)``: the four part modules are two lines each,
``globals().update(parts("NAME", "MISTAKE").exports("oracles"))`` (and ``fast``, ``strategies``,
``proofs``). The mistakes are those issue 19 lists: a family yielding an invalid input, a
family whose count is wrong, a largest() past the limit, an oracle contradicting a sample, a
fast solver contradicting a sample, an oracle that raises, a fast solver that hangs, a shrinker
that yields invalid inputs, a shrinker that hangs, an explanation that raises, a claim that
raises. ``ok`` has none (``tests/games_ok`` holds it as a games folder of its own).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from gamecert.errors import OutOfReach
from gamecert.kit.claims import Claim, Evidence
from gamecert.kit.game import ExhaustiveSpace, Explanation, Family, Game, input_lines, parse_int, reject_trailing
from gamecert.kit.game import require_line
from gamecert.kit.tokens import AnswerReader

MAX_N = 100
MISTAKES = ("ok", "family_zero", "family_count", "largest_over", "sample_oracle", "sample_solver",
            "oracle_raises", "solver_hangs", "shrinker_invalid", "shrinker_hangs", "explain_raises",
            "claim_raises")


def _forever() -> None:
    while True:
        time.sleep(0.01)  # the mistake: a loop that never ends


@lru_cache(maxsize=None)
def _wins(n: int) -> bool:
    return any(not _wins(n - k) for k in (1, 2) if k <= n)


def make_game(name: str, mistake: str) -> Game:
    """The toy game called ``name`` with ``mistake`` in it."""

    class Toy(Game):
        title = f"Take one or two ({mistake})"
        rules = "Take one or two stones from a pile in turn; whoever takes the last stone wins."
        input_format = "One line: n, 1 <= n <= 100."
        output_format = "First if the first player wins, else Second."
        time_limit = 2.0
        samples = (("3\n", "Second\n"), ("4\n", "First\n"))
        minimax_reach = 30
        oracle_reach = 60 if mistake == "solver_hangs" else MAX_N
        max_size = MAX_N

        def parse_input(self, text: str) -> int:
            lines = input_lines(text)
            n = parse_int(require_line(lines, 0, "n"), 1, "n", 1, MAX_N)
            reject_trailing(lines, 1)
            return n

        def format_input(self, n: int) -> str:
            return f"{n}\n"

        def size(self, n: int) -> int:
            return n

        def parse_answer(self, text: str, n: int) -> bool:
            reader = AnswerReader(text)
            word = reader.word(("First", "Second"), "the winner")
            reader.finish()
            return word == "First"

        def format_answer(self, first: bool) -> str:
            return "First\n" if first else "Second\n"

        def first_player_wins(self, first: bool) -> bool:
            return first

        def minimax(self, n: int) -> bool:
            if n > self.minimax_reach:
                raise OutOfReach("toy minimax")
            return any(not self.minimax(n - k) for k in (1, 2) if k <= n)

        def oracle(self, n: int) -> bool:
            if n > self.oracle_reach:
                raise OutOfReach("toy oracle")
            if mistake == "sample_oracle":
                return _wins(n) if n != 3 else True  # the mistake: contradicts sample 1
            if mistake == "oracle_raises" and n == 7:
                return 1 // (n - 7) == 0  # the mistake: divides by zero at n = 7
            return _wins(n)

        def explain(self, n: int) -> Explanation:
            if mistake == "explain_raises":
                raise KeyError(n)  # the mistake
            first = _wins(n)
            moves = tuple(f"take {k}" for k in (1, 2) if k <= n and not _wins(n - k))
            return Explanation("First wins" if first else "Second wins", (("pile", n % 3),), n % 3, moves,
                               (f"{n} stones; take {n % 3 or 1}",), first_player_wins=first)

        def exhaustive_spaces(self) -> list[ExhaustiveSpace]:
            return [ExhaustiveSpace("piles", "every pile of 1..30 stones", tuple(range(1, 31)), lambda n: [n])]

        def smaller(self, n: int) -> Iterator[int]:
            if mistake == "shrinker_invalid":
                yield n - 1 if n > 1 else 0  # the mistake: offers 0 stones, which the input forbids
                yield 0
                return
            if mistake == "shrinker_hangs":
                stuck = os.environ.get("GAMECERT_TOY_STUCK_FILE")
                if stuck:  # tells a test that waits for it that the loop is entered
                    Path(stuck).touch()
                _forever()
            yield from range(1, n)

    Toy.name = name
    return Toy()


class _Parts:
    def __init__(self, name: str, mistake: str) -> None:
        assert mistake in MISTAKES, mistake
        self.name, self.mistake = name, mistake
        self.game = make_game(name, mistake)

    def exports(self, part: str) -> dict[str, Any]:
        return getattr(self, "_" + part)()

    def _oracles(self) -> dict[str, Any]:
        return {"GAME": self.game}

    def _fast(self) -> dict[str, Any]:
        mistake = self.mistake

        def closed_form(n: int) -> bool:
            if mistake == "sample_solver" and n == 4:
                return False  # the mistake: contradicts sample 2
            if mistake == "solver_hangs" and n == 77:
                _forever()
            return n % 3 != 0

        def table(n: int) -> bool:
            if mistake == "solver_hangs" and n == 77:
                _forever()
            return [False, True, True][n % 3]

        return {"SOLVERS": {"closed_form": closed_form, "table": table}}

    def _strategies(self) -> dict[str, Any]:
        mistake, game = self.mistake, self.game

        def instances() -> Any:
            return st.integers(1, MAX_N)

        def oracle_instances() -> Any:
            return st.integers(1, game.oracle_reach)

        def features(n: int) -> list[str]:
            return [f"n mod 3 = {n % 3}"]

        def largest() -> list[int]:
            return [MAX_N + 1 if mistake == "largest_over" else MAX_N, MAX_N - 1]

        def every_n() -> Iterator[int]:
            start = 0 if mistake == "family_zero" else 1  # the mistake: n = 0 is not an input
            stop = MAX_N if mistake == "family_count" else MAX_N + 1  # the mistake: one short of its count
            yield from range(start, stop)

        def coverage() -> list[Family]:
            count = MAX_N + 1 if mistake == "family_zero" else MAX_N
            return [Family("every-n", "every pile size 1..100", every_n, count)]

        def worst_cases() -> list[Family]:
            return [Family("top", "the largest piles", lambda: iter([MAX_N, MAX_N - 1]), 2, kind="worst",
                           adversary="a solution that overflows a small table")]

        return {"instances": instances, "oracle_instances": oracle_instances, "features": features,
                "largest": largest, "coverage": coverage, "worst_cases": worst_cases}

    def _proofs(self) -> dict[str, Any]:
        mistake, game = self.mistake, self.game

        def check() -> Evidence:
            if mistake == "claim_raises":
                return Evidence("exhaustive", str([][0]))  # the mistake: an IndexError
            for n in range(1, MAX_N + 1):
                assert game.oracle(n) == (n % 3 != 0)
            return Evidence("exhaustive", "every n <= 100")

        def second() -> Evidence:
            return Evidence("exhaustive", "every n <= 100 (trivially)")

        return {"CLAIMS": [Claim("mod-3", "First wins iff n % 3 != 0", check, level="exhaustive"),
                           Claim("after", "a claim after the broken one", second, level="exhaustive")]}


def parts(name: str, mistake: str) -> _Parts:
    return _Parts(name, mistake)
