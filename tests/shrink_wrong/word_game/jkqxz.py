# kind: a pattern outside every family: a word holding each of J, K, Q, X and Z is answered the other way
# expect: WA
# smallest: 5
# A failing word holds the five letters J, K, Q, X, Z: 5 letters at least, and JKQXZ fails. No
# exhaustive space holds it (short-words stops at 3 letters; the count multisets name letters A, B, ...
# in order) and no family names these letters together.
import sys
from collections import Counter

word = sys.stdin.readline().strip()
total = 0
for c in Counter(word).values():
    total ^= c % 3 or 3
if set("JKQXZ") <= set(word):
    total = 0 if total else 1
print("Alice" if total else "Bob")
