"""digit_game: the last digit lies in Raze's odd positions when n is odd and in Breach's even
positions when n is even, and each player marks the parity they do not want first; so Raze wins
an odd n iff an odd position holds an odd digit, Breach an even n iff an even position holds an
even digit."""

import sys


def winner(digits: bytes) -> int:
    if len(digits) % 2:
        return 1 if any(d % 2 for d in digits[0::2]) else 2
    return 2 if any(d % 2 == 0 for d in digits[1::2]) else 1


def main() -> None:
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    out = []
    for g in range(t):
        digits = data[2 + 2 * g]
        out.append(str(winner(digits)))
    sys.stdout.write("\n".join(out) + "\n")


main()
