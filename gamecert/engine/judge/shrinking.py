"""Shrinking a confirmed fault: by the input's structure first, then the game's own moves.

:func:`minimise` runs the kit's structural shrinker (:mod:`gamecert.kit.shrink`: batch position,
values, binary searches on counts, ddmin by halves) on the failing input, each candidate run
once on the candidate, and then the greedy search over the game's ``smaller()`` moves from what
it reached (and the structural shrink again from where those got to).
``Failure.shrink`` says how many smaller inputs ran in all and whether both ended by themselves;
``Failure.shrink_cut`` what was cut when they did not. :func:`wanted_seconds` is the time a fault
of that size asks for: a run's cost times the runs a shrink from its size takes.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from typing import Any

from gamecert.engine import gamecode
from gamecert.errors import GameError
from gamecert.kit.game import Game
from gamecert.kit.shrink import Shrinker, structure_of

#: evaluations the shrinking of one fault may spend (structural and greedy together)
SHRINK_EVALUATIONS = 20_000
#: runs a structural shrink asks time for: this many, plus this many per halving of the parts
#: (measured: a count-and-parity fault on 65,536 random piles, 16 halvings, reached its smallest
#: in 100 to 443 runs over six seeds; 64 + 24 * 16 = 448)
WANTED_RUNS = (64, 24)
#: at most this many times the profile's shrinking time is asked for
WANTED_MAX_FACTOR = 6.0


def parts_in_all(game: Any, instance: Any) -> int:
    structure = structure_of(game, instance)
    if structure is None:
        return 1
    singles = game.split(instance) if game.max_batch > 1 else (instance,)
    return sum(len(structure.parts(g)) for g in singles)


def wanted_seconds(game: Any, found: Any, per_run: float = 0.0) -> float:
    """Seconds a shrink from ``found`` asks for: a run's cost (``per_run``, what one re-run of the
    fault took, harness and all; else the failing run's wall time; at least 20 ms) times
    :data:`WANTED_RUNS` for its count of parts in all."""
    result = found.result
    wall = (getattr(result, "wall_s", None) or 0.0) if result is not None else 0.0
    cost = max(0.02, per_run, wall)
    base, per = WANTED_RUNS
    return cost * (base + per * math.log2(parts_in_all(game, found.instance) + 1))


def _failing_game(reason: str) -> int | None:
    """The game a batch's reason names ("game 7 of 100: ...")."""
    m = re.match(r"game (\d+) of \d+:", reason or "")
    return int(m.group(1)) if m else None


def structural(judge: Any, found: Any, deadline: float) -> tuple[Any, int, bool, str]:
    """The structural shrink of ``found`` until ``deadline`` (perf_counter): the smallest failing
    input (a Failure), the runs, whether it finished, what was cut."""
    game = judge.game
    structure = structure_of(game, found.instance)
    if structure is None:
        return found, 0, True, ""
    best = [found]

    def fails(instance: Any, text: str) -> bool:
        again = judge.run_one(instance, found.phase, text=text, count=False)
        if again is not None and again.verdict == found.verdict:
            best[0] = again
            return True
        return False

    mono = time.monotonic() + max(0.0, deadline - time.perf_counter())
    shrinker = Shrinker(
        game,
        structure,
        fails,
        deadline=mono,
        max_runs=SHRINK_EVALUATIONS,
        failing_game=_failing_game(found.reason),
    )
    # not one game-code section: a shrink may run for minutes (each run judges in its own)
    result = shrinker.shrink(found.instance, found.input_text)
    current = best[0]
    if current is not found:
        current.notes = list(found.notes)
        current.reruns, current.rerun_where = found.reruns, found.rerun_where
        if result.moved is not None:
            k, t = result.moved
            current.notes.append(
                f"found in a batch of {t} games ({found.verdict}: {_one_line(found.reason)}); "
                f"game {k} fails on its own, so the reported input holds that game alone"
            )
        elif game.max_batch > 1:
            t, n = len(list(game.split(found.instance))), len(list(game.split(current.instance)))
            if (
                1 < n < t
            ):  # no game failed alone: what fails is a shorter batch, by its prefixes and subsets
                current.notes.append(
                    f"found in a batch of {t} games ({found.verdict}: {_one_line(found.reason)}); "
                    f"no game of it fails on its own, and the shrink by prefixes and subsets "
                    f"of the batch came down to {n} games together"
                )
    return current, result.runs, result.finished, result.cut


#: the game's own first moves (its largest leaps: a run removed, the runs packed) offered once
#: before the structural shrink, at most this many runs: a leap a game's author knows of is not
#: left until the structural shrink has spent the time letter by letter (CI: run40_beside's 45
#: letters, whose packed form of 44 is the game's third move, kept at 45 by a ddmin over letters)
LEAPS = 4


