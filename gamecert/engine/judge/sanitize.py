"""Undefined behaviour as a finding: the sanitizer phase of a C or C++ candidate.

A program that answers right as the judge compiles it may still rest on undefined behaviour
(a signed overflow that wraps, a read one past an array, a variable read before it is set, a
shift past the width): another judge's compiler, or the next version of this one, can make it
answer wrong. After the plan has run, a candidate built from a C or C++ source runs again on the
inputs that matter (:func:`inputs_that_matter`: the samples, the worst cases, the largest
inputs, every fault found, and any list of inputs handed in) in three more builds
(:data:`gamecert.engine.run.toolchains.SANITIZER_FLAGS`), never timed but each run capped:

- ``asan``: AddressSanitizer and UndefinedBehaviorSanitizer at ``-O1 -g``, every finding fatal:
  a run the sanitizer stops is a finding, named by its message and the source line;
- ``pattern`` and ``zero``: the judge's compile command at ``-O0`` with every automatic variable
  started as 0xFE bytes (and, through glibc's ``MALLOC_PERTURB_=165``, what ``malloc`` returns
  as 0x5A bytes, freed blocks as 0xA5) or as zero bytes: a run judged wrong (WA, PE, RE, OLE)
  where the judge's build answers right is a finding, the program's answer rests on memory it
  reads before it sets it. GCC has
  no MemorySanitizer; at ``-O1`` and ``-O2`` it takes a variable set on one path only to hold
  that value on every path, so neither valgrind's memcheck nor an initialised build at ``-O2``
  sees such a read (tests/ub_wrong/digit_uninit_branch.c); at ``-O0`` every read is made as
  written, as another compiler may make it.

A finding is shrunk by the structural shrinker and the game's own moves
(:func:`gamecert.engine.judge.shrinking.minimise`), a smaller input counting when the same build
fires again at the same place; the judge's build then runs on the input found. With no fault of
the plan's own, the finding becomes the certification's verdict, UB; beside a fault, it is a
note of that fault's report. ``GAMECERT_SANITIZE=0`` turns the phase off.
"""

from __future__ import annotations

import os
import re
import resource
import shlex
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gamecert.engine.judge.judge import Failure, Judge, Stats
from gamecert.engine.plan.plan import SHRINK_SECONDS
from gamecert.engine.run.limits import Limits
from gamecert.errors import GamecertError
from gamecert.verdict import Verdict

#: ``GAMECERT_SANITIZE=0`` turns the phase off
ENV = "GAMECERT_SANITIZE"
LANGUAGES = ("c", "cpp")
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
    "zero": (),
    "memcheck": (),
}
#: the memcheck build runs under valgrind (where installed), its report on stdout: it names the line
#: of an uninitialised read the pattern or zero build showed, and where the value was made
MEMCHECK = ("valgrind", "-q", "--error-exitcode=88", "--track-origins=yes", "--log-fd=1")
#: inputs of each worst-case family run, and of all inputs at most
PER_FAMILY, MAX_INPUTS = 4, 64
#: the phase's wall time at most, builds included, within the certification's budget: this share
#: of it, at most CAP_SECONDS (its inputs are few: the samples, worst and largest inputs, the
#: guided corpus); what it does not use goes to the phases after it
SHARE, CAP_SECONDS = 0.25, 15.0
#: what the sanitizer itself runs out of (its deeper frames, its allocator's own limits): not the
#: program's undefined behaviour
NOT_FINDINGS = (
    "stack-overflow",
    "out-of-memory",
    "out of memory",
    "allocation-size-too-big",
    "requested allocation size",
    "rss-limit-exceeded",
    "malloc-limit-exceeded",
    "calloc-overflow",
    "failed to allocate",
    "allocator is out of memory",
)
#: verdicts of a ``pattern`` or ``zero`` run that are findings (time and memory are not judged here)
WRONG = (Verdict.WA, Verdict.PE, Verdict.RE, Verdict.OLE)

