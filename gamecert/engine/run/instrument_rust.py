"""The guided phase's instrumented build of a Rust candidate, through LLVM's sanitizer coverage.

Stable rustc runs LLVM's ``sancov-module`` pass when asked by name (``-C passes=sancov-module``)
and takes the pass's options as LLVM arguments (no ``-Z`` flag, no nightly):
``-sanitizer-coverage-level=3`` (edges: a call in every block, critical edges split),
``-sanitizer-coverage-trace-pc`` (the call is ``__sanitizer_cov_trace_pc()``, the callback
GCC's ``-fsanitize-coverage=trace-pc`` emits too), ``-sanitizer-coverage-trace-compares``
(``__sanitizer_cov_trace_cmp1/2/4/8``, their ``const_cmp`` forms, ``__sanitizer_cov_trace_switch``)
and ``-sanitizer-coverage-prune-blocks=0``: by default the pass leaves out a comparison whose
branch goes back to a loop's head (``w[1] == w[0] + 7`` inside ``windows(2).all(...)`` is one)
and blocks that dominate others, which GCC's flags keep. Those are the callbacks of gamecert's
runtime ``covrt.c``: the Rust build links the same runtime as the C and C++ builds and writes the
same ``@@gcov ...`` record (:func:`gamecert.engine.run.instrument.read_coverage`).

The build is the plain one's (``-O``, or the opt-level and edition the candidate's compile command
gave) with ``-g`` and ``-C relocation-model=static`` (a fixed address per block: the record's
addresses are the site table's), made under the same caps and box as every build
(:func:`gamecert.engine.run.toolchains._run_build`). Only the candidate's crate is instrumented,
but the standard library's generic code inlined into the candidate's functions (number parsing,
formatting, a vector's growth) is instrumented with it, and would fill the record with
comparisons of characters and the corpus with inputs new only in how their digits parse. So the
runtime is compiled with ``-DGC_COVRT_OWN``, and after the link the addresses of the program's own
blocks and comparison sites are written into its two tables in the binary (:func:`site_table`):
a site is the program's own when the innermost frame of its inlining chain (``addr2line -i``),
past the library's code that stands for the program's control (:data:`LOOKED_THROUGH`:
comparison operators, iterator adapters, closure calls), is a line of the candidate's source.
The same blocks, named by those lines, are the certificate's evidence.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RUNTIME = Path(__file__).resolve().parent / "covrt.c"
#: the pass and its options (stable rustc: no ``-Z`` flag needed)
COVERAGE_FLAGS = (
    "-g",
    "-C",
    "relocation-model=static",
    "-C",
    "passes=sancov-module",
    "-C",
    "llvm-args=-sanitizer-coverage-level=3",
    "-C",
    "llvm-args=-sanitizer-coverage-trace-pc",
    "-C",
    "llvm-args=-sanitizer-coverage-trace-compares",
    "-C",
    "llvm-args=-sanitizer-coverage-prune-blocks=0",
)
RUNTIME_FLAGS = (
    "-O2",
    "-g0",
    "-fno-builtin",
    "-fno-tree-loop-distribute-patterns",
    "-DGC_COVRT_OWN",
    "-c",
)
SOURCE_NAME = "main.rs"


class Unbuildable(Exception):
    """No instrumented build of this Rust candidate; the message says why (one line)."""


@dataclass
class RustBuild:
    """The instrumented build: the candidate to run and its blocks' ``{address: (line, text)}``."""

    candidate: Any
    sites: dict[int, tuple[int, str]] = field(default_factory=dict)
    how: str = (
        "rustc with LLVM's sanitizer coverage (sancov-module: trace-pc, trace-compares) and "
        "gamecert's runtime (basic blocks reached, comparison operands)"
    )


def plain_flags(command: tuple[str, ...]) -> list[str]:
    """The plain build's flags the instrumented one keeps: the optimisation level and the
    edition (``-O`` and 2021 when the command names neither).

    >>> plain_flags(("rustc", "-O", "--edition", "2021", "-o", "x", "y.rs"))
    ['-C', 'opt-level=2', '--edition', '2021']
    >>> plain_flags(("rustc", "-Copt-level=3", "--edition=2018", "y.rs"))
    ['-C', 'opt-level=3', '--edition', '2018']
    """
    level, edition = "2", "2021"
    words = list(command[1:])
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        if word == "-O":
            level = "2"
        elif word.startswith("-Copt-level="):
            level = word.split("=", 1)[1]
        elif word == "-C" and following.startswith("opt-level="):
            level = following.split("=", 1)[1]
        elif word.startswith("--edition="):
            edition = word.split("=", 1)[1]
        elif word == "--edition" and following:
            edition = following
    return ["-C", f"opt-level={level}", "--edition", edition]


