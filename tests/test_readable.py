"""Reports people can read: control bytes escaped, the verdict word once, multi-line values as
blocks, and explanations beyond the oracle's reach from the proven reductions.

Each check runs a program or an input that breaks it when the feature is missing: a candidate
printing NUL and ESC, one that runs out of time, one whose expected answer has two lines, and
inputs far past the oracles' reach whose explanations are compared with the fast solvers.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

from gamecert.fast.digit_game import closed_form, play_out
from gamecert.fast.string_cut import (
    cuttable_runs,
    periodic_table,
    quadratic_dp,
    run_grundy_dp,
)
from gamecert.oracles.digit_game import GAME as DIGITS
from gamecert.oracles.string_cut import GAME as STRINGS

from gamecert.engine.report.reports import FailureReport

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GAMECERT_EXHAUSTIVE_RUNS="5")
    proc = subprocess.run(
        [sys.executable, "-m", "gamecert", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc


def certify(
    tmp_path: Path, game: str, source: str, *extra: str
) -> tuple[subprocess.CompletedProcess[str], Path]:
    program = tmp_path / "cand.py"
    program.write_text(source)
    proc = run(
        "certify",
        game,
        str(program),
        "--profile",
        "quick",
        "--examples",
        "0",
        "--seed",
        "4",
        "--jobs",
        "1",
        "--report-dir",
        str(tmp_path / "reports"),
        *extra,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return proc, Path(proc.stdout.strip().splitlines()[-1])


def test_control_bytes_are_escaped_in_report_md_and_on_the_terminal(tmp_path):
    proc, path = certify(
        tmp_path,
        "word_game",
        "import sys\nsys.stdin.read()\nsys.stdout.write('Alice\\x1b[2J\\x00\\u200b\\n')\n",
    )
    md = (path / "report.md").read_text()
    for raw in ("\x1b", "\x00", "\u200b"):
        assert raw not in md and raw not in proc.stdout
    assert "Alice\\x1b[2J\\x00\\u200b" in md and "Alice\\x1b[2J\\x00\\u200b" in proc.stdout
    assert "`report.json` keeps the exact text" in md
    assert json.loads((path / "report.json").read_text())["got"] == "Alice\x1b[2J\x00\u200b\n"


def test_the_verdict_word_appears_once_in_the_reason_lines(tmp_path):
    proc, path = certify(
        tmp_path,
        "word_game",
        "import sys\nsys.stdin.read()\nwhile True:\n    pass\n",
        "--time-limit",
        "0.3",
        "--exhaustive-runs",
        "0",
    )
    data = json.loads((path / "report.json").read_text())
    assert data["verdict"] == "TLE"
    assert not data["reason"].startswith("TLE")
    verdict_line = next(
        line
        for line in (path / "report.md").read_text().splitlines()
        if line.startswith("- **Verdict:**")
    )
    assert verdict_line.count("TLE") == 1, verdict_line
    why = next(line for line in proc.stdout.splitlines() if line.strip().startswith("why:"))
    assert "TLE" not in why, why


def test_a_doubled_verdict_in_a_stored_reason_is_shown_once():
    report = FailureReport(
        "word_game",
        "c",
        "c.py",
        "TLE",
        "time limit exceeded",
        "A\n",
        "Alice\n",
        "",
        "TLE: TLE: CPU time limit 2 s exceeded (2.40 s)",
        1,
        "quick",
        "samples",
        1,
        "",
        "now",
    )
    line = next(x for x in report.describe().splitlines() if x.startswith("- **Verdict:**"))
    assert line == "- **Verdict:** TLE: CPU time limit 2 s exceeded (2.40 s)"
    assert report.to_json()["reason"] == "CPU time limit 2 s exceeded (2.40 s)"


def test_multi_line_values_are_blocks_on_the_terminal_and_in_replay(tmp_path):
    proc, path = certify(tmp_path, "string_cut", "import sys\nsys.stdin.read()\nprint('Second')\n")
    replay = run("replay", str(path))
    assert replay.returncode == 1
    for out in (proc.stdout, replay.stdout):
        assert " / " not in out
        assert re.search(r"expected:\n    First\n    \d+\n", out), out
    assert "```text\nFirst\n" in (path / "report.md").read_text()


def test_string_cut_explained_at_5000_letters_agrees_with_the_fast_solvers():
    rng = random.Random(11)
    strings = ["a" * 5000, "ab" * 2500]
    strings += [
        "".join(rng.choice(alphabet) for _ in range(5000))
        for alphabet in ("ab", "aab", "abc", "aaaab")
    ]
    for s in strings:
        e = STRINGS.explain(s)
        smallest = periodic_table(s)
        assert smallest == quadratic_dp(s)
        assert e.first_player_wins == (smallest is not None)
        runs_value = 0
        for _, length in cuttable_runs(s):
            runs_value ^= run_grundy_dp(length)
        assert e.total == runs_value
        cuts = [int(m.split()[-1]) for m in e.winning_moves if m.startswith("cut at")]
        assert bool(cuts) == e.first_player_wins
        if cuts:
            assert cuts[0] == smallest
        for (
            p
        ) in cuts:  # each listed cut leaves value 0, by the quadratic DP on the pieces it leaves
            value = 0
            for piece in (s[: p - 1], s[p:]):
                for _, length in cuttable_runs(piece):
                    value ^= run_grundy_dp(length)
            assert value == 0, (s[:20], p)
        assert any("proven reductions" in note and "periodic table" in note for note in e.notes)


def test_digit_game_explained_at_n_1000_agrees_with_the_fast_solvers():
    rng = random.Random(12)
    games = ["1" + "2" * 999, "2" * 999 + "1", "1" * 1000, "2" + "1" * 998 + "2", "2" * 999 + "3"]
    games += [
        str(rng.randint(1, 9)) + "".join(rng.choice(pool) for _ in range(998 + rng.randint(0, 1)))
        for pool in ("0123456789", "13579", "02468", "1111112")
    ]
    for digits in games:
        (winner,) = closed_form((digits,))
        assert play_out((digits,)) == (winner,)
        e = DIGITS.explain((digits,))
        assert e.first_player_wins == (winner == 1) and e.outcome.endswith(f"({winner})")
        assert any("proven reductions" in note for note in e.notes)
        # the full line of play is legal and ends with the winner's parity left
        full = DIGITS.explain_by_rule(digits, shown=10**6).line_of_play
        marked = [int(re.search(r"position (\d+)", m).group(1)) for m in full[:-1]]
        assert len(marked) == len(set(marked)) == len(digits) - 1
        assert all(p % 2 == (1 if k % 2 == 0 else 0) for k, p in enumerate(marked))
        last = int(re.search(r"position (\d+)", full[-1]).group(1))
        assert int(digits[last - 1]) % 2 == (1 if winner == 1 else 0)


def test_explain_command_and_reports_beyond_reach(tmp_path):
    text = tmp_path / "long.in"
    text.write_text("ab" * 2500 + "\n")
    out = run("explain", "string_cut", str(text))
    assert out.returncode == 0 and "Beyond the oracle's reach" in out.stdout
    # a report beyond the oracle's reach: a program wrong only for n > 400
    wrong_big = (
        "import sys\ndata = sys.stdin.read().split()\nout = []\n"
        "for g in range(int(data[0])):\n    n, d = int(data[1 + 2 * g]), data[2 + 2 * g]\n"
        "    w = (1 if any(int(c) % 2 for c in d[0::2]) else 2) if n % 2 else "
        "(2 if any(int(c) % 2 == 0 for c in d[1::2]) else 1)\n"
        "    out.append(str(3 - w if n > 400 else w))\nprint('\\n'.join(out))\n"
    )
    # the largest phase alone (samples always run) reaches n > 400 on its first input; with every
    # phase the sweep and shrink after the worst family's fault took ~15 s and checked nothing here
    _, path = certify(tmp_path, "digit_game", wrong_big, "--phases", "largest")
    data = json.loads((path / "report.json").read_text())
    assert data["size"] > DIGITS.oracle_reach
    assert "Beyond the oracle's reach" in (path / "report.md").read_text()


#: one of each kind of character that must never reach a terminal or report.md as it is, with
#: the escape it must show as: controls (Cc), format characters (Cf: zero-width, BOM, bidi),
#: separators (Zl, Zp, Zs), private use (Co), unassigned (Cn), default-ignorable marks and letters
#: (U+034F, variation selectors, a Hangul filler), a combining mark standing alone (Mn)
HOSTILE = {
    "\x1b": r"\x1b",
    "\x00": r"\x00",
    "\x07": r"\x07",
    "\x9b": r"\x9b",
    "\u200b": r"\u200b",
    "\u200d": r"\u200d",
    "\ufeff": r"\ufeff",
    "\u202e": r"\u202e",
    "\u2066": r"\u2066",
    "\u061c": r"\u061c",
    "\u2028": r"\u2028",
    "\u2029": r"\u2029",
    "\u00a0": r"\xa0",
    "\u3000": r"\u3000",
    "\ue000": r"\ue000",
    "\U000f0000": r"\U000f0000",
    "\u0378": r"\u0378",
    "\U0010ffff": r"\U0010ffff",
    "\u034f": r"\u034f",
    "\ufe0f": r"\ufe0f",
    "\U000e0100": r"\U000e0100",
    "\U000e01ef": r"\U000e01ef",
    "\u3164": r"\u3164",
    "\u115f": r"\u115f",
    "\U000e0041": r"\U000e0041",
    "\u180b": r"\u180b",
}
#: text that is shown as it is: letters with their marks (composed and not), other scripts, symbols
PLAIN = [
    "Alice",
    "Bob",
    "caf\u00e9",
    "cafe\u0301",
    "\u0928\u093f",
    "\u4e2d\u6587",
    "\u00bd \u2192 \u2713",
    "\U0001f600",
    "a\\x1b (a backslash, as printed)",
]


def _old_visible(text: str) -> str:
    """The escaping before gamecert.kit.escape (str.isprintable), kept here as the control."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def test_every_hostile_kind_of_character_is_escaped_and_plain_text_kept():
    """Each kind of control or invisible character, alone, after a letter and after a space, is
    shown as its escape and never raw (a combining mark alone too); letters with their marks,
    other scripts and symbols are kept as they are. Control: the escaping before (str.isprintable)
    lets U+034F, the variation selectors, the Hangul fillers and a lone mark through."""
    from gamecert.kit.escape import quoted, visible

    for raw, escape in HOSTILE.items():
        for text in (raw, "Alice" + raw, "x " + raw + " y"):
            shown = visible(text)
            assert raw not in shown and escape in shown, (text, shown)
            assert raw not in quoted(text) and escape in quoted(text)
    lone = visible("\u0301x \u0301")
    assert "\u0301" not in lone and lone.count(r"\u0301") == 2, lone
    for text in PLAIN:
        assert visible(text) == text, text
    leaking = [raw for raw in HOSTILE if raw in _old_visible("Alice" + raw)]
    assert {"\u034f", "\ufe0f", "\U000e0100", "\u3164"} <= set(leaking), leaking
    assert "\u0301" in _old_visible("\u0301x")


