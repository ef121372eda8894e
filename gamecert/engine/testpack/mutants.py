"""Automatic mutants of a game's registered fast solvers, and which inputs kill them.

A mutant is the solver's module with one small change (an ``ast`` transformation) inside the
solver or a function of the same module it calls: an operator swapped (``+``/``-``, ``%``/``//``,
``^``/``|``, ...), a comparison changed (``<``/``<=``, ``==``/``!=``, ``in``/``not in``), an
integer constant off by one (a *table entry* when it sits in a literal tuple or list), a
condition negated (``if``, ``while``, ``x if c else y``), ``and``/``or`` swapped, or a loop cut
short (``range(a, b)`` to ``range(a, b - 1)``, any other iterable without its last item).

Mutants run in-process, in a forked child (:func:`evaluate`), each call under a time bound
(``signal.setitimer``) and the child under an address-space cap; a child that stops answering is
killed and the mutant it was on is recorded as hung. Each answer goes through the same steps as
a registered solver's (:func:`gamecert.kit.tokens.verdict_of`: formatted, read back, judged).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import json
import os
import select
import signal
import sys
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gamecert.engine import gamecode

_BINOPS = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitXor: ast.BitOr,
    ast.BitOr: ast.BitXor,
    ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.Pow: ast.Mult,
}
_CMPOPS = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
#: the kinds of change, as the package's README names them
KINDS = (
    "operator swapped",
    "comparison changed",
    "constant off by one",
    "table entry changed",
    "condition negated",
    "and/or swapped",
    "loop cut short",
)


@dataclass(frozen=True)
class Mutant:
    """One mutant: ``name`` is unique per game (``solver~k``); ``source`` the mutated module."""

    name: str
    solver: str
    kind: str
    where: str
    what: str
    source: str = dataclasses.field(repr=False)


def _target(solver: Callable[..., Any]) -> tuple[types.ModuleType, str, str | None]:
    """The solver's module, its function name, and its class name when it is a bound method."""
    func = getattr(solver, "__func__", solver)
    module = sys.modules[func.__module__]
    owner = type(solver.__self__).__name__ if hasattr(solver, "__self__") else None
    return module, func.__name__, owner


def _functions(tree: ast.Module, name: str, owner: str | None) -> list[ast.FunctionDef]:
    """The solver's function and every function of the module it reaches by name (or by
    ``self.method`` inside its class), in a fixed order."""
    top = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    methods: dict[str, ast.FunctionDef] = {}
    node: ast.AST  # (a statement of the module here, any node of a function below)
    if owner is not None:
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == owner:
                methods = {n.name: n for n in node.body if isinstance(n, ast.FunctionDef)}
    start = methods.get(name) if owner is not None else top.get(name)
    if start is None:
        return []
    seen: dict[int, ast.FunctionDef] = {}
    todo = [start]
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen[id(f)] = f
        for node in ast.walk(f):
            if isinstance(node, ast.Name) and node.id in top:
                todo.append(top[node.id])
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and node.attr in methods
            ):
                todo.append(methods[node.attr])
    return sorted(seen.values(), key=lambda f: f.lineno)


def _sites(functions: Sequence[ast.FunctionDef]) -> list[tuple[int, int, str, Any]]:
    """(function index, node index in ``ast.walk`` order, kind, detail) for every change."""
    out: list[tuple[int, int, str, Any]] = []
    for fi, f in enumerate(functions):
        skip: set[int] = set()
        for node in ast.walk(f):
            if isinstance(node, (ast.Raise, ast.Assert, ast.JoinedStr)):
                skip |= {id(n) for n in ast.walk(node)}
        parents = {id(c): p for p in ast.walk(f) for c in ast.iter_child_nodes(p)}
        for ni, node in enumerate(ast.walk(f)):
            if id(node) in skip:
                continue
            if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _BINOPS:
                out.append((fi, ni, "operator swapped", None))
            elif isinstance(node, ast.Compare):
                out.extend(
                    (fi, ni, "comparison changed", k)
                    for k, op in enumerate(node.ops)
                    if type(op) in _CMPOPS
                )
            elif isinstance(node, ast.Constant) and type(node.value) is int:
                table = isinstance(parents.get(id(node)), (ast.Tuple, ast.List, ast.Set))
                kind = "table entry changed" if table else "constant off by one"
                out.extend((fi, ni, kind, d) for d in (1, -1))
            elif isinstance(node, (ast.If, ast.IfExp, ast.While)):
                out.append((fi, ni, "condition negated", None))
            elif isinstance(node, ast.BoolOp):
                out.append((fi, ni, "and/or swapped", None))
            elif isinstance(node, (ast.For, ast.comprehension)):
                out.append((fi, ni, "loop cut short", None))
    return out


