import sys

sys.stdin.read()
hoard = []
while True:
    hoard.append(bytearray(8 << 20))
