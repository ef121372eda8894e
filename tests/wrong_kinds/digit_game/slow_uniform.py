# expect: TLE
# smallest: 901 (one game of 901 equal digits; the size measure is the longest number's digits)
"""digit_game: right answers, but a game whose number has more than 900 digits, all the same
digit, takes seconds of CPU (a 'check' the author left in): TLE on that shape only."""
import sys


def main() -> None:
    data = sys.stdin.read().split()
    t = int(data[0])
    out = []
    for k in range(t):
        digits = data[2 + 2 * k]
        n = len(digits)
        if n > 900 and digits.count(digits[0]) == n:
            x = 0
            for i in range(60_000_000):
                x += i
        if n % 2:
            raze = any(int(d) % 2 for d in digits[0::2])
        else:
            raze = not any(int(d) % 2 == 0 for d in digits[1::2])
        out.append("1" if raze else "2")
    print("\n".join(out))


if __name__ == "__main__":
    main()
