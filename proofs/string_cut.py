"""Claims about string_cut: the reduction to runs, the run game as octal 0.137, its periodicity.

The chain of evidence:

1. reduction: a string's Grundy value is the xor of its maximal runs of cuttable positions'
   values, and the smallest winning cut is found from the runs; checked against the rules-only
   oracle on every short string (the argument is in :mod:`gamecert.fast.string_cut`'s docstring: a cut at
   ``i`` turns ``i - 1`` and ``i + 1`` into piece ends and leaves every other position as it was);
2. the run game is the octal game 0.137 (Dawson's chess): a cut at the ``k``-th of ``L`` positions
   takes 1 (``L = 1``), 2 (an end of the run) or 3 (inside it) positions and leaves at most two
   runs; the run DP and the octal sequence agree on every length the input allows;
3. the octal periodicity theorem makes the sequence periodic for every length, with the preperiod
   and period found here; the O(n) solver's table is that one, re-checked;
4. z3 confirms the sequence is the only solution of the run game's mex recurrence on the range the
   theorem reads.
"""

from __future__ import annotations

import itertools

from gamecert.fast import string_cut as fast
from gamecert.oracles.string_cut import GAME, MAX_LEN, piece_grundy

from gamecert.kit import smt
from gamecert.kit.claims import Claim, ClaimRefuted, Evidence
from gamecert.kit.octal import (
    OctalGame,
    check_periodic_table,
    periodicity_claim,
    plot_data,
)

RUN_GAME = OctalGame.parse(fast.RUN_GAME_CODE)
#: the exhaustive families the reduction is checked on: (alphabet, longest string)
REDUCTION_FAMILIES = (("abc", 10), ("ab", 16))


def run_options(length: int) -> list[tuple[int, ...]]:
    """Runs left by each cut of a run of ``length`` cuttable positions (zeros dropped), from the
    reduction the fast solvers use.

    >>> run_options(1), sorted(set(run_options(4)))
    ([()], [(1,), (2,)])
    """
    out = []
    for k in range(1, length + 1):
        out.append(tuple(sorted(h for h in fast._run_options(length, k) if h)))
    return out


def _runs_value(s: str) -> int:
    value = 0
    for _, length in fast.cuttable_runs(s):
        value ^= fast.run_grundy_dp(length)
    return value


def reduction_claim(families: tuple[tuple[str, int], ...] = REDUCTION_FAMILIES) -> Claim:
    """Exhaustive: strings reduce to runs of cuttable positions, value and winning cut alike.

    Guards both fast solvers' first step. For every string over each alphabet up to its length:
    the rules-only oracle's Grundy value equals the xor of the runs' values (run DP), and its
    answer (Second, or the smallest winning cut) equals the run-based solver's.
    """

    def check() -> Evidence:
        checked = 0
        for k, (alphabet, longest) in enumerate(families):
            # lengths an earlier family over a larger alphabet already covered are not run twice
            done = max((n for a, n in families[:k] if set(alphabet) <= set(a)), default=0)
            for length in range(done + 1, longest + 1):
                for letters in itertools.product(alphabet, repeat=length):
                    s = "".join(letters)
                    if _runs_value(s) != piece_grundy(s):
                        raise ClaimRefuted(
                            "string_cut reduction",
                            s,
                            f"rules give {piece_grundy(s)}, the runs {_runs_value(s)}",
                        )
                    if fast.quadratic_dp(s) != GAME.oracle(s):
                        raise ClaimRefuted(
                            "string_cut reduction",
                            s,
                            f"oracle answers {GAME.oracle(s)}, the runs {fast.quadratic_dp(s)}",
                        )
                    checked += 1
        shown = ", ".join(f"{{{','.join(a)}}} up to length {n}" for a, n in families)
        return Evidence(
            "exhaustive",
            f"{checked} distinct strings ({shown}): Grundy value and smallest winning cut agree",
        )

    return Claim(
        "string_cut: reduction to runs of cuttable positions",
        "a string's Grundy value is the xor of its cuttable runs' values, and the winning cut follows from the runs",
        check,
        level="exhaustive",
    )


