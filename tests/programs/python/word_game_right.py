"""word_game: xor over letters of the Grundy value of each letter's count."""
from collections import Counter


def grundy(count):
    if count == 0:
        return 0
    return 3 if count % 3 == 0 else count % 3


x = 0
for count in Counter(input().strip()).values():
    x ^= grundy(count)
print("Alice" if x else "Bob")
