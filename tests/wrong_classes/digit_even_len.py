# kind: wrong on every game of even length (that game's winner said backwards)
# class: length[%2=0] >= 1
# (a length's parity per game of the batch: the failing games are 2, 4, 6 ... digits long)
import sys

data = sys.stdin.read().split()
t = int(data[0])
out = []
for k in range(t):
    digits = data[2 + 2 * k]
    n = len(digits)
    if n % 2:
        raze = any(int(d) % 2 for d in digits[0::2])
    else:
        raze = not any(int(d) % 2 == 0 for d in digits[1::2])
    out.append("1" if raze != (n % 2 == 0) else "2")
print("\n".join(out))
