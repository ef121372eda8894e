"""Test packages for problem setters: the tests chosen and judged (:mod:`.testset`), the package
written in Polygon's layout with its validator, checker and kill matrix (:mod:`.testpack`), and the
mutants of the reference solution it must kill (:mod:`.mutants`).

May import: the judge, run and report rooms, the plan room, the kit, the engine's floor; nothing
imports it but the ``tests`` command.
"""
