"""``gamecert new-game NAME [--dir DIR]``: a whole game, every required part present and marked.

A new game is four modules, ``oracles/NAME.py``, ``fast/NAME.py``, ``strategies/NAME.py`` and
``proofs/NAME.py`` (see :mod:`gamecert.engine.registry`), with its broken solvers in
``tests/broken/NAME.py`` and example candidates in ``examples/NAME/``. They are written into
``DIR`` (a games folder, found through ``GAMECERT_GAMES=DIR``) or, without ``--dir``, into the
source checkout gamecert runs from; an installed gamecert without ``--dir`` is refused, so
nothing is ever written into site-packages. The scaffold writes each module with every part
the registry and the conformance suite need, as stubs. A stub is marked in the code itself:

- a function still to write carries the decorator :func:`gamecert.kit.todo.todo` (calling it raises
  ``NotImplementedError`` naming the file and the function);
- a value still to choose is :func:`gamecert.kit.todo.todo_value` (``minimax_reach = todo_value("...")``);
- the module ends with ``UNFINISHED = unfinished(globals())``, which lists what is still marked.

The registry refuses a module whose ``UNFINISHED`` is not empty with ``oracles/NAME.py is not
finished: ...`` followed by that list, each part by name and line, so ``gamecert list`` and the
conformance suite say precisely what is missing, and where. Deleting a ``@todo`` (or replacing
a ``todo_value``) as each part is written shrinks the list; when it is empty the game counts
as finished (the ``UNFINISHED`` line and the import may then be deleted too).
"""

from __future__ import annotations

import importlib
import keyword
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.errors import UsageError

PARTS = ("oracles", "fast", "strategies", "proofs")
NAME_RULE = re.compile(r"[a-z][a-z0-9_]*\Z")
MAX_NAME_LENGTH = 64  # file names (with .py) must fit the filesystem; reports name games too


# ---- the command --------------------------------------------------------------------------------


def check_name(name: str) -> None:
    """A game name must be a lowercase Python identifier that is not a keyword.

    >>> check_name("stones_once")
    >>> check_name("Stones")
    Traceback (most recent call last):
    gamecert.errors.UsageError: game name 'Stones': use lowercase letters, digits and underscores, starting with a letter (a Python module name such as stones_once)
    """
    if not NAME_RULE.match(name) or not name.isidentifier():
        raise UsageError(
            f"game name {name!r}: use lowercase letters, digits and underscores, starting with a letter "
            "(a Python module name such as stones_once)"
        )
    if keyword.iskeyword(name):
        raise UsageError(
            f"game name {name!r} is a Python keyword; a module cannot be imported by that name"
        )
    if len(name) > MAX_NAME_LENGTH:
        raise UsageError(
            f"game name {name[:20]!r}... is {len(name)} characters long; keep it to {MAX_NAME_LENGTH}"
        )
    if name == "all":
        raise UsageError(
            "game name 'all' is taken: `gamecert certify all` and `prove all` mean every game"
        )


def project_root() -> Path:
    """The source checkout holding the part packages the registry imports (all four must agree).

    An installed (not editable) gamecert has no checkout to write into: a :class:`UsageError`
    asks for ``--dir``.
    """
    roots = set()
    for part in PARTS:
        try:
            package = importlib.import_module(f"gamecert.{part}")
        except ModuleNotFoundError:
            raise UsageError(_NEED_DIR) from None
        for path in getattr(package, "__path__", ()):
            roots.add(Path(path).resolve().parent)
    if len(roots) != 1:
        raise UsageError(
            f"the part folders {', '.join(PARTS)} are not in one project: found {sorted(map(str, roots))}"
        )
    root = roots.pop()
    if not is_source_checkout(root):
        raise UsageError(_NEED_DIR)
    return root


_NEED_DIR = (
    "gamecert is installed, not run from a source checkout, so new-game will not write into its "
    "installed files; give --dir DIR (a folder for your games; then GAMECERT_GAMES=DIR gamecert list)"
)


