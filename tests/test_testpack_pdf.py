"""The statement as a PDF (issue 46): gamecert/engine/testpack/pdf.py, in the Polygon package.

What is checked:
- every game's statement PDF is read by an independent reader (pypdf, strict) and its text holds
  the game's title, rules, input and output formats and samples; every entry of the
  cross-reference table points at its object, as the PDF format says (control: an offset moved by
  one byte is caught);
- a statement longer than a page goes on to further pages, every line kept;
- the Polygon package holds it at ``statements/.pdf/english/problem.pdf``, declared in problem.xml
  as ``application/pdf`` (where p2d takes the statement for DOMjudge), and ``read_problem_xml``
  refuses a package whose declared statement is missing (control).
"""

from __future__ import annotations

import io
import re

import pytest

from gamecert.engine import registry
from gamecert.engine.testpack import pdf, polygon
from gamecert.engine.testpack.testset import PackageError

pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (pip install -e '.[test]')")

GAMES = sorted(registry.game_names())


def _words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def _xref_faults(data: bytes) -> list[str]:
    """Entries of the cross-reference table that do not point at ``N 0 obj``."""
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF\n$", data).group(1))
    head = re.match(rb"xref\n0 (\d+)\n", data[start:])
    assert head, "startxref does not point at the xref table"
    rows = data[start + head.end() :].split(b"\n")[: int(head.group(1))]
    faults = []
    for number, row in enumerate(rows):
        offset, _, kind = row.split()
        if kind == b"n" and not data[int(offset) :].startswith(b"%d 0 obj" % number):
            faults.append(f"object {number} at {int(offset)}")
    return faults


@pytest.mark.parametrize("name", GAMES)
def test_each_games_statement_reads_back(name):
    game = registry.get(name).game
    data = pdf.statement(registry.get(name))
    assert _xref_faults(data) == []
    reader = pypdf.PdfReader(io.BytesIO(data), strict=True)
    assert reader.metadata.title == game.title
    text = "\n".join(page.extract_text() for page in reader.pages)
    got = _words(text)
    for part in (game.title, game.rules, game.input_format, game.output_format):
        assert " ".join(_words(part)) in " ".join(got), part
    for sample, answer in game.samples:
        for line in (sample + answer).splitlines():
            assert line.strip() in text


def test_control_a_moved_offset_is_caught():
    data = pdf.document("x", [pdf.Block("text", "hello")])
    assert _xref_faults(data) == []
    offset = re.search(rb"\n(\d{10}) 00000 n \n", data).group(1)
    moved = data.replace(offset, b"%010d" % (int(offset) + 1), 1)
    assert _xref_faults(moved)


def test_a_long_statement_takes_several_pages():
    lines = [f"line {k} (of 300) \\ with brackets" for k in range(300)]
    data = pdf.document("long", [pdf.Block("title", "Long"), pdf.Block("mono", "\n".join(lines))])
    assert _xref_faults(data) == []
    reader = pypdf.PdfReader(io.BytesIO(data), strict=True)
    assert len(reader.pages) >= 4
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert all(line in text for line in lines)


def test_the_polygon_package_declares_it(tmp_path):
    from tests.test_testpack_kattis import _package

    out = _package(tmp_path, "word_game", "polygon")
    path = out / polygon.PDF_STATEMENT
    assert path.read_bytes() == pdf.statement(registry.get("word_game"))
    xml = (out / "problem.xml").read_text()
    assert f'path="{polygon.PDF_STATEMENT}" type="application/pdf"' in xml
    polygon.read_problem_xml(out)
    path.unlink()
    with pytest.raises(PackageError, match="problem.pdf"):
        polygon.read_problem_xml(out)
