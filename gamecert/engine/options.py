"""The options of a certification command, checked before anything runs: the profile, the
seed, the limits, the budget, the runners, the report folder (:func:`options`)."""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamecert.engine.plan.plan import RUNS_ENV
from gamecert.engine.plan.plan import exhaustive_tests as exhaustive_tests_by_count
from gamecert.engine.plan.profiles import get_profile
from gamecert.engine.report.report_files import check_report_dir
from gamecert.engine.run.limits import game_limits
from gamecert.errors import UsageError

#: the largest time budget accepted: a week
MAX_BUDGET_S = 7 * 86_400.0

Say = Callable[[str], None]


def check_budget(value: float | None) -> float | None:
    """``--budget``, checked: a positive number of seconds up to a week (None: the profile's)."""
    if value is None:
        return None
    if not (value > 0 and math.isfinite(value)) or value > MAX_BUDGET_S:
        raise UsageError(
            f"--budget must be a positive number of seconds up to {MAX_BUDGET_S:g} (a week), got {value}"
        )
    return value


def check_jobs(value: int | None) -> int:
    """``--jobs``, checked (None: one per core)."""
    if value is None:
        return max(1, os.cpu_count() or 1)
    if value < 1 or value > 1024:
        raise UsageError(f"--jobs must be between 1 and 1024, got {value}")
    return value


@dataclass(frozen=True)
class Options:
    """What every candidate of one certification command shares (see :func:`options`)."""

    entry: Any
    profile: Any
    seed: int
    limits: Any
    budget: float | None
    jobs: int
    examples: int | None
    exhaustive_tests: int | None
    report_dir: str
    fork_server: bool = True
    contain: bool = True
    compile: str | None = None
    python: str | None = None
    phases: tuple[str, ...] | None = None
    #: PASSED (incomplete) exits 1, as a fault does (``--strict``)
    strict: bool = False


def options(
    entry: Any,
    *,
    profile: str | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    memory_limit: int | None = None,
    budget: float | None = None,
    jobs: int | None = None,
    examples: int | None = None,
    exhaustive_runs: int | None = None,
    report_dir: str | None = None,
    fork_server: bool = True,
    contain: bool = True,
    compile: str | None = None,
    python: str | None = None,
    phases: str | None = None,
    strict: bool = False,
) -> Options:
    """The options of a certification of ``entry``'s game, checked before anything runs (a
    :class:`UsageError` names the bad one); the report folder is checked now too, not after the
    run has found something, and a game error's traceback will go beside the reports."""
    if examples is not None and examples < 0:
        raise UsageError(f"--examples must be 0 or more, got {examples}")
    chosen_profile = get_profile(profile)
    seed = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    limits = game_limits(entry.game, time_limit, memory_limit)
    budget = check_budget(budget)
    jobs_n = check_jobs(jobs)
    exhaustive_tests = None
    if exhaustive_runs is not None:
        if exhaustive_runs < 0:
            raise UsageError(f"--exhaustive-runs must be 0 or more, got {exhaustive_runs}")
        exhaustive_tests = exhaustive_runs * max(1, entry.game.max_batch)
    elif os.environ.get(RUNS_ENV):
        exhaustive_tests = exhaustive_tests_by_count(entry.game, chosen_profile)
    report_dir = report_dir if report_dir is not None else "reports"
    check_report_dir(report_dir, entry.game.name)
    from gamecert.engine.gamecode import set_traceback_dir

    set_traceback_dir(report_dir)
    chosen = tuple(p.strip() for p in phases.split(",") if p.strip()) if phases else None
    return Options(
        entry,
        chosen_profile,
        seed,
        limits,
        budget,
        jobs_n,
        examples,
        exhaustive_tests,
        report_dir,
        fork_server=fork_server,
        contain=contain,
        compile=compile,
        python=python,
        phases=chosen,
        strict=strict,
    )