def is_source_checkout(root: Path) -> bool:
    """Whether ``root`` is a project folder (it has ``pyproject.toml``), not an installation.

    >>> is_source_checkout(Path("/usr/lib/python3/site-packages"))
    False
    """
    return not _in_site_packages(root) and (root / "pyproject.toml").is_file()


def _in_site_packages(path: Path) -> bool:
    return any(part in ("site-packages", "dist-packages") for part in path.parts)


@dataclass(frozen=True)
class Layout:
    """Where a new game's files go: ``root`` and whether it is a games folder (``--dir``)."""

    root: Path
    folder: bool

    def part(self, part: str, name: str) -> Path:
        return self.root / part / f"{name}.py"

    def broken(self, name: str) -> Path:
        return self.root / "tests" / "broken" / f"{name}.py"

    def examples(self, name: str) -> Path:
        return self.root / "examples" / name

    def module(self, path: Path) -> str:
        """The module name the registry imports ``path`` (a part or broken file) under."""
        dotted = ".".join(path.relative_to(self.root).with_suffix("").parts)
        if not self.folder:
            return dotted if dotted.startswith("tests.") else f"gamecert.{dotted}"
        from gamecert.engine.registry import _folder_package

        return f"{_folder_package(self.root)}.{dotted}"


def _layout(directory: str | None) -> Layout:
    if directory is None:
        return Layout(project_root(), folder=False)
    if not directory.strip():
        raise UsageError("--dir is empty; give a folder for your games")
    root = Path(directory).expanduser().resolve()
    if _in_site_packages(root):
        raise UsageError(
            f"--dir {directory}: it is inside an installation (site-packages); choose a folder of your own"
        )
    if root.exists() and not root.is_dir():
        raise UsageError(f"--dir {directory}: it is a file, not a folder")
    return Layout(root, folder=True)


def _still_to_write(layout: Layout, path: Path) -> str:
    """What a freshly written module still has marked (its ``UNFINISHED``)."""
    from gamecert.engine.registry import project_module

    dotted = layout.module(path)
    try:
        module = (
            project_module(dotted)
            if dotted.startswith("tests.") and not layout.folder
            else importlib.import_module(dotted)
        )
    except Exception as exc:  # a template that does not import would be a bug here: say so
        return f"does not import: {type(exc).__name__}: {exc}"
    return str(getattr(module, "UNFINISHED", "") or "")


def render(part: str, name: str, octal: str | None = None, layout: Layout | None = None) -> str:
    """The text of ``part``'s file for a new game ``name`` (the heap game ``octal`` if given).

    ``part`` is one of :data:`PARTS`, ``broken``, ``correct`` or ``wrong`` (the examples);
    ``layout`` says how the game's files import its oracle (default: the project's way).
    """
    cls = "".join(word.capitalize() for word in name.split("_") if word) or "Game"
    if cls[0].isdigit():
        cls = "Game" + cls
    folder = layout is not None and layout.folder
    if octal is not None:
        from gamecert.kit.octal import OctalGame

        digits = OctalGame.parse(
            octal
        ).digits  # a bad code is a usage error before anything is written
        template = _OCTAL_TEMPLATES[part]
    else:
        digits = ()
        template = _TEMPLATES[part]
    title = name.replace("_", " ").capitalize()
    depth = 2 if part == "broken" else 1
    game_module = f"{'.' * (depth + 1)}oracles.{name}" if folder else f"gamecert.oracles.{name}"
    coverage = (
        f"`GAMECERT_GAMES=DIR gamecert coverage {name}`"
        if folder
        else f"``gamecert coverage {name}``"
    )
    for token, value in (
        ("__COVERAGE_MAIN__", "" if folder else _COVERAGE_MAIN),
        ("__COVERAGE__", coverage),
        ("__GAME_MODULE__", game_module),
        ("__DIGITS__", repr(digits)),
        ("__NAME__", name),
        ("__CLASS__", cls),
        ("__TITLE__", title),
        ("__OCTAL__", octal or ""),
    ):
        template = template.replace(token, value)
    return template