def build(candidate: Any) -> RustBuild:
    """The instrumented build of a Rust source candidate (cached by the source, the runtime,
    the flags and rustc's version), or :class:`Unbuildable`."""
    from gamecert.engine.run import toolchains

    compiler = candidate.compile_command[0] if candidate.compile_command else "rustc"
    if not os.path.basename(compiler).startswith("rustc"):
        raise Unbuildable(f"built with {compiler!r}: the instrumented build needs rustc")
    for tool in (compiler, "gcc", "objdump", "addr2line"):
        if shutil.which(tool) is None:
            raise Unbuildable(f"{tool} is not installed")
    data = Path(candidate.source).read_bytes()
    flags = [*plain_flags(tuple(candidate.compile_command)), *COVERAGE_FLAGS]
    key = hashlib.sha256(
        b"\0".join(
            [
                data,
                RUNTIME.read_bytes(),
                Path(__file__).read_bytes(),  # the site tables' rules are this module's
                " ".join([*flags, *RUNTIME_FLAGS]).encode(),
                toolchains.compiler_version(compiler).encode(),
                toolchains.compiler_version("gcc").encode(),
            ]
        )
    ).hexdigest()[:32]
    final = toolchains.cache_root() / f"guided-rust-{key}"
    exe = final / "prog"
    if not exe.is_file():
        _build_into(final, compiler, data, flags)
    sites = {}
    for row in (final / "sites.txt").read_text().splitlines():
        pc, line, text = row.split("\t", 2)
        sites[int(pc, 16)] = (int(line), text)
    # a copy the sandbox runs: the build folder name in the cache says nothing of the harness
    run = dataclasses.replace(
        candidate,
        argv=(str(exe),),
        binary=exe,
        python_file=None,
        compile_command=(),
        binary_sha256="",
    )
    return RustBuild(run, sites)


def _build_into(final: Path, compiler: str, data: bytes, flags: list[str]) -> None:
    from gamecert.engine.run import toolchains

    work = toolchains.work_folder(toolchains.cache_root(), ".guided-")
    try:
        (work / SOURCE_NAME).write_bytes(data)
        shutil.copyfile(RUNTIME, work / "covrt.c")
        rc, out = toolchains._run_build(
            ["gcc", *RUNTIME_FLAGS, "-o", str(work / "covrt.o"), str(work / "covrt.c")],
            work,
            toolchains.BUILD_TIMEOUT_S,
        )
        if rc != 0:
            raise Unbuildable(f"gamecert's coverage runtime did not build: {_first(out)}")
        cmd = [
            compiler,
            *flags,
            "-C",
            f"link-arg={work / 'covrt.o'}",
            "-o",
            str(work / "prog"),
            str(work / SOURCE_NAME),
        ]
        rc, out = toolchains._run_build(cmd, work, toolchains.BUILD_TIMEOUT_S)
        if rc != 0 or not (work / "prog").is_file():
            raise Unbuildable(
                f"the instrumented build failed where the plain one built: {_first(out)}"
            )
        (work / "sites.txt").write_text(site_table(work / "prog", SOURCE_NAME))
        work.chmod(0o755)
        try:
            os.rename(work, final)
        except OSError:
            if not (final / "prog").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _first(text: str) -> str:
    lines = [s.strip() for s in text.splitlines() if s.strip()]
    picked = next((s for s in lines if "error" in s), lines[0] if lines else "no output")
    return picked[:200]


#: the runtime's callbacks a comparison calls (their call sites are the comparison sites)
_CMP_CALL = re.compile(r"<__sanitizer_cov_trace_(?:const_)?(?:cmp[1248fd]|switch)>")
#: the runtime's tables of the program's own comparison sites and blocks: their marker words
OWN_CMPS = struct.pack("<QQ", 0x6763636F7672746F, 0x6F776E2D636D7073)
OWN_BLOCKS = struct.pack("<QQ", 0x6763636F7672746F, 0x6F776E2D626C6B73)
#: the table's size in covrt.c (``OWN_MAX``)
OWN_MAX = 8192


