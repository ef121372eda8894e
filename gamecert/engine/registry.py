"""Find the games: in the project's part folders, in game folders, and in installed packages.

A game ``NAME`` is four modules: its oracle, its fast solvers, its strategies and its proofs.
They come from one of three sources:

- the project itself: ``oracles/NAME.py``, ``fast/NAME.py``, ``strategies/NAME.py`` and
  ``proofs/NAME.py``, importable as the top-level packages ``oracles``, ``fast``... (a source
  checkout);
- a *games folder* named in ``GAMECERT_GAMES`` (folders separated by ``os.pathsep``), holding
  the same four subfolders with one module per game (``gamecert new-game NAME --dir DIR`` writes
  one). Its modules are imported under a private package name, ``gamecert_games_<hash>``, never
  as top-level ``oracles``..., so two folders (or a folder and the project) cannot collide; a
  part imports another part of its folder relatively: ``from ..oracles.NAME import GAME``;
- an entry point in the group ``gamecert.games`` of an installed distribution: its name is the
  game's name, and the object it names gives the four parts as attributes ``oracle``, ``fast``,
  ``strategies`` and ``proofs`` (modules or any objects), or is a package with submodules of
  those names.

Broken solvers (deliberately wrong ones the harness must catch, see :mod:`gamecert.kit.broken`)
live beside each source: ``tests/broken/NAME.py`` in the project and in a games folder, the
attribute or submodule ``broken`` for an entry point. Modules whose names start with ``_`` are
helpers, not games. The same name from two sources is an error naming both.

What each part must define:

- the oracle: ``GAME``, an instance of :class:`gamecert.kit.game.Game` with ``name == NAME``;
- fast: ``SOLVERS``, a non-empty dict from solver name to ``solve(instance)``;
- strategies: ``instances()``, a Hypothesis strategy over the whole input space;
  ``oracle_instances()``, one within the oracle's reach; ``features(instance)``, the labels a
  coverage histogram counts; ``largest()``, a few instances at the maximum sizes;
- proofs: ``CLAIMS``, a list of claims (see :mod:`gamecert.kit.claims`).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import pkgutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from gamecert.errors import RegistryError
from gamecert.kit.game import Game, Solver

PARTS = ("oracles", "fast", "strategies", "proofs")
#: the environment variable naming games folders
ENV_VAR = "GAMECERT_GAMES"
#: the entry-point group of games shipped as their own packages
ENTRY_POINT_GROUP = "gamecert.games"
#: the attribute (or submodule) an entry point's object gives each part under
ENTRY_POINT_PARTS = {
    "oracles": "oracle",
    "fast": "fast",
    "strategies": "strategies",
    "proofs": "proofs",
}

#: what each part module must define, and a hint shown when it does not
REQUIRED: dict[str, tuple[tuple[str, str], ...]] = {
    "oracles": (("GAME", "an instance of a gamecert.kit.game.Game subclass"),),
    "fast": (("SOLVERS", "a dict {solver name: solve(instance) -> answer}"),),
    "strategies": (
        ("instances", "a function returning a Hypothesis strategy over the whole input space"),
        ("oracle_instances", "a function returning a strategy within the oracle's reach"),
        ("features", "a function instance -> iterable of feature labels (coverage histogram)"),
        (
            "largest",
            "a function returning a few instances at the maximum sizes the constraints allow",
        ),
    ),
    "proofs": (("CLAIMS", "a list of gamecert.kit.claims.Claim"),),
}


@dataclass(frozen=True)
class Entry:
    """Everything registered for one game."""

    name: str
    game: Game
    solvers: dict[str, Solver]
    strategies: ModuleType
    proofs: ModuleType
    #: where the game comes from, as :meth:`Source.describe` says it
    source: str = "the project"

    def instances(self) -> Any:
        return self.strategies.instances()

    def oracle_instances(self) -> Any:
        return self.strategies.oracle_instances()

    def features(self, instance: Any) -> list[str]:
        return list(self.strategies.features(instance))

    @property
    def claims(self) -> list[Any]:
        return list(self.proofs.CLAIMS)


@dataclass(frozen=True)
class Problem:
    """A game that could not be loaded: ``state`` is INCOMPLETE, UNFINISHED or BROKEN."""

    name: str
    state: str
    message: str

    def describe(self) -> str:
        """One line, as ``gamecert list``, ``prove all`` and ``certify all`` print it.

        >>> Problem("g", "BROKEN", "fast/g.py failed to import: boom").describe()
        'g: BROKEN, fast/g.py failed to import: boom'
        """
        return f"{self.name}: {self.state}, {' '.join(self.message.split())}"


# ---- the three kinds of source ------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """Where one game's parts are: ``kind`` is ``project``, ``folder`` or ``entry point``.

    ``where`` is the folder (project, folder) or ``name = value`` (entry point).
    """

    kind: str
    where: str

    def describe(self) -> str:
        """How a message names the source.

        >>> Source("folder", "/games").describe()
        'the games folder /games (GAMECERT_GAMES)'
        """
        if self.kind == "project":
            return "the project"
        if self.kind == "folder":
            return f"the games folder {self.where} ({ENV_VAR})"
        return f"the entry point {self.where} (group {ENTRY_POINT_GROUP})"

    def path(self, part: str, name: str) -> str:
        """How a message names one part's file."""
        if self.kind == "project":
            return f"{part}/{name}.py"
        if self.kind == "folder":
            return str(Path(self.where, part, f"{name}.py"))
        return f"{ENTRY_POINT_PARTS.get(part, part)} of the entry point {self.where}"


