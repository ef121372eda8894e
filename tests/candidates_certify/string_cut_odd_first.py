"""string_cut, wrong: answers First (and the cut 2) whenever the length is odd, else Second."""
import sys
s = sys.stdin.readline().strip()
print("First\n2" if len(s) % 2 else "Second")
