"""Reproducible random examples for the plan's random phase: Hypothesis draws with a seed of
their own per block, the same whatever else is loaded (see :func:`draw_examples`)."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


def derive_seed(seed: int, block: int) -> int:
    """The seed of random block ``block`` of a run with ``seed``.

    >>> derive_seed(7, 0), derive_seed(7, 1)
    (7000, 7001)
    """
    return seed * 1000 + block


def draw_examples(strategy: SearchStrategy[Any], n: int, seed: int) -> list[Any]:
    """``n`` examples of ``strategy`` (fewer if it has fewer), the same for the same seed and
    Hypothesis version whatever else is loaded: Hypothesis mixes constants found in the loaded
    modules into its choices, so they are held out while drawing."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hseed

    out: list[Any] = []

    def collect(instance: Any) -> None:
        out.append(instance)

    test = settings(
        max_examples=max(1, n),
        database=None,
        deadline=None,
        derandomize=False,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        print_blob=False,
    )(hseed(seed)(given(strategy)(collect)))
    with _without_local_constants(), warnings.catch_warnings():
        # game code judging in other threads raises the (process-wide) recursion limit for a
        # moment (kit.game.ensure_recursion); Hypothesis would warn that it changed meanwhile
        warnings.filterwarnings("ignore", message="The recursion limit will not be reset")
        test()
    return out[:n]


@contextlib.contextmanager
def _without_local_constants() -> Iterator[None]:
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - a Hypothesis without this machinery mixes nothing in
        yield
        return
    original = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if original is None or not hasattr(providers, "Constants"):
        yield
        return
    empty = providers.Constants()

    def clear() -> None:
        inner: Any = getattr(cache, "cache", None)
        if hasattr(inner, "clear"):
            inner.clear()

    providers._get_local_constants = lambda: empty
    clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        clear()


__all__ = ["derive_seed", "draw_examples"]
