"""Claims about string_cut; filled in with the proofs work."""

CLAIMS: list = []
