"""Scale-out of the registered solvers and the proofs: ``pytest --solvers`` and ``pytest --prove``.

Each run is a pytest in a subprocess, as a user would start it, spread over two xdist workers,
and compared with the command it splits, run in one process: ``gamecert certify GAME --jobs 1``
(same seed, profile and examples) and ``gamecert prove GAME``. A deliberately broken solver
(``tests/broken/word_game.py``, through :func:`gamecert.engine.registry.broken_solvers`) and wrong
claims are planted in every process by a plugin module (``plant.py``, written below and
imported by ``-p plant`` in the controller and each worker): the split route must catch them as
the single-process commands do.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.commands.pytest_solvers import batches, inprocess_work
from gamecert.engine import registry
from gamecert.engine.judge.judge import Judge
from gamecert.engine.plan.profiles import get_profile
from gamecert.engine.run.subjects import SolverRunner
from gamecert.engine.solvers import solver_plan

ROOT = Path(__file__).resolve().parent.parent
SEED, EXAMPLES = "11", "10"

#: the plugin comes from its entry point once gamecert is installed with it; a checkout whose
#: installed metadata predates it loads it by module name (both at once would register it twice)
_INSTALLED = any(
    ep.name == "gamecert_solvers" for ep in importlib.metadata.entry_points(group="pytest11")
)
PLUGIN = () if _INSTALLED else ("-p", "gamecert.commands.pytest_solvers")

#: a word_game solver wrong at every letter count divisible by 3 (smallest failing word: AAA),
#: registered beside the real ones; and word_game's claims replaced by a short cut one that
#: holds, two wrong ones (a closed form wrong at count 5 inside a cut range, a recurrence wrong
#: at the multiples of 3 that cannot be cut) and the induction (holds, cannot be cut)
PLANT = """
import dataclasses, types
from gamecert.engine import registry
from gamecert.proofs import word_game as proofs

def _short(claim, last, name):
    return dataclasses.replace(claim, name=name, check=claim.part(1, last), span=(1, last))

def _wrong_at_5(c, ops):
    return ops.If(c == 5, 0, proofs.editorial_closed_form(c, ops))

def _zero_at_multiples_of_3(c, ops):
    return ops.If(c % 3 == 0, 0, c % 3)

_entry = registry.get("word_game")
_claims = [
    _short(proofs.xor_rule_claim(), 9, "xor rule, words of 1..9 letters"),
    _short(proofs.xor_rule_claim(_wrong_at_5), 9, "wrong closed form, words of 1..9 letters"),
    proofs.recurrence_claim(_zero_at_multiples_of_3, n_max=50),
    proofs.induction_claim(),
]
_broken = registry.broken_solvers("word_game")["multiples_of_three_lose"].solve
_planted = dataclasses.replace(_entry, solvers={**_entry.solvers, "thirds": _broken},
                               proofs=types.SimpleNamespace(CLAIMS=_claims))
_get = registry.get
registry.get = lambda name: _planted if name == "word_game" else _get(name)
"""


def _env(here: Path) -> dict[str, str]:
    (here / "plant.py").write_text(PLANT)
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{here}", COLUMNS="320")
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("GAMECERT_PROFILE", None)
    return env


def _pytest(here: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            f"--rootdir={here}",
            "-p",
            "plant",
            *PLUGIN,
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=here,
        env=_env(here),
        timeout=150,
        check=False,
    )


def _gamecert(here: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command, in one process, with the same solver and claims planted."""
    code = (
        f"import sys, plant; from gamecert.commands import cli; sys.exit(cli.main({list(args)!r}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=here,
        env=_env(here),
        timeout=150,
        check=False,
    )


def _rows(out: str) -> dict[str, list[str]]:
    """The table's rows by solver: evidence, tests and verdict (a wrapped cell is joined up)."""
    rows: dict[str, list[str]] = {}
    last = None
    for line in out.splitlines():
        if not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        if cells[0]:
            last = cells[1]
            rows[last] = cells
        elif last is not None:  # a continuation line of a wrapped row
            rows[last] = [a + (" " if a and b else "") + b for a, b in zip(rows[last], cells)]
    return {name: [cells[2], cells[3], cells[5]] for name, cells in rows.items()}


def _report(folder: Path) -> dict:
    found = list(folder.glob("word_game/thirds-*/report.json"))
    assert len(found) == 1, found
    return json.loads(found[0].read_text())


