"""pytest plugin: certify candidate programs as test items, ``pytest -n auto --candidate GAME=CANDIDATE``.

Each ``--candidate GAME=CANDIDATE`` (repeatable) becomes a group of test items, one per chunk of
its plan (see :mod:`gamecert.engine.plan.plan`; a plan fixed by counts, so every process builds the
same chunks): ``samples``, ``exhaustive-size-K`` (``-J`` when a size is cut into several
chunks), ``random-I`` and ``largest-J``. pytest-xdist spreads the items over its workers, local
(``-n auto``) or on other hosts (``-d --tx ssh=HOST//python=PY``); every item reports through
pytest, so ``--junitxml`` and ``-k`` work as usual.

Each item runs :func:`gamecert.engine.items.run_item`; the controller merges them with
:func:`gamecert.engine.items.merge_items`: this module moves the data and prints.

No file system is assumed shared: the controller reads each candidate once and sends it to the
workers with its sha256 (:mod:`gamecert.engine.shipping`); a worker compiles a source itself, and refuses
bytes that do not hash as sent. At the end of the session the controller alone writes the same
files ``gamecert certify`` writes, merging every worker's evidence: the report of the smallest
fault found over all workers, or the certificate if every item passed (marked interrupted if
some items did not run). See ``docs/scale-out.md``.

Options: ``--candidate-seed`` (default: chosen once and shared with the workers),
``--candidate-profile`` (default: ``--gamecert-profile`` or ``GAMECERT_PROFILE``),
``--candidate-examples``, ``--candidate-time-limit``, ``--candidate-memory-limit``,
``--candidate-compile``, ``--candidate-phases`` (as ``certify --phases``: only these phases, samples
always; the certificate lists the phases left out) and ``--candidate-report-dir``. Without ``--candidate`` the plugin adds
nothing.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr  # (what Item.repr_failure may return)

from gamecert.errors import GamecertError
from gamecert.verdict import INCOMPLETE, INTERRUPTED, PASSING, passing_status

_SEED_KEY = "gamecert_candidate_seed"
_CANDIDATES_KEY = "gamecert_candidates"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gamecert-candidate", "gamecert: certify candidate programs")
    group.addoption(
        "--candidate",
        action="append",
        default=[],
        metavar="GAME=CANDIDATE",
        help="certify CANDIDATE (a .py file, an executable or a quoted command line) on GAME; repeatable",
    )
    group.addoption(
        "--candidate-seed",
        type=int,
        default=None,
        metavar="S",
        help="random seed of the Hypothesis blocks (default: chosen and reported)",
    )
    group.addoption(
        "--candidate-profile",
        default=None,
        choices=["quick", "default", "ci", "thorough"],
        help="how hard to look (default: --gamecert-profile, $GAMECERT_PROFILE or 'default')",
    )
    group.addoption(
        "--candidate-examples",
        type=int,
        default=None,
        metavar="N",
        help="random cases in all (default: from the profile)",
    )
    group.addoption(
        "--candidate-time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="per test (default: the problem's)",
    )
    group.addoption(
        "--candidate-memory-limit",
        type=int,
        default=256,
        metavar="MB",
        help="per test (default 256)",
    )
    group.addoption(
        "--candidate-report-dir",
        default="reports",
        metavar="DIR",
        help="where reports and certificates go (default reports/)",
    )
    group.addoption(
        "--candidate-phases",
        default=None,
        metavar="LIST",
        help="run only these phases (comma-separated: coverage, worst, exhaustive, random, largest; "
        "samples always run); the certificate says which ran",
    )
    group.addoption(
        "--candidate-strict",
        action="store_true",
        default=False,
        help="fail the session (exit 1) when a candidate passed on incomplete evidence "
        "(PASSED (incomplete))",
    )
    group.addoption(
        "--candidate-compile",
        default=None,
        metavar="COMMAND",
        help="compile command of source candidates, with {src} and {exe} (default: the language's)",
    )


def pytest_configure(config: pytest.Config) -> None:
    specs = config.getoption("candidate") or []
    if not specs:
        return
    config.pluginmanager.register(_CandidateSession(config, specs), "gamecert-candidate-session")


# ---- per-candidate setup ------------------------------------------------------------------------


@dataclass
class _Target:
    """One ``GAME=CANDIDATE``: the candidate as this process runs it, and its plan (built after
    pytest's start-up, identical in the controller and every worker)."""

    text: str
    entry: Any
    candidate: Any
    limits: Any
    profile: Any
    examples: int
    seed: int
    group_id: str
    #: the candidate as sent to workers (controller) or as received (worker)
    shipment: Any = None
    #: why this process cannot run the candidate (a worker whose shipment failed its checks)
    error: str = ""
    plan: Any = None
    groups: list[Any] = field(default_factory=list)
    evidence: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (chunk key, report)
    errors: list[str] = field(default_factory=list)
    written: Path | None = None
    verdict: str = ""
    #: a source that did not compile (its CompileError): no items, a CE report
    compile_error: Any = None
    #: the smallest failing input written, and the tests run (for the summary)
    failing_input: str = ""
    failing_size: int | None = None
    #: ``--candidate-phases``: only these phases (samples always), None for all
    phases: tuple[str, ...] | None = None

    def build_plan(self) -> None:
        """The plan, fixed by counts: every process that builds it gets the same chunks."""
        from gamecert.engine.plan.plan import exhaustive_tests, make_plan

        if self.plan is None:
            self.plan = make_plan(
                self.entry,
                self.profile,
                self.seed,
                examples=self.examples,
                exhaustive_tests=exhaustive_tests(self.entry.game, self.profile),
                phases=self.phases,
            )
            self.groups = [] if self.compile_error is not None else self.plan.all_groups()


def _split_spec(text: str) -> tuple[str, str]:
    game, sep, spec = text.partition("=")
    if not sep or not game.strip() or not spec.strip():
        raise GamecertError(f"--candidate wants GAME=CANDIDATE, got {text!r}")
    return game.strip(), spec.strip()


def _parse_target(
    text: str, config: pytest.Config, seed: int, shipment: Any = None, group_id: str | None = None
) -> _Target:
    """A target from ``--candidate`` (controller, or a run without xdist), or from what the
    controller shipped (``shipment`` given: a worker, which prepares the candidate itself)."""
    from gamecert.engine import registry
    from gamecert.engine.plan.profiles import get_profile
    from gamecert.engine.run.limits import game_limits
    from gamecert.engine.run.sandbox import Candidate
    from gamecert.engine.shipping import pack

    game, spec = _split_spec(text)
    entry = registry.get(game)
    profile = get_profile(config.getoption("candidate_profile") or _core_profile(config))
    examples = config.getoption("candidate_examples")
    if examples is not None and examples < 0:
        raise GamecertError(f"--candidate-examples must be 0 or more, got {examples}")
    limits = game_limits(
        entry.game,
        config.getoption("candidate_time_limit"),
        config.getoption("candidate_memory_limit"),
    )
    examples = profile.examples if examples is None else examples
    phases = _phases(config.getoption("candidate_phases"))
    if shipment is None:
        from gamecert.engine.run.toolchains import CompileError

        try:
            candidate = Candidate.parse(spec, compile=config.getoption("candidate_compile"))
        except CompileError as exc:  # one item, failing with the compiler's message; a CE report
            group_id = f"candidate/{entry.name}/{Path(exc.source).stem}"
            return _Target(
                text,
                entry,
                None,
                limits,
                profile,
                examples,
                seed,
                group_id,
                None,
                compile_error=exc,
                phases=phases,
            )
        shipment = pack(candidate, config.getoption("candidate_compile"))
        group_id = f"candidate/{entry.name}/{candidate.name}"
        return _Target(
            text,
            entry,
            candidate,
            limits,
            profile,
            examples,
            seed,
            group_id,
            shipment,
            phases=phases,
        )
    return _Target(
        text, entry, None, limits, profile, examples, seed, group_id or "", shipment, phases=phases
    )


def _phases(given: str | None) -> tuple[str, ...] | None:
    """``--candidate-phases`` as a tuple (None: every phase); an unknown name is refused."""
    from gamecert.engine.plan.plan import PHASES

    if not given:
        return None
    chosen = tuple(p.strip() for p in given.split(",") if p.strip())
    unknown = [p for p in chosen if p not in PHASES]
    if unknown or not chosen:
        raise GamecertError(
            f"--candidate-phases: unknown phase {unknown[0] if unknown else given!r}; "
            f"the phases are {', '.join(PHASES)}"
        )
    return chosen


def _core_profile(config: pytest.Config) -> str | None:
    try:
        return config.getoption("gamecert_profile")
    except ValueError:
        return None


class _CandidateSession:
    """Builds the items (workers, or a run without xdist) and the final files (controller)."""

    def __init__(self, config: pytest.Config, specs: list[str]) -> None:
        self.config = config
        self.is_worker = hasattr(config, "workerinput")
        self.started = time.perf_counter()
        self.folder: str | None = None  # a worker's own folder for the candidates it was sent
        try:
            if self.is_worker:
                self._worker_targets(config.workerinput)  # type: ignore[attr-defined]
            else:
                chosen = config.getoption("candidate_seed")
                self.seed = (
                    chosen if chosen is not None else random.SystemRandom().randrange(1, 2**31)
                )
                self.targets = [_parse_target(text, config, self.seed) for text in specs]
        except GamecertError as exc:
            raise pytest.UsageError(f"gamecert: {exc}") from None
        seen: dict[str, int] = {}
        for t in self.targets:  # the same candidate twice: keep node ids apart
            seen[t.group_id] = seen.get(t.group_id, 0) + 1
            if seen[t.group_id] > 1:
                t.group_id += f"-{seen[t.group_id]}"

    def _worker_targets(self, workerinput: dict[str, Any]) -> None:
        """A worker: the seed and the candidates come from the controller, never from this host's
        file system. A candidate that fails its checks here does not stop the worker (xdist would
        wait for it forever): every item of that candidate fails with the reason instead."""
        import tempfile

        from gamecert.engine.run.toolchains import CompileError
        from gamecert.engine.shipping import Shipment, unpack

        self.seed = int(workerinput[_SEED_KEY])
        self.targets = []
        self.folder = tempfile.mkdtemp(prefix="gamecert-worker-")
        for index, sent in enumerate(workerinput[_CANDIDATES_KEY]):
            if sent.get("compile_error") is not None:
                source, output, command = sent["compile_error"]
                target = _parse_target(
                    sent["text"],
                    self.config,
                    self.seed,
                    Shipment(sent["text"], "command"),
                    sent["group"],
                )
                target.shipment, target.compile_error = (
                    None,
                    CompileError(source, output, tuple(command)),
                )
                self.targets.append(target)
                continue
            shipment = Shipment.from_wire(sent["shipment"])
            target = _parse_target(sent["text"], self.config, self.seed, shipment, sent["group"])
            worker = workerinput.get("workerid", "worker")
            try:
                folder = Path(self.folder) / str(index)
                folder.mkdir()
                target.candidate = unpack(shipment, folder)
            except (GamecertError, OSError) as exc:
                target.error = f"worker {worker} cannot run {sent['text']!r}: {exc}"
            self.targets.append(target)

    # -- xdist: the seed and the candidates, to every worker --
    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[_SEED_KEY] = self.seed
        node.workerinput[_CANDIDATES_KEY] = [
            {
                "text": t.text,
                "group": t.group_id,
                "shipment": t.shipment.to_wire() if t.shipment is not None else None,
                # a source that did not compile here: the workers make its one failing item alike
                "compile_error": None
                if t.compile_error is None
                else [
                    t.compile_error.source,
                    t.compile_error.output,
                    list(t.compile_error.command),
                ],
            }
            for t in self.targets
        ]

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.folder is not None:
            import shutil

            shutil.rmtree(self.folder, ignore_errors=True)

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        lines = []
        for t in self.targets:
            if t.compile_error is not None:
                lines.append(f"gamecert candidate {t.text}: does not compile (CE)")
                continue
            what = (
                t.shipment.kind
                if t.shipment.kind == "command"
                else f"{t.shipment.kind} {t.shipment.name}, sha256 {t.shipment.sha256[:16]}..."
            )
            lines.append(
                f"gamecert candidate {t.text}: {what}; profile {t.profile.name}, seed {self.seed}"
            )
        return lines

    # -- collection (first, so that -k and -m see these items too) --
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        if self.targets and config.args_source != pytest.Config.ArgsSource.ARGS:
            # `pytest --candidate ...` with no test paths named: the candidate alone, not
            # whatever test suite lives in this folder (name paths to run both); the items of
            # gamecert's other route (--solvers, --prove) stay
            config.hook.pytest_deselected(
                items=[i for i in items if not getattr(i, "gamecert_item", False)]
            )
            items[:] = [i for i in items if getattr(i, "gamecert_item", False)]
        for target in self.targets:
            target.build_plan()
            group = CandidateGroup.from_parent(
                session, name=target.group_id, nodeid=target.group_id
            )
            group.target = target
            if target.compile_error is not None:  # one item, failing with the compiler's message
                item = CandidateItem.from_parent(group, name="compile")
                item.target, item.chunk = target, None
                items.append(item)
            for chunk in (c for g in target.groups for c in g.chunks):
                item = CandidateItem.from_parent(group, name=chunk.key)
                item.target = target
                item.chunk = chunk
                items.append(item)

    # -- results, in the controller --
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call" and not (report.when == "setup" and report.failed):
            return
        for key, value in report.user_properties:
            if key not in ("gamecert_evidence", "gamecert_failure", "gamecert_error"):
                continue
            data = json.loads(cast(str, value))  # (written as JSON text by the items)
            target = next((t for t in self.targets if t.group_id == data["group"]), None)
            if target is None:
                continue
            if key == "gamecert_evidence":
                target.evidence[data["chunk"]] = data
            elif key == "gamecert_failure":
                target.failures.append((data.get("chunk", ""), data["report"]))
            elif data["error"] not in target.errors:
                target.errors.append(data["error"])

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.is_worker:
            return
        for target in self.targets:
            try:
                target.build_plan()
                self._finish(target)
            except OSError as exc:
                target.verdict = f"could not write the report: {exc}"
        self.summary_path = None
        if (
            self.config.getoption("candidate_strict")
            and any(t.verdict == INCOMPLETE for t in self.targets)
            and session.exitstatus == 0
        ):
            session.exitstatus = (
                pytest.ExitCode.TESTS_FAILED
            )  # --candidate-strict: incomplete evidence fails
        if len(self.targets) > 1:
            from gamecert.engine.certification import write_summary

            results = self._results()
            status = (
                1
                if any(r.status == 1 for r in results)
                else 130
                if any(r.interrupted for r in results)
                else 0
            )
            game = (
                self.targets[0].entry.name
                if len({t.entry.name for t in self.targets}) == 1
                else "several"
            )
            try:
                self.summary_path = write_summary(
                    self._report_dir(),
                    game,
                    self.seed,
                    self.targets[0].plan.profile.name,
                    results,
                    status,
                )
            except OSError as exc:
                self.summary_error = str(exc)

    def _report_dir(self) -> str:
        report_dir = self.config.getoption("candidate_report_dir")
        if not Path(report_dir).is_absolute():
            report_dir = str(Path(self.config.invocation_params.dir) / report_dir)
        return report_dir

    def _results(self) -> list[Any]:
        """One summary row per ``--candidate`` (see :func:`gamecert.engine.certification.summary_rows`)."""
        from gamecert.engine.certification import CandidateResult

        elapsed = round(time.perf_counter() - self.started, 3)
        strict = bool(self.config.getoption("candidate_strict"))
        out = []
        for t in self.targets:
            verdict = t.verdict or "NOT RUN"
            status = (
                passing_status(verdict, strict)
                if verdict in (*PASSING, INTERRUPTED)
                else 130
                if verdict == "NOT RUN"
                else 1
            )
            out.append(
                CandidateResult(
                    t.text,
                    t.group_id.rsplit("/", 1)[-1],
                    verdict,
                    status,
                    str(t.written or ""),
                    t.failing_input,
                    t.failing_size,
                    sum(d["tests"] for d in t.evidence.values()),
                    elapsed,
                    interrupted=verdict == "INTERRUPTED",
                )
            )
        return out

    def _finish(self, target: _Target) -> None:
        """Merge every item's evidence (from whichever worker ran it) into one report or
        certificate, written once, here (:func:`gamecert.engine.items.merge_items`)."""
        from gamecert.engine.items import compile_error_item, merge_items

        report_dir = self._report_dir()
        name = target.group_id.rsplit("/", 1)[-1]
        if target.compile_error is not None:
            result = compile_error_item(
                target.entry,
                target.compile_error,
                target.text,
                name,
                seed=self.seed,
                profile=target.profile.name,
                limits=target.limits,
                report_dir=report_dir,
            )
        elif target.errors:  # a worker refused the candidate: nothing it did not run is certified
            target.verdict = "NOT CERTIFIED: " + target.errors[0]
            return
        else:
            result = merge_items(
                target.entry,
                target.candidate,
                target.plan,
                target.limits,
                target.groups,
                target.evidence,
                target.failures,
                started=self.started,
                report_dir=report_dir,
                spec=target.text,
                name=name,
                where=_where_it_ran(target),
            )
        target.written = Path(result.path)
        target.verdict = result.verdict
        target.failing_input, target.failing_size = result.input, result.size

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker:
            return
        terminalreporter.section("gamecert candidates")
        elapsed = time.perf_counter() - self.started
        for t in self.targets:
            tests = sum(d["tests"] for d in t.evidence.values())
            rate = tests / elapsed if elapsed > 0 else 0.0
            terminalreporter.write_line(
                f"{t.text}: {t.verdict or 'not run'}; {tests} tests in {elapsed:.1f} s ({rate:,.0f} tests/s), "
                f"seed {self.seed}"
            )
            if t.verdict == INCOMPLETE and t.written is not None:
                terminalreporter.write_line(f"  incomplete: {_incomplete_of(t.written)}")
            if t.written is not None:
                terminalreporter.write_line(str(t.written))
        if len(self.targets) > 1:
            from gamecert.engine.summary import summary_lines

            terminalreporter.section("gamecert summary")
            for line in summary_lines(self._results()):
                terminalreporter.write_line(line)
            path = getattr(self, "summary_path", None)
            terminalreporter.write_line(
                f"summary.json in {path}"
                if path
                else f"summary.json not written: {getattr(self, 'summary_error', 'unknown')}"
            )


def _incomplete_of(folder: Path) -> str:
    """The certificate's sentence on what was left out (its ``incomplete`` field)."""
    try:
        return str(
            json.loads((Path(folder) / "certificate.json").read_text()).get("incomplete", "")
        )
    except (OSError, ValueError, AttributeError):
        return "(the certificate could not be read)"


def _where_it_ran(target: _Target) -> list[str]:
    """Notes on which processes ran the items (:func:`gamecert.engine.items.where_it_ran`).

    >>> t = _Target("g=p", None, None, None, None, 0, 1, "x")
    >>> t.evidence = {"a": {"worker": "gw0", "host": "h1", "binary_sha256": ""},
    ...               "b": {"worker": "gw1", "host": "h2", "binary_sha256": ""}}
    >>> _where_it_ran(t)
    ['items run by 2 processes: gw0 on h1 (1), gw1 on h2 (1)']
    """
    from gamecert.engine.items import where_it_ran

    kind = getattr(target.shipment, "kind", "")
    return where_it_ran(target.evidence, kind, getattr(target.candidate, "binary_sha256", "") or "")


# ---- nodes ---------------------------------------------------------------------------------------


class CandidateGroup(pytest.Collector):
    """The items of one ``--candidate``; created directly, never collected from a file."""

    target: _Target

    def collect(self) -> list[pytest.Item]:
        return []


class CandidateFault(Exception):
    """A chunk found a fault; carries the text pytest shows."""


class CandidateItem(pytest.Item):
    """One chunk of one candidate's certification."""

    gamecert_item = True
    target: _Target
    chunk: Any

    def runtest(self) -> None:
        from gamecert.engine.items import run_item

        target, chunk = self.target, self.chunk
        if chunk is None:
            exc = target.compile_error
            raise CandidateFault(f"CE (compilation error): {exc}\n" + _indent(exc.output))
        if target.error:
            self.user_properties.append(
                ("gamecert_error", json.dumps({"group": target.group_id, "error": target.error}))
            )
            raise GamecertError(target.error)
        result = run_item(
            target.entry,
            target.candidate,
            target.plan,
            target.limits,
            chunk,
            target.group_id,
            worker=_worker_id(self.config),
        )
        self.user_properties.append(("gamecert_evidence", json.dumps(result.evidence)))
        failure = result.failure
        if failure is None:
            return
        self.user_properties.append(
            (
                "gamecert_failure",
                json.dumps({"group": target.group_id, "chunk": chunk.key, "report": result.report}),
            )
        )
        from gamecert.engine.judge.evidence import fault_of, found_by, why_lines

        lines = [
            f"{failure.verdict} ({failure.verdict.meaning}) on a {target.entry.name} input of size {failure.size}, "
            f"found by {found_by(target.entry.game, failure, sized=False)}",
            *(
                f"{'why:' if k == 0 else '':<9} {line}"
                for k, line in enumerate(
                    why_lines(fault_of(target.entry.game, failure), failure.reason)
                )
            ),
            "input:",
            _indent(failure.input_text),
            "expected:",
            _indent(failure.expected_text),
            "got:",
            _indent(failure.got_text or "(no output)"),
        ]
        if failure.minimality:
            lines.append(f"minimal:  {failure.minimality}")
        lines.extend(f"note:     {n}" for n in failure.notes)
        raise CandidateFault("\n".join(lines))

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str | TerminalRepr:
        from gamecert.kit.escape import visible

        if isinstance(
            excinfo.value, CandidateFault
        ):  # (a candidate's output, escaped on the terminal)
            return visible(str(excinfo.value), keep_newlines=True)
        if isinstance(excinfo.value, GamecertError):
            return visible(f"gamecert: {excinfo.value}", keep_newlines=True)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return (
            self.path,
            None,
            f"{self.target.group_id}::{self.chunk.key if self.chunk else 'compile'}",
        )


def _worker_id(config: pytest.Config) -> str:
    """The xdist worker's id, or ``main`` for a run without workers."""
    return str(getattr(config, "workerinput", {}).get("workerid", "main"))


def _indent(text: str, keep: int = 2000) -> str:
    from gamecert.engine.report.reports import clip

    return "\n".join("    " + line for line in clip(text, keep).rstrip("\n").split("\n"))
