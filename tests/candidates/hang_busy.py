import sys

sys.stdin.read()
n = 0
while True:
    n += 1
