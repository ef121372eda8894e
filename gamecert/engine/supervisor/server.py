"""The candidate supervisor: one long-lived process that starts, limits, watches and reaps candidates.

Run as a script (``python gamecert/engine/supervisor/server.py CONFIG_JSON``) it is the *server*;
:class:`gamecert.engine.forkserver.ForkServerClient` starts one and talks to it. The harness never forks a
candidate itself: every candidate process is a child of a server, so that

* the server can be a child subreaper: whatever a candidate leaves behind (double-forked
  grandchildren, orphans) is re-parented to the server, killed and reaped, even where PID 1
  does not reap;
* the harness stays single-purpose and thread-safe (no ``preexec_fn`` in the harness).

The server has two modes, chosen in the config:

``exec``
    a fresh process per test: fork, set limits, ``execv`` the candidate's command line.
``python``
    the fork server proper: the candidate's source is read and compiled once when the server
    starts, and the server takes on the interpreter state that ``python FILE`` would show its
    program (``sys.argv``, ``sys.path[0]``, fresh std streams, an empty ``__main__``). Its
    children (see :meth:`_Server._python_child`) keep both I/O file sets open and wait for a
    test byte. A *persistent* child runs test after test: per test it puts the test's files on
    fds 0-2 (stdin rewound, stdout and stderr emptied), a fresh working folder, resets the
    memory high-water mark, runs the code in a fresh ``__main__``, runs ``atexit`` functions
    and flushes, and reports on its own pipe its exit status, CPU time (``getrusage``
    differences, its waited children included) and peak RSS; then, while the next request is
    on its way, it puts back argv, sys.path, the recursion limit and other settings, the
    environment, builtins, common signal handlers and the interval timer, forgets modules
    imported from the program's folder, and builds the next test's streams and ``__main__``. It is retired after
    ``persistent_tests`` tests, after any fault, and when threads or child processes are left
    running or its memory stayed grown. A *one-shot* child runs one test and exits as the
    interpreter would (``SystemExit`` codes and messages, tracebacks with exit status 1,
    waiting for non-daemon threads, ``atexit``, flushing stdout).

In both modes the next child is forked while the current test runs, so that starting a test
costs one byte on a pipe. Per test the protocol is line based: the client sends the I/O file
set (0 or 1; ``F0``/``F1`` for a test in a one-shot child) and the server answers with one line:
the wait status, CPU times, peak memory, wall time, why (if at all) the watchdog killed the
process group, the peak task count, whether the process was fresh, and the largest sampled RSS.
The watchdog enforces the CPU, wall, memory and task limits per test, for persistent children
too (CPU counted from what the child had used before the test). A small pid file names the
running (or persistent) child, so that a client whose server died mid-test can still kill the
candidate's group, and the waiting one.

The server module imports only the standard library, so a Python candidate's interpreter is
close to a pristine one. Known differences from ``python FILE``: the hash seed is shared by
all tests of one server (``PYTHONHASHSEED`` cannot change in a running interpreter), modules the
server itself uses are already imported, and the candidate runs a few frames deeper, so a
recursion that ends within a handful of frames of ``sys.getrecursionlimit()`` may differ.
In a persistent child, standard-library modules a test imported stay imported for the next
tests (module-level state in them, such as the ``random`` generator, carries over), and
objects a test left in reference cycles are collected later.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import select
import shutil
import signal
import sys
import time

try:
    import _sv_procs as procs  # run by path (inside the sandbox): this folder is sys.path[0]
except ModuleNotFoundError:  # imported as part of gamecert (documentation, doctests)
    from gamecert.engine.supervisor import _sv_procs as procs
try:
    from _sv_python import PythonMode
except ModuleNotFoundError:
    from gamecert.engine.supervisor._sv_python import PythonMode


class _Server(PythonMode):
    def __init__(self, config: dict) -> None:
        self.config = config
        self.limits = config["limits"]
        self.limit_plan = procs._limit_plan(self.limits)
        self.io = config["io"]
        self.scratch_root = config["scratch_root"]
        self.scratch_prefix = os.path.join(self.scratch_root, "run")  # + the child's pid
        self.next_child: tuple[int, int, int] | None = None  # waiting child: pid, go pipe, file set
        self.next_sweep = 0.0
        self.poller = None  # watches the client's pipe and the running child's pidfd
        self.pid_fd = os.open(config["io"]["pid"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        self.children_fd = procs._open_children_list()
        self.mode = config["mode"]
        self.argv = [str(a) for a in config["argv"]]
        self.code = None
        self.compile_error: BaseException | None = None
        self.tick_watch = self._watch_pidfd if hasattr(os, "pidfd_open") else self._watch_sleep
        # Python children: the one waiting for a test, the persistent one, tests per child
        self.spare: procs._Child | None = None
        self.live: procs._Child | None = None
        k = int(config.get("persistent_tests", 1))
        self.persistent = k if k > 1 and hasattr(os, "pidfd_open") else 0
        self.rss_peak_kb, self.cpu_base = 0, 0.0
        cpu = getattr(resource, "RLIMIT_CPU", None)
        # a persistent child raises its CPU soft limit before each test: leave the hard one
        self.child_plan = [(w, (p[0], resource.getrlimit(w)[1]) if w == cpu else p) for w, p in self.limit_plan]
        if self.mode == "python":
            self._prepare_python(config["python_file"])

    # ---- python mode -------------------------------------------------------------------

    def _go_exec(self) -> None:
        # the interpreter ignores these; an exec'd program must get the defaults back
        for name in ("SIGPIPE", "SIGXFSZ", "SIGXFZ"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        try:
            os.execv(self.argv[0], self.argv)
        except OSError as exc:
            os.write(2, f"gamecert: cannot run {self.argv[0]}: {exc.strerror}\n".encode())
            os._exit(procs._EXEC_FAILED)

    # ---- one test ----------------------------------------------------------------------

    def prefork(self, io_set: int) -> None:
        """Fork the next test's child ahead of time, while the current test runs.

        The child leaves the server's session, takes its limits, opens the I/O files of set
        ``io_set`` (the client alternates two sets; this one held the output of the test
        before last, which the client has read), makes and enters its fresh scratch folder,
        and waits on a pipe. One byte on the pipe starts the candidate; end-of-file without it
        (the server is gone) makes the child exit. The Python interpreter state it needs was
        built once, in the server (:meth:`install_python_state`).
        """
        go_r, go_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: never returns into the server loop
            try:
                os.closerange(3, go_r)  # the server's pipes must not stay open in the child
                os.closerange(go_r + 1, os.sysconf("SC_OPEN_MAX"))
                os.setsid()
                for which, pair in self.limit_plan:
                    resource.setrlimit(which, pair)
                procs._redirect(self.io["sets"][io_set])
                scratch = self._scratch(os.getpid())
                try:
                    os.mkdir(scratch, 0o755)
                except FileExistsError:  # left by an earlier process with this pid
                    shutil.rmtree(scratch, ignore_errors=True)
                    os.mkdir(scratch, 0o755)
                os.chdir(scratch)
                if os.read(go_r, 1) != b"g":  # the server shut down before this test came
                    os._exit(0)
                os.close(go_r)
                if self.mode == "python":
                    self._go_python()
                else:
                    self._go_exec()
            except BaseException as exc:  # noqa: BLE001
                procs._setup_failed(exc)
            os._exit(procs._SETUP_FAILED)
        os.close(go_r)
        os.pwrite(self.pid_fd, b"%-12d\n" % pid, procs._PID_WAITING)
        self.next_child = (pid, go_w, io_set)

    def _scratch(self, pid: int) -> str:
        return f"{self.scratch_prefix}{pid}"  # os.path.join(scratch_root, f"run{pid}")

    def _remove_scratch(self, pid: int, test_no: int | None = None) -> None:
        """Remove a child's scratch folder (a Python child's folder for its test ``test_no``)."""
        path = self._scratch(pid) if test_no is None else f"{self._scratch(pid)}.{test_no}"
        try:
            os.rmdir(path)
        except FileNotFoundError:
            pass
        except OSError:
            shutil.rmtree(path, ignore_errors=True)

    def discard_prefork(self) -> None:
        if self.next_child is not None:
            pid, go_w, _ = self.next_child
            self.next_child = None
            os.close(go_w)  # EOF: the waiting child exits at once
            procs._killpg(pid)
            os.waitpid(pid, 0)
            self._remove_scratch(pid)
            os.pwrite(self.pid_fd, b"%-12d\n" % 0, procs._PID_WAITING)

    def run_one(self, io_set: int, proto_in: int, fresh: bool = False) -> bytes | None:
        """Run the next test; its report line (see :func:`_parse_report`), or None if the
        client went away meanwhile. A Python candidate's test runs in the persistent child
        unless ``fresh`` (or persistence is off); anything else in a new process."""
        self.rss_peak_kb, self.cpu_base = 0, 0.0
        if self.mode == "python":
            if not fresh and self.persistent:
                return self.run_live(io_set, proto_in)
            return self._run_python_once(io_set, proto_in)
        if self.next_child is not None and self.next_child[2] != io_set:
            self.discard_prefork()  # made for the other file set (the client restarted us)
        if self.next_child is None:
            self.prefork(io_set)
        pid, go_w, _ = self.next_child
        self.next_child = None
        started = self._start(pid, go_w, b"g")
        self.prefork(1 - io_set)  # the next test's child gets ready while this one runs
        return self._watch_to_end(pid, started, proto_in, None)

    def _start(self, pid: int, go_w: int, go: bytes) -> float:
        """Start a waiting child's test; the time it started."""
        os.pwrite(self.pid_fd, b"%-12d\n" % pid, procs._PID_RUNNING)  # for the client, if we die
        started = time.monotonic()
        try:
            os.write(go_w, go)
        except BrokenPipeError:  # it died waiting; the watch reports how
            pass
        os.close(go_w)
        return started

    def _run_python_once(self, io_set: int, proto_in: int) -> bytes | None:
        """One test in a Python child that exits after it (as `python FILE` would)."""
        child = self.spare if self.spare is not None else self.spawn_python()
        self.spare = None
        os.close(child.done_r)
        started = self._start(child.pid, child.go_w, b"%d" % (2 + io_set))
        self.spare = self.spawn_python()  # ready for the next test meanwhile
        return self._watch_to_end(child.pid, started, proto_in, 1)

    def _waiting_pids(self) -> tuple[int | None, int | None]:
        """The children kept between tests: the waiting one and the persistent one."""
        if self.mode == "python":
            return (self.spare.pid if self.spare else None), (self.live.pid if self.live else None)
        return (self.next_child[0] if self.next_child else None), None

    def _watch_to_end(self, pid: int, started: float, proto_in: int, test_no: int | None) -> bytes | None:
        """Watch a one-shot child to its end, reap it and what it left; the report line."""
        killed, peak, client_gone = self.tick_watch(pid, started, proto_in)
        procs._killpg(pid)  # the leader is alive or a zombie: its group id cannot be reused yet
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - started
        self._sweep(pid, killed or peak > 1 or procs._group_exists(pid))
        self._remove_scratch(pid, test_no)
        os.pwrite(self.pid_fd, b"%-12d\n" % 0, procs._PID_RUNNING)
        if client_gone:
            return None
        return procs._report(pid, status, usage.ru_utime, usage.ru_stime, max(usage.ru_maxrss, self.rss_peak_kb),
                       wall, killed, peak, True, self.rss_peak_kb)

    def _sweep(self, pid: int, suspect: bool) -> None:
        """After a test: if something may be left, kill the group again, then kill and reap
        every child but the waiting and persistent ones.

        A clean test skips this /proc walk; what left the group (setsid, a double fork) was
        re-parented to this subreaper when its parent ended, so it shows among this server's
        children (one small /proc read), and is killed now, before it can write into another
        test's output files.
        """
        now = time.monotonic()
        waiting, live = self._waiting_pids()
        if suspect or now >= self.next_sweep or procs._has_strays(self.children_fd, waiting, live):
            if pid != live:
                procs._killpg(pid)
            if not procs._reap_leftovers(keep=waiting, also_keep=live) and waiting is not None:
                if self.mode == "python":
                    os.close(self.spare.go_w)
                    os.close(self.spare.done_r)
                    self.spare = None
                else:
                    os.close(self.next_child[1])
                    self._remove_scratch(self.next_child[0])
                    self.next_child = None
            self.next_sweep = now + procs._SWEEP_INTERVAL_S

    def run_live(self, io_set: int, proto_in: int) -> bytes | None:
        """One test in the persistent Python child (made from the waiting one if there is
        none); the child is replaced after a fault, when it asks, and every ``persistent``
        tests."""
        child = self.live
        if child is None:
            child = self.live = self.spare if self.spare is not None else self.spawn_python()
            self.spare = None
            child.pidfd = os.pidfd_open(child.pid)
            self._ensure_poller(proto_in)
            self.poller.register(child.done_r, select.POLLIN)
            self.poller.register(child.pidfd, select.POLLIN)
        child.tests += 1
        self.cpu_base = child.base_total
        if child.tests == 1:
            os.pwrite(self.pid_fd, b"%-12d\n" % child.pid, procs._PID_RUNNING)  # until it is retired
        started = time.monotonic()
        try:
            os.write(child.go_w, b"%d" % io_set)
        except BrokenPipeError:  # it died waiting; the watch reports how
            pass
        if self.spare is None:
            self.spare = self.spawn_python()  # the next child gets ready meanwhile
        killed, peak, outcome = self._watch_live(child, started, proto_in)
        wall = time.monotonic() - started
        line = None
        if outcome == "done":
            line = procs._read_done(child.done_r)
        if line is not None:
            status, utime, stime, peak_kb, recycle, total = line
            child.base_total = total
            report = procs._report(child.pid, (status & 0xFF) << 8, utime, stime, max(peak_kb, self.rss_peak_kb),
                             wall, None, peak, False, self.rss_peak_kb)
            if recycle or child.tests >= self.persistent or peak > 1:
                self._retire(child)
                self._remove_scratch(child.pid, child.tests)
                self._remove_scratch(child.pid, child.tests + 1)
            self._sweep(child.pid, False)
            return report
        # killed by the watchdog, died, or the client left: the child is replaced
        procs._killpg(child.pid)
        status, usage = self._retire(child)
        self._sweep(child.pid, True)
        self._remove_scratch(child.pid, child.tests)
        self._remove_scratch(child.pid, child.tests + 1)
        if outcome == "client":
            return None
        return procs._report(child.pid, status, max(0.0, usage.ru_utime - child.base_u),
                       max(0.0, usage.ru_stime - child.base_s), max(usage.ru_maxrss, self.rss_peak_kb),
                       wall, killed, peak, False, self.rss_peak_kb)

    def _retire(self, child: procs._Child):
        """Kill and reap the persistent child; its wait status and resource usage."""
        self.live = None
        procs._killpg(child.pid)
        self.poller.unregister(child.done_r)
        self.poller.unregister(child.pidfd)
        os.close(child.pidfd)
        os.close(child.done_r)
        os.close(child.go_w)
        _, status, usage = os.wait4(child.pid, 0)
        os.pwrite(self.pid_fd, b"%-12d\n" % 0, procs._PID_RUNNING)
        return status, usage

    def _ensure_poller(self, proto_in: int) -> None:
        if self.poller is None:
            self.poller = select.poll()
            self.poller.register(proto_in, select.POLLIN | select.POLLHUP)

    def _watch_live(self, child: procs._Child, started: float, proto_in: int) -> tuple[str | None, int, str]:
        """Wait for the persistent child's report, killing its group on the wall limit, CPU
        time, memory or task count. Returns (why killed, peak tasks, "done" | "died" |
        "killed" | "client")."""
        deadline = started + self.limits["wall_s"]
        next_scan = started + procs._FIRST_SCAN_S
        peak = 1
        while True:
            now = time.monotonic()
            wait_ms = max(0, int((min(deadline, next_scan) - now) * 1000) + 1)
            ready = {fd for fd, _ in self.poller.poll(wait_ms)}
            if ready:
                if child.done_r in ready:
                    return None, peak, "done"
                if child.pidfd in ready:
                    return None, peak, "died"
                return "client", peak, "client"  # the harness went away mid-test
            now = time.monotonic()
            if now >= deadline:
                return "wall", peak, "killed"
            if now >= next_scan:
                scan_start = now
                killed, tasks = self._check(child.pid)
                peak = max(peak, tasks)
                if killed:
                    return killed, peak, "killed"
                now = time.monotonic()
                next_scan = now + max(procs._SCAN_INTERVAL_S, 5 * (now - scan_start))

    def shutdown(self) -> None:
        """Stop the waiting and persistent children (at the end of the session)."""
        if self.mode == "python":
            if self.live is not None:
                self._retire(self.live)
            if self.spare is not None:
                os.close(self.spare.go_w)  # EOF: the waiting child exits at once
                os.close(self.spare.done_r)
                procs._killpg(self.spare.pid)
                os.waitpid(self.spare.pid, 0)
                self.spare = None
        else:
            self.discard_prefork()

    def _check(self, pid: int) -> tuple[str | None, int]:
        """Scan the running test's group: too many tasks, too much CPU time (counted from
        ``self.cpu_base``, the CPU a persistent child had used before this test), or too much
        resident memory (the peak sample is kept in ``self.rss_peak_kb``)."""
        tasks, cpu, rss_kb = procs._scan_group(pid)
        self.rss_peak_kb = max(self.rss_peak_kb, rss_kb)
        if tasks > self.limits["processes"]:
            return "processes", tasks
        if cpu - self.cpu_base > self.limits["time_s"]:
            return "cpu", tasks
        if rss_kb >= self.limits.get("memory_kb", float("inf")):
            return "memory", tasks
        return None, tasks

    def _watch_pidfd(self, pid: int, started: float, proto_in: int) -> tuple[str | None, int, bool]:
        """Wait for the child, killing its group on the wall limit, CPU time or task count."""
        deadline = started + self.limits["wall_s"]
        next_scan = started + procs._FIRST_SCAN_S
        peak = 1
        pidfd = os.pidfd_open(pid)
        poller = self.poller
        if poller is None:
            poller = self.poller = select.poll()
            poller.register(proto_in, select.POLLIN | select.POLLHUP)
        poller.register(pidfd, select.POLLIN)
        try:
            while True:
                now = time.monotonic()
                wait_ms = max(0, int((min(deadline, next_scan) - now) * 1000) + 1)
                for fd, _ in poller.poll(wait_ms):
                    if fd == pidfd:
                        return None, peak, False
                    return "client", peak, True  # the harness went away mid-test
                now = time.monotonic()
                if now >= deadline:
                    return "wall", peak, False
                if now >= next_scan:
                    scan_start = now
                    killed, tasks = self._check(pid)
                    peak = max(peak, tasks)
                    if killed:
                        return killed, peak, False
                    now = time.monotonic()
                    next_scan = now + max(procs._SCAN_INTERVAL_S, 5 * (now - scan_start))
        finally:
            poller.unregister(pidfd)
            os.close(pidfd)

    def _watch_sleep(self, pid: int, started: float, proto_in: int) -> tuple[str | None, int, bool]:
        """The same watch without pidfd (older kernels): poll the child's state with short sleeps."""
        deadline = started + self.limits["wall_s"]
        next_scan = started + procs._FIRST_SCAN_S
        peak, nap = 1, 0.0002
        while True:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return None, peak, False
            now = time.monotonic()
            if now >= deadline:
                return "wall", peak, False
            if now >= next_scan:
                killed, tasks = self._check(pid)
                peak = max(peak, tasks)
                if killed:
                    return killed, peak, False
                next_scan = time.monotonic() + procs._SCAN_INTERVAL_S
            readable, _, _ = select.select([proto_in], [], [], nap)
            if readable:
                return "client", peak, True
            nap = min(nap * 2, 0.005)





