"""Claims about digit_game; filled in with the proofs work."""

CLAIMS: list = []
