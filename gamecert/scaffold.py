"""``gamecert new-game NAME``: one module per part folder, every required part present and marked.

A new game is four modules, ``oracles/NAME.py``, ``fast/NAME.py``, ``strategies/NAME.py`` and
``proofs/NAME.py`` (see :mod:`gamecert.registry`). The scaffold writes each with every part
the registry and the conformance suite need, as stubs. A stub is marked in the code itself:

- a function still to write carries the decorator :func:`todo` (calling it raises
  ``NotImplementedError`` naming the file and the function);
- a value still to choose is :func:`todo_value` (``minimax_reach = todo_value("...")``);
- the module ends with ``UNFINISHED = unfinished(globals())``, which lists what is still marked.

The registry refuses a module whose ``UNFINISHED`` is not empty with ``oracles/NAME.py is not
finished: ...`` followed by that list, each part by name and line, so ``gamecert list`` and the
conformance suite say precisely what is missing, and where. Deleting a ``@todo`` (or replacing
a ``todo_value``) as each part is written shrinks the list; when it is empty the game counts
as finished (the ``UNFINISHED`` line and the import may then be deleted too).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import keyword
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from gamecert.errors import UsageError

F = TypeVar("F", bound=Callable[..., Any])
_MARK = "__gamecert_todo__"
PARTS = ("oracles", "fast", "strategies", "proofs")
NAME_RULE = re.compile(r"[a-z][a-z0-9_]*\Z")
MAX_NAME_LENGTH = 64  # file names (with .py) must fit the filesystem; reports name games too


# ---- the markers a scaffolded module uses ------------------------------------------------------

def todo(func: F) -> F:
    """Mark ``func`` as a stub still to write; calling it raises ``NotImplementedError``.

    >>> @todo
    ... def solve(instance):
    ...     "One solver."
    >>> solve(1)
    Traceback (most recent call last):
    NotImplementedError: solve in gamecert.scaffold is a stub marked @todo: write it, then delete the mark
    """

    @functools.wraps(func)
    def stub(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"{func.__qualname__} in {func.__module__} is a stub marked @todo: write it, then delete the mark"
        )

    setattr(stub, _MARK, True)
    return stub  # type: ignore[return-value]


class TodoValue:
    """A value still to choose; what it should be is in ``what``."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __repr__(self) -> str:
        return f"todo_value({self.what!r})"


def todo_value(what: str) -> Any:
    """A placeholder for a value (a class attribute, say) still to choose."""
    return TodoValue(what)


def unfinished(namespace: dict[str, Any]) -> str:
    """What a module still has marked, or ``""`` when nothing is: its ``UNFINISHED`` string.

    Pass the module's ``globals()``. Functions marked :func:`todo` (at module level or in a
    class the module defines) are listed with their line; :func:`todo_value` attributes by name.

    >>> @todo
    ... def instances():
    ...     "A strategy."
    >>> unfinished({"__name__": __name__, "instances": instances}).split(";")[0]
    'still to write: instances (line 1)'
    >>> unfinished({"__name__": __name__})
    ''
    """
    module = namespace.get("__name__")
    items: list[tuple[int, str]] = []
    for name, value in list(namespace.items()):
        if getattr(value, _MARK, False) and getattr(value, "__module__", None) == module:
            items.append((_line(value), name))
        elif inspect.isclass(value) and value.__module__ == module:
            for attr, member in vars(value).items():
                if getattr(member, _MARK, False):
                    items.append((_line(member), f"{value.__name__}.{attr}"))
                elif isinstance(member, TodoValue):
                    items.append((_attribute_line(value, attr), f"{value.__name__}.{attr}"))
        elif isinstance(value, TodoValue):
            items.append((0, name))
    if not items:
        return ""
    listed = ", ".join(f"{text} (line {line})" if line else text for line, text in sorted(items))
    return f"still to write: {listed}; each is marked @todo or todo_value, delete the mark once it is written"


def _attribute_line(cls: type, attr: str) -> int:
    try:
        lines, first = inspect.getsourcelines(cls)
    except (OSError, TypeError):
        return 0
    pattern = re.compile(rf"\s+{re.escape(attr)}\s*[:=]")
    return next((first + i for i, text in enumerate(lines) if pattern.match(text)), 0)


