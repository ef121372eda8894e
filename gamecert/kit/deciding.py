"""Deciding features: the parts of an input that decide a game's outcome, covered value by place.

A game declares, in :meth:`gamecert.kit.game.Game.deciding_features`, the features its outcome
rests on (word_game: a letter's count; string_cut: a run's length and its neighbours;
stones_once: a pile's value; digit_game: a digit's value and position). Each
:class:`DecidingFeature` says every value the feature can take, every place it can stand, and
how to build the single games in which that value at that place *alone* decides the outcome
(the rest of the game neutral, or a counterpart that cancels it, so that a program that
mishandles the value there answers wrong).

From these the kit builds one structured family per feature (:func:`feature_family`): every
(value, place) setting, smallest size first, packed ``max_batch`` games to a run where the
format holds several games. The family is also a space by size (:func:`feature_space`), so the
search for a smaller failing input after a fault can sweep it below the fault's size.

The input's size is a feature too, where the size range fits the budget: :func:`size_ladder`
declares every size from the smallest to the maximum, each in one or a few cheap contents whose
answers differ (a program wrong at one size, whatever it answers there, fails one of them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamecert.kit.game import ExhaustiveSpace, Family


@dataclass(frozen=True)
class DecidingFeature:
    """One feature that decides a game's outcome.

    ``values`` every value it can take; ``places(value)`` every place that value can stand
    (any hashable labels: a position, "start", ("beside", 2)); ``size(value, place)`` the size
    (the game's measure) of the games ``games(value, place)`` builds, known without building
    them; ``games(value, place)`` the single games (one or a few variants, each a valid single
    input) in which the value at that place alone decides the outcome.
    """

    name: str
    description: str
    values: Sequence[Any]
    places: Callable[[Any], Iterable[Any]] = field(repr=False)
    size: Callable[[Any, Any], int] = field(repr=False)
    games: Callable[[Any, Any], Iterable[Any]] = field(repr=False)
    #: single games each setting gives (for the family's count without building them)
    variants: int = 1
    #: its family runs first in its phase (a size ladder: see Family.first)
    first: bool = False

    def settings(self) -> list[tuple[int, int, Any, Any]]:
        """Every (size, order, value, place), smallest size first, in declaration order within a size."""
        out: list[tuple[int, int, Any, Any]] = []
        for value in self.values:
            for place in self.places(value):
                out.append((self.size(value, place), len(out), value, place))
        out.sort(key=lambda s: (s[0], s[1]))
        return out

    def sizes(self) -> tuple[int, ...]:
        return tuple(sorted({s for s, _, _, _ in self.settings()}))


def _singles(
    feature: DecidingFeature, settings: Iterable[tuple[int, int, Any, Any]]
) -> Iterator[Any]:
    for _size, _order, value, place in settings:
        yield from feature.games(value, place)


def pack(game: Any, singles: Iterable[Any]) -> Iterator[Any]:
    """Single games packed ``game.max_batch`` to a run, in order (one per run for a one-game format).

    >>> class OneGame: max_batch = 1
    >>> list(pack(OneGame(), ["a", "b"]))
    ['a', 'b']
    """
    batch = max(1, getattr(game, "max_batch", 1))
    if batch == 1:
        yield from singles
        return
    held: list[Any] = []
    for single in singles:
        held.extend(game.split(single))
        while len(held) >= batch:
            yield game.merge(held[:batch])
            held = held[batch:]
    if held:
        yield game.merge(held) if len(held) > 1 else held[0]


def size_ladder(
    name: str,
    description: str,
    sizes: Sequence[int],
    contents: Sequence[tuple[str, Callable[[int], Any]]],
) -> DecidingFeature:
    """The input size as a deciding feature: every size in ``sizes`` (the game's own measure),
    in each of ``contents``, (label, build) pairs where ``build(size)`` is one single game of
    exactly that size, or None where that content does not exist at that size.

    Each content should be as cheap to answer as the game allows (a right program spends little
    time on it whatever its size), so the whole ladder fits the budget; and the contents' answers
    should differ (one a first-player win, one a loss), so a program that answers one size wrong,
    whichever answer it gives there, fails one of them.

    >>> ladder = size_ladder("input-size", "every length", range(1, 4),
    ...                      [("plain", lambda n: "x" * n), ("long", lambda n: "y" * n if n > 1 else None)])
    >>> [(size, place) for size, _, _, place in ladder.settings()]
    [(1, 'plain'), (2, 'plain'), (2, 'long'), (3, 'plain'), (3, 'long')]
    >>> list(ladder.games(2, "long"))
    ['yy']
    """
    builds = dict(contents)
    if len(builds) != len(contents) or not builds:
        raise ValueError(f"size ladder {name!r}: contents need distinct labels, at least one")

    def places(size: int) -> list[str]:
        return [label for label, build in contents if build(size) is not None]

    return DecidingFeature(
        name,
        description,
        tuple(sizes),
        places,
        lambda size, place: size,
        lambda size, place: [builds[place](size)],
        first=True,
    )


def feature_family(game: Any, feature: DecidingFeature) -> Family:
    """The coverage family of ``feature``: every setting's games, smallest first, packed."""
    settings = feature.settings()
    singles = len(settings) * feature.variants
    batch = max(1, getattr(game, "max_batch", 1))
    runs = -(-singles // batch)
    packed = f", packed {batch} games to a run" if batch > 1 else ""
    return Family(
        f"decides-{feature.name}",
        f"{feature.description} ({len(settings):,} settings, {singles:,} games{packed}; smallest first)",
        lambda: pack(game, _singles(feature, settings)),
        runs,
        first=feature.first,
    )


def feature_space(game: Any, feature: DecidingFeature) -> ExhaustiveSpace:
    """``feature``'s games by size, as a space the sweep below a fault's size can run size by size."""
    settings = feature.settings()
    by_size: dict[int, list[tuple[int, int, Any, Any]]] = {}
    for s in settings:
        by_size.setdefault(s[0], []).append(s)

    def at(size: int) -> Iterator[Any]:
        return _singles(feature, by_size.get(size, ()))

    return ExhaustiveSpace(
        f"decides-{feature.name}",
        f"the deciding-feature family: {feature.description}",
        tuple(sorted(by_size)),
        at,
    )


def feature_families(game: Any) -> list[Family]:
    """The coverage families of every deciding feature ``game`` declares."""
    return [feature_family(game, f) for f in game.deciding_features()]


def feature_spaces(game: Any) -> list[ExhaustiveSpace]:
    return [feature_space(game, f) for f in game.deciding_features()]


__all__ = [
    "DecidingFeature",
    "feature_families",
    "feature_family",
    "feature_space",
    "feature_spaces",
    "pack",
    "size_ladder",
]
