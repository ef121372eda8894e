# kind: a bug at one size and one batch position: n exactly 777 as the 100th game is answered the other way
# expect: WA
import sys


def winner(digits):
    if len(digits) % 2:
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


data = sys.stdin.read().split()
t = int(data[0])
for k in range(t):
    w = winner(data[2 + 2 * k])
    if k == 99 and len(data[2 + 2 * k]) == 777:
        w = 3 - w
    print(w)
