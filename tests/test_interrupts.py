"""Ctrl-C that lands in a garbage-collector callback (Hypothesis registers one) is kept quiet and
raised again at the next checkpoint, never printed as a traceback; other exceptions Python cannot
raise are printed as before."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = textwrap.dedent(
    """
    import gc, sys
    from gamecert.engine import interrupts

    interrupts.install()

    class Raises:
        def __init__(self, exc):
            self.exc = exc

        def __del__(self):
            raise self.exc

    def callback(phase, info):  # as a gc callback of Hypothesis's would be interrupted
        if phase == "start" and KIND == "interrupt":
            interrupts._pending = True
            raise KeyboardInterrupt

    KIND = sys.argv[1]
    gc.callbacks.append(callback)
    if KIND == "other":
        obj = Raises(ValueError("not ours"))
        del obj
    gc.collect()
    gc.callbacks.remove(callback)
    try:
        interrupts.checkpoint()
    except KeyboardInterrupt:
        print("raised again at the checkpoint")
    """
)


def _run(kind: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, kind],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_a_ctrl_c_in_a_gc_callback_is_quiet_and_raised_again() -> None:
    quiet = _run("interrupt")
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stderr == "" and "Traceback" not in quiet.stderr, quiet.stderr
    assert quiet.stdout.strip() == "raised again at the checkpoint", quiet.stdout
    # the control: an exception of another kind Python cannot raise is printed as before
    other = _run("other")
    assert "Exception ignored" in other.stderr and "not ours" in other.stderr, other.stderr
    assert "raised again" not in other.stdout
