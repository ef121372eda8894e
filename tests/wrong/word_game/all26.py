# kind: wrong only when all 26 letters occur
# expect: WA
# class: distinct >= 26 and xor <= 1
# (the extra xor by 1 changes the answer when the xor is 0 or 1; gamecert's diagnosis must find this class: tests/test_diagnose.py)
import sys
from collections import Counter

word = sys.stdin.readline().strip()
counts = Counter(word)
total = 0
for c in counts.values():
    total ^= c % 3 or 3
if len(counts) == 26:
    total ^= 1
print("Alice" if total else "Bob")