def _module_names(part: str) -> set[str]:
    """The game names in the project's part folder ``part`` (none if it is not importable)."""
    try:
        package = importlib.import_module(f"gamecert.{part}")
    except ModuleNotFoundError as exc:
        if exc.name != f"gamecert.{part}":
            raise
        return set()
    return {
        info.name
        for info in pkgutil.iter_modules(package.__path__)
        if not info.name.startswith("_")
    }


def _project_root() -> Path | None:
    """The folder holding the project's ``oracles`` folder (``gamecert.oracles``), if it is importable."""
    try:
        package = importlib.import_module("gamecert.oracles")
    except ModuleNotFoundError:
        return None
    paths = list(getattr(package, "__path__", ()))
    return Path(paths[0]).resolve().parent if paths else None


def games_folders() -> list[Path]:
    """The folders ``GAMECERT_GAMES`` names, resolved, without duplicates or the project itself.

    A named folder that does not exist is a :class:`RegistryError` (a typo must not silently
    hide a game).
    """
    folders: list[Path] = []
    project = _project_root()
    for text in os.environ.get(ENV_VAR, "").split(os.pathsep):
        if not text.strip():
            continue
        folder = Path(text).expanduser().resolve()
        if not folder.is_dir():
            raise RegistryError(f"{ENV_VAR} names {text}, which is not a folder")
        if folder not in folders and folder != project:
            folders.append(folder)
    return folders


def _folder_names(folder: Path, part: str) -> set[str]:
    where = folder / part
    if not where.is_dir():
        return set()
    return {
        p.stem for p in where.glob("*.py") if p.stem.isidentifier() and not p.stem.startswith("_")
    }


def package_name(folder: Path) -> str:
    """The private package a games folder's modules are imported under.

    >>> package_name(Path("/games")).startswith("gamecert_games_")
    True
    """
    digest = hashlib.sha256(str(folder).encode()).hexdigest()[:12]
    return f"gamecert_games_{digest}"


def _folder_package(folder: Path) -> str:
    """Create (once) the private package whose search path is ``folder``; its name."""
    name = package_name(folder)
    if name not in sys.modules:
        spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
        spec.submodule_search_locations = [str(folder)]
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
    return name


def _entry_points() -> list[importlib.metadata.EntryPoint]:
    return sorted(
        importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (ep.name, ep.value)
    )


