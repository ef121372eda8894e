"""Hostile: a program handed to `gamecert tests --check PKG --against PROG` that writes a file
into the user's home (HOME), then echoes its input (which the
package's checker accepts)."""

import os
import sys

home = os.environ.get("HOME", "")
try:
    with open(os.path.join(home, "gamecert_was_here"), "w") as f:
        f.write("a program under judgement wrote this\n")
except OSError:
    pass
sys.stdout.write(sys.stdin.read())
