"""The Python mode of the supervisor: a candidate's source compiled once, the interpreter state
``python FILE`` would show it, and the launch of one test's child. A mixin of the server class in
``server.py``; standard library only, as the server is.

The server is a *zygote*: it reads and compiles the candidate once, builds the state a fresh
``python FILE`` shows its program (``sys.argv``, ``sys.path[0]``, std streams on fds 0-2, an empty
``__main__``), and forks one child per test that never runs any other test. The child raises
:class:`Launch`, which unwinds the server's frames up to ``server.py``'s top level; there the
candidate's code runs with nothing of the harness below it but that one module frame (which
:func:`_hide_frame` takes off the recursion count). Whatever the program does, its end is the
interpreter's own: an uncaught exception or ``SystemExit`` is handled by CPython's C top level,
and a normal end is CPython's shutdown (threads joined, ``atexit``, streams flushed, status 120 if
stdout cannot be flushed). So the exit status the server reads with ``wait4`` is the one a judge
would see, whatever the program rewrites of the harness's Python code.

Known differences from ``python FILE``: the hash seed is the server's for every test; modules the
server itself imported, and the standard-library modules the program imports at its top level,
are already imported (a fresh copy in each child: no state carries from one test to the next, but
their import time is not charged); a traceback shows one frame of the server's module above the
program's.
"""

from __future__ import annotations

import atexit
import builtins
import io
import os
import socket
import sys
import types

import _signal

#: the signals a fresh interpreter ignores (SIGPIPE, and SIGXFSZ where it exists)
_IGNORED = tuple(getattr(_signal, name) for name in ("SIGPIPE", "SIGXFSZ") if hasattr(_signal, name))

try:
    import _sv_procs as procs  # run by path (inside the sandbox): this folder is sys.path[0]
except ModuleNotFoundError:  # imported as part of gamecert (documentation, doctests)
    from gamecert.engine.run.supervisor import _sv_procs as procs


_exit = os._exit  # taken before any candidate code runs

#: per machine: the system call numbers of clone, set_tid_address, set_robust_list, get_robust_list
_SYSCALLS = {"x86_64": (56, 218, 273, 274), "aarch64": (220, 96, 99, 100)}
_CLONE_PARENT = 0x00008000
#: seconds the server waits for the zygote's answer to a request before it gives up on it
ZYGOTE_REPLY_S = 5.0


class Launch(BaseException):  # noqa: N818 - not an error: the way a test's child leaves the server's frames
    """Raised in a test's child to run the candidate at the top level of ``server.py``."""

    def __init__(self, code, compile_error, main) -> None:
        super().__init__()
        self.code, self.compile_error, self.main = code, compile_error, main

    def take(self):
        """The code and the globals to run it in (raises the program's own syntax error)."""
        self.__traceback__ = None  # the server's frames are gone
        _align_depth()
        if self.compile_error is not None:
            error = self.compile_error
            self.compile_error = None
            raise error
        return self.code, self.main.__dict__

    @staticmethod
    def finish(mark=None) -> None:
        """After the program's code returned normally: what interpreter shutdown does that a
        program can see (non-daemon threads joined, ``atexit`` functions, stdout and stderr
        flushed; status 120 if stdout cannot be flushed), then exit at once. An exception or
        ``SystemExit`` never comes here: CPython's own top level handles those."""
        status = 0
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
        if mark is not None:  # bench only (server.py's profile): after the exit functions
            mark(6)
        for name in ("stdout", "stderr"):
            stream = getattr(sys, name, None)
            try:
                if stream is not None:
                    stream.flush()
            except BaseException as exc:  # noqa: BLE001 - as the interpreter: report, status 120
                if name == "stdout":
                    status = 120
                    try:
                        sys.stderr.write(f"Exception ignored in: {stream!r}\n{type(exc).__name__}: {exc}\n")
                        sys.stderr.flush()
                    except BaseException:  # noqa: BLE001
                        pass
        if mark is not None:
            mark(7)
        _exit(status)