def _apply(node: Any, kind: str, detail: Any) -> str:
    """Change ``node`` (an ast node of the class ``kind`` was found on) in place; say what changed."""
    if kind == "operator swapped":
        before = type(node.op).__name__
        node.op = _BINOPS[type(node.op)]()
        return f"{before} -> {type(node.op).__name__}"
    if kind == "comparison changed":
        before = type(node.ops[detail]).__name__
        node.ops[detail] = _CMPOPS[type(node.ops[detail])]()
        return f"{before} -> {type(node.ops[detail]).__name__}"
    if kind in ("constant off by one", "table entry changed"):
        before = node.value
        node.value = before + detail
        return f"{before} -> {node.value}"
    if kind == "condition negated":
        node.test = ast.UnaryOp(ast.Not(), node.test)
        return "not (" + ast.unparse(node.test.operand)[:60] + ")"
    if kind == "and/or swapped":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return f"-> {type(node.op).__name__.lower()}"
    it = node.iter
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "range"
        and it.args
    ):
        index = 0 if len(it.args) == 1 else 1
        it.args[index] = ast.BinOp(it.args[index], ast.Sub(), ast.Constant(1))
        return "range stop - 1"
    node.iter = ast.Subscript(
        ast.Call(ast.Name("list", ast.Load()), [it], []),
        ast.Slice(None, ast.Constant(-1)),
        ast.Load(),
    )
    return "the last item left out"


def make_mutants(solvers: dict[str, Callable[..., Any]], limit: int | None = None) -> list[Mutant]:
    """Every mutant of every solver (distinct mutated sources), in a fixed order; at most
    ``limit`` (0: none).

    >>> make_mutants({"f": make_mutants}, 0)
    []
    """
    out: list[Mutant] = []
    if limit is not None and limit <= 0:
        return out
    for solver_name in sorted(solvers):
        module, name, owner = _target(solvers[solver_name])
        source = inspect.getsource(module)
        tree = ast.parse(source)
        functions = _functions(tree, name, owner)
        seen: set[str] = set()
        path = getattr(module, "__file__", module.__name__)
        short = "/".join(str(path).split("/")[-2:])
        for k, (fi, ni, kind, detail) in enumerate(_sites(functions)):
            # changed in place, written out, then put back (a copy of the whole module per
            # mutant is what made this slow)
            target_f = functions[fi]
            node = list(ast.walk(target_f))[ni]
            saved = copy.deepcopy(node)
            what = _apply(node, kind, detail)
            ast.fix_missing_locations(node)
            try:
                text = ast.unparse(tree)
            except Exception:  # noqa: BLE001 - a change that cannot be written back is no mutant
                text = ""
            for name_ in node._fields:
                setattr(node, name_, getattr(saved, name_))
            if not text:
                continue
            if text in seen:
                continue
            seen.add(text)
            line = getattr(node, "lineno", target_f.lineno)
            out.append(
                Mutant(
                    f"{solver_name}~{k + 1}",
                    solver_name,
                    kind,
                    f"{short}:{line} ({target_f.name})",
                    what,
                    text,
                )
            )
            if limit is not None and len(out) >= limit:
                return out
    return out


def load(mutant_source: str, solver: Callable[..., Any], tag: str) -> Callable[..., Any]:
    """The solver as defined by ``mutant_source`` (a whole module's text), in a fresh module."""
    module, name, owner = _target(solver)
    fresh = types.ModuleType(f"{module.__name__}__{tag}")
    fresh.__file__ = getattr(module, "__file__", None)
    sys.modules[fresh.__name__] = fresh
    exec(compile(mutant_source, f"<{tag} of {module.__name__}>", "exec"), fresh.__dict__)  # noqa: S102 - the project's own solver code, changed
    if owner is None:
        return fresh.__dict__[name]
    obj = solver.__self__  # type: ignore[attr-defined]  # (a bound method: it has an owner)
    cls = fresh.__dict__[owner]
    kwargs = {
        f.name: getattr(obj, f.name)
        for f in dataclasses.fields(obj)
        if f.init and not f.name.startswith("_")
    }
    return getattr(cls(**kwargs), name)


