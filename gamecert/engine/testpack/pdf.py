"""A small PDF of a game's statement, written by gamecert's own code (no dependency).

Polygon's packages hold the statement as a PDF too (``statements/.pdf/english/problem.pdf``, declared
in problem.xml as ``type="application/pdf"``), and that PDF is the one statement a converter such as
``p2d`` carries into a DOMjudge package (``problem_statement/problem.pdf``). This writes one from the
game's own text (what ``gamecert show`` prints): the title, the limits, the rules, the input, the
output and the samples, on A4 pages, in the PDF's standard fonts (Helvetica, Courier: nothing
embedded), PDF 1.4 with a cross-reference table a strict reader accepts.

Text outside Latin-1 is written as ``?`` (the standard fonts' WinAnsi encoding holds no more).

May import: the standard library only.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

#: A4 in points, the margin, and the fonts' sizes and leading
_WIDTH, _HEIGHT, _MARGIN = 595, 842, 56
_FONTS = {
    "title": ("F2", 16, 22),
    "head": ("F2", 12, 18),
    "text": ("F1", 11, 14),
    "mono": ("F3", 10, 12),
}
#: characters a line holds: Courier is 0.6 em a character; Helvetica at most ~0.6 em for text
_COLUMNS = {"title": 50, "head": 70, "text": 78, "mono": 80}


@dataclass(frozen=True)
class Block:
    """A paragraph of the statement: its kind (``title``, ``head``, ``text`` or ``mono``, the last
    kept line for line) and its text."""

    kind: str
    text: str


def _escape(line: str) -> bytes:
    raw = line.encode("latin-1", "replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _lines(block: Block) -> list[str]:
    width = _COLUMNS[block.kind]
    out: list[str] = []
    for line in block.text.splitlines() or [""]:
        line = line.expandtabs(4)
        if block.kind == "mono":  # kept as it is, cut where longer than a line
            out += [line[k : k + width] for k in range(0, len(line), width)] or [""]
        else:
            out += textwrap.wrap(line, width) or [""]
    return out


def _pages(blocks: Sequence[Block]) -> list[bytes]:
    """Each page's content stream: the blocks' lines top to bottom, a new page where one is full."""
    pages: list[list[bytes]] = [[]]
    y = _HEIGHT - _MARGIN
    for block in blocks:
        font, size, leading = _FONTS[block.kind]
        if block.kind in ("title", "head"):
            y -= leading // 2  # a little space before a heading
            if block.kind == "head" and y - 3 * leading < _MARGIN:
                pages.append([])  # a heading never ends a page
                y = _HEIGHT - _MARGIN
        for line in _lines(block):
            if y - leading < _MARGIN:
                pages.append([])
                y = _HEIGHT - _MARGIN
            y -= leading
            pages[-1].append(
                b"BT /%s %d Tf %d %d Td (%s) Tj ET"
                % (font.encode(), size, _MARGIN, y, _escape(line))
            )
    return [b"\n".join(p) + b"\n" for p in pages]


def document(title: str, blocks: Sequence[Block]) -> bytes:
    """A PDF of ``blocks``, its document title ``title``.

    >>> document("T", [Block("text", "hello (world)")]).startswith(b"%PDF-1.4")
    True
    """
    streams = _pages(blocks)
    fonts = ("Helvetica", "Helvetica-Bold", "Courier")
    first_page = 4 + len(fonts)  # catalog 1, pages 2, info 3, the fonts, then page, content, ...
    kids = [first_page + 2 * k for k in range(len(streams))]
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % k for k in kids), len(kids)),
        b"<< /Title (%s) /Producer (gamecert) >>" % _escape(title),
    ]
    objects += [
        b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>" % f.encode()
        for f in fonts
    ]
    resources = b"<< /Font << %s >> >>" % b" ".join(
        b"/F%d %d 0 R" % (k + 1, 4 + k) for k in range(len(fonts))
    )
    for k, stream in enumerate(streams):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources %s /Contents %d 0 R >>"
            % (_WIDTH, _HEIGHT, resources, kids[k] + 1)
        )
        objects.append(b"<< /Length %d >>\nstream\n%sendstream" % (len(stream), stream))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 3 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def statement(entry: object) -> bytes:
    """The game's statement as a PDF: the title, the limits, the rules, the input and output
    formats and the samples (the game's own text)."""
    game = entry.game  # type: ignore[attr-defined]
    limits = (
        f"time limit per test: {game.time_limit:g} second{'s' if game.time_limit != 1 else ''}; "
        f"memory limit per test: {game.memory_limit_mb} megabytes"
    )
    blocks = [
        Block("title", game.title),
        Block("text", limits),
        Block("text", game.rules or "(the rules)"),
        Block("head", "Input"),
        Block("text", game.input_format or "(the input)"),
        Block("head", "Output"),
        Block("text", game.output_format or "(the output)"),
    ]
    for k, (sample, answer) in enumerate(game.samples, 1):
        blocks += [
            Block("head", f"Example {k}: input"),
            Block("mono", sample.rstrip("\n")),
            Block("head", f"Example {k}: output"),
            Block("mono", answer.rstrip("\n")),
        ]
    return document(game.title, blocks)
