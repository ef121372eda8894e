"""The markers of a game still being written: :func:`todo` on a function, :func:`todo_value` for
a value, and ``UNFINISHED = unfinished(globals())`` at the end of the module, which lists what is
still marked (the registry refuses a module whose list is not empty, naming each part and line).
``gamecert new-game`` writes every part of a new game with these marks.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
_MARK = "__gamecert_todo__"


def todo(func: F) -> F:
    """Mark ``func`` as a stub still to write; calling it raises ``NotImplementedError``.

    >>> @todo
    ... def solve(instance):
    ...     "One solver."
    >>> solve(1)
    Traceback (most recent call last):
    NotImplementedError: solve in gamecert.kit.todo is a stub marked @todo: write it, then delete the mark
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