_UBSAN = re.compile(r"^(?P<loc>\S+?:\d+(?::\d+)?): runtime error: (?P<what>.+)$", re.M)
_ASAN = re.compile(r"ERROR: AddressSanitizer: (?P<kind>[\w-]+)(?P<rest>[^\n]*)")
_ACCESS = re.compile(r"^(?:READ|WRITE) of size \d+", re.M)
_FRAME = re.compile(
    r"^\s*#\d+ 0x[0-9a-f]+ in (?P<func>.+?) (?P<loc>/?[^\s()]+?:\d+)(?::\d+)?$", re.M
)
_ASSERT = re.compile(r"Assertion '(?P<cond>.*)' failed")
_BUILT = re.compile(r"[^\s:'\"()]*/main\.(?:c|cpp)(?=:\d)")


@dataclass(frozen=True)
class Finding:
    """What a sanitizer build showed on one run: ``line`` is its message (the source named as the
    user named it), ``where`` the line of the candidate's source it points at ("" if none)."""

    build: str
    kind: str
    where: str
    line: str

    @property
    def site(self) -> tuple[str, str, str]:
        return self.build, self.kind, self.where


def applies(candidate: Any) -> str:
    """Why the phase does not run for ``candidate`` ("" when it does)."""
    if os.environ.get(ENV, "").strip() == "0":
        return f"{ENV}=0"
    if (
        getattr(candidate, "language", "") not in LANGUAGES
        or getattr(candidate, "source", None) is None
    ):
        return "not a C or C++ source"
    return ""


def read_finding(build: str, result: Any, source: str) -> Finding | None:
    """The sanitizer's finding in a run of the ``asan`` build (its report is on stdout, the
    UndefinedBehaviorSanitizer's and libstdc++'s on stderr), or None.

    >>> r = type("R", (), {"stdout": "", "stderr_tail": "/b/.building-x/main.c:7:9: runtime error: "
    ...          "signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\\n"})()
    >>> read_finding("asan", r, "t.c")
    Finding(build='asan', kind='signed integer overflow', where='t.c:7', line="t.c:7:9: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'")
    """
    text = _BUILT.sub(lambda m: source, f"{result.stdout}\n{result.stderr_tail}")
    ours = [
        m.group("loc") for m in _FRAME.finditer(text) if m.group("loc").startswith(source + ":")
    ]
    ub = _UBSAN.search(text)
    if ub is not None:
        loc = ub.group("loc")
        where = (
            ":".join(loc.split(":")[:2])
            if loc.startswith(source + ":")
            else (ours[0] if ours else loc)
        )
        kind = re.split(r"[:0-9']", ub.group("what"), maxsplit=1)[0].strip(" -") or "runtime error"
        return Finding(build, kind, where, f"{loc}: runtime error: {ub.group('what').strip()}")
    asan = _ASAN.search(text)
    if asan is not None:
        kind = asan.group("kind")
        if any(phrase in text for phrase in NOT_FINDINGS):
            return None
        access = _ACCESS.search(text)
        asserted = _ASSERT.search(text)
        where = ours[0] if ours else next((m.group("loc") for m in _FRAME.finditer(text)), "")
        what = (
            f"libstdc++ assertion {asserted.group('cond')!r} failed"
            if asserted and kind in ("ABRT", "SIGABRT")
            else f"AddressSanitizer: {kind}" + (f" ({access.group()})" if access else "")
        )
        return Finding(build, what.split(" (")[0], where, f"{where or '?'}: {what}")
    return None


_VG_ERROR = re.compile(
    r"^==\d+== (?P<what>Conditional jump or move depends on uninitialised value\(s\)|"
    r"Use of uninitialised value of size \d+|Syscall param .* uninitialised byte\(s\))",
    re.M,
)
_VG_FRAME = re.compile(
    r"^==\d+==    (?:at|by) 0x[0-9A-Fa-f]+: (?P<func>.+?) \((?:in )?(?P<file>[^():]+):(?P<line>\d+)\)",
    re.M,
)
_VG_ORIGIN = re.compile(
    r"Uninitialised value was created by (?P<how>[^\n]+)\n==\d+==    at 0x[0-9A-Fa-f]+: "
    r"(?P<func>.+?) \((?P<file>[^():]+):(?P<line>\d+)\)"
)


