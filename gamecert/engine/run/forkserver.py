"""The client of the candidate supervisor: :class:`ForkServerClient` starts a supervisor
(``gamecert/engine/run/supervisor/server.py``, inside the sandbox when contained) for one candidate
and runs tests through it, restarting it if it dies. What the supervisor does, and why, is told
in :mod:`gamecert.engine.run.supervisor.server`.

The client and the server speak over a Unix socket pair (the server's standard input): the
config as one JSON line, then per test one request byte with the test's stdin and stdout
descriptors attached (``SCM_RIGHTS``) and one JSON report line back, followed by the tail of the
test's stderr. The server's own stderr goes to an unnamed file of the client's. :class:`Lookahead`
sends the next tests' requests while a test runs (the server reads them once it has answered):
contained, several at once as one batch request (:meth:`ForkServerClient.send_batch`), answered
once with their reports in order.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import tempfile
import time
from collections import deque
from typing import Any, cast

from gamecert.engine.run.supervisor._sv_procs import _READY, BATCH_MAX, _killpg
from gamecert.errors import GamecertError

#: the supervisor, run by path (inside the sandbox when contained)
SERVER_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "supervisor", "server.py")


def _child_pids(pid: int) -> list[int]:
    """The children of a single-threaded process, from ``/proc/PID/task/PID/children``."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
            return [int(word) for word in f.read().split()]
    except (OSError, ValueError):
        return []


def _hold_child(pid: int) -> tuple[int, int] | None:
    """The first child of ``pid`` (a sandbox launcher's init) and a pidfd that stays on it."""
    for _ in range(200):
        for child in _child_pids(pid):
            try:
                return child, os.pidfd_open(child)
            except OSError:
                continue
        time.sleep(0.001)
    return None


class ServerLost(Exception):
    """The server died or stopped answering; the client has already cleaned up after it."""


