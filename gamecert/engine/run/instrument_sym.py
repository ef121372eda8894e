"""The symbolic record of a Python candidate's instrumented build (issue 47): the numbers read
from the input followed through the program's arithmetic, as concolic testers (CrossHair, the
DART line) follow them, so that a comparison's operands are known as expressions over the
input's tokens, for :mod:`gamecert.engine.judge.guided_solve` to solve.

The rewritten program (:mod:`gamecert.engine.run.instrument`) starts with :data:`PROLOGUE`:

* the standard input (``sys.stdin`` and its ``buffer``, ``input()``, ``open(0)``) is read whole
  on first use and handed out as strings (or bytes) that know where in the input they stand;
  ``split``, ``strip``, ``splitlines`` and slices keep that;
* ``int()`` of a whole token gives an integer that carries its expression, ``("t", k)``: the
  k-th whitespace-separated token of the input; ``+ - * // % **`` (an exponent that is a small
  constant), unary minus and ``abs`` carry it on (so do ``sum``, ``sorted``, ``min`` and ``max``,
  which add or hand back such integers); ``len`` of a list or string of the tokens that follow a
  token holding their count is that token;
* each comparison (and each ``if`` on such an integer alone) whose operands carry an expression
  is recorded in the order the program made it: ``[site, op, left, right, result]``, at most
  :data:`PER_SITE` a site and :data:`EVENTS` a run; the expressions are a table of nodes, each
  ``[id, op, a, b]`` with ``a``, ``b`` a node id or ``[constant]``, :data:`SHOWN` at most.

The record's own code (``_gc_c`` of the prologue before this one) keeps the real ``int`` and
``len``. Anything else (floats, bit operations, a value past 2^256, a table past :data:`NODES` nodes) is
a plain value: the record is what the run did, never more. The record is one more field of the
run's ``@@gcov`` line, ``sym=`` (base64 of JSON), read by :func:`read_sym`. It steers the search
and is never a verdict; a record the program forged or broke is ignored.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any

#: comparisons recorded a site, and in all, per run; nodes of expressions at most (past them
#: the numbers are plain: a run of a large input is not slowed)
PER_SITE, EVENTS, NODES = 8, 256, 4096
#: nodes the record shows at most: the coverage line must stay within the stderr tail a run
#: keeps (16 KiB, :mod:`gamecert.engine.run.testio`); a comparison whose expression would pass
#: it (a sum over hundreds of tokens) is left out, the others kept
SHOWN = 320

#: the comparison operators the solver knows
OPS = ("Eq", "NotEq", "Lt", "LtE", "Gt", "GtE")

PROLOGUE = (
    """\
import builtins as _gs_bi, sys as _gs_sys, re as _gs_re, bisect as _gs_bisect
_gs_int0, _gs_len0, _gs_open0, _gs_str0, _gs_bytes0 = int, len, open, str, bytes
_gs_nodes = []
_gs_ev = []
_gs_per = {}
_gs_in = [None, None, None]
def _gs_load():
    if _gs_in[0] is None:
        data = _gs_real.buffer.read() if hasattr(_gs_real, "buffer") else _gs_real.read().encode()
        text = data.decode("utf-8", "surrogateescape")
        _gs_in[0] = text
        spans = [(m.start(), m.end()) for m in _gs_re.finditer(r"\\S+", text)]
        _gs_in[1] = [s for s, _ in spans]
        _gs_in[2] = spans
    return _gs_in[0]
def _gs_node(op, a, b):
    if _gs_len0(_gs_nodes) >= __NODES__:
        return None
    _gs_nodes.append((op, a, b))
    return _gs_len0(_gs_nodes) - 1
def _gs_ref(x):
    n = getattr(x, "_gs_n", None) if type(x) is _GsInt else None
    return n if n is not None else [_gs_int0(x)]
class _GsInt(int):
    def __new__(cls, v, n):
        o = _gs_int0.__new__(cls, v)
        o._gs_n = n
        return o
def _gs_make(r, op, a, b):
    if r.__class__ is not _gs_int0 or not -(1 << 256) < r < 1 << 256:
        return r
    n = _gs_node(op, _gs_ref(a), _gs_ref(b))
    return r if n is None else _GsInt(r, n)
def _gs_binary(op, f):
    def left(a, b):
        if b.__class__ is bool or not isinstance(b, _gs_int0):
            return NotImplemented
        return _gs_make(f(_gs_int0(a), _gs_int0(b)), op, a, b)
    def right(a, b):
        if b.__class__ is bool or not isinstance(b, _gs_int0):
            return NotImplemented
        return _gs_make(f(_gs_int0(b), _gs_int0(a)), op, b, a)
    return left, right
