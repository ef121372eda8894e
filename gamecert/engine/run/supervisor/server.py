"""The candidate supervisor: one long-lived process that starts, limits, watches and reaps candidates.

Run as a script (``python server.py``, inside the sandbox when contained) it is the *server*;
:class:`gamecert.engine.run.forkserver.ForkServerClient` starts one and talks to it over a Unix socket
on the server's standard input. The harness never forks a candidate itself.

**The measurer out of the candidate's reach.** Contained, the server is PID 1 of the sandbox's PID
namespace, and

* it is not dumpable (``PR_SET_DUMPABLE`` 0): a candidate, although it runs as the same user, can
  neither ``ptrace`` it nor open its memory or descriptors under ``/proc/1``;
* it keeps the default action of every signal a candidate could send, so the kernel drops them
  (a namespace's init gets only the signals it handles, and never SIGKILL or SIGSTOP from inside);
* a test's status comes only from the kernel: its exit status and CPU time from ``wait4`` on
  every process of the test, its memory from ``/proc`` samples and ``ru_maxrss``, its output from
  descriptors the harness made. Nothing a candidate writes becomes its status.

**No names.** The harness sends each test's stdin and stdout as descriptors (``SCM_RIGHTS``) of
anonymous files it made; stderr is a pipe the server drains, keeping a tail. Neither side ever
opens a path a candidate can create or replace.

**A fresh process per test, everything counted.** Each test is one new child: ``fork``, limits,
the test's descriptors, the box folder as working folder, then ``execve`` of the candidate (an
executable, or ``python FILE`` for a plain run), or, for a Python candidate, the candidate's code
compiled once by the server (a *zygote*: the child unwinds to this module's top level and runs
the code there, so that its exit status, uncaught exceptions and shutdown are the interpreter's
own, see :mod:`_sv_python`). While it runs the watchdog scans every process of the test (all the
namespace's processes but this one, whatever their session or group) every ~10 ms for tasks, CPU
and resident memory, and the box's file count, and kills at a limit. When the test's main process
ends, ``kill(-1, SIGKILL)`` ends every other process of the namespace, and the server reaps them
all: their CPU time is added to the test's. The box folder and ``/tmp`` (the sandbox's
size-capped tmpfs) are emptied, and the IPC namespace, so nothing carries from one test to the
next: right after the test's report is sent (the client reads it meanwhile) and before the next
request is read.

Not contained (``--no-contain``, or no bubblewrap) the same server runs as a plain process: the
test's processes are found by process group and as re-parented orphans (the server is a child
subreaper), and none of the guarantees above about the measurer hold.

Per test the client sends one byte (``R`` run, ``P`` a plain run: ``python FILE`` for a Python
candidate) with two descriptors (stdin, stdout); the server answers (not contained) with the test
process's pid on a line of its own as soon as it has started it, then one JSON line (wait
status, CPU times, peak memory, wall time, why the watchdog killed, peak tasks, the largest sampled
memory, processes reaped besides the main one, stderr bytes written, files in the box) followed by
the tail of stderr (``tail`` bytes). The client may send the next test's request while a test
runs (see :class:`gamecert.engine.run.forkserver.Lookahead`): the server reads it only once this
test is answered and cleaned up, so tests still run one at a time, each in a fresh process; and the
forks the pids cgroup refused are read by the server (``pids_events``) before the next test starts.
Contained, a request may be a batch: ``B`` with up to :data:`BATCH_MAX` descriptor pairs, run one
after another (each a fresh process, cleaned up after) and answered once, the reports in order.

A native fork server's test, and a zygote's (forked and set up in C: :class:`_sv_python.ZygoteFork`),
runs through :mod:`_sv_fast` (a C loop, when it was built) from the clone request or the fork to
its report if it ends by itself before the first watchdog scan with nothing left in the pids
cgroup (its report then says ``loop``); anything else is handed to the Python watch below.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import signal
import socket
import sys
import time

try:
    import _sv_procs as procs  # run by path (inside the sandbox): this folder is sys.path[0]
except ModuleNotFoundError:  # imported as part of gamecert (documentation, doctests)
    from gamecert.engine.run.supervisor import _sv_procs as procs
try:
    from _sv_python import Launch, PythonMode, zygote_fork
except ModuleNotFoundError:
    from gamecert.engine.run.supervisor._sv_python import Launch, PythonMode, zygote_fork
try:
    import _sv_native as native
except ModuleNotFoundError:
    from gamecert.engine.run.supervisor import _sv_native as native
try:
    import _sv_box as box
except ModuleNotFoundError:
    from gamecert.engine.run.supervisor import _sv_box as box
try:
    import _sv_fast as fast
except ModuleNotFoundError:
    from gamecert.engine.run.supervisor import _sv_fast as fast
try:
    from _sv_watch import WatchMode
except ModuleNotFoundError:
    from gamecert.engine.run.supervisor._sv_watch import WatchMode

STDERR_KEEP = procs.STDERR_KEEP
_drain = procs._drain
SERVER_CPU_S = procs.SERVER_CPU_S
BATCH_MAX = procs.BATCH_MAX


class _Server(WatchMode, PythonMode):
    def __init__(self, config: dict, sock: socket.socket) -> None:
        self.config = config
        self.sock = sock
        self.limits = config["limits"]
        self.limit_plan = procs._limit_plan(self.limits)
        self.contained = bool(config.get("contained")) and os.getpid() == 1
        self.mode = config["mode"]
        self.argv = [str(a) for a in config["argv"]]
        self.plain_argv = [str(a) for a in (config.get("plain_argv") or config["argv"])]
        self.env = {str(k): str(v) for k, v in config["env"].items()}
        self.box = config["box"]
        # the box and, contained, the sandbox's /tmp: emptied after every test
        self.scratch_fds = [
            os.open(path, os.O_RDONLY | os.O_DIRECTORY)
            for path in config.get("scratch", [self.box])
        ]
        #: inodes in use on each scratch file system when empty (mount points): a test that leaves
        #: the count there left nothing behind, and its folder is not listed
        self.scratch_base = [procs._box_files([fd]) for fd in self.scratch_fds]
        #: and each folder's own mode: restored, with its extended attributes taken off, when changed
        self.scratch_mode = [box.scratch_state(fd) for fd in self.scratch_fds]
        self.prctl = procs._prctl()
        self.own_state = procs._own_state()  # checked after every test
        #: the runner's memory cgroup (None: memory limited per process only), and, contained,
        #: the sandbox's mqueue file system, emptied after every test with the SysV objects
        self.memory = box.Memory(config["memcg"]) if config.get("memcg") else None
        #: the pids cgroup's refused forks, read after each test, before a later one can start
        self.forks = (
            box.RefusedForks(config["pids_events"])
            if config.get("pids_events") is not None
            else None
        )
        #: the sandbox's cpuacct cgroup: the CPU time of a test's processes wait4 does not report
        self.cpuacct = (
            box.CpuAccount(config["cpuacct"]) if config.get("cpuacct") is not None else None
        )
        self.cpu_start: tuple[int, int] | None = None
        self.mqueue_fd = self.mqueue_empty = None
        if self.contained and os.path.isdir(box.MQUEUE):
            self.mqueue_fd = os.open(box.MQUEUE, os.O_RDONLY | os.O_DIRECTORY)
            box.clear_ipc(self.mqueue_fd)  # (a new namespace: nothing yet) then its empty size
            self.mqueue_empty = box.mqueue_size(self.mqueue_fd)
        self.code = None
        self.tests_left = (
            int(self.limits.get("zygote_tests") or procs.ZYGOTE_TESTS)
            if self.mode == "python"
            else None
        )  # (a new seed)
        self.compile_error: BaseException | None = None
        if self.mode == "python":
            self._prepare_python(config["python_file"])
        #: the native fork server (a preloaded shim), its shim's path, and why there is none
        self.native: native.NativeServer | None = None
        self.native_shim = config.get("native_shim") if self.mode == "exec" else None
        self.native_why = "" if self.native_shim else "not asked for"
        #: the fork server's CPU time (ns) already charged to tests, and tests it has served
        self.native_charged, self.native_served = 0, 0
        #: bench only (config "profile"): (part, perf_counter_ns) stamps of the running test, sent
        #: in its report, and a shared page where the child stamps its own start and end
        self.marks: list | None = [] if config.get("profile") else None
        self.child_marks = None
        if self.marks is not None:
            import mmap

            self.child_marks = mmap.mmap(-1, 192)
        #: a test's process forked and set up in C by the per-test loop (Python mode, the library
        #: there), or None: forked by os.fork and set up in Python (see _child)
        self.zygote = zygote_fork(self, config)
        #: the per-test loop in C for the fork server's or the zygote's fast tests (None: the
        #: Python path only)
        self.fast, self.fast_why = fast.for_server(self, config)

    def mark(self, part: str) -> None:
        if self.marks is not None:
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            self.marks.append((part, time.perf_counter_ns(), time.process_time_ns(), faults))

    # ---- the native fork server ----------------------------------------------------------

    def _native_setup(self) -> None:
        """In the fork server's process before its exec: the limits (but CPU time, which would
        add up over its tests: each test gets its own), its own session, the box."""
        for which, pair in self.limit_plan:
            if which != resource.RLIMIT_CPU:
                resource.setrlimit(which, pair)
        os.setsid()
        if not self.contained and self.prctl is not None:
            self.prctl(procs._PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        os.chdir(self.box)
        # in the memory cgroup for good: every test's clone is born there (no move per test,
        # ~70 us each); the server's own pages stay where they were charged, it adds none
        if self.memory is not None:
            self.memory.join()

    def _native_spawn(self, fds: list[int], err_w: int) -> int | None:
        """A test's process from the fork server (started, or restarted once, as needed); None
        when there is none (a static program, the shim refused...), then the test is exec'd."""
        for _ in range(2):
            if self.native is None:
                if not self.native_shim:
                    return None
                self.native, why = native.start_ex(
                    self.argv, self.env, self.native_shim, self._native_setup
                )
                if self.native is None:
                    self.native_shim, self.native_why = None, why or "the fork server did not start"
                    return None
                self.native_charged, self.native_served = (
                    0,
                    0,
                )  # its start-up goes to its first test
            try:
                # (its CPU limit set by the clone itself, before the program runs)
                return self.native.spawn(
                    fds[0],
                    fds[1],
                    err_w,
                    cwd_fd=self.scratch_fds[0],
                    cpu_soft=int(self.limits["cpu_soft"]),
                )
            except native.ServerGone:
                self.native = None
                continue
            except OSError:
                return None
        self.native_shim, self.native_why = None, "the fork server died twice in a row"
        return None

    # ---- one test ----------------------------------------------------------------------

    def run_one(self, request: bytes, fds: list[int]) -> bytes | None:
        """Run one test on the descriptors ``fds`` (stdin, stdout); its report, or None if the
        client went away meanwhile. A plain run ('P') is an exec, never a clone of a fork server."""
        plain, clone = request == b"P" or self.mode != "python", request != b"P"
        if self.fast is not None and (
            self.native is not None and clone or self.zygote is not None and not plain
        ):
            taken, report = fast.run_native(self, fds)
            if taken:
                return self._reply(report)
        err_r, err_w = os.pipe()
        self.mark("pipe")
        if self.memory is not None:
            self.memory.before()
        self.mark("mem_before")
        if self.child_marks is not None:
            self.child_marks[:] = bytes(192)
        started = time.monotonic()
        self.cpu_start = self.cpuacct.now() if self.cpuacct is not None else None
        pid = (
            self._native_spawn(fds, err_w)
            if self.native_shim and self.mode == "exec" and clone
            else None
        )
        self.last_native = pid is not None
        if (
            self.last_native
        ):  # the server's start-up, if it just started, is CPU charged, not wall time
            started = time.monotonic()
        if pid is None:
            pid = os.fork()
        if pid == 0:  # the test's process: never returns into the server loop
            self._child(fds, err_w, plain)
        self.mark("spawn")
        os.close(err_w)
        for fd in fds:
            os.close(fd)
        if not self.contained:  # the client kills the test's group if this server dies (contained:
            try:  # the whole sandbox, and the pid is not needed)
                self.sock.sendall(b"%d\n" % pid)
            except OSError:
                pass
        self.mark("close_fds")
        try:
            report = self._watch_to_end(pid, started, err_r)
        finally:
            os.close(err_r)
        return self._reply(report)

    def _reply(self, report: dict | None) -> bytes | None:
        """A test's report as sent: a JSON line and the stderr tail; None if the client left."""
        if report is None:
            self.clean_up()
            return None
        tail = report.pop("tail_bytes")
        if self.marks is not None:
            assert self.child_marks is not None  # (made with marks)
            child = [
                int.from_bytes(self.child_marks[i : i + 8], "little") for i in range(0, 192, 8)
            ]
            report["prof"] = {"server": self.marks, "child": child, "minflt": report.pop("minflt")}
            self.marks = []
        return json.dumps(report).encode() + b"\n" + tail

    def clean_up(self) -> None:
        """After a test, every process of it reaped: empty the scratch folders and the IPC
        namespace. Run after its report is sent and before the next request is read (so that it
        overlaps the client's reading of the report), and in any case before the next test."""
        self.mark("clean")
        dirty = self.fast.dirty() if self.fast is not None else None  # (the same checks, in C)
        for i, (fd, base) in enumerate(zip(self.scratch_fds, self.scratch_base)):
            # contained, the sandbox's own tmpfs: a count at its base means nothing was left
            # (a test cannot remove the mount points counted); not contained, always listed
            if not self.contained or (
                procs._box_files([fd]) != base if dirty is None else dirty >> i & 1
            ):
                procs._empty_folder(fd)
            if dirty is None or dirty >> i & 1:  # the folder itself (the C check includes it)
                box.restore_scratch(fd, self.scratch_mode[i])
        if self.memory is not None and (dirty is None or dirty & fast.MEMORY_DIRTY):
            self.memory.empty()  # no earlier test's page cache in the next test's base
        self.mark("scratch")
        if self.contained and (
            dirty is None or dirty & fast.IPC_DIRTY
        ):  # nothing of the test's IPC outlives it
            box.clear_ipc(self.mqueue_fd, self.mqueue_empty)
        self.mark("ipc")
        # (a test that lowered the fork server's limits or priority: the server sees it itself
        # at the next request and ends, and a new one serves; see _sv_native's protocol)

    def _child(self, fds: list[int], err_w: int, plain: bool) -> None:
        self._child_mark(0)  # bench only: the child's first moment
        try:
            if self.memory is not None:  # first: every page the test touches is charged to it
                self.memory.join()
            self._child_mark(3)
            os.dup2(fds[0], 0)
            os.dup2(fds[1], 1)
            os.dup2(err_w, 2)
            os.closerange(3, os.sysconf("SC_OPEN_MAX"))
            self._child_mark(4)
            # contained, a Python test's own group in the sandbox's session (no terminal): no
            # scheduler autogroup made per test, as a new session makes (see _sv_python)
            os.setpgid(0, 0) if self.contained and self.mode == "python" else os.setsid()
            if not self.contained and self.prctl is not None:
                self.prctl(
                    procs._PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0
                )  # dies with this server
            for which, pair in self.limit_plan:
                resource.setrlimit(which, pair)
            os.chdir(self.box)
            procs._fresh_ioprio()
            self._child_mark(5)
            if plain:
                self._exec(self.plain_argv)
            self.launch_python()  # raises Launch: the candidate runs at this module's top level
        except Launch:
            raise
        except BaseException as exc:  # noqa: BLE001
            procs._setup_failed(exc)
        os._exit(procs._SETUP_FAILED)

    def _exec(self, argv: list[str]) -> None:
        for number in range(1, signal.NSIG):  # a fresh program gets every default back
            try:
                signal.signal(number, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        try:
            os.execve(argv[0], argv, self.env)
        except OSError as exc:
            os.write(2, f"cannot run {argv[0]}: {exc.strerror}\n".encode())
            os._exit(procs._EXEC_FAILED)


#: the server object, kept referenced for the whole process: a test's child leaves the server's
#: frames by an exception, and if the frames held the last reference, unwinding them would free
#: the server's whole object graph in the child, a copy-on-write fault per page it lies on (~100
#: faults, ~0.35 ms a test). Kept, the child only drops a reference. Nothing in it is a way back
#: to the server: every descriptor of the harness is closed in the child before any of its code.
_KEPT: list = []


def _read_config(sock: socket.socket) -> dict:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit(0)
        data += chunk
    return json.loads(data)


def serve(sock_fd: int) -> int:
    """The server loop: one test per request until the client closes the socket."""
    prctl = procs._prctl()
    procs._set_dumpable(prctl, False)
    # every disposition to the default, whatever the harness ignored (a shell's background job
    # ignores SIGINT and SIGQUIT): as PID 1 signals from inside are then dropped, and a zygote's
    # child starts from the dispositions a fresh `python FILE` starts from; SIGPIPE and SIGXFSZ
    # stay ignored, as the interpreter has them (a write to a client gone is an error, not death)
    native._default_signals()
    for name in ("SIGPIPE", "SIGXFSZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    sock = socket.socket(fileno=os.dup(sock_fd))
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    config = _read_config(sock)
    contained = bool(config.get("contained")) and os.getpid() == 1
    if not contained:
        procs._become_subreaper(prctl)
    server = _Server(config, sock)
    _KEPT.append(server)
    if server.mode == "python":
        server.install_python_state()  # last: from here on this process imports nothing
    gc.collect()
    gc.freeze()  # fewer copy-on-write faults in the children
    sock.sendall(procs._READY)
    while True:
        try:
            # one byte a request: requests sent ahead are read one by one, each with its descriptors
            message, fds = fast.next_request(server, sock)  # (a zygote's fast tests: run in C)
        except OSError:
            break
        if not message:
            break
        if message == b"F" and not fds:  # the floor: fork + wait of this very image ("F<count>\n")
            count = b""
            while not count.endswith(b"\n") and len(count) < 16:
                count += sock.recv(1) or b"\n"
            sock.sendall(b"%.9f %.1f %.9f\n" % procs._fork_floor(int(count.strip() or b"100")))
            continue
        batch = message == b"B" and contained and fds and len(fds) % 2 == 0
        if len(fds) != 2 and not batch:
            for fd in fds:
                os.close(fd)
            break
        server.mark("recv")
        # a batch ("B", contained only): its tests one after another, each a fresh process
        # cleaned up after, and one answer, the reports in order
        reports: list[bytes] = []
        for at in range(0, len(fds), 2):
            if reports:
                server.clean_up()
            report = server.run_one(b"R" if batch else message, fds[at : at + 2])
            if report is None:
                for fd in fds[at + 2 :]:
                    os.close(fd)
                break
            reports.append(report)
        if len(reports) < len(fds) // 2:
            break
        try:
            sock.sendall(b"".join(reports))
        except OSError:
            break
        finally:
            server.clean_up()  # before the next request is even read
        if server.tests_left is not None:
            server.tests_left -= len(reports)
            if server.tests_left <= 0:
                break  # its share served: the client starts a new zygote (a new hash seed)
        if fast.own_state_changed(server):  # lowered by a test: this server ends, the client
            os.write(
                2, b"a test changed the limits, priority or CPU affinity its successors inherit\n"
            )
            break  # starts a new one for the next test
    if server.native is not None:
        server.native.close()
    procs._kill_everything(contained, None)
    return 0


def _main(argv: list[str]) -> int:
    again = argv[1:] == ["1"]
    if not again:
        # The stack limit shapes the memory layout at exec time (where mmap starts), so the server
        # re-executes itself once with the candidates' stack limit: deep recursion in a Python
        # candidate then behaves as in a fresh `python FILE` under that limit.
        stack = int(os.environ.get("STACK_BYTES", "0") or 0)
        os.environ.pop("STACK_BYTES", None)
        if stack:
            _, hard = resource.getrlimit(resource.RLIMIT_STACK)
            if hard != resource.RLIM_INFINITY:
                stack = min(stack, hard)
            resource.setrlimit(resource.RLIMIT_STACK, (stack, stack))
        os.execv(sys.executable, [sys.executable, argv[0], "1"])
    return serve(0)


if __name__ == "__main__":
    try:
        sys.exit(_main(sys.argv))  # the server's end; a test's child leaves by Launch instead
    except Launch as _raised:  # a test's child: the candidate runs here, at the top level
        _launch = _raised
    for _name in (
        "_sv_procs",
        "_sv_python",
        "_sv_box",
    ):  # the program sees no module of the harness's
        sys.modules.pop(_name, None)
    _code, _globals = _launch.take()  # the rest of this process is the candidate's
    del _launch
    _mark = (
        _KEPT[0]._child_mark if _KEPT and _KEPT[0].child_marks is not None else None
    )  # bench only
    if _mark is not None:
        _mark(1)  # the program's start and end
    try:  # at this level: no frame of the harness's in the program's tracebacks
        exec(_code, _globals)
        _status = 0
    except SystemExit as _stop:  # the status as CPython's top level gives it; then its shutdown
        _status = Launch.exit_status(_stop)
    if _mark is not None:
        _mark(2)
    Launch.finish(_mark, _status)
