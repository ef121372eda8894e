"""The client of the candidate supervisor: :class:`ForkServerClient` starts a supervisor
(``gamecert/engine/supervisor/server.py``, run by path, inside the sandbox when contained) for
one candidate and runs tests through it, restarting it if it dies. What the supervisor does, and
why, is told in :mod:`gamecert.engine.supervisor.server`.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time

from gamecert.engine.supervisor._sv_procs import (
    _PID_RUNNING,
    _PID_WAITING,
    _READY,
    _child_pids,
    _kill_group_and_wait,
    _killpg,
    _parse_report,
)

#: the supervisor, run by path (inside the sandbox when contained)
SERVER_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "supervisor", "server.py")



def _hold_child(pid: int) -> tuple[int, int] | None:
    """The first child of ``pid`` (a sandbox launcher's init) and a pidfd that stays on it."""
    for child in _child_pids(pid):
        try:
            return child, os.pidfd_open(child)
        except OSError:
            continue
    return None


def _wait_gone(pidfd: int, timeout_s: float) -> None:
    select.select([pidfd], [], [], timeout_s)


def _sandbox_tasks(launcher: int) -> list[tuple[int, int]]:
    """(host pid, pid inside the sandbox) of the launcher's descendants two levels deep (the
    server, the sandbox's init, and its children); the inner pid is the last ``NSpid`` entry."""
    found, level = [], [launcher]
    for _ in range(2):
        level = [child for pid in level for child in _child_pids(pid)]
        for pid in level:
            try:
                with open(f"/proc/{pid}/status", "rb") as f:
                    line = next(ln for ln in f if ln.startswith(b"NSpid:"))
                found.append((pid, int(line.split()[-1])))
            except (OSError, StopIteration, ValueError):
                continue
    return found


class ServerLost(Exception):
    """The server died or stopped answering; the client has already cleaned up after it."""


class ForkServerClient:
    """Starts a server for one candidate and runs tests through it; restarts it if it dies.

    ``run(io_set)`` returns the server's JSON report as a dict, or, if the server died during
    the test twice in a row, ``{"lost": True, "pid": ...}``.
    """

    def __init__(self, config: dict, log_path: str, *, reply_margin_s: float = 10.0,
                 launch_prefix: list[str] | tuple[str, ...] = (), env: dict[str, str] | None = None) -> None:
        self.config = config
        #: the supervisor's environment, which its candidates inherit (None: the harness's own)
        self.env = env
        self.log_path = log_path
        self.reply_margin_s = reply_margin_s
        # a sandbox launcher (bwrap ... --) the server runs under; inside it, pids in the pid
        # file are the sandbox's own, and ending the sandbox's init ends everything in it
        self.launch_prefix = list(launch_prefix)
        self.contained = bool(self.launch_prefix)
        self._init: tuple[int, int] | None = None  # the server, the sandbox's init: host pid, pidfd
        self.proc = None
        self.restarts = 0
        self._buf = bytearray()
        self._start()

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def _start(self) -> None:
        import subprocess

        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [*self.launch_prefix, sys.executable, SERVER_FILE, json.dumps(self.config)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                start_new_session=True,  # terminal signals (Ctrl-C) go to the harness only
                close_fds=True,
                env=self.env,
            )
        self._buf = bytearray()
        try:
            line = self._readline(30.0)
        except ServerLost:
            line = None
        if line != _READY.rstrip(b"\n"):
            self._kill()
            raise RuntimeError(f"the candidate supervisor did not start; its log:\n{self._log_tail()}")
        if self.contained:
            self._init = _hold_child(self.proc.pid)

    def _log_tail(self) -> str:
        try:
            with open(self.log_path, "rb") as f:
                return f.read()[-2000:].decode(errors="replace")
        except OSError:
            return "(no log)"

    def _readline(self, timeout_s: float) -> bytes:
        fd = self.proc.stdout.fileno()
        end = time.monotonic() + timeout_s
        while b"\n" not in self._buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise ServerLost("no answer in time")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise ServerLost("the supervisor exited")
            self._buf += chunk
        line, _, rest = bytes(self._buf).partition(b"\n")
        self._buf[:] = rest
        return line

    def _kill(self) -> None:
        if self.proc is None:
            return
        if self.contained and self._init is None:  # died before READY: find the init now
            self._init = _hold_child(self.proc.pid)
        if self._init is not None:  # the sandbox's init: killing it ends its PID namespace
            try:
                signal.pidfd_send_signal(self._init[1], signal.SIGKILL)
            except ProcessLookupError:
                pass
        _killpg(self.proc.pid)
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.proc.wait()
        self.proc = None
        if self._init is not None:
            _wait_gone(self._init[1], 5.0)  # its exit comes after every process in the namespace
            os.close(self._init[1])
            self._init = None

    def _once(self, io_set: int, fresh: bool) -> tuple[dict | None, int | None]:
        if self.proc is not None and self.proc.poll() is not None:
            # the server (or, contained, its sandbox launcher) exited between tests: what may
            # still run in the sandbox is not to be trusted with the next test
            self._kill()
        if self.proc is None:
            self.restarts += 1
            self._start()
        pid = None
        try:
            request = b"F%d\n" if fresh else b"%d\n"
            os.write(self.proc.stdin.fileno(), request % io_set)  # unbuffered: one write(2)
            report = _parse_report(self._readline(self.config["limits"]["wall_s"] + self.reply_margin_s))
            return report, report["pid"]
        except (ServerLost, OSError, ValueError):
            pid, waiting = self._last_pid(), self._pid_at(_PID_WAITING)
            self._kill()  # contained: this ends the sandbox and all in it (its pids are not ours)
            for orphan in (pid, waiting) if not self.contained else ():
                if orphan is not None:  # orphaned by the server's death: kill, wait till dead
                    _kill_group_and_wait(orphan)
            return None, pid

    def _pid_at(self, offset: int) -> int | None:
        try:
            with open(self.config["io"]["pid"], "rb") as f:
                f.seek(offset)
                return int(f.read(12).strip() or b"0") or None
        except (OSError, ValueError):
            return None

    def _last_pid(self) -> int | None:
        return self._pid_at(_PID_RUNNING)

    @property
    def waiting_pid(self) -> int | None:
        """The child the server holds ready for the next test, if any (for diagnostics; a host
        pid, also when contained)."""
        pid = self._pid_at(_PID_WAITING) if self.proc is not None else None
        if pid is None or not self.contained:
            return pid
        return next((host for host, inner in _sandbox_tasks(self.proc.pid) if inner == pid), None)

    @property
    def sandbox_pids(self) -> set[int]:
        """The host pid of the server inside the sandbox, its init (empty when not contained)."""
        if self.proc is None or not self.contained:
            return set()
        return {host for host, inner in _sandbox_tasks(self.proc.pid) if inner == 1}

    @property
    def running_pid(self) -> int | None:
        """The persistent child (between tests too) or the running one, if any (for diagnostics; a
        host pid, also when contained)."""
        pid = self._pid_at(_PID_RUNNING) if self.proc is not None else None
        if pid is None or not self.contained:
            return pid
        return next((host for host, inner in _sandbox_tasks(self.proc.pid) if inner == pid), None)

    def run(self, io_set: int, fresh: bool = False) -> dict:
        """Run one test with I/O file set ``io_set`` (0 or 1; alternate them); ``fresh``: in
        a new process even where the server keeps a persistent one."""
        report, pid = self._once(io_set, fresh)
        if report is None:  # the server died under this test: once more with a new server
            report, pid = self._once(io_set, fresh)
        return report if report is not None else {"lost": True, "pid": pid}

    def close(self) -> None:
        if self.proc is None:
            return
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except Exception:  # noqa: BLE001 - subprocess.TimeoutExpired; do not import it eagerly
            pass
        self._kill()
