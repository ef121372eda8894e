"""Fills what it can write: mode ``bytes`` writes 200 MB into its working folder and reports how
far it got; ``files`` makes 50,000 empty files; ``shm`` tries /dev/shm and /tmp; ``count`` says
whether an earlier test left a marker (a program counting tests to behave differently)."""

import os
import sys

mode = sys.stdin.readline().strip()
if mode == "bytes":
    written = 0
    try:
        with open("big", "wb") as f:
            block = b"x" * (1 << 20)
            for _ in range(200):
                f.write(block)
                f.flush()
                written += 1
    except OSError as exc:
        print("stopped", type(exc).__name__, written)
    else:
        print("wrote", written)
elif mode == "files":
    made = 0
    try:
        for i in range(50_000):
            open(f"f{i}", "w").close()
            made += 1
    except OSError as exc:
        print("stopped", type(exc).__name__, made)
    print("made", made)
elif mode == "shm":
    for folder in ("/dev/shm", "/tmp", "/", "/usr"):
        try:
            with open(os.path.join(folder, "probe"), "w") as f:
                f.write("x")
            print(folder, "writable")
        except OSError:
            print(folder, "blocked")
elif mode == "count":
    seen = [p for p in (os.path.join(os.getcwd(), "marker"), "/tmp/marker") if os.path.exists(p)]
    print("seen" if seen else "fresh")
    for path in (os.path.join(os.getcwd(), "marker"), "/tmp/marker"):
        try:
            open(path, "w").close()
        except OSError:
            pass
