"""Take one or two: wrong (thinks the first player loses at every even n from 8 on)."""
import sys

n = int(sys.stdin.readline())
print("Second" if n % 3 == 0 or (n >= 8 and n % 2 == 0) else "First")
