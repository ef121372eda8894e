import sys

sys.stdin.read()
line = "Alice " * 10000 + "\n"
while True:
    sys.stdout.write(line)
