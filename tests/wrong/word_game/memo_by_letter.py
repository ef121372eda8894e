# kind: right, but the memoised search is keyed by every letter's count, not the sorted counts: slow on words with many repeated letters
# expect: TLE
"""Right on every word; the memo over 26 per-letter counts has a state for each combination of
remaining counts (a product over letters), so words with many distinct letters, each repeated, time out."""
import sys
from functools import lru_cache


@lru_cache(maxsize=None)
def wins(counts):
    for i, c in enumerate(counts):
        for take in {1, 2, c}:
            if 1 <= take <= c:
                after = counts[:i] + (c - take,) + counts[i + 1:]
                if not any(after) or not wins(after):
                    return True
    return False


sys.setrecursionlimit(10000)
word = sys.stdin.readline().strip()
counts = [0] * 26
for ch in word:
    counts[ord(ch) - 65] += 1
print("Alice" if wins(tuple(counts)) else "Bob")
