"""dawson_kayles, the octal heap game 0.07: the game (rules, formats, minimax and the Sprague-Grundy oracle).

Built from the code alone by gamecert.kit.octal.octal_parts; nothing here is game-specific.
"""

from gamecert.kit.octal import octal_parts

globals().update(octal_parts("0.07", "dawson_kayles").exports("oracles"))

# the certification core (gamecert.kit.core), sized for a JVM per test: 10 tests/s a runner, 2 runners
from types import MappingProxyType  # noqa: E402

from gamecert.kit.core import Core  # noqa: E402

GAME.certification_core = MappingProxyType(  # type: ignore[name-defined]  # noqa: F821
    {
        "default": Core(
            families={
                "decides-heap-value": 150,
                "heap-size-alone": 120,
                "heap-size-mixed": 100,
                "heap-count": 50,
            },
            exhaustive={"heap-multisets": 10},
            reason=(
                "a heap's value is periodic with period 34 from size 52 on (0.07, the octal "
                "periodicity theorem: proofs/dawson_kayles); the families' first inputs run every "
                "heap size to 120 alone (the pre-period and 2 periods) and to 100 mixed, the first "
                "150 settings of a heap beside its cancelling partner, heap counts 1..50; every "
                "multiset of heaps to 10: about 570 runs, 29 s for a JVM per test at 20 tests/s "
                "on 2 runners"
            ),
        ),
        "thorough": Core(
            reason="the whole plan: every family whole, every multiset of heaps to 12"
        ),
    }
)
