"""stones_once, wrong: the pile values are a typed-in table that stops at 9.

The table is right for every pile of 1..54 stones, but piles of 55..60 (worth 10) are given 9,
so the bug shows only when such a pile meets others whose values xor to 9 or 10. The samples
pass. `gamecert certify stones_once examples/stones_once/wrong.py` finds it and shrinks it to
a two-pile input.
"""

import sys

# 1, 1, 2, 2, 2, 3, ...: the value steps up at 1, 3, 6, 10, 15, 21, 28, 36, 45 (and then stops)
STEPS = (1, 3, 6, 10, 15, 21, 28, 36, 45)


def main() -> None:
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    total = 0
    for token in data[1 : 1 + n]:
        s = int(token)
        total ^= sum(1 for t in STEPS if t <= s)
    print("YES" if total == 0 else "NO")


if __name__ == "__main__":
    main()
