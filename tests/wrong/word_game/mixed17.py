# kind: wrong only when a count of 17 is mixed with other letters (right when it is alone)
# expect: WA
# class: mult[17]%2 == 1 and distinct >= 2 and xor%3 == 0
# (a count of 17 valued 1 (2 is right) flips the xor by 3: the answer changes when the xor is 0 or 3; two such letters cancel; gamecert's diagnosis must find this class: tests/test_diagnose.py)
import sys
from collections import Counter

word = sys.stdin.readline().strip()
counts = Counter(word)
total = 0
for c in counts.values():
    total ^= (c % 3 or 3) if not (c == 17 and len(counts) > 1) else 1
print("Alice" if total else "Bob")
