"""pytest plugin: the registered solvers and the proofs' claims as test items, spread by pytest-xdist.

``pytest -n auto --solvers all --solvers-profile thorough --solvers-seed S`` is ``gamecert
certify all --profile thorough --seed S`` cut into items: the chunks of every registered
solver's plan (:func:`gamecert.engine.solvers.solver_plan`, fixed by counts, so the controller
and every worker build the same items), consecutive chunks of one solver making one item of
about :data:`ITEM_WORK` units (a chunk of an in-process solver takes milliseconds, less than an
item costs pytest and xdist; ``--solvers-item-work 0``: one item per chunk). ``--solvers GAME``
takes one game; the option repeats. Each chunk runs in-process with the solver's runner
(:class:`gamecert.engine.run.subjects.SolverRunner`), judged against the oracle and beyond its reach
against the game's *other* solvers (:func:`gamecert.engine.solvers.reference_entry`); a fault is
confirmed and shrunk where it was found, and the item's other chunks still run. Items send each
chunk's evidence, and its failure if any, to the controller in ``user_properties`` (xdist carries
them over its gateways; no shared file system). At the end the controller prints the table
``gamecert certify all`` prints and writes, for each failing solver, one report: the smallest
failure over all workers (by size, then input length, then text), with the minimality its merged
evidence shows.

``pytest -n auto --prove all`` (or ``--prove GAME``) is ``gamecert prove`` cut into items: one per
claim, or one per slice of a claim whose range its proofs module lets cut (``Claim.span`` and
``Claim.part``; :meth:`gamecert.kit.claims.Claim.slices`), ``--prove-slices`` slices (default: twice
the xdist workers, at most 8; one without xdist). The controller prints every claim with its
evidence as ``gamecert prove`` does; a cut claim holds when every slice holds, and a refuted
one is reported at the first index of the first slice that refutes it.

Options of the solvers route: ``--solvers-profile`` (default: ``--gamecert-profile``,
``$GAMECERT_PROFILE`` or default), ``--solvers-seed`` (default: chosen once, sent to the
workers), ``--solvers-examples`` (default: the profile's), ``--solvers-report-dir`` (default
``reports``). Without ``--solvers`` or ``--prove`` the plugin adds nothing and says nothing. See
``docs/scale-out.md``.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr  # (what Item.repr_failure may return)

from gamecert.errors import GamecertError
from gamecert.verdict import PASSING

_SEED_KEY = "gamecert_solvers_seed"
_SLICES_KEY = "gamecert_prove_slices"
#: ``user_properties`` keys an item reports under (the candidate plugin uses others)
_EVIDENCE, _FAILURE, _ERROR, _CLAIM = (
    "gamecert_solver_evidence",
    "gamecert_solver_failure",
    "gamecert_solver_error",
    "gamecert_claim",
)
#: the most slices per claim by default under xdist
MAX_SLICES = 8
#: work per item of the solvers route, in in-process units (:func:`inprocess_work`): about a
#: third of a second here; a chunk of an in-process solver takes a few milliseconds, less than
#: pytest and xdist spend on an item, so an item holds several consecutive chunks
ITEM_WORK = 8192
#: input bytes that cost an in-process solver about as much as one run
INPROCESS_RUN_BYTES = 32


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup(
        "gamecert-solvers", "gamecert: the registered solvers and the proofs as items"
    )
    group.addoption(
        "--solvers",
        action="append",
        default=[],
        metavar="GAME",
        help="certify every registered solver of GAME ('all': of every game) as items of its plan's "
        "chunks; repeatable",
    )
    group.addoption(
        "--solvers-profile",
        default=None,
        choices=["quick", "default", "ci", "thorough"],
        help="how hard to look (default: --gamecert-profile, $GAMECERT_PROFILE or 'default')",
    )
    group.addoption(
        "--solvers-seed",
        type=int,
        default=None,
        metavar="S",
        help="random seed (default: chosen and reported)",
    )
    group.addoption(
        "--solvers-examples",
        type=int,
        default=None,
        metavar="N",
        help="random cases (default: from the profile)",
    )
    group.addoption(
        "--solvers-report-dir",
        default="reports",
        metavar="DIR",
        help="where the reports of failing solvers go (default reports/)",
    )
    group.addoption(
        "--solvers-item-work",
        type=int,
        default=ITEM_WORK,
        metavar="UNITS",
        help="work per item, in in-process units (a run is 1, 32 input bytes are 1): consecutive "
        f"chunks of a solver's plan up to this much make one item (default {ITEM_WORK}; "
        "0: one item per chunk)",
    )
    group.addoption(
        "--prove",
        action="append",
        default=[],
        metavar="GAME",
        help="check GAME's claims ('all': every game's), one item per claim or slice; repeatable",
    )
    group.addoption(
        "--prove-slices",
        type=int,
        default=None,
        metavar="N",
        help="slices per claim whose range can be cut (default: twice the xdist workers, "
        f"at most {MAX_SLICES}; 1 without xdist)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if not (config.getoption("solvers") or config.getoption("prove")):
        return
    try:
        session = _Session(config)
    except GamecertError as exc:
        raise pytest.UsageError(f"gamecert: {exc}") from None
    config.pluginmanager.register(session, "gamecert-solvers-session")


# ---- what runs ------------------------------------------------------------------------------------


@dataclass
class _Solver:
    """One registered solver and what its items reported (controller)."""

    entry: Any
    name: str
    evidence: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (chunk key, failure)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def node(self) -> str:
        return f"solvers/{self.entry.name}/{self.name}"


def _resolve(selectors: list[str]) -> tuple[list[Any], list[Any]]:
    """The entries ``selectors`` name (each ``all`` or a game), each once, and the games of
    ``all`` that do not load."""
    from gamecert.engine import registry

    entries: dict[str, Any] = {}
    problems: dict[str, Any] = {}
    for selector in selectors:
        found, bad = registry.load_all(selector.strip())
        entries.update((e.name, e) for e in found)
        problems.update((p.name, p) for p in bad)
    return sorted(entries.values(), key=lambda e: e.name), sorted(
        problems.values(), key=lambda p: p.name
    )


def default_slices(workers: int) -> int:
    """Slices per cuttable claim for ``workers`` xdist workers (0: no xdist).

    >>> default_slices(0), default_slices(1), default_slices(2), default_slices(16)
    (1, 1, 4, 8)
    """
    return 1 if workers <= 1 else min(MAX_SLICES, 2 * workers)


def inprocess_work(chunk: Any) -> int:
    """What running ``chunk`` costs an in-process solver, in units of about one run: one per run
    and one per :data:`INPROCESS_RUN_BYTES` bytes of input (parsing, judging and answering grow
    with the input; a run itself costs little, having no process to start).

    >>> from gamecert.engine.plan.plan import Chunk
    >>> inprocess_work(Chunk("random", "r-0", "r", ("x",) * 2, ("AB\\n", "x" * 3200), 2))
    102
    """
    return len(chunk.texts) + sum(len(t) for t in chunk.texts) // INPROCESS_RUN_BYTES


def batches(chunks: list[Any], work: int) -> list[list[Any]]:
    """``chunks`` (in plan order) as consecutive runs of at most ``work`` units
    (:func:`inprocess_work`) each, a chunk larger than that alone; ``work`` 0: one chunk each.
    Every process cuts the same plan the same way, so the items agree everywhere.

    >>> from gamecert.engine.plan.plan import Chunk
    >>> cs = [Chunk("exhaustive", f"e-{i}", "e", ("x",) * 10, ("x\\n",) * 10, 10) for i in range(5)]
    >>> [[c.key for c in b] for b in batches(cs, 25)]
    [['e-0', 'e-1'], ['e-2', 'e-3'], ['e-4']]
    >>> len(batches(cs, 0)), len(batches(cs, 5))
    (5, 5)
    """
    out: list[list[Any]] = []
    total = 0
    for chunk in chunks:
        cost = inprocess_work(chunk)
        if out and work > 0 and total + cost <= work:
            out[-1].append(chunk)
            total += cost
        else:
            out.append([chunk])
            total = cost
    return out


class _Session:
    """Builds the items (workers, or a run without xdist) and, on the controller, merges what
    they report into the table, the reports and the claims' evidence."""

    def __init__(self, config: pytest.Config) -> None:
        from gamecert.engine.plan.profiles import get_profile

        self.config = config
        self.is_worker = hasattr(config, "workerinput")
        self.started = time.perf_counter()
        workerinput = getattr(config, "workerinput", {})
        # -- solvers --
        self.profile = get_profile(config.getoption("solvers_profile") or _core_profile(config))
        examples = config.getoption("solvers_examples")
        if examples is not None and examples < 1:
            raise GamecertError(
                f"--solvers-examples must be at least 1 for the registered solvers, got {examples}"
            )
        self.examples = self.profile.examples if examples is None else examples
        self.item_work = config.getoption("solvers_item_work")
        if self.item_work < 0:
            raise GamecertError(f"--solvers-item-work must be 0 or more, got {self.item_work}")
        if self.is_worker:
            self.seed = int(workerinput.get(_SEED_KEY, 0))
        else:
            chosen = config.getoption("solvers_seed")
            self.seed = chosen if chosen is not None else random.SystemRandom().randrange(1, 2**31)
        self.entries, self.problems = _resolve(config.getoption("solvers"))
        self.solvers = [_Solver(e, name) for e in self.entries for name in sorted(e.solvers)]
        self.plans: dict[str, tuple[Any, list[Any]]] = {}
        self.plans_lock = threading.Lock()
        if not self.is_worker and self.entries:
            from gamecert.engine.report.report_files import check_report_dir

            for entry in self.entries:  # now, not after the run has found something
                try:
                    check_report_dir(self._report_dir(), entry.name)
                except GamecertError as exc:  # named by this route's option
                    raise GamecertError(
                        str(exc).replace("--report-dir", "--solvers-report-dir")
                    ) from None
        # -- proofs --
        slices = config.getoption("prove_slices")
        if slices is not None and slices < 1:
            raise GamecertError(f"--prove-slices must be at least 1, got {slices}")
        self.fixed_slices = slices
        if self.is_worker:
            self.slices = int(workerinput.get(_SLICES_KEY, 1))
        else:
            self.slices = (
                slices if slices is not None else 1
            )  # raised in pytest_configure_node under xdist
        self.proved, self.prove_problems = _resolve(config.getoption("prove"))
        #: (game, claim index) -> {slice index: what the item reported}
        self.claim_reports: dict[tuple[str, int], dict[int, dict[str, Any]]] = {}
        self.rows: list[Any] = []

    def _report_dir(self) -> str:
        report_dir = self.config.getoption("solvers_report_dir")
        if not Path(report_dir).is_absolute():
            report_dir = str(Path(self.config.invocation_params.dir) / report_dir)
        return report_dir

    def plan(self, entry: Any) -> Any:
        """The game's plan, the same for each of its solvers and in every process."""
        return self.planned(entry)[0]

    def planned(self, entry: Any) -> tuple[Any, list[Any]]:
        """The game's plan and its groups, drawn once (drawing them is the plan's cost)."""
        from gamecert.engine.solvers import solver_plan

        with self.plans_lock:
            if entry.name not in self.plans:
                plan = solver_plan(entry, self.profile, self.seed, self.examples)
                self.plans[entry.name] = (plan, plan.all_groups())
            return self.plans[entry.name]

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """The controller of an xdist run builds the plans it merges by while the workers run,
        not after them (a plan of the default profile takes seconds)."""
        if (
            self.is_worker
            or not self.entries
            or not self.config.pluginmanager.has_plugin("dsession")
        ):
            return

        def build() -> None:
            for entry in self.entries:
                try:
                    self.planned(entry)
                except Exception:  # noqa: BLE001 - built again, and its error shown, at the end
                    return

        threading.Thread(target=build, name="gamecert-plans", daemon=True).start()

    # -- xdist: the seed and the slice count, to every worker --
    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        if self.fixed_slices is None:
            self.slices = default_slices(int(node.workerinput.get("workercount", 1)))
        node.workerinput[_SEED_KEY] = self.seed
        node.workerinput[_SLICES_KEY] = self.slices

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        lines = []
        if self.entries or self.problems:
            lines.append(
                f"gamecert solvers: {len(self.solvers)} registered solvers of "
                f"{', '.join(e.name for e in self.entries) or 'no game'} "
                f"(profile {self.profile.name}, seed {self.seed})"
            )
        if self.proved or self.prove_problems:
            lines.append(
                f"gamecert prove: the claims of {', '.join(e.name for e in self.proved) or 'no game'}"
            )
        return lines

    # -- collection (first, so that -k and -m see these items too) --
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        if config.args_source != pytest.Config.ArgsSource.ARGS:
            # no test paths named: these items alone, not the test suite of this folder
            foreign = [i for i in items if not _generated(i)]
            if foreign:
                config.hook.pytest_deselected(items=foreign)
                items[:] = [i for i in items if _generated(i)]
        for problem in self.problems:
            items.append(_problem_item(session, f"solvers/{problem.name}", problem))
        for solver in self.solvers:
            group = _Group.from_parent(session, name=solver.node, nodeid=solver.node)
            chunks = [c for g in self.planned(solver.entry)[1] for c in g.chunks]
            for batch in batches(chunks, self.item_work):
                name = batch[0].key if len(batch) == 1 else f"{batch[0].key}+{len(batch) - 1}"
                item = SolverItem.from_parent(group, name=name)
                item.session_state, item.solver, item.chunks = self, solver, batch
                items.append(item)
        for problem in self.prove_problems:
            items.append(_problem_item(session, f"prove/{problem.name}", problem))
        for entry in self.proved:
            group = _Group.from_parent(
                session, name=f"prove/{entry.name}", nodeid=f"prove/{entry.name}"
            )
            for index, claim in enumerate(entry.claims):
                parts = claim.slices(self.slices)
                for k, part in enumerate(parts):
                    node = ClaimItem.from_parent(group, name=part.name.replace("::", ": "))
                    node.entry, node.index, node.part, node.parts, node.claim = (
                        entry,
                        index,
                        k,
                        len(parts),
                        part,
                    )
                    items.append(node)

    # -- results, in the controller --
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call" and not (report.when == "setup" and report.failed):
            return
        timed = False
        for key, value in report.user_properties:
            if key not in (_EVIDENCE, _FAILURE, _ERROR, _CLAIM):
                continue
            data = json.loads(cast(str, value))  # (written as JSON text by the items)
            if key == _CLAIM:
                self.claim_reports.setdefault((data["game"], data["claim"]), {})[data["part"]] = (
                    data
                )
                continue
            solver = next((s for s in self.solvers if s.node == data["node"]), None)
            if solver is None:
                continue
            if key == _EVIDENCE:
                solver.evidence[data["chunk"]] = data
                if not timed:  # the item's time, once (an item holds several chunks)
                    solver.seconds += report.duration
                    timed = True
            elif key == _FAILURE:
                solver.failures.append((data["chunk"], data))
            elif data["error"] not in solver.errors:
                solver.errors.append(data["error"])

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.is_worker or self.config.option.collectonly:
            return
        self.rows = [self._finish(s) for s in self.solvers]

    def _finish(self, solver: _Solver) -> Any:
        """One solver's row: every item's evidence merged, and its report written if it failed."""
        from gamecert.engine.judge.evidence import passing_word
        from gamecert.engine.solvers import Row, evidence_summary

        outcome, complete = merged_outcome(*self.planned(solver.entry), solver.evidence)
        lines: tuple[str, ...]
        verdict, lines = passing_word(outcome), ()
        if solver.failures:
            failure, lines = self._report(solver, outcome, complete)
            outcome.failures.append(failure)
            verdict = failure.verdict.value
        elif solver.errors:
            verdict = "HARNESS ERROR"
            lines = tuple(f"  {e}" for e in solver.errors)
        elif not complete:
            verdict = "NOT RUN" if not solver.evidence else "INCOMPLETE"
        return Row(
            solver.entry.name,
            solver.name,
            evidence_summary(outcome),
            outcome.stats.tests,
            solver.seconds,
            verdict,
            lines,
            interrupted=not complete,
        )

    def _report(self, solver: _Solver, outcome: Any, complete: bool) -> tuple[Any, tuple[str, ...]]:
        """The smallest failure over all items, written as a report here, and its lines."""
        from dataclasses import replace

        from gamecert.engine.judge.evidence import failure_lines, minimality_of
        from gamecert.engine.report.report_files import _write_somewhere, write_report
        from gamecert.engine.report.reports import FailureReport

        entry = solver.entry
        keys = [c.key for g in self.planned(entry)[1] for c in g.chunks]
        order = {k: i for i, k in enumerate(keys)}
        found = sorted(
            (
                (FailureReport.from_json(d["report"]), order.get(chunk, len(order)), d)
                for chunk, d in solver.failures
            ),
            key=lambda x: (x[0].size, len(x[0].input), x[0].input, x[1]),
        )
        best, _, data = found[0]
        failure = _failure(entry.game, best, data)
        shrink = tuple(data["shrink"]) if data.get("shrink") is not None else None
        notes = list(best.notes)
        if len(found) > 1:
            notes.append(
                f"{len(found) - 1} other item(s) of this run failed too; this is the smallest input"
            )
        notes.extend(_where_it_ran(solver.evidence))
        best = replace(
            best,
            tests_run=outcome.stats.tests,
            notes=tuple(notes),
            interrupted=not complete,
            minimality=minimality_of(outcome, best.size, shrink, data.get("minimality", "")),
        )
        path = _write_somewhere(lambda where: write_report(best, where), self._report_dir())
        brief = minimality_of(outcome, best.size, shrink, data.get("minimality", ""), brief=True)
        return failure, (
            *failure_lines(entry.game, failure),
            f"  {'minimal:':<9} {brief}",
            f"  report and replay command in {path}",
        )

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker or self.config.option.collectonly:
            return
        if self.entries or self.problems:
            terminalreporter.section("gamecert solvers")
            for line in self._solver_lines(terminalreporter):
                terminalreporter.write_line(line)
        if self.proved or self.prove_problems:
            terminalreporter.section("gamecert prove")
            for line in self._prove_lines():
                terminalreporter.write_line(line)

    def _solver_lines(self, terminalreporter: Any) -> list[str]:
        """What ``gamecert certify all`` prints: the table, each failure, the last line."""
        import io

        from rich.console import Console

        from gamecert.commands.certify_all import _print_table

        out = [p.describe() for p in self.problems]
        buffer = io.StringIO()
        width = max(80, getattr(getattr(terminalreporter, "_tw", None), "fullwidth", 80))
        console = Console(file=buffer, width=width, no_color=True, force_terminal=False)
        rows = self.rows
        incomplete = any(r.interrupted for r in rows)
        _print_table(console, rows, self.seed, self.profile.name, incomplete)
        out.extend(buffer.getvalue().rstrip("\n").split("\n"))
        failed = [r for r in rows if r.verdict not in (*PASSING, "NOT RUN", "INCOMPLETE")]
        for row in failed:
            out.extend(["", f"{row.game}/{row.solver}:", *row.failure])
        total = sum(r.tests for r in rows)
        outcome = "all certified" if not failed and not incomplete else f"{len(failed)} failed"
        if incomplete:
            short = [r for r in rows if r.interrupted]
            outcome += f"; {len(short)} not run in full (items deselected, failed or not reached)"
        out.append(
            f"{len(rows)} solvers, {total} tests in {time.perf_counter() - self.started:.1f} s "
            f"({sum(r.seconds for r in rows):.1f} s in items); {outcome} (seed {self.seed})"
        )
        return out

    def _prove_lines(self) -> list[str]:
        """What ``gamecert prove`` prints, from the items' reports."""
        out: list[str] = []
        outcomes = []
        shown = sorted([*self.proved, *self.prove_problems], key=lambda x: x.name)
        for item in shown:
            if not hasattr(item, "claims"):
                out.append(item.describe())
                continue
            claims = item.claims
            out.append(f"{item.name}: {len(claims)} claim{'s' if len(claims) != 1 else ''}")
            if not claims:
                out.append("  (no claims stated)")
            seconds = 0.0
            for index, claim in enumerate(claims):
                outcome = merge_claim(
                    item.name, claim, self.claim_reports.get((item.name, index), {})
                )
                seconds += outcome.seconds
                outcomes.append(outcome)
                out.append("  " + outcome.describe())
            out.append(f"  {item.name}: {seconds:.2f} s in items")
        bad = [o for o in outcomes if not o.holds]
        out.append(
            f"{len(outcomes) - len(bad)} of {len(outcomes)} claims hold "
            f"({time.perf_counter() - self.started:.2f} s)"
        )
        for o in bad:
            where = f" at {o.index}" if o.status == "REFUTED" else ""
            out.append(f"{o.status}{where}: {o.claim.name} ({o.game})")
        if self.prove_problems:
            n = len(self.prove_problems)
            out.append(
                f"not proved: {n} game{'s' if n != 1 else ''} did not load "
                f"({', '.join(p.name for p in self.prove_problems)})"
            )
        return out


