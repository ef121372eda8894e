"""Answers with the first of eight one-letter strings in a set's order, which the hash seed
decides: under ``python FILE`` it varies from run to run (a program wrong for some seeds)."""

import sys

sys.stdin.read()
print(next(iter({"a", "b", "c", "d", "e", "f", "g", "h"})))
