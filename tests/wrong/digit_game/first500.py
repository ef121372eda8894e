# kind: reads only the first 500 digits of each number
# expect: WA
import sys


def winner(digits):
    if len(digits) % 2:
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


data = sys.stdin.read().split()
t = int(data[0])
for k in range(t):
    n = int(data[1 + 2 * k])
    digits = data[2 + 2 * k][:500]
    if n % 2 != len(digits) % 2:  # keep the parity of n, as the rule needs
        digits = digits[:-1]
    print(winner(digits))
