"""Ctrl-C that is never lost.

Python raises KeyboardInterrupt wherever the main thread happens to be when SIGINT arrives.
If that is inside a garbage-collector callback (Hypothesis registers one), the exception is
printed as "Exception ignored" and swallowed, and the run carries on as if nothing happened.
The handler installed here remembers the press; :func:`checkpoint`, called at safe points
(between tests, sizes and sweeps), raises KeyboardInterrupt again if one was swallowed.
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import Any

_pending = False


def on_interrupt(signum: int, frame: object) -> None:
    """Signal handler: remember the press, then interrupt as Python's own handler does."""
    global _pending
    _pending = True
    raise KeyboardInterrupt


def _quiet_unraisable(previous: Any) -> Any:
    """An unraisable-exception hook that keeps a swallowed Ctrl-C quiet (Python prints such an
    exception, a traceback through the garbage collector's callback, as "Exception ignored"):
    the press is pending and :func:`checkpoint` raises it again; every other exception goes to
    ``previous`` as before."""

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt) or (
            unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt)
        ):
            return
        previous(unraisable)

    hook.gamecert_quiet = True  # type: ignore[attr-defined]
    return hook


def install() -> None:
    """Use the remembering handler for SIGINT, where Python's default one is in place, and keep
    a Ctrl-C that lands in a garbage-collector callback quiet (it is raised again at the next
    :func:`checkpoint`)."""
    if (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ):
        signal.signal(signal.SIGINT, on_interrupt)
    if not getattr(sys.unraisablehook, "gamecert_quiet", False):
        sys.unraisablehook = _quiet_unraisable(sys.unraisablehook)


def delivered() -> None:
    """The KeyboardInterrupt reached a handler: nothing is pending any more."""
    global _pending
    _pending = False


def checkpoint() -> None:
    """Raise KeyboardInterrupt if Ctrl-C was pressed and its exception was swallowed."""
    if _pending:
        raise KeyboardInterrupt


class _signals_deferred:
    """Hold Ctrl-C and SIGTERM off while a report is written (it takes milliseconds; the run is
    over and its result is being saved, so they are then dropped). Only in the main thread."""

    def __enter__(self) -> _signals_deferred:
        import signal
        import threading

        self.previous: dict[int, Any] = {}
        self.caught: list[int] = []
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.previous[sig] = signal.signal(
                    sig, lambda number, frame: self.caught.append(number)
                )
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        for sig, handler in self.previous.items():
            signal.signal(sig, handler)
