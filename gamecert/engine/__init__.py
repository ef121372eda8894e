"""The engine: what a certification runs (:mod:`.plan`), how each run is judged (:mod:`.judge`),
how the plan is executed on all cores within a time budget (:mod:`.execute`), what the evidence
says afterwards (:mod:`.evidence`) and how it is written (:mod:`.reports`); the games it knows
(:mod:`.registry`), the subjects it certifies (:mod:`.subjects`: registered solvers in-process,
programs through :mod:`.sandbox`, :mod:`.forkserver`, :mod:`.contain` and :mod:`.toolchains`),
and what travels to other hosts (:mod:`.shipping`).

The engine imports the kit, never a command.
"""