def _tool(argv: list[str], timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """Run binutils on the build (trusted tools, gamecert's own file); one that cannot run or
    does not end is :class:`Unbuildable`, said by the phase."""
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Unbuildable(f"{argv[0]} could not read the instrumented build: {exc}") from None


def calls(exe: Path) -> tuple[list[int], list[int]]:
    """The return addresses of every ``__sanitizer_cov_trace_pc`` call in ``exe`` (the address
    the runtime records for the block) and of every comparison callback's call (the address it
    records for the comparison site)."""
    done = _tool(["objdump", "-d", "--no-show-raw-insn", str(exe)])
    blocks: list[int] = []
    cmps: list[int] = []
    after: list[int] | None = None
    for row in done.stdout.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s", row)
        if not m:
            continue
        if after is not None:
            after.append(int(m.group(1), 16))
            after = None
        if "call" in row:
            if "<__sanitizer_cov_trace_pc>" in row:
                after = blocks
            elif _CMP_CALL.search(row):
                after = cmps
    return blocks, cmps


def _chains(exe: Path, addresses: list[int]) -> dict[int, list[tuple[str, int]]]:
    """Per return address, the inlining chain of the call before it, innermost frame first:
    (source path, line)."""
    if not addresses:
        return {}
    done = _tool(["addr2line", "-a", "-i", "-e", str(exe), *(f"{c - 1:x}" for c in addresses)])
    chains: dict[int, list[tuple[str, int]]] = {}
    current: list[tuple[str, int]] | None = None
    for row in done.stdout.splitlines():
        row = row.strip()
        if re.fullmatch(r"0x[0-9a-f]+", row):
            current = chains.setdefault(int(row, 16) + 1, [])
        elif current is not None:
            path, _, rest = row.rpartition(":")
            m = re.match(r"(\d+)", rest)
            current.append((path, int(m.group(1)) if m else 0))
    return chains


#: the standard library's code that stands for the program's own control: comparison operators,
#: iterator adapters and their loops, closure calls; its frames are looked through to the line
#: of the program that used it. Other library code inlined (number parsing, formatting, a
#: vector's growth) is the library's work, not the program's, as libc's is for a C program.
LOOKED_THROUGH = (
    "/library/core/src/cmp.rs",
    "/library/core/src/iter/",
    "/library/core/src/slice/iter",
    "/library/core/src/ops/function.rs",
)


def own_line(chain: list[tuple[str, int]], source_name: str) -> int:
    """The line of ``source_name`` a call (a block's, a comparison's) stands for: the innermost
    frame of its inlining chain, the frames of :data:`LOOKED_THROUGH` looked through first (a
    comparison in ``a.cmp(&b)``, the loop of ``windows(2).all(...)``, count for the line that
    used them); 0 if that frame is the library's (parsing, formatting inlined).

    >>> lib = "/rustc/x/library/core/src/"
    >>> own_line([(lib + "iter/traits/iterator.rs", 9), ("/b/main.rs", 4)], "main.rs")
    4
    >>> own_line([(lib + "num/mod.rs", 9), (lib + "str/mod.rs", 2), ("/b/main.rs", 4)], "main.rs")
    0
    """
    for path, line in chain:
        if os.path.basename(path) == source_name and line > 0:
            return line
        if not any(part in path for part in LOOKED_THROUGH):
            return 0
    return 0


def site_table(exe: Path, source_name: str) -> str:
    """One row per basic block of the candidate's own source: ``ADDRESS\\tLINE\\tTEXT`` (the
    line of :func:`own_line`; the library's own work inlined is left out); the
    runtime's tables of own blocks and comparison sites are written into ``exe``
    (:func:`mark_own`), so a run records those only."""
    blocks, cmps = calls(exe)
    chains = _chains(exe, blocks + cmps)
    own_cmps = sorted(c for c in set(cmps) if own_line(chains.get(c, []), source_name))
    lines = (exe.parent / source_name).read_text(errors="replace").splitlines()
    rows, own_blocks = [], []
    for pc in sorted(set(blocks)):
        line = own_line(chains.get(pc, []), source_name)
        if line:
            own_blocks.append(pc)
            text = lines[line - 1].strip() if line <= len(lines) else ""
            rows.append(f"{pc:x}\t{line}\t{text[:80]}")
    data = mark_own(exe.read_bytes(), OWN_CMPS, own_cmps)
    exe.write_bytes(mark_own(data, OWN_BLOCKS, own_blocks))
    return "\n".join(rows)


def mark_own(data: bytes, mark: bytes, sites: list[int]) -> bytes:
    """``data`` (the linked program) with ``sites`` written into the runtime's table that
    ``mark`` starts (once in the file); more than the table holds, or none, leave it empty
    (everything recorded).

    >>> table = OWN_CMPS + bytes(8 * (OWN_MAX + 1))
    >>> out = mark_own(b"elf" + table, OWN_CMPS, [7, 9])
    >>> struct.unpack_from("<3Q", out, 3 + 16)
    (2, 7, 9)
    """
    at = data.find(mark)
    if at < 0 or data.find(mark, at + 1) >= 0:
        raise Unbuildable("gamecert's coverage runtime's table of sites is not in the build")
    if not sites or len(sites) > OWN_MAX:
        return data
    table = struct.pack(f"<Q{len(sites)}Q", len(sites), *sites)
    return data[: at + 16] + table + data[at + 16 + len(table) :]


__all__ = [
    "RustBuild",
    "Unbuildable",
    "build",
    "calls",
    "mark_own",
    "own_line",
    "plain_flags",
    "site_table",
]
