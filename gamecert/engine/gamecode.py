"""A game author's code, run by the engine: checked, bounded, and named when it goes wrong.

A game's own code (its oracle, fast solvers, strategies and families, shrinker, explanations
and samples) is trusted by everything below it, so its mistakes must never be blamed on a
candidate, nor be a traceback with exit status 1 ("a fault found"), nor a hang:

- every input the game produces is checked with the game's own ``parse_input`` before any
  candidate sees it (:func:`check_input`), and a family yields as many inputs as it declares
  (:func:`checked_family`);
- the statement's samples are checked against the oracle and the fast solvers
  (:func:`check_samples`);
- a call into game code runs in a :func:`section`: an exception there becomes a
  :class:`~gamecert.errors.GameError` naming the game's file, function and line, with the full
  traceback written to a file (:func:`blame`); a call that takes longer than
  :func:`game_seconds` is stopped (in the main thread, by an alarm) or, in a worker thread that
  cannot be stopped, reported by the executor (:func:`overdue`) from that thread's stack.

Every :class:`GameError` is exit status 2 and one line that starts with ``GAME ERROR``.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, Literal

import gamecert
from gamecert.errors import AnswerError, GamecertError, GameError, InputError

#: how long one call into game code may take, in seconds (the environment variable overrides)
DEFAULT_GAME_SECONDS = 60.0
SECONDS_ENV = "GAMECERT_GAME_SECONDS"
#: where tracebacks of game errors go when no report folder was named
_traceback_dir: list[str] = []
#: thread id -> (game, what, started, limit) of the game code each thread is in now
_active: dict[int, tuple[str, str, float, float]] = {}
_GAMECERT_DIR = Path(gamecert.__file__).resolve().parent
_GAME_PARTS = ("oracles", "fast", "strategies", "proofs")
_LIBRARY_DIRS = tuple(
    {
        str(Path(p).resolve())
        for p in (os.path.dirname(os.__file__), os.path.dirname(contextlib.__file__))
    }
    | {str(Path(p).resolve()) for p in sys.path if "site-packages" in p or "dist-packages" in p}
)


class GameTimeout(BaseException):
    """Raised by the alarm in the main thread when game code runs past its limit (a
    BaseException, so a game's own ``except Exception`` cannot swallow it)."""


def game_seconds() -> float:
    """The time limit of one call into game code: ``$GAMECERT_GAME_SECONDS`` or 60 s (read once
    per process: every input a plan makes passes through a bounded section)."""
    if not _seconds:
        raw = os.environ.get(SECONDS_ENV, "")
        try:
            value = float(raw) if raw.strip() else DEFAULT_GAME_SECONDS
        except ValueError:
            value = DEFAULT_GAME_SECONDS
        _seconds.append(value if value > 0 else DEFAULT_GAME_SECONDS)
    return _seconds[0]


_seconds: list[float] = []


def set_traceback_dir(path: str | None) -> None:
    """Write game errors' tracebacks under ``path``/GAME/ from now on (a certification's report
    folder); None: the temporary folder."""
    _traceback_dir[:] = [path] if path else []


# ---- naming the author's code ---------------------------------------------------------------------


def _is_game_file(filename: str) -> bool:
    """Whether a frame's file is a game author's (not gamecert's engine or kit, not a library)."""
    if not filename or filename.startswith("<"):
        return False
    try:
        path = Path(filename).resolve()
    except OSError:
        return False
    text = str(path)
    if path.is_relative_to(_GAMECERT_DIR):
        rel = path.relative_to(_GAMECERT_DIR).parts
        return bool(rel) and rel[0] in _GAME_PARTS
    return not text.startswith(_LIBRARY_DIRS)


def _shown(filename: str) -> str:
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def author_frame(frames: list[tuple[str, int, str]]) -> tuple[str, int, str] | None:
    """The deepest of ``frames`` (file, line, function; outermost first) in a game's own code."""
    for filename, line, function in reversed(frames):
        if _is_game_file(filename):
            return filename, line, function
    return None


def _tb_frames(tb: TracebackType | None) -> list[tuple[str, int, str]]:
    return [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(tb)]


def _stack_frames(frame: FrameType | None) -> list[tuple[str, int, str]]:
    return [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_stack(frame)]


def write_traceback(game: str, text: str) -> str:
    """Write ``text`` to a new file for ``game``'s error; its path ("" if nothing is writable)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for base in (*_traceback_dir, tempfile.gettempdir()):
        folder = Path(base, game) if _traceback_dir and base == _traceback_dir[0] else Path(base)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, path = tempfile.mkstemp(
                prefix=f"game-error-{game}-{stamp}-", suffix=".txt", dir=folder
            )
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            return _shown(path)
        except OSError:
            continue
    return ""


def blame(exc: BaseException, game: str | None = None, doing: str = "") -> GameError | None:
    """A :class:`GameError` for ``exc`` if it was raised in a game author's code (its deepest
    frame there named: file, function, line), with the traceback written to a file; else None.

    A :class:`GamecertError` is never re-blamed (it already says what it is).
    """
    if isinstance(exc, GamecertError) or not isinstance(exc, Exception):
        return None
    where = author_frame(_tb_frames(exc.__traceback__))
    if where is None:
        return None
    filename, line, function = where
    name = game or _game_of(filename)
    text = "".join(traceback.format_exception(exc))
    path = write_traceback(name, (f"{doing}\n\n" if doing else "") + text)
    message = _one_line(f"{type(exc).__name__}: {exc}")
    return GameError(
        name,
        f"{_shown(filename)}, in {function}, line {line}: {message}"
        + (f" (in {doing})" if doing else ""),
        path,
    )


def _game_of(filename: str) -> str:
    return Path(filename).stem


def _one_line(text: str, keep: int = 160) -> str:
    line = " ".join(text.split())
    return line if len(line) <= keep else line[: keep - 3] + "..."


def clip(text: str, keep: int = 60) -> str:
    """An input shown in one line, truncated.

    >>> clip("AB\\n"), clip("x" * 100, 10)
    ("'AB\\\\n'", "'xxxxxxxxxx'... (100 characters)")
    """
    return repr(text) if len(text) <= keep else f"{text[:keep]!r}... ({len(text):,} characters)"


# ---- bounding calls -------------------------------------------------------------------------------

#: when the alarm armed in this process goes off (``time.monotonic()``), or None if none is
#: armed; a forked child inherits no timer, so it starts with none
_alarm_at: list[float | None] = [None]
os.register_at_fork(after_in_child=lambda: _alarm_at.__setitem__(0, None))


def _alarm(signum: int, frame: object) -> None:
    """The main thread's alarm: the section running now is past its limit, or it started after
    the one that armed the alarm and is given the rest of its own time; with no section running
    the alarm stays off until the next one."""
    _alarm_at[0] = None
    running = _active.get(threading.get_ident())
    if running is None:
        return
    left = running[2] + running[3] - time.monotonic()
    if left <= 0.0:
        raise GameTimeout
    _arm(left)


def _arm(seconds: float) -> None:
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _alarm_at[0] = time.monotonic() + seconds


def timer_taken() -> None:
    """Code that sets the real-time timer itself (it replaces any alarm armed here) says so
    after it is done with it: the next section arms the alarm again."""
    _alarm_at[0] = None


class section:  # noqa: N801 - used as ``with section(...)``, like a function
    """Run game code (``what``: "the oracle", "smaller()"...): an exception raised in the
    author's code becomes a :class:`GameError`; past ``seconds`` (default :func:`game_seconds`)
    it is stopped (main thread) or reported by :func:`overdue` (other threads). Nested sections
    are governed by the outermost. ``blame_errors=False`` bounds the time only (a solver under
    test whose exception is a verdict).

    A class rather than a generator, the alarm's handler installed once per process, and the
    timer armed only when none is armed to go off within this section's limit: a section that
    ends leaves it armed, and when it goes off the section running then is given the rest of its
    own time (:func:`_alarm`). Sections wrap every call into game code a plan makes (a million
    oracle calls in one certification); as a generator swapping handlers, then with two timer
    system calls each, they were most of that time."""

    __slots__ = ("game", "what", "limit", "blame_errors", "outer")

    def __init__(
        self, game: str, what: str, seconds: float | None = None, blame_errors: bool = True
    ) -> None:
        self.game, self.what, self.blame_errors = game, what, blame_errors
        self.limit = seconds
        self.outer = False

    def __enter__(self) -> None:
        tid = threading.get_ident()
        if tid in _active:
            return
        self.outer = True
        if self.limit is None:
            self.limit = game_seconds()
        now = time.monotonic()
        _active[tid] = (self.game, self.what, now, self.limit)
        due = _alarm_at[0]
        if (due is None or due > now + self.limit) and tid == _MAIN and _handler_installed():
            try:
                _arm(self.limit)
            except (ValueError, OSError):
                pass

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> Literal[False]:
        if not self.outer:
            return False
        _active.pop(threading.get_ident(), None)
        if exc is None:
            return False
        if isinstance(exc, GameTimeout):
            assert self.limit is not None  # (set by __enter__)
            raise timeout_error(self.game, self.what, self.limit, _tb_frames(tb)) from None
        if isinstance(exc, Exception):
            blamed = blame(exc, self.game, self.what) if self.blame_errors else None
            if blamed is not None:
                raise blamed from None
        return False


_installed: list[bool] = []
#: the main thread's ident (the only thread a signal's handler runs in)
_MAIN = threading.main_thread().ident


def _handler_installed() -> bool:
    """Install the alarm's handler once (main thread only); False where it cannot be."""
    if not _installed:
        try:
            signal.signal(signal.SIGALRM, _alarm)
            _installed.append(True)
            atexit.register(_disarm)
        except (ValueError, OSError, AttributeError):
            _installed.append(False)
    return _installed[0]


