"""The toy game with the mistake family_zero (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("family_zero", "family_zero").exports("fast"))