def _line(obj: Any) -> int:
    try:
        return inspect.getsourcelines(inspect.unwrap(obj))[1]
    except (OSError, TypeError):
        return 0


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
        raise UsageError(f"game name {name!r} is a Python keyword; a module cannot be imported by that name")
    if len(name) > MAX_NAME_LENGTH:
        raise UsageError(f"game name {name[:20]!r}... is {len(name)} characters long; keep it to {MAX_NAME_LENGTH}")
    if name == "all":
        raise UsageError("game name 'all' is taken: `gamecert certify all` and `prove all` mean every game")


def project_root() -> Path:
    """The folder holding the part packages the registry imports (all four must agree)."""
    roots = set()
    for part in PARTS:
        package = importlib.import_module(part)
        for path in package.__path__:
            roots.add(Path(path).resolve().parent)
    if len(roots) != 1:
        raise UsageError(f"the part folders {', '.join(PARTS)} are not in one project: found {sorted(map(str, roots))}")
    return roots.pop()


def _still_to_write(path: str) -> str:
    """What a freshly written part module still has marked (its ``UNFINISHED``)."""
    module_name = path[: -len(".py")].replace("/", ".")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a template that does not import would be a bug here: say so
        return f"does not import: {type(exc).__name__}: {exc}"
    return str(getattr(module, "UNFINISHED", "") or "")


def render(part: str, name: str, octal: str | None = None) -> str:
    """The text of ``part``'s module for a new game ``name`` (the heap game ``octal`` if given)."""
    cls = "".join(word.capitalize() for word in name.split("_") if word) or "Game"
    if cls[0].isdigit():
        cls = "Game" + cls
    if octal is not None:
        from gamecert.octal import OctalGame

        OctalGame.parse(octal)  # a bad code is a usage error before anything is written
        template = _OCTAL_TEMPLATES[part]
    else:
        template = _TEMPLATES[part]
    title = name.replace("_", " ").capitalize()
    for token, value in (("__NAME__", name), ("__CLASS__", cls), ("__TITLE__", title), ("__OCTAL__", octal or "")):
        template = template.replace(token, value)
    return template


def new_game_command(args: Any) -> int:
    name: str = args.name
    octal: str | None = getattr(args, "octal", None)
    check_name(name)
    root = project_root()
    present = [part for part in PARTS if (root / part / f"{name}.py").exists()]
    if len(present) == len(PARTS):
        raise UsageError(
            f"game {name!r} already exists ({', '.join(f'{p}/{name}.py' for p in PARTS)}); "
            "choose another name, or edit those files"
        )
    if name in PARTS or name in sys.builtin_module_names:
        raise UsageError(f"game name {name!r} would shadow a module of the same name; choose another")
    texts = {part: render(part, name, octal) for part in PARTS if part not in present}
    written = []
    for part, text in texts.items():
        path = root / part / f"{name}.py"
        try:
            with open(path, "x", encoding="utf-8") as f:  # "x": never overwrite a file
                f.write(text)
        except FileExistsError:
            continue
        except OSError as exc:
            raise UsageError(f"cannot write {part}/{name}.py: {exc}") from None
        written.append(f"{part}/{name}.py")
    importlib.invalidate_caches()
    kept = [f"{p}/{name}.py" for p in present]
    print(f"new game {name}" + (f", the octal game {octal}" if octal else ""))
    for path in written:
        print(f"  wrote {path}")
    for path in kept:
        print(f"  kept  {path} (already there; not touched)")
    for path in written:
        left = _still_to_write(path)
        if left:
            print(f"  {path}: {left}")
    if octal is None:
        print("next: fill in every part marked @todo or todo_value (guide: docs/adding-a-game.md);")
        print(f"  `gamecert list` and `pytest -n auto -k {name}` say what is still missing, and where.")
    else:
        print(f"next: `gamecert list`, `pytest -n auto -k {name}`, `gamecert prove {name}`.")
    return 0


# ---- templates (__NAME__, __CLASS__, __TITLE__, __OCTAL__ are filled in) --------------------------

