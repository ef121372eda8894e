"""The limits a candidate runs under: :class:`Limits` (per test: CPU time, memory used, output,
processes, stack) and :func:`game_limits`, the problem's own limits with the user's overrides,
checked. The one home of limits (a game states its ``time_limit`` and ``memory_limit_mb``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from gamecert.errors import UsageError


@dataclass(frozen=True)
class Limits:
    """Per-test limits.

    >>> Limits(time_s=0.5).wall_s, Limits(time_s=3).wall_s
    (1.5, 6)
    >>> Limits(memory_mb=128).stack_bytes == 128 << 20
    True
    """

    time_s: float = 1.0
    memory_mb: int = 256
    output_bytes: int = 32 << 20
    processes: int = 64
    stack_mb: int | None = None

    def __post_init__(self) -> None:
        for name in ("time_s", "memory_mb", "output_bytes", "processes"):
            value = getattr(self, name)
            if not value > 0:
                raise UsageError(f"limit {name}={value!r} must be positive")
        if self.stack_mb is not None and not self.stack_mb > 0:
            raise UsageError(f"limit stack_mb={self.stack_mb!r} must be positive or None")

    def address_space_bytes(self, python: bool) -> int:
        """The address-space backstop (``RLIMIT_AS``): the memory limit itself is on memory
        used, measured; address space only stops a runaway. A Python candidate gets four times
        the limit; other programs at least 16 GB, as a JVM or Node reserves far more address
        space than it uses.

        >>> Limits(memory_mb=256).address_space_bytes(True) >> 20
        1024
        >>> Limits(memory_mb=256).address_space_bytes(False) >> 30
        16
        """
        backstop = 4 * self.memory_mb << 20
        return backstop if python else max(backstop, 16 << 30)

    @property
    def wall_s(self) -> float:
        """Wall-clock limit: twice the CPU limit, and at least one second more than it."""
        return max(2 * self.time_s, self.time_s + 1)

    @property
    def stack_bytes(self) -> int:
        return (self.memory_mb if self.stack_mb is None else self.stack_mb) << 20

    def supervisor_limits(
        self, *, python: bool, nproc: int, scratch_bytes: int, files: int
    ) -> dict[str, Any]:
        """What the supervisor is told of these limits. A file's cap (``RLIMIT_FSIZE``) is the
        scratch folders' own (``scratch_bytes``: their tmpfs caps hold in bytes, so a 40 MB
        scratch file is fine), or the output's where nothing else caps the folder (0: not
        contained); OLE is counted on the bytes written to the output, not on this cap.

        >>> Limits().supervisor_limits(python=True, nproc=0, scratch_bytes=64 << 20, files=0)["fsize_bytes"] >> 20
        64
        """
        return {
            "time_s": self.time_s,
            "wall_s": self.wall_s,
            "wall_hard_s": max(10 * self.time_s, self.time_s + 10),
            "cpu_soft": max(1, math.ceil(self.time_s)),
            "as_bytes": self.address_space_bytes(python),
            "memory_kb": self.memory_mb << 10,
            "stack_bytes": self.stack_bytes,
            "fsize_bytes": max(self.output_bytes, scratch_bytes) + 1,
            "processes": self.processes,
            "nproc": nproc,
            "files": files,
            "zygote_tests": ZYGOTE_TESTS,
        }


#: tests a Python zygote serves before a new one (its own hash seed) serves the next ones: the
#: supervisor's _sv_procs.ZYGOTE_TESTS, sent with the limits
ZYGOTE_TESTS = 2000

#: the largest limits accepted: a day per test, a terabyte (the OS cannot take much more)
MAX_TIME_LIMIT_S = 86_400.0
MAX_MEMORY_LIMIT_MB = 1 << 20


def game_limits(
    game: Any, time_limit: float | None = None, memory_limit: int | None = None
) -> Limits:
    """``game``'s limits, with ``--time-limit`` / ``--memory-limit`` overrides where given (checked).

    >>> from gamecert.engine import registry
    >>> game_limits(registry.get("word_game").game).time_s
    2.0
    """
    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise UsageError(f"--time-limit must be a positive number of seconds, got {time_limit}")
    if time_limit is not None and time_limit > MAX_TIME_LIMIT_S:
        raise UsageError(
            f"--time-limit must be at most {MAX_TIME_LIMIT_S:g} seconds (a day), got {time_limit:g}"
        )
    if memory_limit is not None and memory_limit < 16:
        raise UsageError(f"--memory-limit must be at least 16 (MB), got {memory_limit}")
    if memory_limit is not None and memory_limit > MAX_MEMORY_LIMIT_MB:
        raise UsageError(
            f"--memory-limit must be at most {MAX_MEMORY_LIMIT_MB} (MB, a terabyte), got {memory_limit}"
        )
    return Limits(
        time_s=time_limit if time_limit is not None else game.time_limit,
        memory_mb=memory_limit if memory_limit is not None else game.memory_limit_mb,
    )


#: the largest .py candidate accepted (its source is read and compiled once by the supervisor)
MAX_SOURCE_BYTES = 64 << 20


def cpu_over(cpu: float, limit: float, watched: bool) -> str:
    """The TLE line: CPU time shown to as many places as it takes to be literally over the
    limit; a test the watch stopped (its reading over the limit) or ``RLIMIT_CPU`` ended whose
    CPU time charged at the end is not over the limit says so, not that it was over.

    >>> cpu_over(2.31, 2.0, True)
    'CPU time 2.310 s > limit 2 s'
    >>> cpu_over(2.0004, 2.0, True)
    'CPU time 2.0004 s > limit 2 s'
    >>> cpu_over(1.989, 2.0, True)
    'killed when its CPU time, read while it ran, passed the limit of 2 s; read again after it ended, all its processes together had used 1.989 s (the two readings count differently; the first one decides)'
    >>> cpu_over(1.989, 2.0, False)
    'killed by the kernel when a process of it reached the CPU-time limit of 2 s (RLIMIT_CPU); read again after it ended, all its processes together had used 1.989 s (the kernel counts in ticks, the reading after the end exactly; the kernel decides)'
    """
    if cpu > limit:
        places = 3
        while places < 9 and round(cpu, places) <= limit:
            places += 1
        return f"CPU time {cpu:.{places}f} s > limit {limit:g} s"
    if watched:
        return (
            f"killed when its CPU time, read while it ran, passed the limit of {limit:g} s; read "
            f"again after it ended, all its processes together had used {cpu:.3f} s (the two "
            "readings count differently; the first one decides)"
        )
    return (
        f"killed by the kernel when a process of it reached the CPU-time limit of {limit:g} s "
        f"(RLIMIT_CPU); read again after it ended, all its processes together had used {cpu:.3f} s "
        "(the kernel counts in ticks, the reading after the end exactly; the kernel decides)"
    )
