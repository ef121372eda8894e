"""Octal heap games as a family: the code is the game. :mod:`.theory` holds the codes, their
Grundy values and the periodicity theorem; :mod:`.game` builds every part of a registered game
from a code (:func:`octal_parts`). The names a game's modules use are importable from here.
"""

from gamecert.kit.octal.game import (
    LINE_STEPS,
    MAX_HEAP,
    MAX_HEAPS,
    SHOWN_MOVES,
    OctalAnswer,
    OctalHeapGame,
    OctalParts,
    _first_move_to,  # noqa: F401 (for the broken solvers' templates and tests)
    _last_move_to,  # noqa: F401 (for the broken solvers' templates and tests)
    _mex_dp,  # noqa: F401 (for the broken solvers' templates and tests)
    octal_parts,
)
from gamecert.kit.octal.theory import (
    NotPeriodicYet,
    OctalGame,
    Periodicity,
    _first_proved_period,  # noqa: F401 (for the broken solvers' templates and tests)
    check_period,
    check_periodic_table,
    periodicity_claim,
    plot_data,
    recurrence_claim,
    theorem_range,
)

__all__ = [
    "LINE_STEPS",
    "MAX_HEAP",
    "MAX_HEAPS",
    "SHOWN_MOVES",
    "NotPeriodicYet",
    "OctalAnswer",
    "OctalGame",
    "OctalHeapGame",
    "OctalParts",
    "Periodicity",
    "check_period",
    "check_periodic_table",
    "octal_parts",
    "periodicity_claim",
    "plot_data",
    "recurrence_claim",
    "theorem_range",
]
