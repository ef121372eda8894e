"""The guided phase's route for JavaScript candidates: the source rewritten, as the Python route
rewrites its ``ast`` (:mod:`gamecert.engine.run.instrument`), so that each run reports which side
every branch took and the operands of every comparison.

The source is parsed with tree-sitter's JavaScript grammar (the ``tree-sitter`` and
``tree-sitter-javascript`` packages from PyPI, installed with gamecert: nothing is fetched at run
time) and rewritten by splicing its text at the parse tree's offsets; every other byte of the
program is kept as written, and a one-line prologue goes before the first statement (after a
``#!`` line and a ``"use strict"`` directive), so the program's line numbers stay its own.

* ``if``, ``while``, ``do ... while``, a ``for`` condition and a conditional expression
  (``c ? x : y``) record the side they took: ``cond`` becomes ``__gc$.b(ID,(cond))``, which
  returns the condition's truth;
* a comparison (``<``, ``<=``, ``>``, ``>=``, ``==``, ``!=``, ``===``, ``!==``) becomes
  ``__gc$.lt(ID,left,right)`` (``le``, ``gt``, ...), which compares as the operator does and
  records the operands
  where both are numbers (or BigInts) or both strings, with |a - b| of two numbers as the
  comparison's distance;
* ``s.includes(t)``, ``indexOf``, ``lastIndexOf``, ``startsWith`` and ``endsWith`` on a string
  (as Python's ``t in s``) become ``__gc$.m(ID,s,"includes",t)``, which calls the method and
  records the two strings (the method is looked up after its arguments are evaluated: only a
  getter on a string's prototype could tell);
* a ``switch`` on a value records it against each ``case`` whose label is a number or string
  literal, and each ``case`` body records that it ran (its true side; it has no false side).

At exit (``process.on("exit")``: a normal end, ``process.exit``, an uncaught exception) the
prologue writes one line to stderr in the Python route's format (``@@gcov br=... cmps=...
near=...``, each field base64 of JSON), which :func:`gamecert.engine.run.instrument.read_coverage`
reads as it reads Python's. A module (``import``/``export``) stays one: node decides by the same
syntax, and the nearest ``package.json``'s ``"type"`` is kept by the file's extension.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


class Unparsed(Exception):
    """No rewrite: the parser is not installed, or the source does not parse (the message says
    which, in one line; the dispatch in :mod:`gamecert.engine.run.instrument` makes it a
    ``NoRoute``)."""


#: the prologue's one name in the program's scope (with a number after it where the source
#: holds the name already)
NAME = "__gc$"
#: the comparison operators recorded, by the prologue's function for each
OPERATORS = {
    "<": "lt",
    "<=": "le",
    ">": "gt",
    ">=": "ge",
    "==": "eq",
    "!=": "ne",
    "===": "se",
    "!==": "sn",
}
#: string methods whose receiver and first argument are recorded
STRING_METHODS = ("includes", "indexOf", "lastIndexOf", "startsWith", "endsWith")

# One line (the program's lines keep their numbers). Every global it uses is taken from
# globalThis when the prologue runs, so a program's own `Map` or `JSON` does not reach it. Each
# site has a slot in typed arrays sized by COUNT, the rewrite's number of sites (no map lookup
# on a loop's every comparison); a comparison of equal operands only marks its site as reached.
_PROLOGUE = (
    "var NAME=(function(){var G=globalThis,P=G.process,B=G.Buffer,J=G.JSON,N=COUNT+1,"
    "brs=new G.Float64Array(2*N),ran=new G.Uint8Array(N),cms=new G.Array(N),"
    "near=new G.Float64Array(N).fill(Infinity),LIM=4611686018427387904;"
    "function ok(v){var t=typeof v;if(t==='number')return v<LIM&&v>-LIM;"
    "return t==='bigint'&&v<4611686018427387904n&&v>-4611686018427387904n;}"
    "function rec(i,a,b){ran[i]=1;if(a===b)return;var ta=typeof a,tb=typeof b;"
    "if(ta==='number'&&tb==='number'){if(a!==a||b!==b)return;var d=a>b?a-b:b-a;"
    "if(d<near[i])near[i]=d;if(!ok(a)||!ok(b))return;}"
    "else if(ta==='string'&&tb==='string'){a=a.slice(0,64);b=b.slice(0,64);}"
    "else if(!ok(a)||!ok(b))return;"
    "else if(ta==='bigint'&&tb==='bigint'){var e=G.Number(a>b?a-b:b-a);if(e<near[i])near[i]=e;}"
    "var s=cms[i];if(s===undefined)s=cms[i]=[];if(s.length>=4)return;"
    "for(var k=0;k<s.length;k++){if(s[k][0]===a&&s[k][1]===b)return;}s.push([a,b]);}"
    "function b(i,v){if(v){brs[2*i+1]++;return true;}brs[2*i]++;return false;}"
    "function m(i,o){var f=o[arguments[2]],args=[];"
    "for(var k=3;k<arguments.length;k++)args.push(arguments[k]);var r=f.apply(o,args);"
    "if(typeof o==='string'&&typeof args[0]==='string')rec(i,args[0],o);else ran[i]=1;return r;}"
    "function s(ids,v,cases){for(var k=0;k<ids.length;k++)rec(ids[k],v,cases[k]);return v;}"
    "function val(v){return typeof v==='bigint'?v.toString():J.stringify(v);}"
    "function b64(t){return B.from(t).toString('base64');}"
    "function dump(){try{var br=[],cm=[],ne=[],ids=[],i,k;"
    "for(k=0;k<2*N;k++){if(brs[k]>0)br.push('['+(k>>1)+','+(k&1?'true':'false')+','+brs[k]+']');}"
    "for(i=0;i<N;i++){if(!ran[i])continue;ids.push('['+i+']');var ps=cms[i]||[];"
    "for(k=0;k<ps.length&&cm.length<300;k++)cm.push('['+i+','+val(ps[k][0])+','+val(ps[k][1])+']');"
    "if(near[i]<Infinity&&ne.length<300)ne.push('['+i+','+J.stringify(G.Math.min(near[i],LIM))+']');}"
    "P.stderr.write('\\n@@gcov br='+b64('['+br.join(',')+']')+' cmps='"
    "+b64('['+cm.concat(ids).join(',')+']')+' near='+b64('['+ne.join(',')+']')+'\\n');"
    "}catch(e){}}P.on('exit',dump);return{b:b,m:m,s:s,"
    "lt:function(i,a,x){rec(i,a,x);return a<x;},le:function(i,a,x){rec(i,a,x);return a<=x;},"
    "gt:function(i,a,x){rec(i,a,x);return a>x;},ge:function(i,a,x){rec(i,a,x);return a>=x;},"
    "eq:function(i,a,x){rec(i,a,x);return a==x;},ne:function(i,a,x){rec(i,a,x);return a!=x;},"
    "se:function(i,a,x){rec(i,a,x);return a===x;},sn:function(i,a,x){rec(i,a,x);return a!==x;}};"
    "})();"
)


class _Edits:
    """Insertions and deletions at byte offsets of the source, applied in one pass. At one
    offset, what closes (a suffix) goes before what opens (a prefix); suffixes of deeper nodes
    first, prefixes of shallower nodes first, so wrappers nest as the nodes do."""

    def __init__(self) -> None:
        self.inserts: list[tuple[int, int, int, int, bytes]] = []
        self.deletes: list[tuple[int, int]] = []

    def open(self, at: int, depth: int, text: str) -> None:
        self.inserts.append((at, 1, depth, len(self.inserts), text.encode()))

    def close(self, at: int, depth: int, text: str) -> None:
        self.inserts.append((at, 0, -depth, len(self.inserts), text.encode()))

    def delete(self, start: int, end: int) -> None:
        if end > start:
            self.deletes.append((start, end))

    def apply(self, source: bytes) -> bytes:
        out, at = [], 0
        inserts = sorted(self.inserts)
        deletes = sorted(self.deletes)
        i = d = 0
        while i < len(inserts) or d < len(deletes):
            pos = inserts[i][0] if i < len(inserts) else len(source) + 1
            if d < len(deletes) and deletes[d][0] < pos:
                start, end = deletes[d]
                out.append(source[at:start])
                at = max(at, end)
                d += 1
                continue
            out.append(source[at:pos])
            at = max(at, pos)
            out.append(inserts[i][4])
            i += 1
        out.append(source[at:])
        return b"".join(out)


def _parser() -> Any:
    """tree-sitter's JavaScript parser, or :class:`Unparsed` saying what to install."""
    try:
        import tree_sitter
        import tree_sitter_javascript
    except ImportError as exc:
        raise Unparsed(
            f"the JavaScript parser is not installed ({exc.name}): "
            "pip install tree-sitter tree-sitter-javascript"
        ) from None
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


