"""Replaying a report: its saved input run once more, on its own program or on another one, and
judged the way the certification judged it (``gamecert replay`` prints what this returns).

Replay never trusts a report.json it did not write. The program it runs is the one given on the
command line (``other``), or the report's own only when gamecert wrote that report.json itself,
for this user (:mod:`gamecert.engine.report.written`); a report of someone else's without a
program given is refused with a line saying how to name one. The second line says which. The
limits are always the game's (a report's recorded limits are never used; a line notes when they
differ). The report's own program is built as it was (its ``--compile`` and ``--python``); a line
warns when its sha256 differs from the one the report recorded. Another program is built with
the defaults, and the first lines say that it is not the one reported. A registered solver
(``solver:NAME``) runs in-process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamecert.engine import registry
from gamecert.engine.judge.evidence import _block, _one_line
from gamecert.engine.judge.judge import Judge
from gamecert.engine.report.report_files import read_report
from gamecert.engine.report.reports import FailureReport, Provenance, visible
from gamecert.engine.report.written import wrote
from gamecert.engine.run.limits import game_limits
from gamecert.engine.run.sandbox import Candidate, open_runner
from gamecert.engine.run.subjects import SOLVER_PREFIX, SolverRunner
from gamecert.engine.run.toolchains import CompileError
from gamecert.errors import InputError, UsageError
from gamecert.verdict import Verdict


@dataclass
class Replayed:
    """What a replay showed: the lines to print, and whether the fault showed."""

    lines: list[str] = field(default_factory=list)
    failed: bool = False


def replay(report_dir: Any, other: str | None = None) -> Replayed:
    """Run the report in ``report_dir`` again (on ``other``, a candidate spec, if given).
    ``report_dir`` may also be any file in that folder (report.md, input.in, ...)."""
    folder = report_folder(report_dir)
    report = read_report(folder)
    entry = registry.get(report.game)
    game = entry.game
    out = Replayed()
    prov = report.provenance
    spec = (other if other is not None else report.candidate_spec).strip()
    if spec.startswith(SOLVER_PREFIX):  # a solver of the game's own, by name: no command run
        return _replay_solver(report, entry, spec[len(SOLVER_PREFIX) :], other)
    if other is None and not wrote(folder / "report.json"):
        raise UsageError(
            f"{folder}/report.json was not written by gamecert for you here (or it was changed "
            "since): replay does not run the command a report names; name the program to run "
            f"the report's input on: gamecert replay {folder} --candidate PROGRAM"
        )
    whence = (
        "program: given on the command line"
        if other is not None
        else "program: the report's own (a report gamecert wrote for you)"
    )
    try:
        if other is not None:
            candidate = Candidate.parse(other)
        else:
            candidate = Candidate.parse(
                report.candidate_spec,
                compile=prov.compile_option or None,
                python=prov.python_option or None,
            )
    except CompileError as exc:
        out.lines += [
            _replay_head(report, other),
            f"verdict:  {Verdict.CE} ({Verdict.CE.meaning}): {visible(str(exc))}",
        ]
        out.failed = True
        return out
    except UsageError as exc:
        if other is not None:
            raise
        raise UsageError(f"the report's candidate cannot be run any more: {exc}") from None
    out.lines.append(_replay_head(report, other))
    out.lines.append(whence)
    if other is None:
        now = Provenance.of(candidate).program_sha256()
        then = prov.program_sha256()
        if then and now and now != then:
            out.lines.append(
                f"warning: the program changed since the report (sha256 {then[:12]}... then, "
                f"{now[:12]}... now)"
            )
    if report.phase == "compile" and not report.input:
        out.lines.append(
            "verdict:  OK (it compiles now; `gamecert certify` judges it)"
            if other is None
            else "verdict:  OK (it compiles; the report has no input to run)"
        )
        return out
    limits = game_limits(game)  # the game's, never the file's
    if (report.time_limit_s, report.memory_limit_mb) != (limits.time_s, limits.memory_mb):
        out.lines.append(
            f"note: the report records limits of {report.time_limit_s:g} s and "
            f"{report.memory_limit_mb} MB; replay runs under the game's, {limits.time_s:g} s "
            f"and {limits.memory_mb} MB"
        )
    instance = _instance(game, report)
    with open_runner(candidate, limits, fork_server=False) as runner:
        judge = Judge(entry, runner)
        failure = judge.run_one(instance, report.phase, text=report.input)
        expected, source = judge.expected(instance, report.input)
    expected_text = game.format_answer(expected)
    out.lines.append(_block("input", report.input).lstrip())
    expected_block = _block("expected", expected_text).lstrip()
    out.lines.append(
        expected_block
        + (
            f"\n  (expected answer from {source})"
            if "\n" in expected_block
            else f"   (from {source})"
        )
    )
    if expected_text.split() != report.expected.split():
        out.lines.append(
            _block("note: the report expected", report.expected).lstrip()
            + "; the oracle now says otherwise"
        )
    if failure is None:
        out.lines.append(_block("got", judge.last_result.stdout or "(no output)").lstrip())
        if (
            report.verdict == Verdict.UB.value
        ):  # the judge's build answers right: the sanitizer builds tell
            from gamecert.engine.judge.sanitize import replay_lines

            out.failed, lines = replay_lines(
                entry, candidate, instance, report.input, limits, prov.compile_option or None
            )
            out.lines += lines
            return out
        out.lines.append(
            "verdict:  OK (the fault did not show" + (" on this program)" if other else " again)")
        )
        return out
    out.lines.append(_block("got", failure.got_text or "(no output)").lstrip())
    out.lines.append(
        f"verdict:  {failure.verdict} ({failure.verdict.meaning}): {_one_line(failure.reason)}"
    )
    out.failed = True
    return out


def report_folder(path: Any) -> Path:
    """The report folder ``path`` names: the folder itself, or the folder of a file in it
    (report.md, report.json, input.in, expected.ans: what a user may have at hand).

    >>> str(report_folder("reports/word_game/wrong-1"))
    'reports/word_game/wrong-1'
    """
    given = Path(path).expanduser()
    if given.is_file():
        if (given.parent / "report.json").is_file() or (
            given.parent / "certificate.json"
        ).is_file():
            return given.parent
        raise UsageError(
            f"{path} is a file outside any report folder; give the folder `gamecert certify` "
            "wrote (or any file in it, such as its report.md)"
        )
    return given


def _instance(game: Any, report: FailureReport) -> Any:
    try:
        return game.parse_input(report.input)
    except InputError as exc:
        raise UsageError(f"the report's input is not a valid {game.name} input: {exc}") from None


def _replay_solver(report: FailureReport, entry: Any, solver: str, other: str | None) -> Replayed:
    """Replay a report's input on a registered solver, in-process."""
    from gamecert.engine.solvers import reference_entry

    game = entry.game
    if solver not in entry.solvers:
        raise UsageError(
            f"the report's candidate cannot be run any more: {game.name} has no registered "
            f"solver {solver!r}"
        )
    instance = _instance(game, report)
    out = Replayed(lines=[_replay_head(report, other)])
    with SolverRunner(entry, solver, entry.solvers[solver]) as runner:
        judge = Judge(reference_entry(entry, solver), runner)
        failure = judge.run_one(instance, report.phase, text=report.input)
        expected, source = judge.expected(instance, report.input)
    out.lines.append(_block("input", report.input).lstrip())
    out.lines.append(
        _block("expected", game.format_answer(expected)).lstrip() + f"   (from {source})"
    )
    if failure is None:
        out.lines.append(_block("got", judge.last_result.stdout).lstrip())
        out.lines.append("verdict:  OK (the fault did not show again)")
        return out
    out.lines.append(_block("got", failure.got_text or "(no output)").lstrip())
    out.lines.append(
        f"verdict:  {failure.verdict} ({failure.verdict.meaning}): {_one_line(failure.reason)}"
    )
    out.failed = True
    return out


def _replay_head(report: FailureReport, other: str | None) -> str:
    """The first line of a replay: whose input, run on which program."""
    head = f"replay {report.game} {visible(report.candidate_spec)} (reported {report.verdict}, seed {report.seed})"
    if other is not None:
        head += f"\nrunning the report's input on ANOTHER program: {visible(other)} (not the one reported)"
    return head
