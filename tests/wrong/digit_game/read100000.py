# kind: reads only the first 100,000 bytes of the input (a fixed buffer); a cut-off game is judged on the digits it has
# expect: WA
import sys


def winner(digits):
    if len(digits) % 2:
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


data = sys.stdin.buffer.read(100000).decode().split()
t = int(data[0])
for k in range(t):
    digits = data[2 + 2 * k] if 2 + 2 * k < len(data) else "2"
    print(winner(digits))
