"""The toy game with the mistake shrinker_invalid (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("shrinker_invalid", "shrinker_invalid").exports("proofs"))
