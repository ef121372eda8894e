"""stones_once: the pile's value by its rule (distinct amounts, each at most once), by count."""

import sys


def value(s: int) -> int:
    k = 0
    while (k + 1) * (k + 2) // 2 <= s:
        k += 1
    return k


def main() -> None:
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    counts = [0] * 61
    for token in data[1 : 1 + n]:
        counts[int(token)] += 1
    total = 0
    for s in range(1, 61):
        if counts[s] % 2:
            total ^= value(s)
    sys.stdout.write("YES\n" if total == 0 else "NO\n")


main()
