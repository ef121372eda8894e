import sys

sys.stdin.read()
print("Alice")
sys.exit(3)
