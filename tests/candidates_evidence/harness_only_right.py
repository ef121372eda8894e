"""word_game: right when a frame sits below this module's (a harness runs it), wrong when run
plainly as `python FILE`. A judge rejects it; gamecert must too."""
import sys

word = sys.stdin.readline().strip()
value = 0
for letter in set(word):
    c = word.count(letter)
    value ^= 3 if c % 3 == 0 else c % 3
if sys._getframe().f_back is None:  # run plainly: no harness around
    value = 0 if value else 1
print("Alice" if value else "Bob")
