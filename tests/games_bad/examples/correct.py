"""Take one or two: right (the first player wins unless n is a multiple of 3)."""
import sys

n = int(sys.stdin.readline())
assert 1 <= n <= 100
print("First" if n % 3 else "Second")