for _gs_op, _gs_name in (("+", "add"), ("-", "sub"), ("*", "mul"), ("//", "floordiv"), ("%", "mod")):
    _gs_l, _gs_r = _gs_binary(_gs_op, getattr(_gs_int0, "__" + _gs_name + "__"))
    setattr(_GsInt, "__" + _gs_name + "__", _gs_l)
    setattr(_GsInt, "__r" + _gs_name + "__", _gs_r)
def _gs_pow(a, b, m=None):
    r = _gs_int0.__pow__(_gs_int0(a), b, m) if m is not None else _gs_int0(a) ** b
    if m is None and b.__class__ is _gs_int0 and 0 <= b <= 8:
        return _gs_make(r, "**", a, b)
    return r
_GsInt.__pow__ = _gs_pow
_GsInt.__neg__ = lambda a: _gs_make(-_gs_int0(a), "-", 0, a)
_GsInt.__pos__ = lambda a: a
_GsInt.__abs__ = lambda a: _gs_make(abs(_gs_int0(a)), "abs", a, 0)
_GsInt.__reduce__ = lambda a: (_gs_int0, (_gs_int0(a),))
_GsInt.__copy__ = lambda a: a
_GsInt.__deepcopy__ = lambda a, memo: a
def _gs_token(s, o):
    if o is None:
        return None
    starts = _gs_in[1]
    k = _gs_bisect.bisect_left(starts, o)
    if k < _gs_len0(starts) and starts[k] == o and _gs_in[2][k][1] - o == _gs_len0(s):
        return k
    return None
class _GsText:
    def _gs_at(self, at, piece):
        o = self._gs_o
        return self._gs_mk(piece, None if o is None or at < 0 else o + at)
    def split(self, sep=None, maxsplit=-1):
        base = self._gs_base
        if sep is not None or maxsplit != -1 or self._gs_o is None:
            return base.split(self, sep, maxsplit)
        return [self._gs_at(m.start(), m.group()) for m in _gs_re.finditer(self._gs_ws, self)]
    def strip(self, chars=None):
        return self.lstrip(chars).rstrip(chars)
    def lstrip(self, chars=None):
        base = self._gs_base
        r = base.lstrip(self, chars)
        return self._gs_at(_gs_len0(self) - _gs_len0(r), r)
    def rstrip(self, chars=None):
        return self._gs_at(0, self._gs_base.rstrip(self, chars))
    def splitlines(self, keepends=False):
        out, at = [], 0
        for line in self._gs_base.splitlines(self, True):
            body = line if keepends else self._gs_base.splitlines(line)[0] if line else line
            out.append(self._gs_at(at, body))
            at += _gs_len0(line)
        return out
    def __getitem__(self, key):
        r = self._gs_base.__getitem__(self, key)
        if key.__class__ is slice and key.step in (None, 1):
            start = _gs_int0(key.start or 0)
            if start < 0:
                start = max(0, _gs_len0(self) + start)
            return self._gs_at(start, r)
        return r
class _GsStr(_GsText, str):
    _gs_base, _gs_ws = _gs_str0, r"\\S+"
    @staticmethod
    def _gs_mk(piece, o):
        s = _GsStr(piece)
        s._gs_o = o
        return s
class _GsBytes(_GsText, bytes):
    _gs_base, _gs_ws = _gs_bytes0, rb"\\S+"
    @staticmethod
    def _gs_mk(piece, o):
        s = _GsBytes(piece)
        s._gs_o = o
        return s
class _GsIntMeta(type):
    def __instancecheck__(cls, x):
        return isinstance(x, _gs_int0)
    def __subclasscheck__(cls, c):
        return issubclass(c, _gs_int0)
    def __getattr__(cls, name):
        return getattr(_gs_int0, name)
    def __call__(cls, x=0, *rest, **kw):
        v = _gs_int0(x, *rest, **kw)
        if x.__class__ is _GsInt:
            return x
        if (x.__class__ is _GsStr or x.__class__ is _GsBytes) and not rest and not kw:
            k = _gs_token(x, x._gs_o)
            if k is not None:
                n = _gs_node("t", k, 0)
                if n is not None:
                    return _GsInt(v, n)
        return v
class _GsIntType(metaclass=_GsIntMeta):
    pass
