# class: value[3]%2 == 1 and xor%3 == 0
# (each count divisible by 3 is valued 0 (3 is right): an odd number of them flips the xor by 3, which changes the answer when the xor is 0 or 3; gamecert's diagnosis must find this class: tests/test_diagnose.py)
"""word_game, wrong: treats a letter whose count is a multiple of 3 as a lost pile.

The classic slip the editorial warns about: the 'remove every copy' move makes a count of 3
worth 3, not 0. `gamecert certify word_game examples/word_game/wrong.py` finds the minimal
counterexample AAA.
"""

import sys
from collections import Counter


def main() -> None:
    word = sys.stdin.readline().strip()
    total = 0
    for count in Counter(word).values():
        total ^= count % 3  # wrong for counts divisible by 3
    print("Alice" if total else "Bob")


if __name__ == "__main__":
    main()
