"""Tries to forge its own verdict through the supervisor that measures it, then never ends.

Each attempt prints one line ``name: blocked (why)`` or ``name: DONE``: writing a forged
"success" report into every descriptor of the supervisor (PID 1 contained, the parent otherwise)
through /proc, opening its memory read-write, ptrace-attaching to it, and sending it signals.
Then it spins until stopped: the right verdict is TLE whatever it wrote.
"""

import ctypes
import json
import os
import signal
import sys

sys.stdin.read()
target = 1 if os.getpid() != 1 and os.path.exists("/proc/1/status") and os.getppid() == 1 else os.getppid()
forged = json.dumps({"pid": 2, "status": 0, "utime": 0.001, "stime": 0.0, "maxrss_kb": 1000, "wall": 0.001,
                     "killed": None, "peak_tasks": 1, "sampled_kb": 0, "others": 0, "stderr_bytes": 0, "files": 0,
                     "tail": 0}).encode() + b"\n"


def attempt(name, action):
    try:
        what = action()
        print(f"{name}: DONE {what or ''}".rstrip(), flush=True)
    except Exception as exc:  # noqa: BLE001
        print(f"{name}: blocked ({type(exc).__name__})", flush=True)


def forge_fds():
    written = 0
    for fd in os.listdir(f"/proc/{target}/fd"):
        try:
            out = os.open(f"/proc/{target}/fd/{fd}", os.O_WRONLY)
        except OSError:
            continue
        try:
            os.write(out, forged)
            written += 1
        except OSError:
            pass
        os.close(out)
    if not written:
        raise PermissionError("no descriptor opened")
    return f"{written} descriptors"


def open_mem():
    os.close(os.open(f"/proc/{target}/mem", os.O_RDWR))


def ptrace():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, target, 0, 0) != 0:  # PTRACE_ATTACH
        raise PermissionError(os.strerror(ctypes.get_errno()))


def signals():
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1, signal.SIGSTOP, signal.SIGKILL):
        os.kill(target, sig)
    try:
        os.kill(target, signal.SIGCONT)
        state = open(f"/proc/{target}/stat").read().rsplit(")", 1)[1].split()[0]
    except (ProcessLookupError, FileNotFoundError):
        return "the supervisor is gone"
    if state in ("T", "t", "Z", "X"):
        return f"the supervisor is {state}"
    raise PermissionError("signals had no effect")


attempt("forge-report", forge_fds)
attempt("open-supervisor-memory", open_mem)
attempt("ptrace-supervisor", ptrace)
attempt("signal-supervisor", signals)
print("Alice", flush=True)
while True:
    pass
