"""The sanitizer phase's reading of what a sanitizer build said: UndefinedBehaviorSanitizer's
``runtime error`` line, AddressSanitizer's report (the frame in the candidate's source, not the
library's), a libstdc++ assertion, valgrind memcheck's first uninitialised read and where its
value was made. What the sanitizer itself runs out of (stack, memory) is no finding. Used by
:mod:`gamecert.engine.judge.sanitize` (the phase) and :mod:`gamecert.engine.judge.sanitize_builds`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

#: what the sanitizer itself runs out of (its deeper frames, its allocator's own limits): not the
#: program's undefined behaviour
NOT_FINDINGS = (
    "stack-overflow",
    "out-of-memory",
    "out of memory",
    "allocation-size-too-big",
    "requested allocation size",
    "rss-limit-exceeded",
    "malloc-limit-exceeded",
    "calloc-overflow",
    "failed to allocate",
    "allocator is out of memory",
)
_MAIN = re.compile(r"/main\.(?:c|cpp)(?=:\d)")
#: of a run's stdout, the last this many characters are read for a sanitizer's report (it comes
#: after the program's own output)
READ_TAIL = 1 << 16


def named(text: str, source: str) -> str:
    """``text`` with every path of the build's copy of the source (``.../main.c`` before a line
    number) written as ``source``, the name the user gave. In one pass: a path is taken back from
    its ``/main.c`` to the space, colon, quote or parenthesis before it (a regular expression
    that looked for the path from each character cost the square of a long output without a
    space: a program that printed 200 million letters held the harness for minutes).

    >>> named("at /b/.building-x/main.c:7:9: x; (/b/main.cpp:3)", "t.c")
    'at t.c:7:9: x; (t.c:3)'
    """
    out: list[str] = []
    last = 0
    for m in _MAIN.finditer(text):
        start = m.start()
        while start > last and not text[start - 1].isspace() and text[start - 1] not in ":'\"()":
            start -= 1
        out += [text[last:start], source]
        last = m.end()
    out.append(text[last:])
    return "".join(out)


_UBSAN = re.compile(r"^(?P<loc>\S+?:\d+(?::\d+)?): runtime error: (?P<what>.+)$", re.M)
_ASAN = re.compile(r"ERROR: AddressSanitizer: (?P<kind>[\w-]+)(?P<rest>[^\n]*)")
_ACCESS = re.compile(r"^(?:READ|WRITE) of size \d+", re.M)
_FRAME = re.compile(
    r"^\s*#\d+ 0x[0-9a-f]+ in (?P<func>.+?) (?P<loc>/?[^\s()]+?:\d+)(?::\d+)?$", re.M
)
_ASSERT = re.compile(r"Assertion '(?P<cond>.*)' failed")


@dataclass(frozen=True)
class Finding:
    """What a sanitizer build showed on one run: ``line`` is its message (the source named as the
    user named it), ``where`` the line of the candidate's source it points at ("" if none)."""

    build: str
    kind: str
    where: str
    line: str

    @property
    def site(self) -> tuple[str, str, str]:
        return self.build, self.kind, self.where


