"""What the plan checks of an exhaustive space (issue 27): every input formatted and run, the
first and last of each size and one in ``CHECK_EVERY`` between parsed back with the game's own
``parse_input``. (The conformance suite, tests/test_conformance.py, still checks every
exhaustive input of every game one by one.)"""

from __future__ import annotations

import pytest

from gamecert.engine.plan import plan
from gamecert.errors import GameError, InputError


class _Toy:
    """A game of one number per input; ``bad`` numbers parse back to something else."""

    name = "toy_space"

    def __init__(self, bad: set[int] = frozenset(), not_text: set[int] = frozenset()) -> None:
        self.bad, self.not_text, self.parsed = bad, not_text, []

    def format_input(self, n: int):
        return n if n in self.not_text else f"{n}\n"

    def parse_input(self, text: str) -> int:
        n = int(text)
        self.parsed.append(n)
        if n in self.bad:
            raise InputError(1, f"{n} is not allowed")
        return n


def _all(game, count, every=10, step=7):
    return list(
        plan.space_inputs(game, range(count), "the exhaustive space 'toy' at size 1", every, step)
    )


def test_every_input_comes_through_in_order_with_its_text():
    game = _Toy()
    got = _all(game, 95)
    assert got == [(n, f"{n}\n") for n in range(95)]
    # the first, one in ten, and the last: 0, 10, ..., 90, 94
    assert game.parsed == [*range(0, 95, 10), 94]


@pytest.mark.parametrize("bad", [0, 30, 94])
def test_a_bad_first_sampled_or_last_input_is_a_game_error(bad):
    with pytest.raises(
        GameError,
        match=rf"the exhaustive space 'toy' at size 1 yields an invalid input .*{bad} is not",
    ):
        _all(_Toy(bad={bad}), 95)


def test_the_last_input_is_checked_before_it_is_handed_on():
    seen = []
    with pytest.raises(GameError):
        for inst, _text in plan.space_inputs(_Toy(bad={94}), range(95), "the space", 10, 7):
            seen.append(inst)
    assert seen == list(range(94))


def test_an_input_that_is_not_text_is_a_game_error_wherever_it_is():
    with pytest.raises(GameError, match="format_input returned int, not text"):
        _all(_Toy(not_text={57}), 95)


def test_one_input_is_checked_once():
    game = _Toy()
    assert _all(game, 1) == [(0, "0\n")] and game.parsed == [0]
    assert _all(_Toy(), 0) == []
