"""The supervisor's per-test loop in C for a native fork server's and a zygote's fast tests (``testloop.c`` in
this folder, compiled and cached by the harness like the shim, loaded here with ctypes). Standard
library only: it runs inside the sandbox.

:meth:`FastLoop.run` runs one test from the clone request to its report in one call: the stderr
pipe, the memory peak reset, the request to the shim and its reply, the CPU rlimit, a wait for
the child up to the first watchdog scan (:data:`_sv_procs._FIRST_SCAN_S`), ``wait4``, one read of
the pids cgroup's ``pids.current`` (whether anything else of the test is alive, instead of a
``/proc`` scan), the fork server's CPU time, ``pids.events``, the memory peak, the stderr tail.
It decides nothing: a test that has not ended by the first scan, that left tasks behind, or
that could not be started is handed back to the supervisor's Python path at the point the loop
reached (see :data:`RUNNING`, :data:`OTHERS`, :data:`NO_SPAWN`), and every limit, kill and
report rule stays there. Without the library (no C compiler, it cannot be loaded, not
contained, no pids cgroup) every test takes the Python path, as before. A report the loop made
whole says so (``"loop": true``); its fields are the Python path's, with what a test that ended
before any scan has there (no scan: one task, nothing sampled, no files counted).

Why one read of ``pids.current`` stands for the scan: every process of the sandbox is in the
runner's pids cgroup (its launcher joined it first, and the sandbox mounts no ``/sys``: nothing
in it can move a process out), and a process counts there until it is reaped. Read before the
clone request and once the test's process has ended (a zombie, not reaped yet), the count is
one more exactly when nothing else of the test is alive or unreaped; any other count hands the
test over.

The loop also keeps the fork server on the CPU it runs on itself (one ``sched_setaffinity``
when that CPU changes): the clone request, its reply and the test's start then wake no other
CPU. The shim gives each test's process back the CPUs the program was started on.

**The zygote's tests.** In the Python mode the loop forks the test's process itself instead of
asking a shim (``tl_zygote_fork``, see :class:`_sv_python.ZygoteFork`; the library is then
loaded with ``ctypes.PyDLL``, the interpreter's lock held, as its fork calls need): in the
test's process the call returns :data:`CHILD`, set up, and the server's ``launch_set_up`` runs the
program; in the server it goes on as for a clone. Where a Python-level fork took ~20
interpreted calls per test on each side, each touching pages shared with the other process
(copy-on-write faults), the loop takes one call. The plain runs (``python FILE``) keep the
Python path.

**The serve loop.** :func:`next_request` goes further for a zygote and for a running native
fork server (no profile): the server's loop itself runs in C (``tl_serve``) for as long as
requests are plain tests that end fast (a native fork server's: its CPU time charged to the
test as the Python path does, and one that used more than a clone costs goes back to Python): read the request, fork and follow the test, send the JSON line the Python path would
send (its fields and values, a key ``serve`` besides), check that nothing is left to clean and
that the server's inherited state is unchanged, read the next one. Whatever else comes (another
kind of request, a test not over by the first scan, something to clean, the client gone) goes
back to the Python loop at that point. The Python objects a test cost the server, each made on
pages the last fork had write-protected, are gone with it. There, each next test's process is
forked while a test runs and parked until its test comes (``tl_park`` in testloop.c: the fork
and the interpreter's after-fork calls run beside the test before; a test that reaches the
parked process, by a signal, its limits, priority, policy or affinity, only makes the server
fork the next one afresh); it is ended whenever the loop hands back to Python.

:meth:`FastLoop.dirty` says which scratch folders and whether the IPC namespace need emptying
after a test, without listing them.
"""

from __future__ import annotations

import ctypes
import json
import os
import socket

try:
    import _sv_procs as procs  # run by path (inside the sandbox): this folder is sys.path[0]
except ModuleNotFoundError:  # imported as part of gamecert
    from gamecert.engine.run.supervisor import _sv_procs as procs