def _shown(path: Path) -> str:
    """``path`` relative to the working folder when under it, else absolute: the real path."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _files(layout: Layout, name: str) -> dict[str, Path]:
    files = {part: layout.part(part, name) for part in PARTS}
    files["broken"] = layout.broken(name)
    files["correct"] = layout.examples(name) / "correct.py"
    files["wrong"] = layout.examples(name) / "wrong.py"
    return files


def _check_new(layout: Layout, name: str) -> None:
    """Refuse a name that is already a whole game there, or that would shadow a module."""
    if all(layout.part(part, name).exists() for part in PARTS):
        raise UsageError(
            f"game {name!r} already exists ({', '.join(_shown(layout.part(p, name)) for p in PARTS)}); "
            "choose another name, or edit those files"
        )
    if name in PARTS or name in sys.builtin_module_names:
        raise UsageError(
            f"game name {name!r} would shadow a module of the same name; choose another"
        )
    if layout.folder:
        from gamecert.engine import registry

        for part in PARTS:
            if name in registry._module_names(part):
                raise UsageError(
                    f"game {name!r} already exists in the project ({part}/{name}.py); choose another name"
                )


def new_game_command(args: Any) -> int:
    name: str = args.name
    octal: str | None = getattr(args, "octal", None)
    check_name(name)
    layout = _layout(getattr(args, "dir", None))
    _check_new(layout, name)
    files = _files(layout, name)
    texts = {key: render(key, name, octal, layout) for key in files}
    written, kept = [], []
    for key, path in files.items():
        if path.exists():
            kept.append(path)
            continue
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "x", encoding="utf-8") as f:  # "x": never overwrite a file
                f.write(texts[key])
        except FileExistsError:
            kept.append(path)
            continue
        except OSError as exc:
            raise UsageError(f"cannot write {_shown(path)}: {exc.strerror or exc}") from None
        written.append((key, path))
    importlib.invalidate_caches()
    _tell(layout, name, octal, written, kept)
    return 0


def _tell(
    layout: Layout, name: str, octal: str | None, written: list[tuple[str, Path]], kept: list[Path]
) -> None:
    """Print what was written (real paths), what was kept, what is still marked, and what next."""
    print(f"new game {name}" + (f", the octal game {octal}" if octal else ""))
    for _, path in written:
        print(f"  wrote {_shown(path)}")
    for path in kept:
        print(f"  kept  {_shown(path)} (already there; not touched)")
    for key, path in written:
        if key in (*PARTS, "broken"):
            left = _still_to_write(layout, path)
            if left:
                print(f"  {_shown(path)}: {left}")
    prefix = f"GAMECERT_GAMES={layout.root} " if layout.folder else ""
    example = _shown(layout.examples(name) / "correct.py")
    if layout.folder:
        print(
            f"the game is found through GAMECERT_GAMES (folders separated by {os.pathsep!r}), for example:"
        )
        print(f"  {prefix}gamecert list")
    if octal is None:
        print(
            "next: fill in every part marked @todo or todo_value (guide: docs/adding-a-game.md), the broken"
        )
        print(
            f"  solvers and the examples; `{prefix}gamecert list` says what is still missing, and where."
        )
    else:
        print(
            f"next: `{prefix}gamecert prove {name}`, `{prefix}gamecert certify {name} {example}`."
        )


# ---- templates (__NAME__, __CLASS__, __TITLE__, __OCTAL__ are filled in) --------------------------

_ORACLE = '''"""__NAME__: rules, formats and the two exact searches.