def minimise(judge: Any, found: Any, seconds: float) -> Any:
    """The game's first :data:`LEAPS` moves once, structural shrinking, then greedy over
    ``game.smaller``: take the first smaller input that still fails (same verdict), repeat; where
    the moves got further, the structural shrink again from there (at most three rounds). The
    result is confirmed in a fresh process."""
    game = judge.game
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    moves = _Moves(judge, game, found, deadline)
    current, done, cut = found, False, ""
    if moves.strict:  # the game's own first moves once, before the structural shrink
        leap, error = moves.first_failing(current, LEAPS)
        if leap is not None and not error:
            current = leap
    finished = False
    for _round in range(3):
        before = current
        current, runs, done, cut = structural(judge, current, deadline)
        moves.tried += runs
        moves.seen.add(_digest(current.input_text))
        while True:
            better, error = moves.first_failing(current, None)
            if error == "time":
                return _ended(
                    current,
                    moves.tried,
                    False,
                    cut or "its time was up during the game's smaller() moves",
                    time.perf_counter() - start,
                )
            if error:
                if isinstance(error, GameError):  # a bug or a hang in the shrinker
                    raise error
                # a game's shrinker is the game author's code
                current.notes.append(
                    f"shrinking stopped: {game.name}'s smaller() failed on this input "
                    f"({type(error).__name__}: {error})"
                )
                return _ended(current, moves.tried, False, cut, time.perf_counter() - start)
            if better is None:
                finished = True
                break
            current = better
        if done or current is before:
            break
    if current is not found:
        # the shrunk input, confirmed in a fresh process as the original was
        again = judge.run_one(
            current.instance, current.phase, text=current.input_text, count=False, fresh=True
        )
        if again is None:
            found.notes.append(
                f"a smaller failing input was found but did not fail when re-run "
                f"{judge.rerun_where}; the input as found is reported"
            )
            return _ended(found, moves.tried, False, cut, time.perf_counter() - start)
    return _ended(current, moves.tried, finished and done, cut, time.perf_counter() - start)


class _Moves:
    """The game's ``smaller()`` moves from an input, each run once on the candidate (a text met
    before, by its digest, is not run again)."""

    def __init__(self, judge: Any, game: Any, found: Any, deadline: float) -> None:
        self.judge, self.game, self.found, self.deadline = judge, game, found, deadline
        self.tried = 0
        # the digests of the texts met (128 bits, as the executor keeps of passed games): a long
        # input's candidates are not all kept whole
        self.seen: set[bytes] = {_digest(found.input_text)}
        self.strict = type(game).smaller is not Game.smaller

    def first_failing(self, current: Any, limit: int | None) -> tuple[Any, Any]:
        """(the first of ``current``'s moves, at most ``limit`` of them, that fails as the fault
        did, or None; "" or "time" (the deadline or the evaluations' cap came first) or the
        exception the game's smaller() raised)."""
        game, found = self.game, self.found
        last: Any = None
        offered = _guarded(gamecode.guarded(game.name, "smaller()", game.smaller(current.instance)))
        taken = 0
        for candidate in offered:
            if time.perf_counter() > self.deadline or self.tried >= SHRINK_EVALUATIONS:
                return None, "time"
            if limit is not None and taken >= limit:
                return None, ""
            if candidate == last:  # the candidate before it again (a chunk of a run of equal parts)
                continue
            last = candidate
            taken += 1
            # formatted first: a text met before (by its digest) is left out before it is parsed,
            # the dearer half of validating a long input
            if self.strict:  # an invalid input from the game's own shrinker is its author's mistake
                text = gamecode.call(
                    game.name,
                    "format_input on an input from smaller() (the game's shrinker)",
                    game.format_input,
                    candidate,
                )
                if isinstance(text, str) and _digest(text) in self.seen:
                    continue
                text = gamecode.check_input(
                    game, candidate, "smaller() (the game's shrinker)", text
                )
            else:  # the kit's generic moves may offer invalid inputs, which are skipped
                try:
                    text = game.format_input(candidate)
                    if not isinstance(text, str) or _digest(text) in self.seen:
                        continue
                    self.seen.add(_digest(text))
                    if game.parse_input(text) != candidate:
                        continue
                except Exception:  # noqa: BLE001 - not a valid input: nobody can use it
                    continue
            self.seen.add(_digest(text))
            self.tried += 1
            again = self.judge.run_one(candidate, found.phase, text=text, count=False)
            if again is not None and again.verdict == found.verdict:
                again.notes = list(current.notes)
                again.reruns, again.rerun_where = found.reruns, found.rerun_where
                return again, ""
        return None, offered.error or ""


def _ended(failure: Any, tried: int, finished: bool, cut: str, spent: float) -> Any:
    failure.shrink = (tried, finished)
    failure.shrink_cut = "" if finished else cut
    failure.shrink_s = spent
    if tried:
        failure.notes.append(
            f"shrinking ran {tried:,} smaller inputs in {spent:.1f} s (by the input's structure, "
            "then the game's smaller() moves)"
        )
    if not finished and cut and failure.size is not None:
        failure.notes.append(
            f"shrinking stopped at size {failure.size} before it was done ({cut}); a smaller "
            "failing input may exist"
        )
    return failure


class _guarded:
    """An iterator over ``items`` that ends, keeping the exception, where ``items`` raises one."""

    def __init__(self, items: Any) -> None:
        self.items = iter(items)
        self.error: Exception | None = None

    def __iter__(self) -> _guarded:
        return self

    def __next__(self) -> Any:
        if self.error is not None:
            raise StopIteration
        try:
            return next(self.items)
        except StopIteration:
            raise
        except Exception as exc:  # noqa: BLE001 - kept for the caller to report
            self.error = exc
            raise StopIteration from None


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= 160 else line[:157] + "..."


__all__ = ["SHRINK_EVALUATIONS", "minimise", "structural", "wanted_seconds"]
