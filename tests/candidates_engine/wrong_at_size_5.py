"""word_game, right except on words of exactly 5 letters with a letter occurring 4 times: a fault
whose smallest inputs have size 5, so a report of it is minimal only if every smaller input ran."""
from collections import Counter

word = input().strip()
counts = Counter(word)
value = 0
for count in counts.values():
    value ^= 3 if count % 3 == 0 else count % 3
if len(word) == 5 and 4 in counts.values():
    value = 0 if value else 1
print("Alice" if value else "Bob")
