"""digit_game, wrong: right but for a game whose number holds the digits 27182818 in a row, where
it answers the opposite (a "special case" of the program's own). A random 1,000-digit number
holds them with a chance of about 1 in 100,000 and no family writes them; the guided phase reads
the operands of the `in` comparison and writes them into a game.
smallest: one game, n = 8, 27182818 (size 8)
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
        if "27182818" in digits:
            raze = not raze
        out.append("1" if raze else "2")
    print("\n".join(out))


if __name__ == "__main__":
    main()
