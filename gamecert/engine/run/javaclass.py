"""Java: the class a source is run as (its top-level public type, else the one with ``main``)."""

from __future__ import annotations

import re

_JAVA_LEXEMES = re.compile(
    r'//[^\n]*|/\*.*?\*/|"""(?:\\.|[^\\])*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.DOTALL,
)
_JAVA_TYPE = re.compile(
    r"((?:\b(?:public|abstract|final|strictfp|static|sealed|non-sealed)\s+)*)"
    r"\b(?:class|interface|enum|record)\s+((?:[^\W\d]|\$)(?:\w|\$)*)"
)
_JAVA_PACKAGE = re.compile(r"^\s*package\s+([\w$.\s]+?)\s*;", re.MULTILINE)
_JAVA_MAIN = re.compile(r"\bvoid\s+main\s*\(")


def _java_blank(source: str) -> str:
    """``source`` with comments, strings and character literals replaced by spaces (same length,
    newlines kept), so that braces and keywords inside them are not seen.

    >>> _java_blank('a /* { */ "}" // x\\nb')
    'a                 \\nb'
    """
    return _JAVA_LEXEMES.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), source)


def java_main_class(source: str) -> str:
    """The class a Java source is run as: its top-level public type, else the top-level type
    with a ``main`` method, qualified by the package if there is one; "" if there is none.

    >>> java_main_class("import java.util.*;\\n// public class Fake\\nclass Helper {}\\n"
    ...                 "public final class Solution { static class Inner {} }")
    'Solution'
    >>> java_main_class('class A { String s = "public class B {"; }\\nclass Main { public static void main(String[] a) {} }')
    'Main'
    >>> java_main_class("package contest.a;\\npublic class Task {}")
    'contest.a.Task'
    >>> java_main_class("class A {} class B {}")
    ''
    """
    text = _java_blank(source)
    depth, spans, pos = 0, [], 0
    for m in _JAVA_TYPE.finditer(text):
        if m.start() < pos:
            continue
        depth += text.count("{", pos, m.start()) - text.count("}", pos, m.start())
        pos = m.start()
        if depth == 0:
            spans.append((m.group(2), "public" in m.group(1).split(), m.end()))
    chosen = next((name for name, public, _ in spans if public), "")
    if not chosen:
        for index, (name, _, start) in enumerate(spans):
            end = spans[index + 1][2] if index + 1 < len(spans) else len(text)
            if _JAVA_MAIN.search(text, start, end):
                chosen = name
                break
    if not chosen:
        return ""
    package = _JAVA_PACKAGE.search(text)
    return f"{''.join(package.group(1).split())}.{chosen}" if package else chosen