class ForkServerClient:
    """Starts a server for one candidate and runs tests through it; restarts it if it dies.

    ``run(stdin_fd, stdout_fd, plain)`` returns the server's report as a dict (with the stderr
    tail as ``stderr_tail`` bytes), or, if the server died during the test twice in a row,
    ``{"lost": True}``.
    """

    def __init__(
        self,
        config: dict,
        *,
        server_argv: list[str],
        launch_prefix: list[str] | tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        reply_margin_s: float = 10.0,
        pass_fds: tuple[int, ...] = (),
    ) -> None:
        #: bench only (GAMECERT_SV_PROFILE=1): each test's stamps (perf_counter_ns), the
        #: server's parts and this side's (see bench/candidate_throughput.py --breakdown)
        self.profile: list[dict] | None = None
        if os.environ.get("GAMECERT_SV_PROFILE") == "1":
            config, self.profile = {**config, "profile": True}, []
        self.config = config
        #: descriptors the server inherits as they are (a memory cgroup's files)
        self.pass_fds = tuple(pass_fds)
        #: the supervisor's environment, which its candidates inherit
        self.env = env
        self.server_argv = list(server_argv)
        self.reply_margin_s = reply_margin_s
        # a sandbox launcher (bwrap ... --) the server runs under; ending the sandbox's init
        # ends everything in it
        self.launch_prefix = list(launch_prefix)
        self.contained = bool(self.launch_prefix)
        self._init: tuple[int, int] | None = None  # the server, the sandbox's init: host pid, pidfd
        self.proc: subprocess.Popen | None = None
        self.sock: socket.socket | None = None
        self.restarts = 0
        self.generation = 0  # one more at each start of a server: a request sent earlier is lost
        self._run_started = (0, 0, 0)
        #: the running test's process, not contained (contained the server does not send it)
        self.test_pid: int | None = None
        self.busy = False  # whether a test is running in the server now
        self._buf = bytearray()
        # unnamed: nothing in reach of a candidate; open for the server's life, closed in close()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115
        self._start()

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def server_host_pid(self) -> int | None:
        """The host pid of the server process itself (inside the sandbox: its init)."""
        if self._init is not None:
            return self._init[0]
        return self.pid

    def _start(self) -> None:
        self.generation += 1
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.proc = subprocess.Popen(
                [*self.launch_prefix, *self.server_argv],
                stdin=theirs.fileno(),
                stdout=subprocess.DEVNULL,
                stderr=self._log.fileno(),
                start_new_session=True,  # terminal signals (Ctrl-C) go to the harness only
                close_fds=True,
                pass_fds=self.pass_fds,
                env=self.env,
            )
        finally:
            theirs.close()
        self.sock = ours
        self._buf = bytearray()
        line = None
        try:
            ours.sendall(json.dumps(self.config).encode() + b"\n")
            line = self._readline(30.0)
        except (ServerLost, OSError):
            line = None
        if line != _READY.rstrip(b"\n"):
            self._kill()
            raise RuntimeError(
                f"the candidate supervisor did not start; its log:\n{self.log_tail()}"
            )
        if self.contained:
            self._init = _hold_child(self.proc.pid)

    def _restart(self) -> None:
        """Start the server again after it was lost between tests; one that cannot be started
        again (its cgroup gone, the machine out of processes) ends the run with a clear error in
        one line, never a traceback."""
        try:
            self._start()
        except RuntimeError as exc:
            tail = " | ".join(line.strip() for line in str(exc).splitlines()[1:] if line.strip())
            raise GamecertError(
                "the candidate supervisor stopped during the run and could not be started again"
                + (f": {tail[-300:]}" if tail else "")
            ) from None

    def log_tail(self) -> str:
        """The end of the supervisor's own stderr."""
        try:
            size = os.fstat(self._log.fileno()).st_size
            return os.pread(self._log.fileno(), 2000, max(0, size - 2000)).decode(errors="replace")
        except OSError:
            return "(no log)"

    def _read_exact(self, n: int, deadline: float) -> bytes:
        while len(self._buf) < n:
            self._fill(deadline)
        data = bytes(self._buf[:n])
        del self._buf[:n]
        return data

    def _fill(self, deadline: float) -> None:
        assert self.sock is not None  # (called while the server runs)
        fd = self.sock.fileno()
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise ServerLost("no answer in time")
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ServerLost("the supervisor exited")
        self._buf += chunk

    def _readline(self, timeout_s: float) -> bytes:
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self._buf:
            self._fill(deadline)
        line, _, rest = bytes(self._buf).partition(b"\n")
        self._buf[:] = rest
        return line

    def _kill(self) -> None:
        if self.proc is None:
            return
        if self.contained and self._init is None:  # died before READY: find the init now
            self._init = _hold_child(self.proc.pid) if self.proc.poll() is None else None
        if self._init is not None:  # the sandbox's init: killing it ends its PID namespace
            try:
                signal.pidfd_send_signal(self._init[1], signal.SIGKILL)
            except ProcessLookupError:
                pass
        _killpg(self.proc.pid)
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        try:
            # with a timeout, Popen never blocks on its wait lock: a close run from a signal's
            # handler (SIGTERM) while the interrupted code was inside this Popen's wait or poll
            # would otherwise wait forever for a lock its own thread holds (seen: `gamecert tests`
            # hung after SIGTERM, its supervisor already a zombie)
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass  # killed above; the interrupted wait reaps it
        self.proc = None
        if self._init is not None:
            select.select(
                [self._init[1]], [], [], 5.0
            )  # its exit comes after every process in the namespace
            os.close(self._init[1])
            self._init = None

    def send(self, fds: tuple[int, int], plain: bool) -> tuple | None:
        """Send one test's request (starting the server if it is not running); a token for
        :meth:`receive`, or None if the server is lost. Requests are answered in order."""
        if self.proc is not None and self.proc.poll() is not None:
            # the server (or, contained, its sandbox launcher) exited between tests
            self._kill()
        if self.proc is None:
            self.restarts += 1
            self._restart()
        assert self.sock is not None  # (opened by _start)
        try:
            sending = time.perf_counter_ns(), time.process_time_ns(), 0
            socket.send_fds(self.sock, [b"P" if plain else b"R"], list(fds))
        except OSError:
            self._kill()
            return None
        return self.generation, (
            self._run_started,
            sending,
            (time.perf_counter_ns(), time.process_time_ns(), 0),
        )

    def send_batch(self, pairs: list[tuple[int, int]]) -> tuple | None:
        """Send several tests in one request (contained only: the server sends no pid lines),
        each pair a test's (stdin, stdout); a token for :meth:`receive_batch`, or None if the
        server is lost. The server runs them one after another, each a fresh process cleaned up
        after, and answers once with their reports in order."""
        if not self.contained or not 0 < len(pairs) <= BATCH_MAX:
            raise ValueError(f"a batch is 1 to {BATCH_MAX} tests, contained only")
        if self.proc is not None and self.proc.poll() is not None:
            self._kill()
        if self.proc is None:
            self.restarts += 1
            self._restart()
        assert self.sock is not None  # (opened by _start)
        try:
            socket.send_fds(self.sock, [b"B"], [fd for pair in pairs for fd in pair])
        except OSError:
            self._kill()
            return None
        return self.generation, len(pairs)

    def receive_batch(self, token: tuple | None) -> list[dict] | None:
        """The reports of the batch ``token`` stands for, in order, or None if the server was
        lost meanwhile (then none of them is known)."""
        if token is None or token[0] != self.generation or self.sock is None:
            return None
        try:
            self.busy = True
            limits = self.config["limits"]
            each = max(limits["wall_s"], limits.get("wall_hard_s", 0))
            deadline = time.monotonic() + each * token[1] + self.reply_margin_s
            reports = []
            for _ in range(token[1]):
                report = json.loads(self._readline(deadline - time.monotonic()))
                report["stderr_tail"] = self._read_exact(int(report["tail"]), deadline)
                reports.append(report)
            return reports
        except (ServerLost, OSError, ValueError, KeyError):
            self._kill()  # contained: this ends the sandbox and all in it
            return None
        finally:
            self.busy = False

    def receive(self, token: tuple | None) -> dict | None:
        """The report of the test ``token`` stands for (the oldest one not yet received), or
        None if the server was lost meanwhile (it is cleaned up after then)."""
        if token is None or token[0] != self.generation or self.sock is None:
            return None  # sent to a server that is gone: it never ran
        try:
            self.busy = True  # a test is running in the server
            limits = self.config["limits"]
            deadline = (
                time.monotonic()
                + max(limits["wall_s"], limits.get("wall_hard_s", 0))
                + self.reply_margin_s
            )
            if (
                not self.contained
            ):  # contained, a dead server's sandbox is killed whole: no pid needed
                self.test_pid = int(self._readline(deadline - time.monotonic()))
            line = self._readline(deadline - time.monotonic())
            report = json.loads(line)
            report["stderr_tail"] = self._read_exact(int(report["tail"]), deadline)
            if self.profile is not None and "prof" in report:
                run, sending, sent = token[1]
                report["prof"]["client"] = [
                    ("run", *run),
                    ("sending", *sending),
                    ("sent", *sent),
                    ("replied", time.perf_counter_ns(), time.process_time_ns(), 0),
                ]
                self.profile.append(report["prof"])
            return report
        except (ServerLost, OSError, ValueError, KeyError):
            self._kill()  # contained: this ends the sandbox and all in it
            if not self.contained and self.test_pid is not None:
                _killpg(self.test_pid)  # not contained: the test's own group (its session)
            return None
        finally:
            self.test_pid, self.busy = None, False

    def fork_floor(self, count: int = 200) -> float:
        """Seconds per fork + wait of the server's own image, measured by the server (see
        ``bench/candidate_throughput.py``)."""
        if self.proc is None:
            self._start()
        assert self.sock is not None  # (opened by _start)
        self.sock.sendall(b"F%d\n" % count)
        words = self._readline(60.0).split()
        #: per child of the floor's loop: minor page faults and CPU seconds
        self.floor_detail = (float(words[1]), float(words[2])) if len(words) > 2 else None
        return float(words[0])

    def run(self, make_fds, plain: bool = False, then=None) -> dict:
        """Run one test on the descriptors ``make_fds()`` returns (stdin, stdout; the caller
        closes them); ``plain``: as a judge runs the program (for a Python candidate ``python
        FILE`` instead of a child of the zygote). If the server dies during the test, the test
        runs once more, on new descriptors, with a new server. ``then()`` is called once the
        request is sent, before the report is waited for (to send the next one ahead)."""
        for _ in range(2):
            self._run_started = time.perf_counter_ns(), time.process_time_ns(), 0
            fds = make_fds()
            token = self.send(fds, plain)
            if token is not None and then is not None:
                then()
            report = self.receive(token)
            if report is not None:
                report["fds"] = fds
                return report
        return {"lost": True, "fds": fds}

    def close(self) -> None:
        if self.proc is None:
            self._log.close()
            return
        assert self.sock is not None  # (a server runs)
        try:
            self.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self._kill()
        self._log.close()


