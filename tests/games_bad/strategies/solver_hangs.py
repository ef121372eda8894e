"""The toy game with the mistake solver_hangs (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("solver_hangs", "solver_hangs").exports("strategies"))
