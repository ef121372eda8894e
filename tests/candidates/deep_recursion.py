"""Recursion 10**5 deep, the way contest Python solutions do it: a raised limit, a big thread stack."""

import sys
import threading


def depth(n: int) -> int:
    return 0 if n == 0 else 1 + depth(n - 1)


def main() -> None:
    n = int(sys.stdin.readline())
    print(depth(n))


sys.setrecursionlimit(10**6)
threading.stack_size(64 << 20)
thread = threading.Thread(target=main)
thread.start()
thread.join()
