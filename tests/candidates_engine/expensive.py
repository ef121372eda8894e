"""word_game, right, but every run burns 0.3 s of CPU first: an expensive program whose
certification must still end near its time budget."""
import time
from collections import Counter

start = time.process_time()
while time.process_time() - start < 0.3:
    pass
value = 0
for count in Counter(input().strip()).values():
    value ^= 3 if count % 3 == 0 else count % 3
print("Alice" if value else "Bob")