#: a test sent ahead follows only one that took less wall time than this (seconds)
AHEAD_MAX_WALL_S = 0.05
#: a batch sent ahead grows (doubling from one test) only while its tests' wall times add up to
#: less than this: the tests run in vain after a fault stops a chunk cost little
BATCH_WALL_S = 0.05
#: tests in one batch sent ahead at most
BATCH_SIZE_MAX = 64


class Lookahead:
    """A runner's tests sent ahead: the inputs its caller said come next (:meth:`expect`, in
    order). While one runs, the next ones' descriptors are made and sent, as one batch request
    (contained), so that the supervisor runs them one after another, each a fresh process
    cleaned up after, and answers once for the batch; the harness judges one batch's reports
    while the supervisor runs the next. For a zygote the batch goes as single requests back to
    back, answered one by one: its supervisor runs those in its C serve loop, each next test's
    process forked while one runs (a batch request takes its Python loop). A batch starts at one test and doubles while its tests
    are fast (:data:`BATCH_WALL_S`, :data:`BATCH_SIZE_MAX`); a slow test stops the sending ahead
    (:data:`AHEAD_MAX_WALL_S`). A run that is not the next expected one (a quiet re-run, a plain
    run, another input) first waits for every test sent ahead and drops their reports; those
    inputs run again when they are asked for. Each batch in flight holds the gate (a quiet
    re-run waits for it)."""

    def __init__(self, client: ForkServerClient, make_files, gate) -> None:
        self.client, self.make_files, self.gate = client, make_files, gate
        self.queue: deque[str] = deque()  # inputs expected and not sent yet
        #: batches sent and not received: (inputs, their files, token)
        self.batches: deque[tuple[list[str], list[list[int]], tuple | None]] = deque()
        #: reports received and not asked for yet: (input, its files, report)
        self.ready: deque[tuple[str, list[int], dict]] = deque()
        #: whether the last test took under AHEAD_MAX_WALL_S: only then are the next ones sent
        #: ahead (a test dropped, or run after a stop, costs little; a slow test gains nothing)
        self.fast = False
        self.size = 1  # tests in the next batch
        self.sent = self.used = 0  # tests sent ahead, and of them the ones whose report was used

    def pending(self) -> list[str]:
        """The inputs sent ahead whose reports were not asked for yet, in order."""
        return [item[0] for item in self.ready] + [
            text for batch in self.batches for text in batch[0]
        ]

    def _next_pending(self) -> str | None:
        if self.ready:
            return self.ready[0][0]
        return self.batches[0][0][0] if self.batches else None

    def expect(self, texts) -> None:
        """The inputs the next runs will be asked for, in order (a run asked for another one
        ends the expectation). Contained only: a program that is not contained can keep state
        from one run to the next (a file beside it), and would see a run sent ahead and dropped."""
        texts = list(texts) if self.client.contained else []
        pending = self.pending()
        if pending and texts[: len(pending)] != pending:
            self.drain()
            pending = []
        self.queue = deque(texts[len(pending) :])

    def run(self, text: str, usual: bool, quiet: bool, plain: bool, made: list[int]) -> dict:
        """The report of one test on ``text`` (``usual``: a run of the expected kind, not quiet,
        not plain; ``plain``: the request's kind); its files are put in ``made``, for the caller
        to read and close."""
        if self._next_pending() is not None and not (usual and self._next_pending() == text):
            self.drain()
        if usual and self._next_pending() is None:
            if self.queue and self.queue[0] == text:
                self.queue.popleft()
            else:
                self.queue.clear()
        data = text.encode()

        def fresh() -> tuple[int, int]:
            for fd in made:
                os.close(fd)
            made.clear()
            made.extend(self.make_files(data))
            return made[0], made[1]

        report = self._take(made, plain) if usual and self._next_pending() == text else None
        if report is None:
            with self.gate.run(quiet):
                report = self.client.run(
                    fresh, plain, then=(lambda: self._send_next(plain)) if usual else None
                )
        if usual:
            self.fast = report.get("wall", AHEAD_MAX_WALL_S) < AHEAD_MAX_WALL_S and not report.get(
                "lost"
            )
            if not self.fast:  # batches grow again from one test
                self.size = 1
        return report

    def _take(self, made: list[int], plain: bool) -> dict | None:
        """The report of the first input sent ahead (its files into ``made``), receiving its batch
        if needed (the next batch is sent first, so the supervisor runs it meanwhile); None if
        the server was lost (everything sent ahead is dropped then)."""
        if not self.ready:
            texts, files, token = self.batches.popleft()
            try:
                self._send_next(plain)
                reports = self._receive(token)
            finally:
                self.gate.leave(False)
            if reports is None:
                for pair in files:
                    for fd in pair:
                        os.close(fd)
                self.drain()  # its server was lost (and the later batches with it)
                self.queue.extendleft(
                    reversed(texts[1:])
                )  # this one runs now, the others when asked
                return None
            self.ready.extend(zip(texts, files, reports))
            walls = [r.get("wall", AHEAD_MAX_WALL_S) for r in reports]
            if max(walls) < AHEAD_MAX_WALL_S:
                budget = int(BATCH_WALL_S / max(sum(walls) / len(walls), 1e-5))
                self.size = max(1, min(BATCH_SIZE_MAX, 2 * self.size, budget))
            else:
                self.size = 1
        _, kept, report = self.ready.popleft()
        made.extend(kept)
        report["fds"] = (made[0], made[1])
        self.used += 1
        return report

    def _receive(self, token: tuple | None) -> list[dict] | None:
        if token is None:
            return None
        if token[0] == "one":
            report = self.client.receive(token[1])
            return None if report is None else [report]
        if token[0] == "each":
            # every one received, even after one is lost: the requests of one batch may have gone
            # to two servers (the first to one that died, the rest to the one started then), and
            # a report left unread would be taken for a later test's (receive returns at once for
            # a request to a server that is gone)
            reports = [self.client.receive(sent) for sent in token[1]]
            return None if None in reports else cast(list[dict], reports)
        return self.client.receive_batch(token)

    def _served_in_c(self, plain: bool) -> bool:
        """Whether the supervisor's C serve loop takes this runner's requests (a zygote's tests
        that are not plain runs, a native fork server's)."""
        config = self.client.config
        return (
            config.get("mode") == "python"
            and not plain
            or config.get("mode") == "exec"
            and bool(config.get("native_shim"))
        )

    def _send_next(self, plain: bool) -> None:
        """Send the next expected inputs ahead (one batch), if the last test was fast, nothing is
        in flight already, and no quiet run waits."""
        if not self.fast or self.batches or not self.queue or not self.gate.try_enter():
            return
        # at most half of what is left: the supervisor then runs a batch while this side reads
        # and judges the one before, to the end of the queue
        texts = [
            self.queue.popleft() for _ in range(min(self.size, max(1, (len(self.queue) + 1) // 2)))
        ]
        files: list[list[int]] = []
        token: tuple[Any, ...] | None = None
        try:
            for text in texts:
                files.append(list(self.make_files(text.encode())))
            self.client._run_started = time.perf_counter_ns(), time.process_time_ns(), 0
            if len(texts) == 1:  # one test: the plain request, as without batches
                sent = self.client.send((files[0][0], files[0][1]), plain)
                token = None if sent is None else ("one", sent)
            elif self._served_in_c(plain):
                # one request a test, back to back: the supervisor reads, runs and answers them
                # in its C serve loop (a zygote's, each next test's process forked while one runs;
                # a native fork server's); a batch request takes its Python loop
                sent_each = [self.client.send((f[0], f[1]), plain) for f in files]
                # in flight if any went out (those to a live server are answered, and must be read)
                token = ("each", sent_each) if any(sent is not None for sent in sent_each) else None
            else:
                token = self.client.send_batch([(f[0], f[1]) for f in files])
        finally:
            if token is None:  # not sent (the server is lost): nothing is ahead
                for pair in files:
                    for fd in pair:
                        os.close(fd)
                self.queue.extendleft(reversed(texts))
                self.gate.leave(False)
        if token is None:
            return
        self.batches.append((texts, files, token))
        self.sent += len(texts)

    def drain(self, wait: bool = True) -> None:
        """Be done with every test sent ahead: wait for the reports of the batches in flight
        (``wait``) and drop them, and those received; their inputs go back to the front of the
        queue (asked for again, they run again)."""
        texts = self.pending()
        ready, self.ready = self.ready, deque()
        batches, self.batches = self.batches, deque()
        for _, taken, _ in ready:
            for fd in taken:
                os.close(fd)
        for _, files, token in batches:
            try:
                if wait:
                    self._receive(token)
            finally:
                for pair in files:
                    for fd in pair:
                        os.close(fd)
                self.gate.leave(False)
        self.queue.extendleft(reversed(texts))