DONE, RUNNING, OTHERS, NO_SPAWN, CHILD = 0, 1, 2, 3, 4  # also TL_* in testloop.c
SV_REQUEST, SV_OUTCOME, SV_DIRTY, SV_STATE, SV_GONE, SV_CHARGE, SV_SEED = (
    0,
    1,
    2,
    3,
    4,
    5,
    6,
)  # also SV_* in testloop.c
_SV_MAX_FDS = 200
IPC_DIRTY = 1 << 8
MEMORY_DIRTY = 1 << 9  # (also in testloop.c's tl_dirty) the memory cgroup holds more than it should
#: bench only: the loop's stamps of a test's parts, in order (see bench/candidate_throughput.py)
STAMPS = ("l_start", "l_request", "l_reply", "l_ended", "l_reaped", "l_done")
_MAX_SCRATCH = 4


class _Job(ctypes.Structure):
    """``struct tl_job`` in testloop.c, field for field."""

    _fields_ = [
        ("control", ctypes.c_int),
        ("stdin_fd", ctypes.c_int),
        ("stdout_fd", ctypes.c_int),
        ("cwd_fd", ctypes.c_int),
        ("memcg_version", ctypes.c_int),
        ("peak_fd", ctypes.c_int),
        ("usage_fd", ctypes.c_int),
        ("pids_current_fd", ctypes.c_int),
        ("events_fd", ctypes.c_int),
        ("schedstat_fd", ctypes.c_int),
        ("nscratch", ctypes.c_int),
        ("scratch_fds", ctypes.c_int * _MAX_SCRATCH),
        ("scratch_base", ctypes.c_longlong * _MAX_SCRATCH),
        ("mqueue_fd", ctypes.c_int),
        ("mqueue_empty", ctypes.c_longlong),
        ("cpu_soft", ctypes.c_longlong),
        ("first_scan_ns", ctypes.c_longlong),
        ("reply_timeout_ns", ctypes.c_longlong),
        ("tail", ctypes.c_void_p),
        ("tail_cap", ctypes.c_longlong),
        ("keep", ctypes.c_longlong),
        ("profile", ctypes.c_int),
        ("server_pid", ctypes.c_int),
        ("server_cpu", ctypes.c_int),
        ("outcome", ctypes.c_int),
        ("pid", ctypes.c_int),
        ("err_r", ctypes.c_int),
        ("status", ctypes.c_int),
        ("spawn_errno", ctypes.c_int),
        ("started_ns", ctypes.c_longlong),
        ("ended_ns", ctypes.c_longlong),
        ("utime_us", ctypes.c_longlong),
        ("stime_us", ctypes.c_longlong),
        ("maxrss_kb", ctypes.c_longlong),
        ("minflt", ctypes.c_longlong),
        ("mem_base", ctypes.c_longlong),
        ("mem_peak", ctypes.c_longlong),
        ("server_cpu_ns", ctypes.c_longlong),
        ("events_max", ctypes.c_longlong),
        ("err_size", ctypes.c_longlong),
        ("tail_off", ctypes.c_longlong),
        ("tail_len", ctypes.c_longlong),
        ("stamps", (ctypes.c_longlong * 3) * len(STAMPS)),
        ("zygote", ctypes.c_void_p),
        ("prefork", ctypes.c_int),
        ("parked_after", ctypes.c_int),
        ("fresh", ctypes.c_int),
        ("scratch_mode", ctypes.c_longlong * _MAX_SCRATCH),
        ("mem_clean", ctypes.c_longlong),
        ("cpuacct_fd", ctypes.c_int),
        ("cg_start_ns", ctypes.c_longlong),
        ("own_start_ns", ctypes.c_longlong),
        ("cg_cpu_ns", ctypes.c_longlong),
    ]


class _Serve(ctypes.Structure):
    """``struct tl_serve`` in testloop.c, field for field."""

    _fields_ = [
        ("sock", ctypes.c_int),
        ("has_memcg", ctypes.c_int),
        ("why", ctypes.c_char_p),
        ("events_seen", ctypes.c_longlong),
        ("message", ctypes.c_int),
        ("nfds", ctypes.c_int),
        ("fds", ctypes.c_int * _SV_MAX_FDS),
        ("served", ctypes.c_longlong),
        ("native", ctypes.c_int),
        ("charged_ns", ctypes.c_longlong),
        ("served_native", ctypes.c_longlong),
        ("charge_max_ns", ctypes.c_longlong),
        ("served_max", ctypes.c_longlong),
    ]


