"""The kit a game's author writes with: the :class:`~gamecert.kit.game.Game` base class and its
helpers (:mod:`.game`), the answer reader every game shares (:mod:`.tokens`), text from outside
shown with its invisible characters escaped (:mod:`.escape`), claims and their
evidence (:mod:`.claims`, :mod:`.smt`), coverage buckets (:mod:`.coverage`), plots
(:mod:`.plots`), deliberately broken solvers (:mod:`.broken`), the markers of a game still being
written (:mod:`.todo`) and the octal games (:mod:`.octal`: the theory, and one game for any code).

The kit imports nothing from the engine or the commands; the games (``gamecert.oracles``,
``gamecert.fast``, ``gamecert.strategies``, ``gamecert.proofs``) import only the kit.
"""
