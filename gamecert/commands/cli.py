"""The ``gamecert`` command line. Each subcommand's work lives in its own module.

Exit status: 0 certified / nothing found, 1 a wrong answer or fault found, 2 a usage or input
error (one clear line on stderr, never a traceback), 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from gamecert.commands.files import read_text
from gamecert.engine import interrupts
from gamecert.errors import GamecertError, GameError

EXIT_OK, EXIT_FOUND, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class _Parser(argparse.ArgumentParser):
    def error(
        self, message: str
    ) -> NoReturn:  # argparse's own errors: same exit status and one line
        print(f"gamecert: error: {message} (see `{self.prog} --help`)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def version() -> str:
    """gamecert's version: the installed distribution's, else ``gamecert.__version__`` (a checkout)."""
    from importlib import metadata

    import gamecert

    try:
        return metadata.version("gamecert")
    except metadata.PackageNotFoundError:
        return gamecert.__version__


#: the platforms the sandbox runs on: it needs Linux (/proc, prctl, bubblewrap's namespaces)
SANDBOX_PLATFORMS = ("linux",)


def require_sandbox_platform(what: str, platform: str | None = None) -> None:
    """A :class:`UsageError` (one line) if ``what`` needs the sandbox and this OS has none.

    >>> require_sandbox_platform("replay", "linux")
    >>> require_sandbox_platform("replay", "darwin")
    Traceback (most recent call last):
    gamecert.errors.UsageError: replay runs a candidate in gamecert's sandbox, which needs Linux (it uses /proc, prctl and Linux namespaces); this system is darwin
    """
    from gamecert.errors import UsageError

    platform = sys.platform if platform is None else platform
    if not platform.startswith(SANDBOX_PLATFORMS):
        raise UsageError(
            f"{what} runs a candidate in gamecert's sandbox, which needs Linux "
            f"(it uses /proc, prctl and Linux namespaces); this system is {platform}"
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gamecert", description="Certify solvers of combinatorial games, with evidence."
    )
    parser.add_argument("--version", action="version", version=f"gamecert {version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sub.add_parser("list", help="list every registered game with its solvers")

    c = sub.add_parser("certify", help="certify a candidate program, or the registered solvers")
    c.add_argument("game", help="a game name, or 'all'")
    c.add_argument(
        "candidates",
        nargs="*",
        metavar="CANDIDATE",
        help="a source file (.cpp .cc .cxx .c .java .rs .go .js .py), an executable, a quoted command "
        "line, or a folder of source files; several are certified one after another, then summed up",
    )
    c.add_argument(
        "--examples",
        type=int,
        default=None,
        metavar="N",
        help="random cases (default: from the profile)",
    )
    c.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="random seed (default: chosen and reported)",
    )
    c.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="per test (default: the problem's)",
    )
    c.add_argument(
        "--memory-limit",
        type=int,
        default=None,
        metavar="MB",
        help="memory per test (default: the problem's)",
    )
    c.add_argument(
        "--report-dir", default=None, metavar="DIR", help="where reports go (default reports/)"
    )
    c.add_argument("--profile", default=None, choices=["quick", "default", "ci", "thorough"])
    c.add_argument(
        "--exhaustive-runs",
        type=int,
        default=None,
        metavar="N",
        help="candidate runs spent on exhaustive small inputs (default: from the profile)",
    )
    c.add_argument(
        "--no-fork-server",
        action="store_true",
        help="start a fresh process per test (slow baseline)",
    )
    c.add_argument(
        "--budget",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long to look (default: the profile's: quick 10, default 60, thorough 900)",
    )
    c.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="runners in parallel (default: every core)",
    )
    c.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when nothing was found but the evidence is incomplete (PASSED (incomplete))",
    )
    c.add_argument(
        "--phases",
        default=None,
        metavar="LIST",
        help="run only these phases (comma-separated: coverage, worst, exhaustive, guided, random, largest; "
        "samples always run); the certificate says which ran",
    )
    c.add_argument(
        "--no-contain",
        action="store_true",
        help="run the candidate NOT contained (no sandbox: it can read and write the user's files)",
    )
    c.add_argument(
        "--compile",
        default=None,
        metavar="CMD",
        help="compile command for a source candidate, with {src} {exe} {dir} {class} (see docs/certify.md)",
    )
    c.add_argument(
        "--python",
        default=None,
        metavar="INTERPRETER",
        help="run a .py candidate with this interpreter (e.g. pypy3) instead of gamecert's own Python",
    )

    r = sub.add_parser("replay", help="re-run a report's input on its candidate, or on another one")
    r.add_argument(
        "report_dir",
        metavar="REPORT",
        help="a report folder written by certify, or any file in it (report.md, input.in)",
    )
    r.add_argument(
        "--candidate",
        default=None,
        metavar="OTHER",
        help="run the saved input on this program instead of the report's (same limits)",
    )

    k = sub.add_parser(
        "check", help="check claimed examples (input and claimed answer) against the oracle"
    )
    k.add_argument("game")
    k.add_argument("file", metavar="FILE")

    p = sub.add_parser("prove", help="check a game's claims and print their evidence")
    p.add_argument("game", help="a game name, or 'all'")
    p.add_argument(
        "--plot-dir", default=None, metavar="DIR", help="write Grundy-sequence plots here"
    )

    n = sub.add_parser(
        "new-game", help="scaffold a new game: its four parts, broken solvers and examples"
    )
    n.add_argument("name")
    n.add_argument(
        "--dir",
        default=None,
        metavar="DIR",
        help="write it into this games folder (found through GAMECERT_GAMES=DIR); "
        "default: the source checkout gamecert runs from",
    )
    n.add_argument(
        "--octal", default=None, metavar="CODE", help="make it the heap game with this octal code"
    )

    s = sub.add_parser(
        "show",
        help="a game at a glance: rules, formats, limits, samples, what its evidence rests on",
    )
    s.add_argument("game")

    v = sub.add_parser(
        "coverage", help="what a game's strategies reach: a histogram of their examples' features"
    )
    v.add_argument("game")
    v.add_argument(
        "--examples", type=int, default=500, metavar="N", help="examples to draw (default 500)"
    )

    e = sub.add_parser(
        "explain",
        help="explain a position: components, Grundy values, winning moves; "
        "or a report folder: its position and when the program fails",
    )
    e.add_argument("game", help="a game, or a report folder (gamecert explain REPORT_DIR)")
    e.add_argument(
        "input", metavar="FILE", nargs="?", default=None, help="an input file, or - for stdin"
    )

    from gamecert.commands.tests_cmd import add_parser as add_tests_parser

    add_tests_parser(sub)
    return parser


def _list() -> int:
    """Every game on one line: its title and solvers, or why it does not load; exit 2 if any does
    not. A game whose own code fails while it is listed (an unfinished title, a name that
    raises) is named on its line; the other games are listed all the same."""
    from gamecert.commands.screen import echo
    from gamecert.engine import registry
    from gamecert.engine.gamecode import blame

    lines: dict[str, str] = {}
    problems = 0
    for name in registry.game_names():
        try:
            entry = registry.get(name)
            marked = _still_marked(entry)
            title = entry.game.title
            if marked or not isinstance(title, str):
                problems += 1
                where = registry._source_of(name)[0].path("oracles", name)  # noqa: SLF001
                lines[name] = (
                    registry.Problem(name, "UNFINISHED", marked)
                    if marked
                    else registry.Problem(
                        name, "BROKEN", f"{where}: its title is {title!r}, not text"
                    )
                ).describe()
                continue
            lines[name] = f"{name}: {title}; solvers: {', '.join(sorted(entry.solvers))}"
        except GamecertError as exc:
            problems += 1
            lines[name] = registry.Problem(name, registry._state(str(exc)), str(exc)).describe()  # noqa: SLF001
        except Exception as exc:  # the game's code failed: named, and the others are listed
            blamed = blame(exc, name, "listing the game")
            if blamed is None:
                raise
            problems += 1
            lines[name] = registry.Problem(name, "BROKEN", str(blamed)).describe()
    for name in sorted(lines):
        echo(lines[name])
    return EXIT_USAGE if problems else EXIT_OK


def _still_marked(entry: Any) -> str:
    """What a loaded game still has marked @todo or todo_value (its modules' UNFINISHED line
    dropped by hand, the marks left), with the file: "" when nothing is."""
    from gamecert.engine import registry
    from gamecert.kit.todo import unfinished

    source = registry._source_of(entry.name)[0]  # noqa: SLF001 - where the game's files are
    cls = type(entry.game)
    found = [
        (
            source.path("oracles", entry.name),
            unfinished({"__name__": cls.__module__, cls.__name__: cls}),
        )
    ]
    found += [
        (
            source.path("fast", entry.name),
            unfinished({"__name__": getattr(f, "__module__", None), n: f}),
        )
        for n, f in sorted(entry.solvers.items())
    ]
    found += _examples_to_write(source, entry.name)
    return "; ".join(f"{where}: {text}" for where, text in found if text)


#: what a scaffolded example candidate says until it is written (gamecert new-game's template)
EXAMPLE_STUB = "is still to write"


def _examples_to_write(source: object, name: str) -> list[tuple[str, str]]:
    """The game's example candidates (``examples/NAME/*``) that are still new-game's stub, which
    exits saying it "is still to write": a game is not finished while they are."""
    from gamecert.engine import registry

    if source.kind == "project":  # type: ignore[attr-defined]
        root, shown = registry.checkout_root(), f"examples/{name}"
    elif source.kind == "folder":  # type: ignore[attr-defined]
        root = Path(source.where)  # type: ignore[attr-defined]
        shown = str(root / "examples" / name)
    else:
        return []
    folder = root / "examples" / name if root is not None else None
    if folder is None or not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.iterdir()):
        try:
            text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        except OSError:
            continue
        if f"example candidate for {name} {EXAMPLE_STUB}" in text:
            out.append(
                (f"{shown}/{path.name}", "still to write (it is new-game's stub, which only exits)")
            )
    return out


def _explain(game: str, path: str | None) -> int:
    from gamecert.engine import registry

    if path is None:  # a report folder: its position, and when the program fails (the diagnosis)
        from pathlib import Path

        from gamecert.engine.report.diagnosis import diagnosis_markdown
        from gamecert.engine.report.report_files import read_report
        from gamecert.errors import UsageError

        if not Path(game).is_dir() and game in registry.game_names():
            raise UsageError(
                f"explain {game} needs an input FILE (or - for stdin); a report folder goes alone"
            )
        report = read_report(game)
        print(f"{report.verdict} on {report.game}, input of size {report.size}:\n")
        print(str(report.explanation).rstrip())
        try:
            print(
                "\n".join(diagnosis_markdown(report.diagnosis)) or "\n(no diagnosis in this report)"
            )
        except (AttributeError, KeyError, TypeError, ValueError):
            print("\n(this report's diagnosis cannot be read)")
        return EXIT_OK
    entry = registry.get(game)
    text = read_text(path)
    instance = entry.game.parse_input(text)
    from gamecert.engine.gamecode import section

    with section(game, "explain()"):
        explained = entry.game.explain(instance).describe()
    show_markdown(explained)
    return EXIT_OK


def show_markdown(text: str) -> None:
    """Markdown (an explanation, as report.md holds it) rendered by rich on a terminal: bold,
    tables drawn, lists; to a file or a pipe the markdown itself, unchanged."""
    if not sys.stdout.isatty():
        print(text)
        return
    from rich.console import Console
    from rich.markdown import Markdown

    from gamecert.commands.screen import columns

    Console(file=sys.stdout, width=columns()).print(Markdown(text))


def _coverage(game: str, examples: int) -> int:
    from gamecert.commands.screen import Live
    from gamecert.engine import registry
    from gamecert.errors import UsageError
    from gamecert.kit.coverage import collect, render

    if examples < 1:
        raise UsageError(f"--examples must be at least 1, got {examples}")
    entry = registry.get(game)
    drawn = [0]

    def features(
        instance: Any,
    ) -> Any:  # each example counted on the live line as it is drawn
        drawn[0] += 1
        live.counted("examples drawn", drawn[0], examples)
        return entry.features(instance)

    with Live(f"coverage {game}") as live:
        live.step("drawing examples from the strategies")
        counts = collect(entry.instances, features, examples)
    print(render(counts))
    return EXIT_OK


class _QuietStream:
    """Standard output (or error) that stops writing, without an error, once its reader has gone.

    Output piped into ``head`` (or any reader that quits early) must not stop a command half
    way: a certification still writes its report and exits with its real status; only the
    text nobody reads any more is dropped.
    """

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.closed_pipe = False

    def _gone(self) -> None:
        import os

        self.closed_pipe = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())  # later writes (and the final flush) vanish
            os.close(devnull)
        except (OSError, ValueError):
            pass

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._gone()
        return len(text)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._gone()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def dispatch(args: argparse.Namespace) -> int:
    if args.command == "list":
        return _list()
    if args.command == "explain":
        return _explain(args.game, args.input)
    if args.command == "coverage":
        return _coverage(args.game, args.examples)
    if args.command == "certify":
        args.candidate = args.candidates[0] if args.candidates else None
        if args.candidate is None:
            from gamecert.commands.certify_all import certify_registered_command

            return certify_registered_command(args)
        require_sandbox_platform("certify with a candidate")
        from gamecert.commands.certify import certify_candidate_command

        return certify_candidate_command(args)
    if args.command == "replay":
        require_sandbox_platform("replay")
        from gamecert.commands.certify import replay_command

        return replay_command(args)
    if args.command == "check":
        from gamecert.commands.check import check_command

        return check_command(args)
    if args.command == "prove":
        from gamecert.commands.prove import prove_command

        return prove_command(args)
    if args.command == "show":
        from gamecert.commands.show import show_command

        return show_command(args)
    if args.command == "tests":
        from gamecert.commands.tests_cmd import run_tests_command

        return run_tests_command(args)
    if args.command == "new-game":
        from gamecert.commands.new_game import new_game_command

        return new_game_command(args)
    raise AssertionError(args.command)


def _interrupt_on_sigterm(signum: int, frame: object) -> None:
    # a terminated run (a CI timeout, `kill`) keeps what it found, as Ctrl-C does
    interrupts.on_interrupt(signum, frame)


def main(argv: Sequence[str] | None = None) -> int:
    import signal
    import time

    import gamecert
    from gamecert.engine.fault_time import command_started

    args = build_parser().parse_args(argv)
    # run as a command (no argv given): the budget's overrun counts from the process's import of
    # gamecert; called in-process with argv (a test), from now; cleared when the command ends, so
    # that no later certification in the same process counts from it
    command_started(min(time.monotonic(), gamecert.STARTED) if argv is None else time.monotonic())
    interrupts.install()
    stdout, stderr = sys.stdout, sys.stderr
    if stdout is not None and not isinstance(stdout, _QuietStream):
        sys.stdout = _QuietStream(stdout)
    if stderr is not None and not isinstance(stderr, _QuietStream):
        sys.stderr = _QuietStream(stderr)
    try:
        previous = signal.signal(signal.SIGTERM, _interrupt_on_sigterm)
    except ValueError:  # not the main thread: leave SIGTERM alone
        previous = None
    try:
        return dispatch(args)
    except GameError as exc:  # the game author's mistake, named: never a candidate's, never exit 1
        _error(f"gamecert: {exc}")
        return EXIT_USAGE
    except GamecertError as exc:
        _error(f"gamecert: error: {exc}")
        return EXIT_USAGE
    except Exception as exc:
        from gamecert.engine.gamecode import blame

        blamed = blame(exc)
        if blamed is None:
            raise  # gamecert's own bug: the traceback is for its developers
        _error(f"gamecert: {blamed}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        _error("gamecert: interrupted")
        return EXIT_INTERRUPTED
    finally:
        command_started(None)
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        for name, original in (("stdout", stdout), ("stderr", stderr)):
            if getattr(sys, name) is not original:
                try:
                    getattr(sys, name).flush()
                finally:
                    setattr(sys, name, original)


def _error(line: str) -> None:
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):  # stderr closed or gone: the exit status says it
        pass


if __name__ == "__main__":
    sys.exit(main())
