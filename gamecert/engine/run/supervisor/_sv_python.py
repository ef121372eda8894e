"""The Python mode of the supervisor: a candidate's source compiled once, the interpreter state
``python FILE`` would show it, and the launch of one test's child. A mixin of the server class in
``server.py``; standard library only, as the server is.

The server is a *zygote*: it reads and compiles the candidate once, builds the state a fresh
``python FILE`` shows its program (``sys.argv``, ``sys.path[0]``, std streams on fds 0-2, an empty
``__main__``), and forks one child per test that never runs any other test. The child raises
:class:`Launch`, which unwinds the server's frames up to ``server.py``'s top level; there the
candidate's code runs with nothing of the harness below it but that one module frame (which
:func:`_hide_frame` takes off the recursion count). Whatever the program does, its end is the
interpreter's own: an uncaught exception is handled by CPython's C top level; ``SystemExit``
gets the status that top level gives it (:meth:`Launch.exit_status`; its message, if any, on
stderr), and then, as a normal end, what CPython's shutdown does that a program can see (threads
joined, ``atexit``, streams flushed unless closed, status 120 if one cannot be), before the
process exits at once (the interpreter's full teardown cost a test ending by ``sys.exit`` about
15 ms more than one ending normally). So the exit status the server reads with ``wait4`` is the
one a judge would see, whatever the program rewrites of the harness's Python code.

Contained, a test's process (zygote child or ``python FILE``) leads a process group of its own
in the sandbox's session, which has no terminal (bubblewrap's ``--new-session``), rather than a
session of its own: with the kernel's scheduler autogroups on, every new session makes and tears
down one (~0.1 ms of CPU a test). The end of a test is ``kill(-1)`` from PID 1 whatever the group,
and ``setsid()`` in the program is refused as it is for a shell's job.

Known differences from ``python FILE``: the hash seed is the server's for every test; modules the
server itself imported, and the standard-library modules the program imports at its top level,
are already imported (a fresh copy in each child: no state carries from one test to the next, but
their import time is not charged); a traceback shows one frame of the server's module above the
program's.
"""

from __future__ import annotations

import _signal
import atexit
import builtins
import io
import os
import resource
import sys
import time
import types

try:
    import ctypes
except ImportError:  # (an interpreter without it: the fork stays os.fork)
    ctypes = None  # type: ignore[assignment]  # (then the code below checks it for None)

#: the signals a fresh interpreter ignores (SIGPIPE, and SIGXFSZ where it exists)
_IGNORED = tuple(
    getattr(_signal, name) for name in ("SIGPIPE", "SIGXFSZ") if hasattr(_signal, name)
)

try:
    import _sv_procs as procs  # run by path (inside the sandbox): this folder is sys.path[0]
except ModuleNotFoundError:  # imported as part of gamecert (documentation, doctests)
    from gamecert.engine.run.supervisor import _sv_procs as procs


_exit = os._exit  # taken before any candidate code runs


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
    def exit_status(stop) -> int:
        """The status CPython's top level gives an uncaught ``SystemExit`` ``stop``, before its
        shutdown: its ``code`` None is 0; an int is itself as the C ``int`` it becomes (a C
        ``long`` first: out of its range, -1); anything else is written to stderr with a newline
        (to descriptor 2 where ``sys.stderr`` is gone or fails), and the status is 1."""
        code = getattr(stop, "code", stop)
        if code is None:
            return 0
        if isinstance(code, int):
            code = code if -(1 << 63) <= code < 1 << 63 else -1
            return (code + (1 << 31)) % (1 << 32) - (1 << 31)
        for text in (code, "\n"):
            try:
                sys.stderr.write(str(text))
            except BaseException:  # noqa: BLE001 - CPython then writes to the C stderr (the message only if there is no sys.stderr)
                if text == "\n" or getattr(sys, "stderr", None) is None:
                    os.write(2, str(text).encode("utf-8", "backslashreplace"))
        return 1

    @staticmethod
    def finish(mark=None, status=0) -> None:
        """After the program's code ended, normally (``status`` 0) or by ``SystemExit`` (its
        status, :meth:`exit_status`): what interpreter shutdown does that a program can see
        (non-daemon threads joined, ``atexit`` functions, stdout and stderr flushed unless
        closed; status 120 if either cannot be flushed, stdout's error reported), then exit at
        once. An uncaught exception never comes here: CPython's own top level handles it."""
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
                if stream is not None and not getattr(stream, "closed", False):
                    stream.flush()
            except BaseException as exc:  # noqa: BLE001 - as the interpreter: status 120
                status = 120
                if name == "stdout":  # reported (stderr's own failure is not)
                    try:
                        sys.stderr.write(
                            f"Exception ignored in: {stream!r}\n{type(exc).__name__}: {exc}\n"
                        )
                        sys.stderr.flush()
                    except BaseException:  # noqa: BLE001
                        pass
        if mark is not None:
            mark(7)
        _exit(status)