def _gs_length(x):
    n = _gs_len0(x)
    if 0 < n and (x.__class__ is list or x.__class__ is tuple):
        first, last = x[0], x[-1]
        if first.__class__ is _GsInt and last.__class__ is _GsInt:
            a, b = _gs_nodes[first._gs_n], _gs_nodes[last._gs_n]
            if a[0] == "t" and b[0] == "t" and b[1] - a[1] == n - 1 and a[1] > 0:
                k = a[1] - 1
                start, end = _gs_in[2][k]
                try:
                    count = _gs_int0(_gs_in[0][start:end])
                except ValueError:
                    count = -1
                if count == n:
                    m = _gs_node("t", k, 0)
                    if m is not None:
                        return _GsInt(n, m)
    return n
class _GsBuffer:
    def __init__(self):
        self._at = 0
    def read(self, size=-1):
        data = _gs_load().encode("utf-8", "surrogateescape")
        end = _gs_len0(data) if size is None or size < 0 else self._at + size
        r = _GsBytes._gs_mk(data[self._at:end], self._at)
        self._at = min(_gs_len0(data), end)
        _gs_stdin._at = self._at
        return r
    def readline(self, size=-1):
        data = _gs_load().encode("utf-8", "surrogateescape")
        end = data.find(b"\\n", self._at)
        end = _gs_len0(data) if end < 0 else end + 1
        r = _GsBytes._gs_mk(data[self._at:end], self._at)
        self._at = end
        _gs_stdin._at = end
        return r
    def readlines(self):
        out = []
        while True:
            line = self.readline()
            if not line:
                return out
            out.append(line)
    def __iter__(self):
        return iter(self.readlines())
    def __getattr__(self, name):
        return getattr(_gs_real.buffer, name)
class _GsStdin:
    def __init__(self):
        self._at = 0
        self.buffer = _GsBuffer()
    def read(self, size=-1):
        text = _gs_load()
        end = _gs_len0(text) if size is None or size < 0 else self._at + size
        r = _GsStr._gs_mk(text[self._at:end], self._at)
        self._at = min(_gs_len0(text), end)
        self.buffer._at = self._at
        return r
    def readline(self, size=-1):
        text = _gs_load()
        end = text.find("\\n", self._at)
        end = _gs_len0(text) if end < 0 else end + 1
        r = _GsStr._gs_mk(text[self._at:end], self._at)
        self._at = end
        self.buffer._at = end
        return r
    def readlines(self):
        out = []
        while True:
            line = self.readline()
            if not line:
                return out
            out.append(line)
    def __iter__(self):
        return iter(self.readlines())
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
    def close(self):
        pass
    def __getattr__(self, name):
        return getattr(_gs_real, name)
_gs_real = _gs_sys.stdin
_gs_stdin = _gs_sys.stdin = _GsStdin()
def _gs_input(prompt=""):
    if prompt:
        _gs_sys.stdout.write(_gs_str0(prompt))
    line = _gs_stdin.readline()
    if not line:
        raise EOFError("EOF when reading a line")
    return line.rstrip("\\n")
def _gs_open(file, *args, **kw):
    if file == 0 and file.__class__ is _gs_int0:
        mode = args[0] if args else kw.get("mode", "r")
        return _gs_stdin.buffer if "b" in mode else _gs_stdin
    return _gs_open0(file, *args, **kw)
def _gs_cmp(i, a, b, op, r):
    ta, tb = a.__class__ is _GsInt, b.__class__ is _GsInt
    if ta or tb:
        if _gs_len0(_gs_ev) < __EVENTS__:
            seen = _gs_per.get(i, 0)
            if seen < __PER_SITE__:
                _gs_per[i] = seen + 1
                try:
                    _gs_ev.append((i, op, _gs_ref(a) if ta or isinstance(a, _gs_int0) else None,
                                   _gs_ref(b) if tb or isinstance(b, _gs_int0) else None, bool(r)))
                except Exception:
                    pass
        if ta:
            a = _gs_int0(a)
        if tb:
            b = _gs_int0(b)
    return _gs_plain(a), _gs_plain(b)
def _gs_plain(x):
    c = x.__class__
    if c is _GsStr:
        return _gs_str0(x)
    if c is _GsBytes:
        return _gs_bytes0(x)
    if (c is list or c is tuple) and 0 < _gs_len0(x) <= 64 and any(v.__class__ is _GsInt for v in x):
        return c(_gs_int0(v) if v.__class__ is _GsInt else v for v in x)
    return x
def _gs_truth(i, v):
    if v.__class__ is _GsInt:
        _gs_cmp(-i, v, 0, "NotEq", v != 0)
