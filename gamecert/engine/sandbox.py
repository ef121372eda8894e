"""Running untrusted candidate programs under OS limits, one test at a time.

A :class:`Candidate` is what the user named (a source file, an executable, or a command line);
:func:`open_runner` gives a :class:`Runner` whose :meth:`Runner.run` feeds one input and returns a
:class:`RunResult`: the status (``ok``, ``re``, ``tle``, ``mle``, ``ole``), the output and the
evidence (exit code, signal, CPU and wall time, peak memory, the tail of stderr).

Every candidate process is started by a supervisor process (see :mod:`gamecert.engine.forkserver`), in
its own session and process group, in a fresh empty scratch directory that is removed
afterwards, with stdin, stdout and stderr redirected to files. A ``.py`` candidate runs
*persistently*: one forked child runs up to ``Limits.persistent_tests`` tests, each with a fresh
``__main__``, fresh std streams and the interpreter settings put back, and is replaced after any
fault (non-zero exit, signal, a limit, threads or child processes left running, memory left
grown). :meth:`Runner.run_fresh` runs one test in a process of its own, to confirm a failure or
audit a pass. Other candidates get a new process per test. What is enforced:

* **CPU time** decides TLE. A watchdog sums the CPU time of the test's process group every
  ~10 ms and kills the group past ``time_s``; a run that ends normally with more than
  ``time_s`` of CPU is TLE too. ``RLIMIT_CPU`` (whole seconds, rounded up) is a backstop. A
  TLE with CPU time within 20% above the limit is re-run in a fresh process, whose result
  stands (``RunResult.note`` says so); messages give CPU time in milliseconds.
* **Wall clock**: ``wall_s = max(2 * time_s, time_s + 1)``. A wall-clock stop with CPU time
  under the limit is re-run fresh; if it happens again it is TLE as idle or blocked.
* **Memory** used, as judges measure it: the watchdog samples the group's resident memory
  (RSS) and kills the group at the limit; after the run, the peak RSS (``ru_maxrss``, or for a
  persistent child the high-water mark reset before each test) counts too. MLE comes only from
  a measured peak at or above the limit (or a failed allocation reported with the peak above
  80% of it), and the message shows the figure. ``RLIMIT_AS`` is only a backstop against
  runaways: four times the limit for Python, at least 16 GB for other programs (a JVM or Node
  reserves far more address space than it uses). Tests shorter than the first sample (~10 ms)
  are judged on their peak RSS alone. No cgroup is used.
* **Stack**: ``RLIMIT_STACK`` = the memory limit unless ``stack_mb`` says otherwise, as contest
  judges do, so deep recursion in C++ works. (glibc sizes new threads by this limit; the
  address-space backstop leaves room for a few such threads.)
* **Output**: ``RLIMIT_FSIZE`` = ``output_bytes + 1`` on every file the candidate writes, stdout
  included; stdout or stderr longer than ``output_bytes`` (or ``SIGXFSZ``) is OLE. Output below
  the cap is captured in full.
* **Processes**: the watchdog counts the group's tasks (threads included) and kills the group
  past ``processes``: this works as root, where ``RLIMIT_NPROC`` is ignored. For other users
  ``RLIMIT_NPROC`` is set too, to the user's current task count plus ``processes`` (the limit is
  per user, not per candidate). A fork bomb may briefly exceed the count between two scans.
* **Leftovers**: when the main process ends or is killed, its whole process group is killed
  with ``SIGKILL``; the supervisor is a child subreaper, so orphans that left the group are
  re-parented to it and killed and reaped too.
* **Core dumps** are off (``RLIMIT_CORE`` = 0).

Not enforced: a candidate running as root can raise its own limits or kill processes outside
its group; the limits are against faults, not against malice.
"""

from __future__ import annotations

import math
import os
import re
import shlex
import shutil
import signal
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from gamecert.engine import contain
from gamecert.engine.forkserver import ForkServerClient
from gamecert.engine.limits import Limits
from gamecert.errors import GamecertError, UsageError

STATUSES = ("ok", "re", "tle", "mle", "ole")
_STDERR_TAIL_LINES = 20
_STDERR_TAIL_BYTES = 16384
_MEMORY_MARKERS = (
    "MemoryError",
    "bad_alloc",
    "Cannot allocate memory",
    "out of memory",
    "Out of memory",
    "OutOfMemoryError",
)