def read_finding(build: str, result: Any, source: str) -> Finding | None:
    """The sanitizer's finding in a run of the ``asan`` build (its report is on stdout, the
    UndefinedBehaviorSanitizer's and libstdc++'s on stderr), or None.

    >>> r = type("R", (), {"stdout": "", "stderr_tail": "/b/.building-x/main.c:7:9: runtime error: "
    ...          "signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\\n"})()
    >>> read_finding("asan", r, "t.c")
    Finding(build='asan', kind='signed integer overflow', where='t.c:7', line="t.c:7:9: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'")
    """
    text = named(f"{result.stdout[-READ_TAIL:]}\n{result.stderr_tail}", source)
    ours = [
        m.group("loc") for m in _FRAME.finditer(text) if m.group("loc").startswith(source + ":")
    ]
    ub = _UBSAN.search(text)
    if ub is not None:
        loc = ub.group("loc")
        where = (
            ":".join(loc.split(":")[:2])
            if loc.startswith(source + ":")
            else (ours[0] if ours else loc)
        )
        kind = re.split(r"[:0-9']", ub.group("what"), maxsplit=1)[0].strip(" -") or "runtime error"
        return Finding(build, kind, where, f"{loc}: runtime error: {ub.group('what').strip()}")
    asan = _ASAN.search(text)
    if asan is not None:
        kind = asan.group("kind")
        if any(phrase in text for phrase in NOT_FINDINGS):
            return None
        access = _ACCESS.search(text)
        asserted = _ASSERT.search(text)
        where = ours[0] if ours else next((m.group("loc") for m in _FRAME.finditer(text)), "")
        what = (
            f"libstdc++ assertion {asserted.group('cond')!r} failed"
            if asserted and kind in ("ABRT", "SIGABRT")
            else f"AddressSanitizer: {kind}" + (f" ({access.group()})" if access else "")
        )
        return Finding(build, what.split(" (")[0], where, f"{where or '?'}: {what}")
    return None


_VG_ERROR = re.compile(
    r"^==\d+== (?P<what>Conditional jump or move depends on uninitialised value\(s\)|"
    r"Use of uninitialised value of size \d+|Syscall param .* uninitialised byte\(s\))",
    re.M,
)
_VG_FRAME = re.compile(
    r"^==\d+==    (?:at|by) 0x[0-9A-Fa-f]+: (?P<func>.+?) \((?:in )?(?P<file>[^():]+):(?P<line>\d+)\)",
    re.M,
)
_VG_ORIGIN = re.compile(
    r"Uninitialised value was created by (?P<how>[^\n]+)\n(?P<frames>(?:==\d+==    (?:at|by) [^\n]*\n?)+)"
)


def read_memcheck(report: str, source: str) -> str:
    r"""valgrind's first uninitialised read in the candidate's source (its files are ``main.c`` or
    ``main.cpp`` in the build), as a line naming ``source``; "" if there is none.

    >>> read_memcheck("==7== Conditional jump or move depends on uninitialised value(s)\n"
    ...               "==7==    at 0x48B8027: __vfprintf_internal (vfprintf-process-arg.c:58)\n"
    ...               "==7==    by 0x1092B8: main (main.c:35)\n==7==  Uninitialised value was created by a stack "
    ...               "allocation\n==7==    at 0x109149: odd (main.c:14)\n", "t.c")
    't.c:35: Conditional jump or move depends on uninitialised value(s) (valgrind memcheck, -O0 -g), a value created by a stack allocation at t.c:14'
    """
    error = _VG_ERROR.search(report)
    if error is None:
        return ""
    block = report[error.end() :]
    ours = [m for m in _VG_FRAME.finditer(block) if m.group("file") in ("main.c", "main.cpp")]
    where = f"{source}:{ours[0].group('line')}" if ours else "?"
    origin = _VG_ORIGIN.search(block)
    made = ""
    # where the value was made: the first frame in the candidate's source (a heap block's first
    # frame is valgrind's own operator new, named by its library and no line), else the first
    # frame that names a line
    frames = list(_VG_FRAME.finditer(origin.group("frames"))) if origin is not None else []
    frame = next((m for m in frames if m.group("file") in ("main.c", "main.cpp")), None) or next(
        iter(frames), None
    )
    if origin is not None and frame is not None:
        place = (
            f"{source}:{frame.group('line')}"
            if frame.group("file") in ("main.c", "main.cpp")
            else f"{frame.group('file')}:{frame.group('line')}"
        )
        made = f", a value created by {origin.group('how').strip()} at {place}"
    return f"{where}: {error.group('what')} (valgrind memcheck, -O0 -g){made}"


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= 160 else line[:157] + "..."


__all__ = ["NOT_FINDINGS", "READ_TAIL", "Finding", "named", "read_finding", "read_memcheck"]
