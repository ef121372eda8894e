"""The toy game with the mistake explain_raises (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("explain_raises", "explain_raises").exports("oracles"))
