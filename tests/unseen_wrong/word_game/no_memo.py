# kind: Grundy value of a letter's count by plain recursion, no memo: exponential, slow only for counts near 40
# expect: TLE
import sys


def grundy(c):
    if c <= 0:
        return 0
    options = {grundy(c - 1), 0}
    if c >= 2:
        options.add(grundy(c - 2))
    m = 0
    while m in options:
        m += 1
    return m


word = sys.stdin.readline().strip()
x = 0
for letter in set(word):
    x ^= grundy(word.count(letter))
print("Alice" if x else "Bob")