def read_memcheck(report: str, source: str) -> str:
    r"""valgrind's first uninitialised read in the candidate's source (its files are ``main.c`` or
    ``main.cpp`` in the build), as a line naming ``source``; "" if there is none.

    >>> read_memcheck("==7== Conditional jump or move depends on uninitialised value(s)\n"
    ...               "==7==    at 0x48B8027: __vfprintf_internal (vfprintf-process-arg.c:58)\n"
    ...               "==7==    by 0x1092B8: main (main.c:35)\n==7==  Uninitialised value was created by a stack "
    ...               "allocation\n==7==    at 0x109149: odd (main.c:14)\n", "t.c")
    't.c:35: Conditional jump or move depends on uninitialised value(s) (valgrind memcheck, -O0 -g), a value created by a stack allocation at t.c:14'
    """
    error = _VG_ERROR.search(report)
    if error is None:
        return ""
    block = report[error.end() :]
    ours = [m for m in _VG_FRAME.finditer(block) if m.group("file") in ("main.c", "main.cpp")]
    where = f"{source}:{ours[0].group('line')}" if ours else "?"
    origin = _VG_ORIGIN.search(block)
    made = ""
    if origin is not None:
        place = (
            f"{source}:{origin.group('line')}"
            if origin.group("file") in ("main.c", "main.cpp")
            else f"{origin.group('file')}:{origin.group('line')}"
        )
        made = f", a value created by {origin.group('how').strip()} at {place}"
    return f"{where}: {error.group('what')} (valgrind memcheck, -O0 -g){made}"


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
        #: runs of the asan build judged wrong with no report of a sanitizer's
        self.asan_wrong = 0
        self._plain: Judge | None = None

    def plain_judge(self) -> Judge:
        """A judge of the candidate as the judge builds it (its own runner, opened once)."""
        if self._plain is None:
            from gamecert.engine.run.sandbox import open_runner

            runner = open_runner(self.candidate, self.limits, contain=self.contain)
            self._plain = Judge(self.entry, runner, Stats(), expected_cache=self.cache)
        return self._plain

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
            if self.plain_judge().run_one(instance, PHASE, text=text, count=False) is not None:
                self.plain_wrong += (
                    1  # the judge's build is wrong here too: a fault, not this phase's
                )
                return None, None
            how = "locals 0xFE bytes, malloc's 0x5A" if kind == "pattern" else "locals zero bytes"
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


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= 160 else line[:157] + "..."


# ---- the inputs and the phase -------------------------------------------------------------------


def inputs_that_matter(
    plan: Any, outcome: Any = None, extra: Any = ()
) -> list[tuple[str, Any, str]]:
    """(where from, instance, text) of the inputs the phase runs, each text once: every fault the
    plan found, then the samples, the first :data:`PER_FAMILY` inputs of each worst-case family,
    the largest inputs and ``extra`` (texts or (where, text) pairs handed in: a corpus), parsed by
    the game; at most :data:`MAX_INPUTS`, taken in that order. After the faults they run source by
    source in turn, the shortest of each source first."""
    from gamecert.engine import gamecode, registry

    game = registry.get(plan.game).game
    out: list[tuple[str, Any, str]] = []
    seen: set[str] = set()

    def add(where: str, instance: Any, text: str) -> None:
        if text not in seen and len(out) < MAX_INPUTS:
            seen.add(text)
            out.append((where, instance, text))

    for f in getattr(outcome, "failures", ()) or ():
        add(f"the fault ({f.verdict})", f.instance, f.input_text)
    for name in ("samples", "worst", "largest"):
        phase = plan.phase(name)
        for group in phase.groups() if phase is not None else ():
            taken = 0
            for chunk in group.iter_chunks():
                for instance, text in zip(chunk.instances, chunk.texts):
                    if name == "worst" and taken >= PER_FAMILY:
                        break
                    add(name if name != "worst" else group.key, instance, text)
                    taken += 1
                if name == "worst" and taken >= PER_FAMILY:
                    break
    for item in extra:
        where, text = item if isinstance(item, tuple) else ("handed in", item)
        add(
            where,
            gamecode.call(
                game.name,
                "parse_input on an input handed to the sanitizer phase",
                game.parse_input,
                text,
            ),
            text,
        )
    faults = sum(w.startswith("the fault") for w, _, _ in out)
    # each source (the samples, each worst-case family, the largest inputs, the inputs handed in)
    # its shortest first, a finding on a short input being shrunk in fewer, cheaper runs; the
    # sources taken in turn, so that a phase cut by its time has run some of each
    sources: dict[str, list[tuple[str, Any, str]]] = {}
    for item in out[faults:]:
        sources.setdefault(item[0], []).append(item)
    queues = [sorted(items, key=lambda item: len(item[2])) for items in sources.values()]
    turns = [q[i] for i in range(max(map(len, queues), default=0)) for q in queues if i < len(q)]
    return out[:faults] + turns