class Rewriter:
    """One source rewritten: :meth:`rewrite` gives the new text; ``sites`` the branch sides.

    >>> source = b"while (i < n && w[i] !== 'Z') i++;"
    >>> text = Rewriter(source).rewrite(_parser().parse(source)).decode()
    >>> text.startswith("var __gc$=(function(){"), text.split("})();", 1)[1]
    (True, "while (__gc$.b(1,(__gc$.lt(2,i,n) && __gc$.sn(3,w[i],'Z')))) i++;")
    """

    def __init__(self, source: bytes) -> None:
        self.source = source
        # (rows as tree-sitter counts them: by "\n" alone)
        self.lines = [row.rstrip("\r") for row in source.decode(errors="replace").split("\n")]
        #: (branch id, side) -> (line, its text, which side): a ``Site`` of the instrument module
        self.sites: dict[tuple[int, bool], tuple[int, str, str]] = {}
        self.next = 0
        self.edits = _Edits()
        self.name, n = NAME, 0
        while self.name.encode() in source:
            n += 1
            self.name = f"{NAME}{n}"

    def _id(self) -> int:
        self.next += 1
        return self.next

    def _where(self, node: Any) -> tuple[int, str]:
        line = node.start_point[0] + 1
        text = self.lines[line - 1].strip()[:80] if line <= len(self.lines) else ""
        return line, text

    def _branch(self, start: int, end: int, node: Any, depth: int, word: str) -> None:
        """A branch around bytes ``start:end`` (``depth`` odd: between its parent and child)."""
        i = self._id()
        line, text = self._where(node)
        for side in (True, False):
            self.sites[(i, side)] = (line, text, f"{word} {'true' if side else 'false'} side")
        self.edits.open(start, depth, f"{self.name}.b({i},(")
        self.edits.close(end, depth, "))")

    def _inside(self, paren: Any, node: Any, depth: int, word: str) -> None:
        """The condition inside ``paren`` (a parenthesized expression) of ``node``."""
        if paren is not None and paren.type == "parenthesized_expression" and paren.child_count:
            self._branch(paren.start_byte + 1, paren.end_byte - 1, node, depth, word)

    def visit(self, node: Any, level: int) -> None:
        """The edits of ``node`` at ``level`` of the tree. A node's own wrappers get the even
        depth ``2 * level``, a wrapper around a child's text the odd depth between the two."""
        kind, depth = node.type, 2 * level
        if kind in ("if_statement", "while_statement", "do_statement"):
            word = {"if_statement": "if", "while_statement": "while"}.get(kind, "do ... while")
            self._inside(node.child_by_field_name("condition"), node, depth + 3, word)
        elif kind == "for_statement":
            cond = node.child_by_field_name("condition")
            if cond is not None and cond.is_named and cond.type != "empty_statement":
                self._branch(cond.start_byte, cond.end_byte, node, depth + 1, "for")
        elif kind == "ternary_expression":
            cond = node.child_by_field_name("condition")
            if cond is not None:
                self._branch(
                    cond.start_byte, cond.end_byte, node, depth + 1, "conditional expression"
                )
        elif kind == "binary_expression":
            self._compare(node, depth)
        elif kind == "call_expression":
            self._method(node, depth)
        elif kind == "switch_statement":
            self._switch(node, depth)

    def _compare(self, node: Any, depth: int) -> None:
        op, left, right = (node.child_by_field_name(f) for f in ("operator", "left", "right"))
        if op is None or left is None or right is None or op.type not in OPERATORS:
            return
        i = self._id()
        self.edits.open(node.start_byte, depth, f"{self.name}.{OPERATORS[op.type]}({i},")
        self.edits.delete(left.end_byte, right.start_byte)
        self.edits.close(left.end_byte, depth, ",")
        self.edits.close(node.end_byte, depth, ")")

    def _method(self, node: Any, depth: int) -> None:
        callee, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        if (
            callee is None
            or args is None
            or callee.type != "member_expression"
            or args.type != "arguments"
            or args.named_child_count == 0
            or any(c.type == "optional_chain" for c in (*node.children, *callee.children))
        ):
            return
        obj, prop = callee.child_by_field_name("object"), callee.child_by_field_name("property")
        if obj is None or prop is None or obj.type == "super" or b"?." in (obj.text or b"?."):
            return  # (a?.b.includes(x) is undefined where a is: a call of ours would throw)
        name = prop.text.decode(errors="replace") if prop.text is not None else ""
        if prop.type != "property_identifier" or name not in STRING_METHODS:
            return
        i = self._id()
        self.edits.open(node.start_byte, depth, f"{self.name}.m({i},")
        self.edits.delete(obj.end_byte, args.start_byte + 1)
        self.edits.close(obj.end_byte, depth, f",{json.dumps(name)},")

    def _switch(self, node: Any, depth: int) -> None:
        value, body = node.child_by_field_name("value"), node.child_by_field_name("body")
        if value is None or body is None or value.type != "parenthesized_expression":
            return
        ids, labels = [], []
        for case in body.named_children:
            if case.type not in ("switch_case", "switch_default"):
                continue
            label = case.child_by_field_name("value")
            colon = next((c for c in case.children if c.type == ":"), None)
            if colon is not None:  # the case's body ran: a branch with one side
                i = self._id()
                line, text = self._where(case)
                word = "case" if case.type == "switch_case" else "default"
                self.sites[(i, True)] = (line, text, f"{word} taken")
                self.edits.open(colon.end_byte, depth + 5, f"{self.name}.b({i},1);")
            if (
                case.type == "switch_case"
                and label is not None
                and label.type in ("number", "string")
                and label.text
            ):
                ids.append(str(self._id()))
                labels.append(label.text.decode(errors="replace"))
        if ids and value.child_count:
            self.edits.open(value.start_byte + 1, depth + 3, f"{self.name}.s([{','.join(ids)}],(")
            self.edits.close(value.end_byte - 1, depth + 3, f"),[{','.join(labels)}])")

    def rewrite(self, tree: Any) -> bytes:
        """The rewritten source (``tree`` is tree-sitter's parse of it)."""
        stack = [(tree.root_node, 0)]
        while stack:  # no recursion: a long chain of `a + b + ...` nests as deep as it is long
            node, depth = stack.pop()
            self.visit(node, depth)
            stack.extend((child, depth + 1) for child in reversed(node.children))
        at, lead = 0, ""
        for child in tree.root_node.children:  # after a #! line and a directive prologue
            if child.type == "hash_bang_line":
                end = self.source.find(b"\n", child.end_byte)
                at = len(self.source) if end < 0 else end + 1
            elif (
                child.type == "expression_statement"
                and child.named_child_count
                and child.named_children[0].type == "string"
            ) or child.type == "comment":
                if child.type != "comment":
                    at, lead = child.end_byte, ";"  # a directive may end without one
            else:
                break
        self.edits.open(
            at,
            -1,
            lead + _PROLOGUE.replace("NAME", self.name, 1).replace("COUNT", str(self.next), 1),
        )
        return self.edits.apply(self.source)


