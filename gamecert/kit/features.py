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

import itertools
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from gamecert.kit.shrink import structure_of

#: the size-like features every game gets modular, power-of-two and digit features of
BASES = ("size", "bytes", "parts", "longest", "games", "distinct", "max_value", "xor", "xor_class")
MODULI = tuple(range(2, 17))
#: the moduli a part's value and an indexed count's key (a run's length) get residue classes of
VALUE_MODULI = tuple(range(2, 17))
KEY_MODULI = tuple(range(2, 7))
#: the heads of indexed counts (``head[k]``, k a number) whose keys get classes: residues of k,
#: ``head[>=k]``; a part's value gets its own (``count[v%12=6]``, ``count[bits=5]``)
KEYED = ("mult", "run", "eqrun", "value", "length")

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


def _tally(parts: tuple[Any, ...]) -> list[tuple[Any, int]]:
    """Each distinct part with its count, in the order met (parts that cannot be hashed: each
    part alone, with a count of 1). A part's label, value and class are worked out once per
    distinct part: a million piles hold a few dozen."""
    try:
        return list(Counter(parts).items())
    except TypeError:  # parts that cannot be hashed
        return [(p, 1) for p in parts]


def _single_features(game: Any, structure: Any, single: Any) -> tuple[Counter[str], dict[str, int]]:
    """Summable counts and the per-game numbers (length, distinct, values) of one single game."""
    counts: Counter[str] = Counter()
    numbers: dict[str, int] = {}
    parts = tuple(structure.parts(single)) if structure is not None else ()
    numbers["length"] = len(parts)
    tally = _tally(parts)
    label_of = [(_label(game, structure, p), c) for p, c in tally]
    by_label: Counter[str] = Counter()
    for label, c in label_of:
        by_label[label] += c
    numbers["distinct"] = len(by_label)
    for label, c in by_label.items():
        counts[f"count[{label}]"] += c
    mult = Counter(by_label.values())
    for k, c in mult.items():
        counts[f"mult[{k}]"] += c
    numbers["max_mult"] = max(by_label.values(), default=0)
    if len(tally) == len(parts):  # every part distinct (or unhashable): labelled one by one
        labels = [label for label, _ in label_of]
    else:
        index = {p: label for (p, _), (label, _) in zip(tally, label_of)}
        labels = list(map(index.__getitem__, parts))
    # maximal runs of equal parts, of two or more (the pairs side by side first, as met)
    runs = [(label, n) for label, group in itertools.groupby(labels) if (n := len(list(group))) > 1]
    for label, n in runs:
        counts[f"adjacent[{label}]"] += n - 1
    for _, n in runs:
        counts[f"eqrun[{n}]"] += 1
    if structure is not None and structure.value is not None and parts:
        try:
            values = [(int(structure.value(p)), c) for p, c in tally]
            numbers["max_value"] = max(v for v, _ in values)
            numbers["min_value"] = min(v for v, _ in values)
            if not any(isinstance(p, str) for p, _ in tally):  # numbers, not letters or digits
                by_value: Counter[int] = Counter()
                for v, c in values:
                    by_value[v] += c
                for v, n in by_value.items():  # each distinct value's classes once
                    for name in value_classes(v):
                        counts[name] += n
        except Exception:  # noqa: BLE001 - values that are not numbers: none
            pass
    if structure is not None and structure.value_class is not None and parts:
        try:
            classes = [(structure.value_class(p), c) for p, c in tally]
            for cls, c in classes:
                counts[f"class[{cls}]"] += c
            # the xor of the classes is a Sprague-Grundy total only where the classes are Grundy
            # values; a game whose classes are something else (digit_game: a digit's parity)
            # says so with ``classes_are_grundy = False`` and gets no xor_class
            if getattr(game, "classes_are_grundy", True) and all(
                isinstance(cls, int) for cls, _ in classes
            ):
                total = 0
                for cls, c in classes:
                    if c % 2:  # a class an even number of times cancels out
                        total ^= cls
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
    if batched:  # the games by their length (a class of lengths: ``length[%2=0]``, even ones)
        for n in lengths:
            counts[f"length[{n}]"] += 1
        out["games"] = len(singles)
        out["first_parts"], out["last_parts"] = lengths[0], lengths[-1]
        if any("xor_class" in g for g in per_game):
            out["games_xor_nonzero"] = sum(1 for g in per_game if g.get("xor_class"))
    elif "xor_class" in per_game[0]:
        out["xor_class"] = per_game[0]["xor_class"]
    counts.update(keyed_classes(counts))
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
        out[f"{base}.bitlen"] = abs(x).bit_length()
        out[f"{base}.dsum"] = sum(map(int, str(abs(x))))
    return out


def value_classes(v: int) -> list[str]:
    """The classes of one part's value (a pile, a heap) its count features are named by: its
    residues, bit length, binary ones, whether a power of two, decimal digits and their sum.

    >>> value_classes(18)[:3]
    ['count[v%2=0]', 'count[v%3=0]', 'count[v%4=2]']
    >>> value_classes(16)[-5:]
    ['count[bits=5]', 'count[ones=1]', 'count[pow2]', 'count[digits=2]', 'count[dsum=7]']
    """
    out = [f"count[v%{k}={v % k}]" for k in VALUE_MODULI]
    a = abs(v)
    out += [f"count[bits={a.bit_length()}]", f"count[ones={bin(a).count('1')}]"]
    if a and a & (a - 1) == 0:
        out.append("count[pow2]")
    out += [f"count[digits={len(str(a))}]", f"count[dsum={sum(map(int, str(a)))}]"]
    return out