def _core_profile(config: pytest.Config) -> str | None:
    try:
        return config.getoption("gamecert_profile")
    except ValueError:  # the core plugin is not loaded
        return None


def _generated(item: pytest.Item) -> bool:
    """An item this plugin or the candidate plugin made (kept when no test path is named)."""
    return bool(getattr(item, "gamecert_item", False))


# ---- merging ----------------------------------------------------------------------------------------


def merged_outcome(
    plan: Any, groups: list[Any], evidence: dict[str, dict[str, Any]]
) -> tuple[Any, bool]:
    """An :class:`gamecert.engine.execute.Outcome` of ``plan`` (its ``groups`` drawn) from its
    items' evidence (by chunk key), and whether every chunk reported: a group is complete only
    when all its chunks passed."""
    from gamecert.engine.items import merged_outcome as merge

    outcome, _, complete = merge(plan, groups, evidence)
    outcome.interrupted = not complete
    return outcome, complete


def _failure(game: Any, report: Any, data: dict[str, Any]) -> Any:
    """The :class:`gamecert.engine.judge.judge.Failure` a report stands for (what the lines show)."""
    from gamecert.engine.judge.judge import Failure
    from gamecert.verdict import Verdict

    failure = Failure(
        Verdict(report.verdict),
        game.parse_input(report.input),
        report.input,
        report.expected,
        report.got,
        report.reason,
        report.phase,
        report.size,
    )
    failure.reruns = tuple(data["reruns"]) if data.get("reruns") is not None else None
    return failure