Say here, in a few lines, the rules (who moves, what a move is, who wins), the input and output
formats and the constraints. Which parts are still stubs: ``gamecert list``.
"""

from __future__ import annotations

from gamecert.errors import InputError, OutOfReach  # noqa: F401 (for the stubs)
from gamecert.kit.game import (  # noqa: F401 (helpers the stubs below will need)
    ExhaustiveSpace,
    Explanation,
    Game,
    input_lines,
    mex,
    parse_int,
    reject_spaces,
    reject_trailing,
    require_line,
)
from gamecert.kit.todo import todo, todo_value, unfinished
from gamecert.kit.tokens import AnswerReader  # noqa: F401 (parse_answer reads through it)


class __CLASS__(Game):
    name = "__NAME__"
    title = "__TITLE__"
    time_limit = todo_value("the problem's time limit, seconds per test (e.g. 2.0)")
    memory_limit_mb = 256  # MB, the problem's limit
    rules = todo_value("the rules in brief: who moves, what a move is, who wins (shown by gamecert show)")
    input_format = todo_value("the input format and constraints, in words")
    output_format = todo_value("the output format, in words")
    samples = todo_value("the statement's (input text, output text) pairs, e.g. ((\\"3\\\\n\\", \\"First\\\\n\\"),)")
    minimax_reach = todo_value("the largest size (in size()'s measure) minimax() is meant for")
    oracle_reach = todo_value("the largest size oracle() is meant for")
    max_size = todo_value("the largest size the constraints allow")
    # max_batch = 100  # only for multi-game inputs; then also write merge, split, split_answer

    # ---- input ---------------------------------------------------------------------------
    @todo
    def parse_input(self, text):
        """Validate and parse a whole input into an instance (a hashable value you choose).

        Reject anything the statement does not allow with InputError(line, rule, column=...):
        input_lines, require_line, parse_int, reject_spaces, reject_trailing do most of it.
        """

    @todo
    def format_input(self, instance):
        """The exact input text for ``instance`` (parse_input(format_input(i)) == i)."""

    @todo
    def size(self, instance):
        """The size measure the reaches and max_size are stated in (length, n, total, ...)."""

    # ---- answers -------------------------------------------------------------------------
    @todo
    def parse_answer(self, text, instance):
        """Read a program's output with reader = AnswerReader(text): reader.word(choices, what),
        reader.integer(low, high, what), then reader.finish(). It gives PE for a malformed
        number and WA for a wrong, missing or extra token, as a testlib checker does."""

    @todo
    def format_answer(self, answer):
        """The canonical output text for ``answer``, with a final newline."""

    @todo
    def first_player_wins(self, answer):
        """Whether ``answer`` (for one game) says the player who moves first wins."""

    # If several answers are right (any winning move, say), override
    # judge(self, instance, got, expected) -> None when got is right, else why it is wrong.

    # ---- the two exact searches ------------------------------------------------------------
    @todo
    def minimax(self, instance):
        """Plain win/lose search over whole positions, from the rules alone (tiny inputs).

        Raise OutOfReach beyond minimax_reach.
        """

    @todo
    def oracle(self, instance):
        """Memoised exact search: Sprague-Grundy over independent components (use mex), or a
        reduction the conformance suite checks against minimax. The reference answer."""

    @todo
    def explain(self, instance):
        """Explanation(outcome, components, total, winning_moves, line_of_play,
        first_player_wins=...): the components and their values, the winning moves, a line
        of play to the end."""

    @todo
    def exhaustive_spaces(self):
        """[ExhaustiveSpace(name, description, sizes, instances_of_size)]: inputs checked in full."""


GAME = __CLASS__()

UNFINISHED = unfinished(globals())
'''

_FAST = '''"""__NAME__'s fast solvers: fit for the full constraints, each checked against the oracle.

State the formula or the algorithm each solver uses, and why it is plausible; the proofs
module certifies it. If the oracle stops short of the maximum size, register a second,
independent solver: beyond the oracle the solvers are checked against each other.
"""

from __future__ import annotations

from gamecert.kit.todo import todo, unfinished
from __GAME_MODULE__ import GAME  # noqa: F401 (the game this module serves)


@todo
def closed_form(instance):
    """The answer for ``instance``, as GAME.parse_answer would return it. Add a doctest."""


SOLVERS = {"closed_form": closed_form}

UNFINISHED = unfinished(globals())
'''

_STRATEGIES = '''"""Hypothesis strategies for __NAME__: the whole input space, corners first.

