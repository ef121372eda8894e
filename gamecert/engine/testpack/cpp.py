"""A package's C++ validator and checker (``files/validator.cpp``, ``files/check.cpp``), built
with ``g++`` and checked against gamecert's own judgement.

Each file is the shared reader (``cpp_common.h``: a strict character reader for validators, a
token reader for checkers, testlib's exit codes and messages, no ``testlib.h``), the game's C++
part, and a ``main``. The game's part states in C++ what its ``parse_input``,
``parse_answer`` and ``judge`` state in Python: four declarations (``Input``, ``Answer``,
``read_input(gc::Strict&)``, ``read_answer(gc::Tokens&, const Input&)`` and ``judge(input, got,
expected)`` returning ``""`` when right). A game ships it beside its oracle
(``oracles/NAME.cpp``), or gives it as the text ``standalone_cpp`` (the octal games fill in one
template from their code): games declare no format a generator could read, and their answers
are judged by game logic (any winning move of an octal game), so the part is the game author's,
checked here rather than generated.

Agreement, the rule the package is held to: the validator accepts a text exactly when the game's
parser accepts it *and* the text is the game's canonical writing of that input
(``format_input(parse_input(text)) == text``: testlib's strict reading of lines, single spaces
and the final end of line); the checker's exit code is gamecert's verdict (0 OK, 1 WA, 2 PE).

May import: the testpack room's own modules, the judge room, the kit, the engine's floor.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from gamecert.engine.testpack.testset import PackageError
from gamecert.errors import GamecertError
from gamecert.kit.tokens import verdict_of, verdict_under_testlib

HERE = Path(__file__).resolve().parent
#: the build command of both files (testlib's own are built like this on judges)
GXX = ["g++", "-std=c++17", "-O2", "-pipe"]
CODES = {"OK": 0, "WA": 1, "PE": 2}


def compiler() -> str | None:
    return shutil.which("g++")


def game_part(entry: Any) -> str:
    """The game's C++ part: its ``standalone_cpp`` text, else ``NAME.cpp`` beside its oracle module."""
    code = getattr(entry.game, "standalone_cpp", None)
    if isinstance(code, str) and code.strip():
        return code
    module = sys.modules.get(type(entry.game).__module__)
    where = Path(getattr(module, "__file__", "") or "").with_name(f"{entry.name}.cpp")
    if where.name and where.is_file():
        return where.read_text()
    raise PackageError(
        f"game {entry.name} has no C++ part for the package's validator and checker: write "
        f"{where if where.name else f'oracles/{entry.name}.cpp'} (docs/adding-a-game.md, 'A test package')"
    )


def source(kind: str, part: str) -> str:
    """The text of ``validator.cpp`` (``kind="validator"``) or ``check.cpp`` from a game's part."""
    main = {"validator": "cpp_validator_main.cpp", "checker": "cpp_checker_main.cpp"}[kind]
    return (
        (HERE / "cpp_common.h").read_text()
        + "\n// ---- the game's part ----\n"
        + part.strip("\n")
        + "\n"
        + (HERE / main).read_text()
    )


_BUILT: dict[str, Path] = {}


def testlib_flags(testlib: Path | None) -> list[str]:
    """The flags that choose the reader: ``-I DIR`` to build through the ``testlib.h`` in ``DIR``
    (as a judge with its own builds it), else gamecert's own reader even where g++ would find a
    ``testlib.h`` (``-DGAMECERT_NO_TESTLIB``)."""
    return ["-I", str(testlib)] if testlib is not None else ["-DGAMECERT_NO_TESTLIB"]