def _sources() -> dict[str, list[tuple[Source, frozenset[str]]]]:
    """Every game name, with each source that has it and which parts that source has."""
    found: dict[str, list[tuple[Source, frozenset[str]]]] = {}
    project: dict[str, set[str]] = {}
    for part in PARTS:
        for name in _module_names(part):
            project.setdefault(name, set()).add(part)
    for name, parts in project.items():
        found.setdefault(name, []).append(
            (Source("project", str(_project_root())), frozenset(parts))
        )
    for folder in games_folders():
        here: dict[str, set[str]] = {}
        for part in PARTS:
            for name in _folder_names(folder, part):
                here.setdefault(name, set()).add(part)
        for name, parts in here.items():
            found.setdefault(name, []).append((Source("folder", str(folder)), frozenset(parts)))
    for ep in _entry_points():
        found.setdefault(ep.name, []).append(
            (Source("entry point", f"{ep.name} = {ep.value}"), frozenset(PARTS))
        )
    return found


def game_names(kind: str | None = None) -> list[str]:
    """Every game name found in any source, sorted (with ``kind``: only those whose one source
    is of that kind, ``project``, ``folder`` or ``entry point``). Does not import the games."""
    found = _sources()
    if kind is None:
        return sorted(found)
    return sorted(
        name for name, where in found.items() if len(where) == 1 and where[0][0].kind == kind
    )


def _source_of(name: str) -> tuple[Source, frozenset[str]]:
    """The one source of ``name``; a :class:`RegistryError` if none or several."""
    sources = _sources()
    if name not in sources:
        hint = (
            ""
            if os.environ.get(ENV_VAR)
            else (
                f" (games outside the project are found through {ENV_VAR}=DIR or entry points {ENTRY_POINT_GROUP})"
            )
        )
        raise RegistryError(
            f"unknown game {name!r}; registered games: {', '.join(sorted(sources)) or 'none'}{hint}"
        )
    found = sources[name]
    if len(found) > 1:
        raise RegistryError(
            f"game {name!r} is defined twice: in {found[0][0].describe()} and in {found[1][0].describe()}"
            + (f" (and {len(found) - 2} more)" if len(found) > 2 else "")
            + "; rename one of them or drop its source"
        )
    return found[0]


def missing_parts(name: str) -> list[str]:
    """The part files ``name`` lacks, as paths (``fast/NAME.py``), in folder order."""
    source, parts = _source_of(name)
    return [source.path(part, name) for part in PARTS if part not in parts]


def _import(source: Source, part: str, name: str) -> Any:
    """The object giving ``part`` of game ``name`` from ``source`` (may raise anything)."""
    if source.kind == "project":
        return importlib.import_module(f"gamecert.{part}.{name}")
    if source.kind == "folder":
        return importlib.import_module(f"{_folder_package(Path(source.where))}.{part}.{name}")
    return _entry_point_part(name, ENTRY_POINT_PARTS.get(part, part))


def _entry_point_part(name: str, attr: str) -> Any:
    """Attribute ``attr`` of the object entry point ``name`` names, or its submodule ``attr``."""
    ep = next(ep for ep in _entry_points() if ep.name == name)
    target = ep.load()
    if hasattr(target, attr):
        return getattr(target, attr)
    if hasattr(target, "__path__"):
        return importlib.import_module(f"{target.__name__}.{attr}")
    raise AttributeError(f"{ep.value} has no attribute or submodule {attr!r}")


#: the author's kit before gamecert 0.2 (flat modules), and where each module is now
MOVED_MODULES = {
    f"gamecert.{old}": f"gamecert.kit.{new}"
    for old, new in (
        ("game", "game"),
        ("claims", "claims"),
        ("smt", "smt"),
        ("coverage", "coverage"),
        ("plots", "plots"),
        ("tokens", "tokens"),
        ("broken", "broken"),
        ("octal", "octal"),
        ("scaffold", "todo"),
    )
}


def _import_problem(exc: Exception) -> str:
    """``Type: message`` of a game module's import error, with where a moved kit module went.

    >>> _import_problem(ModuleNotFoundError("No module named 'gamecert.game'", name="gamecert.game"))
    "ModuleNotFoundError: No module named 'gamecert.game' (since gamecert 0.2 it is gamecert.kit.game)"
    """
    text = f"{type(exc).__name__}: {exc}"
    moved = MOVED_MODULES.get(getattr(exc, "name", None) or "")
    return f"{text} (since gamecert 0.2 it is {moved})" if moved else text


