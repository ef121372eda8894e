"""A package judged the way a contest judge judges it, with no gamecert in the loop
(``gamecert tests GAME --check DIR --against FILES``).

Each program is built with its language's plain command (``gcc -O2``, ``g++ -O2``, ``javac``,
``rustc -O``; Python and JavaScript are run as they are), run as a plain subprocess on each
``tests/NN`` with the problem's CPU limit (``RLIMIT_CPU``, and the CPU time ``wait4`` reports
against the limit), its peak resident memory (``ru_maxrss``) against the memory limit and the
stack as large as the memory limit; its output is then judged by the package's own
``checker.py INPUT OUTPUT ANSWER``, run as ``python3 -I -S`` (no site packages: no gamecert).
Verdicts: OK, WA, PE (the checker's exit 0, 1, 2), TLE, MLE, RE (a non-zero exit or a
signal), CE (the build failed). The checker's exit 3 is the package's fault, not the program's.

May import: nothing of gamecert's but the errors (this is the judge that does without it).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gamecert.errors import GamecertError

#: a build has this long
BUILD_SECONDS = 120
_BUILD = {
    ".c": (["gcc", "-O2", "-o", "{exe}", "{src}", "-lm"], ["{exe}"]),
    ".cpp": (["g++", "-O2", "-o", "{exe}", "{src}"], ["{exe}"]),
    ".cc": (["g++", "-O2", "-o", "{exe}", "{src}"], ["{exe}"]),
    ".rs": (["rustc", "-O", "--edition", "2021", "-o", "{exe}", "{src}"], ["{exe}"]),
    ".go": (["go", "build", "-o", "{exe}", "{src}"], ["{exe}"]),
    ".py": (None, [sys.executable, "{src}"]),
    ".js": (None, ["node", "{src}"]),
}


class JudgeError(GamecertError):
    """A package cannot be judged (one line)."""


def tests_of(package: Path) -> list[Path]:
    folder = package / "tests"
    if not folder.is_dir():
        raise JudgeError(f"{package} is not a test package: it has no tests/ folder")
    return sorted((p for p in folder.iterdir() if p.is_file() and "." not in p.name), key=lambda p: (len(p.name), p.name))


def build(source: Path, work: Path) -> tuple[list[str] | None, str]:
    """The command line that runs ``source`` (built into ``work``), or None and why not."""
    suffix = source.suffix.lower()
    if suffix == ".java":
        if shutil.which("javac") is None:
            return None, "javac is not installed"
        out = work / "java"
        out.mkdir(exist_ok=True)
        done = subprocess.run(["javac", "-encoding", "UTF-8", "-d", str(out), str(source)], capture_output=True,
                              text=True, timeout=BUILD_SECONDS)
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
        done = subprocess.run([fill.get(a, a) for a in compile_], capture_output=True, text=True, timeout=BUILD_SECONDS)
        if done.returncode:
            return None, f"{compile_[0]}: " + done.stderr.strip()[-300:]
    return [fill.get(a, a) for a in run], ""


def _limits(cpu_s: float, memory_mb: int, java: bool):
    def apply() -> None:
        cpu = int(cpu_s) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        stack = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_STACK, (stack, stack))
        if not java:  # a backstop only (the verdict is the peak resident memory); a JVM reserves far more
            cap = 4 * (memory_mb << 20)
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return apply


def run_one(argv: list[str], test: Path, out: Path, cpu_s: float, memory_mb: int) -> tuple[str, float, float]:
    """(verdict so far: "" for a run that exited 0, else TLE/MLE/RE; CPU seconds; peak MB)."""
    java = Path(argv[0]).name == "java"
    if java:
        argv = [argv[0], f"-Xmx{memory_mb}m", *argv[1:]]
    with open(test, "rb") as stdin, open(out, "wb") as stdout:
        proc = subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL,
                                preexec_fn=_limits(cpu_s, memory_mb, java))
        deadline = time.monotonic() + 3 * cpu_s + 10
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = -9
                return "TLE", usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024
            time.sleep(0.005)
        proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    mb = usage.ru_maxrss / 1024
    if cpu > cpu_s:
        return "TLE", cpu, mb
    if mb >= memory_mb:
        return "MLE", cpu, mb
    if proc.returncode != 0:
        return "RE", cpu, mb
    return "", cpu, mb


def judge(package: Path, source: Path, cpu_s: float, memory_mb: int, stop_at_first: bool = False,
          tle_cap: int = 0) -> list[str]:
    """The verdict of ``source`` on each test of ``package``: built, run and checked as a judge
    does (``-`` after the first rejection when ``stop_at_first``, and after ``tle_cap`` TLE
    verdicts when it is set: each costs the whole limit)."""
    tests = tests_of(package)
    checker = package / "checker.py"
    if not checker.is_file():
        raise JudgeError(f"{package} has no checker.py")
    with tempfile.TemporaryDirectory(prefix="gamecert-judge-") as tmp:
        work = Path(tmp)
        argv, why = build(source.resolve(), work)
        if argv is None:
            return ["CE"] * len(tests)
        verdicts: list[str] = []
        for test in tests:
            if (stop_at_first and any(v != "OK" for v in verdicts)) or (tle_cap and verdicts.count("TLE") >= tle_cap):
                verdicts.append("-")
                continue
            out = work / "out.txt"
            verdict, _, _ = run_one(argv, test, out, cpu_s, memory_mb)
            if not verdict:
                answer = test.with_name(test.name + ".a")
                done = subprocess.run([sys.executable, "-I", "-S", str(checker), str(test), str(out), str(answer)],
                                      capture_output=True, text=True, timeout=600)
                if done.returncode not in (0, 1, 2):
                    raise JudgeError(f"checker.py fails on tests/{test.name} (exit {done.returncode}): "
                                     f"{done.stderr.strip()[-200:]}: the package's fault")
                verdict = ("OK", "WA", "PE")[done.returncode]
            verdicts.append(verdict)
        return verdicts
