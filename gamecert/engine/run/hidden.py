"""What of the harness a sandbox must not show: gamecert's own package, its games and its
virtual environment, wherever the sandbox's read-only view would otherwise include them.

The sandbox binds the base Python installation (:func:`gamecert.engine.run.contain.python_paths`)
and the system folders. Where gamecert is installed into that installation (pip without a
virtual environment) or below ``/usr``, its package, with the games' oracles, would be readable
and importable by a candidate. :func:`harness_paths` lists what to hide:

* the folder of the running ``gamecert`` package, and the checkout's game folders beside it
  (``oracles``, ``fast``, ``strategies``, ``proofs``);
* every games folder ``GAMECERT_GAMES`` names;
* the virtual environment gamecert runs in (``sys.prefix``, when it is not the base);
* in the site folders of the interpreter the sandbox runs (asked once per process), every entry
  named for gamecert: the package, its ``.dist-info`` or ``.egg-info``, an editable install's
  ``.pth`` and finder, a ``gamecert`` script in its ``bin``.

:mod:`gamecert.engine.run.contain` covers each one that lies inside what the sandbox shows: a
folder with an empty tmpfs no one may read, a file with ``/dev/null``. A game installed as a
separate distribution (an entry point) is not found here.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

#: the game folders of a checkout, beside the package
PARTS = ("oracles", "fast", "strategies", "proofs")

#: run by the sandbox's interpreter: its site folders' entries named for gamecert, and its scripts
_ASK = """\
import json, os, re, site, sys, sysconfig
named = re.compile(r"^(__editable__[._-]*)?gamecert([._-]|$)", re.IGNORECASE)
folders = [*site.getsitepackages(), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
folders += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
found = []
for folder in dict.fromkeys(folders):
    try:
        found += [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if named.match(n)]
    except OSError:
        pass
scripts = sysconfig.get_paths()["scripts"]
found += [os.path.join(scripts, n) for n in ("gamecert",) if os.path.exists(os.path.join(scripts, n))]
print(json.dumps({"found": found, "folders": [*dict.fromkeys(folders), scripts]}))
"""

#: the site folders each interpreter named when it was last asked: their change times say when
#: the answer is stale (an install made or removed since)
_site_folders: dict[str, tuple[str, ...]] = {}


def harness_paths(interpreter: str) -> list[str]:
    """The paths of the harness, resolved and existing now, for a sandbox running ``interpreter``.
    The interpreter is asked again when one of its site folders changed since it was last asked
    (an install made or removed since); a path gone since is left out (bubblewrap cannot cover
    what is not there)."""
    stamp = _stamp(_site_folders.get(interpreter, ()))
    paths = _harness_paths(
        interpreter, sys.prefix, sys.base_prefix, os.environ.get("GAMECERT_GAMES", ""), stamp
    )
    return [p for p in paths if os.path.lexists(p)]


def _stamp(folders: tuple[str, ...]) -> tuple[int, ...]:
    out = []
    for folder in folders:
        try:
            out.append(os.stat(folder).st_mtime_ns)
        except OSError:
            out.append(-1)
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _harness_paths(
    interpreter: str, prefix: str, base_prefix: str, games: str, stamp: tuple[int, ...]
) -> tuple[str, ...]:
    package = os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    )  # gamecert/
    paths = [package, *(os.path.join(os.path.dirname(package), part) for part in PARTS)]
    paths += [p for p in games.split(os.pathsep) if p]
    if os.path.realpath(prefix) != os.path.realpath(base_prefix):
        paths.append(prefix)
    paths += _ask(interpreter)
    out: list[str] = []
    for path in paths:
        for one in dict.fromkeys((os.path.abspath(path), os.path.realpath(path))):
            if os.path.lexists(one) and one not in out and one != "/":
                out.append(one)
    return tuple(out)


def _ask(interpreter: str) -> list[str]:
    """The entries named for gamecert in ``interpreter``'s site folders ([] if it cannot say);
    the folders it looked in are kept in :data:`_site_folders`."""
    try:
        done = subprocess.run(
            [interpreter, "-I", "-S", "-c", _ASK],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=30,
            check=False,
        )
        said = json.loads(done.stdout.decode() or "{}") if done.returncode == 0 else {}
        found, folders = said.get("found", []), said.get("folders", [])
    except (OSError, subprocess.SubprocessError, ValueError, AttributeError):
        return []
    _site_folders[interpreter] = tuple(f for f in folders if isinstance(f, str))
    return [p for p in found if isinstance(p, str)]
