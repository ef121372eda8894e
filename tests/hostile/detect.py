"""Looks for signs of gamecert wherever a program can: host name, its working folder, its
environment, its command line and the supervisor's, its mounts, its cgroup, its parent's name, the
modules and frames of its interpreter. Prints one line per place where the word appears."""

import os
import socket
import sys

sys.stdin.read()
WORD = "gamecert"
places = {"hostname": socket.gethostname(), "cwd": os.getcwd(), "environ": repr(dict(os.environ)),
          "argv": repr(sys.argv), "executable": sys.executable}
for name in ("/proc/1/cmdline", "/proc/self/cmdline", f"/proc/{os.getppid()}/cmdline", "/proc/self/mountinfo",
             "/proc/self/cgroup", "/proc/self/environ", "/proc/1/environ", "/proc/self/maps", "/proc/1/status"):
    try:
        with open(name, "rb") as f:
            places[name] = f.read().decode(errors="replace")
    except OSError:
        places[name] = ""
places["modules"] = " ".join(sorted(sys.modules))
frames, frame = [], sys._getframe()
while frame is not None:
    frames.append(frame.f_code.co_filename)
    frame = frame.f_back
places["frames"] = " ".join(frames)
found = [name for name, text in places.items() if WORD in text.lower()]
print("\n".join(f"seen in {name}" for name in found) if found else "nothing")
