"""Start a child the way a terminal would, for tests that press Ctrl-C.

A process started from a non-interactive shell's background job inherits SIGINT *ignored*,
and Python then installs no KeyboardInterrupt handler; a test that sends SIGINT would see
nothing happen. Children started with :func:`sigint_default` get SIGINT at its default
disposition, as under a terminal, whatever the test runner inherited.
"""

from __future__ import annotations

import signal


def sigint_default() -> None:
    """``preexec_fn`` for subprocess: SIGINT back to its default disposition in the child."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
