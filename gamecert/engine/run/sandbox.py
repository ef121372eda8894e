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
import shutil
import tempfile
from dataclasses import replace

from gamecert.engine.run import cgroups, contain, memcg, native_shim
from gamecert.engine.run.candidate import Candidate, _safe_name, _sha256_file  # noqa: F401
from gamecert.engine.run.forkserver import SERVER_FILE, ForkServerClient, Lookahead
from gamecert.engine.run.limits import Limits
from gamecert.engine.run.results import (  # noqa: F401 - imported from here too
    BOX_FILES,
    CG_CPU_SLACK_S,
    STATUSES,
    RunResult,
    classify,
)
from gamecert.engine.run.testio import GATE, _read_head_fd, _tail_lines, _test_files
from gamecert.errors import GamecertError, UsageError


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
        return classify(report, out_size, stdout, stderr_tail, self.limits, self.mode)

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
