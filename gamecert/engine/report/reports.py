"""Counterexample reports and certificates: plain frozen data, written atomically.

A certification ends in one directory ``REPORT_DIR/<game>/<candidate-name>-<timestamp>/``:

- on a fault, :class:`FailureReport` as ``report.md`` (for people), ``report.json`` (for
  machines and ``gamecert replay``), ``input.in`` and ``expected.ans`` (for contest tools);
- on success (or an interrupted run with nothing found), :class:`Certificate` as
  ``certificate.md`` and ``certificate.json``.

The directory is built under a hidden temporary name in the same parent and renamed into place
in one step, so a reader sees it complete or not at all; single files are written to a
temporary file beside them and moved over with :func:`os.replace`.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from gamecert.engine.report.diagnosis import diagnosis_markdown
from gamecert.engine.report.provenance import Provenance, gamecert_version, judge_provenance
from gamecert.engine.report.spaces import FamilyEvidence, SpaceEvidence
from gamecert.engine.report.text import (
    GOT_KEEP,
    clip,
    fence,
    n_of,
    one_line,
    safe_name,
    timestamp,
    visible,
    without_verdict,
)
from gamecert.verdict import CERTIFIED, INCOMPLETE, INTERRUPTED

REPORT_FILES = ("report.md", "report.json", "input.in", "expected.ans")
CERTIFICATE_FILES = ("certificate.md", "certificate.json")


# ---- data ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FailureReport:
    """One fault of one candidate on one input, with everything needed to see and replay it."""

    game: str
    candidate: str
    candidate_spec: str
    verdict: str
    verdict_meaning: str
    input: str
    expected: str
    got: str
    reason: str
    seed: int
    profile: str
    phase: str
    size: int
    explanation: str
    created: str
    minimality: str = ""
    stderr_tail: str = ""
    exit_code: int | None = None
    signal: int | None = None
    wall_s: float | None = None
    cpu_s: float | None = None
    max_rss_mb: float | None = None
    time_limit_s: float = 1.0
    memory_limit_mb: int = 256
    tests_run: int = 0
    interrupted: bool = False
    notes: tuple[str, ...] = ()
    containment: str = (
        ""  # how the candidate ran: contained or not (see gamecert.engine.run.contain)
    )
    provenance: Provenance = field(default_factory=Provenance)
    #: ``GAMECERT_GAMES`` as it was when the game came from a games folder: the commands below
    #: set it, so they find the game again ("" for the project's games)
    games_env: str = ""
    #: when it fails: a failing class learned and checked on fresh inputs (report/diagnosis.py)
    diagnosis: dict = field(default_factory=dict)
    #: the fault at the game's level: the first token that differs and what it means ("the
    #: winner: expected Second, got First"; "" when not a difference of tokens)
    fault: str = ""
    #: where it was found as the user knows it ("sample 2 (`abcde`), shrunk to size 4"; "": the phase)
    found_by: str = ""
    #: the plain command that reproduces it from this folder (``python3 wrong.py < input.in``)
    reproduce: str = ""

    def _env(self) -> str:
        return f"GAMECERT_GAMES={shlex.quote(self.games_env)} " if self.games_env else ""

    def replay_command(self, directory: str | os.PathLike[str]) -> str:
        return f"{self._env()}gamecert replay {shlex.quote(str(directory))}"

    def rerun_command(self) -> str:
        return (
            f"{self._env()}gamecert certify {self.game} {shlex.quote(self.candidate_spec)} "
            f"--seed {self.seed} --profile {self.profile} "
            f"--time-limit {self.time_limit_s:g} --memory-limit {self.memory_limit_mb}"
        )

    def to_json(self, directory: str | os.PathLike[str] | None = None) -> dict[str, Any]:
        data = asdict(self)
        data["notes"] = list(self.notes)
        data["reason"] = without_verdict(self.reason, self.verdict)
        data["kind"] = "report"
        if directory is not None:
            data["replay"] = self.replay_command(directory)
        data["rerun"] = self.rerun_command()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FailureReport:
        names = {f for f in cls.__dataclass_fields__}
        kwargs = {k: v for k, v in data.items() if k in names}
        kwargs["notes"] = tuple(kwargs.get("notes", ()))
        kwargs["provenance"] = Provenance.from_json(kwargs.get("provenance"))
        return cls(**kwargs)

    #: report.md's sections, top down: what is wrong first, then why in the game, then the evidence
    #: and how it ran, once. A new section is one name here and one ``_section_NAME`` method.
    SECTIONS: ClassVar[tuple[str, ...]] = (
        "verdict",
        "input",
        "expected",
        "got",
        "why",
        "reproduce",
        "stderr",
        "explanation",
        "diagnosis",
        "evidence",
        "notes",
        "replay",
        "provenance",
    )

    def describe(self, directory: str | os.PathLike[str] | None = None) -> str:
        """The Markdown ``report.md``: its :attr:`SECTIONS` in order, each a list of lines."""
        shown = str(directory) if directory is not None else "REPORT_DIR"
        out: list[str] = []
        for name in self.SECTIONS:
            lines = getattr(self, f"_section_{name}")(shown)
            if lines:
                out += [*lines, ""]
        return "\n".join(out)

    def _section_verdict(self, _shown: str) -> list[str]:
        out = [
            f"# {self.verdict} ({self.verdict_meaning}): {visible(self.candidate)} on {self.game}",
            "",
        ]
        out.append(
            f"- **Verdict:** {self.verdict}: "
            f"{one_line(self.fault or without_verdict(self.reason, self.verdict))}"
        )
        out.append(f"- **Candidate:** `{visible(self.candidate_spec)}`")
        out.append(
            f"- **Found by:** {visible(self.found_by or self.phase)} (input size {self.size}; "
            f"after {n_of(self.tests_run, 'test')})"
        )
        if self.interrupted:
            out.append(
                "- **Interrupted:** the run was stopped early; this is the fault found so far."
            )
        return out

    def _section_input(self, _shown: str) -> list[str]:
        return ["## Input", "", fence(self.input)]

    def _section_expected(self, _shown: str) -> list[str]:
        return ["## Expected", "", fence(self.expected)]

    def _section_got(self, _shown: str) -> list[str]:
        out = ["## Got", "", fence(self.got if self.got else "(no output)")]
        texts = (self.input + self.expected + self.got + self.stderr_tail).replace("\n", "")
        if visible(texts) != texts:  # (isprintable() lets zero-width and combining marks through)
            out += [
                "",
                "Control and invisible characters are shown as escapes such as `\\x00`; "
                "`report.json` keeps the exact text.",
            ]
        return out

    def _section_why(self, _shown: str) -> list[str]:
        reason = one_line(without_verdict(self.reason, self.verdict))
        lines = [self.fault] if self.fault else []
        if reason and reason.replace("'", "").rpartition(": ")[2] != self.fault.rpartition(": ")[2]:
            lines.append(reason)
        return ["## Why", "", *[f"- {visible(line)}" for line in lines]] if lines else []

    def _section_reproduce(self, _shown: str) -> list[str]:
        if not self.reproduce:
            return []
        return ["## Reproduce", "", "From this folder:", "", fence(self.reproduce, lang="sh")]

    def _section_stderr(self, _shown: str) -> list[str]:
        return ["## Last lines of stderr", "", fence(self.stderr_tail)] if self.stderr_tail else []

    def _section_explanation(self, _shown: str) -> list[str]:
        return [
            "## The game: the oracle's explanation of the position",
            "",
            visible(self.explanation.rstrip(), True),
        ]

    def _section_evidence(self, _shown: str) -> list[str]:
        out = ["## Evidence", ""]
        if self.minimality:
            out.append(f"- **Minimal:** {visible(self.minimality)}")
        out += [
            f"- **Seed:** {self.seed} (profile {self.profile})",
            f"- **Limits:** {self.time_limit_s:g} s per test, {self.memory_limit_mb} MB",
        ]
        run = _run_line(self)
        if run:
            out.append(f"- **Run:** {run}")
        return out

    def _section_diagnosis(self, _shown: str) -> list[str]:
        return diagnosis_markdown(self.diagnosis)[1:]  # when it fails (report/diagnosis.py)

    def _section_notes(self, _shown: str) -> list[str]:
        notes = [note for note in self.notes if not note.startswith(HOW_IT_RAN)]
        return ["## Notes", "", *[f"- {visible(note)}" for note in notes]] if notes else []

    def _section_replay(self, shown: str) -> list[str]:
        return [
            "## Replay",
            "",
            fence(self.replay_command(shown), lang="sh"),
            "",
            "The whole certification again, same seed:",
            "",
            fence(self.rerun_command(), lang="sh"),
            "",
            "`input.in` and `expected.ans` beside this file hold the input and the expected output.",
        ]

    def _section_provenance(self, _shown: str) -> list[str]:
        lines = how_it_ran(self.containment, self.notes, self.provenance)
        return ["## How it ran", "", *lines] if lines else []


@dataclass(frozen=True)
class Certificate:
    """The evidence a run found nothing: what was run, how much, how fast."""

    game: str
    candidate: str
    candidate_spec: str
    seed: int
    profile: str
    samples: int
    exhaustive: tuple[SpaceEvidence, ...]
    random_examples: int
    largest_sizes: tuple[int, ...]
    tests: int
    runs: int
    elapsed_s: float
    slowest_s: float
    slowest_what: str
    time_limit_s: float
    memory_limit_mb: int
    created: str
    interrupted: bool = False
    notes: tuple[str, ...] = field(default=())
    families: tuple[FamilyEvidence, ...] = ()
    budget_s: float | None = None
    jobs: int = 1
    #: phases the time budget cut short (their evidence is what ran)
    cut_phases: tuple[str, ...] = ()
    audits: int = 0
    #: the plain audits and the bound they give (gamecert.engine.judge.audit.audit_statement)
    audit_line: str = ""
    #: phases left out on purpose (``--phases``)
    skipped_phases: tuple[str, ...] = ()
    containment: str = (
        ""  # how the candidate ran: contained or not (see gamecert.engine.run.contain)
    )
    provenance: Provenance = field(default_factory=Provenance)
    #: Hypothesis examples (inputs) of the random phase; ``random_examples`` counts the games in them
    random_inputs: int | None = None
    #: games judged by the exact search ("oracle"), by every fast solver agreeing ("all fast
    #: solvers"), by the cheapest fast solver alone ("one fast solver")
    judged_by: dict[str, int] = field(default_factory=dict)
    #: the fast solvers the game registers (how many agreed where all of them answered)
    solvers: tuple[str, ...] = ()
    #: what the expected answers rest on, one line per range of sizes (report/basis.py)
    answers_rest_on: tuple[str, ...] = ()
    #: what of the plan did not run to its end (:func:`gamecert.engine.judge.evidence.left_out`);
    #: empty: the evidence is complete, the verdict CERTIFIED
    left_out: tuple[str, ...] = ()
    #: the sentence saying what was left out and what budget would complete it ("" if complete)
    incomplete: str = ""

    @property
    def verdict(self) -> str:
        """CERTIFIED only on the plan's complete evidence; PASSED (incomplete) when part of it was
        left out; INTERRUPTED when the user stopped the run."""
        if self.interrupted:
            return INTERRUPTED
        return INCOMPLETE if self.left_out else CERTIFIED

    @property
    def tests_per_second(self) -> float:
        return self.tests / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["exhaustive"] = [asdict(s) for s in self.exhaustive]
        data["families"] = [asdict(f) for f in self.families]
        data["cut_phases"] = list(self.cut_phases)
        data["skipped_phases"] = list(self.skipped_phases)
        data["largest_sizes"] = list(self.largest_sizes)
        data["notes"] = list(self.notes)
        data["left_out"] = list(self.left_out)
        data["kind"] = "certificate"
        data["verdict"] = self.verdict
        data["tests_per_second"] = round(self.tests_per_second, 1)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Certificate:
        names = {f for f in cls.__dataclass_fields__}
        kwargs = {k: v for k, v in data.items() if k in names}
        kwargs["exhaustive"] = tuple(SpaceEvidence(**s) for s in kwargs.get("exhaustive", ()))
        kwargs["families"] = tuple(FamilyEvidence(**f) for f in kwargs.get("families", ()))
        kwargs["cut_phases"] = tuple(kwargs.get("cut_phases", ()))
        kwargs["skipped_phases"] = tuple(kwargs.get("skipped_phases", ()))
        kwargs["largest_sizes"] = tuple(kwargs.get("largest_sizes", ()))
        kwargs["notes"] = tuple(kwargs.get("notes", ()))
        kwargs["solvers"] = tuple(kwargs.get("solvers", ()))
        kwargs["answers_rest_on"] = tuple(kwargs.get("answers_rest_on", ()))
        kwargs["left_out"] = tuple(kwargs.get("left_out", ()))
        kwargs["provenance"] = Provenance.from_json(kwargs.get("provenance"))
        return cls(**kwargs)

    def evidence_lines(self) -> list[str]:
        lines = [f"samples: {self.samples}, checked against the oracle"]
        for phase, title in (("coverage", "coverage"), ("worst", "worst case")):
            lines += [f"{title}: {f.describe()}" for f in self.families if f.phase == phase]
        lines += [s.describe() for s in self.exhaustive]
        if self.random_inputs is None or self.random_inputs == self.random_examples:
            lines.append(
                f"random: {self.random_examples} Hypothesis examples (one game each), seed {self.seed}"
            )
        else:
            lines.append(
                f"random: {n_of(self.random_examples, 'game')} in {self.random_inputs} Hypothesis examples "
                f"(inputs), seed {self.seed}"
            )
        if self.judged_by:
            lines.append(self.rests_on())
        lines += [f"expected answers for {line}" for line in self.answers_rest_on]
        if self.largest_sizes:
            sizes = ", ".join(str(s) for s in self.largest_sizes)
            lines.append(f"largest: {n_of(len(self.largest_sizes), 'input')} at sizes {sizes}")
        else:
            lines.append("largest: none run")
        share = (
            f", {100 * self.slowest_s / self.time_limit_s:.0f}% of the {self.time_limit_s:g} s limit"
            if self.time_limit_s
            else ""
        )
        lines.append(
            f"slowest test: {self.slowest_s:.3f} s CPU{share} ({self.slowest_what or 'n/a'})"
        )
        if self.skipped_phases:
            lines.append("not run (left out with --phases): " + ", ".join(self.skipped_phases))
        if self.cut_phases:
            lines.append(
                "cut short by the time budget: "
                + ", ".join(self.cut_phases)
                + " (what ran of them is listed above)"
            )
        if self.audit_line:
            lines.append(self.audit_line)
        elif self.audits:
            lines.append(
                f"isolation audits: {self.audits} passing tests re-run in fresh processes, same verdict"
            )
        return lines

    def rests_on(self) -> str:
        """What the verdicts rest on: games judged by the exact search, by every fast solver, by one."""
        by = self.judged_by
        oracle, every, one = (
            by.get("oracle", 0),
            by.get("all fast solvers", 0),
            by.get("one fast solver", 0),
        )
        text = f"judged by: the exact search (oracle) {oracle:,} games"
        if every or one:
            n = len(self.solvers)
            text += (
                f"; beyond its reach, every fast solver ({n}: {', '.join(self.solvers)}) agreeing {every:,}, "
                f"one fast solver alone (the cheapest; the others answer 1 in 16) {one:,}"
            )
        return text

    def describe(self) -> str:
        """The Markdown ``certificate.md``: the verdict and what it rests on first, then the
        evidence, then how the program ran and what it was (containment, provenance), once."""
        head = {
            CERTIFIED: f"# CERTIFIED: {visible(self.candidate)} on {self.game}",
            INCOMPLETE: f"# PASSED (incomplete): {visible(self.candidate)} on {self.game}: nothing found, "
            "part of the plan not run",
            INTERRUPTED: f"# INTERRUPTED (partial evidence, nothing found so far): {visible(self.candidate)} "
            f"on {self.game}",
        }[self.verdict]
        out = [head, ""]
        if self.incomplete:
            out.append(f"- **Incomplete:** {self.incomplete}")
        out += [
            f"- **Candidate:** `{visible(self.candidate_spec)}`",
            f"- **Profile:** {self.profile}; **seed:** {self.seed}",
            f"- **Limits:** {self.time_limit_s:g} s per test, {self.memory_limit_mb} MB",
            f"- **Tests:** {n_of(self.tests, 'input')} judged in {n_of(self.runs, 'run')}, {self.elapsed_s:.1f} s "
            f"({self.tests_per_second:.0f} tests/s)"
            + (
                f"; budget {self.budget_s:g} s, {self.jobs} runner(s) in parallel"
                if self.budget_s
                else ""
            ),
            "",
            "## Evidence",
            "",
        ]
        out += [f"- {line}" for line in self.evidence_lines()]
        notes = [note for note in self.notes if not note.startswith(HOW_IT_RAN)]
        if notes:
            out += ["", "## Notes", ""] + [f"- {visible(note)}" for note in notes]
        trail = how_it_ran(self.containment, self.notes, self.provenance)
        if trail:
            out += ["", "## How it ran", "", *trail]
        out.append("")
        return "\n".join(out)


#: notes that say how the program ran (the executor's): listed with the containment, once
HOW_IT_RAN = ("each test started as: ", "processes, CPU and memory: ")


def how_it_ran(containment: str, notes: tuple[str, ...], provenance: Provenance) -> list[str]:
    """The end of a report or certificate, once: how the program was contained and started, what
    counted its processes, CPU and memory, and what was judged by what (provenance). The
    containment's own accounting clause is left out when the runner's exact one is among the notes.

    >>> how_it_ran("contained (x): a; accounting: b", ("processes, CPU and memory: b, pids.max 9",), Provenance())
    ['- **Containment:** contained (x): a', '- **Processes, CPU and memory:** b, pids.max 9']
    """
    ran = [note for note in notes if note.startswith(HOW_IT_RAN)]
    if containment and any(note.startswith(HOW_IT_RAN[1]) for note in ran):
        containment = containment.partition("; accounting: ")[0]
    out = [f"- **Containment:** {visible(containment)}"] if containment else []
    for note in ran:
        label, _, text = note.partition(": ")
        out.append(f"- **{label[0].upper() + label[1:]}:** {visible(text)}")
    return out + provenance.lines()


def _run_line(report: FailureReport) -> str:
    parts = []
    if report.exit_code is not None:
        parts.append(f"exit code {report.exit_code}")
    if report.signal is not None:
        parts.append(f"signal {report.signal}")
    if report.wall_s is not None:
        parts.append(f"wall {report.wall_s:.3f} s")
    if report.cpu_s is not None:
        parts.append(f"cpu {report.cpu_s:.3f} s")
    if report.max_rss_mb is not None:
        parts.append(f"max rss {report.max_rss_mb:.0f} MB")
    return ", ".join(parts)


__all__ = [
    "CERTIFICATE_FILES",
    "GOT_KEEP",
    "REPORT_FILES",
    "Certificate",
    "FailureReport",
    "FamilyEvidence",
    "Provenance",
    "SpaceEvidence",
    "clip",
    "gamecert_version",
    "how_it_ran",
    "judge_provenance",
    "safe_name",
    "timestamp",
    "visible",
    "without_verdict",
]