Say which structural features matter to the game and which corners the strategies reach
(maximum sizes, one repeated symbol, long structured patterns, multi-game batches).
__COVERAGE__ prints what the examples cover.
"""

from __future__ import annotations

from hypothesis import strategies as st  # noqa: F401 (the stubs below will use it)

from gamecert.kit.coverage import bucket  # noqa: F401
from gamecert.kit.todo import todo, unfinished
from __GAME_MODULE__ import GAME  # noqa: F401 (the game this module serves)


@todo
def instances():
    """A strategy over the whole input space (valid instances), corners weighted in."""


@todo
def oracle_instances():
    """A strategy over instances within GAME.oracle_reach."""


@todo
def features(instance):
    """Labels of the structural features that matter, for the coverage histogram (yield them)."""


@todo
def largest():
    """A few instances at the maximum sizes the constraints allow (one of size GAME.max_size)."""


@todo
def coverage():
    """[gamecert.kit.game.Family(name, description, instances, count)]: designed lists of whole
    inputs giving every component size and value, smallest to largest, alone and mixed with
    others (deterministic: a random.Random(constant) for varied content)."""


@todo
def worst_cases():
    """[Family(..., kind="worst", adversary=...)]: maximal inputs with varied content, winning
    moves as late as possible, the shapes a slow solution is slowest on; say what each attacks."""


UNFINISHED = unfinished(globals())
__COVERAGE_MAIN__'''

_PROOFS = '''"""Claims about __NAME__: what the fast solvers rely on, with the evidence that checks it.

Each Claim(name, statement, check, level=...) has check() return Evidence(level, detail), level
one of "bounded", "exhaustive", "all sizes" (the same as the claim's level, which gamecert show
prints), or raise ClaimRefuted(claim, index, detail) at the first index where it fails. Set
CLAIMS = [] if the game states none.
"""

from __future__ import annotations

from gamecert.kit.claims import Claim, ClaimRefuted, Evidence  # noqa: F401
from gamecert.kit.todo import todo, unfinished
from __GAME_MODULE__ import GAME  # noqa: F401 (the game this module serves)


@todo
def check_closed_form():
    """Compare the fast solvers' formula with the oracle over a stated range; return Evidence."""


CLAIMS = [
    Claim("closed form", "state the claim: what holds, for which sizes", check_closed_form, level="bounded"),
]

UNFINISHED = unfinished(globals())
'''

_BROKEN = '''"""Deliberately broken solvers for __NAME__: the harness must catch every one.

Each is a solver with one bug of a kind real solutions have; `pytest tests/test_broken.py` (in
the gamecert project, with GAMECERT_GAMES naming this folder for a games folder) checks that
the same checks `gamecert certify` runs catch each with a minimal input. Keep at least five:
the kinds off-by-one, wrong index base and large sizes only, and one of wrong period, rare
structure or multi-game batch (see gamecert.kit.broken).
"""

from __future__ import annotations

from gamecert.kit.broken import Broken
from gamecert.kit.todo import todo, unfinished
__IMPORT__

@todo
def off_by_one(instance):
    """A right solver with one index or bound off by one."""


@todo
def wrong_index_base(instance):
    """A right solver that counts positions (or names a move) from 0 where the problem counts from 1."""


@todo
def large_sizes_only(instance):
    """A solver right on small inputs and wrong only near the maximum sizes (a table too short)."""


@todo
def wrong_period(instance):
    """A closed form with the wrong period, or a rare structure handled wrongly."""


@todo
def another_bug(instance):
    """One more bug a contestant could write; say which kind it is below."""