@pytest.mark.slow
def test_split_solvers_give_the_single_process_table_and_catch_a_broken_one(tmp_path):
    """`pytest -n 2 --solvers word_game` and `gamecert certify word_game --jobs 1` (same seed,
    quick profile, 10 examples): the correct solvers get the same evidence, test counts and
    verdicts; the planted broken solver is WA in both, reported at the same smallest input (AAA),
    the split route's report naming both workers and calling the input minimal in size from the
    merged evidence. A failing solver's test count differs by design: the split route runs every
    item, one process stops at the first fault."""
    split = _pytest(
        tmp_path,
        "-n",
        "2",
        "--solvers",
        "word_game",
        "--solvers-profile",
        "quick",
        "--solvers-seed",
        SEED,
        "--solvers-examples",
        EXAMPLES,
        "--solvers-report-dir=split",
        "--solvers-item-work",
        "300",
    )  # about 20 items a solver, some of several chunks
    assert split.returncode == 1, split.stdout + split.stderr
    alone = _gamecert(
        tmp_path,
        "certify",
        "word_game",
        "--profile",
        "quick",
        "--seed",
        SEED,
        "--examples",
        EXAMPLES,
        "--jobs",
        "1",
        "--report-dir",
        "alone",
    )
    assert alone.returncode == 1, alone.stdout + alone.stderr
    rows, single = _rows(split.stdout), _rows(alone.stdout)
    assert sorted(rows) == sorted(single) == ["closed_form", "count_table", "thirds"], (
        split.stdout,
        alone.stdout,
    )
    for name in ("closed_form", "count_table"):
        assert rows[name] == single[name], name
        assert (
            rows[name][2].startswith(("CERTIFIED", "PASSED"))
            and int(rows[name][1].replace(",", "")) > 0
        )
    assert rows["thirds"][2] == single["thirds"][2] == "WA"
    assert "failed in" in rows["thirds"][0]
    report, one = _report(tmp_path / "split"), _report(tmp_path / "alone")
    for key in ("verdict", "input", "expected", "got", "size", "seed", "profile"):
        assert report[key] == one[key], key
    assert report["input"] == "AAA\n" and report["candidate_spec"] == "solver:thirds"
    # short-words list every input of fewer than 3 letters, so AAA is the smallest of all inputs
    assert report["minimality"] == one["minimality"], (report["minimality"], one["minimality"])
    assert report["minimality"].startswith(
        "minimal in size: every input of size < 3 ran as a whole input and passed (short-words"
    ), report["minimality"]
    workers = next(n for n in report["notes"] if n.startswith("items run by"))
    assert "gw0" in workers and "gw1" in workers, workers
    # a registered solver is re-run where it lives, and the report says so even after shrinking
    assert any("in the same process" in n for n in report["notes"]), report["notes"]
    assert not any("in fresh processes" in n for n in report["notes"]), report["notes"]
    assert "word_game/thirds:" in split.stdout and "report and replay command in" in split.stdout
    assert re.search(r"3 solvers, [\d,]+ tests in .*; 1 failed \(seed 11\)", split.stdout), (
        split.stdout
    )


