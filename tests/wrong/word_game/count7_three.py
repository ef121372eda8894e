# kind: a letter seen exactly 7 times is valued 0 (it is 1), but only in words of three or more distinct letters
# expect: WA
# smallest: 9
# A failing word needs a letter 7 times and two more letters (9 letters at least); AAAAAAABC fails:
# the values 1, 1, 1 xor to 1 (Alice), this program makes it 0 (Bob).
# class: mult[7]%2 == 1 and distinct >= 3 and xor <= 1
# (a letter 7 times valued 0 (1 is right) flips the xor's last bit: the answer changes when the xor is 0 or 1; two such letters cancel; gamecert's diagnosis must find this class: tests/test_diagnose.py)
import sys
from collections import Counter


def value(count):
    return 3 if count % 3 == 0 else count % 3


word = sys.stdin.readline().strip()
counts = Counter(word)
total = 0
for count in counts.values():
    total ^= 0 if count == 7 and len(counts) >= 3 else value(count)
print("Alice" if total else "Bob")