BROKEN = {
    "off_by_one": Broken(off_by_one, "off-by-one", "say what it gets wrong"),
    "wrong_index_base": Broken(wrong_index_base, "wrong index base", "say what it gets wrong"),
    "large_sizes_only": Broken(large_sizes_only, "large sizes only", "say what it gets wrong"),
    "wrong_period": Broken(wrong_period, "wrong period", "say what it gets wrong"),
    "another_bug": Broken(another_bug, "rare structure", "say what it gets wrong"),
}

UNFINISHED = unfinished(globals())
'''.replace(
    "__IMPORT__", "from __GAME_MODULE__ import GAME  # noqa: F401 (the game these solvers answer)\n"
)

_EXAMPLE = '''"""__NAME__: __WHICH__ candidate program: reads the input on stdin, writes the answer on stdout.

Still to write: `gamecert certify __NAME__ THIS_FILE` judges it once it is written.
"""

import sys


def main() -> None:
    sys.stdin.read()
    raise SystemExit("this example candidate for __NAME__ is still to write")


if __name__ == "__main__":
    main()
'''

_TEMPLATES = {
    "oracles": _ORACLE,
    "fast": _FAST,
    "strategies": _STRATEGIES,
    "proofs": _PROOFS,
    "broken": _BROKEN,
    "correct": _EXAMPLE.replace("__WHICH__", "a correct"),
    "wrong": _EXAMPLE.replace("__WHICH__", "a wrong (deliberately)"),
}

_OCTAL_DOC = {
    "oracles": "the game (rules, formats, minimax and the Sprague-Grundy oracle)",
    "fast": "the solvers: the periodic table the periodicity theorem proves, and a direct mex DP",
    "strategies": "the Hypothesis strategies, coverage features and largest inputs",
    "proofs": "the claims: the period and preperiod by the periodicity theorem, the mex recurrence",
}


def _octal_template(part: str) -> str:
    return (
        f'"""__NAME__, the octal heap game __OCTAL__: {_OCTAL_DOC[part]}.\n\n'
        "Built from the code alone by gamecert.kit.octal.octal_parts; nothing here is game-specific.\n"
        '"""\n\n'
        "from gamecert.kit.octal import octal_parts\n\n"
        f'globals().update(octal_parts("__OCTAL__", "__NAME__").exports("{part}"))\n'
        + ("__COVERAGE_MAIN__" if part == "strategies" else "")
    )


_COVERAGE_MAIN = (
    '\nif __name__ == "__main__":\n'
    "    from gamecert.kit.coverage import print_coverage\n\n"
    '    print_coverage(globals()["instances"], globals()["features"])\n'
)


_OCTAL_BROKEN = '''"""Broken solvers for __NAME__, the octal game __OCTAL__: the harness must catch every one.

Written by `gamecert new-game --octal` from the code alone. For some codes a generic bug
happens to give right answers (a sequence of period 1 has no wrong period to use, for one):
`pytest tests/test_broken.py` says which is not caught; replace it by a bug the game has.
"""

from __future__ import annotations

from gamecert.kit.broken import Broken
from gamecert.kit.octal import MAX_HEAP, OctalAnswer, OctalGame, _first_move_to

OCTAL = OctalGame.parse("__OCTAL__")


def _solve(g, heaps, index_base=1, heaps_counted=None):
    total = 0
    for h in heaps[:heaps_counted]:
        total ^= g(h)
    if not total:
        return OctalAnswer("Second")
    for i, h in enumerate(heaps, index_base):
        move = _first_move_to(OCTAL.digits, g, h, g(h) ^ total)
        if move is not None:
            return OctalAnswer("First", (i, *move))
    return OctalAnswer("Second")


def _g(n):
    return OCTAL.periodicity().grundy(n)


def value_one_heap_ahead(heaps):
    # G(n + 1) looked up for a heap of n (a table indexed from 1 read from 0)
    return _solve(lambda n: _g(n + 1) if n else 0, heaps)


