"""One exception root for everything gamecert raises on purpose.

Every message says what is wrong and, where it can, how to fix it. The command line turns any
:class:`GamecertError` into a one-line message and exit status 2, never a traceback.
"""

from __future__ import annotations


class GamecertError(Exception):
    """Root of every error gamecert raises deliberately."""


class InputError(GamecertError):
    """A contest input that breaks the format or the constraints.

    >>> str(InputError(2, "n must be between 1 and 1000, got 0", column=1))
    'line 2, column 1: n must be between 1 and 1000, got 0'
    """

    def __init__(self, line: int, rule: str, column: int | None = None) -> None:
        self.line = line
        self.column = column
        self.rule = rule
        where = f"line {line}" if column is None else f"line {line}, column {column}"
        super().__init__(f"{where}: {rule}")


class PresentationError(GamecertError):
    """An answer that cannot be read at all (as opposed to a readable but wrong one)."""


class RegistryError(GamecertError):
    """A game that is registered twice, misnamed, or missing one of its parts."""


class OutOfReach(GamecertError):
    """An exact search asked about a position larger than it is built to handle."""


class UsageError(GamecertError):
    """A command line or option that cannot be honoured."""
