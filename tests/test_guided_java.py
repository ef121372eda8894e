"""The guided phase's Java route (issue 47): the class files rewritten with ASM, gamecert's
runtime's record, and a hash compared with a constant mapped back to a string.

Default run: a Java program of this file's own, built plainly and rewritten, run outside the
sandbox on two inputs (its answers and exit codes as the plain build's, a null receiver's
NullPointerException included), its record read as the phase reads it: the jumps' sides, the
int, long, double and switch operands, the strings compared, and a hash's preimage; the
evidence names sites by class and line. Controls: the plain build writes no record, and the
record without the hashes gives no preimage. The certifications of
``tests/guided_wrong/word_game/HashWord.java`` are tests/test_guided.py's long cases.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from gamecert.engine.judge import guided
from gamecert.engine.run import instrument as inst
from gamecert.engine.run import instrument_java as ij
from gamecert.engine.run.sandbox import Candidate

JDK = pytest.mark.skipif(
    shutil.which("javac") is None or shutil.which("java") is None, reason="needs a JDK"
)
ASM = pytest.mark.skipif(
    not any(Path(j).is_file() for j in ij.ASM_JARS),
    reason="needs the ASM library (Debian: libasm-java)",
)

PROBE = """\
import java.util.Scanner;

public class Probe {
    static int kind(String w) {
        switch (w) {
            case "ALPHA": return 1;
            case "OMEGA": return 2;
            default: return 0;
        }
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String w = in.next();
        long big = in.nextLong();
        double x = in.nextDouble();
        int d = in.nextInt();
        int score = kind(w);
        if (w.equals("ZUGZWANG")) score += 10;
        if (big == 123456789012L) score += 100;
        if (x < 2.5) score += 1000;
        switch (d) { case 1: score += 1; break; case 2: score += 2; break; case 7: score += 7; break; default: break; }
        String none = d == 0 ? null : w;
        if (none.startsWith("Z")) score += 5;
        System.out.println(score);
    }
}
"""


def _run(argv: tuple[str, ...], text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        list(argv), input=text, capture_output=True, text=True, timeout=120, check=False
    )


@JDK
@ASM
@pytest.mark.slow
def test_java_rewrite_records_sides_operands_strings_and_hashes(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "Probe.java"
    source.write_text(PROBE)
    plain = Candidate.parse(str(source))
    built = inst.instrument(plain)
    assert built.language == "java" and built.candidate.argv[-1] == "Probe"
    lines = PROBE.splitlines()
    ran = {}
    for text in ("BETA 5 3.0 4\n", "ZUGZWANG 123456789012 1.0 7\n", "AB 1 1.0 0\n"):
        before, after = _run(plain.argv, text), _run(built.candidate.argv, text)
        assert (after.stdout, after.returncode) == (before.stdout, before.returncode), after.stderr
        assert inst.read_coverage(before.stderr, "java") is None  # control: no record plainly
        ran[text] = inst.read_coverage(after.stderr, "java"), after
    cov, _ = ran["BETA 5 3.0 4\n"]
    assert cov is not None and not cov.malformed
    assert ("s", "BETA", "ZUGZWANG") in cov.cmps  # String.equals
    assert ("i", 5, 123456789012) in cov.cmps  # LCMP
    assert ("f", 3.0, 2.5) in cov.cmps  # DCMPG
    assert {("i", 4, 1), ("i", 4, 2), ("i", 4, 7)} <= set(cov.cmps)  # the switch's key and cases
    assert dict(cov.near)  # how close each site came
    # the string switch: BETA's hash against the cases' hashes; no 4 letters reach ALPHA's
    # hash, so the preimage is the shortest that does: ALPHA itself
    assert ("i", ij.java_hash("BETA"), ij.java_hash("ALPHA")) in cov.cmps
    assert ("s", "BETA", "ALPHA") in cov.cmps
    # the evidence: sites by class and line, the sides never taken among them
    line = next(n for n, s in enumerate(lines, 1) if "switch (w)" in s)
    reached = set().union(*(c.sites for c, _ in ran.values()))
    never = [s for k, s in built.sites.items() if k not in reached]
    omega = f"switch case {ij.java_hash('OMEGA')}"
    assert any(s.where == f"Probe:{line}" and s.what == omega for s in never)
    assert not any(s.what == omega for k, s in built.sites.items() if k in reached)
    shown = guided.evidence(built, reached, 3)[0]
    assert "branch sides taken" in shown and f"Probe:{line} `switch (w) {{` {omega}" in shown
    # a null receiver throws as it did (the String call routed through the runtime)
    cov, done = ran["AB 1 1.0 0\n"]
    assert done.returncode != 0 and "NullPointerException" in done.stderr and cov is not None
    # control: the same record without the strings hashed gives no preimage
    record = ran["BETA 5 3.0 4\n"][1].stderr
    fields = dict(
        part.split("=", 1) for part in record[record.rfind("@@gcov ") + 7 :].split() if "=" in part
    )
    fields["hs"] = base64.b64encode(json.dumps([]).encode()).decode()
    bare = ij.read_java(inst._read_python(fields), fields)
    assert ("s", "BETA", "ALPHA") not in bare.cmps and ("s", "BETA", "ZUGZWANG") in bare.cmps


def test_a_hash_maps_back_to_the_shortest_string_with_it():
    """The preimage has the hash asked for, in the hashed string's alphabet, as short as any;
    a hash no string of that alphabet reaches within the lengths tried gives none."""
    for word, target in (("ZADACHA", "GAMBIT"), ("WORD", "ZUGZWANG"), ("abc", "hello")):
        made = ij.hash_preimage(word, ij.java_hash(target))
        assert made is not None and ij.java_hash(made) == ij.java_hash(target)
        assert made.isupper() == word.isupper() and len(made) <= len(target)
    assert ij.hash_preimage("ZADACHA", ij.java_hash("GAMBIT")) == "GAMBIT"
    assert ij.hash_preimage("GAMBIT", ij.java_hash("GAMBIT")) is None  # already equal


@JDK
@ASM
@pytest.mark.slow
def test_a_large_programs_record_fits_the_stderr_tail_the_runner_keeps(tmp_path, monkeypatch):
    """A program of 1,500 jumps, every one run both ways: its record is cut to fit the 16 KB of
    stderr the runner keeps, and read from that tail. Control: the sides written whole would
    not fit."""
    from gamecert.engine.run.testio import _STDERR_TAIL_BYTES

    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    body = "\n".join(f"        if (x == {i}) s++; else s += 2;" for i in range(1500))
    source = tmp_path / "Many.java"
    source.write_text(
        "public class Many {\n    public static void main(String[] a) {\n"
        "        int s = 0;\n        for (int x = 0; x < 2; x++) {\n"
        f"{body}\n        }}\n        System.out.println(s);\n    }}\n}}\n"
    )
    built = inst.instrument(Candidate.parse(str(source)))
    done = _run(built.candidate.argv, "")
    tail = done.stderr.encode()[-_STDERR_TAIL_BYTES:].decode(errors="replace")
    cov = inst.read_coverage(tail, "java")
    assert done.returncode == 0 and cov is not None and not cov.malformed
    assert len(cov.sites) > 300 and len(done.stderr.encode()) < _STDERR_TAIL_BYTES
    # the control: the same sides written whole (as an uncut record would hold them) do not fit
    whole = json.dumps([[i, side, 1] for i in range(1500) for side in (True, False)])
    assert len(base64.b64encode(whole.encode())) > _STDERR_TAIL_BYTES


@JDK
@pytest.mark.slow
def test_without_the_library_or_past_the_method_size_the_route_says_why(tmp_path, monkeypatch):
    """No ASM library: NoRoute, one line naming the package. A method the rewrite makes larger
    than a class file holds (64 KB of code): NoRoute naming the rewriter's error, where the plain
    build runs and answers (the control)."""
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "Big.java"
    body = "\n".join(f"        if (x == {i}) s++;" for i in range(4500))
    source.write_text(
        "public class Big {\n    public static void main(String[] a) {\n"
        f"        int s = 0, x = a.length;\n{body}\n        System.out.println(s);\n    }}\n}}\n"
    )
    plain = Candidate.parse(str(source))
    assert _run(plain.argv, "").stdout == "1\n"
    monkeypatch.setattr(ij, "ASM_JARS", (str(tmp_path / "none" / "asm.jar"),))
    with pytest.raises(inst.NoRoute, match="libasm-java") as caught:
        inst.instrument(plain)
    assert "\n" not in str(caught.value)
    monkeypatch.undo()
    if not any(Path(j).is_file() for j in ij.ASM_JARS):
        return
    monkeypatch.setenv("GAMECERT_CACHE", str(tmp_path / "cache"))
    with pytest.raises(inst.NoRoute, match="could not be rewritten: .*MethodTooLarge") as caught:
        inst.instrument(plain)
    assert "\n" not in str(caught.value)


def test_a_string_lead_is_tried_before_the_numbers():
    """Input to state puts a string operand (here a hash's preimage, GAMBIT for ZADACHA) ahead of
    the numeric candidates, which come after it (the control: without the string pair no
    candidate is GAMBIT, and the numbers are still made)."""
    from gamecert.engine import registry

    entry = registry.get("word_game")
    search = guided.Search(entry, None, inst.Instrumented(None, "java", ""), 1, lambda i, t: None)
    search.st = entry.game.structure()
    state = [tuple("ZADACHA")]
    numbers = tuple(("i", v, 7) for v in range(4)) + (("i", 3, 0), ("i", 196650008, 2095058266))
    for seed in range(5):
        search.rng.seed(seed)
        item = guided.Item(
            None, "", state, inst.Coverage(cmps=(*numbers, ("s", "ZADACHA", "GAMBIT")))
        )
        made = [make() for make in search.i2s(item)]
        assert made[0] == [tuple("GAMBIT")] and len(made) > 3
    item = guided.Item(None, "", state, inst.Coverage(cmps=numbers))
    made = [make() for make in search.i2s(item)]
    assert made and [tuple("GAMBIT")] not in made
