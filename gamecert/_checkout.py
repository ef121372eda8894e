"""The game folders of a source checkout, imported under ``gamecert``.

The repository keeps ``oracles/``, ``fast/``, ``strategies/`` and ``proofs/`` beside the
``gamecert/`` package; an installation (``pip install .``) puts them inside it, so they are
importable only as ``gamecert.oracles`` and so on. When ``gamecert`` itself is imported from a
checkout (``PYTHONPATH=checkout``, an editable install, or a copy of the project), this finder
makes ``gamecert.PART`` that checkout's folder ``PART``, never a top-level ``PART``.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

#: the game folders, in the order the registry reads them
PARTS = ("oracles", "fast", "strategies", "proofs")


class CheckoutParts(importlib.abc.MetaPathFinder):
    """Find ``gamecert.PART`` in the checkout ``root`` (only the four part packages)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of ``gamecert.PART`` from ``root/PART``; None for every other name.

        >>> finder = CheckoutParts(Path(__file__).resolve().parent.parent)
        >>> finder.find_spec("oracles") is None
        True
        """
        package, _, part = fullname.partition(".")
        if package != "gamecert" or part not in PARTS:
            return None
        init = self.root / part / "__init__.py"
        if not init.is_file():
            return None
        return importlib.util.spec_from_file_location(
            fullname, init, submodule_search_locations=[str(init.parent)]
        )


def checkout_root(package_dir: Path) -> Path | None:
    """The checkout holding ``package_dir`` (the gamecert folder), or None when installed.

    A checkout has ``pyproject.toml`` beside ``gamecert/`` and its part folders outside it.
    """
    root = package_dir.resolve().parent
    if (package_dir / "oracles").is_dir() or not (root / "pyproject.toml").is_file():
        return None
    return root if (root / "oracles" / "__init__.py").is_file() else None


def install(package_dir: Path) -> None:
    """Put a :class:`CheckoutParts` first on ``sys.meta_path`` when ``package_dir`` is in a checkout."""
    root = checkout_root(package_dir)
    if root is None:
        return
    if any(isinstance(f, CheckoutParts) and f.root == root for f in sys.meta_path):
        return
    sys.meta_path.insert(0, CheckoutParts(root))
