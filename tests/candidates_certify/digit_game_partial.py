"""digit_game: right, but answers at most the first 10 games of a batch (fewer lines than t)."""

import sys

data = sys.stdin.read().split()
t = int(data[0])
for k in range(min(t, 10)):
    digits = data[2 + 2 * k]
    n = len(digits)
    if n % 2:
        raze = any(int(d) % 2 for d in digits[0::2])
    else:
        raze = not any(int(d) % 2 == 0 for d in digits[1::2])
    print(1 if raze else 2)