@dataclass(frozen=True)
class RunResult:
    """What one run of a candidate did. ``detail`` says why, for the non-ok statuses."""

    status: str
    stdout: str
    stderr_tail: str
    exit_code: int | None
    signal: int | None
    cpu_s: float
    wall_s: float
    max_rss_mb: float
    detail: str = ""
    #: True if the test ran in a process that ran no other test (not a persistent child)
    fresh: bool = True
    #: how the result was confirmed or replaced by a re-run, if it was
    note: str = ""

    def describe(self) -> str:
        """One line for reports.

        >>> RunResult("re", "", "Segmentation fault", None, 11, 0.01, 0.02, 3.0).describe()
        'RE: killed by SIGSEGV (signal 11); stderr: Segmentation fault'
        >>> RunResult("ok", "Bob\\n", "", 0, None, 0.0104, 0.02, 9.5).describe()
        'OK: exit 0, 0.010 s CPU, 0.020 s wall, 9.5 MB'
        """
        if self.status == "ok":
            what = f"exit 0, {self.cpu_s:.3f} s CPU, {self.wall_s:.3f} s wall, {self.max_rss_mb:.1f} MB"
        elif self.detail:
            what = self.detail
        elif self.signal is not None:
            what = f"killed by {_signal_name(self.signal)} (signal {self.signal})"
        else:
            what = f"exit code {self.exit_code}"
        line = f"{self.status.upper()}: {what}"
        tail = " | ".join(s.strip() for s in self.stderr_tail.strip().splitlines()[-3:] if s.strip())
        if tail and self.status != "ok":
            line += f"; stderr: {tail[:300]}"
        return line


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _safe_name(text: str) -> str:
    """A short, filesystem-safe name.

    >>> _safe_name("my solution (v2)")
    'my_solution_v2'
    """
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")[:60]
    return name or "candidate"


def _absolutise_args(words: list[str]) -> list[str]:
    """Arguments naming existing files or folders become absolute (candidates run elsewhere).

    Only words that exist relative to the current folder and look like paths (contain ``/`` or
    ``.``, or are folders) are changed, so ``java -cp build Main`` keeps ``Main``.
    """
    out = []
    for word in words:
        if not word.startswith("-") and os.path.exists(word):
            if os.path.isdir(word) or "/" in word or "." in word:
                word = os.path.abspath(word)
        out.append(word)
    return out


