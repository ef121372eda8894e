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


class AnswerError(GamecertError):
    """A program's output rejected while it is read; ``verdict`` is what a judge gives it.

    The two kinds follow testlib (see :mod:`gamecert.kit.tokens`): :class:`PresentationError` (PE)
    for a number that is not written as one, :class:`WrongAnswerError` (WA) for a wrong,
    missing or extra token.
    """

    verdict: str = "WA"


class PresentationError(AnswerError):
    """An answer that cannot be read: a malformed number (testlib's ``_pe``)."""

    verdict = "PE"


class WrongAnswerError(AnswerError):
    """An answer read in full whose tokens are wrong: a different word, a number out of its range,
    a missing or an extra token (testlib's ``_wa``)."""

    verdict = "WA"


class RegistryError(GamecertError):
    """A game that is registered twice, misnamed, or missing one of its parts."""


class OutOfReach(GamecertError):
    """An exact search asked about a position larger than it is built to handle."""


class UsageError(GamecertError):
    """A command line or option that cannot be honoured."""


class GameError(GamecertError):
    """A mistake in a game's own code or data (its oracle, solvers, strategies, shrinker,
    explanations or samples), never the candidate's: exit status 2, one line that starts with
    ``GAME ERROR`` and names the game and the part at fault.

    >>> str(GameError("word_game", "coverage family 'letters' yields an invalid input: ..."))
    "GAME ERROR in word_game: coverage family 'letters' yields an invalid input: ..."
    """

    def __init__(self, game: str, what: str, traceback_file: str = "") -> None:
        self.game = game
        self.what = what
        self.traceback_file = traceback_file
        tail = f" (full traceback in {traceback_file})" if traceback_file else ""
        super().__init__(f"GAME ERROR in {game}: {what}{tail}")

    def __reduce__(self):
        """Pickled with its own arguments (a worker process hands it back to the command: an
        exception that cannot be rebuilt there would hang a process pool).

        >>> import pickle
        >>> str(pickle.loads(pickle.dumps(GameError("g", "what", "tb.txt"))))
        'GAME ERROR in g: what (full traceback in tb.txt)'
        """
        return (type(self), (self.game, self.what, self.traceback_file))
