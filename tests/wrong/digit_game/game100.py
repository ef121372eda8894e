# kind: wrong only for the 100th game of a batch (an answer array one short)
# expect: WA
# class: games >= 100
# (game 100 of a batch is answered the other way; gamecert's diagnosis must find this class: tests/test_diagnose.py)
import sys


def winner(digits):
    if len(digits) % 2:
        return 1 if any(int(ch) % 2 for ch in digits[0::2]) else 2
    return 2 if any(int(ch) % 2 == 0 for ch in digits[1::2]) else 1


data = sys.stdin.read().split()
t = int(data[0])
answers = [0] * 99
for k in range(min(t, 99)):
    answers[k] = winner(data[2 + 2 * k])
for k in range(t):
    print(answers[k] if k < 99 else 3 - winner(data[2 + 2 * k]))
