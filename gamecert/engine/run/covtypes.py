"""What an instrumented build is and what one run of it reports (the guided phase's words,
shared by the routes: :mod:`gamecert.engine.run.instrument` and its language modules)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from typing import Any


class NoRoute(Exception):
    """The candidate cannot be instrumented; the message says why (one line)."""


@dataclass
class Site:
    """A place the evidence names: a basic block (C, C++) or a branch side (Python)."""

    line: int
    text: str
    what: str = ""  # Python: "if ... true side"
    where: str = ""  # Java: "Class:line"


@dataclass
class Instrumented:
    """A candidate's instrumented build: the candidate to run, and what its coverage can name."""

    candidate: Any
    language: str
    how: str
    #: every site the program holds, by key (a block's address, or (branch id, side))
    sites: dict[Any, Site] = field(default_factory=dict)
    workdir: str = ""
    #: the route reports no float comparison (LLVM's trace-compares: integers only) and the source
    #: uses floats: the guided search makes its near-constant inputs without seeing one compared
    floats_unseen: bool = False

    def close(self) -> None:
        if self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = ""


@dataclass
class Coverage:
    """What one run reached: features (for novelty), sites (for evidence), comparison operands."""

    features: frozenset = frozenset()
    sites: frozenset = frozenset()
    #: (kind, a, b): kind "i" integer, "f" float, "s" string, "l" two tuples of integers (Python)
    cmps: tuple = ()
    #: (comparison site, the closest its operands came unequal): |a - b|, for native floats the
    #: distance in ulps; the search keeps an input that brings a site's operands closer
    near: tuple = ()
    #: the record was there but could not be read: it was ignored (it is the program's own text)
    malformed: bool = False
    #: Python: the comparisons' operands as expressions over the input's tokens
    #: (:class:`gamecert.engine.run.instrument_sym.SymRecord`), or None
    sym: Any = None


__all__ = ["Coverage", "Instrumented", "NoRoute", "Site"]
