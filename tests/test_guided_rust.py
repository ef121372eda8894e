"""The guided phase's route for Rust candidates (issue 47): rustc with LLVM's sanitizer coverage,
linked with gamecert's runtime (gamecert/engine/run/instrument_rust.py).

Default run: a small Rust program's instrumented build run outside the sandbox on a few inputs,
its ``@@gcov`` record read back as the phase reads it: the comparison of its own source with its
operands, the blocks named by lines of its source, the evidence line; controls: the plain build
writes no record, a build without ``-sanitizer-coverage-prune-blocks=0`` loses the comparison
inside ``windows(2).all(...)``, and a build whose tables of own sites are left empty records the
standard library's parsing comparisons. The long test that the guided phase catches the wrong
Rust program is ``tests/test_guided.py``'s (``tests/guided_wrong/stones_once/ap6_step7.rs``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from gamecert.engine.judge import guided
from gamecert.engine.run import instrument as inst
from gamecert.engine.run import instrument_rust
from gamecert.engine.run.sandbox import Candidate

WRONG = Path(__file__).resolve().parent / "guided_wrong" / "stones_once" / "ap6_step7.rs"

pytestmark = pytest.mark.skipif(
    any(shutil.which(t) is None for t in ("rustc", "gcc", "objdump", "addr2line")),
    reason="needs rustc, GCC and binutils",
)


def _run(argv: tuple[str, ...], text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        list(argv), input=text, capture_output=True, text=True, timeout=60, check=False
    )


def _line(needle: str) -> int:
    return next(n for n, s in enumerate(WRONG.read_text().splitlines(), 1) if needle in s)


def test_rust_build_records_its_own_blocks_and_comparisons(tmp_path, monkeypatch):
    """The instrumented build answers as the plain one; a run on six piles whose last step is 11
    records the comparison of ``w[1] == w[0] + 7`` as (40, 36) (the input's pile and the
    program's derived value, for input to state to write back) and no comparison of the
    standard library's number parsing (a character against '+'); the blocks it reached are named by
    lines of the source, and the line that flips the answer is the one never reached; the
    right answer's input reaches it. Control: the plain build writes no record."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    plain = Candidate.parse(str(WRONG))
    built = inst.instrument(plain)
    assert built.language == "rust" and "sancov" in built.how
    text = "6\n1\n8\n15\n22\n29\n40\n"
    done = _run(built.candidate.argv, text)
    assert done.returncode == 0 and done.stdout == _run(plain.argv, text).stdout == "NO\n"
    cov = inst.read_coverage(done.stderr, "rust")
    assert cov is not None and not cov.malformed
    assert ("i", 40, 36) in cov.cmps
    assert not [c for c in cov.cmps if 43 in c[1:]], cov.cmps  # a character against '+'
    assert cov.sites and cov.sites <= set(built.sites)
    flip = _line("first_wins = !first_wins;")
    assert flip in {s.line for s in built.sites.values()}
    assert flip not in {built.sites[k].line for k in cov.sites}
    ev = guided.evidence(built, set(cov.sites), 1)[0]
    assert ev.startswith("guided phase (rust, measured on its 1 runs): basic blocks reached")
    assert f"line {flip} `first_wins = !first_wins;`" in ev
    hit = inst.read_coverage(_run(built.candidate.argv, "6\n1\n8\n15\n22\n29\n36\n").stderr, "rust")
    assert hit is not None and flip in {built.sites[k].line for k in hit.sites}
    assert inst.read_coverage(_run(plain.argv, text).stderr, "rust") is None


def test_the_controls_of_the_rust_build(tmp_path, monkeypatch):
    """Why the build is made as it is. Without ``-sanitizer-coverage-prune-blocks=0`` LLVM
    leaves out the comparison inside the loop of ``windows(2).all(...)``: (40, 36) is not
    recorded. With its tables of own sites left empty (everything recorded) the record fills
    with the standard library's parsing comparisons (a character against '+')."""
    text = "6\n1\n8\n15\n22\n29\n40\n"
    flags = tuple(f for f in instrument_rust.COVERAGE_FLAGS if "prune-blocks" not in f)
    assert len(flags) == len(instrument_rust.COVERAGE_FLAGS) - 1
    monkeypatch.setattr(instrument_rust, "COVERAGE_FLAGS", flags[:-1])  # and its "-C"
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "pruned"))
    pruned = inst.instrument(Candidate.parse(str(WRONG)))
    cov = inst.read_coverage(_run(pruned.candidate.argv, text).stderr, "rust")
    assert cov is not None and ("i", 40, 36) not in cov.cmps
    monkeypatch.undo()
    monkeypatch.setattr(instrument_rust, "mark_own", lambda data, mark, sites: data)
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "all"))
    everything = inst.instrument(Candidate.parse(str(WRONG)))
    cov = inst.read_coverage(_run(everything.candidate.argv, text).stderr, "rust")
    assert cov is not None and ("i", 40, 36) in cov.cmps
    assert [c for c in cov.cmps if 43 in c[1:]]


def test_a_rust_candidate_built_otherwise_is_told_why(tmp_path, monkeypatch):
    """A Rust candidate whose compile command is not rustc's has no instrumented build: the
    reason is one line; the plain flags the build keeps are read from the command."""
    import dataclasses

    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path))
    plain = Candidate.parse(str(WRONG))
    other = dataclasses.replace(plain, compile_command=("mrustc", *plain.compile_command[1:]))
    with pytest.raises(inst.NoRoute, match="the instrumented build needs rustc"):
        inst.instrument(other)
    assert instrument_rust.plain_flags(plain.compile_command) == [
        "-C",
        "opt-level=2",
        "--edition",
        "2021",
    ]