def serve(config: dict) -> int:
    """The server loop: one test per request line until the client closes the pipe."""
    proto_in, proto_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    procs._become_subreaper(procs._prctl())
    server = _Server(config)
    if server.mode == "python":
        server.install_python_state()  # last: from here on this process imports nothing
    gc.collect()
    gc.freeze()  # fewer copy-on-write faults in the children
    if server.mode == "python":
        server.spare = server.spawn_python()
    else:
        server.prefork(0)
    os.write(proto_out, procs._READY)
    buf = bytearray()
    while True:
        line = procs._read_line(proto_in, buf)
        if line is None:
            break
        fresh = line.startswith(b"F")
        report = server.run_one(int(line[1:] if fresh else line), proto_in, fresh)
        if report is None:
            break
        os.write(proto_out, report)
    server.shutdown()
    procs._reap_leftovers()
    return 0


def _main(argv: list[str]) -> int:
    config = json.loads(argv[1])
    stack = config["limits"]["stack_bytes"]
    soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    if config["mode"] == "python" and soft != stack and not os.environ.get("_GAMECERT_STACK_SET"):
        # The stack limit shapes the memory layout at exec time (where mmap starts), so a
        # Python candidate's server re-executes itself once with the candidate's stack limit:
        # deep recursion then behaves as in a fresh `python FILE` under that limit.
        _, hard = resource.getrlimit(resource.RLIMIT_STACK)
        if hard != resource.RLIM_INFINITY:
            stack = min(stack, hard)
        resource.setrlimit(resource.RLIMIT_STACK, (stack, stack))
        os.environ["_GAMECERT_STACK_SET"] = "1"
        os.execv(sys.executable, [sys.executable, *argv])
    os.environ.pop("_GAMECERT_STACK_SET", None)
    return serve(config)


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
