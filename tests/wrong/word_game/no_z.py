# kind: one letter value mishandled: the count table has 25 slots, so Z is never counted
# expect: WA
import sys

word = sys.stdin.readline().strip()
counts = [0] * 25
for ch in word:
    if ord(ch) - 65 < 25:
        counts[ord(ch) - 65] += 1
total = 0
for c in counts:
    if c:
        total ^= c % 3 or 3
print("Alice" if total else "Bob")
