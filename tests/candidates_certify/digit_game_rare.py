"""digit_game: right except on a six-digit number whose digits are all odd (answers 2, not 1)."""

import sys

data = sys.stdin.read().split()
t = int(data[0])
for k in range(t):
    digits = data[2 + 2 * k]
    n = len(digits)
    if n % 2:
        raze = any(int(d) % 2 for d in digits[0::2])
    else:
        raze = not any(int(d) % 2 == 0 for d in digits[1::2])
    if n == 6 and all(int(d) % 2 for d in digits):
        raze = False
    print(1 if raze else 2)
