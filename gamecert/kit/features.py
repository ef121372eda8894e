"""Features of an input, for the diagnosis that says *when* a program fails.

:func:`features_of` gives every input a flat dictionary of named integers, built from what the
game already declares: its :meth:`~gamecert.kit.game.Game.structure` (parts, their values and
value classes: letters, digits, piles, heaps and their Grundy values), its batch level (games
of a multi-game format, the first and last game's length), its size and the input's bytes, and
generic numbers every game gets (value mod 2..12, distance to the nearest power of two, digit
count, bit count). A feature absent from an input's dictionary is 0.

The names are short formulas a reader can check by hand:

- ``size``, ``bytes``, ``games``, ``parts`` (in all), ``longest`` (parts of the longest game),
  ``first_parts`` / ``last_parts`` (a batch's first and last game), ``distinct`` (distinct part
  values, the most of any game), ``max_value`` / ``min_value`` (where parts are numbers);
- ``count[v]`` parts whose value is ``v`` (a letter ``Z``, a digit ``7``, a pile ``47``);
  ``count[v]%2`` its parity;
- ``mult[k]`` part values that occur exactly ``k`` times in a game ("a letter occurs exactly 7
  times" is ``mult[7] >= 1``), ``max_mult`` the largest such ``k``;
- ``adjacent[v]`` places where a part of value ``v`` stands beside another of the same value
  (the repeated parts: ``adjacent[x] >= 1`` is "xx occurs");
- ``class[c]`` parts of value class ``c`` (a Grundy value, a parity) and ``class[c]%2``;
  ``xor_class`` the xor of the classes of a single game (a Sprague-Grundy total), where classes
  are integers; ``games_xor_nonzero`` of a batch;
- ``X%k`` (k = 2..12), ``X.pow2`` (X minus the nearest power of two), ``X.bits`` (ones in
  binary) and ``X.digits`` (decimal digits) for X among the size-like features above.

A game adds its own in a few lines: a method ``diagnosis_features(single)`` on its ``Game``
returning ``{name: int}`` for one single game (summed over the games of a batch; each also gets
its parity ``name%2``). string_cut gives its runs of cuttable positions (``run[L]``, ``runs``,
``longest_run``); word_game its letters by Grundy value (``value[g]``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from gamecert.kit.shrink import structure_of

#: the size-like features every game gets modular, power-of-two and digit features of
BASES = ("size", "bytes", "parts", "longest", "games", "distinct", "max_value", "xor", "xor_class")
MODULI = tuple(range(2, 13))

Features = dict[str, int]


def _label(game: Any, structure: Any, part: Any) -> str:
    """A part's value as a feature name shows it: the letter or digit itself, else its number."""
    if isinstance(part, str) and len(part) <= 8:
        return part
    if structure is not None and structure.value is not None:
        try:
            return str(structure.value(part))
        except Exception:  # noqa: BLE001 - a part without a readable value: its text
            pass
    return str(part)[:12]


def _single_features(game: Any, structure: Any, single: Any) -> tuple[Counter[str], dict[str, int]]:
    """Summable counts and the per-game numbers (length, distinct, values) of one single game."""
    counts: Counter[str] = Counter()
    numbers: dict[str, int] = {}
    parts = tuple(structure.parts(single)) if structure is not None else ()
    numbers["length"] = len(parts)
    labels = [_label(game, structure, p) for p in parts]
    by_label = Counter(labels)
    numbers["distinct"] = len(by_label)
    for label, c in by_label.items():
        counts[f"count[{label}]"] += c
    mult = Counter(by_label.values())
    for k, c in mult.items():
        counts[f"mult[{k}]"] += c
    numbers["max_mult"] = max(by_label.values(), default=0)
    for a, b in zip(labels, labels[1:]):
        if a == b:
            counts[f"adjacent[{a}]"] += 1
    if structure is not None and structure.value is not None and parts:
        try:
            values = [int(structure.value(p)) for p in parts]
            numbers["max_value"], numbers["min_value"] = max(values), min(values)
        except Exception:  # noqa: BLE001 - values that are not numbers: none
            pass
    if structure is not None and structure.value_class is not None and parts:
        try:
            classes = [structure.value_class(p) for p in parts]
            for cls, c in Counter(classes).items():
                counts[f"class[{cls}]"] += c
            if all(isinstance(c, int) for c in classes):
                total = 0
                for c in classes:
                    total ^= c
                numbers["xor_class"] = total
        except Exception:  # noqa: BLE001 - a class the game cannot give here: none
            pass
    own = getattr(game, "diagnosis_features", None)
    if callable(own):
        for name, value in dict(own(single)).items():
            counts[str(name)] += int(value)
    return counts, numbers


