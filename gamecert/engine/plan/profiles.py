"""Settings profiles: how hard a run looks, by name instead of magic numbers.

Chosen by ``--profile`` (command line), ``--gamecert-profile`` (pytest) or the environment
variable ``GAMECERT_PROFILE``; ``default`` (alias ``ci``) when none is given.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from gamecert.errors import UsageError

ENV_VAR = "GAMECERT_PROFILE"


@dataclass(frozen=True)
class Profile:
    name: str
    #: Hypothesis examples per property
    examples: int
    #: fraction of each exhaustive space's sizes to sweep (1.0 = all of it)
    exhaustive: float
    #: Hypothesis examples at full constraint size (slow solvers make these dear)
    large_examples: int
    description: str
    #: how long ``gamecert certify`` may look, in seconds (``--budget`` overrides)
    budget_s: float = 60.0
    #: whether a first-pass family (a size ladder: gamecert.kit.game.Family.first) runs before the
    #: others of its phase; the quick profile's seconds would go to it alone
    first_pass: bool = True
    #: the share of the budget the diagnosis of a fault may take (when it fails; at most 0.2;
    #: gamecert.engine.judge.diagnose): a certification that finds nothing spends none of it
    diagnose_share: float = 0.15


PROFILES = {
    "quick": Profile(
        "quick",
        30,
        0.5,
        5,
        "seconds: half of each exhaustive space, few random cases",
        10.0,
        False,
        0.2,
    ),
    "default": Profile(
        "default",
        200,
        1.0,
        60,
        "every exhaustive space in full, 200 random cases per property",
        60.0,
    ),
    "thorough": Profile(
        "thorough",
        2000,
        1.0,
        200,
        "as long as it needs: 2000 random cases per property",
        900.0,
        diagnose_share=0.1,
    ),
}
ALIASES = {"ci": "default"}


def get_profile(name: str | None = None) -> Profile:
    """The profile called ``name``, else the one ``GAMECERT_PROFILE`` names, else default."""
    chosen = name or os.environ.get(ENV_VAR) or "default"
    chosen = ALIASES.get(chosen, chosen)
    if chosen not in PROFILES:
        raise UsageError(
            f"unknown profile {chosen!r}; choose one of {', '.join([*PROFILES, *ALIASES])}"
        )
    return PROFILES[chosen]
