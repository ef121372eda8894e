"""The sanitizer phase's builds of one candidate and their runs (:class:`Check`): each build
compiled (cached), its runner opened once, one input run and judged, a finding read; the command
that reproduces it. The builds, their flags and their environments are described in
:mod:`gamecert.engine.judge.sanitize`.
"""

from __future__ import annotations

import os
import resource
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.engine.judge.judge import Failure, Judge, Stats
from gamecert.engine.judge.sanitize_read import Finding, _one_line, read_finding, read_memcheck
from gamecert.engine.run.limits import Limits
from gamecert.verdict import Verdict

PHASE = "sanitizer"
#: the builds, in the order they run, and how each is named
BUILDS = {
    "asan": "-fsanitize=address,undefined",
    "pattern": "-O0 -ftrivial-auto-var-init=pattern",
    "zero": "-O0 -ftrivial-auto-var-init=zero",
}
ASAN_OPTIONS = (
    "detect_leaks=0:halt_on_error=1:abort_on_error=0:exitcode=86:handle_abort=1:print_legend=0:"
    "malloc_context_size=2:quarantine_size_mb=64:log_path=stdout"
)
UBSAN_OPTIONS = "halt_on_error=1:exitcode=87:print_stacktrace=1"
ENVIRONMENT = {
    "asan": (f"ASAN_OPTIONS={ASAN_OPTIONS}", f"UBSAN_OPTIONS={UBSAN_OPTIONS}"),
    "pattern": ("MALLOC_PERTURB_=165",),
    "zero": ("MALLOC_PERTURB_=90",),
    "memcheck": (),
}
#: what each ``-O0`` build starts memory as: the locals (the compiler's flag) and the heap (glibc
#: fills what malloc returns with the complement of ``MALLOC_PERTURB_``'s byte, freed blocks with it)
HOW = {
    "pattern": "locals 0xFE bytes, malloc's 0x5A",
    "zero": "locals zero bytes, malloc's 0xA5",
}
#: the memcheck build runs under valgrind (where installed), its report on stdout: it names the line
#: of an uninitialised read the pattern or zero build showed, and where the value was made
MEMCHECK = (
    "valgrind",
    "-q",
    "--error-exitcode=88",
    "--track-origins=yes",
    "--log-fd=1",
)  #: verdicts of a ``pattern`` or ``zero`` run that are findings (time and memory are not judged here)
WRONG = (Verdict.WA, Verdict.PE, Verdict.RE, Verdict.OLE)


@dataclass
class _Build:
    kind: str
    build: Any
    runner: Any
    judge: Judge


#: MB the asan build gets over three times the problem's limit: its quarantine (64 MB, see
#: ASAN_OPTIONS), its runtime and the shadow of what the program may hold
ASAN_EXTRA_MB = 128


def asan_memory_mb(limit_mb: int) -> int:
    """The asan build's memory cap for a problem's ``limit_mb``: what a program under the limit
    can use once AddressSanitizer's shadow (an eighth), red zones and quarantine are added, three
    times the limit and :data:`ASAN_EXTRA_MB`, and no more: a program that fills its cap takes
    the phase's time from the other builds in proportion to it (the cap was once at least 2 GB:
    eight times a 256 MB limit).

    >>> asan_memory_mb(256)
    896
    """
    return 3 * limit_mb + ASAN_EXTRA_MB


