"""gamecert: certify solvers of combinatorial games against exact oracles, with evidence.

The public surface is small: :class:`Game` and :class:`Explanation` to write a game,
:func:`registry.get` to find one, :class:`Verdict` for results, :class:`GamecertError` and its
subclasses for errors.
"""

from pathlib import Path as _Path

from gamecert import _checkout

_checkout.install(
    _Path(__file__).parent
)  # a source checkout: its oracles/... are gamecert.oracles...

from gamecert.errors import (
    AnswerError,
    GamecertError,
    InputError,
    PresentationError,
    RegistryError,
    WrongAnswerError,
)
from gamecert.kit.game import ExhaustiveSpace, Explanation, Game
from gamecert.verdict import Verdict

__version__ = "0.2.0"  # keep equal to pyproject.toml's version (tests/test_plugins.py checks)

__all__ = [
    "__version__",
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
