"""The toy game with the mistake sample_solver (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("sample_solver", "sample_solver").exports("oracles"))