class FastLoop:
    """The loaded library and one job record, filled once with what does not change per test."""

    def __init__(
        self,
        lib: ctypes.CDLL,
        *,
        pids_current_fd: int,
        events_fd: int | None,
        memory,
        scratch_fds,
        scratch_base,
        mqueue_fd: int | None,
        mqueue_empty: int | None,
        cpu_soft: int,
        first_scan_s: float,
        keep: int,
        zygote=None,
        scratch_mode=(),
        cpuacct=None,
    ) -> None:
        self._run, self._dirty = lib.tl_run, lib.tl_dirty
        self._run.argtypes = self._dirty.argtypes = [ctypes.POINTER(_Job)]
        self._run.restype = self._dirty.restype = ctypes.c_int
        job = self.job = _Job()
        self._ref = ctypes.byref(job)
        self._tail = ctypes.create_string_buffer(2 * keep)
        job.tail, job.tail_cap, job.keep = ctypes.addressof(self._tail), 2 * keep, keep
        job.pids_current_fd = pids_current_fd
        job.events_fd = -1 if events_fd is None else events_fd
        job.memcg_version = 0 if memory is None else memory.version
        if memory is not None:
            job.peak_fd, job.usage_fd = memory.peak_fd, memory.usage_fd
        scratch = list(zip(scratch_fds, scratch_base))[:_MAX_SCRATCH]
        job.nscratch = len(scratch)
        for i, (fd, base) in enumerate(scratch):
            job.scratch_fds[i], job.scratch_base[i] = fd, base
            job.scratch_mode[i] = scratch_mode[i]
        job.mem_clean = memory.clean if memory is not None else -1
        job.cpuacct_fd = -1 if cpuacct is None else cpuacct.fd
        job.mqueue_fd = -1 if mqueue_fd is None or mqueue_empty is None else mqueue_fd
        job.mqueue_empty = mqueue_empty or 0
        job.cpu_soft = cpu_soft
        job.first_scan_ns = int(first_scan_s * 1e9)
        job.reply_timeout_ns = 5_000_000_000
        #: the serve loop in C, and whether its last request's test was started (its job kept)
        self.pending = False
        if zygote is not None:  # (lib: the library loaded with ctypes.PyDLL, see ZygoteFork)
            job.zygote = ctypes.addressof(zygote.job)
        self._serve = lib.tl_serve
        self._serve.argtypes = [ctypes.POINTER(_Job), ctypes.POINTER(_Serve)]
        self._serve.restype = ctypes.c_int
        self.serving = _Serve()
        self.serving.has_memcg = memory is not None
        self.serving.native = zygote is None
        #: the server's limits, priority and CPU affinity kept, to compare after every test
        self._own_state = lib.tl_own_state
        self._own_state.argtypes, self._own_state.restype = [ctypes.c_int], ctypes.c_int
        self._own_state(1)
        #: whether dirty() covers every scratch folder (else the caller checks them itself)
        self.covers_scratch = len(scratch_fds) <= _MAX_SCRATCH

    def run(
        self, control: int, stdin_fd: int, stdout_fd: int, cwd_fd: int, schedstat_fd: int | None
    ) -> _Job:
        """One test (see the module's account); the job record, its ``outcome`` first."""
        job = self.job
        job.control, job.stdin_fd, job.stdout_fd, job.cwd_fd = control, stdin_fd, stdout_fd, cwd_fd
        job.schedstat_fd = -1 if schedstat_fd is None else schedstat_fd
        self._run(self._ref)
        return job

    def tail(self) -> bytes:
        """The kept end of the last test's stderr."""
        job = self.job
        return ctypes.string_at(job.tail + job.tail_off, job.tail_len)

    def state_changed(self) -> bool:
        """Whether the server's limits, priority or CPU affinity differ from what they were
        when the loop was made (``_sv_procs._own_state``'s comparison, in one call)."""
        return bool(self._own_state(0))

    def dirty(self) -> int:
        """Bit i: scratch folder i has something in it; :data:`IPC_DIRTY`: an IPC object exists."""
        return self._dirty(self._ref)


