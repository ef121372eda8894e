"""Exercises what a plain `python FILE` run shows a program; the first input word picks the way out.

Output depends only on the input and on how the interpreter was set up, so the fork server and a
fresh process must print the same thing.
"""

import os
import sys

mode = input().strip()
rest = sys.stdin.buffer.read()
print(f"name={__name__} file={os.path.basename(__file__)} argv0={os.path.basename(sys.argv[0])}")
print(f"path0_is_script_dir={sys.path[0] == os.path.dirname(os.path.abspath(__file__))}")
print(f"cwd_empty={os.listdir('.') == []} cwd_is_script_dir={os.getcwd() == os.path.dirname(__file__)}")
print(f"stdin={sys.stdin.name} encoding={sys.stdout.encoding} rest={rest!r}")


def annotated(x: int) -> None:
    pass


print(f"recursionlimit={sys.getrecursionlimit()} annotations_evaluated={annotated.__annotations__['x'] is int}")
if mode == "exit":
    exit(4)
elif mode == "os_exit":
    sys.stdout.flush()
    print("lost: never flushed")
    os._exit(5)
elif mode == "sys_exit_none":
    sys.exit()
elif mode == "raise":
    raise KeyError("boom")
elif mode == "atexit":
    import atexit

    atexit.register(lambda: print("atexit ran"))
elif mode == "exit_big":  # the status is the C int the code becomes: 2**32 + 7 -> 7
    sys.exit(2**32 + 7)
elif mode == "exit_huge":  # beyond a C long: -1, status 255
    sys.exit(10**30)
elif mode == "exit_object":  # written to stderr, status 1
    sys.exit(["not", "a", "number"])
elif mode == "exit_then_atexit":  # the exit functions run after SystemExit, with no exception being handled
    import atexit

    atexit.register(lambda: print("atexit sees", sys.exc_info()[0]))
    sys.exit(2)
elif mode == "exit_joins_threads":  # a thread still running is joined before the exit
    import threading
    import time

    threading.Thread(target=lambda: (time.sleep(0.05), print("thread done"))).start()
    sys.exit(6)
if mode == "close_stdout":  # a closed stdout is not flushed at the end: status 0
    print("end")
    sys.stdout.close()
else:
    print("end")
