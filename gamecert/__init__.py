"""gamecert: certify solvers of combinatorial games against exact oracles, with evidence.

The public surface is small: :class:`Game` and :class:`Explanation` to write a game,
:func:`registry.get` to find one, :class:`Verdict` for results, :class:`GamecertError` and its
subclasses for errors.
"""

import time as _time
from pathlib import Path as _Path

#: when gamecert was imported: a command's start, from which its budget's overrun is counted
#: (gamecert.engine.fault_time.first_origin)
STARTED = _time.monotonic()  # before the imports below, to count their time

from gamecert import _checkout  # noqa: E402

# a source checkout: its oracles/... are gamecert.oracles... (so the imports below come after it)
_checkout.install(_Path(__file__).parent)

from gamecert.errors import (  # noqa: E402
    AnswerError,
    GamecertError,
    InputError,
    PresentationError,
    RegistryError,
    WrongAnswerError,
)
from gamecert.kit.game import ExhaustiveSpace, Explanation, Game  # noqa: E402
from gamecert.verdict import Verdict  # noqa: E402

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
