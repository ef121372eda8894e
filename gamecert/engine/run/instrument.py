"""The guided phase's second build of a candidate: one that reports what code each run reached
and the operands of its comparisons (read by :mod:`gamecert.engine.judge.guided`).

* **C and C++**: the source compiled again, as its plain build is (``-O2 -DONLINE_JUDGE``, the
  same standard), with GCC's ``-fsanitize-coverage=trace-pc,trace-cmp``, ``-g`` and ``-no-pie``,
  linked with gamecert's runtime ``covrt.c``; the build runs under the same caps and sandbox as
  every build (:func:`gamecert.engine.run.toolchains._run_build`). The basic blocks the program
  holds are read from the binary (``objdump``: every call of ``__sanitizer_cov_trace_pc``) and
  their source lines from its debug information (``addr2line``).
* **Python**: the source rewritten (:mod:`ast`): every ``if``, ``while``, conditional expression
  and comprehension condition records which side it took, every single comparison records its
  operands (numbers, strings); a prologue writes the record at exit; the input's numbers are
  followed through the program's arithmetic (:mod:`gamecert.engine.run.instrument_sym`).
* **JavaScript**: the source rewritten as Python's is (:mod:`gamecert.engine.run.instrument_js`).
* **Java**: the plain build's class files rewritten with ASM (:mod:`gamecert.engine.run.instrument_java`).
* **Rust**: LLVM's sanitizer coverage with the same runtime (:mod:`.instrument_rust`).
* **Go, executables and command lines**: no route; the reason is said.

Each run of the instrumented program ends its stderr with one line, ``@@gcov ...``
(:func:`read_coverage`). The instrumented program runs in the same sandbox as the plain one;
what it writes there steers the search and is never a verdict.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from gamecert.engine.run.covtypes import Coverage, Instrumented, NoRoute, Site
from gamecert.engine.run.instrument_sym import PROLOGUE as SYM_PROLOGUE
from gamecert.engine.run.instrument_sym import read_sym

RUNTIME = Path(__file__).resolve().parent / "covrt.c"
MARK = "@@gcov "
#: flags of the instrumented build beside the plain build's own
COVERAGE_FLAGS = (
    "-fsanitize-coverage=trace-pc,trace-cmp",
    "-g",
    "-no-pie",
    "-fno-builtin-strcmp",
    "-fno-builtin-strncmp",
    "-fno-builtin-memcmp",
    "-fno-builtin-strstr",
)
RUNTIME_FLAGS = ("-O2", "-g0", "-fno-builtin", "-fno-tree-loop-distribute-patterns", "-c")
#: languages whose route rewrites the source: their record is the Python route's (branch sides)
REWRITTEN = ("python", "javascript")


def read_coverage(stderr_tail: str, language: str) -> Coverage | None:
    """The coverage line of one run's stderr tail, or None if there is none (the program died,
    or closed its stderr). The line is written inside the candidate's process, so the candidate
    can write one of its own: one that cannot be read (an id that is not a number, a field of the
    wrong shape) is an empty :class:`Coverage` marked ``malformed``, never an error of gamecert's.

    >>> read_coverage("@@gcov br=W1siYSIsMSwxXV0=", "python").malformed  # [["a", 1, 1]]
    True
    """
    at = stderr_tail.rfind(MARK)
    if at < 0:
        return None
    fields = dict(
        part.split("=", 1)
        for part in stderr_tail[at + len(MARK) :].split("\n", 1)[0].split(" ")
        if "=" in part
    )
    try:
        if language == "java":
            from gamecert.engine.run.instrument_java import read_java

            return read_java(_read_python(fields), fields)
        return _read_python(fields) if language in REWRITTEN else _read_native(fields)
    except Exception:  # noqa: BLE001 - the record is the program's text: a bad one is ignored
        return Coverage(malformed=True)


def _hexes(text: str) -> list[int]:
    out = []
    for word in text.split(","):
        try:
            out.append(int(word, 16))
        except ValueError:
            pass
    return out


def _read_native(fields: dict[str, str]) -> Coverage:
    import struct

    pcs = frozenset(_hexes(fields.get("pcs", "")))
    edges = frozenset(_hexes(fields.get("edges", "")))
    cmps = []
    for word in fields.get("cmps", "").split(","):
        parts = word.split(":")
        if len(parts) != 3:
            continue
        try:
            a, b = int(parts[1], 16), int(parts[2], 16)
        except ValueError:
            continue
        kind = parts[0]
        if kind in ("f", "d"):
            x, y = (struct.unpack("<d", v.to_bytes(8, "little"))[0] for v in (a, b))
            cmps.append(("f", x, y))
        else:
            bits = {"1": 8, "2": 16, "4": 32}.get(kind, 64)
            cmps.append(("i", a, b))
            if a >> (bits - 1) or b >> (bits - 1):  # also as signed numbers
                cmps.append(
                    (
                        "i",
                        a - (1 << bits) if a >> (bits - 1) else a,
                        b - (1 << bits) if b >> (bits - 1) else b,
                    )
                )
    for word in fields.get("strs", "").split(","):
        if ":" in word:
            x, _, y = word.partition(":")
            try:
                cmps.append(
                    (
                        "s",
                        bytes.fromhex(x).decode(errors="replace"),
                        bytes.fromhex(y).decode(errors="replace"),
                    )
                )
            except ValueError:
                pass
    near = []
    for word in fields.get("near", "").split(","):
        site, _, dist = word.partition(":")
        try:
            near.append((int(site, 16), int(dist, 16)))
        except ValueError:
            pass
    return Coverage(
        frozenset(("e", e) for e in edges) | frozenset(("p", p) for p in pcs),
        pcs,
        tuple(cmps),
        tuple(near),
    )


def _read_python(fields: dict[str, str]) -> Coverage:
    import base64
    import json

    try:
        branches = json.loads(base64.b64decode(fields.get("br", "")) or b"[]")
        cmps = json.loads(base64.b64decode(fields.get("cmps", "")) or b"[]")
        near = json.loads(base64.b64decode(fields.get("near", "")) or b"[]")
    except ValueError:
        return Coverage()
    sites = frozenset((int(i), bool(side)) for i, side, _count in branches)
    features = frozenset(
        ("b", int(i), bool(side), _bucket(int(count))) for i, side, count in branches
    )
    out: list[tuple[str, object, object]] = []
    reached = frozenset(("c", row[0]) for row in cmps if len(row) == 1)  # the comparisons that ran
    for row in cmps:
        if len(row) != 3:
            continue
        _, a, b = row
        if (
            isinstance(a, (int, float))
            and isinstance(b, (int, float))
            and not isinstance(a, bool)
            and not isinstance(b, bool)
        ):
            out.append(("i" if isinstance(a, int) and isinstance(b, int) else "f", a, b))
        elif isinstance(a, str) and isinstance(b, str):
            out.append(("s", a, b))
        elif (
            isinstance(a, list)
            and isinstance(b, list)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in a + b)
        ):
            out.append(("l", tuple(a), tuple(b)))
    closest = tuple(
        (int(row[0]), row[1])
        for row in near
        if isinstance(row, list) and len(row) == 2 and isinstance(row[1], (int, float))
    )
    return Coverage(
        features | reached, sites, tuple(out), closest, sym=read_sym(fields.get("sym", ""))
    )


def _bucket(count: int) -> int:
    """AFL's hit-count buckets.

    >>> [_bucket(c) for c in (1, 2, 3, 5, 9, 20, 100, 1000)]
    [1, 2, 3, 4, 5, 6, 7, 8]
    """
    return (
        count
        if count <= 3
        else 4
        if count < 8
        else 5
        if count < 16
        else 6
        if count < 32
        else 7
        if count < 128
        else 8
    )


# ---- building ---------------------------------------------------------------------------------


def instrument(candidate: Any) -> Instrumented:
    """The instrumented build of ``candidate`` (a :class:`gamecert.engine.run.sandbox.Candidate`),
    or :class:`NoRoute` saying why there is none."""
    language = getattr(candidate, "language", "")
    if language == "python" and candidate.source is not None:
        return _python(candidate)
    if language in ("c", "cpp") and candidate.source is not None:
        return _native(candidate)
    if language == "rust" and candidate.source is not None:
        return _rust(candidate)
    if language == "javascript" and candidate.source is not None:
        from gamecert.engine.run import instrument_js as js

        try:
            run, how, sites = js.javascript(candidate)
        except js.Unparsed as exc:
            raise NoRoute(str(exc)) from None
        return Instrumented(run, language, how, {k: Site(*v) for k, v in sites.items()})
    if language == "java" and candidate.source is not None:
        from gamecert.engine.run.instrument_java import instrument_java

        return instrument_java(candidate)
    if language == "go":
        raise NoRoute(
            f"no instrumented build for {language} yet (GCC's coverage flags apply to C and C++ only)"
        )
    if language in ("executable", "command"):
        raise NoRoute(
            f"the candidate is {'an executable' if language == 'executable' else 'a command line'}, "
            f"not a source gamecert builds"
        )
    raise NoRoute(f"no instrumented build for {language or 'this candidate'}")


def _native(candidate: Any) -> Instrumented:
    from gamecert.engine.run import toolchains

    source = Path(candidate.source)
    compiler = "g++" if candidate.language == "cpp" else "gcc"
    if candidate.compile_command and os.path.basename(candidate.compile_command[0]) not in (
        "gcc",
        "g++",
        "cc",
        "c++",
    ):
        raise NoRoute(
            f"built with {candidate.compile_command[0]!r}: the instrumented build needs GCC"
        )
    for tool in (compiler, "objdump", "addr2line"):
        if shutil.which(tool) is None:
            raise NoRoute(f"{tool} is not installed")
    std = next((w for w in candidate.compile_command if w.startswith("-std=")), "")
    data = source.read_bytes()
    suffix = ".cpp" if candidate.language == "cpp" else ".c"
    flags = [w for w in ("-O2", "-DONLINE_JUDGE", std, *COVERAGE_FLAGS) if w]
    key = hashlib.sha256(
        b"\0".join(
            [
                data,
                RUNTIME.read_bytes(),
                " ".join(flags).encode(),
                compiler.encode(),
                toolchains.compiler_version(compiler).encode(),
            ]
        )
    ).hexdigest()[:32]
    final = toolchains.cache_root() / f"guided-{key}"
    exe = final / "prog"
    if not exe.is_file():
        work = toolchains.work_folder(toolchains.cache_root(), ".guided-")
        try:
            (work / f"main{suffix}").write_bytes(data)
            shutil.copyfile(RUNTIME, work / "covrt.c")
            rc, out = toolchains._run_build(
                ["gcc", *RUNTIME_FLAGS, "-o", str(work / "covrt.o"), str(work / "covrt.c")],
                work,
                toolchains.BUILD_TIMEOUT_S,
            )
            if rc != 0:
                raise NoRoute(f"gamecert's coverage runtime did not build: {_first(out)}")
            cmd = [
                compiler,
                *flags,
                "-o",
                str(work / "prog"),
                str(work / f"main{suffix}"),
                str(work / "covrt.o"),
            ]
            if candidate.language == "c":
                cmd.append("-lm")
            rc, out = toolchains._run_build(cmd, work, toolchains.BUILD_TIMEOUT_S)
            if rc != 0 or not (work / "prog").is_file():
                raise NoRoute(
                    f"the instrumented build failed where the plain one built: {_first(out)}"
                )
            (work / "sites.txt").write_text(_site_table(work / "prog", f"main{suffix}"))
            work.chmod(0o755)
            try:
                os.rename(work, final)
            except OSError:
                if not exe.is_file():
                    raise
        finally:
            shutil.rmtree(work, ignore_errors=True)
    sites = {}
    for row in (final / "sites.txt").read_text().splitlines():
        pc, line, text = row.split("\t", 2)
        sites[int(pc, 16)] = Site(int(line), text)
    import dataclasses

    # a copy the sandbox runs: the build folder name in the cache says nothing of the harness
    run = dataclasses.replace(
        candidate,
        argv=(str(exe),),
        binary=exe,
        python_file=None,
        compile_command=(),
        binary_sha256="",
    )
    return Instrumented(
        run,
        candidate.language,
        "GCC -fsanitize-coverage=trace-pc,trace-cmp and gamecert's runtime "
        "(basic blocks reached, comparison operands)",
        sites,
    )


def _rust(candidate: Any) -> Instrumented:
    from gamecert.engine.run import instrument_rust

    try:
        built = instrument_rust.build(candidate)
    except instrument_rust.Unbuildable as exc:
        raise NoRoute(str(exc)) from None
    sites: dict[Any, Site] = {pc: Site(line, text) for pc, (line, text) in built.sites.items()}
    # sancov's trace-compares reports integer comparisons only (no fcmp): a float the program
    # derives and compares is never seen, so a source that names a float type says so
    text = Path(candidate.source).read_text(encoding="utf-8", errors="replace")
    return Instrumented(built.candidate, "rust", built.how, sites, floats_unseen=rust_floats(text))


def rust_floats(text: str) -> bool:
    """Whether a Rust source names a float type (``f32`` or ``f64``, a literal's suffix too).

    >>> rust_floats("let m = s as f32 / n as f32;"), rust_floats("let x = 2.5f64;")
    (True, True)
    >>> rust_floats("let buf32 = [0u8; 32]; let f = 1;")
    False
    """
    return re.search(r"(?<![A-Za-z_])f(?:32|64)\b", text) is not None


def _made(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    return root


def _first(text: str) -> str:
    lines = [s.strip() for s in text.splitlines() if s.strip()]
    picked = next((s for s in lines if "error" in s), lines[0] if lines else "no output")
    return picked[:200]


def _site_table(exe: Path, source_name: str) -> str:
    """One row per basic block of the program's own source: ``ADDRESS\\tLINE\\tTEXT`` (the address
    a trace-pc call returns to, the source line of the call)."""
    done = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", str(exe)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    calls, after = [], False
    for row in done.stdout.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s", row)
        if not m:
            continue
        if after:
            calls.append(int(m.group(1), 16))
            after = False
        if "<__sanitizer_cov_trace_pc>" in row and "call" in row:
            after = True
    if not calls:
        return ""
    done = subprocess.run(
        ["addr2line", "-e", str(exe), *(f"{c - 1:x}" for c in calls)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = (exe.parent / source_name).read_text(errors="replace").splitlines()
    rows = []
    for pc, where in zip(calls, done.stdout.splitlines()):
        path, _, rest = where.rpartition(":")
        m = re.match(r"(\d+)", rest)
        if not m or os.path.basename(path) != source_name or int(m.group(1)) == 0:
            continue
        line = int(m.group(1))
        text = lines[line - 1].strip() if line <= len(lines) else ""
        rows.append(f"{pc:x}\t{line}\t{text[:80]}")
    return "\n".join(rows)


# ---- Python -----------------------------------------------------------------------------------

_PROLOGUE = """\
import atexit as _gc_atexit, os as _gc_os, operator as _gc_op
_gc_brs = {}
_gc_cms = {}
_gc_near = {}
_gc_ops = {"Eq": _gc_op.eq, "NotEq": _gc_op.ne, "Lt": _gc_op.lt, "LtE": _gc_op.le, "Gt": _gc_op.gt,
           "GtE": _gc_op.ge, "Is": _gc_op.is_, "IsNot": _gc_op.is_not,
           "In": lambda a, b: a in b, "NotIn": lambda a, b: a not in b}
