"""The Python mode of the supervisor: a candidate's source compiled once, the interpreter state
``python FILE`` would show it, and the children that run it (persistent or one-shot). A mixin of
the server class in ``server.py``; standard library only, as the server is.
"""

from __future__ import annotations

import _thread
import atexit
import builtins
import gc
import io
import os
import resource
import shutil
import signal
import sys
import types

try:
    import _sv_procs as procs  # run by path (inside the sandbox): this folder is sys.path[0]
except ModuleNotFoundError:  # imported as part of gamecert (documentation, doctests)
    from gamecert.engine.supervisor import _sv_procs as procs


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
            "signals": {n: signal.getsignal(n) for n in procs._RESET_SIGNALS},
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

    def spawn_python(self) -> procs._Child:
        """Fork a Python child that waits for its tests (see :meth:`_python_child`)."""
        go_r, go_w = os.pipe()
        done_r, done_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: never returns into the server loop
            try:
                self._python_child(go_r, done_w)
            except BaseException as exc:  # noqa: BLE001
                procs._setup_failed(exc)
            os._exit(procs._SETUP_FAILED)
        os.close(go_r)
        os.close(done_w)
        os.pwrite(self.pid_fd, b"%-12d\n" % pid, procs._PID_WAITING)
        return procs._Child(pid, go_w, done_r)

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
        start_rss = procs._status_kb(os.pread(status_fd, 8192, 0), b"VmRSS:")
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
                recycle or status != 0 or _thread._count() != 0 or procs._threads_remain(task_links)
                or (kids_fd is not None and os.pread(kids_fd, 64, 0) != b"")
                or peak_kb > start_rss + procs._RECYCLE_RSS_GROWTH_KB or clear_fd is None
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
