"""Hostile (issue 44, point 4): answers word_game right, then writes a coverage record of its own
whose branch id is not a number, and leaves with os._exit so that the instrumented build's own
record is never written: the guided phase reads the program's text as its coverage."""

import base64
import json
import os
import sys

word = sys.stdin.readline().strip()
x = 0
for letter in set(word):
    c = word.count(letter)
    x ^= 3 if c % 3 == 0 else c % 3
sys.stdout.write("Alice\n" if x else "Bob\n")
sys.stdout.flush()
forged = base64.b64encode(json.dumps([["not-a-number", 1, 1]]).encode()).decode()
os.write(2, f"\n@@gcov br={forged} cmps=\n".encode())
os._exit(0)
