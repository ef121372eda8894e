"""The supervisor's side of the native fork server (``shim.c`` in this folder). Standard
library only: it runs inside the sandbox, where gamecert itself is not importable.

A dynamically linked program is started once with the shim preloaded and a unix socket on
:data:`CONTROL_FD`; the shim stops it before the program's own constructors and ``main`` and
then, per test, clones a fresh copy of that pristine image. A program whose own code could run
before that (see :func:`early_code`) is not started this way. The server's CPU time is read
with :func:`cpu_ns` and charged to the tests by the supervisor. The copy is a child of the process
that called :func:`start` (``CLONE_PARENT``), which waits for it with ``wait4`` as for any child
and gets its exit status and resource usage from the kernel.

Protocol on the ``SOCK_SEQPACKET`` socket (one message each): the shim says ``GCFS2`` when it is
ready, or ``N<reason>`` and exits if it cannot serve. A request is the byte ``f`` with three
descriptors (the test's stdin, stdout, stderr) as ``SCM_RIGHTS``, or ``c`` with a fourth (a
folder the test starts in); the answer is ``P<pid>`` or ``E<errno>``. End of file on the socket
ends the server. The server checks before every clone that its resource limits, scheduling
priority and policy are those it had at its hello (a test runs as the same user and can lower
them with ``prlimit``, ``setpriority`` and ``sched_setscheduler``; every later clone would inherit
them): if not, it exits with
:data:`TAMPERED_EXIT` without answering, and the caller starts a new server.

>>> is_dynamic_elf("/nonexistent/program")
False
"""

from __future__ import annotations

import os
import select
import signal
import socket
import struct
import time

CONTROL_FD = 1021  # also GC_CONTROL_FD in shim.c
HELLO = b"GCFS2"  # also GC_HELLO in shim.c
#: the server's exit status when its resource limits, priority or scheduling policy changed since
#: its hello (a test of the same user lowered them with prlimit, setpriority or
#: sched_setscheduler: every later clone would inherit them); it exits at the next request, before any clone, without answering (also in shim.c)
TAMPERED_EXIT = 3
_EXEC_FAILED = 127
_PT_INTERP = 3


class ServerGone(RuntimeError):
    """The fork server died or stopped answering; the caller starts a new one."""


def is_dynamic_elf(path: str) -> bool:
    """Whether ``path`` is an ELF executable with a program interpreter (``PT_INTERP``): one the
    dynamic loader starts, so that a preloaded library runs in it. False for statically linked
    (static-pie included) programs, scripts, unreadable or malformed files.
    """
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if (
                len(head) < 52
                or head[:4] != b"\x7fELF"
                or head[4] not in (1, 2)
                or head[5] not in (1, 2)
            ):
                return False
            end = "<" if head[5] == 1 else ">"
            if head[4] == 2:  # 64-bit
                if len(head) < 64:
                    return False
                (phoff,) = struct.unpack_from(end + "Q", head, 32)
                phentsize, phnum = struct.unpack_from(end + "HH", head, 54)
            else:
                (phoff,) = struct.unpack_from(end + "I", head, 28)
                phentsize, phnum = struct.unpack_from(end + "HH", head, 42)
            if phentsize < 4 or phnum == 0 or phnum == 0xFFFF:
                return False
            f.seek(phoff)
            table = f.read(phentsize * phnum)
    except (OSError, struct.error):
        return False
    if len(table) < phentsize * phnum:
        return False
    return any(
        struct.unpack_from(end + "I", table, i * phentsize)[0] == _PT_INTERP for i in range(phnum)
    )


#: ELF dynamic tags under which the loader runs an executable's own code before any preloaded
#: library's constructor: ``DT_PREINIT_ARRAY`` (and its size), audit libraries it names
_EARLY_TAGS = {
    32: "a pre-initialisation array (DT_PREINIT_ARRAY)",
    33: "a pre-initialisation array (DT_PREINIT_ARRAY)",
    0x6FFFFEFC: "an audit library (DT_AUDIT)",
    0x6FFFFEFB: "an audit library (DT_DEPAUDIT)",
}
#: e_machine -> the relocation type whose resolver (an IFUNC) runs while the program is loaded
_IRELATIVE = {62: 37, 3: 42, 183: 1032, 40: 160, 243: 58, 21: 248, 22: 61}