def _where_it_ran(evidence: dict[str, dict[str, Any]]) -> list[str]:
    """A note naming the processes that ran the items.

    >>> _where_it_ran({"a": {"worker": "gw0", "host": "h"}, "b": {"worker": "gw1", "host": "h"}})
    ['items run by 2 processes: gw0 on h (1), gw1 on h (1)']
    """
    counts: dict[tuple[str, str], int] = {}
    for data in evidence.values():
        key = (data.get("worker", "?"), data.get("host", "?"))
        counts[key] = counts.get(key, 0) + 1
    if not counts:
        return []
    shown = ", ".join(f"{w} on {h} ({n})" for (w, h), n in sorted(counts.items()))
    return [f"items run by {len(counts)} process{'es' if len(counts) != 1 else ''}: {shown}"]


def merge_claim(game: str, claim: Any, reports: dict[int, dict[str, Any]]) -> Any:
    """The outcome of ``claim`` from what its slices reported (slice index -> report).

    It holds when every slice held; it is refuted when a slice refuted it, at that slice's first
    index if every slice before it held (a slice covers its sub-range as the claim covers the
    whole); otherwise it is not established, saying which slices did not hold or did not run.

    >>> from gamecert.kit.claims import Claim, Evidence
    >>> c = Claim("c", "s", lambda: Evidence("bounded", "1..4"), "bounded")
    >>> r = {"status": "holds", "seconds": 0.5, "level": "bounded", "detail": "every n in 1..2", "parts": 2}
    >>> merge_claim("g", c, {0: r}).status
    'NOT ESTABLISHED'
    >>> merge_claim("g", c, {0: r, 1: dict(r, detail="every n in 3..4")}).evidence.describe()
    'bounded: 2 slices checked apart, each holding: every n in 1..2; every n in 3..4'
    """
    from gamecert.commands.prove import ClaimOutcome
    from gamecert.kit.claims import LEVELS, Evidence

    parts = max((r["parts"] for r in reports.values()), default=1)
    seconds = sum(r["seconds"] for r in reports.values())
    ordered: list[Any] = [reports.get(k) for k in range(parts)]  # (each checked for None below)
    if all(r is not None and r["status"] == "holds" for r in ordered):
        if parts == 1:
            evidence = Evidence(ordered[0]["level"], ordered[0]["detail"])
        else:
            level = min((r["level"] for r in ordered), key=LEVELS.index)
            evidence = Evidence(
                level,
                f"{parts} slices checked apart, each holding: "
                + "; ".join(r["detail"] for r in ordered),
            )
        return ClaimOutcome(game, claim, "holds", seconds, evidence=evidence)
    refuting = next(
        (k for k, r in enumerate(ordered) if r is not None and r["status"] == "REFUTED"), None
    )
    if refuting is not None:
        r = ordered[refuting]
        detail = r["detail"]
        unsure = [
            ordered[k]["name"] if ordered[k] else f"slice {k + 1}"
            for k in range(refuting)
            if ordered[k] is None or ordered[k]["status"] != "holds"
        ]
        if unsure:
            detail += (
                f" (a smaller index may break too: {', '.join(unsure)} did not hold or did not run)"
            )
        return ClaimOutcome(game, claim, "REFUTED", seconds, index=r["index"], detail=detail)
    missing = [
        f"slice {k + 1} of {parts}" if parts > 1 else "its check"
        for k, r in enumerate(ordered)
        if r is None
    ]
    failed = [r for r in ordered if r is not None and r["status"] != "holds"]
    if failed:
        detail = failed[0]["detail"]
    else:
        detail = f"not run: {', '.join(missing)} (deselected, failed or not reached)"
    return ClaimOutcome(game, claim, "NOT ESTABLISHED", seconds, detail=detail)