@dataclass(frozen=True)
class Candidate:
    """A program to certify, as the user named it, with its provenance.

    ``language`` is the source language (see :mod:`gamecert.engine.toolchains`), ``executable`` for a
    program file, ``command`` for a command line. ``source``, ``binary``, ``compile_command``,
    ``compiler_version``, ``source_sha256`` and ``binary_sha256`` say what was built from what
    (empty where they do not apply).
    """

    spec: str
    name: str
    argv: tuple[str, ...]
    python_file: Path | None
    language: str = "command"
    source: Path | None = None
    binary: Path | None = None
    compile_command: tuple[str, ...] = ()
    compiler_version: str = ""
    source_sha256: str = ""
    binary_sha256: str = ""

    @classmethod
    def parse(cls, spec: str, *, compile: str | None = None, python: str | None = None) -> Candidate:
        """A source file (compiled once, see :mod:`gamecert.engine.toolchains`), an executable file, or
        a command line whose first word is on PATH. ``compile`` overrides the compile command of
        a compiled source; ``python`` names the interpreter of a ``.py`` source (default: this
        Python, through the fork server). A source that does not compile raises
        :class:`gamecert.engine.toolchains.CompileError`.

        >>> Candidate.parse("sh -c true").argv[1:]
        ('-c', 'true')
        >>> Candidate.parse("sh -c true").name
        'sh'
        """
        from gamecert.engine import toolchains

        text = spec.strip()
        if not text:
            raise UsageError("the candidate is empty: give a source file, an executable or a command line")
        path = Path(text).expanduser()
        if path.exists():
            if path.is_dir():
                raise UsageError(f"candidate {spec!r} is a folder; give a program file or a command line")
            if toolchains.language_of(path) is not None:
                return cls._from_build(spec, path, toolchains.prepare(path, compile=compile, python=python), python)
        if compile is not None or python is not None:
            option = "--compile" if compile is not None else "--python"
            raise UsageError(f"{option} applies to a source file candidate, and {spec!r} is not one")
        if path.exists():
            if not path.is_file():
                raise UsageError(f"candidate {spec!r} is not a regular file")
            if not os.access(path, os.X_OK):
                raise UsageError(
                    f"candidate {spec!r} is not executable; run `chmod +x {text}` "
                    f"or give a command line such as 'python3 {text}'"
                )
            resolved = path.resolve()
            return cls(spec, _safe_name(path.stem), (str(resolved),), None, language="executable",
                       binary=resolved, binary_sha256=_sha256_file(resolved))
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise UsageError(f"candidate {spec!r} is not a valid command line: {exc}") from None
        if len(words) == 1 and ("/" in text or toolchains.language_of(text) is not None):
            raise UsageError(f"candidate file {spec!r} does not exist")
        program = shutil.which(words[0])
        if program is None:
            raise UsageError(
                f"candidate {spec!r}: command {words[0]!r} not found (not a file, and not on PATH)"
            )
        argv = (os.path.abspath(program), *_absolutise_args(words[1:]))
        return cls(spec, _safe_name(Path(words[0]).name), argv, None)

    @classmethod
    def _from_build(cls, spec: str, path: Path, build: object, python: str | None) -> Candidate:
        """A candidate from a :class:`gamecert.engine.toolchains.Build`; a ``.py`` source without
        ``python`` keeps ``python_file`` (run by the fork server)."""
        python_file = build.source if build.language == "python" and python is None else None
        return cls(spec, _safe_name(path.stem), build.argv, python_file, language=build.language,
                   source=build.source, binary=build.binary, compile_command=build.compile_command,
                   compiler_version=build.compiler_version, source_sha256=build.source_sha256,
                   binary_sha256=build.binary_sha256)


def _sha256_file(path: Path) -> str:
    """The file's sha256, or "" if it cannot be read (an executable without read permission)."""
    import hashlib

    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return ""
    return digest.hexdigest()


def _scratch_root() -> str | None:
    """Where runners keep their files: $GAMECERT_TMPDIR, else /dev/shm (memory, fast metadata)
    when writable, else the system's temporary folder."""
    chosen = os.environ.get("GAMECERT_TMPDIR")
    if chosen:
        return chosen
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK):
        return "/dev/shm"
    return None


def candidate_environment(home: str) -> dict[str, str]:
    """The environment a candidate runs in, as a judge gives it: the harness's ``PATH`` (so a
    command line finds its interpreter), ``HOME`` and ``TMPDIR`` in the candidate's own scratch
    base, a UTF-8 locale, and nothing else of the user's (no tokens, no ``PYTHONPATH``).

    >>> sorted(candidate_environment("/scratch"))
    ['HOME', 'LANG', 'PATH', 'TMPDIR']
    """
    return {"PATH": os.environ.get("PATH") or os.defpath, "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8"}


def _user_task_count() -> int:
    """Tasks (threads) of the current real user, for a per-user RLIMIT_NPROC."""
    uid, count = os.getuid(), 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{name}/task"))
            except OSError:
                continue
    return count


