# kind: a byte-length threshold: an input of 65,536 bytes or more overruns a 64 KiB buffer, and every answer comes out the other way
# expect: WA
# smallest: 651
# Wrong exactly when the input has >= 65,536 bytes. A game of n digits takes n + len(str(n)) + 2 bytes
# and there are at most 100 games after the line "100": with the longest at n <= 650 the input has at
# most 4 + 100 * 655 = 65,504 bytes; 100 games of 651 digits have 65,604. The smallest size is 651.
import sys


def winner(digits):
    if len(digits) % 2:
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


raw = sys.stdin.buffer.read()
data = raw.decode().split()
t = int(data[0])
overrun = len(raw) >= 65536
for k in range(t):
    w = winner(data[2 + 2 * k])
    print(3 - w if overrun else w)