# ---- nodes -----------------------------------------------------------------------------------------


class _Group(pytest.Collector):
    """The items of one solver or one game's claims; created directly, never collected from a file."""

    def collect(self) -> list[pytest.Item]:
        return []


class SolverFault(Exception):
    """A chunk found a fault, or a claim does not hold; carries the text pytest shows."""


class _Item(pytest.Item):
    #: made by gamecert, not collected from a file (see :func:`_generated`)
    gamecert_item = True

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, SolverFault):
            return str(excinfo.value)
        if isinstance(excinfo.value, GamecertError):
            return f"gamecert: {excinfo.value}"
        return super().repr_failure(excinfo)


class SolverItem(_Item):
    """Consecutive chunks of one registered solver's certification (see :func:`batches`); each
    chunk runs and reports on its own, a failing one too."""

    session_state: _Session
    solver: _Solver
    chunks: list[Any]

    def runtest(self) -> None:
        from gamecert.engine.judge.evidence import build_report, failure_lines
        from gamecert.engine.judge.judge import Judge, Stats
        from gamecert.engine.plan.plan import SHRINK_SECONDS
        from gamecert.engine.run.limits import game_limits
        from gamecert.engine.run.subjects import (
            IN_PROCESS_NOTE,
            SolverRunner,
            SolverSubject,
        )
        from gamecert.engine.solvers import reference_entry

        state, solver = self.session_state, self.solver
        entry, plan = solver.entry, state.plan(solver.entry)
        reference = reference_entry(entry, solver.name)
        shrink_s = SHRINK_SECONDS.get(plan.profile.name, 30.0)
        worker = str(getattr(self.config, "workerinput", {}).get("workerid", "main"))
        expected: dict[str, Any] = {}  # one cache for the item's chunks, as one process keeps one
        faults = []
        with SolverRunner(entry, solver.name, entry.solvers[solver.name]) as runner:
            for chunk in self.chunks:
                stats = Stats()
                try:
                    outcome = Judge(reference, runner, stats, expected_cache=expected).run_chunk(
                        chunk, shrink_seconds=shrink_s
                    )
                except (
                    GamecertError
                ) as exc:  # the harness cannot judge (its solvers disagree): said once, here
                    self.user_properties.append(
                        (_ERROR, json.dumps({"node": solver.node, "error": str(exc)}))
                    )
                    raise
                failure = outcome.failure
                self.user_properties.append(
                    (
                        _EVIDENCE,
                        json.dumps(
                            {
                                "node": solver.node,
                                "chunk": chunk.key,
                                "tests": stats.tests,
                                "runs": stats.runs,
                                "samples": stats.samples,
                                "random_examples": stats.random_examples,
                                "largest_sizes": stats.largest_sizes,
                                "slowest_s": stats.slowest_cpu_s,
                                "slowest_what": stats.slowest_what,
                                "passed": failure is None,
                                "worker": worker,
                                "host": socket.gethostname(),
                            }
                        ),
                    )
                )
                if failure is None:
                    continue
                report = build_report(
                    entry,
                    SolverSubject(entry.name, solver.name),
                    failure,
                    None,
                    game_limits(entry.game, None, None),
                    stats.tests,
                    plan=plan,
                    extra_notes=(IN_PROCESS_NOTE,),
                )
                self.user_properties.append(
                    (
                        _FAILURE,
                        json.dumps(
                            {
                                "node": solver.node,
                                "chunk": chunk.key,
                                "report": report.to_json(),
                                "shrink": failure.shrink,
                                "reruns": failure.reruns,
                                "minimality": failure.minimality,
                            }
                        ),
                    )
                )
                faults.append(
                    "\n".join(
                        [
                            f"{entry.name}/{solver.name}, chunk {chunk.key}:",
                            *failure_lines(entry.game, failure),
                            f"  {'minimal:':<9} {report.minimality}",
                        ]
                    )
                )
        if faults:
            raise SolverFault("\n\n".join(faults))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"{self.solver.node}::{self.name}"


