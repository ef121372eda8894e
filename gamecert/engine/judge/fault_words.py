"""A fault in the game's words: the first token that differs and what it means in the game (the
winner, a move), the judge's reading of the output, where the fault was found, and the lines a
terminal and a report show for it."""

from __future__ import annotations

from typing import Any

from gamecert.engine.judge.judge import Failure, visible
from gamecert.engine.judge.shape import input_shape
from gamecert.kit.game import Game
from gamecert.verdict import Verdict


def game_fault(game: Game, instance: Any, expected_text: str, got_text: str) -> str:
    """The fault at the game's level, one line: the first token of the output that differs from
    the expected answer's and what it stands for in the game, e.g. "the winner: expected Second,
    got First" ("" when the tokens do not differ, or the expected answer cannot be read).

    A token is called the winner when the game calls it so ("the winner of game 2 of 3"), or
    when it is a choice of words that decides :meth:`Game.first_player_wins` on the game's samples
    and the expected answer (First/Second, Alice/Bob, YES/NO); any other token is named by the
    game's description of it, as a difference, not as the fault (the judge's reason says that).
    """
    from gamecert.kit.tokens import split_tokens

    want, got = split_tokens(expected_text or ""), split_tokens(got_text or "")
    k = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
    if k >= len(want) and k >= len(got):
        return ""
    if k >= len(want):
        return f"an extra token after the answer: token {k + 1}, {_plain(got[k])}"
    read = _read_tokens(game, expected_text, instance)
    if read is None or k >= len(read):
        return ""
    _, what, choices = read[k]
    if k >= len(got):
        return f"the output ends before token {k + 1} ({what}): expected {want[k]}"
    if "winner" in what.lower():
        return f"{what}: expected {want[k]}, got {_plain(got[k])}"
    if (
        choices
        and got[k] in choices
        and _decides_winner(game, instance, expected_text, k, want[k], got[k])
    ):
        return f"the winner: expected {want[k]}, got {got[k]}"
    return f"the first token that differs, token {k + 1} ({what}): expected {want[k]}, got {_plain(got[k])}"


def _plain(token: str) -> str:
    """A token as it is when plain and short, else quoted with its escapes."""
    from gamecert.kit.tokens import SHOWN_CHARS, shown

    return (
        token
        if token.isprintable() and len(token) <= SHOWN_CHARS and "'" not in token
        else shown(token)
    )


def _read_tokens(game: Game, text: str, instance: Any) -> list[tuple[int, str, Any]] | None:
    """What each token of ``text`` stands for, as the game's parse_answer reads it (None if it
    cannot be read: the game's own answer always can)."""
    from gamecert.kit.tokens import recording

    with recording() as read:
        try:
            game.parse_answer(text, instance)
        except Exception:  # noqa: BLE001 - a game's reader that fails here only loses the naming
            return None
    return read


def _decides_winner(
    game: Game, instance: Any, expected_text: str, k: int, want: str, got: str
) -> bool:
    """Token ``k`` (a choice of words) tells who wins: over the game's samples and the expected
    answer (single games only), its words ``want`` and ``got`` go with different outcomes."""
    seen: dict[str, set[bool]] = {}
    pairs: list[tuple[Any, str]] = [(instance, expected_text)]
    for text, answer in getattr(game, "samples", ()):
        try:
            pairs.append((game.parse_input(text), answer))
        except Exception:  # noqa: BLE001 - a bad sample is the plan's to report, not this naming's
            continue
    from gamecert.kit.tokens import split_tokens

    for inst, text in pairs:
        try:
            if len(game.split(inst)) != 1:
                continue
            tokens = split_tokens(text)
            if k < len(tokens):
                seen.setdefault(tokens[k], set()).add(
                    bool(game.first_player_wins(game.parse_answer(text, inst)))
                )
        except Exception:  # noqa: BLE001 - as above: only the naming is lost
            continue
    a, b = seen.get(want, set()), seen.get(got, set())
    return len(a) == 1 and len(b) == 1 and a != b


def sample_number(game: Game, text: str) -> int | None:
    """Which of the game's samples ``text`` is (1-based), or None."""
    for number, (sample, _answer) in enumerate(getattr(game, "samples", ()), 1):
        if sample == text or sample.strip() == text.strip():
            return number
    return None