def phase_seconds(budget_s: float) -> float:
    """The sanitizer phase's wall time at most (builds and runs) within a certification's budget
    of ``budget_s`` seconds; the phases after it get what it leaves.

    >>> phase_seconds(60.0), phase_seconds(10.0)
    (15.0, 2.5)
    """
    return min(CAP_SECONDS, SHARE * budget_s)


def run_phase(
    entry: Any,
    candidate: Any,
    plan: Any,
    outcome: Any,
    limits: Limits,
    say: Any,
    *,
    containment: Any = None,
    provenance: Any = None,
    expected_cache: dict[str, Any] | None = None,
    extra: Any = (),
    seconds: float | None = None,
) -> None:
    """The sanitizer phase of ``candidate`` after ``plan`` ran (see the module's words), for up to
    ``seconds`` (the part of the budget kept for it; default :func:`phase_seconds` of the plan's):
    says one line, puts its note on ``outcome`` and, with no fault of the plan's own, its finding
    among ``outcome.failures`` (verdict UB); beside a fault, what the sanitizer says of the fault's
    input goes into that fault's notes. Runs the time cap left out mark the phase cut
    (``outcome.cut``): the evidence is then incomplete. Nothing happens for a candidate it does
    not apply to or a run that was interrupted; Ctrl-C here marks the outcome interrupted."""
    if outcome.interrupted or applies(candidate):
        return
    contain = containment.enabled if containment is not None else True
    check = Check(
        entry,
        candidate,
        limits,
        contain=contain,
        compile=getattr(provenance, "compile_option", "") or None,
        expected_cache=expected_cache,
    )
    fault = outcome.failure
    try:
        if fault is None:
            inputs, kinds = inputs_that_matter(plan, None, extra), tuple(BUILDS)
        else:  # the fault's own input, under the sanitizers: what they say of it
            inputs, kinds = (
                [(f"the fault ({fault.verdict})", fault.instance, fault.input_text)],
                ("asan",),
            )
        allowed = phase_seconds(plan.budget_s) if seconds is None else seconds
        deadline = time.monotonic() + allowed
        found, ran, skipped, why_not = _search(check, inputs, deadline, kinds)
        if skipped and found is None and fault is None:
            outcome.cut[PHASE] = allowed
        if found is not None and fault is not None:
            failure, finding, kind = found
            fault.notes.append(
                f"under the sanitizer build ({BUILDS[kind]}) this input shows undefined behaviour: "
                f"{finding.line}; reproduce: {check.reproduce(kind)}"
            )
            say(f"  {PHASE:<11} the fault's input under {BUILDS[kind]}: {finding.line}")
            return
        if found is None:
            line = _summary(inputs, ran, skipped, why_not, check, kinds)
            outcome.notes.append(f"sanitizer phase: {line}")
            say(f"  {PHASE:<11} {line}")
            return
        failure, finding, kind = found
        _settle(
            check, entry, candidate, outcome, limits, failure, finding, kind, plan, contain, say
        )
    except KeyboardInterrupt:
        outcome.interrupted = True
    except GamecertError:
        raise  # a game's own mistake (GAME ERROR): said as such
    except Exception as exc:  # noqa: BLE001 - a fault of gamecert's own must not end the certification
        line = (
            f"stopped on an internal error of gamecert's ({type(exc).__name__}: {exc}): no claim about "
            "undefined behaviour is made"
        )
        outcome.notes.append(f"sanitizer phase: {line}")
        say(f"  {PHASE:<11} {line}")
    finally:
        check.close()