def _load_part(part: str, name: str, source: Source | None = None) -> Any:
    source = source or Source("project", "")
    where = source.path(part, name)
    try:
        module = _import(source, part, name)
    except RegistryError:
        raise
    except Exception as exc:  # the module's own bug: name it, keep the cause chained
        raise RegistryError(f"{where} failed to import: {_import_problem(exc)}") from exc
    unfinished = getattr(module, "UNFINISHED", None)
    if unfinished:
        raise RegistryError(f"{where} is not finished: {unfinished}")
    for attr, hint in REQUIRED.get(part, ()):
        if not hasattr(module, attr):
            raise RegistryError(f"{where} must define {attr}: {hint}")
    return module


@cache
def get(name: str) -> Entry:
    """The registered game ``name``; a :class:`RegistryError` naming what is missing otherwise."""
    source, parts = _source_of(name)
    missing = [source.path(part, name) for part in PARTS if part not in parts]
    if missing:
        present = [source.path(p, name) for p in PARTS if p in parts]
        rerun = f"gamecert new-game {name}" + (
            f" --dir {source.where}" if source.kind == "folder" else ""
        )
        raise RegistryError(
            f"game {name!r} is incomplete: {', '.join(missing)} missing "
            f"(found {', '.join(present)}); run `{rerun}` to scaffold the missing parts"
        )
    modules = {part: _load_part(part, name, source) for part in PARTS}
    oracle = source.path("oracles", name)
    game = modules["oracles"].GAME
    if not isinstance(game, Game):
        raise RegistryError(
            f"{oracle}: GAME must be an instance of gamecert.kit.game.Game, got {type(game).__name__}"
        )
    if game.name != name:
        raise RegistryError(
            f"{oracle} defines a game named {game.name!r}; the module and GAME.name must agree"
        )
    solvers = modules["fast"].SOLVERS
    if (
        not isinstance(solvers, dict)
        or not solvers
        or not all(callable(s) for s in solvers.values())
    ):
        raise RegistryError(
            f"{source.path('fast', name)}: SOLVERS must be a non-empty dict of callables"
        )
    return Entry(
        name, game, dict(solvers), modules["strategies"], modules["proofs"], source.describe()
    )


def clear_cache() -> None:
    """Forget loaded games (after ``GAMECERT_GAMES`` or the installed entry points change)."""
    get.cache_clear()


def _state(message: str) -> str:
    if " is incomplete: " in message:
        return "INCOMPLETE"
    return "UNFINISHED" if " is not finished: " in message else "BROKEN"


def load_all(selector: str = "all") -> tuple[list[Entry], list[Problem]]:
    """The games that load, and one :class:`Problem` for each that does not, both sorted by name.

    ``selector`` is ``all`` or one game name; one game that does not load raises its
    :class:`RegistryError` (the command then fails with that one line). With ``all``, one
    unfinished or broken game never stops the others: ``list``, ``prove all`` and
    ``certify all`` print each problem's :meth:`Problem.describe` line, go on, and exit 2 at
    the end if there was any.
    """
    if selector != "all":
        return [get(selector)], []
    entries: list[Entry] = []
    problems: list[Problem] = []
    for name in game_names():
        try:
            entries.append(get(name))
        except RegistryError as exc:
            problems.append(Problem(name, _state(str(exc)), str(exc)))
    return entries, problems


def all_entries() -> list[Entry]:
    """Every game, sorted by name; the first incomplete one raises."""
    return [get(name) for name in game_names()]


def resolve(selector: str) -> list[Entry]:
    """``all`` or one game name."""
    return all_entries() if selector == "all" else [get(selector)]


def checkout_root() -> Path | None:
    """The source checkout the game parts are imported from (None for an installation)."""
    try:
        package = importlib.import_module("gamecert.oracles")
    except ModuleNotFoundError:
        return None
    for path in getattr(package, "__path__", ()):
        root = Path(path).resolve().parent
        if (root / "pyproject.toml").is_file() and root.name != "gamecert":
            return root
    return None