def found_by(game: Game, failure: Failure, sized: bool = True) -> str:
    """Where the fault was found, as the user knows it: a sample by its number and text
    ("sample 2 (`abcde`), shrunk to size 4"; not ``sized``: "shrinking sample 2 (`abcde`)"), else
    the phase."""
    first = getattr(failure, "found_input", "") or failure.input_text
    number = sample_number(game, first) if failure.phase == "samples" else None
    if number is None:
        return failure.phase
    text = visible(first.strip())
    shown = text if len(text) <= 40 else text[:37] + "..."
    if first.strip() == failure.input_text.strip():
        return f"sample {number} (`{shown}`)"
    return (
        f"sample {number} (`{shown}`), shrunk to size {failure.size}"
        if sized
        else f"shrinking sample {number} (`{shown}`)"
    )


def fault_of(game: Game, failure: Failure) -> str:
    """:func:`game_fault` of a wrong or unreadable answer ("" for other verdicts: a crash's or a
    time-out's partial output is not an answer)."""
    if failure.verdict not in (Verdict.WA, Verdict.PE):
        return ""
    try:
        return game_fault(game, failure.instance, failure.expected_text, failure.got_text)
    except Exception:  # noqa: BLE001 - the game's code: only the naming is lost, the verdict stands
        return ""


def why_lines(fault: str, reason: str) -> list[str]:
    """The why of a fault, the game's level first: the token that differs and what it means, then
    the judge's reason (left out when it says only the same two words again).

    >>> why_lines("the winner: expected Alice, got Bob", "expected 'Alice', got 'Bob'")
    ['the winner: expected Alice, got Bob']
    >>> why_lines("the winner of game 1 of 1: expected 1, got 2", "game 1 of 1 (n = 2): expected 1, got 2")
    ['the winner of game 1 of 1: expected 1, got 2']
    >>> why_lines("the winner: expected Second, got First", "token 2 (the cut position after First): 2 is outside 1..1")
    ['the winner: expected Second, got First', 'token 2 (the cut position after First): 2 is outside 1..1']
    """
    reason = reason.strip().splitlines()[0] if reason.strip() else ""
    if not fault:
        return [reason] if reason else []
    said = fault.rpartition(": ")[2]
    if (
        reason.replace("'", "").rpartition(": ")[2] == said
    ):  # the same two answers again, however prefixed
        return [fault]
    return [fault, reason] if reason else [fault]


def failure_lines(game: Game, failure: Failure) -> list[str]:
    """The verdict, input, expected and got answers and why (the game's level first), as every
    certification shows them."""
    kind = " (nondeterministic)" if failure.nondeterministic else ""
    where = found_by(game, failure, sized=False)
    lines = [
        f"{failure.verdict}{kind} ({failure.verdict.meaning}) on a {game.name} input of size "
        f"{failure.size}, found by {where}:"
    ]
    for label, text in (
        ("input", failure.input_text),
        ("expected", failure.expected_text),
        ("got", failure.got_text or "(no output)"),
    ):
        lines.append(_block(label, text))
    why = why_lines(fault_of(game, failure), failure.reason) or [""]
    lines.append(f"  {'why:':<9} {_one_line(why[0])}")
    lines += [f"  {'':<9} {_one_line(line)}" for line in why[1:]]
    return lines


def _block(label: str, text: str, keep: int = 600) -> str:
    """A labelled value: one line inline, several lines as an indented block (never joined)."""
    body = text.rstrip("\n")
    shaped = input_shape(body, keep) if label == "input" else None
    if shaped is not None:  # a long input by its shape, the whole of it in the report's input.in
        lines = [visible(line) for line in shaped]
        if len(lines) == 1:
            return f"  {label + ':':<9} {lines[0]}"
        return f"  {label}: {lines[0]}\n" + "\n".join(f"    {line}" for line in lines[1:])
    clipped = (
        body if len(body) <= keep else body[:keep] + f"\n... ({len(body) - keep} more characters)"
    )
    lines = [visible(line) for line in clipped.split("\n")]
    if len(lines) == 1:
        return f"  {label + ':':<9} {lines[0]}"
    shown = lines[:12] + ([f"... ({len(lines) - 12} more lines)"] if len(lines) > 12 else [])
    return f"  {label}:\n" + "\n".join(f"    {line}" for line in shown)


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return visible(line if len(line) <= 160 else line[:157] + "...")