def early_code(path: str) -> str:
    """Why the program at ``path`` could run code of its own in the fork server (before the
    shim's constructor stops it), or "" if it cannot: a pre-initialisation array, an audit
    library, or an IFUNC resolver (``IRELATIVE`` relocation) in the executable itself. Such a
    program, or one this cannot read (an unknown machine, a malformed file), is exec'd per test.

    >>> early_code("/nonexistent/program")
    'cannot read its ELF headers'
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
        wide, end = data[4] == 2, "<" if data[5] == 1 else ">"
        (machine,) = struct.unpack_from(end + "H", data, 18)
        if wide:
            (phoff,) = struct.unpack_from(end + "Q", data, 32)
            phentsize, phnum = struct.unpack_from(end + "HH", data, 54)
            ph, dyn, rel = end + "IIQQQQQQ", end + "qQ", end + "QQ"
        else:
            (phoff,) = struct.unpack_from(end + "I", data, 28)
            phentsize, phnum = struct.unpack_from(end + "HH", data, 42)
            ph, dyn, rel = end + "IIIIIIII", end + "iI", end + "II"
        loads, dynamic = [], None
        for i in range(phnum):
            fields = struct.unpack_from(ph, data, phoff + i * phentsize)
            if wide:
                kind, offset, vaddr, filesz = fields[0], fields[2], fields[3], fields[5]
            else:
                kind, offset, vaddr, filesz = fields[0], fields[1], fields[2], fields[4]
            if kind == 1:
                loads.append((vaddr, offset, filesz))
            elif kind == 2:
                dynamic = (offset, filesz)
        if dynamic is None:
            return "no dynamic section"
        tags: dict[int, int] = {}
        step = struct.calcsize(dyn)
        for at in range(dynamic[0], dynamic[0] + dynamic[1] - step + 1, step):
            tag, value = struct.unpack_from(dyn, data, at)
            if tag == 0:
                break
            if tag in _EARLY_TAGS and (tag != 33 or value):
                return f"the program has {_EARLY_TAGS[tag]}, code that runs before the fork server stops it"
            tags.setdefault(tag, value)
        irelative = _IRELATIVE.get(machine)
        if irelative is None:
            return f"an ELF machine type ({machine}) the fork server does not know"

        def file_offset(address: int) -> int:
            for vaddr, offset, filesz in loads:
                if vaddr <= address < vaddr + filesz:
                    return address - vaddr + offset
            raise ValueError("a relocation table outside the file")

        rela = tags.get(20, 7) == 7  # DT_PLTREL: RELA (7) or REL (17)
        tables = [
            (tags.get(7), tags.get(8), True),
            (tags.get(17), tags.get(18), False),
            (tags.get(23), tags.get(2), rela),
        ]  # DT_RELA/RELASZ, DT_REL/RELSZ, DT_JMPREL/PLTRELSZ
        for address, size, with_addend in tables:
            if not address or not size:
                continue
            start = file_offset(address)
            entry = struct.calcsize(rel) + (struct.calcsize(rel) // 2 if with_addend else 0)
            for at in range(start, start + size - entry + 1, entry):
                info = struct.unpack_from(rel, data, at)[1]
                if (info & 0xFFFFFFFF if wide else info & 0xFF) == irelative:
                    return "the program has an IFUNC resolver (an IRELATIVE relocation), code that runs while it is loaded"
    except (OSError, IndexError, struct.error, ValueError):
        return "cannot read its ELF headers"
    return ""


def cpu_ns(pid: int) -> int | None:
    """CPU time of process ``pid`` (all its threads, not its children) in nanoseconds, or None
    if it is gone. From ``/proc/PID/schedstat`` where the kernel has it, else clock ticks."""
    try:
        with open(f"/proc/{pid}/schedstat", "rb") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1_000_000_000 // os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class NativeServer:
    """A running fork server: :meth:`spawn` a test's process, :meth:`alive`, :meth:`close`.

    ``pid`` is the server's own pid (a child of the caller of :func:`start`: wait for test
    children by their pid, never with ``wait(-1)``, or the server is reaped with them).
    """

    def __init__(self, pid: int, sock: socket.socket) -> None:
        self.pid = pid
        self._sock = sock
        self.status: int | None = None  # its wait status once reaped (-1: reaped by someone else)
        self._schedstat: int | None = None  # /proc/PID/schedstat, kept open (a pread per test)

    def cpu_ns(self) -> int | None:
        """The server's CPU time in nanoseconds (see :func:`cpu_ns`), or None if it is gone."""
        if self.status is None:
            try:
                if self._schedstat is None:
                    self._schedstat = os.open(
                        f"/proc/{self.pid}/schedstat", os.O_RDONLY | os.O_CLOEXEC
                    )
                return int(os.pread(self._schedstat, 128, 0).split()[0])
            except (OSError, ValueError, IndexError):
                pass
        return cpu_ns(self.pid)

    def schedstat_fd(self) -> int | None:
        """A descriptor on the server's ``/proc/PID/schedstat`` (kept open), or None."""
        if self.status is None and self._schedstat is None:
            try:
                self._schedstat = os.open(f"/proc/{self.pid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                return None
        return self._schedstat

    def _close_stat(self) -> None:
        if self._schedstat is not None:
            os.close(self._schedstat)
            self._schedstat = None

    def spawn(
        self,
        stdin_fd: int,
        stdout_fd: int,
        stderr_fd: int,
        cwd_fd: int | None = None,
        timeout_s: float = 5.0,
        cpu_soft: int | None = None,
    ) -> int:
        """Start a test: a fresh copy of the program with these descriptors on 0, 1 and 2 (and
        ``cwd_fd``, a folder, as its working directory; ``cpu_soft``, with a folder only: its
        CPU time limit in seconds, soft, the hard one more, which it sets itself before the
        program runs). Returns its pid; the process is a child
        of the caller, which must wait for it. Raises :class:`ServerGone` if the server died or
        did not answer within ``timeout_s`` (it is killed then), and :class:`OSError` if the
        kernel refused the clone (``EAGAIN``: the process limit) or a descriptor is bad
        (``EBADF``); the server goes on after an OSError."""
        if self.status is not None:
            raise ServerGone(f"the native fork server {self.pid} has exited")
        fds = [stdin_fd, stdout_fd, stderr_fd] + ([] if cwd_fd is None else [cwd_fd])
        try:
            request = b"f" if cwd_fd is None else b"c%d" % cpu_soft if cpu_soft else b"c"
            socket.send_fds(self._sock, [request], fds)
            reply = self._receive(timeout_s)
        except (BrokenPipeError, ConnectionError) as exc:
            self._gone()
            raise ServerGone(f"the native fork server {self.pid} is gone: {exc}") from None
        if reply is None:
            self._gone()
            raise ServerGone(f"the native fork server {self.pid} did not answer in {timeout_s} s")
        if not reply:
            self._gone()
            raise ServerGone(f"the native fork server {self.pid} has exited")
        if reply[:1] == b"P" and reply[1:].isdigit() and _is_my_child(int(reply[1:])):
            return int(reply[1:])  # a child of this process: a clone made with CLONE_PARENT
        if reply[:1] == b"E":
            code = int(reply[1:])
            raise OSError(code, f"native fork server: clone failed: {os.strerror(code)}")
        self._gone()
        raise ServerGone(f"the native fork server {self.pid} answered {reply[:40]!r}")

    def _receive(self, timeout_s: float) -> bytes | None:
        """One message, b"" at end of file, None on timeout."""
        poller = select.poll()
        poller.register(self._sock, select.POLLIN)
        end = time.monotonic() + timeout_s
        while True:
            left = end - time.monotonic()
            if left <= 0 or not poller.poll(left * 1000):
                return None
            try:
                return self._sock.recv(64)
            except InterruptedError:
                continue

    def alive(self) -> bool:
        """Whether the server is still running (reaps it if it has exited)."""
        if self.status is not None:
            return False
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:  # reaped by someone else
            self.status = -1
            return False
        if pid:
            self.status = status
            return False
        return True

    def _gone(self) -> None:
        """Kill and reap a server that misbehaved; close the socket."""
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap(None)
        self._sock.close()
        self._close_stat()

    def _reap(self, timeout_s: float | None) -> None:
        end = None if timeout_s is None else time.monotonic() + timeout_s
        while self.status is None:
            try:
                pid, status = os.waitpid(self.pid, 0 if end is None else os.WNOHANG)
            except ChildProcessError:
                self.status = -1
                return
            if pid:
                self.status = status
                return
            assert end is not None  # (a wait without one blocks until the process ends)
            if time.monotonic() > end:
                os.kill(self.pid, signal.SIGKILL)
                end = None
            else:
                time.sleep(0.001)

    def close(self) -> None:
        """End the server (end of file on its socket; killed if it lingers) and reap it. Test
        processes already started are not touched."""
        if self._sock.fileno() >= 0:
            self._sock.close()
        self._reap(1.0)
        self._close_stat()


def _default_signals() -> None:
    """Every signal's disposition to the default and the signal mask empty (before an exec)."""
    for number in range(1, signal.NSIG):
        try:
            signal.signal(number, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def _is_my_child(pid: int) -> bool:
    """Whether ``pid`` is a child of this process, running or ended (``waitid`` without reaping
    it: one system call, where reading ``/proc/PID/stat`` took three)."""
    try:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except (ChildProcessError, OSError):
        return False
    return True


def start(
    argv: list[str], env: dict[str, str], shim_path: str, child_setup=None, timeout_s: float = 5.0
) -> NativeServer | None:
    """A fork server for the program ``argv`` (see :func:`start_ex`), or None."""
    return start_ex(argv, env, shim_path, child_setup, timeout_s)[0]


def start_ex(
    argv: list[str], env: dict[str, str], shim_path: str, child_setup=None, timeout_s: float = 5.0
) -> tuple[NativeServer | None, str]:
    """Start ``argv[0]`` (a path, relative to the caller's working folder; not looked up in
    ``PATH``) as a fork server: a forked child runs ``child_setup()`` (rlimits, working folder...; fds 0 and 1 are
    /dev/null then, 2 is inherited), keeps only fds 0-2 and the socket on :data:`CONTROL_FD`,
    and executes the program with ``LD_BIND_NOW=1`` and ``LD_PRELOAD=shim_path`` added last to
    ``env`` (existing ones are dropped; the shim removes both). Waits up to ``timeout_s`` for the
    shim's hello.

    Returns the server and "" , or None and the reason: a program that is not a dynamically
    linked ELF is not started; one that does not say hello in time (the preload was ignored, the
    program exited, the shim refused) is killed and reaped. The caller must be the process that
    waits for the test children.
    """
    if not is_dynamic_elf(argv[0]):
        return None, f"{argv[0]} is not a dynamically linked ELF executable"
    why = early_code(argv[0])
    if why:
        return None, why
    program = os.path.abspath(argv[0])  # child_setup may change the working folder
    env = {k: v for k, v in env.items() if k not in ("LD_PRELOAD", "LD_BIND_NOW")}
    # last: the shim blanks them in place at the end of the block. Every symbol bound once, in
    # the server, rather than lazily in every test's process (what a program linked with
    # ``-z now`` does anyway; a program that names a function no library has fails to start
    # here, and its tests are exec'd)
    env["LD_BIND_NOW"] = "1"
    env["LD_PRELOAD"] = shim_path
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pid = os.fork()
    if pid == 0:  # child: never returns
        try:
            os.dup2(theirs.fileno(), CONTROL_FD)  # inheritable
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, 0)
            os.dup2(null, 1)
            # every disposition back to the default, the mask empty: an exec keeps what is ignored
            # (the interpreter ignores SIGPIPE and SIGXFSZ; a shell's background job, SIGINT and
            # SIGQUIT), and the program must start as a fresh one, as an exec'd test does
            _default_signals()
            if child_setup is not None:
                child_setup()
            os.closerange(3, CONTROL_FD)
            os.closerange(CONTROL_FD + 1, os.sysconf("SC_OPEN_MAX"))
            os.execve(program, argv, env)
        except BaseException as exc:  # noqa: BLE001
            try:
                os.write(2, f"gamecert: cannot start the native fork server: {exc!r}\n".encode())
            finally:
                os._exit(_EXEC_FAILED)
        os._exit(_EXEC_FAILED)
    theirs.close()
    server = NativeServer(pid, ours)
    hello = server._receive(timeout_s)
    if hello == HELLO:
        return server, ""
    if hello is None:
        why = f"no hello within {timeout_s} s"
    elif hello[:1] == b"N":
        why = "the shim refused: " + hello[1:].decode("ascii", "replace")
    elif not hello:
        why = "the program exited before the hello (the preload was not loaded?)"
    else:
        why = f"unexpected hello {hello[:40]!r}"
    server._gone()
    status = server.status
    if (
        status is not None
        and status >= 0
        and os.WIFEXITED(status)
        and os.WEXITSTATUS(status) == _EXEC_FAILED
    ):
        why += f"; exit status {_EXEC_FAILED} (could not be executed)"
    return None, why


__all__ = [
    "CONTROL_FD",
    "HELLO",
    "NativeServer",
    "ServerGone",
    "cpu_ns",
    "early_code",
    "is_dynamic_elf",
    "start",
    "start_ex",
]