class _Timeout(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def _verdict(
    game: Any, instance: Any, fn: Callable[..., Any], expected: Any, bound: float
) -> tuple[str, str] | None:
    from gamecert.kit.tokens import verdict_of

    signal.setitimer(signal.ITIMER_REAL, bound)
    try:
        got = fn(instance)
        text = game.format_answer(got)
    except _Timeout:
        # the bound is ten times the slowest registered solver's time on the input (at least 0.5 s):
        # the kill's margin, stated in the cell
        return "TLE >10x solver", f"over the in-process bound of {bound:.2f} s"
    except RecursionError:
        return "RE", "RecursionError"
    except Exception as exc:  # noqa: BLE001 - a mutant's crash is its verdict
        return "RE", f"{type(exc).__name__}: {str(exc)[:80]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        gamecode.timer_taken()  # the sections' alarm, replaced, is armed again
    verdict, why = verdict_of(game, instance, text, expected)
    return None if verdict.value == "OK" else (verdict.value, why[:160])


def _child(
    game: Any,
    solvers: dict[str, Callable[..., Any]],
    mutants: Sequence[Mutant],
    instances: Sequence[Any],
    expected: Sequence[Any],
    bounds: Sequence[float],
    order: Sequence[int],
    kill_cap: int,
    budget: float,
    fd: int,
) -> None:
    signal.signal(signal.SIGALRM, _alarm)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    try:
        import resource

        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        cap = pages * os.sysconf("SC_PAGE_SIZE") + (1 << 30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (OSError, ValueError, ImportError):
        pass
    out = os.fdopen(fd, "w")
    for k, m in enumerate(mutants):
        out.write(json.dumps({"start": k}) + "\n")
        out.flush()
        kills: list[list[Any]] = []
        done = True
        try:
            fn = load(m.source, solvers[m.solver], f"mutant{k}")
        except BaseException as exc:  # noqa: BLE001 - a mutant that does not load fails every input
            kills = [[order[0], "RE", f"does not load: {type(exc).__name__}"]] if order else []
            out.write(
                json.dumps({"done": k, "kills": kills, "complete": True, "tried": len(kills)})
                + "\n"
            )
            out.flush()
            continue
        start = time.perf_counter()
        tried = 0
        for i in order:
            if kill_cap and len(kills) >= kill_cap:
                break
            if time.perf_counter() - start > budget:
                done = False
                break
            tried += 1
            try:
                found = _verdict(game, instances[i], fn, expected[i], bounds[i])
            except BaseException as exc:  # noqa: BLE001 - even the judge may choke on a wild answer
                found = ("RE", f"{type(exc).__name__}")
            if found is not None:
                kills.append([i, *found])
        complete = done and not (kill_cap and len(kills) >= kill_cap)
        out.write(
            json.dumps(
                {
                    "done": k,
                    "kills": kills,
                    "complete": complete,
                    "budget": not done,
                    "tried": tried,
                }
            )
            + "\n"
        )
        out.flush()
    out.close()


@dataclass
class MutantResult:
    """Which inputs (indices) kill a mutant, with verdicts; ``complete``: every input was tried;
    ``status``: ``ok``, ``budget`` (its time ran out before every input was tried) or ``hung``."""

    kills: dict[int, tuple[str, str]]
    complete: bool
    status: str = "ok"
    #: the inputs (indices) it was tried on
    tried: frozenset[int] = frozenset()


def evaluate(
    game: Any,
    solvers: dict[str, Callable[..., Any]],
    mutants: Sequence[Mutant],
    instances: Sequence[Any],
    expected: Sequence[Any],
    bounds: Sequence[float],
    order: Sequence[int] | None = None,
    kill_cap: int = 0,
    budget: float = 20.0,
    progress: Callable[[int], None] | None = None,
) -> list[MutantResult]:
    """Each mutant on the inputs (in ``order``), in a forked child; up to ``kill_cap`` kills
    each (0: every input), at most ``budget`` seconds each; ``progress(n)`` is told the mutants
    judged so far."""
    order = list(range(len(instances))) if order is None else list(order)
    results: list[MutantResult | None] = [None] * len(mutants)
    first = 0
    stall = budget + max(bounds, default=1.0) + 10.0
    while first < len(mutants):
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            try:
                os.close(rfd)
                _child(
                    game,
                    solvers,
                    mutants[first:],
                    instances,
                    expected,
                    bounds,
                    order,
                    kill_cap,
                    budget,
                    wfd,
                )
            finally:
                os._exit(0)
        os.close(wfd)
        current = first
        buf = b""
        alive = True
        while alive:
            ready, _, _ = select.select([rfd], [], [], stall)
            if not ready:  # hung (a loop the alarm cannot stop): kill it, go on after that mutant
                os.kill(pid, signal.SIGKILL)
                results[current] = MutantResult({}, False, "hung")
                break
            chunk = os.read(rfd, 1 << 16)
            if not chunk:
                alive = False
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                msg = json.loads(line)
                if "start" in msg:
                    current = first + msg["start"]
                else:
                    k = first + msg["done"]
                    kills = {int(i): (v, why) for i, v, why in msg["kills"]}
                    results[k] = MutantResult(
                        kills,
                        msg["complete"],
                        "budget" if msg.get("budget") else "ok",
                        frozenset(order[: msg.get("tried", 0)]) | frozenset(kills),
                    )
                    current = k + 1
                    if progress is not None:
                        progress(sum(r is not None for r in results))
        os.close(rfd)
        os.waitpid(pid, 0)
        if current < len(mutants) and results[current] is None:
            results[current] = MutantResult({}, False, "hung")  # the child died or stalled on it
        while first < len(mutants) and results[first] is not None:
            first += 1
    return [r if r is not None else MutantResult({}, False, "hung") for r in results]
