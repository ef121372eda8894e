"""Scale-out: ``pytest --candidate`` over xdist gateways with separate working folders.

Two ``--tx popen//chdir=DIR`` gateways stand for two hosts that share no file system with the
controller: the candidate is named by a path relative to the invocation folder, which neither
gateway's folder holds, so a worker can only run it from the bytes the controller sent. Each run
is compared with a run of the same candidate and seed in one process (``-p no:xdist``): the plan
is fixed by counts, so verdict, counterexample and evidence counts must be equal.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine import registry
from gamecert.engine.plan.plan import CHUNK_BYTES, CHUNK_RUNS, _cut, run_cost
from gamecert.engine.run.sandbox import Candidate
from gamecert.engine.shipping import Shipment, ShipmentError, pack, unpack
from gamecert.errors import GamecertError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: evidence a certificate counts; equal between a one-process and a two-gateway run
COUNTS = (
    "tests",
    "runs",
    "samples",
    "random_examples",
    "largest_sizes",
    "exhaustive",
    "verdict",
    "seed",
)


def _pytest(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="40", PYTHONPATH=str(ROOT))
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            f"--rootdir={cwd}",
            "--candidate-profile",
            "quick",
            "--candidate-examples",
            "10",
            "--candidate-seed",
            "11",
            "--candidate-report-dir=reports",
            # verdicts and counts merged over gateways: the designed families add only runs
            "--candidate-phases",
            "exhaustive,random,largest",
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=150,
    )


def _two_gateways(tmp_path: Path) -> list[str]:
    hosts = [tmp_path / "host-a", tmp_path / "host-b"]
    for h in hosts:
        h.mkdir()
    return ["-d", "--tx", f"popen//chdir={hosts[0]}", "--tx", f"popen//chdir={hosts[1]}"]


def _invocation(tmp_path: Path, name: str) -> Path:
    """A folder of the user's own holding the wrong word_game program as ``prog.py`` and the
    right one as ``sub/right.py``."""
    here = tmp_path / name
    (here / "sub").mkdir(parents=True)
    shutil.copy(EXAMPLES / "word_game" / "wrong.py", here / "prog.py")
    shutil.copy(EXAMPLES / "word_game" / "correct.py", here / "sub" / "right.py")
    return here


def _written(here: Path, kind: str, folder: str = "reports") -> dict:
    found = list((here / folder).glob(f"*/*/{kind}.json"))
    assert len(found) == 1, found
    return json.loads(found[0].read_text())


CANDIDATES = ("--candidate", "word_game=prog.py", "--candidate", "word_game=sub/right.py")


@pytest.mark.slow
def test_two_gateways_give_the_one_process_verdicts(tmp_path):
    """Two gateways in folders of their own run a wrong and a right program named relative to the
    invocation folder. The wrong one: the smallest failure over both workers (AAA) is reported,
    as a one-process run reports it, with the replay command naming the user's file, not a
    worker's copy. The right one: certified with exactly the evidence counts of the one-process
    run (tests, runs, sizes swept, random examples)."""
    here = _invocation(tmp_path, "user")
    spread = _pytest(here, *_two_gateways(tmp_path), *CANDIDATES)
    assert spread.returncode == 1, spread.stdout + spread.stderr
    alone = _pytest(here, "-p", "no:xdist", *CANDIDATES, "--candidate-report-dir=alone")
    assert alone.returncode == 1, alone.stdout + alone.stderr
    report, single = _written(here, "report"), _written(here, "report", "alone")
    for key in ("verdict", "input", "expected", "got", "size", "tests_run", "seed", "minimality"):
        assert report[key] == single[key], key
    assert report["input"] == "AAA\n"
    assert report["candidate_spec"] == str(here / "prog.py")
    workers = next(n for n in report["notes"] if n.startswith("items run by"))
    assert "gw0" in workers and "gw1" in workers, workers
    assert any("other item(s) of this run failed too" in n for n in report["notes"])
    cert, single = _written(here, "certificate"), _written(here, "certificate", "alone")
    assert cert["verdict"] in ("CERTIFIED", "PASSED (incomplete)") and not cert["interrupted"]
    assert cert["candidate_spec"] == str(here / "sub" / "right.py")
    for key in COUNTS:  # runs less the plain audits, which are drawn at random, not by the seed
        if key == "runs":
            assert cert[key] - cert["audits"] == single[key] - single["audits"], (
                key,
                cert["audits"],
                single["audits"],
            )
        else:
            assert cert[key] == single[key], key
    assert any("gw0" in n and "gw1" in n for n in cert["notes"]), cert["notes"]
    for host in ("host-a", "host-b"):  # the gateways' folders never held the programs
        assert not list((tmp_path / host).rglob("prog.py")) and not list(
            (tmp_path / host).rglob("right.py")
        )


@pytest.mark.slow
def test_a_worker_that_receives_other_bytes_refuses_them(tmp_path):
    """A shipment altered on its way (a plugin rewrites the bytes after the controller packed
    them) fails every item with the hash mismatch, and no certificate is written."""
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "tamper.py").write_text(
        "import base64, pytest\n"
        "@pytest.hookimpl(trylast=True)\n"
        "def pytest_configure_node(node):\n"
        "    for sent in node.workerinput.get('gamecert_candidates', []):\n"
        "        sent['shipment']['data'] = base64.b64encode(b'print(\"Bob\")\\n').decode()\n"
    )
    here = _invocation(tmp_path, "user")
    env_path = f"{ROOT}{os.pathsep}{plugins}"
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="20", PYTHONPATH=env_path)
    env.pop("PYTEST_ADDOPTS", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "-p",
            "tamper",
            f"--rootdir={here}",
            *_two_gateways(tmp_path),
            "--candidate",
            "word_game=sub/right.py",
            "--candidate-profile",
            "quick",
            "--candidate-examples",
            "0",
            "--candidate-report-dir=reports",
        ],
        capture_output=True,
        text=True,
        cwd=here,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert (
        "arrived with sha256" in proc.stdout
        and "refusing to run a different program" in proc.stdout
    )
    assert "NOT CERTIFIED" in proc.stdout
    assert not (here / "reports").exists()


# ---- shipments, in one process -------------------------------------------------------------------


def test_source_shipment_round_trip_and_tampering(tmp_path):
    """A source travels as bytes and is prepared from them in another folder; changed bytes, or
    a hash that does not match them, are refused."""
    candidate = Candidate.parse(str(EXAMPLES / "word_game" / "correct.py"))
    shipment = Shipment.from_wire(pack(candidate).to_wire())
    assert shipment.kind == "source" and shipment.name == "correct.py"
    (tmp_path / "ok").mkdir()
    again = unpack(shipment, tmp_path / "ok")
    assert again.source_sha256 == candidate.source_sha256 and again.name == candidate.name
    assert again.source.parent == (tmp_path / "ok").resolve()
    (tmp_path / "bad").mkdir()
    forged = Shipment(
        shipment.spec, "source", shipment.name, shipment.sha256, shipment.data + b"\n# x\n"
    )
    with pytest.raises(ShipmentError, match="arrived with sha256"):
        unpack(forged, tmp_path / "bad")
    with pytest.raises(ShipmentError, match="malformed"):
        unpack(Shipment("x", "source", "../x.py", shipment.sha256, shipment.data), tmp_path / "bad")
    with pytest.raises(ShipmentError, match="malformed"):
        Shipment.from_wire(
            {"spec": "x", "kind": "source", "name": "x.py", "sha256": "", "data": "!!"}
        )


def test_executable_and_command_shipments(tmp_path):
    """An executable file travels with its bytes and stays executable; a command line travels
    as text."""
    script = tmp_path / "prog"
    script.write_text("#!/bin/sh\necho Alice\n")
    script.chmod(0o755)
    shipment = pack(Candidate.parse(str(script)))
    assert shipment.kind == "executable" and shipment.data == script.read_bytes()
    (tmp_path / "w").mkdir()
    again = unpack(shipment, tmp_path / "w")
    assert again.binary_sha256 == shipment.sha256 and os.access(again.binary, os.X_OK)
    command = pack(Candidate.parse("sh -c true"))
    assert command.kind == "command" and command.data == b""
    assert unpack(command, tmp_path / "w").argv[1:] == ("-c", "true")
    assert issubclass(ShipmentError, GamecertError)


# ---- even work units ---------------------------------------------------------------------------------


def _cost(chunk) -> int:
    return sum(run_cost(t) for t in chunk.texts)


def test_a_group_is_cut_into_even_chunks():
    """300 small inputs make two chunks of 150 runs, not 256 and 44; large inputs are cut by
    their bytes, so a chunk of long inputs holds fewer runs."""
    game = registry.get("word_game").game
    small = ["A" * (1 + i % 5) for i in range(300)]
    chunks = _cut(game, "exhaustive", "k", small, CHUNK_RUNS)
    assert [len(c.instances) for c in chunks] == [150, 150]
    cut = registry.get("string_cut").game
    long = ["ab" * 3500] * 100  # 7,000 bytes: 7 units a run
    chunks = _cut(cut, "random", "r", long, CHUNK_RUNS)
    assert all(_cost(c) <= CHUNK_RUNS for c in chunks) and len(chunks) == 3  # 700 units
    assert max(_cost(c) for c in chunks) - min(_cost(c) for c in chunks) <= 7  # one run


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["quick", "default"])
def test_every_registered_plan_has_even_items(profile):
    """Every game's plan by counts: no chunk over the work or byte bound, and within each group
    of several chunks the smallest holds at least half the work of the largest (a run alone
    larger than that aside), except the families, which are drawn and cut one chunk at a time
    (only their last chunk may be smaller)."""
    from gamecert.engine.plan.plan import exhaustive_tests, make_plan
    from gamecert.engine.plan.profiles import get_profile

    prof = get_profile(profile)
    for name in registry.game_names():
        entry = registry.get(name)
        plan = make_plan(
            entry,
            prof,
            5,
            examples=prof.examples,
            exhaustive_tests=exhaustive_tests(entry.game, prof),
        )
        for group in plan.all_groups():
            costs = [_cost(c) for c in group.chunks]
            for c in group.chunks:
                assert len(c.instances) == 1 or (
                    _cost(c) <= CHUNK_RUNS and sum(map(len, c.texts)) <= CHUNK_BYTES
                )
            if len(costs) > 1 and group.phase not in ("largest", "coverage", "worst"):
                biggest_run = max(run_cost(t) for c in group.chunks for t in c.texts)
                assert min(costs) * 2 >= max(costs) - biggest_run, (name, group.key, costs)
            elif group.phase in ("coverage", "worst") and len(costs) > 1:
                biggest_run = max(run_cost(t) for c in group.chunks for t in c.texts)
                assert min(costs[:-1]) >= CHUNK_RUNS - biggest_run, (name, group.key, costs)


def test_builds_that_differ_between_hosts_are_noted():
    """A source compiled into another binary on some worker (another compiler there) is named
    in the merged notes; the same binary everywhere adds no such note."""
    from gamecert.commands.pytest_candidate import _Target, _where_it_ran

    candidate = Candidate.parse(str(EXAMPLES / "word_game" / "correct.py"))
    target = _Target("word_game=x", None, candidate, None, None, 0, 1, "g", pack(candidate))
    object.__setattr__(candidate, "binary_sha256", "a" * 64)
    target.evidence = {
        "c0": {"worker": "gw0", "host": "h1", "binary_sha256": "a" * 64},
        "c1": {"worker": "gw1", "host": "h2", "binary_sha256": "a" * 64},
    }
    assert len(_where_it_ran(target)) == 1
    target.evidence["c1"]["binary_sha256"] = "b" * 64
    notes = _where_it_ran(target)
    assert len(notes) == 2 and "2 different binaries" in notes[1] and "gw1 on h2 (1)" in notes[0]