def _gs_field():
    import base64, json
    keep, events = set(), []
    for e in _gs_ev:
        if e[2] is None or e[3] is None:
            continue
        new, todo = set(), [x for x in (e[2], e[3]) if x.__class__ is _gs_int0]
        while todo and _gs_len0(keep) + _gs_len0(new) <= __SHOWN__:
            n = todo.pop()
            if n in keep or n in new:
                continue
            new.add(n)
            op, a, b = _gs_nodes[n]
            if op != "t":
                todo += [x for x in (a, b) if x.__class__ is _gs_int0]
        if not todo and _gs_len0(keep) + _gs_len0(new) <= __SHOWN__:
            keep |= new
            events.append(e)
    nodes = [[n, *_gs_nodes[n]] for n in sorted(keep)]
    try:
        text = json.dumps({"n": nodes, "e": [list(e) for e in events]})
    except (TypeError, ValueError):
        return ""
    return " sym=" + base64.b64encode(text.encode()).decode()
import types as _gs_types
_gc_c = _gs_types.FunctionType(_gc_c.__code__, dict(globals(), int=_gs_int0, len=_gs_len0))
int, len, open, input = _GsIntType, _gs_length, _gs_open, _gs_input
""".replace("__NODES__", str(NODES))
    .replace("__EVENTS__", str(EVENTS))
    .replace("__PER_SITE__", str(PER_SITE))
    .replace("__SHOWN__", str(SHOWN))
)


@dataclass
class SymRecord:
    """One run's symbolic record: ``nodes`` by id (``(op, a, b)``, ``a`` and ``b`` a node id or
    ``(constant,)``; a token is ``("t", k, 0)``), ``events`` in the order the program made them:
    ``(site, op, left, right, result)``, each side a node id or ``(constant,)``."""

    nodes: dict[int, tuple[str, Any, Any]] = field(default_factory=dict)
    events: list[tuple[int, str, Any, Any, bool]] = field(default_factory=list)

    def tokens(self) -> set[int]:
        """The input tokens the record's expressions hold."""
        return {int(a) for op, a, _ in self.nodes.values() if op == "t"}

    def reach(self, event: tuple[int, str, Any, Any, bool]) -> set[int]:
        """The input tokens an event's operands hold."""
        out, todo, seen = set(), [x for x in event[2:4] if not isinstance(x, tuple)], set()
        while todo:
            n = todo.pop()
            if n in seen or n not in self.nodes:
                continue
            seen.add(n)
            op, a, b = self.nodes[n]
            if op == "t":
                out.add(int(a))
            else:
                todo += [x for x in (a, b) if not isinstance(x, tuple)]
        return out


def _arg(x: Any, nodes: dict[int, Any]) -> Any:
    if isinstance(x, list) and len(x) == 1 and type(x[0]) is int:
        return (x[0],)
    if type(x) is int and x in nodes:
        return x
    raise ValueError("not a node or a constant")


def read_sym(text: str) -> SymRecord | None:
    """The ``sym=`` field of a run's coverage line, or None where there is none or it cannot be
    read (the line is the program's own text: a forged or broken record is left out).

    >>> rec = read_sym(base64.b64encode(json.dumps(
    ...     {"n": [[0, "t", 1, 0], [1, "*", 0, 0], [2, "+", 1, [5]]],
    ...      "e": [[7, "Eq", 2, [30], False]]}).encode()).decode())
    >>> rec.nodes[2], rec.events
    (('+', 1, (5,)), [(7, 'Eq', 2, (30,), False)])
    >>> read_sym("bm90IGpzb24=") is None
    True
    """
    if not text:
        return None
    try:
        data = json.loads(base64.b64decode(text))
        nodes: dict[int, tuple[str, Any, Any]] = {}
        for row in data["n"][:NODES]:
            n, op, a, b = row
            if type(n) is not int or not isinstance(op, str):
                raise ValueError("a node's id or op")
            if op == "t":
                if type(a) is not int or a < 0:
                    raise ValueError("a token's index")
                nodes[n] = ("t", a, 0)
            else:
                nodes[n] = (op, _arg(a, nodes), _arg(b, nodes))  # children come first
        events = []
        for row in data["e"][:EVENTS]:
            site, op, left, right, result = row
            if type(site) is not int or op not in OPS:
                continue
            events.append((site, op, _arg(left, nodes), _arg(right, nodes), bool(result)))
    except (ValueError, TypeError, KeyError, json.JSONDecodeError):
        return None
    except Exception:  # noqa: BLE001 - base64 and json of the program's own text
        return None
    return SymRecord(nodes, events) if events else None


__all__ = ["OPS", "PROLOGUE", "SymRecord", "read_sym"]