def zero_based_heap_index(heaps):
    return _solve(_g, heaps, index_base=0)


def heaps_capped(heaps):
    return _solve(_g, tuple(min(h, MAX_HEAP // 2) for h in heaps))  # a table half as long as needed


def period_one_longer(heaps):
    p = OCTAL.periodicity()
    return _solve(lambda n: _g(n if n < p.preperiod else p.preperiod + (n - p.preperiod) % (p.period + 1)), heaps)


def first_eight_heaps_only(heaps):
    return _solve(_g, heaps, heaps_counted=8)


def one_heap_always_lost(heaps):
    return OctalAnswer("Second") if len(heaps) == 1 else _solve(_g, heaps)


BROKEN = {
    "value_one_heap_ahead": Broken(value_one_heap_ahead, "off-by-one", "G(n + 1) for G(n)"),
    "zero_based_heap_index": Broken(zero_based_heap_index, "wrong index base", "names heaps from 0"),
    "heaps_capped": Broken(heaps_capped, "large sizes only", f"heaps over {MAX_HEAP // 2} looked up as {MAX_HEAP // 2}"),
    "first_eight_heaps_only": Broken(first_eight_heaps_only, "rare structure", "heaps after the eighth left out of the xor"),
    "one_heap_always_lost": Broken(one_heap_always_lost, "rare structure", "a single heap answered Second"),
}
if OCTAL.periodicity().period > 1:
    BROKEN["period_one_longer"] = Broken(period_one_longer, "wrong period", "period p + 1 past the preperiod")
'''

_OCTAL_EXAMPLE = '''"""__NAME__ (octal __OCTAL__): __WHICH__ candidate, by the mex rule over every move the code allows.

Input: m, then m heap sizes. Output: Second, or First and a winning move "i a b" (heap i,
1-based, replaced by heaps of a and b tokens, 0 for none). Written by `gamecert new-game --octal`.
"""

import sys

DIGITS = __DIGITS__  # the code's digits: digit j says what taking j tokens may leave
INDEX_BASE = __BASE__


def options(n):
    """(a, b) for every move from a heap of n: the heaps left, 0 for none."""
    for j, d in enumerate(DIGITS):
        rest = n - j
        if rest < 0:
            break
        if d & 1 and rest == 0 and j > 0:
            yield (0, 0)
        if d & 2 and rest > 0 and j > 0:
            yield (rest, 0)
        if d & 4 and rest >= 2:
            for b in range(1, rest // 2 + 1):
                yield (rest - b, b)


def grundy_table(top):
    g = [0] * (top + 1)
    for n in range(1, top + 1):
        seen = {g[a] ^ g[b] for a, b in options(n)}
        m = 0
        while m in seen:
            m += 1
        g[n] = m
    return g


def main():
    data = sys.stdin.buffer.read().split()
    m = int(data[0])
    heaps = [int(t) for t in data[1 : 1 + m]]
    g = grundy_table(max(heaps))
    total = 0
    for h in heaps:
        total ^= g[h]
    if total == 0:
        print("Second")
        return
    for i, h in enumerate(heaps):
        for a, b in options(h):
            if g[a] ^ g[b] == g[h] ^ total:
                print("First")
                print(i + INDEX_BASE, a, b)
                return
    raise AssertionError("no winning move from a non-zero position")


if __name__ == "__main__":
    main()
'''

_OCTAL_TEMPLATES = {part: _octal_template(part) for part in PARTS}
_OCTAL_TEMPLATES["broken"] = _OCTAL_BROKEN
_OCTAL_TEMPLATES["correct"] = _OCTAL_EXAMPLE.replace("__WHICH__", "a correct").replace(
    "__BASE__", "1"
)
_OCTAL_TEMPLATES["wrong"] = _OCTAL_EXAMPLE.replace(
    "__WHICH__", "a wrong (deliberately: it names heaps from 0)"
).replace("__BASE__", "0  # wrong on purpose: the problem names heaps from 1")
