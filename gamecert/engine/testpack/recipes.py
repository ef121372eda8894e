"""Recipes: a short, exact, editable description of a test's instance, from which the package's
``files/gen.py`` writes the test byte for byte (Polygon's script form, ``gen ARGS > N``). The
tests stay files in problem.xml (method="manual", taken by every judge and converter as they are);
the recipes are the setter's tool beside them (script.txt, gen.py, ``doall.sh gen``).

A recipe is written over the instance's structure as the kit sees it (:mod:`gamecert.kit.shrink`'s
default structure, and ``split`` for a batch): a string is its letters, a tuple its integers, a
multi-game format's tuple of strings its games. Each is written as *runs*, a chunk and how many
times it repeats, one argument a run:

- a string: ``ab*2350 c`` is ``ab`` 2350 times, then ``c``;
- a tuple of integers: ``1000*500 3,5*2 7`` is 500 heaps of 1000, then 3 5 3 5, then 7;
- a tuple of strings (a batch of games): one argument a game, its runs joined by ``+``
  (``2+0*999``: a 2 and 999 zeros), and a chunk of games joined by ``/`` repeated with ``^``
  (``21/12^25``: the two games 21 and 12, 25 times).

``gen.py`` rebuilds the instance from its arguments, writes it with the game's own standalone
``format_input`` (its ``standalone_code``, beside ``parse_input``) and refuses one the game's
``parse_input`` refuses (exit 3, one line), so an edited recipe (2350 -> 2351) gives a valid test or
says why not. A test keeps a recipe only where :func:`plan` found one of at most :data:`MAX_CMD`
characters *and* ``gen.py`` run on it gives the test's text exactly; the others have none (a
random 5,000-letter string has no short recipe), each with the reason.

The runs are found greedily, left to right: at each place the period (up to :data:`MAX_PERIOD`)
whose repeats cover the most, where writing it as a run is shorter than writing it out. This is
a short recipe, not always the shortest one.

May import: the testpack room's own modules, the kit, the engine's floor.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

from gamecert.kit.standalone import COMMON

#: a recipe longer than this (the whole ``gen ARGS`` command) leaves the test manual
MAX_CMD = 1000
#: the longest chunk a run repeats
MAX_PERIOD = 64
#: the characters a recipe carries in a chunk (a command line splits on blanks; ``* + / ^ ,`` are its own)
SAFE = frozenset(string.ascii_letters + string.digits)
#: the generator's name in problem.xml and script.txt (Polygon names an executable by its file's stem)
GEN = "gen"


def shape(instance: Any) -> str | None:
    """``str``, ``ints`` (a tuple of integers) or ``strs`` (a tuple of strings); None for another."""
    if isinstance(instance, str):
        return "str"
    if isinstance(instance, tuple) and instance:
        if all(type(x) is int for x in instance):
            return "ints"
        if all(isinstance(x, str) for x in instance):
            return "strs"
    return None


def _period_run(seq: Sequence[Any], i: int, p: int) -> int:
    """How many items from ``i`` on repeat with period ``p`` (at least ``p``)."""
    top = len(seq) - i - p  # items that can be compared with the ones p later
    m, step = 0, p
    while step:
        if m + step <= top and seq[i + m : i + m + step] == seq[i + p + m : i + p + m + step]:
            m += step
            step *= 2
        else:
            step //= 2
    return m + p


def runs(seq: Sequence[Any], cost: Any, limit: int) -> list[tuple[Sequence[Any], int]] | None:
    """``seq`` as (chunk, count) runs, greedily (module docstring); ``cost(chunk, count)`` is the
    characters a run takes. None once more than ``limit`` characters are needed.

    >>> runs("xy" + "ef" * 5, lambda c, k: len(c) + (len(str(k)) + 1 if k > 1 else 0), 100)
    [('xy', 1), ('ef', 5)]
    """
    out: list[tuple[Sequence[Any], int]] = []
    i, start, n, used = 0, 0, len(seq), 0
    while i < n:
        best = (0, 0, 0)  # (covered, period, count)
        for p in range(1, min(MAX_PERIOD, (n - i) // 2) + 1):
            if seq[i + p] != seq[i] or seq[i : i + p] != seq[i + p : i + 2 * p]:
                continue
            k = _period_run(seq, i, p) // p
            if k * p > best[0]:
                best = (k * p, p, k)
        covered, p, k = best
        if k >= 2 and cost(seq[i : i + p], k) + 2 < cost(seq[i : i + covered], 1):
            if i > start:
                out.append((seq[start:i], 1))
                used += cost(seq[start:i], 1) + 1
            out.append((seq[i : i + p], k))
            used += cost(seq[i : i + p], k) + 1
            i += covered
            start = i
        else:
            i += 1
        if used + (i - start) > limit:
            return None
    if start < n:
        out.append((seq[start:], 1))
    return out


def _str_cost(chunk: Sequence[Any], k: int) -> int:
    return len(chunk) + (len(str(k)) + 1 if k > 1 else 0)


def _ints_cost(chunk: Sequence[Any], k: int) -> int:
    return len(",".join(map(str, chunk))) + (len(str(k)) + 1 if k > 1 else 0)


def _str_args(text: str, limit: int) -> list[str] | None:
    found = runs(text, _str_cost, limit)
    return None if found is None else [f"{c}*{k}" if k > 1 else str(c) for c, k in found]


def encode(instance: Any, limit: int = MAX_CMD) -> tuple[list[str] | None, str]:
    """(the recipe's arguments, '') or (None, why there is none within ``limit`` characters)."""
    kind = shape(instance)
    if kind is None:
        return (
            None,
            f"its instance ({type(instance).__name__}) is not a string, a tuple of integers or of strings",
        )
    too_long = f"its recipe would be over {limit} characters (no short pattern: random parts)"
    if kind == "str":
        if not instance or not set(instance) <= SAFE:
            return (
                None,
                "it holds characters a command line does not carry (only letters and digits do)",
            )
        args = _str_args(instance, limit)
    elif kind == "ints":
        found = runs(instance, _ints_cost, limit)
        args = (
            None
            if found is None
            else [",".join(map(str, c)) + (f"*{k}" if k > 1 else "") for c, k in found]
        )
    else:
        if not all(g and set(g) <= SAFE for g in instance):
            return (
                None,
                "a game holds characters a command line does not carry (only letters and digits do)",
            )
        games: dict[str, str] = {}
        for g in instance:
            if g not in games:
                parts = _str_args(g, limit)
                if parts is None:
                    return None, too_long
                games[g] = "+".join(parts)
        found = runs(
            instance,
            lambda c, k: sum(len(games[g]) + 1 for g in c) + (len(str(k)) + 1 if k > 1 else 0),
            limit,
        )
        if found is None:
            args = None
        else:
            args = []
            for chunk, k in found:
                if k > 1:
                    args.append("/".join(games[g] for g in chunk) + f"^{k}")
                else:
                    args.extend(games[g] for g in chunk)
    if args is None or len(" ".join([GEN, *args])) > limit:
        return None, too_long
    return args, ""


#: gen.py's own part: the recipe read back, the test written (standard library only)
GEN_MAIN = r'''

def _count(text, token):
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError("%r: the count after the chunk must be a positive integer" % token)
    return int(text)


def _string(token):
    chunk, star, count = token.rpartition("*")
    if not star:
        chunk, count = token, "1"
    if not chunk:
        raise ValueError("%r: an empty chunk" % token)
    return chunk * _count(count, token)


def _ints(token):
    chunk, star, count = token.rpartition("*")
    if not star:
        chunk, count = token, "1"
    try:
        items = [int(x) for x in chunk.split(",")]
    except ValueError:
        raise ValueError("%r: a chunk of integers is written 1,2,3" % token) from None
    return items * _count(count, token)


def _games(token):
    chunk, hat, count = token.rpartition("^")
    if not hat:
        chunk, count = token, "1"
    games = ["".join(_string(run) for run in game.split("+")) for game in chunk.split("/")]
    return games * _count(count, token)


def instance(args):
    """The instance a recipe's arguments describe (SHAPE: str, ints or strs)."""
    if not args:
        raise ValueError("no recipe: usage gen.py RUN [RUN ...]")
    if SHAPE == "str":
        return "".join(_string(a) for a in args)
    if SHAPE == "ints":
        return tuple(x for a in args for x in _ints(a))
    return tuple(g for a in args for g in _games(a))


def generate(args):
    """The test's text for a recipe; Invalid if the game refuses the input it describes."""
    text = format_input(instance(args))
    parse_input(text)
    return text


def main(argv):
    try:
        text = generate(argv[1:])
    except ValueError as exc:
        print("gen.py: bad recipe: %s" % exc, file=sys.stderr)
        return 2
    except Invalid as exc:
        print("gen.py: the recipe gives an input the game refuses: %s" % exc, file=sys.stderr)
        return FAIL_EXIT
    sys.stdout.buffer.write(text.encode())
    return OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''


def has_formatter(code: str) -> bool:
    """Whether the game's standalone code defines ``format_input`` (gen.py needs it)."""
    return "\ndef format_input(" in "\n" + code


def program(game_name: str, code: str, kind: str) -> str:
    """The text of ``files/gen.py`` for a game whose instances have shape ``kind``."""
    head = (
        "#!/usr/bin/env python3\n"
        f'"""The generator of {game_name}\'s test package, written by `gamecert tests`.\n\n'
        "Standard library only. Usage: gen.py RUN [RUN ...] (a recipe: see script.txt and problem.xml);\n"
        "writes the test to standard output. Exit 2 on a malformed recipe, 3 when the input it\n"
        "describes breaks the game's constraints (the reason on standard error).\n"
        '"""\n'
    )
    return (
        head
        + COMMON
        + "\n\n# ---- the game's part (its standalone_code) ----\n"
        + code.strip("\n")
        + "\n"
        + f"\n\nSHAPE = {kind!r}\n"
        + GEN_MAIN
    )


def load(text: str) -> dict[str, Any]:
    """gen.py's functions, loaded in this process (its ``generate`` writes a test)."""
    namespace: dict[str, Any] = {"__name__": "gamecert_gen"}
    exec(compile(text, "gen.py", "exec"), namespace)  # noqa: S102 - the package's own generator, gamecert's text
    return namespace


def plan(
    game_name: str, code: str, tests: Sequence[Any]
) -> tuple[str | None, list[tuple[list[str] | None, str]]]:
    """(gen.py's text or None, per test its recipe's arguments or None with the reason it stays
    manual). A recipe is kept only where gen.py, loaded here, gives the test's text exactly."""
    if not has_formatter(code):
        why = "the game's standalone_code has no format_input, which gen.py needs"
        return None, [(None, why) for _ in tests]
    kinds = [shape(t.instance) for t in tests]
    kind = next((k for k in kinds if k is not None), None)
    if kind is None:
        return None, [(None, encode(t.instance)[1]) for t in tests]
    text = program(game_name, code, kind)
    generate = load(text)["generate"]
    out: list[tuple[list[str] | None, str]] = []
    for t, k in zip(tests, kinds):
        if k != kind:
            out.append((None, f"its instance is not of the package's shape ({kind})"))
            continue
        args, why = encode(t.instance)
        if args is not None:
            try:
                made = generate(args)
            except Exception as exc:  # noqa: BLE001 - the game's standalone code is the game author's
                made, why = None, f"gen.py fails on its recipe ({type(exc).__name__}: {exc})"
            if made is not None and made != t.text:
                why = "gen.py does not write it byte for byte (the game's standalone format_input differs)"
            if made != t.text:
                args = None
        out.append((args, why))
    return text, out


def cmd(args: Sequence[str]) -> str:
    return " ".join([GEN, *args])


def script(recipes: Sequence[tuple[list[str] | None, str]], width: int) -> str:
    """Polygon's script form: one line ``gen ARGS > N`` per generated test."""
    return "".join(f"{cmd(a)} > {k}\n" for k, (a, _) in enumerate(recipes, 1) if a is not None)


def readme_section(recipes: Sequence[tuple[list[str] | None, str]], width: int) -> str:
    """The package README's lines on which tests gen.py makes and which stay manual, and why."""
    made = [k for k, (a, _) in enumerate(recipes, 1) if a is not None]
    lines = [
        "",
        "## Generated tests",
        "",
        f"{len(made)} of {len(recipes)} tests have a recipe: `script.txt` holds a line `gen ARGS > N` for "
        "each (Polygon's script form), and `python3 files/gen.py ARGS` writes the test byte for byte "
        "(`doall.sh` checks every one). Edit a recipe (a count, a chunk) for a new valid test. "
        'problem.xml lists every test as method="manual" (its file is the test), so that every judge '
        "and converter takes the package as it is, with no generator to run. No recipe (the file "
        "alone says the test):",
        "",
    ]
    manual = [(k, why) for k, (a, why) in enumerate(recipes, 1) if a is None]
    lines += [f"- `tests/{k:0{width}d}`: {why}" for k, why in manual] or ["- none"]
    return "\n".join(lines) + "\n"
