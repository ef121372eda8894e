"""A package judged the way a contest judge judges it, with no gamecert in the loop
(``gamecert tests GAME --check DIR --against FILES``).

Each program is built with its language's plain command (``gcc -O2``, ``g++ -O2``, ``javac``,
``rustc -O``; Python and JavaScript are run as they are), built and run in a box
(:mod:`.plainbox`: bubblewrap, an empty home, nothing of the user's files but the program) on each
``tests/NN`` with the problem's CPU limit (``RLIMIT_CPU``, and the CPU time ``wait4`` reports
against the limit), its peak resident memory (``ru_maxrss``) against the memory limit and the
stack as large as the memory limit; its output is then judged by the package's own
``check INPUT OUTPUT ANSWER`` (its C++ check.cpp built with g++ where there is one, else its
``checker.py`` run as ``python3 -I -S``: no site packages, no gamecert).
Verdicts: OK, WA, PE (the checker's exit 0, 1, 2), TLE, MLE, RE (a non-zero exit or a
signal), CE (the build failed). The checker's exit 3 is the package's fault, not the program's.

May import: nothing of gamecert's but the errors and its own box (this is the judge that does
without it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from gamecert.engine.testpack import plainbox
from gamecert.errors import GamecertError

#: a build has this long
BUILD_SECONDS = 120
_BUILD = {
    ".c": (["gcc", "-O2", "-o", "{exe}", "{src}", "-lm"], ["{exe}"]),
    ".cpp": (["g++", "-O2", "-o", "{exe}", "{src}"], ["{exe}"]),
    ".cc": (["g++", "-O2", "-o", "{exe}", "{src}"], ["{exe}"]),
    ".rs": (["rustc", "-O", "--edition", "2021", "-o", "{exe}", "{src}"], ["{exe}"]),
    ".go": (["go", "build", "-o", "{exe}", "{src}"], ["{exe}"]),
    ".py": (None, [plainbox.python(), "{src}"]),
    ".js": (None, ["node", "{src}"]),
}


class JudgeError(GamecertError):
    """A package cannot be judged (one line)."""


def tests_of(package: Path) -> list[Path]:
    folder = package / "tests"
    if not folder.is_dir():
        raise JudgeError(f"{package} is not a test package: it has no tests/ folder")
    return sorted(
        (p for p in folder.iterdir() if p.is_file() and "." not in p.name),
        key=lambda p: (len(p.name), p.name),
    )


def build(source: Path, work: Path) -> tuple[list[str] | None, str]:
    """The command line that runs ``source`` (built into ``work``), or None and why not."""
    suffix = source.suffix.lower()
    if suffix == ".java":
        if shutil.which("javac") is None:
            return None, "javac is not installed"
        out = work / "java"
        out.mkdir(exist_ok=True)
        javac, tools = plainbox.compiler(
            ["javac", "-encoding", "UTF-8", "-d", str(out), str(source)]
        )
        done = subprocess.run(
            plainbox.box(javac, readable=[str(source), *tools], writable=[str(work)]),
            capture_output=True,
            text=True,
            timeout=BUILD_SECONDS,
        )
        if done.returncode:
            return None, "javac: " + done.stderr.strip()[-300:]
        mains = [p.stem for p in out.glob("*.class") if "$" not in p.stem]
        if len(mains) != 1:
            return None, f"javac made {len(mains)} top-level classes, expected one"
        return ["java", "-Xss64m", "-cp", str(out), mains[0]], ""
    if suffix not in _BUILD:
        return None, f"no plain build for {suffix or 'a file without an extension'}"
    compile_, run = _BUILD[suffix]
    exe = work / "prog"
    fill = {"{exe}": str(exe), "{src}": str(source)}
    if compile_ is not None:
        if shutil.which(compile_[0]) is None:
            return None, f"{compile_[0]} is not installed"
        command, tools = plainbox.compiler([fill.get(a, a) for a in compile_])
        done = subprocess.run(
            plainbox.box(
                command, readable=[str(source), *tools], writable=[str(work)], workdir=str(work)
            ),
            capture_output=True,
            text=True,
            timeout=BUILD_SECONDS,
        )
        if done.returncode:
            return None, f"{compile_[0]}: " + done.stderr.strip()[-300:]
    return [fill.get(a, a) for a in run], ""


#: run by ``python3 -I -S -c``: fork the program from this small process, set its limits, exec it,
#: wait for it, and print its wait status and rusage. The program is not forked from the harness
#: itself, because a process's ``ru_maxrss`` keeps the high-water mark of the memory it was forked
#: with, even across ``exec``: a program started from a large harness process would report the
#: harness's resident memory as its own peak and be MLE for nothing.
_LAUNCH = """
import os, resource, sys
report, cpu, stack, cap, procs = (int(word) for word in sys.argv[1:6])
argv = sys.argv[6:]
pid = os.fork()
if pid == 0:
    os.close(report)
    try:
        if procs >= 0:  # into the run's memory cgroup: every process it makes is charged there
            os.write(procs, b"0")
            os.close(procs)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_STACK, (stack, stack))
        if cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
