# kind: right but slow per distinct number: a quadratic play-out, cached by number (fast when a batch repeats a few numbers)
# expect: TLE
import sys

cache = {}


def play_out(digits):
    """Each player marks the digit of the unwanted parity among its own, searched from the left
    by a scan of the whole number each time: O(n^2) per number."""
    marked = [False] * len(digits)
    player = 1
    for _ in range(len(digits) - 1):
        unwanted = 0 if player == 1 else 1
        choice = None
        for i in range(player - 1, len(digits), 2):
            if not marked[i]:
                if choice is None or int(digits[i]) % 2 == unwanted:
                    choice = i
                    if int(digits[i]) % 2 == unwanted:
                        break
        marked[choice] = True
        player = 3 - player
    last = marked.index(False)
    return 1 if int(digits[last]) % 2 else 2


data = sys.stdin.read().split()
t = int(data[0])
for k in range(t):
    digits = data[2 + 2 * k]
    if digits not in cache:
        cache[digits] = play_out(digits)
    print(cache[digits])
