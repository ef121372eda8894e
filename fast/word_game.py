"""word_game's fast solver: the editorial's period-3 closed form, xor over letters."""

from __future__ import annotations

from collections import Counter


def closed_form(word: str) -> str:
    """Grundy of a letter with c copies is 3 if 3 divides c else c % 3 (c > 0).

    >>> closed_form("ZADACHA"), closed_form("WORD")
    ('Alice', 'Bob')
    """
    total = 0
    for c in Counter(word).values():
        total ^= c % 3 or 3
    return "Alice" if total else "Bob"


def count_table(word: str) -> str:
    """Independent second solver: letter counts by a 26-slot table, values by a lookup row."""
    counts = [0] * 26
    for ch in word:
        counts[ord(ch) - 65] += 1
    row = (0, 1, 2, 3)
    total = 0
    for c in counts:
        if c:
            total ^= row[(c - 1) % 3 + 1]
    return "Bob" if total == 0 else "Alice"


SOLVERS = {"closed_form": closed_form, "count_table": count_table}