class PythonMode:
    """The server's Python-mode methods (see the module's docstring)."""

    #: the zygote process (pid, control socket, requests socket) and the fork it uses, once
    #: ready (None: the server forks every test itself)
    zygote: tuple[int, socket.socket, socket.socket] | None = None
    _clone: _Clone | None = None
    #: the next test's process, made ahead by the zygote: None (none asked for), 0 (asked for,
    #: its pid not read yet) or its pid
    prepared: int | None = None

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
        self._preimport(self.code)
        # the stream settings a redirected `python FILE` would get in this environment
        self.stream_like = {0: sys.__stdin__, 1: sys.__stdout__, 2: sys.__stderr__}

    @staticmethod
    def _preimport(code) -> list[str]:
        """Import, once in the zygote, the standard-library modules the program imports at its
        top level (``import sys``, ``from collections import Counter``): every test's child then
        finds them imported, as a fresh copy, instead of importing them again (their module-level
        state is the pristine one in every test; only their import time is not charged)."""
        import ast

        names: list[str] = []
        if code is None:
            return names
        try:
            with open(code.co_filename, "rb") as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError, ValueError):
            return names
        stdlib = getattr(sys, "stdlib_module_names", frozenset())
        for node in tree.body:
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.append(node.module)
        done = []
        for name in dict.fromkeys(names):
            if name.partition(".")[0] in stdlib and name.partition(".")[0] not in ("__main__", "antigravity", "this"):
                try:
                    __import__(name)
                    done.append(name)
                except BaseException:  # noqa: BLE001 - the program's own import will say what is wrong
                    pass
        return done

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
        descriptors and has imported all it needs), so that each child inherits them ready-made.
        The streams stay untouched until a child has put the test's descriptors on fds 0-2.
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
        _find_depth_fields()
        sys.argv = [self.path]
        sys.orig_argv = [sys.executable, self.path]
        sys.path[:] = [os.path.dirname(os.path.realpath(self.path)), *self.base_sys_path]
        main = types.ModuleType("__main__")
        main.__file__ = self.path
        main.__cached__ = None
        main.__builtins__ = builtins
        main.__loader__ = self._loader("__main__", self.path)
        main.__spec__ = None
        self.main_module = main
        self.zygote: tuple[int, socket.socket] | None = None
        try:
            self._clone: _Clone | None = _Clone()
        except (OSError, ImportError, AttributeError, ValueError) as exc:
            self._clone = None
            os.write(2, f"no zygote of its own: every test forked by the server ({exc})\n".encode())

    def launch_python(self) -> None:
        """In a test's child, after its descriptors, limits and folder are set: become a
        program's fresh process and leave the server's frames (raises :class:`Launch`)."""
        procs._set_dumpable(self.prctl, True)  # the program's own process, as after an exec
        # the C module's calls: signal.py's wrappers turn every number into an enum member,
        # which writes to objects all over the image (copy-on-write faults, ~0.1 ms a test)
        _signal.pthread_sigmask(_signal.SIG_SETMASK, ())
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)  # what the interpreter installs
        for number in _IGNORED:
            _signal.signal(number, _signal.SIG_IGN)
        sys.modules["__main__"] = self.main_module
        raise Launch(self.code, self.compile_error, self.main_module)

    # ---- the zygote: a process of its own ------------------------------------------------

    def start_zygote(self) -> None:
        """Fork the zygote: a copy of this server, ready, that makes each test's process and
        otherwise waits, so that the fork no longer lies on the test's path (see
        :meth:`zygote_prepare`). Called when the server is ready and between tests (never with
        a test running); in a test's process it raises :class:`Launch`."""
        if self._clone is None or self.zygote is not None or self.config.get("zygote") is False:
            return
        control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        requests, taker = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            try:
                control.close()
                requests.close()
                self.sock.close()  # the harness's socket: only the server speaks on it
                if self.prctl is not None:  # dies with the server (contained: the whole namespace does)
                    self.prctl(procs._PR_SET_PDEATHSIG, int(_signal.SIGKILL), 0, 0, 0)
                self._zygote_loop(theirs, taker)
            except Launch:
                raise
            except BaseException as exc:  # noqa: BLE001
                os.write(2, f"the zygote failed: {exc!r}\n".encode())
            _exit(0)
        theirs.close()
        taker.close()
        control.settimeout(ZYGOTE_REPLY_S)
        self.zygote = (pid, control, requests)
        self.prepared = None

    def _zygote_loop(self, control: socket.socket, taker: socket.socket) -> None:
        """The zygote's loop on its control socket: ``m`` makes the next test's process, which
        waits on ``taker`` for its test's descriptors, answered ``K<pid>`` (``E<errno>`` if the
        kernel refused); ``F<count>`` measures the floor. End of file ends it. Returns only in a
        test's process, by raising :class:`Launch`."""
        while True:
            message = control.recv(32)
            if not message:
                _exit(0)
            if message[:1] == b"F":
                control.send(b"%.9f %.1f %.9f" % procs._fork_floor(int(message[1:] or b"100")))
                continue
            try:
                pid = self._clone.fork()
            except OSError as exc:
                pid = -(exc.errno or 1)
            if pid == 0:
                control.close()
                self._take(taker)  # raises Launch
            control.send(b"K%d" % pid if pid > 0 else b"E%d" % -pid)

    def _take(self, taker: socket.socket) -> None:
        """In a test's process made ahead: wait for its test (``f`` with its stdin, stdout and
        stderr), then become it (raises :class:`Launch`); anything else ends it."""
        message, fds, _, _ = socket.recv_fds(taker, 32, 3)
        if message == b"f" and len(fds) == 3:
            self._child(fds[:2], fds[2], False)
        _exit(procs._SETUP_FAILED)

    def zygote_prepare(self, restart: bool = True) -> None:
        """After a test, every process of it killed and reaped: have the zygote make the next
        test's process now, while this server answers and cleans up, so that the fork and the
        new process's own start are done when the next request comes. A zygote that a test
        stopped or killed (it is a process of the sandbox, as the test's are) is ended and a
        new one forked from this server first. No test runs while the process made waits: no
        program can reach it, and none of its pages are charged to a test before it takes one."""
        if self.zygote is not None:
            try:
                pid, status = os.waitpid(self.zygote[0], os.WNOHANG | os.WUNTRACED)
            except ChildProcessError:
                pid, status = self.zygote[0], 0
            if pid:
                self.stop_zygote(reaped=not os.WIFSTOPPED(status))
        if self.zygote is None and restart:  # (only where a test's process may leave by Launch)
            self.start_zygote()
        if self.zygote is not None and self.prepared is None:
            try:
                self.zygote[1].send(b"m")
                self.prepared = 0  # asked for; its pid is read when it is needed
            except OSError:
                self.stop_zygote()

    def _prepared_pid(self) -> int | None:
        if self.prepared == 0:
            reply = self.zygote[1].recv(32)
            if reply[:1] == b"E":
                self.prepared = None
                return None
            if reply[:1] != b"K" or not reply[1:].isdigit():
                raise ZygoteGone(f"the zygote answered {reply!r}")
            self.prepared = int(reply[1:])
        return self.prepared

    def zygote_spawn(self, fds: list[int], err_w: int, plain: bool) -> int | None:
        """The test's process made ahead by the zygote (a child of this server), given its
        descriptors; None when there is none (the server forks the test itself). Before a plain
        run, a process made ahead is ended: nothing but the test may live while it runs."""
        if self.zygote is None:
            return None
        try:
            if self.prepared is None:
                self.zygote_prepare(restart=False)
            if self.zygote is None:
                return None
            pid = self._prepared_pid()
            if pid is None:
                return None
            self.prepared = None
            if plain:
                os.kill(pid, _signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            socket.send_fds(self.zygote[2], [b"f"], [fds[0], fds[1], err_w])
            return pid
        except (OSError, ZygoteGone):
            self.stop_zygote()
            return None

    def zygote_pid(self) -> int | None:
        return self.zygote[0] if self.zygote is not None else None

    def stop_zygote(self, reaped: bool = False) -> None:
        """End the zygote (and a process it made that waits) and reap them."""
        if self.zygote is None:
            return
        pid, control, requests = self.zygote
        waiting = self.prepared if self.prepared else None
        self.zygote, self.prepared = None, None
        control.close()
        requests.close()  # a process made ahead reads its end of file and exits
        for one, done in ((pid, reaped), (waiting, False)):
            if one is not None and not done:
                try:
                    os.kill(one, _signal.SIGKILL)
                    os.waitpid(one, 0)
                except (ProcessLookupError, ChildProcessError):
                    pass

    def fork_floor(self, count: int) -> bytes:
        """The floor's line: fork + wait of the zygote's own image (see ``procs._fork_floor``),
        measured in the zygote when there is one."""
        if self.zygote is not None:
            control = self.zygote[1]
            try:
                self._prepared_pid()  # its answer first
                control.send(b"F%d" % count)
                control.settimeout(60.0)
                return control.recv(64) + b"\n"
            except (OSError, ZygoteGone):
                self.stop_zygote()
            finally:
                if self.zygote is not None:
                    control.settimeout(ZYGOTE_REPLY_S)
        return b"%.9f %.1f %.9f\n" % procs._fork_floor(count)


class _Clone:
    """A fork whose child is a child of this process's parent (``CLONE_PARENT``), made by the
    zygote so that the server, its parent, waits for each test's process and reads its status and
    resource usage from the kernel, as for a child it forked itself.

    The C library's ``fork`` cannot ask for that, so the zygote makes the system call and does
    in the child what the library and ``os.fork`` do there: the library's copy of the thread id
    (``raise``, ``pthread_kill`` and ``abort`` read it: left as the zygote's, a program's signal
    to itself would reach the zygote), its robust futex list (the kernel gives a new process
    none), and the interpreter's own before- and after-fork work (locks, the at-fork functions:
    ``random`` reseeds in every child, as after ``os.fork``). The zygote is single-threaded and
    holds no lock of the library when it clones, so nothing else of the library needs resetting.
    Prepared once, in the server: raises OSError where it does not apply (another machine, a
    C library whose thread descriptor this cannot read); the server then forks every test itself.
    """

    def __init__(self) -> None:
        import ctypes

        numbers = _SYSCALLS.get(os.uname().machine)
        if numbers is None or sys.implementation.name != "cpython":
            raise OSError(f"no raw clone here ({os.uname().machine}, {sys.implementation.name})")
        clone, self._set_tid, self._set_robust, get_robust = (ctypes.c_long(n) for n in numbers)
        libc = ctypes.PyDLL(None, use_errno=True)  # PyDLL: the GIL stays held, as in os.fork
        self._syscall = libc.syscall
        self._syscall.restype = ctypes.c_long
        self._errno = ctypes.get_errno
        api = ctypes.pythonapi
        self._before, self._parent, self._child = api.PyOS_BeforeFork, api.PyOS_AfterFork_Parent, api.PyOS_AfterFork_Child
        for call in (self._before, self._parent, self._child):
            call.restype, call.argtypes = None, ()
        # every argument a full word (a bare int would be passed as a C int)
        self._clone_args = (clone, ctypes.c_long(_CLONE_PARENT | int(_signal.SIGCHLD)), *(ctypes.c_long(0),) * 4)
        self_ = ctypes.CDLL(None).pthread_self
        self_.restype = ctypes.c_void_p
        at = self_() + _tid_offset(self_())
        self._tid, self._tid_at = ctypes.c_int.from_address(at), ctypes.c_void_p(at)
        head, size = ctypes.c_void_p(), ctypes.c_size_t()
        self._robust = None
        if self._syscall(get_robust, ctypes.c_long(0), ctypes.byref(head), ctypes.byref(size)) == 0 and head.value:
            self._robust = (ctypes.c_void_p(head.value), ctypes.c_size_t(size.value))

    def fork(self) -> int:
        """0 in the child, its pid in the parent (raises OSError if the kernel refused)."""
        self._before()
        pid = self._syscall(*self._clone_args)
        if pid == 0:
            self._tid.value = self._syscall(self._set_tid, self._tid_at)  # what the library's fork does
            if self._robust is not None:
                self._syscall(self._set_robust, *self._robust)
            self._child()
            return 0
        error = self._errno()
        self._parent()
        if pid < 0:
            raise OSError(error, os.strerror(error))
        return pid


def _tid_offset(base: int) -> int:
    """Where in the thread descriptor at ``base`` the C library keeps this thread's id: of the
    words that hold it (this process is single-threaded: its thread id is its pid), the one the
    library's own ``fork`` rewrote in a probe child."""
    import ctypes

    me = os.getpid()
    slots = [at for at in range(0, 1024, 4) if ctypes.c_int.from_address(base + at).value == me][:16]
    if not slots:
        raise OSError("the thread id is not in the thread descriptor")
    probe = os.fork()
    if probe == 0:
        mine = os.getpid()
        for index, at in enumerate(slots):
            if ctypes.c_int.from_address(base + at).value == mine:
                _exit(index)
        _exit(255)
    _, status = os.waitpid(probe, 0)
    index = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 255
    if index >= len(slots):
        raise OSError("the C library's fork did not rewrite a thread id found")
    return slots[index]


class ZygoteGone(RuntimeError):
    """The zygote died, stopped, or did not answer: the server forks the test itself."""


#: the main thread's two recursion counters (see :func:`_align_depth`), found once in the server:
#: a test's child is a fork of it, the same thread state at the same address (finding them anew
#: in every child cost ~0.2 ms of ctypes work and copy-on-write faults per test)
_DEPTH_FIELDS = None


def _find_depth_fields() -> None:
    global _DEPTH_FIELDS
    if sys.implementation.name != "cpython" or sys.version_info[:2] != (3, 11):
        return
    try:
        import ctypes

        get = ctypes.pythonapi.PyThreadState_Get
        get.restype = ctypes.c_void_p
        _DEPTH_FIELDS = (ctypes.c_int * 2).from_address(get() + 32)
    except (ImportError, AttributeError, OSError, ValueError):
        _DEPTH_FIELDS = None


def _align_depth() -> bool:
    """Make the recursion count at ``server.py``'s top level what it is before ``python FILE``
    runs a program, so that the program recurses exactly as deep as there.

    CPython 3.11 counts frames down from ``recursion_limit`` in ``recursion_remaining`` (its
    thread state: three pointers and two ints, then these two ints). Set from within
    :meth:`Launch.take`, called at the top level just before the ``exec``, to ``limit - 1``: then
    the deepest recursion of a program is the one ``python FILE`` allows, to the frame
    (tests/test_containment.py compares both). Checked against ``sys.getrecursionlimit()`` before
    anything is written; False where it does not apply (another Python: a frame or two of
    difference, which a fault's plain-run confirmation settles).
    """
    fields = _DEPTH_FIELDS
    if fields is None:
        return False
    limit = sys.getrecursionlimit()
    if fields[1] != limit or not 0 < fields[0] < limit:
        return False
    fields[0] = limit - 1
    return True
