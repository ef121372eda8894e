# Right on every word except one of exactly 13 letters, all different, where it answers the
# opposite. Its smallest failing inputs (ABCDEFGHIJKLM and the like) lie in word_game's
# letter-count multisets at size 13, cheap there (101 multisets up to 13 letters), but a budget
# class: size == 13 and distinct >= 13
# (the answer is flipped for 13 letters, all different; gamecert's diagnosis must find this class: tests/test_diagnose.py)
# spent size by size across every exhaustive space at once stops at size 2 of the larger ones.
import sys

word = sys.stdin.readline().strip()
total = 0
for letter in set(word):
    c = word.count(letter)
    total ^= 3 if c % 3 == 0 else c % 3
if len(word) == 13 and len(set(word)) == 13:
    total = 0 if total else 1
print("Alice" if total else "Bob")
