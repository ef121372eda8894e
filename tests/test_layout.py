"""The package's layout shows its roles, and the arrows between them run one way.

Read from the source with :mod:`ast` (nothing is imported): every ``import`` of a gamecert
module, at module level or inside a function, is an arrow. The layers, lowest first:

- ``gamecert.errors`` and ``gamecert.verdict``: the vocabulary every layer shares;
- ``gamecert.kit``: what a game's author writes with;
- the games (``gamecert.oracles``, ``.fast``, ``.strategies``, ``.proofs``): the kit only;
- ``gamecert.engine``: plans, judges, runs and writes up certifications, in rooms (below);
- ``gamecert.commands``: the front ends, one module per command.

Inside the engine, the rooms, lowest first (docs/architecture.md): the floor at the engine's root
(``registry``, ``gamecode``, ``interrupts``: what every room may use); ``run/`` and ``report/``;
``plan/``; ``judge/`` (it may ask the plan what a chunk is, never the other way); the executor
(``execute``, ``sweep_below``); and at the top the certification and its siblings at the root
(``certification``, ``options``, ``phase_lines``, ``summary``, ``items``, ``solvers``, ``replay``,
``shipping``) beside ``testpack/``. A module imports its own room
or a lower one, never a room beside it or above it.

An arrow may point down or sideways, never up; there are no circles; no engine module is over
600 lines; the candidate supervisor imports the standard library only (it runs inside the
sandbox, where gamecert is not importable).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME_PARTS = ("oracles", "fast", "strategies", "proofs")
#: lower number, lower layer; an import may only go to a layer <= its own
LAYERS = {"vocabulary": 0, "kit": 1, "games": 2, "engine": 3, "commands": 4}
MAX_ENGINE_LINES = 600
#: the engine's rooms and their heights; a module may import its own room or a lower one
ROOMS = {
    "floor": 0,
    "run": 1,
    "report": 1,
    "plan": 2,
    "judge": 3,
    "execute": 4,
    "top": 5,
    "testpack": 5,
}
FLOOR = (
    "gamecert.engine",
    "gamecert.engine.registry",
    "gamecert.engine.gamecode",
    "gamecert.engine.interrupts",
)
TOP = (
    "certification",
    "options",
    "phase_lines",
    "summary",
    "items",
    "solvers",
    "solver_batch",
    "replay",
    "shipping",
)
#: the executor's room: the executor and the work after a fault it does (a mixin)
EXECUTE = ("execute", "sweep_below", "fault_time")


def _module_files() -> dict[str, Path]:
    """Every gamecert module by its installed name (the game folders as gamecert.oracles...)."""
    found = {}
    for path in sorted((ROOT / "gamecert").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    for part in GAME_PARTS:
        for path in sorted((ROOT / part).glob("*.py")):
            stem = path.stem
            found[f"gamecert.{part}" if stem == "__init__" else f"gamecert.{part}.{stem}"] = path
    return found


MODULES = _module_files()


def layer(module: str) -> str | None:
    """The layer of a gamecert module, or None for the package's root modules."""
    parts = module.split(".")
    if module in ("gamecert.errors", "gamecert.verdict"):
        return "vocabulary"
    if len(parts) > 1 and parts[1] in GAME_PARTS:
        return "games"
    if len(parts) > 1 and parts[1] in ("kit", "engine", "commands"):
        return parts[1]
    return None  # gamecert itself, __main__, _checkout


def room(module: str) -> str:
    """The engine room of an engine module."""
    parts = module.split(".")
    if module in FLOOR:
        return "floor"
    if parts[2] in ("run", "report", "plan", "judge", "testpack"):
        return parts[2]
    if parts[2] in EXECUTE:
        return "execute"
    if parts[2] in TOP:
        return "top"
    raise AssertionError(
        f"{module} is in no room of the engine: give it one (tests/test_layout.py)"
    )


def _resolve(name: str) -> str | None:
    """The gamecert module ``name`` stands for (a name inside a module counts as its module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> set[str]:
    """The gamecert modules ``module`` imports, anywhere in its body."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for name in names:
            target = _resolve(name) if name.startswith("gamecert") else None
            if (
                target
                and target != module
                and not module.startswith(target + ".")
                and target != "gamecert"
            ):
                found.add(target)
    return found


GRAPH = {module: imports(module) for module in MODULES}


def test_the_layout_is_read_from_the_tree():
    """The reader sees the layers and the known arrows (so an empty graph cannot pass)."""
    assert {layer(m) for m in MODULES} >= set(LAYERS)
    assert "gamecert.kit.game" in GRAPH["gamecert.engine.registry"]
    assert "gamecert.engine.certification" in GRAPH["gamecert.commands.certify"]
    assert "gamecert.kit.octal" in GRAPH["gamecert.oracles.dawson_kayles"]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m)))