def next_request(server, sock) -> tuple[bytes, list[int]]:
    """The next request the server's Python loop handles, (message, descriptors); (b"", []) when
    the loop ends. With the serve loop in C (a zygote's, or a running native fork server's; no
    profile), the plain fast tests before it are run, reported and checked there (see
    testloop.c, ``tl_serve``); a test it started and did not finish or report comes back as its
    request, its job kept (``pending``) for :func:`run_native`."""
    loop = server.fast
    native = server.native
    if (
        loop is None
        or server.marks is not None
        or loop.serving.native
        and (native is None or server.mode != "exec")
    ):
        message, fds, _, _ = socket.recv_fds(sock, 1, 2 * procs.BATCH_MAX)
        return message, fds
    serving = loop.serving
    serving.sock = sock.fileno()
    serving.why = json.dumps(server.native_why).encode()
    if serving.native:
        _native_job(server, loop.job, native)
        serving.charge_max_ns = int(procs.SERVER_CPU_S * 1e9)
    while True:
        serving.events_seen = server.forks.seen
        if serving.native:
            serving.charged_ns, serving.served_native = server.native_charged, server.native_served
        if server.tests_left is not None:  # (a zygote: see _sv_procs.ZYGOTE_TESTS)
            serving.served_max, serving.served = max(1, server.tests_left), 0
        code = loop._serve(loop._ref, ctypes.byref(serving))
        if server.tests_left is not None:
            server.tests_left -= serving.served
        if code == SV_OUTCOME and loop.job.outcome == CHILD:  # the test's process, set up: the
            server.launch_set_up()  # program runs at once (nothing more of the server's code)
        server.forks.seen = serving.events_seen
        if serving.native:
            server.native_charged, server.native_served = serving.charged_ns, serving.served_native
            server.last_native = True
        if code == SV_DIRTY:
            server.clean_up()
            if server.memory is not None:
                loop.job.mem_clean = server.memory.clean
            if not loop.state_changed():
                continue
            code = SV_STATE
        if code == SV_STATE:
            os.write(
                2, b"a test changed the limits, priority or CPU affinity its successors inherit\n"
            )
            return b"", []
        if code == SV_SEED:
            return b"", []  # (this server ends; the client starts a new one for the next test)
        if code == SV_GONE:
            for fd in serving.fds[: serving.nfds]:
                os.close(fd)
            return b"", []
        loop.pending = code in (SV_OUTCOME, SV_CHARGE)
        return bytes([serving.message]), list(serving.fds[: serving.nfds])


def _native_job(server, job: _Job, native) -> None:
    """The job record set for a test of ``native`` (the running fork server)."""
    if job.server_pid != native.pid:  # a new fork server: on no CPU of ours yet
        job.server_pid, job.server_cpu = native.pid, -1
    schedstat = native.schedstat_fd()
    job.control, job.cwd_fd = native._sock.fileno(), server.scratch_fds[0]
    job.schedstat_fd = -1 if schedstat is None else schedstat


def own_state_changed(server) -> bool:
    """Whether a test changed what the next tests inherit from ``server`` (see
    ``_sv_procs._own_state``): in C with the loop, else in Python."""
    if server.fast is not None:
        return server.fast.state_changed()
    return procs._own_state() != server.own_state


def load(path: str | None) -> tuple[ctypes.CDLL | None, str]:
    """The library at ``path``, or None and why not (then every test takes the Python path)."""
    if not path:
        return None, "not built"
    try:
        lib = ctypes.CDLL(os.fspath(path))
        lib.tl_run, lib.tl_dirty  # noqa: B018 - both must be there
    except (OSError, AttributeError) as exc:
        return None, f"cannot load {path}: {exc}"
    return lib, ""


def for_server(server, config: dict) -> tuple[FastLoop | None, str]:
    """The loop for a supervisor (``server.py``'s ``_Server``), or None and why its native
    tests take the Python path: it is contained, runs a native fork server, and has the
    library and the pids cgroup's ``pids.current`` (config ``testloop``, ``pids_current``)."""
    zygote = server.zygote if server.mode == "python" else None
    if zygote is None and (server.mode != "exec" or not server.native_shim):
        return None, "no native fork server" if server.mode == "exec" else "no zygote fork in C"
    if not server.contained or config.get("pids_current") is None or server.forks is None:
        return None, "not contained in a pids cgroup"
    if len(server.scratch_fds) > _MAX_SCRATCH:
        return None, "too many scratch folders"
    lib, why = (zygote.lib, "") if zygote is not None else load(config.get("testloop"))
    if lib is None:
        return None, why
    return FastLoop(
        lib,
        pids_current_fd=int(config["pids_current"]),
        events_fd=server.forks.fd,
        memory=server.memory,
        scratch_fds=server.scratch_fds,
        scratch_base=server.scratch_base,
        mqueue_fd=server.mqueue_fd,
        mqueue_empty=server.mqueue_empty,
        cpu_soft=int(server.limits["cpu_soft"]),
        first_scan_s=procs._FIRST_SCAN_S,
        keep=procs.STDERR_KEEP,
        zygote=zygote,
        scratch_mode=server.scratch_mode,
        cpuacct=server.cpuacct,
    ), ""


