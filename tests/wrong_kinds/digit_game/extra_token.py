# expect: WA
# smallest: 999 (a batch whose last game has 999 digits)
"""digit_game: right answers, but after a batch whose last game has exactly 999 digits it prints
one token too many (a debugging count left in): WA on that shape only."""
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
    if len(data[-1]) + 1 == 1000:
        out.append(str(t))
    print("\n".join(out))


if __name__ == "__main__":
    main()