class PythonMode:
    """The server's Python-mode methods (see the module's docstring)."""

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
        stdlib: frozenset[str] = getattr(sys, "stdlib_module_names", frozenset())
        for node in tree.body:
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.append(node.module)
        done = []
        for name in dict.fromkeys(names):
            if name.partition(".")[0] in stdlib and name.partition(".")[0] not in (
                "__main__",
                "antigravity",
                "this",
            ):
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
        # the stream outlives this function: it becomes sys.stdin/stdout/stderr
        buf = open(fd, mode + "b", 0 if unbuffered else -1, closefd=False)  # noqa: SIM115
        (buf if unbuffered else buf.raw).name = ("<stdin>", "<stdout>", "<stderr>")[fd]  # type: ignore[misc, attr-defined]  # typeshed: read-only, and the FileIO under a buffer unseen
        stream = io.TextIOWrapper(
            buf,
            encoding=getattr(like, "encoding", "utf-8"),
            errors=getattr(like, "errors", "strict"),
            newline="\n",
            line_buffering=getattr(like, "line_buffering", False),
            write_through=getattr(like, "write_through", False),
        )
        stream.mode = mode  # type: ignore[misc]  # (typeshed: read-only; the interpreter's own streams have it set)
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
        sys.stdin = sys.__stdin__ = self._std_stream(0)  # type: ignore[misc]  # a fresh interpreter's own streams
        sys.stdout = sys.__stdout__ = self._std_stream(1)  # type: ignore[misc]  # a fresh interpreter's own streams
        sys.stderr = sys.__stderr__ = self._std_stream(2)  # type: ignore[misc]  # a fresh interpreter's own streams
        os.dup2(log, 2)
        os.close(log)
        _find_depth_fields()
        sys.argv = [self.path]
        sys.orig_argv = [sys.executable, self.path]
        sys.path[:] = [os.path.dirname(os.path.realpath(self.path)), *self.base_sys_path]
        main = types.ModuleType("__main__")
        main.__file__ = self.path
        main.__cached__ = None  # type: ignore[attr-defined]  # (a __main__ module's attributes)
        main.__builtins__ = builtins  # type: ignore[attr-defined]  # (the same)
        main.__loader__ = self._loader("__main__", self.path)
        main.__spec__ = None
        self.main_module = main

    def _child_mark(self, slot: int) -> None:
        """Bench only (``server.py``'s profile): a stamp of a test's child, in the shared page."""
        marks = self.child_marks  # type: ignore[attr-defined]  # (the server's, _Server's)
        if marks is not None:
            marks[8 * slot : 8 * slot + 8] = time.perf_counter_ns().to_bytes(8, "little")
            marks[64 + 8 * slot : 72 + 8 * slot] = time.process_time_ns().to_bytes(8, "little")
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            marks[128 + 8 * slot : 136 + 8 * slot] = faults.to_bytes(8, "little")

    def launch_set_up(self) -> None:
        """In a test's process :class:`ZygoteFork` made: :meth:`launch_python`, or the exit
        status of a setup that failed; never returns into the server's code."""
        try:
            self.launch_python(set_up_in_c=True)
        except Launch:
            raise
        except BaseException as exc:  # noqa: BLE001
            procs._setup_failed(exc)
        _exit(procs._SETUP_FAILED)

    def launch_python(self, set_up_in_c: bool = False) -> None:
        """In a test's child, after its descriptors, limits and folder are set: become a
        program's fresh process and leave the server's frames (raises :class:`Launch`);
        ``set_up_in_c``: made by :class:`ZygoteFork`, dumpable with an empty mask already."""
        if not set_up_in_c:
            procs._set_dumpable(self.prctl, True)  # type: ignore[attr-defined]  # (prctl: the server's) the program's own process, as after an exec
            # the C module's calls: signal.py's wrappers turn every number into an enum member,
            # which writes to objects all over the image (copy-on-write faults, ~0.1 ms a test)
            _signal.pthread_sigmask(_signal.SIG_SETMASK, ())
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)  # what the interpreter installs
        for number in _IGNORED:
            _signal.signal(number, _signal.SIG_IGN)
        sys.modules["__main__"] = self.main_module
        raise Launch(self.code, self.compile_error, self.main_module)


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


