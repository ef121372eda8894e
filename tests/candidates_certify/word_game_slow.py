"""word_game: right, but takes 0.05 s of wall time per test (to be interrupted)."""

import sys
import time
from collections import Counter

word = sys.stdin.readline().strip()
total = 0
for c in Counter(word).values():
    total ^= c % 3 or 3
time.sleep(0.05)
print("Alice" if total else "Bob")