def _module_type(source: Path) -> str:
    """The ``"type"`` of the nearest ``package.json`` above ``source``, as node reads it."""
    for folder in source.parents:
        found = folder / "package.json"
        if found.is_file():
            try:
                kind = json.loads(found.read_text(errors="replace")).get("type", "")
            except (ValueError, OSError, AttributeError):
                return ""
            return kind if kind in ("module", "commonjs") else ""
    return ""


def javascript(candidate: Any) -> tuple[Any, str, dict[tuple[int, bool], tuple[int, str, str]]]:
    """A JavaScript candidate's instrumented build: the candidate that runs the rewritten source,
    how it was made, and its branch sides (:attr:`Rewriter.sites`); or :class:`Unparsed`."""
    from gamecert.engine.run import toolchains

    source = Path(candidate.source)
    data = source.read_bytes()
    parser = _parser()
    try:
        tree = parser.parse(data)
    except (ValueError, MemoryError, RecursionError) as exc:  # the parser's own refusal
        raise Unparsed(f"the JavaScript parser gave up on the source ({exc!r})") from None
    if tree is None:
        raise Unparsed("the JavaScript parser gave up on the source")
    if tree.root_node.has_error:
        bad = _first_error(tree.root_node)
        where = f" (line {bad.start_point[0] + 1})" if bad is not None else ""
        raise Unparsed(f"the source does not parse as JavaScript{where}")
    rewriter = Rewriter(data)
    code = rewriter.rewrite(tree)
    kind = _module_type(source)
    suffix = ".mjs" if kind == "module" else ".cjs" if kind == "commonjs" else ".js"
    key = hashlib.sha256(code + suffix.encode()).hexdigest()[:32]
    folder = toolchains.cache_root() / f"guided-{key}"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"main{suffix}"
    if not target.is_file():
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=suffix)
        with os.fdopen(fd, "wb") as out:
            out.write(code)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    folder.chmod(0o755)
    run = dataclasses.replace(
        candidate,
        argv=(candidate.argv[0], str(target)),
        source=target,
        source_sha256="",
    )
    return (
        run,
        "the source rewritten (tree-sitter's JavaScript grammar): every if, while, do, for "
        "condition and conditional expression (both sides), every switch case, and the operands "
        "of every comparison and of a string's includes, indexOf, startsWith, endsWith",
        rewriter.sites,
    )


def _first_error(node: Any) -> Any:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            return n
        stack.extend(reversed(n.children))
    return None


__all__ = ["NAME", "Rewriter", "Unparsed", "javascript"]
