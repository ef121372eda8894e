"""Claims about word_game; filled in with the proofs work."""

CLAIMS: list = []
