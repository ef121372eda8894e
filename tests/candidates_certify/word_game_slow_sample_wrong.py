"""word_game: wrong on the sample ZADACHA only, and slow (0.3 s) on every other input.

Used to interrupt a run after it has found a fault but before it has finished looking for a
smaller one.
"""

import sys
import time
from collections import Counter

word = sys.stdin.readline().strip()
total = 0
for c in Counter(word).values():
    total ^= c % 3 or 3
if word == "ZADACHA":
    print("Bob")
else:
    time.sleep(0.3)
    print("Alice" if total else "Bob")