def build(text: str, what: str, flags: Sequence[str] = ()) -> Path:
    """``text`` built with g++ (and ``flags``) into a cached executable (by the text's and the
    flags' hash, once a process)."""
    key = hashlib.sha256("\0".join([text, *flags]).encode()).hexdigest()[:20]
    if key in _BUILT and _BUILT[key].exists():
        return _BUILT[key]
    folder = Path(tempfile.mkdtemp(prefix="gamecert-cpp-"))
    src = folder / f"{what}.cpp"
    src.write_text(text)
    exe = folder / what
    try:
        done = subprocess.run(
            [*GXX, *flags, "-o", str(exe), str(src)], capture_output=True, text=True, timeout=300
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PackageError(f"g++ could not build {what}.cpp: {exc}") from None
    if done.returncode:
        first = next(
            (line for line in done.stderr.splitlines() if "error" in line),
            done.stderr.strip()[:200],
        )
        raise PackageError(f"{what}.cpp does not build with g++: {first[:300]}")
    _BUILT[key] = exe
    return exe


class Judge:
    """The built validator and checker of one game, run as a judge runs them."""

    def __init__(self, validator: Path, checker: Path) -> None:
        self.validator, self.checker = validator, checker
        self.work = Path(tempfile.mkdtemp(prefix="gamecert-cppjudge-"))

    @classmethod
    def of(cls, entry: Any, part: str | None = None, testlib: Path | None = None) -> Judge:
        """The game's validator and checker built with gamecert's reader, or through the
        ``testlib.h`` in the folder ``testlib``."""
        part = game_part(entry) if part is None else part
        flags = testlib_flags(testlib)
        return cls(
            build(source("validator", part), "validator", flags),
            build(source("checker", part), "check", flags),
        )

    def validate(self, data: str | bytes) -> str:
        """'' if the validator accepts ``data`` (its standard input), else its message."""
        raw = data.encode() if isinstance(data, str) else data
        done = subprocess.run([str(self.validator)], input=raw, capture_output=True, timeout=120)
        if done.returncode == 0:
            return ""
        return done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"

    def check(self, input_text: str, output: str, answer: str) -> tuple[int, str]:
        """(exit code, comment) of ``check INPUT OUTPUT ANSWER``."""
        paths = []
        for name, text in (("input", input_text), ("output", output), ("answer", answer)):
            path = self.work / name
            path.write_bytes(text.encode())
            paths.append(str(path))
        done = subprocess.run([str(self.checker), *paths], capture_output=True, timeout=120)
        return done.returncode, done.stderr.decode(errors="replace").strip()

    def close(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)


def strict_fault(game: Any, text: str) -> str:
    """'' if ``text`` is a valid input written as the game writes it, else why not (gamecert's
    own strict validation, the one the C++ validator must agree with)."""
    try:
        inst = game.parse_input(text)
    except GamecertError as exc:
        return str(exc)
    if game.format_input(inst) != text:
        return "valid, but not written as the format says (a missing or extra space, end of line, or carriage return)"
    return ""


def broken_inputs(text: str) -> list[str]:
    """Texts made from a valid input by the faults a strict validator must see: the final end of
    line dropped or doubled, CRLF, spaces and tabs added, a line dropped or added, a character
    changed, a leading zero, a sign."""
    lines = text.split("\n")
    out = [
        text[:-1],
        text + "\n",
        text.replace("\n", "\r\n"),
        " " + text,
        text.replace("\n", " \n", 1),
        text.replace("\n", "\t\n", 1),
        "\n" + text,
        text + "1\n",
        text + " \n",
        "",
        "\n",
        "\n".join(lines[:-2]) + "\n" if len(lines) > 2 else "x\n",
        text.replace(" ", "  ", 1),
        text.replace(" ", "\t", 1),
    ]
    for k, ch in enumerate(text[:40]):
        if ch in "\n":
            continue
        for new in ("0", "a", "A", "+", "-", "9", "\x00", "\u00e9"):
            if new != ch:
                out.append(text[:k] + new + text[k + 1 :])
        if ch.isdigit():
            out.append(text[:k] + "0" + text[k:])
    return list(dict.fromkeys(out))


def answer_variants(answer: str, alternatives: Iterable[str] = ()) -> list[str]:
    """Outputs made from a right one: tokens changed, dropped, doubled, written wrongly, and every
    small integer in each integer token's place (for a move, other moves: some of them win too)."""
    toks = answer.split()
    out = [
        answer,
        answer.replace("\n", "\r\n"),
        "\t" + answer + "  \n\n",
        "",
        answer + " x\n",
        " ".join(toks) + "\n",
        answer.rstrip("\n"),
        *[a + "\n" for a in alternatives],
    ]
    for k, tok in enumerate(toks):
        if 3 <= k < len(toks) - 2:  # a long output: its first three and last two tokens
            continue
        forms = [
            tok.lower(),
            tok.upper(),
            "0" + tok,
            "+" + tok,
            tok + "\u00a0",
            tok + "\x00",
            "-0",
            "-" + tok,
            "99999999999999999999",
            "4294967296",
            "2147483648",
            "-2147483649",
            "1.0",
            "",
            *alternatives,
        ]
        if tok.lstrip("-").isdigit():
            forms += [str(v) for v in range(0, 8)] + [str(int(tok) + 1), str(int(tok) - 1)]
        for form in forms:
            out.append(" ".join(toks[:k] + ([form] if form else []) + toks[k + 1 :]) + "\n")
        out.append(" ".join(toks[: k + 1] + [tok] + toks[k + 1 :]) + "\n")
    ints = [k for k, t in enumerate(toks) if t.isdigit()]
    if 2 <= len(ints) <= 3 and len(toks) <= 4:  # a move: every small one
        import itertools

        for values in itertools.product(range(0, 6), repeat=len(ints)):
            new = list(toks)
            for k, v in zip(ints, values):
                new[k] = str(v)
            out.append(" ".join(new) + "\n")
    return list(dict.fromkeys(out))


def disagreements(
    entry: Any,
    judge: Judge,
    inputs: Sequence[str],
    outputs_per_input: int | None = None,
    alternatives: Iterable[str] = (),
    broken_per_input: int | None = None,
    stop_at_first: bool = False,
) -> tuple[int, list[str]]:
    """The C++ validator on each text of ``inputs`` and on the broken texts made from each, and the
    C++ checker on a battery of outputs for each valid one (the right answer, every registered
    solver's, their variants), each against gamecert's judgement: (cases judged, disagreements)."""
    from gamecert.engine.judge.judge import expected_answer

    game = entry.game
    seen, bad = 0, []
    # the right answers of the other inputs are outputs too (the other winner, another move)
    others = {
        game.format_answer(expected_answer(entry, game.parse_input(t), every=True)[0])
        for t in inputs
        if not strict_fault(game, t)
    }
    alternatives = tuple(alternatives) + tuple(sorted(a.strip() for a in others if len(a) < 200))
    for text in inputs:
        for case in [text, *broken_inputs(text)[:broken_per_input]]:
            want = strict_fault(game, case)
            got = judge.validate(case)
            seen += 1
            if bool(want) != bool(got):
                bad.append(
                    f"validator on {case[:40]!r}: gamecert {'refuses (' + want[:80] + ')' if want else 'accepts'}, "
                    f"validator.cpp {'refuses (' + got[:80] + ')' if got else 'accepts'}"
                )
                if stop_at_first:
                    return seen, bad
        if strict_fault(game, text):
            continue
        inst = game.parse_input(text)
        expected = expected_answer(entry, inst, every=True)[0]
        answer = game.format_answer(expected)
        outputs = answer_variants(answer, alternatives) + [
            game.format_answer(s(inst)) for s in entry.solvers.values()
        ]
        for output in list(dict.fromkeys(outputs))[:outputs_per_input]:
            verdict, said = verdict_of(game, inst, output, expected)
            code, why = judge.check(text, output, answer)
            seen += 1
            if code != CODES[verdict_under_testlib(verdict.value, said)]:
                bad.append(
                    f"checker on {text[:30]!r}, output {output[:40]!r}: gamecert {verdict.value}, "
                    f"check.cpp exits {code} ({why[:100]})"
                )
                if stop_at_first:
                    return seen, bad
    return seen, bad


def small_inputs(entry: Any, per_space: int = 12) -> list[str]:
    """The samples and the first inputs of each exhaustive space: small, so the battery is cheap."""
    import itertools

    game = entry.game
    texts = [s for s, _ in game.samples]
    texts += [
        game.format_input(x)
        for space in game.exhaustive_spaces()
        for x in itertools.islice(space.all(), per_space)
    ]
    return list(dict.fromkeys(texts))


def package_judge(package: Path, faults: list[str]) -> Judge | None:
    """A package's own C++ validator and checker (``files/``) built with g++; None where it has
    none or there is no g++; a build failure is a fault."""
    sources = [package / "files" / "validator.cpp", package / "files" / "check.cpp"]
    if not all(p.is_file() for p in sources) or compiler() is None:
        return None
    try:
        return Judge(
            build(sources[0].read_text(), "validator"), build(sources[1].read_text(), "check")
        )
    except PackageError as exc:
        faults.append(str(exc))
        return None


def both(
    checker: Callable[[str, str, str], tuple[int, str]], native: Judge
) -> Callable[[str, str, str], tuple[int, str]]:
    """checker.py and check.cpp on one output: their common exit code, or -1 where they differ (a
    disagreement with gamecert's verdict, whatever that is)."""

    def check(inp: str, output: str, answer: str) -> tuple[int, str]:
        a, b = checker(inp, output, answer), native.check(inp, output, answer)
        return (
            a
            if a[0] == b[0]
            else (-1, f"checker.py exits {a[0]} ({a[1][:60]}), check.cpp {b[0]} ({b[1][:60]})")
        )

    return check
