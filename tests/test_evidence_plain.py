"""Evidence a judge reproduces: every reported fault fails when the program runs plainly.

A Python candidate runs in the zygote (a child forked per test from a process that compiled it
once), a native one is cloned from the native fork server; a fault either shows there is re-run
as a judge runs the program (`python FILE`, an exec) before it is reported, passes are audited
the same way (drawn at random, `gamecert.engine.judge.audit`), and a fault that never shows
plainly is not the candidate's. Checked here from outside: the reported input is run with plain
`python3` or exec'd; the hostile programs that are right only under the fork server are
certified when the audit is off (the control).
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamecert.engine.judge.audit import RATE_VARIABLE, caught_share
from gamecert.engine.run import contain, toolchains

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MINE = HERE / "candidates_evidence"


def certify(
    tmp_path: Path,
    game: str,
    program: Path,
    *args: str,
    audit_rate: str | None = None,
    sanitize: bool = True,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    env = dict(os.environ)
    env.pop("GAMECERT_EXHAUSTIVE_RUNS", None)
    env.pop(RATE_VARIABLE, None)
    if audit_rate is not None:
        env[RATE_VARIABLE] = audit_rate
    if not sanitize:
        env["GAMECERT_SANITIZE"] = "0"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecert",
            "certify",
            game,
            str(program),
            "--report-dir",
            str(tmp_path / "reports"),
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    return proc, Path(last)


@pytest.mark.slow
def test_a_recursion_fault_reproduces_under_plain_python(tmp_path: Path) -> None:
    """A program recursing once per cuttable position: the reported input fails under a plain
    `python3 FILE` (RecursionError), and the report says the plain re-runs failed every time.
    The largest phase alone (samples always run) finds it on its first inputs (runs of 1,000
    positions); with every phase the sweep below a 1,000-letter fault spent the whole 30 s
    budget, which adds nothing to what is checked here."""
    program = ROOT / "tests" / "wrong" / "string_cut" / "recursive_run.py"
    proc, folder = certify(
        tmp_path,
        "string_cut",
        program,
        "--budget",
        "10",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--phases",
        "largest",
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((folder / "report.json").read_text())
    assert report["verdict"] == "RE"
    assert (
        "re-run 3 times in plain `python FILE` processes, as a judge runs the program: failed 3 of 3"
        in " ".join(report["notes"])
    )
    plain = subprocess.run(
        [contain.base_python(), str(program)],
        input=(folder / "input.in").read_text(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert plain.returncode != 0 and "RecursionError" in plain.stderr, (
        plain.returncode,
        plain.stderr[-300:],
    )


def test_a_program_right_only_under_the_harness_is_caught_by_the_audit(tmp_path: Path) -> None:
    """Right in the zygote, wrong on every input as `python FILE`: the first audit (a plain run
    of the first passing input) finds it."""
    proc, folder = certify(
        tmp_path, "word_game", MINE / "harness_only_right.py", "--budget", "10", "--seed", "1"
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((folder / "report.json").read_text())
    assert report["verdict"] == "WA" and "found by an audit" in " ".join(report["notes"]), report[
        "notes"
    ]


def test_faults_that_never_show_plainly_are_not_the_candidates(tmp_path: Path) -> None:
    """Wrong only in the zygote, right as `python FILE`: the fault (the first sample) is re-run
    plainly 10 times, never fails, and is not counted; the run goes on, every later test as a
    judge runs the program (issue 42: it used to stop there, every later phase at 0 tests), and
    the certificate says what was seen and how the rest ran."""
    proc, folder = certify(
        tmp_path,
        "word_game",
        MINE / "harness_only_wrong.py",
        "--budget",
        "10",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--profile",
        "quick",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    certificate = json.loads((folder / "certificate.json").read_text())
    notes = " ".join(certificate["notes"])
    assert notes.count("not counted (did not reproduce as a judge runs the program)") >= 1, notes
    assert "passed 10 of 10 runs in plain `python FILE` processes" in notes
    assert "every later test ran as a judge runs it" in notes, notes
    # the designed phases and the sweep ran tests after it (before the fix: none, at any budget)
    ran = sum(f["done"] for f in certificate["families"]) + sum(
        s["inputs"] for s in certificate["exhaustive"]
    )
    assert ran > 0, proc.stdout


@pytest.mark.slow
def test_a_fault_seen_in_a_plain_run_that_does_not_come_back_is_reported(tmp_path: Path) -> None:
    """An executable (exec'd per test: every run is already a judge's) wrong on its very first
    run only, then right: the fault never reproduces in the re-runs, yet it was seen as a judge
    would see it, so it is the program's own: reported as nondeterministic, not certified. (Not
    contained, so that the program can leave a mark outside its box; a shell script is exec'd.)"""
    mark = tmp_path / "seen"
    program = tmp_path / "first_run_wrong.sh"
    program.write_text(
        f"#!/bin/sh\nread word\nif [ -e {mark} ]; then\n"
        "  exec /usr/bin/env python3 -c 'import sys; w=sys.argv[1]; t=0\n"
        "for l in set(w):\n c=w.count(l); t^=3 if c%3==0 else c%3\n"
        'print("Alice" if t else "Bob")\' "$word"\n'
        f"fi\ntouch {mark}\necho Nobody\n"
    )
    program.chmod(0o755)
    proc, folder = certify(
        tmp_path,
        "word_game",
        program,
        "--budget",
        "10",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--profile",
        "quick",
        "--no-contain",
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((folder / "report.json").read_text())
    assert report["verdict"] == "WA" and mark.exists()
    assert "nondeterministic: the input failed in 1 of 11 runs" in " ".join(report["notes"]), (
        report["notes"]
    )


#: the programs right only under the fork server, wrong plainly on every word holding a B (the
#: samples hold none): (file, how each test starts)
FORK_SERVER_ONLY = [
    ("forkserver_only_right_on_b.c", "native fork server"),
    ("zygote_only_right_on_b.py", "zygote"),
]


@pytest.mark.slow
@pytest.mark.parametrize("name,start", FORK_SERVER_ONLY)
def test_a_program_right_only_under_the_fork_server_is_not_certified(
    tmp_path: Path, name: str, start: str
) -> None:
    """A C program that looks for the fork server's preloaded library in /proc/self/maps, and a
    Python program that looks for the frame below its own, each wrong plainly only on words
    holding a B: the plain audits drawn among the passes (at 1 in 4 here, over the exhaustive
    phase, whose words hold a B more often than not, so that a 6 s budget catches it surely even
    on a loaded machine) find one, and the report says so (the shrinking then runs plainly, where
    the fault shows); the reported input, exec'd or run as
    `python3 FILE` from outside, gives the wrong answer. Control: with the audit off (rate 0) the
    same program is CERTIFIED, and its certificate says nothing bounds it (the sanitizer phase off
    too: its run of the judge's build as a judge runs it would find it, see
    test_the_sanitizer_phase_hands_back_a_fault_of_the_judges_build)."""
    program = MINE / name
    proc, folder = certify(
        tmp_path,
        "word_game",
        program,
        "--budget",
        "6",
        "--seed",
        "1",
        "--phases",
        "exhaustive",
        audit_rate="0.25",
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((folder / "report.json").read_text())
    notes = " ".join(report["notes"])
    assert report["verdict"] == "WA" and "found by an audit" in notes and start in notes, notes
    assert "B" in report["input"] and "(the confirmation, the shrinking) ran that way too" in notes
    argv = (
        [contain.base_python(), str(program)]
        if name.endswith(".py")
        else list(toolchains.prepare(program).argv)
    )
    plain = subprocess.run(argv, input=report["input"], capture_output=True, text=True, timeout=60)
    assert plain.stdout.strip() == report["got"].strip() != report["expected"].strip(), (
        plain.stdout,
        report,
    )
    control, where = certify(
        tmp_path / "off",
        "word_game",
        program,
        "--budget",
        "4",
        "--seed",
        "1",
        "--phases",
        "exhaustive",
        audit_rate="0",
        sanitize=False,  # (its run of the judge's build as a judge runs it is an audit too)
    )
    assert control.returncode == 0, control.stdout + control.stderr
    line = next(
        x for x in (where / "certificate.md").read_text().splitlines() if "plain audits" in x
    )
    assert f"plain audits: none ({RATE_VARIABLE}=0)" in line, line


def test_the_certificate_states_the_bound_its_audits_give(tmp_path: Path) -> None:
    """A right C program under the native fork server: the certificate's line gives n, the audits
    drawn, of the pool of passes, and X as 1-(1-x)^n >= 0.99 gives it (recomputed here from n,
    rounded up at the third decimal of the percentage); the JSON keeps the line."""
    program = tmp_path / "right.c"
    program.write_text(RIGHT_C)
    proc, folder = certify(
        tmp_path,
        "word_game",
        program,
        "--budget",
        "4",
        "--seed",
        "1",
        "--phases",
        "exhaustive",
        audit_rate="0.125",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads((folder / "certificate.json").read_text())
    line = data["audit_line"]
    match = re.search(
        r"plain audits: (\d+) of the ([\d,]+) passing tests run through the native fork server "
        r".*probability 1/8\).* on at least ([\d.]+)% of the inputs would have been caught with "
        r"probability 99% \(1-\(1-x\)\^(\d+) >= 0.99 for x >= ([\d.]+)%\)",
        line,
    )
    assert match, line
    n, pool, shown, n_again, shown_again = match.groups()
    assert n == n_again and shown == shown_again and 0 < int(n) < int(pool.replace(",", ""))
    assert float(shown) == math.ceil(caught_share(int(n)) * 1e5) / 1e3
    assert (
        1 - (1 - float(shown) / 100) ** int(n)
        >= 0.99
        > 1 - (1 - (float(shown) - 0.002) / 100) ** int(n)
    )
    assert line in (folder / "certificate.md").read_text()


RIGHT_C = r"""#include <stdio.h>
int main(void) {
    char w[64];
    int c[26] = {0}, v = 0;
    if (scanf("%63s", w) != 1) return 1;
    for (char *p = w; *p; ++p) c[*p - 'A']++;
    for (int i = 0; i < 26; i++) if (c[i]) v ^= c[i] % 3 == 0 ? 3 : c[i] % 3;
    puts(v ? "Alice" : "Bob");
    return 0;
}
"""


@pytest.mark.long
@pytest.mark.parametrize("name,start", FORK_SERVER_ONLY[:1])
def test_the_default_audit_rate_catches_the_native_program_at_the_default_budget(
    tmp_path: Path, name: str, start: str
) -> None:
    """The C program right only under the native fork server, certified as a user would (the
    default rate, 1 in 128, and the default 60 s budget): not certified, found by an audit."""
    proc, folder = certify(tmp_path, "word_game", MINE / name, "--seed", "2")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((folder / "report.json").read_text())
    assert report["verdict"] == "WA" and "found by an audit" in " ".join(report["notes"]), report[
        "notes"
    ]


def test_the_audit_line_says_what_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    """The certificate's line, from the judge's counts: an exec per test needs no audit (and
    says so); a pool with audits gives n, the first passes apart, and X from n alone; the rate
    set to 0 says nothing bounds the program; a pool with no audit drawn gives no bound. The
    control: the same counts with one audit more give a smaller X."""
    from gamecert.engine.judge.audit import audit_statement
    from gamecert.engine.judge.judge import Stats

    monkeypatch.delenv(RATE_VARIABLE, raising=False)
    assert "none needed: each of the 7 passing tests" in audit_statement(Stats(plain_passes=7))
    assert audit_statement(Stats()) == ""
    line = audit_statement(Stats(audit_kind="native", audit_pool=4000, audits_drawn=30, audits=32))
    assert "30 of the 4,000 passing tests run through the native fork server" in line
    assert "(and 2 first passes of a runner, audited always)" in line
    shown = float(re.search(r"on at least ([\d.]+)%", line).group(1))
    assert shown == math.ceil(caught_share(30) * 1e5) / 1e3 and 1 - (1 - shown / 100) ** 30 >= 0.99
    more = audit_statement(Stats(audit_kind="native", audit_pool=4000, audits_drawn=31, audits=33))
    assert float(re.search(r"on at least ([\d.]+)%", more).group(1)) < shown
    assert "too few tests for a bound" in audit_statement(
        Stats(audit_kind="zygote", audit_pool=9, audits=1)
    )
    monkeypatch.setenv(RATE_VARIABLE, "0")
    assert "nothing bounds" in audit_statement(Stats(audit_kind="zygote", audit_pool=9))


MAPS_C = r"""#include <stdio.h>
#include <string.h>
int main(void) {
    char line[4096];
    int seen = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    while (maps && fgets(line, sizeof line, maps)) seen |= strstr(line, "libpreinit") != NULL;
    puts(seen ? "clone" : "exec");
    return 0;
}
"""


def test_a_plain_run_of_a_native_program_is_an_exec_not_a_clone(tmp_path: Path) -> None:
    """The runner's plain run (what confirms a fault and audits a pass) of a C program execs it:
    the program finds no fork server's library in its /proc/self/maps, and the run says it
    started "plain". Control: the runner's usual runs of the same program, on the same runner
    before and after, are clones that see the library ("native")."""
    from gamecert.engine.run.limits import Limits
    from gamecert.engine.run.sandbox import Candidate, open_runner

    program = tmp_path / "maps.c"
    program.write_text(MAPS_C)
    with open_runner(Candidate.parse(str(program)), Limits()) as runner:
        if not runner.startup.startswith("native"):
            pytest.skip(f"no native fork server here: {runner.startup}")
        before, plain, after = (
            runner.run("x\n"),
            runner.run_fresh("x\n", quiet=False),
            runner.run("x\n"),
        )
    assert (before.started, before.stdout) == (after.started, after.stdout) == ("native", "clone\n")
    assert (plain.started, plain.stdout) == ("plain", "exec\n")