class _Zygote(ctypes.Structure if ctypes else object):  # type: ignore[misc]  # a base chosen at run time
    """``struct tl_zygote`` in testloop.c, field for field."""

    _fields_ = (
        [
            ("before", ctypes.c_void_p),
            ("after_parent", ctypes.c_void_p),
            ("after_child", ctypes.c_void_p),
            ("procs_fd", ctypes.c_int),
            ("own_session", ctypes.c_int),
            ("death_signal", ctypes.c_int),
            ("failed", ctypes.c_int),
            ("nlimits", ctypes.c_int),
            ("limit_which", ctypes.c_int * 8),
            ("limit_soft", ctypes.c_longlong * 8),
            ("limit_hard", ctypes.c_longlong * 8),
            ("box", ctypes.c_char_p),
            ("marks", ctypes.c_void_p),
            ("park", ctypes.c_int),
            ("parked", ctypes.c_int),
            ("park_fd", ctypes.c_int),
        ]
        if ctypes
        else []
    )


class ZygoteFork:
    """What ``tl_zygote_fork`` in testloop.c needs to fork a test's process and set it up, called
    by the per-test loop there (``_sv_fast``; the library the native path's loop comes from,
    loaded as ``ctypes.PyDLL``: called with the interpreter's lock held, as the interpreter's
    fork calls need). The child is what :meth:`_child` in
    ``server.py`` makes (the same steps in the same order, after the same after-fork calls of
    the interpreter: ``random`` reseeded, ``threading`` reset), with none of its Python calls,
    each of which touched objects shared with the server (a copy-on-write fault per page)."""

    def __init__(self, lib, server) -> None:
        self.lib = lib
        api = ctypes.pythonapi
        job = self.job = _Zygote()
        job.before, job.after_parent, job.after_child = (
            ctypes.cast(getattr(api, name), ctypes.c_void_p).value
            for name in ("PyOS_BeforeFork", "PyOS_AfterFork_Parent", "PyOS_AfterFork_Child")
        )
        job.procs_fd = server.memory.procs if server.memory is not None else -1
        job.own_session = not server.contained  # (see the module's account of the group)
        job.death_signal = 0 if server.contained else int(_signal.SIGKILL)
        job.failed = procs._SETUP_FAILED
        job.nlimits = len(server.limit_plan)
        for i, (which, (soft, hard)) in enumerate(server.limit_plan):
            job.limit_which[i], job.limit_soft[i], job.limit_hard[i] = which, soft, hard
        self._box = os.fsencode(server.box)
        job.box = self._box
        if server.child_marks is not None:
            self._marks = (ctypes.c_longlong * 24).from_buffer(server.child_marks)
            job.marks = ctypes.addressof(self._marks)
        # the serve loop forks each next test's process while a test runs (testloop.c, tl_park):
        # contained only (the sandbox's pids cgroup has room for it), not in the bench's profile
        job.park, job.parked, job.park_fd = (
            int(server.contained and server.child_marks is None),
            0,
            -1,
        )


def zygote_fork(server, config: dict) -> ZygoteFork | None:
    """The fork in C for a Python-mode server (``server.py``'s ``_Server``), or None, and then its
    tests are forked by ``os.fork`` and set up in Python: with the library (config ``testloop``,
    contained only), on CPython, with at most 8 limits to set."""
    path = config.get("testloop")
    if (
        server.mode != "python"
        or not path
        or ctypes is None
        or sys.implementation.name != "cpython"
    ):
        return None
    if len(server.limit_plan) > 8:
        return None
    try:
        return ZygoteFork(ctypes.PyDLL(os.fspath(path), use_errno=True), server)
    except (OSError, AttributeError):
        return None
