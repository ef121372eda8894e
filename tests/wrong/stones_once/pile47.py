# kind: a bug at one component size: a pile of exactly 47 stones is valued 8 (it is 9)
# expect: WA
# class: count[47]%2 == 1 and xor_class <= 1
# (a pile of 47 valued 8 (9 is right) flips the xor's last bit: an odd number of them changes the answer when the xor is 0 or 1; gamecert's diagnosis must find this class: tests/test_diagnose.py)
import sys


def value(s):
    k = 0
    while (k + 1) * (k + 2) // 2 <= s:
        k += 1
    return k


VALUES = [value(s) for s in range(61)]


data = sys.stdin.buffer.read().split()
n = int(data[0])
total = 0
for token in data[1 : 1 + n]:
    s = int(token)
    total ^= 8 if s == 47 else VALUES[s]
print("YES" if total == 0 else "NO")
