"""word_game: Alice wins iff the xor over letters of g(c) is nonzero, g(c) = 3 if 3 | c else c % 3."""

import sys


def main() -> None:
    word = sys.stdin.readline().strip()
    counts = [0] * 26
    for ch in word:
        counts[ord(ch) - ord("A")] += 1
    total = 0
    for c in counts:
        if c:
            total ^= 3 if c % 3 == 0 else c % 3
    print("Alice" if total else "Bob")


if __name__ == "__main__":
    main()