class Check:
    """Runs inputs on the sanitizer builds of one candidate; see :func:`run_phase`."""

    def __init__(
        self,
        entry: Any,
        candidate: Any,
        limits: Limits,
        *,
        contain: bool = True,
        compile: str | None = None,
        expected_cache: dict[str, Any] | None = None,
    ) -> None:
        self.entry, self.candidate, self.limits, self.contain = entry, candidate, limits, contain
        self.compile = compile
        self.cache = expected_cache if expected_cache is not None else {}
        #: the source as the messages name it: as the user gave it where that names the same file
        spec = Path(str(candidate.spec).strip()).expanduser()
        self.source = (
            str(spec)
            if spec.is_file() and spec.resolve() == Path(candidate.source).resolve()
            else str(candidate.source)
        )
        self.open: dict[str, _Build] = {}
        #: runs each build made, runs it could not judge (past its cap), answers that differed
        self.runs: dict[str, int] = dict.fromkeys(BUILDS, 0)
        self.capped: dict[str, int] = dict.fromkeys(BUILDS, 0)
        self.plain_wrong = 0
        #: the first input the judge's build, run as a judge runs it, answers wrong: a fault of
        #: the program's own that the plan's runs did not show (they passed), handed back
        self.plain_fault: tuple[Any, str] | None = None
        #: the place, in the phase's order, of the input this check's lane found something on
        self.found_at = 0
        #: runs of the phase's depth (the inputs handed in) its time left out
        self.depth_left = 0
        #: runs of the asan build judged wrong with no report of a sanitizer's
        self.asan_wrong = 0
        self._plain: Any = None

    def plain_judge(self) -> Judge:
        """A judge of the candidate as the judge builds it (its own runner, opened once)."""
        if self._plain is None:
            from gamecert.engine.run.sandbox import open_runner

            runner = open_runner(self.candidate, self.limits, contain=self.contain)
            self._plain = Judge(self.entry, runner, Stats(), expected_cache=self.cache)
        plain: Judge = self._plain
        return plain

    def memcheck(self, instance: Any, text: str) -> str:
        """valgrind's memcheck on an ``-O0 -g`` build: its first uninitialised read in the
        candidate's source, as a line ("" where valgrind is not installed or saw none)."""
        import shutil

        if shutil.which(MEMCHECK[0]) is None:
            return ""
        found = self.build("memcheck").judge.run_one(instance, PHASE, text=text, count=False)
        return read_memcheck(found.result.stdout if found is not None else "", self.source)

    def limits_of(self, kind: str) -> Limits:
        """A generous cap, never a verdict: the unoptimised builds five times the CPU time (at
        least 5 s) and twice the memory; the ``asan`` build ten times the CPU time (at least 10 s)
        and, for AddressSanitizer's shadow memory, no address-space limit, :func:`asan_memory_mb`
        of memory (under the memory cgroup where there is one) and four times the stack."""
        base = self.limits
        if kind not in ("asan", "memcheck"):
            return Limits(
                time_s=max(5 * base.time_s, 5.0),
                memory_mb=base.memory_mb * 2,
                output_bytes=base.output_bytes,
                processes=base.processes,
                stack_mb=base.stack_mb,
            )
        memory = asan_memory_mb(base.memory_mb)
        return _Unbounded(
            time_s=max(10 * base.time_s, 10.0),
            memory_mb=memory,
            output_bytes=base.output_bytes,
            processes=base.processes,
            stack_mb=4 * (base.stack_mb or base.memory_mb),
        )

    def build(self, kind: str) -> _Build:
        """The ``kind`` build, compiled (cached) and its runner open; a :class:`GamecertError`
        (a CompileError among them) says why not."""
        if kind in self.open:
            return self.open[kind]
        from gamecert.engine.run.sandbox import Candidate, open_runner
        from gamecert.engine.run.toolchains import sanitizer_build

        built = sanitizer_build(self.candidate.source, kind, compile=self.compile)
        env = _which("env")
        argv = (
            (env, *ENVIRONMENT[kind], str(built.binary))
            if ENVIRONMENT[kind]
            else (str(built.binary),)
        )
        if kind == "memcheck":
            argv = (_which(MEMCHECK[0]), *MEMCHECK[1:], *argv)
        # a command line, not a compiled candidate: exec'd per test, no fork server's preloaded shim
        # (AddressSanitizer's runtime must be the first library loaded)
        stand_in = Candidate(
            f"{self.candidate.spec} ({kind} build)", f"{self.candidate.name}-{kind}", argv, None
        )
        runner = open_runner(stand_in, self.limits_of(kind), contain=self.contain)
        judge = Judge(self.entry, runner, Stats(), expected_cache=self.cache)
        self.open[kind] = _Build(kind, built, runner, judge)
        return self.open[kind]

    def run(self, kind: str, instance: Any, text: str) -> tuple[Failure | None, Finding | None]:
        """Run one input on the ``kind`` build: the finding as a UB failure, or (None, None)."""
        b = self.build(kind)
        self.runs[kind] += 1
        found = b.judge.run_one(instance, PHASE, text=text, count=False)
        if found is None:
            return None, None
        result = found.result
        if kind == "asan":
            finding = read_finding(kind, result, self.source)
            if finding is None:
                self.capped[kind] += found.verdict in (Verdict.TLE, Verdict.MLE)
                self.asan_wrong += found.verdict not in (Verdict.TLE, Verdict.MLE)
                return None, None
        else:
            if found.verdict not in WRONG:
                self.capped[kind] += 1
                return None, None
            # the judge's build started as these builds are (an exec per run, never the fork
            # server's clone): a program that answers right only as a clone is not called UB
            plain = self.plain_judge().run_one(instance, PHASE, text=text, count=False, fresh=True)
            if plain is not None:
                self.plain_wrong += 1  # the judge's build is wrong here too: a fault, not UB
                if self.plain_fault is None:
                    self.plain_fault = (instance, text)
                return None, None
            how = HOW[kind]
            finding = Finding(
                kind,
                "uninitialised memory",
                "",
                f"built with {BUILDS[kind]} ({how}) the program answers {found.verdict} "
                f"({_one_line(found.reason)}) where the judge's build answers right: it reads "
                "memory before it sets it",
            )
        ub = Failure(
            Verdict.UB,
            instance,
            text,
            found.expected_text,
            found.got_text,
            finding.line,
            PHASE,
            found.size,
            result,
            expected_source=found.expected_source,
            rerun_where=f"on the {kind} build",
        )
        return ub, finding

    def reproduce(self, kind: str) -> str:
        """The commands that show the finding again: the build's compile command, the source named
        as given, and its run line on ``input.in`` (the report's input)."""
        b = self.open[kind]
        folder = str(Path(b.build.binary).parent)
        exe = f"./{self.candidate.name}-{kind}"
        words = [
            exe
            if w == str(b.build.binary)
            else self.source
            if w.startswith(folder + os.sep + "main.")
            else w
            for w in b.build.compile_command
        ]
        run = [
            *ENVIRONMENT[kind],
            *(shlex.join(MEMCHECK).split() if kind == "memcheck" else ()),
            exe,
        ]
        return f"{shlex.join(words)} && {' '.join(run)} < input.in"

    def close(self) -> None:
        for b in self.open.values():
            b.runner.close()
        self.open.clear()
        if self._plain is not None:
            self._plain.runner.close()
            self._plain = None


