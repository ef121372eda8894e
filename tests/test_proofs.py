"""Every registered game's claims hold, and wrong claims are refuted at the first index they break.

Expected indices come from code other than the checker under test: the rules-only oracles
(``letter_grundy``), the run DP of ``fast/string_cut.py``, or the plain minimax.
"""

from __future__ import annotations

import argparse
import os

import pytest
from gamecert.fast.string_cut import run_grundy_dp
from gamecert.oracles.word_game import letter_grundy
from gamecert.proofs import word_game as word_proofs

from gamecert.commands.cli import main
from gamecert.commands.prove import check_claims, prove_command
from gamecert.engine import registry
from gamecert.errors import RegistryError
from gamecert.kit.claims import LEVELS, Claim, ClaimRefuted, Evidence
from gamecert.kit.octal import OctalGame, check_period, check_periodic_table


def slice_count() -> int:
    """Slices per claim with a range that can be cut: one (the whole claim) in a run without
    xdist, twice the number of workers (at most 8) under xdist, so that a long bounded or
    exhaustive range is spread like any other items. Every worker computes the same number."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    return 1 if workers <= 1 else min(8, 2 * workers)


def _claim_params():
    params = []
    for name in registry.game_names():
        try:
            claims = registry.get(name).claims
        except RegistryError as exc:
            params.append(pytest.param(name, None, 0, str(exc), id=f"{name}::unregistered"))
            continue
        for i, c in enumerate(claims):
            params += [
                pytest.param(name, i, k, None, id=f"{name}::{part.name}")
                for k, part in enumerate(c.slices(slice_count()))
            ]
    return params


@pytest.mark.parametrize(("game", "index", "part", "problem"), _claim_params())
def test_registered_claim_holds(game, index, part, problem):
    """Each claim a proofs module states holds (or each slice of its range, under xdist), with a
    non-empty detail and the evidence level the claim states (the level `gamecert show` prints
    without running it)."""
    if problem is not None:
        pytest.fail(problem)
    claim = registry.get(game).claims[index].slices(slice_count())[part]
    evidence = claim()
    assert isinstance(evidence, Evidence) and evidence.level in LEVELS and evidence.detail
    assert evidence.level == claim.level, (claim.name, claim.level, evidence.describe())


def test_slices_partition_each_cut_claim():
    """A claim's slices cover its range exactly, consecutive, without gaps or overlaps, for any
    number of slices; a claim that cannot be cut is its own single slice."""
    cut = 0
    for name in registry.game_names():
        for claim in registry.get(name).claims:
            for count in (1, 2, 3, 5, 8):
                parts = claim.slices(count)
                if claim.span is None:
                    assert parts == (claim,)
                    continue
                spans = [p.span for p in parts]
                assert spans[0][0] == claim.span[0] and spans[-1][1] == claim.span[1], spans
                assert all(a[1] + 1 == b[0] and a[0] <= a[1] for a, b in zip(spans, spans[1:])), (
                    spans
                )
                assert len(parts) <= count and len({p.name for p in parts}) == len(parts)
            cut += claim.span is not None
    assert cut >= 2  # the digit_game solver check and the word_game xor rule


def test_the_xor_rule_counts_what_it_checked():
    """The word_game xor claim's evidence counts each space apart, and the counts are those of
    the spaces themselves (a miscount once added the short words to the multisets)."""
    claim = next(c for c in registry.get("word_game").claims if c.span is not None)
    game = registry.get("word_game").game
    spaces = {space.name: space for space in game.exhaustive_spaces()}
    expect = {
        name: sum(1 for n in space.sizes if n <= 5 for _ in space.instances(n))
        for name, space in spaces.items()
    }
    detail = claim.part(1, 5)().detail
    assert detail.startswith(
        f"{expect['letter-count multisets']} multisets of letter counts (every word of 1..5 "
        f"letters up to renaming), and {expect['short-words']} words of 1..3 letters"
    ), detail
    detail = claim.part(4, 5)().detail  # no short word in the range: not mentioned
    assert "over A-Z" not in detail and detail.startswith(
        f"{sum(1 for n in (4, 5) for _ in spaces['letter-count multisets'].instances(n))} multisets"
    )


def test_the_string_cut_reduction_counts_distinct_strings():
    """Strings an earlier family over a larger alphabet covered are not counted twice."""
    import itertools

    from gamecert.proofs.string_cut import reduction_claim

    families = (("abc", 4), ("ab", 6))
    distinct = {
        "".join(t)
        for a, n in families
        for k in range(1, n + 1)
        for t in itertools.product(a, repeat=k)
    }
    detail = reduction_claim(families)().detail
    assert detail.startswith(f"{len(distinct)} distinct strings"), (len(distinct), detail)


def test_a_slice_refutes_where_the_whole_claim_does():
    """A closed form wrong at count 33 makes the xor rule fail; cut into 8 slices, the slices
    before the failure hold and the slice holding it refutes at the word the whole claim names."""
    claim = word_proofs.xor_rule_claim(
        lambda c, ops: ops.If(c == 33, 0, word_proofs.editorial_closed_form(c, ops))
    )
    with pytest.raises(ClaimRefuted) as whole:
        claim()
    assert len(whole.value.index) == 33
    held = []
    for part in claim.slices(8):
        try:
            part()
        except ClaimRefuted as exc:
            assert exc.index == whole.value.index and part.span[0] <= 33 <= part.span[1]
            break
        held.append(part.span)
    else:
        pytest.fail("no slice refuted the wrong rule")
    assert held and held[-1][1] < 33


# ---- wrong claims ----------------------------------------------------------------------------


def _first_difference(truth, claim, limit):
    return next(n for n in range(limit) if truth(n) != claim(n))


def _mod3_zero_at_multiples(c, ops):
    """Period 3 with a wrong value (0) at the multiples of 3."""
    return ops.If(c % 3 == 0, 0, c % 3)


def _wrong_only_at_999(c, ops):
    return ops.If(c == 999, 0, word_proofs.editorial_closed_form(c, ops))


@pytest.mark.parametrize(
    "make",
    [word_proofs.recurrence_claim, word_proofs.induction_claim],
    ids=["z3-bounded", "z3-induction"],
)
@pytest.mark.parametrize(
    "wrong",
    [_mod3_zero_at_multiples, _wrong_only_at_999],
    ids=["zero-at-multiples", "wrong-at-999"],
)
def test_wrong_letter_closed_form_is_refuted_at_first_break(make, wrong):
    """A period-3 form with a wrong value is refuted at the first count where it breaks, by the
    bounded z3 check and by the induction alike (the index from the rules-only oracle)."""
    from gamecert.kit.smt import PY

    expected = _first_difference(letter_grundy, lambda c: wrong(c, PY), 1001)
    with pytest.raises(ClaimRefuted) as info:
        make(wrong)()
    assert info.value.index == expected


def _dawson_truth(n):
    return run_grundy_dp(n)


def test_table_without_its_exceptions_is_refuted():
    """0.137's periodic part alone, claimed from 0 (the preperiod's exceptions dropped), is
    refuted at the first exception; the index comes from the run DP, not from octal.py."""
    game = OctalGame.parse("0.137")
    true = game.periodicity()
    e, p = true.preperiod, true.period
    values = [true.values[e + (n - e) % p] for n in range(p)]  # periodic part, aligned to n
    claimed = lambda n: values[n % p]  # noqa: E731
    expected = _first_difference(_dawson_truth, claimed, e + p)
    with pytest.raises(ClaimRefuted) as info:
        check_periodic_table(game, 0, p, values)
    assert info.value.index == expected < e


@pytest.mark.parametrize("wrong_period", [17, 33, 35, 68 - 34 - 1])
def test_wrong_period_is_refuted(wrong_period):
    """A wrong period for 0.137 (with the true preperiod) fails where the sequence first does
    not repeat; with a table, where the table first disagrees with the run DP."""
    game = OctalGame.parse("0.137")
    e = game.periodicity().preperiod
    expected = next(
        n + wrong_period
        for n in range(e, 10_000)
        if run_grundy_dp(n + wrong_period) != run_grundy_dp(n)
    )
    with pytest.raises(ClaimRefuted) as info:
        check_period(game, e, wrong_period)
    assert info.value.index == expected
    table = [run_grundy_dp(n) for n in range(e + wrong_period)]
    expected_table = _first_difference(
        _dawson_truth,
        lambda n: table[n] if n < len(table) else table[e + (n - e) % wrong_period],
        10_000,
    )
    with pytest.raises(ClaimRefuted) as info:
        check_periodic_table(game, e, wrong_period, table)
    assert info.value.index == expected_table


def test_preperiod_one_too_small_is_refuted():
    """Claiming periodicity one size too early fails at that size plus the period."""
    game = OctalGame.parse("0.137")
    per = game.periodicity()
    e, p = per.preperiod - 1, per.period
    assert run_grundy_dp(e + p) != run_grundy_dp(e)  # the run DP's own witness
    with pytest.raises(ClaimRefuted) as info:
        check_period(game, e, p)
    assert info.value.index == e + p


# ---- the prove command ---------------------------------------------------------------------------


def _fake_entry(claims):
    class Proofs:
        CLAIMS = claims

    class Entry:
        name = "fake"
        proofs = Proofs

    Entry.claims = claims
    return Entry


def test_prove_reports_refuted_claim_with_index_and_exit_1(monkeypatch, capsys):
    """``prove`` prints a refuted claim's first breaking index and exits 1; holding ones print
    their evidence level and time."""
    wrong = word_proofs.recurrence_claim(_mod3_zero_at_multiples, n_max=50)
    ok = Claim("ok", "always", lambda: Evidence("bounded", "0..1"))
    monkeypatch.setattr(registry, "load_all", lambda selector: ([_fake_entry([ok, wrong])], []))
    code = prove_command(argparse.Namespace(game="fake", plot_dir=None))
    out = capsys.readouterr().out
    assert code == 1
    assert "[REFUTED]" in out and "fails first at 3" in out
    assert "[holds] ok" in out and "bounded: 0..1" in out
    outcomes = check_claims("fake", [ok, wrong])
    assert [o.status for o in outcomes] == ["holds", "REFUTED"] and outcomes[1].index == 3


def test_prove_exit_0_and_plot(monkeypatch, capsys, tmp_path):
    """All claims holding gives exit 0; --plot-dir draws each PLOTS entry as a PNG."""
    pytest.importorskip(
        "matplotlib"
    )  # the plot is an optional extra; test_octal covers its absence
    entry = _fake_entry([Claim("ok", "always", lambda: Evidence("all sizes", "argument"))])
    entry.proofs.PLOTS = word_proofs.PLOTS
    monkeypatch.setattr(registry, "load_all", lambda selector: ([entry], []))
    assert prove_command(argparse.Namespace(game="fake", plot_dir=str(tmp_path / "plots"))) == 0
    png = tmp_path / "plots" / "word_game-grundy.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "plot written" in capsys.readouterr().out


def test_prove_unknown_game_is_usage_error(capsys):
    """An unknown game is one line on stderr and exit 2."""
    assert main(["prove", "no_such_game"]) == 2
    assert "unknown game" in capsys.readouterr().err