def _gc_b(i, v):
    _gs_truth(i, v)
    t = True if v else False
    k = (i, t)
    _gc_brs[k] = _gc_brs.get(k, 0) + 1
    return t
def _gc_c(i, a, b, op):
    r = _gc_ops[op](a, b)
    a, b = _gs_cmp(i, a, b, op, r)
    seen = _gc_cms.get(i)
    if seen is None:
        seen = _gc_cms[i] = []
    if type(a) in (list, tuple) and type(b) in (list, tuple) and 0 < len(a) <= 64 and 0 < len(b) <= 64:
        if len(seen) < 4 and a != b and all(type(v) is int and abs(v) < 1 << 62 for v in (*a, *b)):
            pair = (list(a), list(b))
            if pair not in seen:
                seen.append(pair)
    elif type(a) in (int, float, str) and type(b) in (int, float, str) and a != b:
        if type(a) is not str and type(b) is not str:
            try:
                d = abs(a - b)
                if d == d and d < _gc_near.get(i, d + 1):
                    _gc_near[i] = d
            except OverflowError:
                pass
        if len(seen) < 4:
            if type(a) is str:
                a = a[:64]
            if type(b) is str:
                b = b[:64]
            if (a, b) not in seen and (type(a) is not int or abs(a) < 1 << 62) and (type(b) is not int or abs(b) < 1 << 62):
                seen.append((a, b))
    return r
