"""The toy game with the mistake family_count (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("family_count", "family_count").exports("oracles"))
