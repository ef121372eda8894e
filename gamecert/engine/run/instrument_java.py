"""The guided phase's route for Java candidates: the plain build's class files rewritten once.

The rewriter (``covjava/Instrument.java``, with the ASM library Debian packages as
``libasm-java``) is compiled once into the build cache; for each candidate it runs once, in the
build sandbox under the same caps as every build, over a copy of the plain build's class files
(the candidate's own bytes: read by ASM inside the box, never by gamecert's process). Every
conditional jump, ``LCMP``, ``FCMPx``, ``DCMPx``, switch and call of ``String.equals``,
``equalsIgnoreCase``, ``startsWith``, ``endsWith``, ``contains``, ``compareTo`` and
``hashCode`` becomes a call of gamecert's runtime (``covjava/Cov.java``), which does what the
instruction did and records it; a shutdown hook writes the record at exit on stderr, in the
format the Python route's is (:func:`read_java`). The classes are rewritten before the run, not
by a ``-javaagent`` at each JVM start: a test's JVM loads one more small class and no bytecode
library (``bench/candidate_throughput.py`` measures the cost beside the plain build).

Sites are named ``Class:line`` from the class files' line tables, and by the jump's side. A
32-bit ``String.hashCode`` compared with a constant (``switch`` on a string compiles to that) is
mapped back: the reader solves for a string of the hashed one's length and alphabet whose hash is
the other operand (:func:`hash_preimage`), and gives the pair as two strings compared, which the
search's input-to-state puts in place of the hashed one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
from pathlib import Path
from typing import Any

from gamecert.engine.run.covtypes import Coverage, Instrumented, NoRoute, Site

SOURCES = Path(__file__).resolve().parent / "covjava"
#: where Debian's libasm-java puts the library
ASM_JARS = ("/usr/share/java/asm.jar",)
#: the hash's modulus, and how many of the hashed string's last characters are solved for at most
_M, _TAIL = 1 << 32, 8


def _headline(text: str) -> str:
    """The line of a step's output that says what went wrong (an error, an exception).

    >>> _headline("Picked up X\\nException in main: java.lang.OutOfMemoryError\\nat A")
    'Exception in main: java.lang.OutOfMemoryError'
    """
    lines = [s.strip() for s in text.splitlines() if s.strip()]
    picked = next(
        (s for s in lines if "error" in s.lower() or "exception" in s.lower()),
        lines[0] if lines else "no output",
    )
    return picked[:200]


def _asm_jar() -> str:
    for jar in ASM_JARS:
        if Path(jar).is_file():
            return jar
    raise NoRoute(
        "the ASM bytecode library is not installed (Debian: apt-get install libasm-java), "
        "which the Java route's rewriter needs"
    )


def _tool(javac: str, asm: str) -> Path:
    """The rewriter and the runtime compiled (once: cached by their sources, the library and
    the compiler's version): the folder holding ``gamecertcov/*.class``."""
    from gamecert.engine.run import toolchains

    sources = sorted(SOURCES.glob("*.java"))
    key = hashlib.sha256(
        b"\0".join(
            [
                *(p.read_bytes() for p in sources),
                Path(asm).resolve().name.encode(),
                toolchains.compiler_version(javac, "-version").encode(),
            ]
        )
    ).hexdigest()[:32]
    final = toolchains.cache_root() / f"guided-javatool-{key}"
    if (final / "gamecertcov" / "Cov.class").is_file():
        return final
    work = toolchains.work_folder(toolchains.cache_root(), ".guided-")
    try:
        for p in sources:
            shutil.copyfile(p, work / p.name)
        rc, out = toolchains._run_build(
            [javac, "-encoding", "UTF-8", "-cp", asm, "-d", str(work), *(p.name for p in sources)],
            work,
            toolchains.BUILD_TIMEOUT_S,
        )
        if rc != 0 or not (work / "gamecertcov" / "Cov.class").is_file():
            raise NoRoute(f"gamecert's Java coverage runtime did not build: {_headline(out)}")
        for p in sources:
            (work / p.name).unlink()
        work.chmod(0o755)
        try:
            work.rename(final)
        except OSError:
            if not (final / "gamecertcov" / "Cov.class").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return final


def instrument_java(candidate: Any) -> Instrumented:
    """The instrumented build of a Java candidate (its plain build's class folder rewritten)."""
    from gamecert.engine.run import toolchains

    classes = candidate.binary
    if classes is None or not Path(classes).is_dir():
        raise NoRoute("the Java build has no class folder to rewrite")
    javac, java = shutil.which("javac"), shutil.which("java")
    if javac is None or java is None:
        raise NoRoute("javac or java is not installed")
    asm = _asm_jar()
    tool = _tool(javac, asm)
    files = sorted(p for p in Path(classes).rglob("*.class") if p.is_file())
    digest = hashlib.sha256(tool.name.encode())
    for p in files:
        digest.update(str(p.relative_to(classes)).encode() + b"\0" + p.read_bytes())
    final = toolchains.cache_root() / f"guided-{digest.hexdigest()[:32]}"
    if not (final / "sites.txt").is_file():
        work = toolchains.work_folder(toolchains.cache_root(), ".guided-")
        try:
            for p in files:
                target = work / "in" / p.relative_to(classes)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(p, target)
            shutil.copytree(tool, work / "tool")
            rc, out = toolchains._run_build(
                [
                    java,
                    "-Xshare:auto",
                    "-XX:TieredStopAtLevel=1",
                    "-cp",
                    f"{work / 'tool'}:{asm}",
                    "gamecertcov.Instrument",
                    str(work / "in"),
                    str(work / "out"),
                    str(work / "sites.txt"),
                ],
                work,
                toolchains.BUILD_TIMEOUT_S,
            )
            if rc != 0 or not (work / "sites.txt").is_file():
                raise NoRoute(f"the class files could not be rewritten: {_headline(out)}")
            runtime = work / "out" / "gamecertcov"
            runtime.mkdir(parents=True, exist_ok=True)
            for p in (tool / "gamecertcov").glob("Cov*.class"):
                shutil.copyfile(p, runtime / p.name)
            shutil.rmtree(work / "in")
            shutil.rmtree(work / "tool")
            for p in work.rglob("*"):
                p.chmod(0o755 if p.is_dir() else 0o644)
            work.chmod(0o755)
            try:
                work.rename(final)
            except OSError:
                if not (final / "sites.txt").is_file():
                    raise
        finally:
            shutil.rmtree(work, ignore_errors=True)
    lines = []
    if candidate.source is not None:
        try:
            lines = Path(candidate.source).read_text(errors="replace").splitlines()
        except OSError:
            pass
    sites: dict[Any, Site] = {}
    for row in (final / "sites.txt").read_text().splitlines():
        ident, taken, owner, _method, line, what = row.split("\t", 5)
        n = int(line)
        text = lines[n - 1].strip()[:80] if 0 < n <= len(lines) else ""
        sites[(int(ident), taken == "1")] = Site(n, text, what, f"{owner}:{n}")
    run = dataclasses.replace(
        candidate,
        argv=tuple(str(final / "out") if w == str(classes) else w for w in candidate.argv),
        binary=final / "out",
        binary_sha256="",
    )
    return Instrumented(
        run,
        "java",
        "the class files rewritten with ASM: every conditional jump (both sides), switch case, "
        "int, long, float and double comparison's operands, and String equals, compareTo and "
        "hashCode",
        sites,
    )


# ---- reading ----------------------------------------------------------------------------------


def java_hash(s: str) -> int:
    """Java's ``String.hashCode`` (of a string of characters below U+10000), as a signed int.

    >>> java_hash("ZADACHA"), java_hash(""), java_hash("Aa") == java_hash("BB")
    (196650008, 0, True)
    """
    h = 0
    for c in s:
        h = (31 * h + ord(c)) % _M
    return h - _M if h >= 1 << 31 else h


def _alphabet(s: str) -> tuple[int, int]:
    """The range of characters a preimage of ``s``'s hash may use: that of ``s``'s letters."""
    for lo, hi in (("A", "Z"), ("a", "z"), ("0", "9")):
        if all(lo <= c <= hi for c in s):
            return ord(lo), ord(hi)
    return 33, 126


def _solve(t: int, m: int, lo: int, hi: int) -> list[int] | None:
    """Characters c_0..c_{m-1} in [lo, hi] with sum c_i 31^(m-1-i) == t, or None."""
    if m == 0:
        return [] if t == 0 else None
    p = 31 ** (m - 1)
    rest = (p - 1) // 30  # the sum of 31^j, j < m - 1
    first = max(lo, -(-(t - hi * rest) // p))
    last = min(hi, (t - lo * rest) // p)
    for c in range(first, last + 1):
        tail = _solve(t - c * p, m - 1, lo, hi)
        if tail is not None:
            return [c, *tail]
    return None


def hash_preimage(s: str, target: int) -> str | None:
    """The shortest string of ``s``'s alphabet whose Java hash is ``target``: of any length up to
    8 (every character solved for), else of ``s``'s length with as few of its last characters
    changed as will do; None if there is none. (The shortest: the smallest input that holds it.)

    >>> hash_preimage("WORD", java_hash("GAMBIT"))  # no 5 letters reach a 6-letter hash
    'GAMBIT'
    >>> hash_preimage("ZADACHA", java_hash("AB"))
    'AB'
    >>> w = hash_preimage("Q" * 20, java_hash("ZUGZWANGZUGZWANG")); java_hash(w) == java_hash("ZUGZWANGZUGZWANG"), len(w)
    (True, 7)
    >>> hash_preimage("12", java_hash("99999999999")) is None  # no 8 digits or fewer reach it
    True
    """
    if not s or java_hash(s) == target:
        return None
    lo, hi = _alphabet(s)
    for m in range(1, _TAIL + 1):
        found = _tail(target % _M, m, lo, hi)
        if found is not None:
            return found
    n = len(s)
    if n > _TAIL:  # s's length: its head kept, its last characters solved for
        found = _tail((target - java_hash(s[: n - _TAIL]) * 31**_TAIL) % _M, _TAIL, lo, hi)
        if found is not None:
            return s[: n - _TAIL] + found
    return None


def _tail(need: int, m: int, lo: int, hi: int) -> str | None:
    """``m`` characters in [lo, hi] whose hash (from 0) is ``need`` modulo 2^32, or None."""
    total = (31**m - 1) // 30
    low, high = lo * total, hi * total
    for k in range(max(0, -(-(low - need) // _M)), (high - need) // _M + 1):
        found = _solve(need + k * _M, m, lo, hi)
        if found is not None:
            return "".join(map(chr, found))
    return None


def read_java(cov: Coverage, fields: dict[str, str]) -> Coverage:
    """One run's record, ``cov`` as the Python route's fields give it, with ``hs`` (the strings
    hashed): an integer comparison one of whose operands is a hash of a string gives that string
    and a preimage of the other operand, as a pair of strings compared."""
    import base64
    import json

    try:
        hashed = json.loads(base64.b64decode(fields.get("hs", "")) or b"[]")
    except ValueError:
        return cov
    by_hash = {
        h: s
        for s, h in (row for row in hashed if isinstance(row, list) and len(row) == 2)
        if isinstance(s, str) and isinstance(h, int) and not isinstance(h, bool)
    }
    if not by_hash:
        return cov
    extra = []
    for kind, a, b in cov.cmps:
        if kind != "i":
            continue
        for x, y in ((a, b), (b, a)):
            if x in by_hash and isinstance(y, int) and -(1 << 31) <= y < 1 << 31:
                made = _preimage(by_hash[x], y)
                if made is not None:
                    extra.append(("s", by_hash[x], made))
    if not extra:
        return cov
    return dataclasses.replace(cov, cmps=(*cov.cmps, *dict.fromkeys(extra)))


_PREIMAGES: dict[tuple[str, int], str | None] = {}


def _preimage(s: str, target: int) -> str | None:
    key = (s, target)
    if key not in _PREIMAGES:
        if len(_PREIMAGES) > 4096:
            _PREIMAGES.clear()
        _PREIMAGES[key] = hash_preimage(s, target)
    return _PREIMAGES[key]


__all__ = ["hash_preimage", "instrument_java", "java_hash", "read_java"]
