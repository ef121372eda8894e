"""A uniform sample of the inputs that passed, kept by each judge for the diagnosis of a fault
(:mod:`gamecert.engine.judge.diagnose`): reservoir sampling, so the sample is uniform over every
input that passed however many ran, with a fixed seed so that a run by counts keeps the same ones."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

#: passing inputs each judge keeps, each of at most this many characters
KEEP_PASSING, KEEP_TEXT = 300, 20_000


class Reservoir:
    """At most ``size`` of the ``(instance, text)`` pairs added, each as likely as any other."""

    def __init__(self, size: int = KEEP_PASSING, longest: int = KEEP_TEXT) -> None:
        self.size, self.longest = size, longest
        self.kept: list[tuple[Any, str]] = []
        self.seen = 0
        self._draw = random.Random(0)

    def add(self, instance: Any, text: str) -> None:
        self.seen += 1
        k = self.seen - 1 if len(self.kept) < self.size else self._draw.randrange(self.seen)
        if k < self.size and len(text) <= self.longest:
            self.kept[k : k + 1] = [(instance, text)]

    def __iter__(self) -> Iterator[tuple[Any, str]]:
        return iter(self.kept)

    def __len__(self) -> int:
        return len(self.kept)
