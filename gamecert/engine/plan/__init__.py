"""What a certification runs, decided before anything runs: the phases and their shares of the
budget, groups and chunks (:mod:`.plan`), the exhaustive spaces as swept (:mod:`.spaces`), the Hypothesis draws (:mod:`.draws`), the profiles
(:mod:`.profiles`), and the cross-checks of the registered solvers among themselves
(:mod:`.crosscheck`).

May import: the kit, ``gamecert.errors``, the engine's floor (:mod:`gamecert.engine.gamecode`,
:mod:`gamecert.engine.interrupts`, :mod:`gamecert.engine.registry`); never the judge, the
executor or anything above them.
"""
