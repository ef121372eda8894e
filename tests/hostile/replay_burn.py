"""Hostile for replay (issue 44, point 3): right answers to word_game, after 3 s of CPU (the
game's limit is 2 s): TLE under the game's limits, an answer under a forged report's day."""

import sys
import time

start = time.process_time()
while time.process_time() - start < 3.0:
    pass
word = sys.stdin.readline().strip()
x = 0
for letter in set(word):
    c = word.count(letter)
    x ^= 3 if c % 3 == 0 else c % 3
print("Alice" if x else "Bob")