os.write(report, b"%d %.6f %.6f %d" % (status, usage.ru_utime, usage.ru_stime, usage.ru_maxrss))
"""


def run_one(
    argv: list[str],
    test: Path,
    out: Path,
    cpu_s: float,
    memory_mb: int,
    readable: tuple[str, ...] = (),
) -> tuple[str, float, float]:
    """(verdict so far: "" for a run that exited 0, else TLE/MLE/RE; CPU seconds; peak MB).

    The program runs under a small launcher (:data:`_LAUNCH`) with the problem's CPU limit, a stack
    as large as the memory limit and, but for a JVM or node (which reserve far more), an
    address-space backstop at 4x the limit; the verdict on memory is its peak resident memory.
    The launcher and the program run in :func:`.plainbox.box`, seeing ``readable`` (the program's
    files) and nothing of the user's; where a memory cgroup can be made
    (:class:`.plainbox.MemoryBox`), the program's memory is the cgroup's peak charge (all its
    processes, anonymous files, shared memory) and an OOM kill there is MLE."""
    java = Path(argv[0]).name == "java"
    if java:
        argv = [argv[0], f"-Xmx{memory_mb}m", *argv[1:]]
    # no address-space backstop for a JVM, nor for node: each of its threads reserves a stack as
    # large as RLIMIT_STACK, and under the cap the threads cannot start and node hangs
    cap = 0 if java or Path(argv[0]).name == "node" else 4 * (memory_mb << 20)
    box = plainbox.MemoryBox.make(memory_mb)
    procs = box.procs_fd if box is not None else -1
    report_r, report_w = os.pipe()
    try:
        with open(test, "rb") as stdin, open(out, "wb") as stdout:
            launch = [
                plainbox.python(),
                "-I",
                "-S",
                "-c",
                _LAUNCH,
                str(report_w),
                str(int(cpu_s) + 1),
                str(memory_mb << 20),
                str(cap),
                str(procs),
                *argv,
            ]
            proc = subprocess.Popen(
                plainbox.box(launch, readable=list(readable)),
                stdin=stdin,
                stdout=stdout,
                stderr=subprocess.DEVNULL,
                pass_fds=(report_w,) if procs < 0 else (report_w, procs),
                start_new_session=True,
                preexec_fn=None,
                close_fds=True,
            )
            os.close(report_w)
            report_w = -1
            try:
                proc.wait(timeout=3 * cpu_s + 10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
                words = []
            else:
                words = os.read(report_r, 200).split()
    finally:
        os.close(report_r)
        if report_w >= 0:
            os.close(report_w)
        charged, kills = box.figures() if box is not None else (0.0, 0)
        if box is not None:
            box.close()
    if not words and proc.returncode == -9:  # stopped at the wall-clock limit
        # memory first: a program whose processes the kernel killed for memory may wait forever
        if kills or charged >= memory_mb:
            return "MLE", 3 * cpu_s + 10, charged
        return "TLE", 3 * cpu_s + 10, charged
    if len(words) != 4:
        return ("MLE", 0.0, charged) if kills else ("RE", 0.0, 0.0)
    status, cpu, mb = int(words[0]), float(words[1]) + float(words[2]), int(words[3]) / 1024
    mb = max(mb, charged)  # the kernel's figure: every process of the run, shared memory too
    code = os.waitstatus_to_exitcode(status)
    if cpu > cpu_s:
        return "TLE", cpu, mb
    if mb >= memory_mb or kills:
        return "MLE", cpu, mb
    if code != 0:
        return "RE", cpu, mb
    return "", cpu, mb


def judge(
    package: Path,
    source: Path,
    cpu_s: float,
    memory_mb: int,
    stop_at_first: bool = False,
    tle_cap: int = 0,
    usage: list[tuple[float, float]] | None = None,
    checker_cmd: list[str] | None = None,
) -> list[str]:
    """The verdict of ``source`` on each test of ``package``: built, run and checked as a judge
    does (``-`` after the first rejection when ``stop_at_first``, and after ``tle_cap`` TLE
    verdicts when it is set: each costs the whole limit); ``usage`` gets each run's (CPU
    seconds, peak MB)."""
    tests = tests_of(package)
    if (
        checker_cmd is None
    ):  # the package's checker.py (at the top, or in files/ in Polygon's layout)
        checker = package / "files" / "checker.py"
        checker = checker if checker.is_file() else package / "checker.py"
        if not checker.is_file():
            raise JudgeError(f"{package} has no checker.py")
        checker_cmd = [sys.executable, "-I", "-S", str(checker)]
    with tempfile.TemporaryDirectory(prefix="gamecert-judge-") as tmp:
        work = Path(tmp)
        argv, why = build(source.resolve(), work)
        if argv is None:
            return ["CE"] * len(tests)
        verdicts: list[str] = []
        for test in tests:
            if (stop_at_first and any(v != "OK" for v in verdicts)) or (
                tle_cap and verdicts.count("TLE") >= tle_cap
            ):
                verdicts.append("-")
                continue
            out = work / "out.txt"
            verdict, cpu, mb = run_one(
                argv, test, out, cpu_s, memory_mb, (str(work), str(source.resolve()))
            )
            if usage is not None:
                usage.append((cpu, mb))
            if not verdict:
                answer = test.with_name(test.name + ".a")
                done = subprocess.run(
                    [*checker_cmd, str(test), str(out), str(answer)],
                    capture_output=True,
                    text=True,
                    timeout=600,
                )
                if done.returncode not in (0, 1, 2):
                    raise JudgeError(
                        f"the checker fails on tests/{test.name} (exit {done.returncode}): "
                        f"{done.stderr.strip()[-200:]}: the package's fault"
                    )
                verdict = ("OK", "WA", "PE")[done.returncode]
            verdicts.append(verdict)
        return verdicts
