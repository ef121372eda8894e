"""How a subject runs, one test at a time: the sandbox and its containment (bubblewrap, cgroups),
the fork servers (the Python zygote, the native shim) and the supervisor beneath them
(``supervisor/``, standard library only, it runs inside the sandbox), the toolchains that build a
program, its limits, the test files it reads and writes; a registered solver's in-process runner
(:mod:`.subjects`).

It owns processes, files and limits, and knows nothing of games, plans or verdicts: a run gives
back what happened (output, status, CPU time, memory), never whether it was right.

May import: the standard library, ``gamecert.errors``; nothing else of the engine (every other room
imports it).
"""
