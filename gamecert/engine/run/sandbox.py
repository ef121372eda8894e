"""Running untrusted candidate programs under OS limits, one test at a time.

A :class:`Candidate` is what the user named (a source file, an executable, or a command line);
:func:`open_runner` gives a :class:`Runner` whose :meth:`Runner.run` feeds one input and returns a
:class:`RunResult`: the status (``ok``, ``re``, ``tle``, ``mle``, ``ole``), the output and the
evidence (exit code, signal, CPU and wall time, peak memory, the tail of stderr).

Every candidate process is started by a supervisor (see :mod:`gamecert.engine.run.supervisor.server`),
inside a sandbox (:mod:`gamecert.engine.run.contain`) where the supervisor is PID 1 and out of the
candidate's reach. Every test is a fresh process: an executable is exec'd anew, a ``.py``
candidate is forked from a zygote that compiled it once, a native one cloned from the native
fork server (:meth:`Runner.run_plain` runs ``python FILE``, or execs the program, instead, as a
judge does, for confirming faults and auditing passes). A test's
stdin and stdout are anonymous files made here and passed as descriptors; the harness never
opens a name the candidate can change. What is enforced:

* **CPU time** decides TLE: every process of the test is charged (the supervisor reaps them all
  with ``wait4``); the watch kills at the limit; ``RLIMIT_CPU`` is a backstop. A TLE within 20%
  above the limit, or a wall-clock stop with CPU time under it, is re-run quietly (:data:`GATE`);
  the re-run's result stands (``RunResult.note`` says so).
* **Wall clock**: ``wall_s = max(2 * time_s, time_s + 1)`` for a test that is idle or blocked; a test
  still running (or waiting for a CPU) under its CPU limit is only slowed by a busy machine and
  gets more, up to ``max(10 * time_s, time_s + 10)``: a load spike is not a verdict.
* **Memory** used, all of the test: the memory cgroup's peak (:mod:`.memcg`, as root), the
  sampled RSS and ``ru_maxrss``; ``RLIMIT_AS`` is a backstop, a JVM gets ``-Xmx`` = the limit.
* **Stack**: ``RLIMIT_STACK`` = the memory limit unless ``stack_mb`` says otherwise, as judges do.
* **Output**: ``RLIMIT_FSIZE`` = ``output_bytes + 1``; stdout longer than ``output_bytes`` (or
  ``SIGXFSZ``) is OLE. stderr is never a verdict: its last lines are kept, the rest discarded.
* **Processes**: all counted and killed when the test ends; capped by a pids cgroup (root) or
  ``RLIMIT_NPROC`` (:mod:`.cgroups`; ``Runner.accounting`` says which, and how memory was measured).
* **Scratch**: the working folder is the sandbox's size-capped box, emptied after every test;
  files past :data:`BOX_FILES` stop the test.
* **Core dumps** are off (``RLIMIT_CORE`` = 0).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamecert.engine.run import cgroups, contain, memcg, native_shim
from gamecert.engine.run.forkserver import SERVER_FILE, ForkServerClient, Lookahead
from gamecert.engine.run.limits import Limits, cpu_over
from gamecert.engine.run.testio import GATE, _read_head_fd, _tail_lines, _test_files
from gamecert.errors import GamecertError, UsageError

if TYPE_CHECKING:
    from gamecert.engine.run.toolchains import Build

STATUSES = ("ok", "re", "tle", "mle", "ole")
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
    #: how the test's process started: "native" (fork server), "zygote" or "exec"
    started: str = ""

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
        tail = " | ".join(
            s.strip() for s in self.stderr_tail.strip().splitlines()[-3:] if s.strip()
        )
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
        path_like = os.path.isdir(word) or "/" in word or "." in word
        if not word.startswith("-") and os.path.exists(word) and path_like:
            word = os.path.abspath(word)
        out.append(word)
    return out


@dataclass(frozen=True)
class Candidate:
    """A program to certify, as the user named it, with its provenance.

    ``language`` is the source language (see :mod:`gamecert.engine.run.toolchains`), ``executable`` for a
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
    def parse(
        cls, spec: str, *, compile: str | None = None, python: str | None = None
    ) -> Candidate:
        """A source file (compiled once, see :mod:`gamecert.engine.run.toolchains`), an executable file, or
        a command line whose first word is on PATH. ``compile`` overrides the compile command of
        a compiled source; ``python`` names the interpreter of a ``.py`` source (default: this
        Python, through the fork server). A source that does not compile raises
        :class:`gamecert.engine.run.toolchains.CompileError`.

        >>> Candidate.parse("sh -c true").argv[1:]
        ('-c', 'true')
        >>> Candidate.parse("sh -c true").name
        'sh'
        """
        from gamecert.engine.run import sources, toolchains

        text = spec.strip()
        if not text:
            raise UsageError(
                "the candidate is empty: give a source file, an executable or a command line"
            )
        path = Path(text).expanduser()
        if path.exists():
            if path.is_dir():
                raise UsageError(
                    f"candidate {spec!r} is a folder; give a program file or a command line"
                )
            if toolchains.language_of(path) is not None:
                return cls._from_build(
                    spec, path, sources.prepare(path, compile=compile, python=python), python
                )
        if compile is not None or python is not None:
            option = "--compile" if compile is not None else "--python"
            raise UsageError(
                f"{option} applies to a source file candidate, and {spec!r} is not one"
            )
        if path.exists():
            if not path.is_file():
                raise UsageError(f"candidate {spec!r} is not a regular file")
            if not os.access(path, os.X_OK):
                from gamecert.engine.run.sources import run_hint

                raise UsageError(f"candidate {spec!r} is not executable; {run_hint(text)}")
            resolved = path.resolve()
            return cls(
                spec,
                _safe_name(path.stem),
                (str(resolved),),
                None,
                language="executable",
                binary=resolved,
                binary_sha256=_sha256_file(resolved),
            )
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
    def _from_build(cls, spec: str, path: Path, build: Build, python: str | None) -> Candidate:
        """A candidate from a :class:`gamecert.engine.run.toolchains.Build`; a ``.py`` source without
        ``python`` keeps ``python_file`` (run by the fork server)."""
        python_file = build.source if build.language == "python" and python is None else None
        return cls(
            spec,
            _safe_name(path.stem),
            build.argv,
            python_file,
            language=build.language,
            source=build.source,
            binary=build.binary,
            compile_command=build.compile_command,
            compiler_version=build.compiler_version,
            source_sha256=build.source_sha256,
            binary_sha256=build.binary_sha256,
        )


