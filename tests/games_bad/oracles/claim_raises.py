"""The toy game with the mistake claim_raises (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("claim_raises", "claim_raises").exports("oracles"))
