# kind: a bug at one component size beyond small reach: a letter occurring exactly 39 times is valued 0
# expect: WA
import sys
from collections import Counter

word = sys.stdin.readline().strip()
total = 0
for c in Counter(word).values():
    total ^= 0 if c == 39 else (c % 3 or 3)
print("Alice" if total else "Bob")
