"""The toy game with the mistake sample_oracle (see ../_toy.py)."""
from .._toy import parts

globals().update(parts("sample_oracle", "sample_oracle").exports("fast"))
