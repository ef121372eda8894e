"""``gamecert show GAME``: one game at a glance, without running anything slow.

Prints the rules in brief, the input and output formats (and how answers are read), the limits,
the samples as blocks, the exhaustive spaces, and what the evidence rests on: the oracle's and
the minimax's reach against the largest size, the fast solvers, and each claim with the
evidence level it states (``gamecert prove GAME`` checks them; nothing is checked here).
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

WIDTH = 96


def _wrapped(text: str, indent: str = "  ") -> list[str]:
    """``text`` wrapped to the page, each line indented; '(not stated)' when empty."""
    if not text or not isinstance(text, str):
        return [f"{indent}(not stated)"]
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def _block(text: str, indent: str = "    ") -> list[str]:
    """A sample's text as an indented block, line by line; control characters escaped."""
    lines = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
    return [
        indent + "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in line)
        for line in lines
    ]


def _sizes(sizes: tuple[int, ...]) -> str:
    """'1..40' for a contiguous run, else the list.

    >>> _sizes((1, 2, 3)), _sizes((2, 5)), _sizes(())
    ('sizes 1..3', 'sizes 2, 5', 'no sizes')
    """
    if not sizes:
        return "no sizes"
    if list(sizes) == list(range(sizes[0], sizes[-1] + 1)) and len(sizes) > 2:
        return f"sizes {sizes[0]}..{sizes[-1]}"
    return "sizes " + ", ".join(map(str, sizes))


def describe(entry: Any) -> str:
    """The whole page for a registered game (a :class:`gamecert.engine.registry.Entry`)."""
    game = entry.game
    out = [f"{game.name}: {game.title}", "", "Rules:"]
    out += _wrapped(game.rules)
    out += ["", "Input:"] + _wrapped(game.input_format)
    out += ["", "Output:"] + _wrapped(game.output_format)
    out += _wrapped(
        "Tokens are separated by space, tab, CR and LF only; words are compared exactly; a number "
        "with a '+', a leading zero or a non-digit is PE; a wrong, missing or extra token is WA "
        "(docs/certify.md, 'How answers are read')."
    )
    batch = f"; up to {game.max_batch} games per input" if game.max_batch > 1 else ""
    out += [
        "",
        "Limits (the problem's; the defaults of `gamecert certify`):",
        f"  {game.time_limit:g} s per test, {game.memory_limit_mb} MB{batch}",
        f"  largest size the constraints allow: {game.max_size:,} (in the game's size measure)",
    ]
    out += ["", f"Samples ({_samples_count(game)}):"]
    for k, (text, answer) in enumerate(game.samples, 1):
        out += [f"  sample {k}: input"] + _block(text) + ["  output"] + _block(answer)
    out += ["", "Exhaustive spaces (families checked input by input, by increasing size):"]
    for space in game.exhaustive_spaces():
        out.append(f"  {space.name}: {space.description} ({_sizes(space.sizes)})")
    out += ["", "Evidence rests on:"] + _evidence(entry)
    return "\n".join(out) + "\n"


def _samples_count(game: Any) -> str:
    """The samples counted as inputs and, for a batch format, as the games certify counts.

    >>> from types import SimpleNamespace as G
    >>> _samples_count(G(samples=[("x", "y")], max_batch=1))
    '1 input'
    """
    n = len(game.samples)
    text = f"{n} input{'s' if n != 1 else ''}"
    if getattr(game, "max_batch", 1) <= 1:
        return text
    try:
        games = sum(len(game.split(game.parse_input(t))) for t, _ in game.samples)
    except Exception:  # noqa: BLE001 - a sample the game cannot read: counted as inputs only
        return text
    return f"{text} of {games} game{'s' if games != 1 else ''} in all; certify counts the games"


def _evidence(entry: Any) -> list[str]:
    game = entry.game
    whole = (
        "the whole input space"
        if game.oracle_reach >= game.max_size
        else f"sizes up to {game.oracle_reach:,}"
    )
    out = _wrapped(
        f"oracle (memoised exact search): {whole}"
        + (
            ""
            if game.oracle_reach >= game.max_size
            else "; beyond it, expected answers come from the fast solvers (all of them on sampled and on failing inputs, which must agree)"
        ),
        indent="  ",
    )
    out += [
        f"  plain minimax over whole positions: sizes up to {min(game.minimax_reach, game.max_size):,}, "
        "checked against the oracle",
        f"  fast solvers: {', '.join(sorted(entry.solvers))} (cross-checked against the oracle)",
    ]
    claims = entry.claims
    out.append(f"  claims ({len(claims)}; `gamecert prove {game.name}` checks them):")
    for claim in claims:
        level = claim.level or "level known once checked"
        out.append(f"    [{level}] {claim.name}")
        out += _wrapped(claim.statement, indent="        ")
    if not claims:
        out.append("    (none stated)")
    return out


def show_command(args: argparse.Namespace) -> int:
    """Print :func:`describe` for ``args.game``; an unknown game is a RegistryError (exit 2)."""
    from gamecert.commands.screen import echo
    from gamecert.engine import registry

    echo(describe(registry.get(args.game)).rstrip("\n"))
    return 0