_KEYED = re.compile(r"^(\w+)\[(\d+)\]$")


def keyed_classes(counts: Mapping[str, int]) -> dict[str, int]:
    """Classes of an indexed count's keys (:data:`KEYED` heads): ``run[%2=0]`` runs of even
    length, ``run[%3=1]``, ``run[>=9]`` runs of 9 or more (for every key seen), summed.

    >>> sorted(keyed_classes({"run[2]": 1, "run[5]": 2}).items())[:4]
    [('run[%2=0]', 1), ('run[%2=1]', 2), ('run[%3=2]', 3), ('run[%4=1]', 2)]
    """
    keyed: dict[str, dict[int, int]] = {}
    for name, c in counts.items():
        m = _KEYED.match(name)
        if m and m.group(1) in KEYED and c:
            keyed.setdefault(m.group(1), {})[int(m.group(2))] = c
    out: Counter[str] = Counter()
    for head, by_key in keyed.items():
        for key, c in by_key.items():
            for k in KEY_MODULI:
                out[f"{head}[%{k}={key % k}]"] += c
        for low in by_key:
            out[f"{head}[>={low}]"] = sum(c for key, c in by_key.items() if key >= low)
    return dict(out)


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
    klass = _key_class(head, key, part)
    if klass:
        return klass
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
    if head == "length" and key:
        return f"games of exactly {key} {part}s"
    if head == "eqrun" and key:
        return f"runs of exactly {key} equal {part}s"
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
            "bitlen": f"the bit length of {inner}",
            "dsum": f"the digit sum of {inner}",
        }.get(what, name)
    base, pct, k = name.partition("%")
    if pct:
        return f"{_the(noun(base, part, measure))} mod {k}"
    return plain.get(name, name)


_HEADS = {
    "mult": "{part}s occurring",
    "run": "runs of length",
    "eqrun": "runs of equal {part}s of length",
    "value": "{part}s of value",
    "length": "games of length",
}


def _key_class(head: str, key: str, part: str) -> str:
    """A class's noun: a value's (``count[v%12=6]``) or an indexed count's key's (``run[%2=0]``).

    >>> _key_class("count", "v%12=6", "heap"), _key_class("run", "%2=0", "letter")
    ('heaps that are 6 mod 12', 'runs of even length')
    >>> _key_class("mult", ">=4", "letter"), _key_class("count", "bits=20", "pile")
    ('letters occurring 4 or more times', 'piles of bit length 20')
    """
    if head == "count":
        what, _, v = key.partition("=")
        if what == "v%2" and v:
            return f"{'odd' if v == '1' else 'even'} {part}s"
        if what.startswith("v%") and v:
            return f"{part}s that are {v} mod {what[2:]}"
        words = {
            "bits": f"{part}s of bit length {v}",
            "ones": f"{part}s with {v} binary ones",
            "digits": f"{part}s of {v} decimal digits",
            "dsum": f"{part}s whose decimal digits sum to {v}",
        }
        if what in words and v:
            return words[what]
        if key == "pow2":
            return f"{part}s that are powers of two"
        return ""
    if head not in _HEADS:
        return ""
    lead = _HEADS[head].format(part=part)
    times = " times" if head == "mult" else ""
    if key.startswith("%") and "=" in key:
        k, _, r = key[1:].partition("=")
        if k == "2":
            parity = "odd" if r == "1" else "even"
            return (
                f"{lead} an {parity} number of times"
                if times
                else lead.replace("of length", f"of {parity} length").replace(
                    "of value", f"of {parity} value"
                )
            )
        return f"{lead} {r} mod {k}{times}"
    if key.startswith(">="):
        return f"{lead} {key[2:]} or more{times}"
    return ""


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
        what, _, v = key.partition("=")
        if head == "count" and what.startswith("v%") and v:
            k = what[2:]
            return (
                f"some {part} is {'odd' if v == '1' else 'even'}"
                if k == "2"
                else f"some {part} is {v} mod {k}"
            )
        if head == "count" and what == "bits" and v:
            return f"some {part} has bit length {v}"
        klass = _key_class(head, key, part)
        if klass:
            return f"one or more {klass}"
        if head == "mult":
            return f"some {part} occurs exactly {key} times"
        if head == "count":
            return f"some {part} is {key}"
        if head == "adjacent":
            return f"{key}{key} occurs"
        if head == "run":
            return f"a run of exactly {key}"
    if name.endswith("%2") and (op, value) in ((">=", 1), ("<=", 0)):  # odd, even
        op, value = "==", int(op == ">=")
    if name.endswith("%2") and op == "==":
        return f"{_the(noun(name[:-2], part, measure))} is {'odd' if value else 'even'}"
    return f"{noun(name, part, measure)}: {_OPS.get(op, op)} {value:,}"


def get(features: Mapping[str, int], name: str) -> int:
    """A feature's value (0 where absent)."""
    return features.get(name, 0)


__all__ = ["BASES", "Features", "features_of", "get", "literal_words", "noun"]
