# kind: wrong only when a count of 17 is mixed with other letters (right when it is alone)
# expect: WA
import sys
from collections import Counter

word = sys.stdin.readline().strip()
counts = Counter(word)
total = 0
for c in counts.values():
    total ^= (c % 3 or 3) if not (c == 17 and len(counts) > 1) else 1
print("Alice" if total else "Bob")
