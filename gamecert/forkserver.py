"""The candidate supervisor: one long-lived process that starts, limits, watches and reaps candidates.

Run as a script (``python gamecert/forkserver.py CONFIG_JSON``) it is the *server*; imported, it
offers :class:`ForkServerClient`, which starts a server and talks to it. The harness never forks a
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

import atexit
import builtins
import gc
import io
import json
import os
import resource
import select
import shutil
import signal
import sys
import time
import types
import _thread

_READY = b"READY\n"
_SETUP_FAILED = 125  # exit status of a child that could not be set up (a harness fault)
_EXEC_FAILED = 127  # exit status when the candidate's program cannot be executed
_FIRST_SCAN_S = 0.01  # fast tests finish before the first /proc scan and never pay for one
_SCAN_INTERVAL_S = 0.01
_SWEEP_INTERVAL_S = 0.5  # at least this often, look for leftovers that left the group
_PR_SET_CHILD_SUBREAPER = 36
# signals whose handlers a persistent child puts back before each test
_RESET_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGALRM", "SIGUSR1", "SIGUSR2", "SIGHUP", "SIGPIPE", "SIGXFSZ")
    if hasattr(signal, name)
)
# a persistent child is replaced when a test leaves its resident memory this much above its start
_RECYCLE_RSS_GROWTH_KB = 64 << 10
# The pid file: the running test's child at offset 0, the waiting child at offset 13
_PID_RUNNING, _PID_WAITING = 0, 13


# --------------------------------------------------------------------------------------------
# server side


def _prctl():
    """libc's prctl, or None where it cannot be reached."""
    try:
        import ctypes  # only here: a client never needs it

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError, ImportError):
        return None


def _become_subreaper(prctl) -> bool:
    """Make orphaned descendants re-parent to this process (Linux); False where unsupported."""
    return prctl is not None and prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def _limit_plan(limits: dict) -> list[tuple[int, tuple[int, int]]]:
    """The (resource, (soft, hard)) pairs a child sets, computed once in the server."""
    wanted = [
        ("RLIMIT_CORE", 0, 0),
        ("RLIMIT_CPU", limits["cpu_soft"], limits["cpu_soft"] + 1),
        ("RLIMIT_AS", limits["as_bytes"], limits["as_bytes"]),
        ("RLIMIT_STACK", limits["stack_bytes"], limits["stack_bytes"]),
        ("RLIMIT_FSIZE", limits["fsize_bytes"], limits["fsize_bytes"]),
    ]
    if limits.get("nproc"):
        wanted.append(("RLIMIT_NPROC", limits["nproc"], limits["nproc"]))
    plan = []
    for name, soft, hard in wanted:
        which = getattr(resource, name, None)
        if which is None:
            continue
        _, current = resource.getrlimit(which)
        if current != resource.RLIM_INFINITY:  # cannot be raised without privilege
            soft, hard = min(soft, current), min(hard, current)
        plan.append((which, (soft, hard)))
    return plan