def _sha256_file(path: Path) -> str:
    """The file's sha256, or "" if it cannot be read (an executable without read permission)."""
    from gamecert.engine.run import toolchains

    try:
        return toolchains._sha256_file(path)
    except OSError:
        return ""


def judge_argv(argv: list[str], limits: Limits) -> list[str]:
    """The command line as a judge runs it: a JVM gets ``-Xmx`` equal to the memory limit (its
    default heap grows with the machine's memory), unless the command line sets one.

    >>> judge_argv(["/usr/bin/java", "-cp", "d", "Main"], Limits(memory_mb=256))
    ['/usr/bin/java', '-Xmx256m', '-cp', 'd', 'Main']
    >>> judge_argv(["/usr/bin/java", "-Xmx64m", "Main"], Limits())[1]
    '-Xmx64m'
    """
    if argv and os.path.basename(argv[0]) == "java" and not any(w.startswith("-Xmx") for w in argv):
        return [argv[0], f"-Xmx{limits.memory_mb}m", *argv[1:]]
    return argv


def _scratch_root() -> str | None:
    """Where a runner that is not contained keeps its box: $GAMECERT_TMPDIR, else /dev/shm
    when writable, else the system's temporary folder."""
    chosen = os.environ.get("GAMECERT_TMPDIR")
    if chosen:
        return chosen
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK):
        return "/dev/shm"
    return None