def _disarm() -> None:
    """At exit: the alarm a section left armed is turned off. The interpreter's finalisation puts
    every signal's default action back, and an alarm going off after that (a section armed it
    for its whole limit, seconds before) would kill the process by SIGALRM at its very end."""
    if _alarm_at[0] is not None:
        _alarm_at[0] = None
        signal.setitimer(signal.ITIMER_REAL, 0)


def timeout_error(
    game: str, what: str, limit: float, frames: list[tuple[str, int, str]]
) -> GameError:
    """The error for game code that ran past ``limit`` seconds, naming where it was."""
    where = author_frame(frames)
    text = "".join(f'  File "{f}", line {n}, in {fn}\n' for f, n, fn in frames)
    path = write_traceback(game, f"{what} ran past {limit:g} s; where it was:\n{text}")
    at = f"{_shown(where[0])}, in {where[2]}, line {where[1]}: " if where else ""
    return GameError(
        game,
        f"{at}{what} did not finish within {limit:g} s (the limit of game code, "
        f"${SECONDS_ENV}); it may loop forever",
        path,
    )


def overdue() -> GameError | None:
    """The first game call in another thread that has run past its limit, as an error naming
    where that thread is now; None if there is none (the executor polls this)."""
    now = time.monotonic()
    for tid, (game, what, started, limit) in list(_active.items()):
        if now - started > limit:
            frame = sys._current_frames().get(tid)
            return timeout_error(
                game, what, limit, _stack_frames(frame) if frame is not None else []
            )
    return None