def features_of(game: Any, instance: Any, text: str | None = None) -> Features:
    """The feature dictionary of ``instance`` (its text, if known, saves formatting it again)."""
    structure = structure_of(game, instance)
    batched = getattr(game, "max_batch", 1) > 1
    singles = tuple(game.split(instance)) if batched else (instance,)
    text = game.format_input(instance) if text is None else text
    out: Features = {"size": int(game.size(instance)), "bytes": len(text.encode())}
    counts: Counter[str] = Counter()
    per_game = []
    for single in singles:
        c, numbers = _single_features(game, structure, single)
        counts.update(c)
        per_game.append(numbers)
    lengths = [g["length"] for g in per_game]
    out["parts"] = sum(lengths)
    out["longest"] = max(lengths, default=0)
    out["distinct"] = max((g["distinct"] for g in per_game), default=0)
    out["max_mult"] = max((g["max_mult"] for g in per_game), default=0)
    if any("max_value" in g for g in per_game):
        out["max_value"] = max(g["max_value"] for g in per_game if "max_value" in g)
        out["min_value"] = min(g["min_value"] for g in per_game if "min_value" in g)
    if batched:
        out["games"] = len(singles)
        out["first_parts"], out["last_parts"] = lengths[0], lengths[-1]
        out["games_xor_nonzero"] = sum(1 for g in per_game if g.get("xor_class"))
    elif "xor_class" in per_game[0]:
        out["xor_class"] = per_game[0]["xor_class"]
    for name, value in counts.items():
        out[name] = value
        if not name.startswith("adjacent[") and name not in BASES:
            out[f"{name}%2"] = value % 2
    for base in BASES:
        if base not in out:
            continue
        x = out[base]
        for k in MODULI:
            out[f"{base}%{k}"] = x % k
        out[f"{base}.pow2"] = x - _nearest_pow2(x)
        out[f"{base}.bits"] = bin(x).count("1") if x >= 0 else 0
        out[f"{base}.digits"] = len(str(abs(x)))
    return out


def _nearest_pow2(x: int) -> int:
    """The power of two nearest to ``x`` (the smaller on a tie; 1 for x < 1).

    >>> [_nearest_pow2(x) for x in (0, 1, 3, 5, 6, 7, 1000, 1030)]
    [1, 1, 2, 4, 4, 8, 1024, 1024]
    """
    if x <= 1:
        return 1
    low = 1 << (x.bit_length() - 1)
    high = low << 1
    return low if x - low <= high - x else high


# ---- words ----------------------------------------------------------------------------------

_OPS = {">=": "at least", "<=": "at most", "==": "exactly"}


def noun(name: str, part: str = "part", measure: str = "") -> str:
    """What a feature counts, in words.

    >>> noun("mult[7]", "letter")
    'letters occurring exactly 7 times'
    >>> noun("count[Z]%2", "letter")
    'the parity of the count of letter Z'
    """
    if name.endswith("%2") and "[" in name:
        return f"the parity of {_the(noun(name[:-2], part, measure))}"
    head, _, rest = name.partition("[")
    key = rest[:-1] if rest.endswith("]") else ""
    if head == "count" and key:
        return f"the count of {part} {key}"
    if head == "mult" and key:
        return f"{part}s occurring exactly {key} times"
    if head == "adjacent" and key:
        return f"places where {key}{key} occurs"
    if head == "class" and key:
        return f"{part}s of class {key}"
    if head == "run" and key:
        return f"runs of exactly {key}"
    if head == "value" and key:
        return f"{part}s of value {key}"
    base, dot, what = name.partition(".")
    plain = {
        "size": f"the size ({measure})" if measure else "the size",
        "bytes": "the input's bytes",
        "parts": f"{part}s in all",
        "longest": f"{part}s of the longest game",
        "games": "games in the batch",
        "first_parts": f"{part}s of the first game",
        "last_parts": f"{part}s of the last game",
        "distinct": f"distinct {part}s",
        "max_value": f"the largest {part} value",
        "min_value": f"the smallest {part} value",
        "max_mult": f"the most copies of one {part}",
        "xor_class": "the xor of the classes (Grundy values)",
        "games_xor_nonzero": "games of nonzero xor",
        "xor": "the xor of the Grundy values",
        "runs": "runs",
        "longest_run": "the longest run",
    }
    if dot:
        inner = _the(noun(base, part, measure))
        return {
            "pow2": f"{inner} minus the nearest power of two",
            "bits": f"the binary ones of {inner}",
            "digits": f"the decimal digits of {inner}",
        }.get(what, name)
    base, pct, k = name.partition("%")
    if pct:
        return f"{_the(noun(base, part, measure))} mod {k}"
    return plain.get(name, name)


def _the(text: str) -> str:
    return text if text.startswith("the ") else f"the number of {text}"


def literal_words(name: str, op: str, value: int, part: str = "part", measure: str = "") -> str:
    """One feature test in words.

    >>> literal_words("mult[7]", ">=", 1, "letter")
    'some letter occurs exactly 7 times'
    >>> literal_words("distinct", ">=", 3, "letter")
    'distinct letters: at least 3'
    >>> literal_words("count[Z]", ">=", 1, "letter")
    'some letter is Z'
    """
    head, _, rest = name.partition("[")
    key = rest[:-1] if rest.endswith("]") else ""
    if op == ">=" and value == 1 and key and not name.endswith("%2"):
        if head == "mult":
            return f"some {part} occurs exactly {key} times"
        if head == "count":
            return f"some {part} is {key}"
        if head == "adjacent":
            return f"{key}{key} occurs"
        if head == "run":
            return f"a run of exactly {key}"
    if name.endswith("%2") and op == "==":
        return f"{_the(noun(name[:-2], part, measure))} is {'odd' if value else 'even'}"
    return f"{noun(name, part, measure)}: {_OPS.get(op, op)} {value:,}"


def get(features: Mapping[str, int], name: str) -> int:
    """A feature's value (0 where absent)."""
    return features.get(name, 0)


__all__ = ["BASES", "Features", "features_of", "get", "literal_words", "noun"]
