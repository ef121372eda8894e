"""gamecert: certify solvers of combinatorial games against exact oracles, with evidence.

The public surface is small: :class:`Game` and :class:`Explanation` to write a game,
:func:`registry.get` to find one, :class:`Verdict` for results, :class:`GamecertError` and its
subclasses for errors.
"""

from gamecert.errors import AnswerError, GamecertError, InputError, PresentationError, RegistryError, WrongAnswerError
from gamecert.game import ExhaustiveSpace, Explanation, Game
from gamecert.verdict import Verdict

__all__ = [
    "AnswerError",
    "ExhaustiveSpace",
    "Explanation",
    "Game",
    "GamecertError",
    "InputError",
    "PresentationError",
    "RegistryError",
    "Verdict",
    "WrongAnswerError",
]

#: this source tree's version (the package metadata's, when installed, is reported first)
__version__ = "0.1.0"
