import sys

word = sys.stdin.readline().strip()
raise ValueError(f"cannot handle {word!r}")