def _redirect(io_paths: dict) -> None:
    """Point fds 0, 1, 2 at the test's files (stdin is opened, stdout and stderr made anew).

    stdout and stderr are unlinked and created fresh, never truncated: a process an earlier
    test left behind (a daemon that escaped every sweep) may still hold the old files open, and
    whatever it writes then goes to an inode nobody reads, not into this test's output.
    """
    fd_in = os.open(io_paths["stdin"], os.O_RDONLY | os.O_CREAT, 0o644)
    for name in ("stdout", "stderr"):
        try:
            os.unlink(io_paths[name])
        except FileNotFoundError:
            pass
    fd_out = os.open(io_paths["stdout"], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    fd_err = os.open(io_paths["stderr"], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    for fd, target in ((fd_in, 0), (fd_out, 1), (fd_err, 2)):
        os.dup2(fd, target)
        os.close(fd)


def _read_stat(pid: str) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("ascii", "replace")
    except OSError:
        return None
    return raw[raw.rfind(")") + 2 :].split()


_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def _scan_group(pgid: int) -> tuple[int, float, int]:
    """Live tasks (threads included) in process group ``pgid``, their CPU seconds and the sum
    of their resident memory in kB."""
    tick = os.sysconf("SC_CLK_TCK")
    tasks, ticks, pages = 0, 0, 0
    want = str(pgid)
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        fields = _read_stat(name)
        # fields: 0 state, 1 ppid, 2 pgrp, 11 utime, 12 stime, 13 cutime, 14 cstime, 17 threads, 21 rss
        if not fields or fields[2] != want or fields[0] == "Z":
            continue
        tasks += int(fields[17])
        ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        pages += int(fields[21])
    return tasks, ticks / tick, pages * _PAGE_KB


def _children_of(pid: int) -> list[int]:
    found = []
    want = str(pid)
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _read_stat(name)
            if fields and fields[1] == want:
                found.append(int(name))
    return found


def _killpg(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_group_and_wait(pgid: int, timeout_s: float = 2.0) -> None:
    """Kill a group that is not ours to reap, and wait until none of it is still running."""
    end = time.monotonic() + timeout_s
    while True:
        _killpg(pgid)
        if _scan_group(pgid)[0] == 0 or time.monotonic() > end:
            return
        time.sleep(0.001)


def _reap_leftovers(keep: int | None = None, deadline_s: float = 2.0, also_keep: int | None = None) -> bool:
    """Kill and reap every child of this server but ``keep`` (the waiting child) and
    ``also_keep`` (a persistent Python child between tests), boundedly.

    Returns False if ``keep`` turned out to have died (it is reaped then, too).
    """
    keep_alive = True
    spared = {keep, also_keep}
    end = time.monotonic() + deadline_s
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return keep_alive  # no children at all
        if pid:
            keep_alive = keep_alive and pid != keep
            continue
        others = [child for child in _children_of(os.getpid()) if child not in spared]
        if not others:
            return keep_alive
        for child in others:
            try:
                os.kill(child, signal.SIGKILL)
                _killpg(os.getpgid(child))
            except (ProcessLookupError, PermissionError):
                pass
        if time.monotonic() > end:
            return keep_alive
        time.sleep(0.001)


def _open_children_list() -> int | None:
    """A descriptor on ``/proc/self/task/<tid>/children`` (this server is single-threaded), kept
    open for :func:`_has_strays`; None where the kernel does not offer the file."""
    try:
        return os.open(f"/proc/self/task/{os.getpid()}/children", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


def _has_strays(children_fd: int | None, waiting: int | None, live: int | None = None) -> bool:
    """Whether this server has a child other than ``waiting`` (a leftover of a test).

    Reads the children list through ``children_fd`` (see :func:`_open_children_list`); the kernel
    lists the children anew on every read from offset 0, so one descriptor serves every test.
    Where the file is missing, False, and the periodic sweep finds leftovers instead.
    """
    if children_fd is None:
        return False
    listed = b""
    try:
        while True:
            chunk = os.pread(children_fd, 65536, len(listed))
            if not chunk:
                break
            listed += chunk
    except OSError:
        return False
    return any(int(child) not in (waiting, live) for child in listed.split())


class _Child:
    """A forked Python child held by the server: its pid, the pipe that starts its tests and
    the pipe a persistent child reports on; while persistent, its pidfd, its test count and the
    CPU seconds (user, system) it had used before its current test."""

    __slots__ = ("pid", "go_w", "done_r", "pidfd", "tests", "base_u", "base_s", "base_total")

    def __init__(self, pid: int, go_w: int, done_r: int) -> None:
        self.pid, self.go_w, self.done_r = pid, go_w, done_r
        self.pidfd: int | None = None
        self.tests = 0
        self.base_u = self.base_s = self.base_total = 0.0


def _threads_remain(task_links: int) -> bool:
    """Whether this process has more threads than when ``/proc/self/task`` had ``task_links``
    links (2 + its threads), allowing a joined thread up to ~2 ms to finish exiting."""
    for _ in range(20):
        if os.stat("/proc/self/task").st_nlink == task_links:
            return False
        time.sleep(0.0001)
    return True


def _status_kb(status: bytes, key: bytes) -> int:
    """A number from ``/proc/PID/status`` text (kB for memory lines); 0 if missing.

    >>> _status_kb(b"Name:\\tx\\nVmHWM:\\t  10836 kB\\nThreads:\\t1\\n", b"VmHWM:")
    10836
    >>> _status_kb(b"Threads:\\t3\\n", b"Threads:"), _status_kb(b"", b"VmRSS:")
    (3, 0)
    """
    at = status.find(key)
    if at < 0:
        return 0
    return int(status[at + len(key) : status.find(b"\n", at)].split()[0])


def _group_exists(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _Server:
    def __init__(self, config: dict) -> None:
        self.config = config
        self.limits = config["limits"]
        self.limit_plan = _limit_plan(self.limits)
        self.io = config["io"]
        self.scratch_root = config["scratch_root"]
        self.scratch_prefix = os.path.join(self.scratch_root, "run")  # + the child's pid
        self.next_child: tuple[int, int, int] | None = None  # waiting child: pid, go pipe, file set
        self.next_sweep = 0.0
        self.poller = None  # watches the client's pipe and the running child's pidfd
        self.pid_fd = os.open(config["io"]["pid"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        self.children_fd = _open_children_list()
        self.mode = config["mode"]
        self.argv = [str(a) for a in config["argv"]]
        self.code = None
        self.compile_error: BaseException | None = None
        self.tick_watch = self._watch_pidfd if hasattr(os, "pidfd_open") else self._watch_sleep
        # Python children: the one waiting for a test, the persistent one, tests per child
        self.spare: _Child | None = None
        self.live: _Child | None = None
        k = int(config.get("persistent_tests", 1))
        self.persistent = k if k > 1 and hasattr(os, "pidfd_open") else 0
        self.rss_peak_kb, self.cpu_base = 0, 0.0
        cpu = getattr(resource, "RLIMIT_CPU", None)
        # a persistent child raises its CPU soft limit before each test: leave the hard one
        self.child_plan = [(w, (p[0], resource.getrlimit(w)[1]) if w == cpu else p) for w, p in self.limit_plan]
        if self.mode == "python":
            self._prepare_python(config["python_file"])

    # ---- python mode -------------------------------------------------------------------

    def _prepare_python(self, path: str) -> None:
        from importlib.machinery import SourceFileLoader

        self.path = path
        self.base_sys_path = list(sys.path[1:])  # sys.path[0] is this file's folder
        try:
            with open(path, "rb") as f:
                source = f.read()
            # dont_inherit: this module's ``from __future__`` imports must not leak in
            self.code = compile(source, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            self.compile_error = exc
        self._loader = SourceFileLoader
        # the stream settings a redirected `python FILE` would get in this environment
        self.stream_like = {0: sys.__stdin__, 1: sys.__stdout__, 2: sys.__stderr__}
        self.keep = [sys.stdin, sys.stdout, sys.stderr]  # never finalised in a child

    def _std_stream(self, fd: int):
        like = self.stream_like[fd]
        mode = "r" if fd == 0 else "w"
        # PYTHONUNBUFFERED / -u: the interpreter writes stdout and stderr through a raw file
        unbuffered = fd != 0 and isinstance(getattr(like, "buffer", None), io.FileIO)
        buf = io.open(fd, mode + "b", 0 if unbuffered else -1, closefd=False)
        (buf if unbuffered else buf.raw).name = ("<stdin>", "<stdout>", "<stderr>")[fd]
        stream = io.TextIOWrapper(
            buf,
            encoding=getattr(like, "encoding", "utf-8"),
            errors=getattr(like, "errors", "strict"),
            newline="\n",
            line_buffering=getattr(like, "line_buffering", False),
            write_through=getattr(like, "write_through", False),
        )
        stream.mode = mode
        return stream

    def install_python_state(self) -> None:
        """Give this server the interpreter state `python FILE` shows its program: fresh std
        streams on fds 0-2, argv, sys.path, an empty ``__main__``.

        Done once, in the server (which never uses them itself: it speaks through other
        descriptors and has imported all it needs), so that each child inherits them ready-made
        instead of building them; what a child changes stays in its own copy. The streams stay
        untouched until a child has put the test's files on fds 0-2.
        """
        log = os.dup(2)  # made over /dev/null, so that no stream starts at the log's offset
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 2)
        os.close(null)
        sys.stdin = sys.__stdin__ = self._std_stream(0)
        sys.stdout = sys.__stdout__ = self._std_stream(1)
        sys.stderr = sys.__stderr__ = self._std_stream(2)
        os.dup2(log, 2)
        os.close(log)
        sys.argv = [self.path]
        sys.orig_argv = [sys.executable, self.path]
        sys.path[:] = [os.path.dirname(os.path.realpath(self.path)), *self.base_sys_path]
        self.keep.append(sys.modules.get("__main__"))  # this server's own module
        sys.modules["__main__"] = self._new_main()
        self._snapshot_state()

    def _new_main(self) -> types.ModuleType:
        """An empty ``__main__`` module, as `python FILE` makes it."""
        main = types.ModuleType("__main__")
        main.__file__ = self.path
        main.__cached__ = None
        main.__builtins__ = builtins
        main.__loader__ = self._loader("__main__", self.path)
        main.__spec__ = None
        return main

    def _snapshot_state(self) -> None:
        """Remember the interpreter settings a program may change, so that a persistent child
        can put them back before each test (see :meth:`_reset_state`)."""
        self.base = {
            "argv": list(sys.argv),
            "path": list(sys.path),
            "recursion": sys.getrecursionlimit(),
            "switch": sys.getswitchinterval(),
            "digits": sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None,
            "gc": gc.get_threshold(),
            "environ": dict(os.environ._data),
            "builtins": dict(builtins.__dict__),
            "modules": set(sys.modules),
            "hooks": (sys.excepthook, sys.displayhook, sys.unraisablehook, sys.breakpointhook),
            "signals": {n: signal.getsignal(n) for n in _RESET_SIGNALS},
        }
        self.script_dir = os.path.dirname(os.path.realpath(self.path)) + os.sep

    def _reset_state(self) -> types.ModuleType:
        """Put back what the previous test in this persistent child may have changed, and
        give the next test fresh std streams and an empty ``__main__`` (returned).

        Done after a test has reported, while the child waits for the next one. Modules the
        program imported from its own folder are forgotten (so they run again); standard
        library modules it imported stay imported, as a cache.
        """
        base = self.base
        for fd in (0, 1, 2):  # the new buffers record the position they start at
            try:
                os.lseek(fd, 0, 0)
            except OSError:
                pass
        sys.stdin = sys.__stdin__ = self._std_stream(0)
        sys.stdout = sys.__stdout__ = self._std_stream(1)
        sys.stderr = sys.__stderr__ = self._std_stream(2)
        sys.argv = list(base["argv"])
        sys.path[:] = base["path"]
        sys.setrecursionlimit(base["recursion"])
        sys.setswitchinterval(base["switch"])
        if base["digits"] is not None:
            sys.set_int_max_str_digits(base["digits"])
        sys.excepthook, sys.displayhook, sys.unraisablehook, sys.breakpointhook = base["hooks"]
        sys.settrace(None)
        sys.setprofile(None)
        gc.enable()
        gc.set_threshold(*base["gc"])
        if os.environ._data != base["environ"]:
            for key in list(os.environ._data):
                if key not in base["environ"]:
                    os.unsetenv(key)
            for key, value in base["environ"].items():
                os.putenv(key, value)
            os.environ._data.clear()
            os.environ._data.update(base["environ"])
        if builtins.__dict__ != base["builtins"]:
            builtins.__dict__.clear()
            builtins.__dict__.update(base["builtins"])
        if len(sys.modules) != len(base["modules"]):
            for name in set(sys.modules) - base["modules"]:
                where = getattr(sys.modules[name], "__file__", None) or ""
                if where.startswith(self.script_dir) or name == "__main__":
                    del sys.modules[name]
        threading = sys.modules.get("threading")
        if threading is not None:
            threading.stack_size(0)
        for number, handler in base["signals"].items():
            if signal.getsignal(number) is not handler:
                signal.signal(number, handler)
        signal.setitimer(signal.ITIMER_REAL, 0)
        main = self._new_main()
        sys.modules["__main__"] = main
        return main

    def _go_python(self) -> None:
        status = self._run_main(sys.modules["__main__"])
        os._exit(self._finalize(status))

    def _run_main(self, main) -> int:
        if self.compile_error is not None:
            sys.excepthook(type(self.compile_error), self.compile_error, None)
            return 1
        try:
            exec(self.code, main.__dict__)
        except SystemExit as exc:
            return self._exit_status(exc)
        except BaseException as exc:  # noqa: BLE001 - the interpreter reports anything uncaught
            tb = exc.__traceback__.tb_next if exc.__traceback__ else None
            exc.__traceback__ = tb  # drop this frame: the display reads the exception's own
            try:
                sys.excepthook(type(exc), exc, tb)
            except BaseException:  # noqa: BLE001
                pass
            return 1
        return 0

    @staticmethod
    def _exit_status(exc: SystemExit) -> int:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        try:
            sys.stderr.write(f"{code}\n")
        except BaseException:  # noqa: BLE001
            pass
        return 1

    @staticmethod
    def _finalize(status: int) -> int:
        """What interpreter shutdown does before exiting: threads, atexit, flushing stdout."""
        threading = sys.modules.get("threading")
        if threading is not None:
            try:
                threading._shutdown()
            except BaseException:  # noqa: BLE001
                pass
        try:
            atexit._run_exitfuncs()
        except BaseException:  # noqa: BLE001
            pass
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except BaseException as exc:  # noqa: BLE001 - as the interpreter: report, status 120
            try:
                sys.stderr.write(f"Exception ignored in: {sys.stdout!r}\n{type(exc).__name__}: {exc}\n")
            except BaseException:  # noqa: BLE001
                pass
            status = 120
        try:
            if sys.stderr is not None:
                sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        return status

    # ---- python children: one-shot and persistent -----------------------------------------

    def spawn_python(self) -> _Child:
        """Fork a Python child that waits for its tests (see :meth:`_python_child`)."""
        go_r, go_w = os.pipe()
        done_r, done_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: never returns into the server loop
            try:
                self._python_child(go_r, done_w)
            except BaseException as exc:  # noqa: BLE001
                try:
                    os.write(2, f"gamecert: sandbox setup failed: {exc!r}\n".encode())
                finally:
                    os._exit(_SETUP_FAILED)
            os._exit(_SETUP_FAILED)
        os.close(go_r)
        os.close(done_w)
        os.pwrite(self.pid_fd, b"%-12d\n" % pid, _PID_WAITING)
        return _Child(pid, go_w, done_r)

    def _python_child(self, go_r: int, done_w: int) -> None:
        """A Python child: leave the server's session, take the limits, open both I/O file sets
        and wait for tests on ``go_r``.

        Each test is one byte: ``0``/``1`` runs a test on that file set and then waits for the
        next one (persistent), ``2``/``3`` runs one test and exits as `python FILE` would
        (one-shot). End-of-file (the server is gone) makes the child exit. After a persistent
        test the child writes one line on ``done_w``: exit status, user and system CPU seconds
        of the test, its peak resident memory in kB, whether the child must be replaced, and the
        CPU seconds the child has used in all.
        """
        low, high = sorted((go_r, done_w))
        os.closerange(3, low)  # the server's pipes must not stay open in the child
        os.closerange(low + 1, high)
        os.closerange(high + 1, os.sysconf("SC_OPEN_MAX"))
        os.setsid()
        for which, pair in self.child_plan:
            resource.setrlimit(which, pair)
        sets = []
        for paths in self.io["sets"]:
            sets.append((
                os.open(paths["stdin"], os.O_RDONLY | os.O_CREAT, 0o644),
                os.open(paths["stdout"], os.O_WRONLY | os.O_CREAT, 0o644),
                os.open(paths["stderr"], os.O_WRONLY | os.O_CREAT, 0o644),
            ))  # fmt: skip
        status_fd = os.open("/proc/self/status", os.O_RDONLY)
        try:
            clear_fd = os.open("/proc/self/clear_refs", os.O_WRONLY)
        except OSError:
            clear_fd = None  # peaks then run from the child's start: it is replaced sooner
        try:
            kids_fd = os.open(f"/proc/self/task/{os.getpid()}/children", os.O_RDONLY)
        except OSError:
            kids_fd = None
        start_rss = _status_kb(os.pread(status_fd, 8192, 0), b"VmRSS:")
        os.close(status_fd)
        task_links = os.stat("/proc/self/task").st_nlink  # 2 + this child's threads (one)
        main = sys.modules["__main__"]
        current = None
        cpu_soft, tests, prefix = self.limits["cpu_soft"], 0, self._scratch(os.getpid())
        cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        cpu_hard = float("inf") if cpu_hard == resource.RLIM_INFINITY else cpu_hard
        cpu_set = 0  # the CPU soft limit set last
        while True:
            go = os.read(go_r, 1)
            if not go:
                os._exit(0)
            one_shot, io_set = go >= b"2", (go[0] - 48) & 1
            if io_set != current:
                for fd, target in zip(sets[io_set], (0, 1, 2)):
                    os.dup2(fd, target)
                current = io_set
            os.lseek(0, 0, 0)
            for fd in (1, 2):
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, 0)
            if not tests:
                os.mkdir(f"{prefix}.1", 0o755)
                os.chdir(f"{prefix}.1")
            tests += 1
            if one_shot:
                self._go_python()
            before = resource.getrusage(resource.RUSAGE_SELF)
            kids_before = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = before.ru_utime + before.ru_stime
            if used + cpu_soft + 1 > cpu_set:  # the backstop: this test's own CPU limit, rounded up
                cpu_set = min(int(used) + 2 * cpu_soft + 1, cpu_hard)  # raised seldom: 1 syscall saved
                resource.setrlimit(resource.RLIMIT_CPU, (cpu_set, resource.getrlimit(resource.RLIMIT_CPU)[1]))
            if clear_fd is not None:
                os.pwrite(clear_fd, b"5", 0)  # VmHWM from here: this test's peak
            status = self._run_main(main)
            status, recycle = self._end_test(status)
            after = resource.getrusage(resource.RUSAGE_SELF)
            kids_after = resource.getrusage(resource.RUSAGE_CHILDREN)
            main.__dict__.clear()  # what the program left is freed now (buffered files flush)
            # ru_maxrss: the high-water mark reset above (or an exited thread's, if higher)
            peak_kb = after.ru_maxrss
            recycle = (
                recycle or status != 0 or _thread._count() != 0 or _threads_remain(task_links)
                or (kids_fd is not None and os.pread(kids_fd, 64, 0) != b"")
                or peak_kb > start_rss + _RECYCLE_RSS_GROWTH_KB or clear_fd is None
            )  # fmt: skip
            utime = after.ru_utime - before.ru_utime + kids_after.ru_utime - kids_before.ru_utime
            stime = after.ru_stime - before.ru_stime + kids_after.ru_stime - kids_before.ru_stime
            total = after.ru_utime + after.ru_stime + kids_after.ru_utime + kids_after.ru_stime
            os.write(done_w, b"%d %.6f %.6f %d %d %.6f\n" % (status, utime, stime, peak_kb, recycle, total))
            if recycle:
                os._exit(0)
            os.mkdir(f"{prefix}.{tests + 1}", 0o755)  # the next test's, made ahead
            os.chdir(f"{prefix}.{tests + 1}")
            try:
                os.rmdir(f"{prefix}.{tests}")
            except OSError:
                shutil.rmtree(f"{prefix}.{tests}", ignore_errors=True)
            main = self._reset_state()

    def _flush_std(self) -> int:
        """Flush the program's stdout and stderr (its own objects if it replaced them); 120
        if stdout could not be flushed, as the interpreter's exit status then is, else 0."""
        status = 0
        for name in ("stdout", "stderr"):  # noqa: B007
            stream = getattr(sys, name)
            try:
                if stream is not None:
                    stream.flush()
            except BaseException as exc:  # noqa: BLE001 - as the interpreter: report, status 120
                if name == "stdout":
                    status = 120
                    try:
                        sys.stderr.write(f"Exception ignored in: {stream!r}\n{type(exc).__name__}: {exc}\n")
                    except BaseException:  # noqa: BLE001
                        pass
        return status

    def _end_test(self, status: int) -> tuple[int, bool]:
        """What interpreter shutdown does after a persistent test, without shutting down: the
        ``atexit`` functions run (and are forgotten), stdout and stderr are flushed. The
        status, and True if threads are still running (the child must then be replaced, after
        waiting for the non-daemon ones as the interpreter would)."""
        threading = sys.modules.get("threading")
        recycle = threading is not None and threading.active_count() > 1
        if recycle:
            try:
                threading._shutdown()
            except BaseException:  # noqa: BLE001
                pass
        if atexit._ncallbacks():
            try:
                atexit._run_exitfuncs()
            except BaseException:  # noqa: BLE001
                pass
            atexit._clear()
        flushed = self._flush_std()
        return (flushed or status), recycle

    # ---- exec mode ---------------------------------------------------------------------

    def _go_exec(self) -> None:
        # the interpreter ignores these; an exec'd program must get the defaults back
        for name in ("SIGPIPE", "SIGXFSZ", "SIGXFZ"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        try:
            os.execv(self.argv[0], self.argv)
        except OSError as exc:
            os.write(2, f"gamecert: cannot run {self.argv[0]}: {exc.strerror}\n".encode())
            os._exit(_EXEC_FAILED)

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
                _redirect(self.io["sets"][io_set])
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
                try:
                    os.write(2, f"gamecert: sandbox setup failed: {exc!r}\n".encode())
                finally:
                    os._exit(_SETUP_FAILED)
            os._exit(_SETUP_FAILED)
        os.close(go_r)
        os.pwrite(self.pid_fd, b"%-12d\n" % pid, _PID_WAITING)
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
            _killpg(pid)
            os.waitpid(pid, 0)
            self._remove_scratch(pid)
            os.pwrite(self.pid_fd, b"%-12d\n" % 0, _PID_WAITING)

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
        os.pwrite(self.pid_fd, b"%-12d\n" % pid, _PID_RUNNING)  # for the client, if we die
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
        _killpg(pid)  # the leader is alive or a zombie: its group id cannot be reused yet
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - started
        self._sweep(pid, killed or peak > 1 or _group_exists(pid))
        self._remove_scratch(pid, test_no)
        os.pwrite(self.pid_fd, b"%-12d\n" % 0, _PID_RUNNING)
        if client_gone:
            return None
        return _report(pid, status, usage.ru_utime, usage.ru_stime, max(usage.ru_maxrss, self.rss_peak_kb),
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
        if suspect or now >= self.next_sweep or _has_strays(self.children_fd, waiting, live):
            if pid != live:
                _killpg(pid)
            if not _reap_leftovers(keep=waiting, also_keep=live) and waiting is not None:
                if self.mode == "python":
                    os.close(self.spare.go_w)
                    os.close(self.spare.done_r)
                    self.spare = None
                else:
                    os.close(self.next_child[1])
                    self._remove_scratch(self.next_child[0])
                    self.next_child = None
            self.next_sweep = now + _SWEEP_INTERVAL_S

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
            os.pwrite(self.pid_fd, b"%-12d\n" % child.pid, _PID_RUNNING)  # until it is retired
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
            line = _read_done(child.done_r)
        if line is not None:
            status, utime, stime, peak_kb, recycle, total = line
            child.base_total = total
            report = _report(child.pid, (status & 0xFF) << 8, utime, stime, max(peak_kb, self.rss_peak_kb),
                             wall, None, peak, False, self.rss_peak_kb)
            if recycle or child.tests >= self.persistent or peak > 1:
                self._retire(child)
                self._remove_scratch(child.pid, child.tests)
                self._remove_scratch(child.pid, child.tests + 1)
            self._sweep(child.pid, False)
            return report
        # killed by the watchdog, died, or the client left: the child is replaced
        _killpg(child.pid)
        status, usage = self._retire(child)
        self._sweep(child.pid, True)
        self._remove_scratch(child.pid, child.tests)
        self._remove_scratch(child.pid, child.tests + 1)
        if outcome == "client":
            return None
        return _report(child.pid, status, max(0.0, usage.ru_utime - child.base_u),
                       max(0.0, usage.ru_stime - child.base_s), max(usage.ru_maxrss, self.rss_peak_kb),
                       wall, killed, peak, False, self.rss_peak_kb)

    def _retire(self, child: _Child):
        """Kill and reap the persistent child; its wait status and resource usage."""
        self.live = None
        _killpg(child.pid)
        self.poller.unregister(child.done_r)
        self.poller.unregister(child.pidfd)
        os.close(child.pidfd)
        os.close(child.done_r)
        os.close(child.go_w)
        _, status, usage = os.wait4(child.pid, 0)
        os.pwrite(self.pid_fd, b"%-12d\n" % 0, _PID_RUNNING)
        return status, usage

    def _ensure_poller(self, proto_in: int) -> None:
        if self.poller is None:
            self.poller = select.poll()
            self.poller.register(proto_in, select.POLLIN | select.POLLHUP)

    def _watch_live(self, child: _Child, started: float, proto_in: int) -> tuple[str | None, int, str]:
        """Wait for the persistent child's report, killing its group on the wall limit, CPU
        time, memory or task count. Returns (why killed, peak tasks, "done" | "died" |
        "killed" | "client")."""
        deadline = started + self.limits["wall_s"]
        next_scan = started + _FIRST_SCAN_S
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
                next_scan = now + max(_SCAN_INTERVAL_S, 5 * (now - scan_start))

    def shutdown(self) -> None:
        """Stop the waiting and persistent children (at the end of the session)."""
        if self.mode == "python":
            if self.live is not None:
                self._retire(self.live)
            if self.spare is not None:
                os.close(self.spare.go_w)  # EOF: the waiting child exits at once
                os.close(self.spare.done_r)
                _killpg(self.spare.pid)
                os.waitpid(self.spare.pid, 0)
                self.spare = None
        else:
            self.discard_prefork()

    def _check(self, pid: int) -> tuple[str | None, int]:
        """Scan the running test's group: too many tasks, too much CPU time (counted from
        ``self.cpu_base``, the CPU a persistent child had used before this test), or too much
        resident memory (the peak sample is kept in ``self.rss_peak_kb``)."""
        tasks, cpu, rss_kb = _scan_group(pid)
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
        next_scan = started + _FIRST_SCAN_S
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
                    next_scan = now + max(_SCAN_INTERVAL_S, 5 * (now - scan_start))
        finally:
            poller.unregister(pidfd)
            os.close(pidfd)

    def _watch_sleep(self, pid: int, started: float, proto_in: int) -> tuple[str | None, int, bool]:
        """The same watch without pidfd (older kernels): poll the child's state with short sleeps."""
        deadline = started + self.limits["wall_s"]
        next_scan = started + _FIRST_SCAN_S
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
                next_scan = time.monotonic() + _SCAN_INTERVAL_S
            readable, _, _ = select.select([proto_in], [], [], nap)
            if readable:
                return "client", peak, True
            nap = min(nap * 2, 0.005)


def _report(pid, status, utime, stime, maxrss_kb, wall, killed, peak, fresh, sampled_kb) -> bytes:
    """The report line a test ends with (see :func:`_parse_report`)."""
    return b"%d %d %.6f %.6f %d %.6f %s %d %d %d\n" % (
        pid, status, utime, stime, maxrss_kb, wall, (killed or "-").encode(), peak, fresh, sampled_kb,
    )  # fmt: skip


def _read_done(fd: int) -> tuple[int, float, float, int, int, float] | None:
    """A persistent child's report line (see :meth:`_Server._python_child`), or None if it
    died before writing all of it."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 256)
        if not chunk:
            return None
        data += chunk
    status, utime, stime, peak_kb, recycle, total = data.split()
    return int(status), float(utime), float(stime), int(peak_kb), int(recycle), float(total)


def _read_line(fd: int, buf: bytearray) -> bytes | None:
    while b"\n" not in buf:
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        buf += chunk
    line, _, rest = bytes(buf).partition(b"\n")
    buf[:] = rest
    return line


def serve(config: dict) -> int:
    """The server loop: one test per request line until the client closes the pipe."""
    proto_in, proto_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    _become_subreaper(_prctl())
    server = _Server(config)
    if server.mode == "python":
        server.install_python_state()  # last: from here on this process imports nothing
    gc.collect()
    gc.freeze()  # fewer copy-on-write faults in the children
    if server.mode == "python":
        server.spare = server.spawn_python()
    else:
        server.prefork(0)
    os.write(proto_out, _READY)
    buf = bytearray()
    while True:
        line = _read_line(proto_in, buf)
        if line is None:
            break
        fresh = line.startswith(b"F")
        report = server.run_one(int(line[1:] if fresh else line), proto_in, fresh)
        if report is None:
            break
        os.write(proto_out, report)
    server.shutdown()
    _reap_leftovers()
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


# --------------------------------------------------------------------------------------------
# client side


def _parse_report(line: bytes) -> dict:
    """The server's report line as a dict.

    >>> r = _parse_report(b"41 256 0.010000 0.002000 9800 0.015000 - 1 0 9500")
    >>> r["pid"], r["status"], r["killed"], r["maxrss_kb"], r["peak_tasks"], r["fresh"], r["sampled_kb"]
    (41, 256, None, 9800, 1, False, 9500)
    """
    pid, status, utime, stime, maxrss, wall, killed, peak, fresh, sampled = line.split()
    return {
        "pid": int(pid),
        "status": int(status),
        "utime": float(utime),
        "stime": float(stime),
        "maxrss_kb": int(maxrss),
        "wall": float(wall),
        "killed": None if killed == b"-" else killed.decode(),
        "peak_tasks": int(peak),
        "fresh": fresh == b"1",
        "sampled_kb": int(sampled),
    }


def _child_pids(pid: int) -> list[int]:
    """The children of a single-threaded process, from ``/proc/PID/task/PID/children``."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
            return [int(word) for word in f.read().split()]
    except (OSError, ValueError):
        return []


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
                 launch_prefix: list[str] | tuple[str, ...] = ()) -> None:
        self.config = config
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
                [*self.launch_prefix, sys.executable, os.path.abspath(__file__), json.dumps(self.config)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                start_new_session=True,  # terminal signals (Ctrl-C) go to the harness only
                close_fds=True,
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


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
