# kind: right answers, but each run first burns 1.2 s of CPU: within word_game's 2 s limit, without a 2x margin
# expect: OK
import sys
import time

start = time.process_time()
while time.process_time() - start < 1.2:
    pass
word = sys.stdin.readline().strip()
x = 0
for letter in set(word):
    c = word.count(letter)
    x ^= 3 if c % 3 == 0 else c % 3
print("Alice" if x else "Bob")
