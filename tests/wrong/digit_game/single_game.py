# kind: wrong only when t == 1 (a single game takes another code path that looks at every position)
# expect: WA
import sys


def winner(digits):
    if len(digits) % 2:
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


data = sys.stdin.read().split()
t = int(data[0])
if t == 1:
    digits = data[2]
    if len(digits) % 2:
        print(1 if any(int(ch) % 2 for ch in digits) else 2)
    else:
        print(2 if any(int(ch) % 2 == 0 for ch in digits) else 1)
else:
    for k in range(t):
        print(winner(data[2 + 2 * k]))
