# kind: a count threshold past 30,000 components: the digits of all games go into one buffer indexed by a signed 16-bit counter; from 32,768 digits in all every answer comes out the other way
# expect: WA
# smallest: 328
# Wrong exactly when the games hold >= 32,768 digits in all. At most 100 games, so the longest has
# at least ceil(32,768 / 100) = 328 digits; 100 games of 328 digits (32,800) fail: the smallest size
# (digits of the longest number) is 328.
import sys


def winner(digits):
    if len(digits) % 2:
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


data = sys.stdin.buffer.read().decode().split()
t = int(data[0])
games = [data[2 + 2 * k] for k in range(t)]
wrapped = sum(len(g) for g in games) >= 32768
for g in games:
    w = winner(g)
    print(3 - w if wrapped else w)
