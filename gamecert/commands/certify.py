"""``gamecert certify GAME CANDIDATE`` and ``gamecert replay``: options parsed, outcomes printed.

The certification itself is one engine call, :func:`gamecert.engine.certification.certify`
(plan, run, evidence, report files; several candidates: :func:`~gamecert.engine.certification.certify_many`);
this module turns the command line into its :class:`~gamecert.engine.certification.Options`, prints
the lines it tells and shows a live progress line on a terminal.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from gamecert.commands.screen import echo
from gamecert.engine.certification import (
    CandidateResult,
    Options,
    options,
    registered_solver,
    run_certification,
    write_summary,
)
from gamecert.engine.certification import certify as certify_one
from gamecert.engine.certification import certify_many as _certify_many
from gamecert.engine.judge.evidence import (
    build_certificate,
    build_report,
    candidate_spec_for_replay,
)
from gamecert.engine.judge.judge import Failure, Judge, Stats, expected_answer
from gamecert.engine.plan.plan import SHRINK_SECONDS, HarnessError, Plan, make_plan
from gamecert.engine.summary import SUMMARY_HEADERS as _HEADERS
from gamecert.engine.summary import summary_lines, summary_rows
from gamecert.errors import UsageError
from gamecert.verdict import CERTIFIED, INCOMPLETE, INTERRUPTED


class _Display:
    """A live line on a terminal's stderr: phase, tests, tests/s, time left; nothing elsewhere (the
    engine's ``display``)."""

    def __init__(self, title: str, budget_s: float) -> None:
        import sys

        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn

        self.console = Console(stderr=True)
        self.enabled = self.console.is_terminal
        # standard output goes around the live line only when it is the terminal too: to a file
        # (`certify ... > out.txt`) its lines stay in the file, not on the terminal
        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            console=self.console,
            transient=True,
            disable=not self.enabled,
            redirect_stdout=sys.stdout.isatty(),
        )
        self.title = title
        self.budget_s = budget_s
        self.task = self.progress.add_task(title)
        self.started = time.perf_counter()
        self.done = 0
        self.name = "starting"
        self.deadline: float | None = None
        self.note = ""
        self._last = 0.0

    def __enter__(self) -> _Display:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.__exit__(*exc)

    def phase(self, name: str, deadline: float | None) -> None:
        self.name, self.deadline, self.note = name, deadline, ""
        self._refresh(force=True)

    def event(self, text: str) -> None:
        self.note = text
        self._refresh(force=True)

    def advance(self, n: int) -> None:
        self.done += n
        self._refresh()

    def _refresh(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not self.enabled or (not force and now - self._last < 0.1):
            return
        self._last = now
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = max(0.0, self.budget_s - elapsed)
        text = (
            f"[bold]{self.title}[/]: {self.name}{' (' + self.note + ')' if self.note else ''} | "
            f"{self.done:,} tests, {rate:,.0f}/s | {elapsed:.0f} s of {self.budget_s:g} s, ~{left:.0f} s left"
        )
        self.progress.update(self.task, description=text)


def _say(text: str = "") -> None:
    echo(text)


def certify_candidate_command(args: Any) -> int:
    """``gamecert certify GAME CANDIDATE...``: exit 0 all certified (or passed, incomplete), 1 a fault
    found (or, with ``--strict``, an incomplete pass), 130 interrupted.

    One candidate (a file or a command line) is certified as it always was. Several, or a folder
    (every file in it whose extension names a known language, sorted by name), are certified one
    after another, each with every ``--jobs`` runner, then summed up in a table and
    ``REPORT_DIR/summary.json`` (see :func:`certify_many`).
    """
    from gamecert.engine import registry

    if args.game == "all":
        raise UsageError(
            "`certify all` certifies the registered solvers; give one game name with a candidate"
        )
    specs = list(getattr(args, "candidates", None) or [args.candidate])
    expanded = expand_candidates(specs, say=_say)
    entry = registry.get(args.game)
    settings = _settings(entry, args)
    if len(specs) == 1 and expanded == specs:
        return certify_one(settings, expanded[0], say=_say, display=_Display).status
    return certify_many(settings, expanded)


def expand_candidates(specs: list[str], say: Any = None) -> list[str]:
    """``specs`` with every folder replaced by its candidate files (known extensions, sorted by
    name, not recursive). A folder without any is a :class:`UsageError`; what a folder holds
    besides is told through ``say``, one line per folder (``skipped ...``).

    >>> expand_candidates(["sh -c true"])
    ['sh -c true']
    """
    from gamecert.engine.run.toolchains import EXTENSIONS, language_of

    out: list[str] = []
    for spec in specs:
        folder = Path(spec.strip()).expanduser()
        if not spec.strip() or not folder.is_dir():
            out.append(spec)
            continue
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
        files = [p for p in entries if p.is_file() and language_of(p) is not None]
        if not files:
            raise UsageError(
                f"folder {spec!r} holds no candidate file (extensions: {' '.join(sorted(EXTENSIONS))})"
            )
        out.extend(str(p) for p in files)
        skipped = [p.name + ("/" if p.is_dir() else "") for p in entries if p not in files]
        if skipped and say is not None:
            say(
                f"folder {spec}: {len(files)} candidate file{'s' if len(files) != 1 else ''}; skipped "
                f"{len(skipped)} (not a source file gamecert builds, or a folder: give a program as a "
                f"command line to run it): {', '.join(skipped)}"
            )
    return out


def _settings(entry: Any, args: Any) -> Options:
    """The options shared by every candidate, checked before anything runs."""
    return options(
        entry,
        profile=args.profile,
        seed=args.seed,
        time_limit=args.time_limit,
        memory_limit=args.memory_limit,
        budget=getattr(args, "budget", None),
        jobs=getattr(args, "jobs", None),
        examples=args.examples,
        exhaustive_runs=getattr(args, "exhaustive_runs", None),
        report_dir=args.report_dir,
        fork_server=not getattr(args, "no_fork_server", False),
        contain=not getattr(args, "no_contain", False),
        compile=getattr(args, "compile", None),
        python=getattr(args, "python", None),
        phases=getattr(args, "phases", None),
        strict=getattr(args, "strict", False),
    )


def certify_many(settings: Options, specs: list[str]) -> int:
    """Certify ``specs`` one after another (the engine's
    :func:`~gamecert.engine.certification.certify_many`), print the summary table and where
    ``summary.json`` is. Exit 1 if any failed (CE included), 130 if interrupted, else 0."""

    def table(results: list[CandidateResult]) -> None:
        _say()
        print_summary(results)

    batch = _certify_many(settings, specs, say=_say, display=_Display, before_summary=table)
    word = (
        "interrupted"
        if batch.interrupted
        else "all certified"
        if batch.status == 0 and not batch.incomplete
        else ", ".join(
            part
            for part in (
                f"{batch.failed} failed" if batch.failed else "",
                f"{batch.incomplete} passed (incomplete)" if batch.incomplete else "",
            )
            if part
        )
    )
    _say(f"summary: {len(batch.results)} candidates, {word}; summary.json in")
    _say(str(batch.summary_path))
    return batch.status


def print_summary(results: list[CandidateResult]) -> None:
    """A rich table on a terminal, aligned plain text otherwise."""
    import sys

    rows = summary_rows(results)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        table = Table(*_HEADERS, title="summary")
        for row in rows:
            style = (
                "green"
                if row[1] == CERTIFIED
                else "yellow"
                if row[1] in (INCOMPLETE, INTERRUPTED, "NOT RUN")
                else "red"
            )
            table.add_row(Text(row[0]), Text(row[1], style=style), *(Text(c) for c in row[2:]))
        Console(file=sys.stdout).print(table)
        return
    for line in summary_lines(results):
        _say(line)


# ---- replay ---------------------------------------------------------------------------------------


def replay_command(args: Any) -> int:
    """``gamecert replay REPORT_DIR [--candidate OTHER]``: one engine call
    (:func:`gamecert.engine.replay.replay`), its lines printed. Exit 1 if the fault shows (again),
    0 if the program answers right."""
    from gamecert.engine.replay import replay

    result = replay(args.report_dir, getattr(args, "candidate", None))
    for line in result.lines:
        echo(line)
    return 1 if result.failed else 0


__all__ = [
    "CandidateResult",
    "Failure",
    "HarnessError",
    "Judge",
    "Plan",
    "SHRINK_SECONDS",
    "Stats",
    "build_certificate",
    "build_report",
    "candidate_spec_for_replay",
    "certify_candidate_command",
    "expected_answer",
    "make_plan",
    "replay_command",
    "registered_solver",
    "run_certification",
    "summary_lines",
    "write_summary",
]
