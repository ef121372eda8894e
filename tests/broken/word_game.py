"""Broken word_game solvers."""

from __future__ import annotations

from collections import Counter

from tests.broken import Broken


def _xor(values):
    x = 0
    for v in values:
        x ^= v
    return "Alice" if x else "Bob"


def multiples_of_three_lose(word):
    return _xor(c % 3 for c in Counter(word).values())


def period_four(word):
    return _xor(c % 4 or 4 for c in Counter(word).values())


def letter_index_base(word):
    counts = [0] * 25
    for ch in word:
        counts[(ord(ch) - ord("A") + 1) % 25] += 1  # letters numbered from 1 in 25 slots: Z wraps onto A
    return _xor(c % 3 or 3 for c in counts if c)


def long_words_by_length(word):
    if len(word) >= 37:  # "no need for the full rule on long words"
        return "Alice" if len(word) % 2 else "Bob"
    return _xor(c % 3 or 3 for c in Counter(word).values())


def singletons_ignored(word):
    return _xor(c % 3 or 3 for c in Counter(word).values() if c > 1)


def big_count_overflow(word):
    # a counter kept in 5 bits: counts of 32 or more wrap around
    return _xor((c % 32) % 3 or 3 for c in Counter(word).values() if c % 32)


BROKEN = {
    "multiples_of_three_lose": Broken(multiples_of_three_lose, "off-by-one", "value 0 instead of 3 at multiples of 3"),
    "period_four": Broken(period_four, "wrong period", "period 4 instead of 3"),
    "letter_index_base": Broken(letter_index_base, "wrong index base", "letters numbered from 1 in a 25-slot table: Z and A share a counter"),
    "long_words_by_length": Broken(long_words_by_length, "large sizes only", "words of 37+ letters judged by length"),
    "singletons_ignored": Broken(singletons_ignored, "rare structure", "letters occurring once are skipped"),
    "big_count_overflow": Broken(big_count_overflow, "rare structure", "a letter count of 32 or more wraps"),
}
