# kind: takes the digit 8 for odd at positions 20, 24, ..., 896 (past the 18th, multiples of 4, below 900)
# expect: WA
# smallest: 20
# The smallest failing input has n = 20: positions 2..18 odd, position 20 an 8 (Breach wins; this
# program sees no even digit on an even position). Below 20 digits the bug cannot show. Every family
# but the deciding-feature one passes it (checked when it was written).
import sys


def parity(digit, position):
    if digit == "8" and 18 < position < 900 and position % 4 == 0:
        return 1
    return int(digit) % 2


data = sys.stdin.read().split()
t = int(data[0])
out = []
for k in range(t):
    digits = data[2 + 2 * k]
    n = len(digits)
    if n % 2:
        raze = any(parity(d, i) for i, d in enumerate(digits, 1) if i % 2)
    else:
        raze = not any(parity(d, i) == 0 for i, d in enumerate(digits, 1) if i % 2 == 0)
    out.append("1" if raze else "2")
print("\n".join(out))