_ORACLE = '''"""__NAME__: rules, formats and the two exact searches.

Say here, in a few lines, the rules (who moves, what a move is, who wins), the input and output
formats and the constraints. Which parts are still stubs: ``gamecert list``.
"""

from __future__ import annotations

from gamecert.errors import InputError, OutOfReach  # noqa: F401 (for the stubs)
from gamecert.game import (  # noqa: F401 (helpers the stubs below will need)
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
from gamecert.scaffold import todo, todo_value, unfinished
from gamecert.tokens import AnswerReader  # noqa: F401 (parse_answer reads through it)


class __CLASS__(Game):
    name = "__NAME__"
    title = "__TITLE__"
    time_limit = 1.0  # seconds per test, the problem's limit
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

from gamecert.scaffold import todo, unfinished


@todo
def closed_form(instance):
    """The answer for ``instance``, as GAME.parse_answer would return it. Add a doctest."""


SOLVERS = {"closed_form": closed_form}

UNFINISHED = unfinished(globals())
'''

_STRATEGIES = '''"""Hypothesis strategies for __NAME__: the whole input space, corners first.

Say which structural features matter to the game and which corners the strategies reach
(maximum sizes, one repeated symbol, long structured patterns, multi-game batches).
``python -m strategies.__NAME__`` prints what the examples cover.
"""

from __future__ import annotations

from hypothesis import strategies as st  # noqa: F401 (the stubs below will use it)

from gamecert.coverage import bucket  # noqa: F401
from gamecert.scaffold import todo, unfinished


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
    """[gamecert.game.Family(name, description, instances, count)]: designed lists of whole
    inputs giving every component size and value, smallest to largest, alone and mixed with
    others (deterministic: a random.Random(constant) for varied content)."""


@todo
def worst_cases():
    """[Family(..., kind="worst", adversary=...)]: maximal inputs with varied content, winning
    moves as late as possible, the shapes a slow solution is slowest on; say what each attacks."""


UNFINISHED = unfinished(globals())

if __name__ == "__main__":
    from gamecert.coverage import print_coverage  # noqa: PLC0415

    print_coverage("__NAME__")
'''

_PROOFS = '''"""Claims about __NAME__: what the fast solvers rely on, with the evidence that checks it.

Each Claim(name, statement, check, level=...) has check() return Evidence(level, detail), level
one of "bounded", "exhaustive", "all sizes" (the same as the claim's level, which gamecert show
prints), or raise ClaimRefuted(claim, index, detail) at the first index where it fails. Set
CLAIMS = [] if the game states none.
"""

from __future__ import annotations

from gamecert.claims import Claim, ClaimRefuted, Evidence  # noqa: F401
from gamecert.scaffold import todo, unfinished


@todo
def check_closed_form():
    """Compare the fast solvers' formula with the oracle over a stated range; return Evidence."""


CLAIMS = [
    Claim("closed form", "state the claim: what holds, for which sizes", check_closed_form, level="bounded"),
]

UNFINISHED = unfinished(globals())
'''

_TEMPLATES = {"oracles": _ORACLE, "fast": _FAST, "strategies": _STRATEGIES, "proofs": _PROOFS}

_OCTAL_DOC = {
    "oracles": "the game (rules, formats, minimax and the Sprague-Grundy oracle)",
    "fast": "the solvers: the periodic table the periodicity theorem proves, and a direct mex DP",
    "strategies": "the Hypothesis strategies, coverage features and largest inputs",
    "proofs": "the claims: the period and preperiod by the periodicity theorem, the mex recurrence",
}


def _octal_template(part: str) -> str:
    return (
        f'"""__NAME__, the octal heap game __OCTAL__: {_OCTAL_DOC[part]}.\n\n'
        "Built from the code alone by gamecert.octal.octal_parts; nothing here is game-specific.\n"
        '"""\n\n'
        "from gamecert.octal import octal_parts\n\n"
        f'globals().update(octal_parts("__OCTAL__", "__NAME__").exports("{part}"))\n'
        + (_COVERAGE_MAIN if part == "strategies" else "")
    )


_COVERAGE_MAIN = (
    '\nif __name__ == "__main__":\n'
    "    from gamecert.coverage import print_coverage\n\n"
    '    print_coverage("__NAME__")\n'
)


_OCTAL_TEMPLATES = {part: _octal_template(part) for part in PARTS}
