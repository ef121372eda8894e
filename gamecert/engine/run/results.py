"""What one test did, and the verdict its figures give: :class:`RunResult` and :func:`classify`,
which reads a supervisor's report (exit status, CPU time from ``wait4`` and the cpuacct cgroup,
the memory cgroup's peak and OOM kills, sampled RSS, what the watch killed for) against the
problem's limits."""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from typing import Any

from gamecert.engine.run import memcg
from gamecert.engine.run.limits import Limits, cpu_over

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


#: files and folders a test may make in its box (the watch kills the test past it)
BOX_FILES = 10_000
#: how far the sandbox's cpuacct figure must exceed wait4's to be the test's CPU time (see docs/certify.md)
CG_CPU_SLACK_S = 0.01


def classify(
    report: dict, out_size: int, stdout: str, stderr_tail: str, limits: Limits, mode: str
) -> RunResult:
    """A supervisor's report of one test as a :class:`RunResult`: the verdict the kernel's
    figures give (``mode`` is the runner's: ``fork-server`` or ``exec``)."""
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
    if killed == "cpu" or sig == signal.SIGXCPU or report.get("others_xcpu") or cpu > limits.time_s:
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
        backstop = limits.address_space_bytes(mode == "fork-server") >> 20
        what += (
            f"; the program reported a failed allocation ({failed_alloc}) with {used}, under the "
            f"limit: it asked for more than the {backstop} MB address-space cap"
        )
    return RunResult("re", *common, what, **extra)
