"""What a certification runs inputs on: a candidate program (sandboxed, see
:func:`gamecert.engine.run.sandbox.open_runner`) or a registered solver (in-process, :class:`SolverRunner`).

Both kinds of subject give the :class:`gamecert.engine.judge.judge.Judge` the same thing: ``run(text)``
returns a result with ``status`` (``"ok"`` or a fault), ``stdout`` and the run's measurements,
so one plan, one judge and one evidence code serve both. A registered solver is given the
input's text too: it is parsed with ``game.parse_input``, solved, and the answer written with
``game.format_answer``; what the judge reads back is that text, as it would be a program's output.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from typing import Any

#: how a registered solver is named where a candidate program's spec would stand
SOLVER_PREFIX = "solver:"
#: what a report or certificate on a registered solver says about the limits it names
IN_PROCESS_NOTE = (
    "a registered solver runs in-process: the time and memory limits named here were not "
    "applied, and no time or memory of its own is measured beyond the CPU and wall time of each call"
)


@dataclass(slots=True)  # not frozen: made once per test, and a frozen one costs ~2 us to make
class InProcessResult:
    """One call of a registered solver: ``"ok"``, or ``"re"`` when it raised (``detail`` says what).

    In-process there is no exit code, signal or memory of its own to measure (``None``).

    >>> InProcessResult("ok", "Bob\\n", "", 0.001, 0.002).describe()
    'OK: returned in 0.001 s CPU, 0.002 s wall'
    >>> InProcessResult("re", "", "ZeroDivisionError: division by zero", 0.0, 0.0,
    ...                 detail="the solver raised ZeroDivisionError").describe()
    'RE: the solver raised ZeroDivisionError; stderr: ZeroDivisionError: division by zero'
    """

    status: str
    stdout: str
    stderr_tail: str
    cpu_s: float
    wall_s: float
    detail: str = ""
    exit_code: int | None = None
    signal: int | None = None
    max_rss_mb: float | None = None

    def describe(self) -> str:
        """One line for reports, as :meth:`gamecert.engine.run.sandbox.RunResult.describe` gives one."""
        if self.status == "ok":
            return f"OK: returned in {self.cpu_s:.3f} s CPU, {self.wall_s:.3f} s wall"
        line = f"{self.status.upper()}: {self.detail or 'the solver failed'}"
        if self.stderr_tail:
            line += f"; stderr: {self.stderr_tail.strip()[:300]}"
        return line


class SolverRunner:
    """Runs input texts on a registered solver in this process, as a runner runs a program.

    ``entry`` is the game's registry entry, ``name`` the solver's name, ``solver`` the function
    (``Instance -> answer``). An exception in the solver is a result with status ``"re"`` and the
    exception's last line as ``stderr_tail``; so is an answer ``game.format_answer`` cannot write.
    No time or memory limit applies in-process.

    >>> from gamecert.engine import registry
    >>> entry = registry.get("word_game")
    >>> with SolverRunner(entry, "closed_form", entry.solvers["closed_form"]) as runner:
    ...     runner.run("AAA\\n").stdout
    'Alice\\n'
    >>> def broken(word):
    ...     return 1 // 0
    >>> SolverRunner(entry, "broken", broken).run("AB\\n").stderr_tail
    'ZeroDivisionError: integer division or modulo by zero'
    """

    #: the Judge asks this to decide how to word a re-run (in-process: the same process)
    persistent = False
    rerun_where = "in the same process (a registered solver runs in-process)"

    def __init__(self, entry: Any, name: str, solver: Any) -> None:
        self.entry = entry
        self.game = entry.game
        self.name = name
        self.solver = solver

    @property
    def spec(self) -> str:
        """How the solver is named to ``gamecert certify GAME SPEC`` and ``gamecert replay``."""
        return SOLVER_PREFIX + self.name

    def run(self, text: str) -> InProcessResult:
        """Parse ``text``, call the solver, write its answer."""
        instance = self.game.parse_input(
            text
        )  # the plan's inputs are valid: a failure here is the harness's
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        try:
            answer = self.solver(instance)
        except Exception as exc:  # noqa: BLE001 - the solver's fault is a verdict, not the harness's crash
            return self._fault(
                f"the solver raised {type(exc).__name__}", _last_line(exc), cpu0, wall0
            )
        cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
        try:
            out = self.game.format_answer(answer)
        except Exception as exc:  # noqa: BLE001 - an answer that is not one of the game's answers
            return InProcessResult(
                "re",
                "",
                _last_line(exc),
                cpu,
                wall,
                detail=f"the solver returned {_short_repr(answer)}, which cannot be written "
                "as an answer",
            )
        return InProcessResult("ok", out, "", cpu, wall)

    def answer_text(self, text: str) -> str | None:
        """The solver's answer to ``text``, written, or None if it raised or its answer cannot be
        written (:meth:`run` then says what happened): the judge's tight loop for in-process
        subjects (:mod:`gamecert.engine.judge.inprocess`), untimed."""
        game = self.game
        instance = game.parse_input(text)
        try:
            return game.format_answer(self.solver(instance))
        except Exception:  # noqa: BLE001 - judged again through run(), which names it
            return None

    def _fault(self, detail: str, tail: str, cpu0: float, wall0: float) -> InProcessResult:
        return InProcessResult(
            "re", "", tail, time.thread_time() - cpu0, time.perf_counter() - wall0, detail=detail
        )

    def close(self) -> None:
        """Nothing to release: the solver is a function of this process."""

    def __enter__(self) -> SolverRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class SolverSubject:
    """A registered solver where a report or certificate names its subject (``candidate``)."""

    game: str
    name: str

    @property
    def spec(self) -> str:
        return SOLVER_PREFIX + self.name

    # what evidence.candidate_spec_for_replay looks for on a candidate program
    python_file = None
    argv = None


def _last_line(exc: BaseException) -> str:
    return traceback.format_exception_only(type(exc), exc)[-1].strip()


def _short_repr(value: Any, keep: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= keep else text[:keep] + "..."


__all__ = ["IN_PROCESS_NOTE", "SOLVER_PREFIX", "InProcessResult", "SolverRunner", "SolverSubject"]