def octal_identity_claim(up_to: int = MAX_LEN, options_up_to: int = 300) -> Claim:
    """Bounded (every length the input allows): the run game is octal 0.137.

    Guards the link between the reduction and the octal theory: the option sets of a run
    (from the fast solvers' ``_run_options``) and of a 0.137 heap coincide for every length up
    to ``options_up_to``, and the run DP (fast/string_cut.py ``run_grundy_dp``) equals
    ``OctalGame("0.137")``'s mex sequence for every length up to ``up_to`` (runs in a string of
    5000 letters are at most 4998 long). The periodicity claim then extends 0.137 to all lengths.
    """

    def check() -> Evidence:
        for length in range(options_up_to + 1):
            run = set(run_options(length))
            octal = set(RUN_GAME.options(length))
            if run != octal:
                raise ClaimRefuted(
                    "run game = 0.137",
                    length,
                    f"run options {sorted(run)} != octal options {sorted(octal)}",
                )
        seq = RUN_GAME.sequence(up_to + 1)
        for length in range(up_to + 1):
            if fast.run_grundy_dp(length) != seq[length]:
                raise ClaimRefuted(
                    "run game = 0.137",
                    length,
                    f"run DP {fast.run_grundy_dp(length)} != octal {seq[length]}",
                )
        return Evidence(
            "bounded",
            f"option sets equal for run lengths 0..{options_up_to}; run DP == octal {RUN_GAME.code} sequence for "
            f"0..{up_to} (every run a {MAX_LEN}-letter string holds); all lengths via the periodicity claim",
        )

    return Claim(
        f"string_cut: run game == octal {RUN_GAME.code}",
        f"the run game's Grundy sequence is octal {RUN_GAME.code}'s for every length up to {up_to}",
        check,
        level="bounded",
    )


def solver_table_claim() -> Claim:
    """All sizes: the O(n) solver's periodic table (computed by the solver module itself, from
    ``OctalGame("0.137").periodicity()``) is the Grundy sequence of every run length.

    Guards ``periodic_table``: re-checks the table it looks values up in against the mex rule on
    the theorem's range, whatever produced it.
    """

    def check() -> Evidence:
        table = fast._period_table()
        evidence = check_periodic_table(
            RUN_GAME, table.preperiod, table.period, table.values, claim="periodic_table's table"
        )
        for length in range(table.checked_up_to + table.period):
            if fast.run_grundy_periodic(length) != fast.run_grundy_dp(length):
                raise ClaimRefuted(
                    "periodic_table's table",
                    length,
                    "the solver's lookup disagrees with the run DP",
                )
        return Evidence(
            evidence.level,
            f"the solver's table (preperiod {table.preperiod}, period {table.period}): {evidence.detail}",
        )

    return Claim(
        "string_cut: the O(n) solver's table",
        "the periodic table periodic_table looks run values up in is right for every run length",
        check,
        level="all sizes",
    )


def z3_recurrence_claim(n_max: int | None = None) -> Claim:
    """Bounded: z3 confirms the sequence is the only solution of the run game's mex recurrence.

    Encoded from the run options (the cuts of a run), mex as constraints, on ``0..n_max``
    (default: the range the periodicity theorem reads for 0.137, so z3 confirms every value
    the theorem's finite condition rests on). Guards the Python mex computations.
    """

    def check() -> Evidence:
        top = n_max
        if top is None:
            per = RUN_GAME.periodicity()
            top = per.checked_up_to + per.period - 1
        seq = RUN_GAME.sequence(top + 1)
        result = smt.mex_recurrence(top, run_options, seq.__getitem__, value_bits=5, block=25)
        if result.first_mismatch is not None:
            n = result.first_mismatch
            raise ClaimRefuted(
                "string_cut z3 recurrence",
                n,
                f"z3's solution {result.solution[n]} != sequence {seq[n]}",
            )
        return Evidence(
            "bounded",
            f"run lengths 0..{top} (the periodicity theorem's range): the run game's mex recurrence has the computed "
            f"sequence as its only solution (z3, {result.constraints} constraints, {result.blocks} blocks)",
        )

    return Claim(
        "string_cut: run recurrence (z3)",
        "the run game's Grundy sequence satisfies, as its only solution, the mex recurrence over cuts of a run",
        check,
        level="bounded",
    )


CLAIMS = [
    reduction_claim(),
    octal_identity_claim(),
    periodicity_claim(RUN_GAME),
    solver_table_claim(),
    z3_recurrence_claim(),
]
PLOTS = [lambda: plot_data(RUN_GAME, "string_cut")]
