"""Deliberately broken solvers, kept as fixtures: the harness must catch every one.

Each game module defines ``BROKEN``: a dict from a name to a :class:`gamecert.kit.broken.Broken`
(re-exported here), saying what kind of bug it is and, where the smallest failing input is
known from the bug's construction, its size.
"""

from __future__ import annotations

from gamecert.kit.broken import Broken

__all__ = ["Broken"]