def test_imports_point_down_or_sideways(module):
    mine = LAYERS[layer(module)]
    upward = sorted(t for t in GRAPH[module] if layer(t) and LAYERS[layer(t)] > mine)
    assert not upward, f"{module} ({layer(module)}) imports a higher layer: {upward}"


def _wrong_arrows(module: str, targets: set[str]) -> list[str]:
    mine = room(module)
    return sorted(
        t
        for t in targets
        if layer(t) == "engine" and room(t) != mine and ROOMS[room(t)] >= ROOMS[mine]
    )


ENGINE = sorted(m for m in MODULES if layer(m) == "engine")


@pytest.mark.parametrize("module", ENGINE)
def test_engine_rooms_point_down(module):
    """An engine module imports its own room or a lower one: never beside it, never above it."""
    mine = room(module)
    wrong = _wrong_arrows(module, GRAPH[module])
    assert not wrong, (
        f"{module} ({mine}) imports a room beside or above its own: {[(t, room(t)) for t in wrong]}"
    )


def test_every_room_says_what_it_owns_and_may_import():
    for name in ("run", "plan", "judge", "report", "testpack"):
        doc = ast.get_docstring(
            ast.parse((ROOT / "gamecert" / "engine" / name / "__init__.py").read_text())
        )
        assert doc and "May import" in doc, (
            f"engine/{name}/__init__.py: a docstring with 'May import'"
        )


def test_the_room_rule_can_fail():
    """Made-up arrows up (run to judge, judge to the executor) and beside (report to run) break the
    rule the test above keeps; the real arrows down do not."""
    assert _wrong_arrows("gamecert.engine.run.sandbox", {"gamecert.engine.judge.judge"})
    assert _wrong_arrows("gamecert.engine.judge.evidence", {"gamecert.engine.execute"})
    assert _wrong_arrows("gamecert.engine.report.reports", {"gamecert.engine.run.sandbox"})
    assert _wrong_arrows("gamecert.engine.plan.plan", {"gamecert.engine.judge.judge"})
    assert not _wrong_arrows(
        "gamecert.engine.judge.judge", {"gamecert.engine.plan.plan", "gamecert.engine.registry"}
    )
    assert "gamecert.engine.judge.outcome" in GRAPH["gamecert.engine.judge.evidence"]


def test_games_use_only_the_kit():
    for module, targets in GRAPH.items():
        if layer(module) == "games":
            others = sorted(t for t in targets if layer(t) not in ("vocabulary", "kit", "games"))
            assert not others, f"{module} imports {others}"


def _cycle() -> list[str] | None:
    """One import circle among gamecert's modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(GRAPH.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(GRAPH):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_circles():
    cycle = _cycle()
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_the_circle_finder_finds_a_circle():
    """The check above can fail: a made-up arrow back from the kit to the engine is a circle."""
    saved = GRAPH["gamecert.kit.game"]
    GRAPH["gamecert.kit.game"] = saved | {"gamecert.engine.registry"}
    try:
        assert _cycle() is not None
    finally:
        GRAPH["gamecert.kit.game"] = saved


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) == "engine"))
def test_no_engine_module_is_over_600_lines(module):
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_ENGINE_LINES, f"{module} has {lines} lines"


def test_the_supervisor_imports_the_standard_library_only():
    supervisor = [m for m in MODULES if m.startswith("gamecert.engine.run.supervisor")]
    assert len(supervisor) >= 3
    for module in supervisor:
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = [(node.module or "").split(".")[0]]
            else:
                continue
            for top in tops:
                sibling = (
                    top.startswith("_sv_") or top == "gamecert"
                )  # the same files, by either name
                assert top in sys.stdlib_module_names or sibling, f"{module} imports {top}"


def test_the_architecture_page_names_real_places():
    """docs/architecture.md names modules and names inside them; each one exists in the code."""
    import re

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    engine = ROOT / "gamecert" / "engine"
    paths = set(re.findall(r"`((?:commands|kit|run|plan|judge|report|testpack)/[\w/]+\.py)`", text))
    assert len(paths) >= 10
    for rel in paths:
        assert (engine / rel).exists() or (ROOT / "gamecert" / rel).exists(), (
            f"architecture.md names {rel}"
        )
    names = re.findall(r"`((?:run|plan|judge|report)\.\w+)\.(\w+)`", text)
    assert len(names) >= 5
    for module, name in names:
        source = (engine / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert re.search(rf"\b(def|class) {name}\b|^{name}\b", source, re.M), (
            f"architecture.md names {module}.{name}"
        )
    for room_name in ("run", "plan", "judge", "report", "testpack"):
        assert f"engine/{room_name}/" in text
