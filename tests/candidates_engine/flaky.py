"""word_game, right on every other run: runs are counted in a file beside the program (every
second run of a word of 3 letters or more answers the opposite). A nondeterministic program: a
judge may accept or reject it, so it must not be certified. It keeps its count only where it can
write beside itself: not contained (a contained program's every test starts from nothing)."""
import os
from collections import Counter

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs.count")
try:
    with open(path) as f:
        runs = int(f.read() or 0)
except (OSError, ValueError):
    runs = 0
with open(path, "w") as f:
    f.write(str(runs + 1))
word = input().strip()
value = 0
for count in Counter(word).values():
    value ^= 3 if count % 3 == 0 else count % 3
if len(word) >= 3 and runs % 2 == 1:
    value = 0 if value else 1
print("Alice" if value else "Bob")
