"""Looks for what an earlier test left, leaves it for the next one, and answers wrong when it
finds a trace: right in a fresh box, wrong in one that remembers. Also holds memory and burns CPU
where the accounting used to miss it. Input: one command line, then the word to answer.

* ``net``: a TCP socket of this network namespace (one in TIME_WAIT) is a trace; then it
  connects to itself and closes first (its end stays in TIME_WAIT for a minute).
* ``attrs [FOLDER...]``: an extended attribute or a changed mode on the working folder,
  ``TMPDIR`` or a FOLDER named (the folders themselves, not files in them) is a trace; then it
  sets both on each (run outside a sandbox, only on folders of its own).
* ``ioprio all|parent``: an idle I/O priority of its own (inherited) is a trace; then it makes
  its parent idle, and with ``all`` every process it can see (in the sandbox: the supervisor,
  a fork server, a parked next test).
* ``cache PATH``: reads the file at PATH whole (its page cache is charged to the test).
* ``hold MB``: holds MB in anonymous files filled with ``write``, never mapped.
* ``sigchld SECONDS``: ignores SIGCHLD (the kernel reaps its children, whose CPU time then goes
  to no ``wait4``) and burns SECONDS of CPU time in children, 0.1 s each.
"""

import os
import signal
import socket
import sys
import time

command = sys.stdin.readline().split()
answer = sys.stdin.readline().strip()
traces = []
what = command[0] if command else ""

if what == "net":
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                traces += [line.split()[3] for line in f.read().splitlines()[1:]]
        except OSError:
            pass
    try:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        client = socket.create_connection(server.getsockname(), timeout=2)
        peer, _ = server.accept()
        client.close()  # the active close: this end waits in TIME_WAIT
        peer.close()
        server.close()
    except OSError:
        pass  # no network to reach, not even this process itself
elif what == "attrs":
    folders = sorted({os.getcwd(), os.environ.get("TMPDIR", os.getcwd()), *command[1:]})
    for folder in folders:
        try:
            traces += [f"{name} on {folder}" for name in os.listxattr(folder)]
        except OSError:
            pass
        if os.stat(folder).st_mode & 0o7777 == 0o750:
            traces.append(f"mode of {folder}")
    for folder in folders:
        try:
            os.setxattr(folder, "user.trace", b"seen")
        except OSError:
            pass
        try:
            os.chmod(folder, 0o750)
        except OSError:
            pass
elif what == "ioprio":
    import ctypes

    calls = {"x86_64": (251, 252), "aarch64": (30, 31)}[os.uname().machine]
    libc = ctypes.CDLL(None, use_errno=True)
    mine = libc.syscall(calls[1], 1, 0)  # ioprio_get(IOPRIO_WHO_PROCESS, self)
    if mine >= 0 and mine >> 13 == 3:  # class IDLE: set by an earlier test
        traces.append("idle I/O priority")
    targets = {os.getppid()}
    if command[1:] == ["all"]:
        targets |= {int(name) for name in os.listdir("/proc") if name.isdigit()} - {os.getpid()}
    for pid in targets:
        libc.syscall(calls[0], 1, pid, 3 << 13)  # ioprio_set(IOPRIO_WHO_PROCESS, pid, IDLE)
elif what == "cache":
    with open(command[1], "rb") as f:
        while f.read(1 << 20):
            pass
elif what == "hold":
    held = []
    for at in range(int(command[1])):
        if at % 16 == 0:  # (files of 16 MB: under any output limit a file size cap may follow)
            held.append(os.memfd_create("held"))
        os.write(held[-1], b"h" * (1 << 20))
elif what == "sigchld":
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    burned, goal = 0.0, float(command[1])
    while burned < goal:
        pid = os.fork()
        if pid == 0:
            end = time.process_time() + 0.1
            while time.process_time() < end:
                pass
            os._exit(0)
        try:
            os.waitpid(pid, 0)  # returns when the child is gone: ECHILD, the kernel reaped it
        except ChildProcessError:
            pass
        burned += 0.1

print(f"carried: {', '.join(map(str, traces))}" if traces else answer)
