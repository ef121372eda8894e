"""digit_game, wrong: for even n, looks for an even digit anywhere instead of on even positions.

Breach only marks even positions, but the last digit is on an even position whatever Raze
does; an even digit on an odd position is Raze's to remove. The minimal counterexample is a
single two-digit game such as 21.
"""

import sys


def main() -> None:
    data = sys.stdin.read().split()
    t = int(data[0])
    for k in range(t):
        digits = data[2 + 2 * k]
        n = len(digits)
        if n % 2:
            raze = any(int(d) % 2 for d in digits[0::2])
        else:
            raze = not any(int(d) % 2 == 0 for d in digits)  # wrong: every position
        print(1 if raze else 2)


if __name__ == "__main__":
    main()
