"""What a game's strategies reach: a histogram of the structural features of their examples."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as fixed_seed


def bucket(value: int, edges: Sequence[int]) -> str:
    """The label of the smallest edge range holding ``value``.

    >>> bucket(1, (1, 5, 40)), bucket(3, (1, 5, 40)), bucket(40, (1, 5, 40)), bucket(41, (1, 5, 40))
    ('1', '2-5', '6-40', '>40')
    """
    low = None
    for edge in edges:
        if value <= edge:
            if low is None or low + 1 == edge:
                return str(edge)
            return f"{low + 1}-{edge}"
        low = edge
    return f">{edges[-1]}"


def collect(
    instances: Callable[[], Any],
    features: Callable[[Any], Iterable[str]],
    examples: int = 500,
    seed: int = 0,
) -> Counter[str]:
    """Count the features of ``examples`` examples drawn from ``instances()`` (a game's strategy).

    >>> from hypothesis import strategies as st
    >>> counts = collect(lambda: st.integers(1, 10**9), lambda n: ["odd" if n % 2 else "even"], examples=50)
    >>> counts["(examples)"], counts["odd"] + counts["even"]
    (50, 50)
    """
    counts: Counter[str] = Counter()

    @fixed_seed(seed)  # the same histogram every run
    @settings(
        max_examples=examples,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(instances())
    def draw(instance: Any) -> None:
        counts["(examples)"] += 1
        counts.update(set(features(instance)))

    draw()
    return counts


def render(counts: Counter[str]) -> str:
    total = counts.pop("(examples)", 0) or 1
    width = max((len(k) for k in counts), default=10)
    lines = [f"{total} examples"]
    for label in sorted(counts):
        n = counts[label]
        lines.append(f"{label:<{width}}  {n:5d}  {'#' * max(1, round(40 * n / total))}")
    return "\n".join(lines)


def print_coverage(
    instances: Callable[[], Any], features: Callable[[Any], Iterable[str]], examples: int = 500
) -> None:
    """Print the histogram of what ``instances()`` reaches (``gamecert coverage GAME`` does this for
    a registered game; a strategies module can do it for itself when run as a script)."""
    print(render(collect(instances, features, examples)))
