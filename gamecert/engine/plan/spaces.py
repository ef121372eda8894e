"""An exhaustive space as a plan sweeps it: the sizes swept (:func:`exhaustive_sizes`) and the
inputs of one size, listed and checked (:func:`space_inputs`).

May import what :mod:`gamecert.engine.plan` may.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator
from typing import Any

from gamecert.engine import gamecode
from gamecert.errors import GameError
from gamecert.kit.game import Game

#: of each size of an exhaustive space (the game's own enumeration), the first, the last and one
#: in this many inputs are parsed back with ``parse_input`` (:func:`space_inputs`)
CHECK_EVERY = 64
#: inputs of an exhaustive space listed per bounded section of game code
LIST_STEP = 256


def space_inputs(
    game: Game,
    instances: Iterable[Any],
    where: str,
    every: int = CHECK_EVERY,
    step: int = LIST_STEP,
) -> Iterator[tuple[Any, str]]:
    """(instance, input text) of one size of an exhaustive space, in the space's order.

    Every text is the game's ``format_input`` and must be text; the first and the last instance
    and one in ``every`` between are checked in full (:func:`gamecode.check_input`: parsed back
    to themselves). The space is listed ``step`` instances per bounded section of game code."""
    name, listing = game.name, f"{where} (instances_of_size, format_input)"
    with gamecode.section(name, listing):
        iterator = iter(instances)
    held: tuple[Any, str] | None = None
    number = 0
    while True:
        with gamecode.section(name, listing):
            block = []
            for inst in itertools.islice(iterator, step):
                text = game.format_input(inst)
                if not isinstance(text, str):
                    raise GameError(
                        name,
                        f"format_input returned {type(text).__name__}, not text, "
                        f"on an input from {where}",
                    )
                block.append((inst, text))
        if not block:
            break
        for inst, text in block:
            if held is not None:
                yield held
            if number % every == 0:  # the first, and one in ``every``
                gamecode.check_input(game, inst, where, text)
            number += 1
            held = (inst, text)
    if held is not None:
        if (number - 1) % every:  # the last, if not checked already
            gamecode.check_input(game, held[0], where, held[1])
        yield held


def _swept_sizes(space: Any, fraction: float) -> tuple[int, ...]:
    return (
        tuple(space.sizes[: max(1, math.ceil(len(space.sizes) * fraction))]) if space.sizes else ()
    )


def exhaustive_sizes(game: Game, profile: Any) -> list[tuple[Any, tuple[int, ...]]]:
    """Each exhaustive space with the sizes a plan fixed by counts sweeps (the profile's share)."""
    return [(sp, _swept_sizes(sp, profile.exhaustive)) for sp in game.exhaustive_spaces()]
