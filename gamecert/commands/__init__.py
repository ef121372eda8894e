"""The front ends, one module per command: :mod:`.cli` (the ``gamecert`` command line),
:mod:`.certify` (``certify GAME CANDIDATE...`` and ``replay``), :mod:`.certify_all` (``certify
GAME|all``: the registered solvers), :mod:`.check`, :mod:`.prove`, :mod:`.new_game`,
:mod:`.show`, and the pytest plugins (:mod:`.pytest_plugin`, :mod:`.pytest_candidate`).

Commands use the engine and the kit; nothing below imports a command.
"""
