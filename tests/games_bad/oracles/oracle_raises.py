"""The toy game with the mistake oracle_raises (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("oracle_raises", "oracle_raises").exports("oracles"))
