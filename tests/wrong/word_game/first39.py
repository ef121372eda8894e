# kind: reads at most 39 letters (a buffer one short of the maximum)
# expect: WA
import sys
from collections import Counter

word = sys.stdin.readline().strip()[:39]
total = 0
for c in Counter(word).values():
    total ^= c % 3 or 3
print("Alice" if total else "Bob")
