# class: mult[7] >= 1 and distinct >= 3
# (the answer is flipped whenever a letter occurs 7 times among 3 or more distinct letters; gamecert's diagnosis must find this class: tests/test_diagnose.py)
"""word_game: right except when some letter occurs exactly 7 times among at least 3 letters.

Smallest failing input in the exhaustive order: AAAAAAABC (size 9).
"""

import sys
from collections import Counter

word = sys.stdin.readline().strip()
counts = Counter(word)
total = 0
for c in counts.values():
    total ^= c % 3 or 3
wins = bool(total)
if 7 in counts.values() and len(counts) >= 3:
    wins = not wins
print("Alice" if wins else "Bob")