def run_native(server, fds: list[int]) -> tuple[bool, dict | None]:
    """One test of ``server`` (a ``_Server`` with a running fork server) on ``fds`` (stdin,
    stdout) through the loop: (True, its report) once it started, the report None if the client
    left meanwhile; (False, None) if nothing was started (the test takes the Python path whole,
    which restarts a fork server that is gone; a memory peak that cannot be reset turns the loop
    off for good)."""
    native = server.native
    loop = server.fast.job
    loop.profile = server.marks is not None
    if server.fast.pending:  # started by the serve loop (next_request)
        server.fast.pending = False
        job = server.fast.job
    elif native is None:  # a zygote's test: forked here (see _sv_python.ZygoteFork)
        if server.child_marks is not None:
            server.child_marks[:] = bytes(192)
        job = server.fast.run(-1, fds[0], fds[1], server.scratch_fds[0], None)
    else:
        _native_job(server, loop, native)
        job = server.fast.run(loop.control, fds[0], fds[1], loop.cwd_fd, native.schedstat_fd())
    if (
        job.outcome == CHILD
    ):  # (a zygote's) the test's process, set up: never returns into the server loop
        server.launch_set_up()
    if server.marks is not None:  # the loop's own stamps, on the same clocks as the server's
        server.marks.extend((name, *stamp) for name, stamp in zip(STAMPS, job.stamps) if stamp[0])
    if job.outcome == NO_SPAWN and native is None:
        if job.spawn_errno == 5:  # EIO: the peak reset failed (the Python path knows what to do)
            server.fast, server.fast_why = None, "the memory peak cannot be reset"
        return False, None  # (a fork refused: the Python path forks, and says why it cannot)
    if job.outcome == NO_SPAWN:
        if (
            job.spawn_errno == 0
        ):  # gone, or an answer that was not a pid of a child: ended, restarted
            native._gone()
            server.native = None
        elif job.spawn_errno == 5:  # EIO: the peak reset failed (the Python path knows what to do)
            server.fast, server.fast_why = None, "the memory peak cannot be reset"
        return False, None
    server.last_native = native is not None
    for fd in fds:
        os.close(fd)
    memory = server.memory
    if memory is not None:
        memory.base = job.mem_base
    tail = bytearray(server.fast.tail()[-procs.STDERR_KEEP :])
    server.cpu_start = (job.cg_start_ns, job.own_start_ns) if server.cpuacct is not None else None
    if job.outcome != DONE:  # handed over: the Python watch goes on from where the loop stopped
        err_r = job.err_r
        try:
            return True, server._watch_to_end(
                job.pid, job.started_ns / 1e9, err_r, tail, job.err_size
            )
        finally:
            os.close(err_r)
    server_s = server._charge_server(native, job.server_cpu_ns)
    forks = server.forks
    if job.events_max >= 0:
        refused, forks.seen = job.events_max - forks.seen, job.events_max
    else:
        refused = forks.read()
    cg_kb = max(0, job.mem_peak - job.mem_base) >> 10 if memory is not None else 0
    server.mark("drain")
    report = {
        "pid": job.pid, "status": job.status, "utime": job.utime_us / 1e6 + server_s, "stime": job.stime_us / 1e6,
        "server_s": server_s, "maxrss_kb": job.maxrss_kb, "wall": (job.ended_ns - job.started_ns) / 1e9,
        "killed": None, "peak_tasks": 1, "sampled_kb": 0, "others": 0, "stderr_bytes": job.err_size, "files": 0,
        "native": native is not None, "native_why": server.native_why, "tail": len(tail), "cg_kb": cg_kb, "cg_oom": 0,
        "tail_bytes": bytes(tail), "refused": refused, "loop": True, "cg_cpu": max(0, job.cg_cpu_ns) / 1e9,
    }  # fmt: skip
    if server.marks is not None:
        report["minflt"] = job.minflt
    return True, report
