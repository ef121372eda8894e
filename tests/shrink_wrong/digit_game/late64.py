# kind: a late batch position: the games from the 64th on are answered the other way (a table of 63 rows, the rest read from the wrong row)
# expect: WA
# smallest: 1
# Any batch of 64 games or more fails (game 64 is answered wrongly), whatever its digits: 64 games of
# one digit each fail, and 1 is the smallest size any input has.
# class: games >= 64
# (game 64 of a batch is answered the other way; gamecert's diagnosis must find this class: tests/test_diagnose.py)
import sys


def winner(digits):
    if len(digits) % 2:
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


data = sys.stdin.buffer.read().decode().split()
t = int(data[0])
for k in range(t):
    w = winner(data[2 + 2 * k])
    print(3 - w if k >= 63 else w)