class _Unbounded(Limits):
    """Limits without an address-space cap (AddressSanitizer reserves terabytes it never uses)."""

    def address_space_bytes(self, python: bool) -> int:
        return resource.RLIM_INFINITY


class _Again:
    """A judge for :func:`gamecert.engine.judge.shrinking.minimise`: an input fails when the same
    build fires again at the same place."""

    def __init__(self, check: Check, kind: str, finding: Finding) -> None:
        self.check, self.kind, self.finding = check, kind, finding
        self.game = check.entry.game
        self.rerun_where = f"on the {kind} build"

    def run_one(
        self,
        instance: Any,
        phase: str,
        text: str | None = None,
        count: bool = True,
        what: str = "",
        fresh: bool = False,
    ) -> Failure | None:
        text = self.game.format_input(instance) if text is None else text
        failure, finding = self.check.run(self.kind, instance, text)
        return failure if finding is not None and finding.site == self.finding.site else None


def _which(name: str) -> str:
    """The absolute path of a system program (``env``), for the sanitizer builds' command lines."""
    import shutil

    found = shutil.which(name) or f"/usr/bin/{name}"
    return os.path.abspath(found)


def _why_not(exc: Exception, candidate: Any) -> str:
    """Why a build could not be made, in a line: a compile error's first error line, the source
    named by its file name."""
    output = getattr(exc, "output", None)
    if not isinstance(output, str):
        return _one_line(str(exc))
    first = next((line for line in output.splitlines() if "error" in line.lower()), str(exc))
    name = Path(str(candidate.source)).name
    return "it does not compile: " + _one_line(first.replace(str(candidate.source), name))


__all__ = [
    "ASAN_OPTIONS",
    "BUILDS",
    "ENVIRONMENT",
    "HOW",
    "MEMCHECK",
    "PHASE",
    "UBSAN_OPTIONS",
    "WRONG",
    "Check",
]
