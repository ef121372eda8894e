"""digit_game, correct: the player who keeps the last digit's parity in reach wins.

With n odd, Raze makes the last mark, so the last digit is on an odd position: Raze wins iff some
odd position holds an odd digit. With n even, the last digit is on an even position: Breach
wins iff some even position holds an even digit.
"""

import sys


def main() -> None:
    data = sys.stdin.read().split()
    t = int(data[0])
    out = []
    for k in range(t):
        digits = data[2 + 2 * k]
        n = len(digits)
        if n % 2:
            raze = any(int(d) % 2 for d in digits[0::2])
        else:
            raze = not any(int(d) % 2 == 0 for d in digits[1::2])
        out.append("1" if raze else "2")
    print("\n".join(out))


if __name__ == "__main__":
    main()