def test_hostile_output_and_file_name_never_reach_the_terminal_or_report_md(tmp_path):
    """A candidate whose file name holds a terminal title sequence, a clear-screen and a bidi
    override, and whose output is `Alice` followed by every hostile character: the terminal's
    lines (the first one names the file) and report.md show escapes only (`expected: Alice` is
    never followed by a raw invisible `Alice`); report.json keeps the exact output. Control: the
    raw characters are really in the JSON and in the file's name on disk."""
    tail = "".join(HOSTILE)
    name = "x\x1b]0;pwned\x07\x1b[2J\u202e\u200b.py"
    program = tmp_path / name
    program.write_text(
        f"import sys\nsys.stdin.read()\nsys.stdout.write('Alice' + {tail!r} + '\\n')\n"
    )
    proc = run(
        "certify",
        "word_game",
        str(program),
        "--profile",
        "quick",
        "--examples",
        "0",
        "--seed",
        "4",
        "--jobs",
        "1",
        "--budget",
        "3",
        "--report-dir",
        str(tmp_path / "reports"),
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    path = Path(proc.stdout.strip().splitlines()[-1])
    md = (path / "report.md").read_text()
    first = proc.stdout.splitlines()[0]
    assert r"x\x1b]0;pwned\x07\x1b[2J\u202e\u200b.py" in first, first
    for raw in [*HOSTILE, "\u0301"]:
        assert raw not in proc.stdout and raw not in proc.stderr and raw not in md, repr(raw)
    assert "Alice" + "".join(HOSTILE.values()) in md
    assert "Control and invisible characters are shown as escapes" in md
    assert json.loads((path / "report.json").read_text())["got"] == "Alice" + tail + "\n"
    assert any(p.name == name for p in tmp_path.iterdir())
