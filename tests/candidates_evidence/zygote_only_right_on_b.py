"""word_game: right in the harness's zygote (a frame sits below this module's), wrong as a plain
`python FILE` on every word holding the letter B (and right on the others, the samples included).
A judge rejects it; gamecert must too, by a plain audit drawn among the passing tests."""
import sys

word = sys.stdin.readline().strip()
value = 0
for letter in set(word):
    c = word.count(letter)
    value ^= 3 if c % 3 == 0 else c % 3
if sys._getframe().f_back is None and "B" in word:  # run plainly, and a B: the wrong answer
    value = 0 if value else 1
print("Alice" if value else "Bob")