def project_module(dotted: str) -> ModuleType:
    """A module of the checkout's ``tests`` folder (``tests.broken.NAME``): imported by name
    where the checkout's root is on ``sys.path`` (pytest, ``python -m`` from it), else from its
    files, so that the ``gamecert`` console script, which runs with no project root on
    ``sys.path``, finds it too. A missing file is a :class:`ModuleNotFoundError` naming it."""
    try:
        return importlib.import_module(dotted)
    except ModuleNotFoundError as exc:
        head = dotted.split(".")
        if exc.name not in {".".join(head[:k]) for k in range(1, len(head))}:
            raise
        root = checkout_root()
        if root is None:
            raise
    for k in range(1, len(head) + 1):
        name = ".".join(head[:k])
        if name in sys.modules:
            continue
        path = root.joinpath(*head[:k])
        file = path / "__init__.py" if k < len(head) else path.with_suffix(".py")
        if k < len(head) and not file.is_file() and path.is_dir():  # a namespace package
            package = ModuleType(name)
            package.__path__ = [str(path)]
            sys.modules[name] = package
            continue
        if not file.is_file():
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        spec = importlib.util.spec_from_file_location(
            name, file, submodule_search_locations=[str(path)] if k < len(head) else None
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return sys.modules[dotted]


def broken_solvers(name: str) -> dict[str, Any]:
    """The deliberately broken solvers kept for game ``name``: ``{name: gamecert.kit.broken.Broken}``.

    From ``tests/broken/NAME.py`` (project: the module ``tests.broken.NAME``; a games folder:
    that file in the folder) or an entry point's ``broken``. Missing or unfinished is a
    :class:`RegistryError` saying where they belong.
    """
    source, _ = _source_of(name)
    if source.kind == "project":
        where, load = (
            f"tests/broken/{name}.py",
            lambda: project_module(f"tests.broken.{name}"),
        )
    elif source.kind == "folder":
        where = str(Path(source.where, "tests", "broken", f"{name}.py"))

        def load() -> Any:
            return importlib.import_module(
                f"{_folder_package(Path(source.where))}.tests.broken.{name}"
            )

    else:
        where, load = (
            f"broken of the entry point {source.where}",
            lambda: _entry_point_part(name, "broken"),
        )
    try:
        module = load()
    except ModuleNotFoundError as exc:
        if exc.name and (
            exc.name.endswith(f"broken.{name}")
            or exc.name.endswith(".tests")
            or exc.name == "tests"
            or exc.name.endswith("tests.broken")
        ):
            raise RegistryError(
                f"{where} is missing: every game keeps at least five broken solvers"
            ) from None
        raise RegistryError(f"{where} failed to import: {_import_problem(exc)}") from exc
    except AttributeError:
        raise RegistryError(
            f"{where} is missing: every game keeps at least five broken solvers"
        ) from None
    except Exception as exc:
        raise RegistryError(f"{where} failed to import: {type(exc).__name__}: {exc}") from exc
    unfinished = getattr(module, "UNFINISHED", None)
    if unfinished:
        raise RegistryError(f"{where} is not finished: {unfinished}")
    broken = getattr(module, "BROKEN", None)
    if not isinstance(broken, dict):
        raise RegistryError(
            f"{where} must define BROKEN: a dict {{name: gamecert.kit.broken.Broken}}"
        )
    return dict(broken)


def solver_ids(entries: list[Entry] | None = None) -> list[tuple[str, str]]:
    """(game, solver) pairs, sorted, for parametrising."""
    return [(e.name, s) for e in (entries or all_entries()) for s in sorted(e.solvers)]


def lookup_solver(name: str, solver: str) -> Callable[[Any], Any]:
    entry = get(name)
    if solver not in entry.solvers:
        raise RegistryError(
            f"game {name!r} has no solver {solver!r}; it has {', '.join(sorted(entry.solvers))}"
        )
    return entry.solvers[solver]
