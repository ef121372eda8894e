"""What a certificate's expected answers rest on, for every range of sizes: the oracle (the
memoised exact search) up to its reach, and past it the fast solvers together with the levels of
the game's claims as ``gamecert prove`` states them (proved for every size, checked up to N,
checked exhaustively on a family), or, with no claim, their cross-check against the oracle on
sampled inputs alone."""

from __future__ import annotations

from typing import Any

_LEVEL_WORDS = {
    "all sizes": "proved for every size",
    "exhaustive": "checked exhaustively on its family",
    "bounded": "checked on a bounded range",
}


def claim_words(claim: Any, max_size: int) -> str:
    """One claim with its level in words; a bounded claim says its range, and that the range
    stops short of the game's largest size where it does.

    >>> from types import SimpleNamespace as C
    >>> claim_words(C(name="closed_form == rule", level="bounded", span=(1, 10_000)), 10**6)
    'closed_form == rule (bounded: checked for 1..10,000 only, not up to the largest size 1,000,000)'
    >>> claim_words(C(name="periodicity", level="all sizes", span=None), 10**6)
    'periodicity (proved for every size)'
    """
    level = getattr(claim, "level", None) or "level known once checked"
    span = getattr(claim, "span", None)
    if level == "bounded" and span is not None:
        first, last = span
        short = f" only, not up to the largest size {max_size:,}" if last < max_size else ""
        return f"{claim.name} (bounded: checked for {first:,}..{last:,}{short})"
    return f"{claim.name} ({_LEVEL_WORDS.get(level, level)})"


def answers_basis(entry: Any) -> tuple[str, ...]:
    """The lines, one per range of sizes: what the expected answers there rest on."""
    game = entry.game
    reach, top = int(game.oracle_reach), int(game.max_size)
    out = [f"sizes up to {min(reach, top):,}: the oracle (memoised exact search over the rules)"]
    if reach >= top:
        return tuple(out)
    solvers = sorted(getattr(entry, "solvers", {}) or {})
    head = (
        f"sizes {reach + 1:,} to {top:,}: the fast solvers ({len(solvers)}: {', '.join(solvers)}; "
        "every one of them on sampled and on failing inputs, which must agree), "
    )
    claims = list(getattr(entry, "claims", ()) or ())
    if not claims:
        out.append(
            head + "with no claim proved: they rest on their cross-check against the oracle on "
            "sampled inputs within its reach (sampled)"
        )
        return tuple(out)
    levels = {getattr(c, "level", None) for c in claims}
    strongest = (
        "some claim proved for every size"
        if "all sizes" in levels
        else "no claim proved for every size"
    )
    out.append(
        head
        + f"resting on the game's claims ({strongest}; `gamecert prove {game.name}` checks them): "
        + "; ".join(claim_words(c, top) for c in claims)
    )
    return tuple(out)


__all__ = ["answers_basis", "claim_words"]