class Runner:
    """Runs one candidate on one input at a time; a context manager. See :func:`open_runner`."""

    def __init__(self, candidate: Candidate, limits: Limits, *, fork_server: bool = True, contain_it: bool = True) -> None:
        self.candidate = candidate
        self.limits = limits
        self.mode = "fork-server" if candidate.python_file is not None and fork_server else "fresh-process"
        #: whether (and how) the candidate runs contained; see :mod:`gamecert.engine.contain`
        self.containment = contain.probe(contain_it)
        contain.warn_if_not_contained(self.containment)
        root = _scratch_root()
        try:
            self._base = Path(tempfile.mkdtemp(prefix=f"gamecert-{candidate.name}-", dir=root))
        except OSError as exc:
            where = f"{root} (from $GAMECERT_TMPDIR)" if os.environ.get("GAMECERT_TMPDIR") else (root or "the temporary folder")
            raise UsageError(f"cannot make a scratch folder for the candidate in {where}: {exc.strerror or exc}") from None
        # two sets of I/O files, used in turn: the supervisor prepares the next test's set
        # while this test's output is still being read
        self._sets = [{k: str(self._base / f"{k}{i}") for k in ("stdin", "stdout", "stderr")} for i in (0, 1)]
        self._count = 0
        self._files: tuple[int, int, int] | None = None
        config = {
            "mode": "python" if self.mode == "fork-server" else "exec",
            "argv": list(candidate.argv),
            "python_file": str(candidate.python_file) if candidate.python_file else None,
            "io": {"sets": self._sets, "pid": str(self._base / "pid")},
            "scratch_root": str(self._base),
            "persistent_tests": limits.persistent_tests,
            "limits": {
                "time_s": limits.time_s,
                "wall_s": limits.wall_s,
                "cpu_soft": max(1, math.ceil(limits.time_s)),
                "as_bytes": limits.address_space_bytes(self.mode == "fork-server"),
                "memory_kb": limits.memory_mb << 10,
                "stack_bytes": limits.stack_bytes,
                "fsize_bytes": limits.output_bytes + 1,
                "processes": limits.processes,
                "nproc": 0 if os.geteuid() == 0 else _user_task_count() + limits.processes,
            },
        }
        prefix = contain.wrap(
            [], writable=[str(self._base)], workdir=str(self._base), containment=self.containment,
            readable=contain.program_paths(candidate.argv, config["python_file"]),
        )
        try:
            self._client: ForkServerClient | None = ForkServerClient(config, str(self._base / "server.log"),
                                                                     launch_prefix=prefix,
                                                                     env=candidate_environment(str(self._base)))
        except RuntimeError as exc:  # the supervisor did not start: say why in one line
            shutil.rmtree(self._base, ignore_errors=True)
            tail = " | ".join(line.strip() for line in str(exc).splitlines()[1:] if line.strip())[-300:]
            raise GamecertError(f"cannot start the supervisor for candidate {candidate.spec!r}"
                                f"{': ' + tail if tail else ''}") from None
        except BaseException:
            shutil.rmtree(self._base, ignore_errors=True)
            raise

    @property
    def persistent(self) -> bool:
        """Whether one process runs several tests (a Python candidate's persistent children)."""
        return self.mode == "fork-server" and self.limits.persistent_tests > 1

    @property
    def server_pid(self) -> int | None:
        """The supervisor's process id (for diagnostics), or None once closed."""
        return self._client.pid if self._client is not None else None

    @property
    def supervisor_pids(self) -> set[int]:
        """The supervisor, the child it holds ready for the next test and a persistent Python
        child between tests (for diagnostics)."""
        if self._client is None:
            return set()
        pids = (self._client.pid, self._client.waiting_pid, self._client.running_pid)
        return {p for p in pids if p is not None} | self._client.sandbox_pids

    def run(self, input_text: str) -> RunResult:
        """Run the candidate once on ``input_text`` (a Python candidate in its persistent
        child), with time verdicts confirmed as a judge would want them.

        A test stopped by the wall clock with CPU time under the limit is re-run in a fresh
        process; if that happens again it is TLE as idle or blocked. A TLE whose CPU time is
        within 20% above the limit is re-run fresh too (a loaded machine slows programs down);
        the re-run's result stands, with a ``note`` saying so.
        """
        first, killed = self._run_once(input_text, fresh=False)
        if first.status != "tle":
            return first
        limit = self.limits.time_s
        if killed == "wall" and first.cpu_s < limit:
            second, again = self._run_once(input_text, fresh=True)
            if second.status == "tle" and again == "wall" and second.cpu_s < limit:
                return replace(second, note=f"re-run in a fresh process: idle again ({first.describe()})")
            return replace(second, note=f"re-run in a fresh process after a wall-clock stop with CPU time "
                                        f"{first.cpu_s:.3f} s under the limit (first run: {first.describe()})")
        if first.cpu_s <= 1.2 * limit:
            second, _ = self._run_once(input_text, fresh=True)
            verb = "confirmed" if second.status == "tle" else "not confirmed"
            return replace(second, note=f"TLE with CPU time within 20% of the limit, {verb} by a re-run in a "
                                        f"fresh process (first run: CPU time {first.cpu_s:.3f} s)")
        return first

    def run_fresh(self, input_text: str) -> RunResult:
        """Run the candidate once on ``input_text`` in a process that runs no other test (for
        confirming a failure, or auditing a pass for isolation); no re-runs."""
        return self._run_once(input_text, fresh=True)[0]

    def _run_once(self, input_text: str, fresh: bool) -> tuple[RunResult, str | None]:
        """One run and why the watchdog stopped it (``wall``, ``cpu``, ``memory``,
        ``processes`` or None)."""
        if self._client is None:
            raise RuntimeError("this runner is closed")
        self._count += 1
        if self.mode == "fork-server":
            # Python children keep the files of both sets open and never replace them: one
            # set, and descriptors kept open here, serve every test
            files = self._python_files()
            _write_fd(files[0], input_text.encode())
            report = self._client.run(0, fresh)
            out_size, out_bytes = _read_head_fd(files[1], self.limits.output_bytes)
            err_size, stderr_tail = _tail_fd(files[2])
        else:
            io = self._sets[self._count % 2]
            _write_in_place(io["stdin"], input_text.encode())
            report = self._client.run(self._count % 2, True)
            out_size, out_bytes = _read_head(io["stdout"], self.limits.output_bytes)
            err_size, stderr_tail = _tail(io["stderr"])
        result = self._classify(report, out_size, out_bytes.decode(errors="replace"), err_size, stderr_tail)
        return result, report.get("killed")

    def _python_files(self) -> tuple[int, int, int]:
        """Descriptors on set 0's stdin (for writing), stdout and stderr (for reading)."""
        if self._files is None:
            io = self._sets[0]
            self._files = (
                os.open(io["stdin"], os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644),
                os.open(io["stdout"], os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644),
                os.open(io["stderr"], os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644),
            )
        return self._files

    def _classify(self, report: dict, out_size: int, stdout: str, err_size: int, stderr_tail: str) -> RunResult:
        limits = self.limits
        if report.get("lost"):
            return RunResult(
                "re", stdout, stderr_tail, None, None, 0.0, 0.0, 0.0,
                "the candidate's supervisor died during the test (did the candidate kill its parent?)",
            )
        status_word = report["status"]
        exit_code = os.WEXITSTATUS(status_word) if os.WIFEXITED(status_word) else None
        sig = os.WTERMSIG(status_word) if os.WIFSIGNALED(status_word) else None
        cpu = report["utime"] + report["stime"]
        rss_mb = round(report["maxrss_kb"] / 1024, 2)  # the figure shown is the one compared
        killed = report["killed"]
        common = (stdout, stderr_tail, exit_code, sig, round(cpu, 6), round(report["wall"], 6), round(rss_mb, 2))
        extra = {"fresh": report["fresh"]}
        measured = "group RSS, sampled" if report["sampled_kb"] >= report["maxrss_kb"] else "peak RSS"
        used = f"memory used {rss_mb:.1f} MB ({measured})"
        if killed == "processes":
            return RunResult(
                "re", *common, f"process limit exceeded: {report['peak_tasks']} tasks > {limits.processes}; group killed",
                **extra,
            )
        if killed == "memory":
            return RunResult("mle", *common, f"{used} >= limit {limits.memory_mb} MB; group killed", **extra)
        if killed == "wall":
            return RunResult("tle", *common, f"idle or blocked: wall-clock time {report['wall']:.3f} s reached the "
                                              f"limit {limits.wall_s:g} s with CPU time {cpu:.3f} s; group killed", **extra)
        if killed == "cpu" or sig == signal.SIGXCPU or cpu > limits.time_s:
            return RunResult("tle", *common, f"CPU time {cpu:.3f} s > limit {limits.time_s:g} s", **extra)
        if out_size > limits.output_bytes or sig == getattr(signal, "SIGXFSZ", None):
            return RunResult("ole", *common, f"output limit exceeded: more than {limits.output_bytes} bytes", **extra)
        if err_size > limits.output_bytes:
            # a Python candidate ignores SIGXFSZ: its write to stderr fails and it exits 1
            return RunResult("ole", *common, f"output limit exceeded: more than {limits.output_bytes} bytes on stderr", **extra)
        if rss_mb >= limits.memory_mb:
            return RunResult("mle", *common, f"{used} >= limit {limits.memory_mb} MB", **extra)
        if exit_code == 0:
            return RunResult("ok", *common, **extra)
        failed_alloc = next((m for m in _MEMORY_MARKERS if m in stderr_tail), None)
        if failed_alloc and rss_mb >= 0.8 * limits.memory_mb:
            return RunResult("mle", *common, f"{used}, near the limit {limits.memory_mb} MB, and the program "
                                              f"reported a failed allocation ({failed_alloc})", **extra)
        what = f"killed by {_signal_name(sig)} (signal {sig})" if sig is not None else f"exit code {exit_code}"
        if failed_alloc:
            backstop = limits.address_space_bytes(self.mode == "fork-server") >> 20
            what += (f"; the program reported a failed allocation ({failed_alloc}) with {used}, under the "
                     f"limit: it asked for more than the {backstop} MB address-space cap")
        return RunResult("re", *common, what, **extra)

    def close(self) -> None:
        """Stop the supervisor (and anything left running) and remove the temporary files."""
        if self._client is not None:
            self._client.close()
            self._client = None
        for fd in self._files or ():
            os.close(fd)
        self._files = None
        shutil.rmtree(self._base, ignore_errors=True)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_in_place(path: str, data: bytes) -> None:
    """Replace the file's contents, keeping the file itself (as ``open(path, "wb")`` does): the
    stdin file is the same inode a waiting child already has open."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _write_fd(fd: int, data: bytes) -> None:
    """Replace the contents of the file open on ``fd``."""
    os.ftruncate(fd, 0)
    view, at = memoryview(data), 0
    while at < len(view):
        at += os.pwrite(fd, view[at:], at)


def _read_head_fd(fd: int, limit: int) -> tuple[int, bytes]:
    """The size of the file open on ``fd`` and its first ``limit`` bytes."""
    size = os.fstat(fd).st_size
    chunks, at, left = [], 0, min(size, limit)
    while left > 0:
        chunk = os.pread(fd, left, at)
        if not chunk:
            break
        chunks.append(chunk)
        at += len(chunk)
        left -= len(chunk)
    return size, b"".join(chunks)


def _tail_fd(fd: int) -> tuple[int, str]:
    """The size of the file open on ``fd`` and its last lines, decoded leniently."""
    size = os.fstat(fd).st_size
    if size == 0:
        return 0, ""
    data = os.pread(fd, _STDERR_TAIL_BYTES, max(0, size - _STDERR_TAIL_BYTES))
    lines = data.decode(errors="replace").splitlines()
    return size, "\n".join(lines[-_STDERR_TAIL_LINES:])


def _read_head(path: str, limit: int) -> tuple[int, bytes]:
    """The file's size and its first ``limit`` bytes ((0, b"") if it does not exist)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:  # the child died before making it
        return 0, b""
    try:
        size = os.fstat(fd).st_size
        chunks, left = [], min(size, limit)
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return size, b"".join(chunks)
    finally:
        os.close(fd)


def _tail(path: str) -> tuple[int, str]:
    """The file's size and its last lines, decoded leniently ((0, "") if it cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return 0, ""
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            return 0, ""
        data = os.pread(fd, _STDERR_TAIL_BYTES, max(0, size - _STDERR_TAIL_BYTES))
    finally:
        os.close(fd)
    lines = data.decode(errors="replace").splitlines()
    return size, "\n".join(lines[-_STDERR_TAIL_LINES:])


def open_runner(candidate: Candidate, limits: Limits, *, fork_server: bool = True, contain: bool = True) -> Runner:
    """A runner for ``candidate``: the fork server for a ``.py`` file (unless ``fork_server`` is
    False), else a fresh process per test; contained (see :mod:`gamecert.engine.contain`) unless
    ``contain`` is False or containment cannot work here."""
    return Runner(candidate, limits, fork_server=fork_server, contain_it=contain)