def candidate_environment(home: str) -> dict[str, str]:
    """The environment a candidate runs in, as a judge gives it: the harness's ``PATH`` (so a
    command line finds its interpreter), ``HOME`` and ``TMPDIR`` in the candidate's box, a UTF-8
    locale, and nothing else of the user's (no tokens, no ``PYTHONPATH``, no sign of gamecert).

    >>> sorted(candidate_environment("/box"))
    ['HOME', 'LANG', 'PATH', 'TMPDIR']
    """
    return {
        "PATH": os.environ.get("PATH") or os.defpath,
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
    }


#: languages whose programs may run through the native fork server (when dynamically linked)
NATIVE_LANGUAGES = ("c", "cpp", "rust", "go", "executable")
#: the names in the supervisor's private copy of the shim and of its per-test loop (supervisor/_sv_fast.py)
NATIVE_SHIM_NAME, TESTLOOP_NAME = "libpreinit.so", "libtestloop.so"
#: files and folders a test may make in its box (the watch kills the test past it)
BOX_FILES = 10_000
#: how far the sandbox's cpuacct figure must exceed wait4's to be the test's CPU time (see docs/certify.md)
CG_CPU_SLACK_S = 0.01


class Runner:
    """Runs one candidate on one input at a time; a context manager. See :func:`open_runner`."""

    def __init__(
        self,
        candidate: Candidate,
        limits: Limits,
        *,
        fork_server: bool = True,
        contain_it: bool = True,
    ) -> None:
        self.candidate = candidate
        self.limits = limits
        self.mode = (
            "fork-server" if candidate.python_file is not None and fork_server else "fresh-process"
        )
        #: whether (and how) the candidate runs contained; see :mod:`gamecert.engine.run.contain`
        self.containment = contain.probe(contain_it)
        contain.warn_if_not_contained(self.containment)
        contained = self.containment.enabled
        self._private: str | None = None
        if contained:
            box = contain.BOX
        else:
            try:
                self._private = tempfile.mkdtemp(prefix="tmp", dir=_scratch_root())
                box = os.path.join(self._private, "box")
                os.mkdir(box, 0o755)
            except OSError as exc:
                scratch = _scratch_root()
                where = (
                    f"{scratch} (from $GAMECERT_TMPDIR)"
                    if os.environ.get("GAMECERT_TMPDIR")
                    else (scratch or "/tmp")
                )
                raise UsageError(
                    f"cannot make a scratch folder for the candidate in {where}: "
                    f"{exc.strerror or exc}"
                ) from None
        python = contain.base_python()
        python_file = str(candidate.python_file) if candidate.python_file else None
        self._build_copy: str | None = None
        argv = self._neutral_build(list(candidate.argv))
        plain = [python, python_file] if python_file else judge_argv(argv, limits)
        shim, why = self._native_plan(plain)
        #: how each test's process starts: the native fork server, or why not (see :attr:`startup`)
        self.starts: dict[str, int] = {}
        self._exec_why = ""
        self._startup = (
            "zygote: a fork of the compiled program per test"
            if self.mode == "fork-server"
            else "native fork server: a fresh copy of the program's image per test"
            if shim
            else f"exec per test ({why})"
        )
        spare = (
            1 if shim else 0
        )  # the fork server is a process of the sandbox, beside the supervisor
        root = (
            os.geteuid() == 0
        )  # (and a zygote's serve loop parks the next test's process: testloop.c, tl_park)
        parks = (
            contained
            and root
            and self.mode == "fork-server"
            and native_shim.testloop_status()[0] is not None
        )
        self.cap = (
            cgroups.process_cap(limits.processes + 2 + spare + parks)
            if contained and root
            else None
        )
        if self.cap is not None:  # (opens pids.events, which the supervisor reads after each test)
            self.cap.refused()
        loop = (
            native_shim.testloop_status()[0]
            if contained
            and (
                self.mode == "fork-server"
                or shim
                and self.cap
                and self.cap.current_fd() is not None
            )
            else None
        )
        nproc = 0
        if (
            not root
        ):  # contained, the sandbox's user counts alone (its own user namespace): the test's
            # tasks and the supervisor; not contained, every task of the user counts
            nproc = (
                limits.processes + 1 if contained else cgroups.user_task_count() + limits.processes
            ) + spare
        #: the test's memory as one figure: a memory cgroup (contained, as root), or None
        self.memory = (
            memcg.memory_cap(limits.memory_mb) if contained and root else None
        )  # and the certificate's line:
        self.cpu = (
            cgroups.cpu_group() if contained and root else None
        )  # the sandbox's CPU time (cpuacct)
        self.accounting = (
            f"{cgroups.accounting(self.cap, contained, nproc, self.cpu is not None)}; "
            f"{memcg.line(self.memory, contained)}"
        )
        config = {
            "mode": "python" if self.mode == "fork-server" else "exec",
            "argv": plain,
            "plain_argv": plain,
            "python_file": python_file,
            "box": box,
            "scratch": [box, "/tmp"] if contained else [box],
            "contained": contained,
            "env": candidate_environment(box),
            "limits": limits.supervisor_limits(
                python=self.mode == "fork-server",
                nproc=nproc,
                scratch_bytes=contain.BOX_BYTES if contained else 0,
                files=BOX_FILES if contained else 0,
            ),
            "native_shim": (
                os.path.join(contain.JUDGE_DIR, NATIVE_SHIM_NAME) if contained else shim
            )
            if shim
            else None,
            "memcg": self.memory.config() if self.memory is not None else None,
            "pids_events": self.cap._events if self.cap is not None else None,
            "cpuacct": self.cpu.fd if self.cpu is not None else None,
            "pids_current": self.cap.current_fd() if loop and self.cap else None,
            "testloop": os.path.join(contain.JUDGE_DIR, TESTLOOP_NAME)
            if loop
            else None,  # (contained only)
        }
        env = candidate_environment(box)
        if self.mode == "fork-server":
            env["STACK_BYTES"] = str(limits.stack_bytes)  # read and removed by the server at start
        if contained:
            server = os.path.join(contain.JUDGE_DIR, "server.py")
            dark = contain.dark_net_prefix()
            prefix = contain.wrap(
                [],
                writable=[],
                workdir="/",
                containment=self.containment,
                box=True,
                supervisor=contain.supervisor_copy({NATIVE_SHIM_NAME: shim, TESTLOOP_NAME: loop}),
                readable=contain.program_paths(plain, python_file),
                dark_net=bool(dark),
            )
            prefix = [*dark, *prefix]
            joins = [group.path for group in (self.cap, self.cpu) if group is not None]
            if joins:
                prefix = [*cgroups.join_prefix(joins), *prefix]
        else:
            server, prefix = SERVER_FILE, []
        try:
            self._client: ForkServerClient | None = ForkServerClient(
                config,
                server_argv=[python, server],
                launch_prefix=prefix,
                env=env,
                pass_fds=(
                    *(self.memory.inherited() if self.memory else ()),
                    *(self.cap.fds(bool(loop)) if self.cap else ()),
                    *((self.cpu.fd,) if self.cpu else ()),
                ),
            )
            self._ahead = Lookahead(self._client, _test_files, GATE)
        except RuntimeError as exc:  # the supervisor did not start: say why in one line
            self._cleanup()
            tail = " | ".join(line.strip() for line in str(exc).splitlines()[1:] if line.strip())[
                -300:
            ]
            raise GamecertError(
                f"cannot start the supervisor for candidate {candidate.spec!r}"
                f"{': ' + tail if tail else ''}"
            ) from None
        except BaseException:
            self._cleanup()
            raise

    def _neutral_build(self, argv: list[str]) -> list[str]:
        """A compiled candidate runs from a private copy of its build (the program, or Java's
        class files; not the build's record or source), so that nothing it can read (its command
        line, its mounts) names the build cache's path; the copy is byte for byte the verified
        build, whose sha256 the reports give."""
        candidate = self.candidate
        binary = candidate.binary
        if (
            binary is None
            or candidate.source is None
            or candidate.language in ("python", "executable", "command")
        ):
            return argv
        entry = str(binary if binary.is_dir() else binary.parent)
        try:
            self._build_copy = tempfile.mkdtemp(prefix="tmp")
            target = os.path.join(self._build_copy, "b")
            shutil.copytree(
                entry,
                target,
                ignore=shutil.ignore_patterns(
                    "build.json", "main.*", "*.java", "*.rs", "*.go", "*.cpp", "*.c"
                ),
            )
            os.chmod(self._build_copy, 0o755)
        except OSError as exc:
            raise GamecertError(
                f"cannot copy the build of {candidate.spec!r}: {exc.strerror or exc}"
            ) from None
        return [
            target + word[len(entry) :]
            if word == entry or word.startswith(entry + os.sep)
            else word
            for word in argv
        ]

    def _native_plan(self, argv: list[str]) -> tuple[str | None, str]:
        """The shim for the native fork server, or None and why each test is exec'd instead."""
        from gamecert.engine.run import native_shim

        if self.mode == "fork-server":
            return None, "a Python candidate"
        return native_shim.plan(self.candidate.language, argv, NATIVE_LANGUAGES)

    @property
    def startup(self) -> str:
        """How tests start: the plan, and once tests ran, how many started which way where a
        planned native fork server was not used for all of them (and why)."""
        native, execd = self.starts.get("native", 0), self.starts.get("exec", 0)
        if not self._startup.startswith("native") or not execd:
            return self._startup
        return f"{self._startup}; {execd} of {native + execd} runs exec'd ({self._exec_why or 'plain runs'})"

    @property
    def rerun_where(self) -> str:
        """Where the re-runs that confirm a fault run (for reports)."""
        if self.mode == "fork-server":
            return "in plain `python FILE` processes, as a judge runs the program"
        return "in fresh processes, as a judge runs the program"

    @property
    def persistent(self) -> bool:
        """Whether one process runs several tests: never (every test is a fresh process)."""
        return False

    @property
    def server_pid(self) -> int | None:
        """The host pid of the supervisor's launcher (for diagnostics), or None once closed."""
        return self._client.pid if self._client is not None else None

    @property
    def supervisor_pids(self) -> set[int]:
        """The host pids of the supervisor and its launcher (for diagnostics)."""
        if self._client is None:
            return set()
        return {p for p in (self._client.pid, self._client.server_host_pid) if p is not None}

    def run(self, input_text: str) -> RunResult:
        """Run the candidate once on ``input_text`` (a fresh process), with time verdicts
        confirmed as a judge would want them.

        A test stopped by the wall clock with CPU time under the limit is re-run quietly (no other
        run of this process at the same time, see :data:`GATE`); if that happens again it is TLE
        as idle or blocked. A TLE whose CPU time is within 20% above the limit is re-run quietly
        too (a loaded machine slows programs down); the re-run's result stands, with a ``note``
        saying so.
        """
        first, killed = self._run_once(input_text, plain=False)
        if first.status != "tle":
            return first
        limit = self.limits.time_s
        if killed == "wall" and first.cpu_s < limit:
            second, again = self._run_once(input_text, plain=False, quiet=True)
            if second.status == "tle" and again == "wall" and second.cpu_s < limit:
                return replace(second, note=f"re-run: idle again ({first.describe()})")
            return replace(
                second,
                note=f"re-run after a wall-clock stop with CPU time "
                f"{first.cpu_s:.3f} s under the limit (first run: {first.describe()})",
            )
        if first.cpu_s <= 1.2 * limit:
            second, _ = self._run_once(input_text, plain=False, quiet=True)
            verb = "confirmed" if second.status == "tle" else "not confirmed"
            return replace(
                second,
                note=f"TLE with CPU time within 20% of the limit, {verb} by a re-run "
                f"(first run: CPU time {first.cpu_s:.3f} s)",
            )
        return first

    def expect(self, texts) -> None:
        """The inputs the next :meth:`run` calls will be, in order: each is sent ahead while the one before runs."""
        self._ahead.expect(texts)

    def run_fresh(self, input_text: str, quiet: bool = True) -> RunResult:
        """Run the candidate once on ``input_text`` exactly as a judge runs it (``python FILE``
        for a Python candidate, an exec of the program otherwise, never a fork server's clone),
        ``quiet`` (see :data:`GATE`) for confirming a failure, not for an audit; no re-runs."""
        return self._run_once(input_text, plain=True, quiet=quiet)[0]

    run_plain = run_fresh

    def _run_once(
        self, input_text: str, plain: bool, quiet: bool = False
    ) -> tuple[RunResult, str | None]:
        """One run and why the watchdog stopped it (``wall``, ``cpu``, ``memory``,
        ``processes``, ``files`` or None)."""
        if self._client is None:
            raise RuntimeError("this runner is closed")
        made: list[int] = []
        try:  # (the forks the pids cgroup refused during the test: the supervisor reads them)
            report = self._ahead.run(
                input_text, not plain and not quiet, quiet, plain, made
            )  # (P: a plain run, never a clone of the native fork server)
            if self.cap is not None:
                self.cap.keep_alive()
            out_size, out_bytes = _read_head_fd(made[2], self.limits.output_bytes)
        finally:
            for fd in made:
                os.close(fd)
        stderr_tail = _tail_lines(report.get("stderr_tail", b""))
        result = self._classify(report, out_size, out_bytes.decode(errors="replace"), stderr_tail)
        started = (
            "native"
            if report.get("native")
            else "plain"
            if plain
            else "zygote"
            if self.mode == "fork-server"
            else "exec"
        )
        self.starts[started] = self.starts.get(started, 0) + 1
        self._exec_why = report.get("native_why") or self._exec_why
        return replace(result, started=started), report.get("killed")

    def _classify(self, report: dict, out_size: int, stdout: str, stderr_tail: str) -> RunResult:
        limits = self.limits
        if report.get("lost"):
            return RunResult(
                "re",
                stdout,
                stderr_tail,
                None,
                None,
                0.0,
                0.0,
                0.0,
                "the candidate's supervisor died during the test",
            )
        status_word = report["status"]
        exit_code = os.WEXITSTATUS(status_word) if os.WIFEXITED(status_word) else None
        sig = os.WTERMSIG(status_word) if os.WIFSIGNALED(status_word) else None
        cpu = report["utime"] + report["stime"]
        if (
            report.get("cg_cpu", 0) > cpu + CG_CPU_SLACK_S
        ):  # processes no wait4 reported (SIGCHLD ignored)
            cpu = report["cg_cpu"]
        cg_kb = report.get("cg_kb", 0)  # the figure shown is the one compared:
        rss_mb = round(max(report["maxrss_kb"], cg_kb) / 1024, 2)
        killed = report["killed"]
        common = (
            stdout,
            stderr_tail,
            exit_code,
            sig,
            round(cpu, 6),
            round(report["wall"], 6),
            round(rss_mb, 2),
        )
        extra: dict[str, Any] = {"fresh": True}
        measured = (
            "all of the test, memory cgroup peak"
            if cg_kb > max(report["sampled_kb"], report["maxrss_kb"])
            else "group RSS, sampled"
            if report["sampled_kb"] >= report["maxrss_kb"]
            else "peak RSS"
        )
        used = f"memory used {rss_mb:.1f} MB ({measured})"
        if report.get("refused"):
            return RunResult(
                "re",
                *common,
                f"process limit exceeded: {report['refused']} process creations refused "
                f"at the cap of {limits.processes} processes; all killed",
                **extra,
            )
        if killed == "processes":
            return RunResult(
                "re",
                *common,
                f"process limit exceeded: {report['peak_tasks']} tasks > {limits.processes}; all killed",
                **extra,
            )
        if killed == "files":
            return RunResult(
                "re",
                *common,
                f"file limit exceeded: {report['files']} files in the working folder > "
                f"{BOX_FILES}; all killed",
                **extra,
            )
        if out_size > limits.output_bytes or sig == getattr(signal, "SIGXFSZ", None):
            return RunResult(
                "ole",
                *common,
                f"output limit exceeded: more than {limits.output_bytes} bytes",
                **extra,
            )
        if killed == "memory":
            return RunResult(
                "mle", *common, f"{used} >= limit {limits.memory_mb} MB; all killed", **extra
            )
        if report.get("cg_oom"):
            return RunResult(
                "mle",
                *common,
                f"the memory controller ran out at {limits.memory_mb} MB + "
                f"{memcg.HEADROOM_MB} MB headroom and killed {report['cg_oom']} of its processes; {used}",
                **extra,
            )
        if (
            killed == "wall" and cpu <= limits.time_s
        ):  # (over the CPU limit too: a CPU TLE, said as one)
            return RunResult(
                "tle",
                *common,
                f"idle or blocked: wall-clock time {report['wall']:.3f} s reached the "
                f"limit {limits.wall_s:g} s with CPU time {cpu:.3f} s; all killed",
                **extra,
            )
        if killed == "cpu" or sig == signal.SIGXCPU or cpu > limits.time_s:
            return RunResult("tle", *common, cpu_over(cpu, limits.time_s, killed == "cpu"), **extra)
        if rss_mb >= limits.memory_mb:
            return RunResult("mle", *common, f"{used} >= limit {limits.memory_mb} MB", **extra)
        if exit_code == 0:
            return RunResult("ok", *common, **extra)
        failed_alloc = next((m for m in _MEMORY_MARKERS if m in stderr_tail), None)
        if failed_alloc and rss_mb >= 0.8 * limits.memory_mb:
            return RunResult(
                "mle",
                *common,
                f"{used}, near the limit {limits.memory_mb} MB, and the program "
                f"reported a failed allocation ({failed_alloc})",
                **extra,
            )
        what = (
            f"killed by {_signal_name(sig)} (signal {sig})"
            if sig is not None
            else f"exit code {exit_code}"
        )
        if failed_alloc:
            backstop = limits.address_space_bytes(self.mode == "fork-server") >> 20
            what += (
                f"; the program reported a failed allocation ({failed_alloc}) with {used}, under the "
                f"limit: it asked for more than the {backstop} MB address-space cap"
            )
        return RunResult("re", *common, what, **extra)

    def _cleanup(self) -> None:
        build_copy = getattr(self, "_build_copy", None)  # (None if __init__ failed before it)
        if build_copy:
            shutil.rmtree(build_copy, ignore_errors=True)
            self._build_copy = None
        for cap in (
            self.cap,
            getattr(self, "memory", None),
            getattr(self, "cpu", None),
        ):  # pids, memory, cpuacct
            if cap is not None:
                cap.close()
        self.cap = self.memory = self.cpu = None
        if self._private is not None:
            shutil.rmtree(self._private, ignore_errors=True)
            self._private = None

    def close(self) -> None:
        """Stop the supervisor (and anything left running) and remove what the runner made."""
        if self._client is not None:
            self._ahead.drain(wait=False)
            self._client.close()
            self._client = None
        self._cleanup()

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_runner(
    candidate: Candidate, limits: Limits, *, fork_server: bool = True, contain: bool = True
) -> Runner:
    """A runner for ``candidate``: the fork server for a ``.py`` file (unless ``fork_server`` is
    False), else a fresh process per test; contained (see :mod:`gamecert.engine.run.contain`) unless
    ``contain`` is False or containment cannot work here."""
    return Runner(candidate, limits, fork_server=fork_server, contain_it=contain)