def _section(out: str, title: str) -> str:
    """The lines of the pytest summary section ``title`` (the plugin's own output)."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^=+ {title} =+$", line))
    end = next(
        (i for i in range(start + 1, len(lines)) if re.match(r"^=+ .* =+$", lines[i])), len(lines)
    )
    return "\n".join(lines[start + 1 : end])


def _claim_lines(out: str) -> list[str]:
    """The lines ``gamecert prove`` prints for each game and claim, times left out."""
    return [
        re.sub(r" \([\d.]+ s\)$", "", line)
        for line in out.splitlines()
        if line.startswith(("  [", "      ")) or re.match(r"^\w+: \d+ claims?$", line)
    ]


def test_split_proofs_print_what_prove_prints_and_a_slice_refutes(tmp_path):
    """`pytest -n 2 --prove word_game` and `gamecert prove word_game` in one process, on the
    planted claims: the claims that cannot be cut print the same evidence or refutation; the cut
    claim that holds is shown slice by slice (four: twice the workers), each slice's range named;
    the one wrong at count 5 is refuted at the first index the whole claim names; the summary
    counts agree."""
    split = _pytest(tmp_path, "-n", "2", "--prove", "word_game")
    assert split.returncode == 1, split.stdout + split.stderr
    alone = _gamecert(tmp_path, "prove", "word_game")
    assert alone.returncode == 1, alone.stdout + alone.stderr
    single = _claim_lines(alone.stdout)
    shown = _section(split.stdout, "gamecert prove")
    spread = _claim_lines(shown)
    assert len(spread) == len(single) and spread[0] == "word_game: 4 claims", (spread, single)
    cut = (
        single.index("  [holds] xor rule, words of 1..9 letters") + 1
    )  # its evidence, whole or in slices
    assert [a for i, a in enumerate(spread) if i != cut] == [
        b for i, b in enumerate(single) if i != cut
    ]
    assert spread[cut].startswith("      exhaustive: 4 slices checked apart, each holding: "), (
        spread[cut]
    )
    assert "(every word of 1.." in spread[cut] and "..9 letters up to renaming)" in spread[cut], (
        spread[cut]
    )
    assert "fails first at AAAAA: " in shown and "fails first at 3: " in shown
    count = re.search(r"^(\d+ of \d+ claims hold) \(", alone.stdout, re.MULTILINE).group(1)
    assert count == "2 of 4 claims hold" and re.search(rf"^{count} \(", shown, re.MULTILINE), shown
    refuted = [line for line in alone.stdout.splitlines() if line.startswith("REFUTED at ")]
    assert len(refuted) == 2 and all(line in shown.splitlines() for line in refuted), (
        refuted,
        shown,
    )


def test_a_claim_with_a_slice_not_run_is_not_established(tmp_path):
    """Without xdist, `--prove-slices 3`: a slice deselected leaves its claim NOT ESTABLISHED,
    never held."""
    name = "prove/word_game::xor rule, words of 1..9 letters"
    listed = _pytest(
        tmp_path, "-p", "no:xdist", "--prove", "word_game", "--prove-slices", "3", "--co"
    )
    slices = [line for line in listed.stdout.splitlines() if line.startswith(name + " [")]
    assert len(slices) == 3, listed.stdout
    run = _pytest(
        tmp_path,
        "-p",
        "no:xdist",
        "--prove",
        "word_game",
        "--prove-slices",
        "3",
        "--deselect",
        slices[1],
    )
    assert run.returncode == 1, run.stdout + run.stderr
    shown = _section(run.stdout, "gamecert prove")
    assert "[NOT ESTABLISHED] xor rule, words of 1..9 letters" in shown
    assert "not run: slice 2 of 3" in shown
    assert re.search(r"^1 of 4 claims hold \(", shown, re.MULTILINE), shown  # the induction alone


def test_the_plugin_is_silent_without_its_options(tmp_path):
    """A pytest run that does not name --solvers or --prove: no header line, no items of its own,
    no summary section (the header is printed here: ``-q -v`` is the normal verbosity)."""
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    run = _pytest(tmp_path, "-p", "no:xdist", "-v", "test_one.py")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "collected 1 item" in run.stdout and "1 passed" in run.stdout, run.stdout
    assert "rootdir:" in run.stdout  # the header was printed
    assert "gamecert solvers" not in run.stdout and "gamecert prove" not in run.stdout, run.stdout


def test_a_shrunk_failure_of_a_registered_solver_says_it_was_re_run_in_process():
    """A fault found on a larger input and shrunk keeps where its re-runs ran: a registered
    solver runs in-process, never in fresh processes (the report would claim isolation it did
    not have)."""
    entry = registry.get("word_game")
    broken = registry.broken_solvers("word_game")["multiples_of_three_lose"].solve
    plan = solver_plan(entry, get_profile("quick"), 11, 10)
    samples = plan.all_groups()[0].chunks[0]
    with SolverRunner(entry, "thirds", broken) as runner:
        found = Judge(entry, runner).run_chunk(samples).failure
    assert found is not None and found.input_text not in samples.texts  # shrunk from a sample
    assert found.reruns == (3, 3) and found.rerun_where == SolverRunner.rerun_where


def test_items_cover_the_plan_once_in_order():
    """However much work an item holds, the items of a solver are its plan's chunks, each once,
    in plan order; an item over the bound holds one chunk alone."""
    plan = solver_plan(registry.get("word_game"), get_profile("quick"), 11, 10)
    chunks = [c for g in plan.all_groups() for c in g.chunks]
    for work in (0, 1, 300, 8192, 10**9):
        items = batches(chunks, work)
        assert [c.key for item in items for c in item] == [c.key for c in chunks]
        assert all(len(item) == 1 or sum(map(inprocess_work, item)) <= work for item in items)
    assert (
        len(batches(chunks, 0))
        == len(chunks)
        > len(batches(chunks, 300))
        > len(batches(chunks, 10**9))
        == 1
    )