def _search(
    check: Check, inputs: list[tuple[str, Any, str]], deadline: float, kinds: tuple[str, ...]
) -> tuple[Any, dict[str, int], int, dict[str, str]]:
    """Every build made first, then each input under every build in turn, until the first finding
    or the deadline: (failure, finding, build) or None, the inputs each build ran, the runs the
    deadline left out, and the builds that could not be made (and why).

    Input by input rather than build by build: a phase cut by its time has run its first inputs
    (the faults, then the shortest) under every build, never one build on every input and the
    others on none (an uninitialised read only the ``pattern`` build shows went unseen when the
    ``asan`` build took the whole phase)."""
    ran: dict[str, int] = dict.fromkeys(BUILDS, 0)
    why_not: dict[str, str] = {}
    made: list[str] = []
    for kind in kinds:
        try:
            check.build(kind)
        except GamecertError as exc:
            why_not[kind] = _why_not(exc, check.candidate)
            continue
        made.append(kind)
    skipped = 0
    for where, instance, text in inputs:
        for kind in made:
            if time.monotonic() > deadline:
                skipped += 1
                continue
            failure, finding = check.run(kind, instance, text)
            ran[kind] += 1
            if finding is not None:
                assert failure is not None  # run() gives both or neither
                failure.notes.append(
                    f"found by the sanitizer phase on an input from {where} (size {failure.size})"
                )
                return (failure, finding, kind), ran, skipped, why_not
    return None, ran, skipped, why_not


def _summary(
    inputs: list[tuple[str, Any, str]],
    ran: dict[str, int],
    skipped: int,
    why_not: dict[str, str],
    check: Check,
    kinds: tuple[str, ...],
) -> str:
    counts: dict[str, int] = {}
    for where, _, _ in inputs:
        key = "worst" if where.startswith("worst-") else where.split(" (")[0]
        counts[key] = counts.get(key, 0) + 1
    made = [k for k in kinds if k not in why_not]
    parts = [
        f"{len(inputs)} input{'s' if len(inputs) != 1 else ''} ({', '.join(f'{n} {k}' for k, n in counts.items())})"
    ]
    if any(ran[k] for k in made):
        parts.append(
            "run under "
            + ", ".join(f"{BUILDS[k]} ({ran[k]})" for k in made)
            + ": no undefined behaviour seen"
        )
    elif made:
        parts.append("built, but no input ran under the sanitizer builds within the phase's time")
    capped = sum(check.capped.values())
    if capped:
        parts.append(f"{capped} runs past their generous caps (not judged)")
    if check.asan_wrong:
        parts.append(
            f"{check.asan_wrong} runs of the {BUILDS['asan']} build failed (a wrong answer or an exit) "
            "without a sanitizer's report (not counted)"
        )
    if check.plain_wrong:
        parts.append(
            f"{check.plain_wrong} inputs the judge's build answers wrong too (a fault the plan did not reach)"
        )
    if skipped:
        parts.append(f"{skipped} runs left out at the phase's time cap")
    parts += [f"{BUILDS[k]} not run: {why}" for k, why in why_not.items()]
    return "; ".join(parts)


