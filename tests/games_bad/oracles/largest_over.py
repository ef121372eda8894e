"""The toy game with the mistake largest_over (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("largest_over", "largest_over").exports("oracles"))
