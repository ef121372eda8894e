"""The supervisor's watch over one test (standard library only, like the whole supervisor):
:class:`WatchMode`, mixed into the server, watches a test to its end (the watch's scans of every
process of the sandbox: tasks, CPU time with the cpuacct cgroup's figure, memory with the memory
cgroup's, files; the wall-clock limit a busy machine stretches), kills and reaps all of it, and
charges the native fork server's CPU time to the test it served."""

from __future__ import annotations

import os
import select
import signal
import socket
import time
from collections.abc import Callable
from typing import Any

try:
    import _sv_procs as procs  # run by path (inside the sandbox): this folder is sys.path[0]
except ModuleNotFoundError:  # imported as part of gamecert (documentation, doctests)
    from gamecert.engine.run.supervisor import _sv_procs as procs
try:
    import _sv_native as native
except ModuleNotFoundError:
    from gamecert.engine.run.supervisor import _sv_native as native

_drain = procs._drain
SERVER_CPU_S = procs.SERVER_CPU_S


class WatchMode:
    """The watch and the fork server's CPU charge; the attributes are the server's."""

    limits: dict
    sock: socket.socket
    contained: bool
    last_native: bool
    native: Any
    native_shim: Any
    native_why: str
    native_charged: int
    native_served: int
    cpuacct: Any
    cpu_start: Any
    scratch_fds: Any
    memory: Any
    forks: Any
    marks: Any
    mark: Callable[[str], None]

    def _watch_to_end(
        self, pid: int, started: float, err_r: int, tail: bytearray | None = None, err_size: int = 0
    ) -> dict | None:
        """Watch a test to its end, kill and reap all of it; the report. ``tail`` and
        ``err_size``: its stderr so far (a test the C loop handed over)."""
        limits = self.limits
        deadline = started + limits["wall_s"]
        next_scan = started + procs._FIRST_SCAN_S
        pidfd = os.pidfd_open(pid)
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        poller.register(err_r, select.POLLIN | select.POLLHUP)
        poller.register(self.sock.fileno(), select.POLLIN | select.POLLRDHUP | select.POLLHUP)
        os.set_blocking(err_r, False)
        self.mark("watch_setup")
        tail = bytearray() if tail is None else tail
        killed, peak, sampled_kb, files = None, 1, 0, 0
        client_gone, err_open = False, True
        group = None if self.contained else pid
        server = self.native if self.last_native else None
        try:
            while True:
                now = time.monotonic()
                wait_ms = max(0, int((min(deadline, next_scan) - now) * 1000) + 1)
                ended = False
                for fd, events in poller.poll(wait_ms):
                    if fd == pidfd:
                        ended = True
                    elif fd == err_r:
                        got = _drain(err_r, tail)
                        err_size += max(got, 0)
                        if got < 0:
                            poller.unregister(err_r)
                            err_open = False
                    elif (
                        events & (select.POLLRDHUP | select.POLLHUP | select.POLLERR)
                        or self._client_left()
                    ):
                        client_gone = True
                    else:  # the next test's request, sent ahead: read once this one is answered
                        poller.modify(self.sock.fileno(), select.POLLRDHUP | select.POLLHUP)
                if ended or client_gone:
                    break
                now = time.monotonic()
                if now >= deadline:
                    # a test still running (not idle or blocked) under its CPU limit is only slowed
                    # by a busy machine: it gets more wall time, up to the hard wall limit
                    tasks, cpu, rss_kb, running = procs._scan(group, keep=self._spared())
                    cpu += self._server_cpu(server)
                    if (
                        running
                        and cpu < limits["time_s"]
                        and now < started + limits.get("wall_hard_s", 0)
                    ):
                        deadline = now + procs._SCAN_INTERVAL_S * 10
                        continue
                    killed = "wall"
                    break
                if now >= next_scan:
                    self.mark("scan")
                    tasks, cpu, rss_kb, _ = procs._scan(group, keep=self._spared())
                    cpu += self._server_cpu(server)
                    if self.cpuacct is not None:  # (and what no process left to scan reports)
                        cpu = max(cpu, self.cpuacct.since(self.cpu_start))
                    files = max(files, procs._box_files(self.scratch_fds) if self.contained else 0)
                    peak, sampled_kb = max(peak, tasks), max(sampled_kb, rss_kb)
                    killed = procs.limit_hit(self.limits, tasks, cpu, rss_kb, files)
                    if not killed and self.memory is not None and self.memory.over():
                        killed = "memory"
                    self.mark("scanned")
                    if killed:
                        break
                    next_scan = time.monotonic() + max(
                        procs._SCAN_INTERVAL_S, 5 * (time.monotonic() - now)
                    )
        finally:
            os.close(pidfd)
        self.mark("ended")
        if killed or client_gone:
            if self.contained and self._spared() is None:
                os.kill(-1, signal.SIGKILL)
            else:
                procs._killpg(pid)
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - started
        self.mark("wait4")
        procs.XCPU_REAPED[0] = 0
        utime, stime, others = procs._kill_everything(
            self.contained, None if self.contained else pid, keep=self._spared()
        )
        self.mark("kill_all")
        server_s = self._charge_server(server)
        refused = self.forks.read() if self.forks is not None else 0
        self.mark("charge")
        cg_kb, cg_oom = self.memory.after() if self.memory is not None else (0, 0)
        cg_cpu = self.cpuacct.since(self.cpu_start) if self.cpuacct is not None else 0.0
        self.mark("mem_after")
        if err_open:
            while (got := _drain(err_r, tail)) > 0:
                err_size += got
        self.mark("drain")
        if client_gone:
            return None
        report = {
            "pid": pid, "status": status, "utime": usage.ru_utime + utime + server_s, "stime": usage.ru_stime + stime,
            "server_s": server_s,
            "maxrss_kb": max(usage.ru_maxrss, sampled_kb), "wall": wall, "killed": killed, "peak_tasks": peak,
            "sampled_kb": sampled_kb, "others": others, "stderr_bytes": err_size, "files": files,
            "native": self.last_native, "native_why": self.native_why, "tail": len(tail),
            "cg_kb": cg_kb, "cg_oom": cg_oom, "tail_bytes": bytes(tail), "refused": refused, "cg_cpu": cg_cpu,
            "others_xcpu": procs.XCPU_REAPED[0],
        }  # fmt: skip
        if self.marks is not None:
            report["minflt"] = usage.ru_minflt
        return report

    def _client_left(self) -> bool:
        """Whether the client closed its end (end of file, or an error) rather than sent the
        next request (a look at it, which takes neither its byte nor its descriptors)."""
        try:
            return not self.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return False
        except OSError:
            return True

    def _server_cpu(self, server: native.NativeServer | None, read_ns: int | None = None) -> float:
        """CPU seconds the native fork server has used and no test was charged yet: its start-up,
        the clone of this test, and anything else it ran (a pristine server runs nothing else)."""
        if server is None:
            return 0.0
        now_ns = read_ns if read_ns is not None and read_ns >= 0 else server.cpu_ns()
        return max(0, (now_ns or self.native_charged) - self.native_charged) / 1e9

    def _charge_server(
        self, server: native.NativeServer | None, read_ns: int | None = None
    ) -> float:
        """Charge the fork server's uncharged CPU to the test that just ended; a server that used
        more than :data:`SERVER_CPU_S` between two of its tests ran code of its own (a
        program's early code, not a clone): it is ended, and the next tests are exec'd."""
        spent = self._server_cpu(server, read_ns)
        if server is None:
            return spent
        self.native_charged += int(spent * 1e9)
        self.native_served += 1
        if self.native_served > 1 and spent > SERVER_CPU_S and self.native is server:
            assert server is not None  # (checked above: the `is` test widens it again for mypy)
            server._gone()
            self.native, self.native_shim = None, None
            self.native_why = (
                f"the fork server used {spent * 1000:.0f} ms of CPU time for one test besides "
                "the test's own process (it ran code of its own): exec per test from here"
            )
        return spent

    def _spared(self) -> int | None:
        """The native fork server's pid, kept across tests (None when there is none)."""
        return self.native.pid if self.native is not None and self.native.status is None else None