class ClaimItem(_Item):
    """One claim, or one slice of a claim's range."""

    entry: Any
    index: int
    part: int
    parts: int
    claim: Any

    def runtest(self) -> None:
        from gamecert.commands.prove import ClaimOutcome, check_claim

        try:
            outcome = check_claim(self.entry.name, self.claim)
        except Exception as exc:  # noqa: BLE001 - a check that crashes establishes nothing; said, not lost
            outcome = ClaimOutcome(
                self.entry.name,
                self.claim,
                "NOT ESTABLISHED",
                0.0,
                detail=f"the check raised {type(exc).__name__}: {exc}",
            )
        self.user_properties.append(
            (
                _CLAIM,
                json.dumps(
                    {
                        "game": self.entry.name,
                        "claim": self.index,
                        "part": self.part,
                        "parts": self.parts,
                        "name": self.claim.name,
                        "status": outcome.status,
                        "seconds": outcome.seconds,
                        "level": outcome.evidence.level if outcome.evidence else None,
                        "detail": outcome.evidence.detail if outcome.evidence else outcome.detail,
                        "index": None if outcome.index is None else str(outcome.index),
                    }
                ),
            )
        )
        if not outcome.holds:
            raise SolverFault(outcome.describe())

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"prove/{self.entry.name}::{self.claim.name}"


class ProblemItem(_Item):
    """A game of ``all`` that does not load: one failing item naming why."""

    problem: Any

    def runtest(self) -> None:
        raise SolverFault(self.problem.describe())

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, self.nodeid


def _problem_item(session: pytest.Session, node: str, problem: Any) -> pytest.Item:
    group = _Group.from_parent(session, name=node, nodeid=node)
    item = ProblemItem.from_parent(group, name="load")
    item.problem = problem
    return item