def call(game: str, what: str, function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in a :func:`section`."""
    with section(game, what):
        return function(*args)


def guarded(game: str, what: str, items: Iterable[Any]) -> Iterator[Any]:
    """``items``, each step taken in a :func:`section` (a game's generator may raise or hang)."""
    with section(game, what):
        iterator = iter(items)
    while True:
        with section(game, what):
            try:
                item = next(iterator)
            except StopIteration:
                return
        yield item


# ---- checking what a game produces ----------------------------------------------------------------


def check_input(game: Any, instance: Any, where: str, text: str | None = None) -> str:
    """The input text of ``instance``, produced by ``where`` (a family, a strategy, largest(),
    smaller()), after checking it with the game's own ``parse_input``: a :class:`GameError`
    naming ``where`` and the input if it is not a valid input, or does not parse back to itself."""
    name = game.name
    if text is None:
        text = call(name, f"format_input on an input from {where}", game.format_input, instance)
    if not isinstance(text, str):
        raise GameError(
            name, f"format_input returned {type(text).__name__}, not text, on an input from {where}"
        )
    try:
        with section(name, f"parse_input on an input from {where}"):
            back = game.parse_input(text)
    except InputError as exc:
        raise GameError(
            name,
            f"{where} yields an invalid input ({exc}): {clip(text)}; nothing was run on it, "
            "and no candidate is blamed",
        ) from None
    if back != instance:
        raise GameError(
            name,
            f"{where} yields an instance that parse_input(format_input(x)) does not give back "
            f"({clip(repr(instance))} became {clip(repr(back))}); input {clip(text)}",
        )
    return text


def checked_family(game: Any, where: str, declared: int, items: Iterable[Any]) -> Iterator[Any]:
    """A family's instances, guarded, and counted against the ``count`` it declares."""
    n = 0
    for item in guarded(game.name, f"{where}'s instances()", items):
        n += 1
        if n > declared:
            raise GameError(game.name, f"{where} declares count={declared} but yields more inputs")
        yield item
    if n != declared:
        raise GameError(game.name, f"{where} declares count={declared} but yields {n} inputs")


def expected_of(entry: Any, instance: Any) -> tuple[Any, str]:
    """The oracle's answer within its reach, else the first fast solver's (sorted by name)."""
    from gamecert.errors import OutOfReach

    game = entry.game
    if game.size(instance) <= game.oracle_reach:
        try:
            return call(game.name, "the oracle", game.oracle, instance), "the oracle"
        except OutOfReach:
            pass
    name = sorted(entry.solvers)[0]
    return call(
        game.name, f"the fast solver {name}", entry.solvers[name], instance
    ), f"the fast solver {name}"


def check_samples(entry: Any, solvers: bool = True) -> None:
    """The statement's samples against the oracle (beyond its reach: the first fast solver) and,
    with ``solvers``, every fast solver: a :class:`GameError` showing both answers if they differ."""
    game = entry.game
    name = game.name
    for k, (text, claimed) in enumerate(game.samples, 1):
        try:
            with section(name, f"parse_input on sample {k}"):
                instance = game.parse_input(text)
        except InputError as exc:
            raise GameError(
                name, f"sample {k} is not a valid input ({exc}): {clip(text)}"
            ) from None
        expected, source = expected_of(entry, instance)
        shown = call(name, "format_answer", game.format_answer, expected)
        try:
            with section(name, f"parse_answer on sample {k}'s output"):
                said = game.parse_answer(claimed, instance)
        except AnswerError as exc:
            raise GameError(
                name,
                f"sample {k}'s output {clip(claimed)} is not an answer parse_answer accepts "
                f"({exc}); {source} answers {clip(shown)}",
            ) from None
        why = call(name, "judge", game.judge, instance, said, expected)
        if why is not None:
            raise GameError(
                name,
                f"sample {k} ({clip(text)}) says {clip(claimed)} but {source} answers "
                f"{clip(shown)} ({_one_line(why)}); fix the oracle (or the sample)",
            )
        if not solvers:
            continue
        for solver in sorted(entry.solvers):
            got = call(name, f"the fast solver {solver}", entry.solvers[solver], instance)
            why = call(name, "judge", game.judge, instance, got, expected)
            if why is not None:
                answer = call(name, "format_answer", game.format_answer, got)
                raise GameError(
                    name,
                    f"the fast solver {solver} answers {clip(answer)} on sample {k} "
                    f"({clip(text)}), which says {clip(claimed)} ({_one_line(why)})",
                )


__all__ = [
    "GameTimeout",
    "blame",
    "call",
    "check_input",
    "check_samples",
    "checked_family",
    "clip",
    "game_seconds",
    "guarded",
    "overdue",
    "section",
    "set_traceback_dir",
]
