"""The toy game with no mistake: "take one or two" (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("toy_ok", "ok").exports("oracles"))
