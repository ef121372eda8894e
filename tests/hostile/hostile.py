"""A hostile candidate: tries to escape its sandbox and says, one line per attempt, what it could do.

Its input is one JSON object naming the targets (files and folders the test made outside the
scratch folder, a port the test listens on, the test's pid). A line is ``NAME: blocked (...)``
when the attempt failed and ``NAME: DONE ...`` when it worked.
"""

import json
import os
import signal
import socket
import sys


def attempt(name, action):
    try:
        what = action()
    except Exception as exc:  # noqa: BLE001 - any failure is what we hope for
        print(f"{name}: blocked ({type(exc).__name__}: {exc})", flush=True)
    else:
        print(f"{name}: DONE {what or ''}".rstrip(), flush=True)


def write_into(folder, token):
    def act():
        with open(os.path.join(folder, f"hostile-{token}"), "w") as f:
            f.write("pwned\n")
    return act


def append_to(path):
    def act():
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)  # no O_CREAT: the harness's own file
        os.write(fd, b"pwned\n")
        os.close(fd)
    return act


def read(path):
    def act():
        with open(path) as f:
            return repr(f.read()[:40])
    return act


def connect(port):
    def act():
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"hello from the sandbox\n")
    return act


def read_environment(token):
    def act():
        seen = [key for key, value in os.environ.items() if token in key or token in value]
        if not seen:
            raise PermissionError(f"no variable of the harness in an environment of {len(os.environ)}")
        return f"saw {', '.join(seen)}"
    return act


def find_harness(pid, marker):
    def act():
        seen = []
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            if int(name) == pid:
                seen.append(name)
                continue
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        seen.append(name)
            except OSError:
                continue
        if not seen:
            raise LookupError(f"no process {pid} and none mentioning {marker!r} among {len(os.listdir('/proc'))} entries")
        return " ".join(seen)
    return act


def signal_harness(pid):
    def act():
        os.kill(pid, signal.SIGTERM)
    return act


def kill_parent():
    parent = os.getppid()
    if parent == 0:
        raise LookupError("no parent visible")
    os.kill(parent, signal.SIGKILL)
    for _ in range(100):  # SIGKILL is asynchronous: give it time to land
        os.kill(parent, 0)
        with open(f"/proc/{parent}/stat") as f:
            if f.read().rsplit(")", 1)[1].split()[0] in "ZX":
                return f"parent {parent} killed"
        os.sched_yield()
    raise PermissionError(f"parent {parent} is still alive after SIGKILL")


def main():
    task = json.loads(sys.stdin.read())
    here = os.path.dirname(os.path.abspath(__file__))
    scratch = os.getcwd()
    attempt("write-home", write_into(task["home"], task["token"]))
    attempt("read-home-secret", read(task["home_secret"]))
    attempt("write-tmp-harness-file", append_to(task["tmp_file"]))
    attempt("read-tmp-harness-file", read(task["tmp_file"]))
    attempt("write-reports", write_into(task["reports"], task["token"]))
    attempt("write-own-folder", write_into(here, task["token"]))
    attempt("overwrite-own-program", append_to(os.path.abspath(__file__)))
    attempt("write-scratch-parent-parent", write_into(os.path.dirname(os.path.dirname(scratch)), task["token"]))
    attempt("write-scratch-parent-file", append_to(task["scratch_neighbour"]))
    attempt("connect-local-socket", connect(task["port"]))
    attempt("find-harness-in-proc", find_harness(task["harness_pid"], task["harness_marker"]))
    attempt("signal-harness", signal_harness(task["stand_in_pid"]))
    attempt("read-harness-environment", read_environment(task["token"]))
    attempt("kill-parent", kill_parent)
    with open("scratch-file", "w") as f:  # the scratch folder itself stays writable
        f.write("ok")
    print("end", flush=True)


if __name__ == "__main__":
    main()
