"""Hostile (issue 44, point 7): answers word_game right, and on the way writes a file into its
HOME (the user's, outside a box) and reads what it can of the user's home."""

import os
import sys

home = os.environ.get("HOME", "")
try:
    with open(os.path.join(home, "gamecert_was_here"), "w") as f:
        f.write("a candidate wrote this\n")
except OSError:
    pass
word = sys.stdin.readline().strip()
x = 0
for letter in set(word):
    c = word.count(letter)
    x ^= 3 if c % 3 == 0 else c % 3
print("Alice" if x else "Bob")