def _gc_dump():
    import base64, json
    br = base64.b64encode(json.dumps([[i, t, n] for (i, t), n in _gc_brs.items()]).encode()).decode()
    pairs = [[i, a, b] for i, ps in _gc_cms.items() for a, b in ps][:300] + [[i] for i in _gc_cms]
    cm = base64.b64encode(json.dumps(pairs).encode()).decode()
    ne = base64.b64encode(json.dumps([[i, d if type(d) is float else min(d, 1 << 62)]
                                      for i, d in list(_gc_near.items())[:300]]).encode()).decode()
    try:
        _gc_os.write(2, ("\\n@@gcov br=" + br + " cmps=" + cm + " near=" + ne + _gs_field() + "\\n").encode())
    except OSError:
        pass
_gc_atexit.register(_gc_dump)
"""


class _Rewriter(ast.NodeTransformer):
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.sites: dict[Any, Site] = {}
        self.next = 0

    def _branch(self, test: ast.expr, node: ast.AST, word: str) -> ast.expr:
        i = self.next = self.next + 1
        line = getattr(node, "lineno", 0)
        text = self.lines[line - 1].strip()[:80] if 0 < line <= len(self.lines) else ""
        for side in (True, False):
            self.sites[(i, side)] = Site(line, text, f"{word} {'true' if side else 'false'} side")
        return ast.Call(ast.Name("_gc_b", ast.Load()), [ast.Constant(i), test], [])

    def visit_If(self, node: ast.If) -> ast.AST:
        self.generic_visit(node)
        node.test = self._branch(node.test, node, "if")
        return node

    def visit_While(self, node: ast.While) -> ast.AST:
        self.generic_visit(node)
        node.test = self._branch(node.test, node, "while")
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        node.test = self._branch(node.test, node, "conditional expression")
        return node

    def visit_comprehension(self, node: ast.comprehension) -> ast.AST:
        self.generic_visit(node)
        node.ifs = [self._branch(t, t, "comprehension condition") for t in node.ifs]
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        self.next += 1
        return ast.Call(
            ast.Name("_gc_c", ast.Load()),
            [
                ast.Constant(self.next),
                node.left,
                node.comparators[0],
                ast.Constant(type(node.ops[0]).__name__),
            ],
            [],
        )


def _python(candidate: Any) -> Instrumented:
    from gamecert.engine.run import toolchains

    source = Path(candidate.source)
    text = source.read_text(errors="replace")
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        raise NoRoute(f"the source does not parse as this Python's: {exc}") from None
    rewriter = _Rewriter(text.splitlines())
    tree = rewriter.visit(tree)
    future: list[ast.stmt] = [
        n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"
    ]
    body = [n for n in tree.body if n not in future]
    doc = ast.unparse(ast.Module(future, [])) + "\n" if future else ""
    code = (
        doc
        + _PROLOGUE
        + SYM_PROLOGUE
        + ast.unparse(ast.fix_missing_locations(ast.Module(body, [])))
    )
    key = hashlib.sha256(code.encode()).hexdigest()[:32]
    folder = _made(toolchains.cache_root() / f"guided-{key}")
    target = folder / "main.py"
    if not target.is_file():
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".py")
        with os.fdopen(fd, "w") as out:
            out.write(code)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    folder.chmod(0o755)
    import dataclasses

    run = dataclasses.replace(
        candidate,
        argv=(candidate.argv[0], str(target)) if candidate.python_file is None else candidate.argv,
        python_file=target if candidate.python_file is not None else None,
        source=target,
        binary=None,
        source_sha256="",
    )
    if candidate.python_file is None:  # --python: the interpreter named runs the rewritten file
        run = dataclasses.replace(
            run,
            argv=tuple(str(target) if w == str(candidate.source) else w for w in candidate.argv),
        )
    return Instrumented(
        run,
        "python",
        "the source rewritten: every if, while, conditional expression and "
        "comprehension condition (both sides) and every single comparison's operands",
        rewriter.sites,
    )


__all__ = ["Coverage", "Instrumented", "NoRoute", "Site", "instrument", "read_coverage"]
