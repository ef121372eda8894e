"""The engine, in rooms by role (docs/architecture.md), lowest first:

- the floor, here at the root: :mod:`.registry` (the games), :mod:`.gamecode` (guarded calls into
  a game's code), :mod:`.interrupts`;
- :mod:`.run` (sandbox, containment, fork servers, supervisor, toolchains, limits) and
  :mod:`.report` (reports and certificates, their files);
- :mod:`.plan` (what a certification runs) and :mod:`.judge` (whether each run was right, what
  follows a fault, what the evidence says);
- :mod:`.execute`: a plan run on every core within its budget;
- the top: :mod:`.certification` (one call per certification), :mod:`.items` (the pytest routes),
  :mod:`.solvers` (a registered solver certified), :mod:`.solver_batch` (many at once), :mod:`.replay`, :mod:`.shipping`, and :mod:`.testpack`.

A module imports its own room or a lower one; the engine imports the kit, never a command.
"""
