"""The toy game with the mistake shrinker_hangs (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("shrinker_hangs", "shrinker_hangs").exports("fast"))