def _settle(
    check: Check,
    entry: Any,
    candidate: Any,
    outcome: Any,
    limits: Limits,
    failure: Failure,
    finding: Finding,
    kind: str,
    plan: Any,
    contain: bool,
    say: Any,
) -> None:
    """Shrink the finding, run the judge's build on the input found, and make it the outcome's
    failure (verdict UB) with the commands that reproduce it."""
    from gamecert.engine.judge.shrinking import minimise
    from gamecert.engine.run.sandbox import open_runner

    say(f"  {PHASE:<11} FAIL ({Verdict.UB}) at size {failure.size}: {finding.line}; shrinking")
    seconds = SHRINK_SECONDS.get(plan.profile.name, 30.0)  # as a fault's shrink: the profile's time
    shrunk = minimise(_Again(check, kind, finding), failure, seconds)
    if kind == "asan":
        finding = read_finding(kind, shrunk.result, check.source) or finding
    else:  # the words of the run on the input found, not of the one before the shrink
        finding = replace(finding, line=shrunk.reason or finding.line)
    if (
        kind != "asan"
    ):  # the line of the read, from valgrind on an unoptimised build with line numbers
        try:
            where = check.memcheck(shrunk.instance, shrunk.input_text)
        except GamecertError as exc:
            where = ""
            shrunk.notes.append(
                f"valgrind's memcheck did not run: {_why_not(exc, check.candidate)}"
            )
        if where:
            finding = replace(
                finding, where=where.split(": ", 1)[0], line=f"{where}; {finding.line}"
            )
            shrunk.notes.append(f"reproduce the line: {check.reproduce('memcheck')}")
    with open_runner(candidate, limits, contain=contain) as runner:
        plain = Judge(entry, runner, Stats(), expected_cache=check.cache)
        wrong = plain.run_one(
            shrunk.instance, PHASE, text=shrunk.input_text, count=False, fresh=True
        )
        got = plain.last_result.stdout if plain.last_result is not None else ""
    if wrong is None:
        shrunk.notes.append(
            "the judge's build answers right on this input: the fault is the undefined "
            "behaviour, which another compiler or other options may turn into a wrong answer"
        )
    else:
        shrunk.notes.append(
            f"the judge's build fails on this input too: {wrong.verdict} ({_one_line(wrong.reason)})"
        )
    shrunk.notes.append(
        f"shrunk while the {kind} build ({BUILDS[kind]}) showed {finding.kind!r}"
        f"{' at ' + finding.where if finding.where else ''} again"
    )
    command = check.reproduce(kind)
    shrunk.notes.append(f"reproduce: {command}")
    shrunk.notes.append(
        "`gamecert replay` runs the judge's build, then the sanitizer builds on this input"
    )
    say(f"  {'reproduce:':<11} {command}")
    shown = replace(
        shrunk.result,
        stdout=_BUILT.sub(lambda m: check.source, shrunk.result.stdout),
        stderr_tail=_BUILT.sub(lambda m: check.source, shrunk.result.stderr_tail),
    )
    outcome.failures.append(replace(shrunk, reason=finding.line, got_text=got[:4096], result=shown))


def replay_lines(
    entry: Any, candidate: Any, instance: Any, text: str, limits: Limits, compile: str | None = None
) -> tuple[bool, list[str]]:
    """``gamecert replay`` of a UB report: the input on each sanitizer build in turn until one
    fires; (whether one fired, the lines that say so)."""
    if applies(candidate):
        return False, [f"sanitizer: not run ({applies(candidate)})"]
    check = Check(entry, candidate, limits, compile=compile)
    try:
        for kind in BUILDS:
            try:
                _, finding = check.run(kind, instance, text)
            except GamecertError as exc:
                return False, [f"sanitizer: the {kind} build cannot be made: {_one_line(str(exc))}"]
            if finding is not None:
                return True, [
                    f"sanitizer: {finding.line}",
                    f"reproduce: {check.reproduce(kind)}",
                    f"verdict:  {Verdict.UB} ({Verdict.UB.meaning}): {_one_line(finding.line)}",
                ]
        return False, ["verdict:  OK (no sanitizer build fired on this input again)"]
    finally:
        check.close()
