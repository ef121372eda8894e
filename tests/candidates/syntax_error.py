import sys

print("Alice" if sys.stdin.read( else "Bob")
