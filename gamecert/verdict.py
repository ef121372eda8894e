"""Judge verdicts: the one vocabulary for solvers and candidates alike."""

from __future__ import annotations

from enum import Enum


class Verdict(str, Enum):
    OK = "OK"
    WA = "WA"  # wrong answer
    PE = "PE"  # presentation error: output that cannot be read
    RE = "RE"  # runtime error: crash, signal or nonzero exit
    TLE = "TLE"  # time limit exceeded
    MLE = "MLE"  # memory limit exceeded
    OLE = "OLE"  # output limit exceeded
    CE = "CE"  # compilation error
    UB = "UB"  # undefined behaviour: a sanitizer fired on an input the judge's build answers right

    @property
    def meaning(self) -> str:
        return _MEANING[self]

    def __str__(self) -> str:
        return self.value


_MEANING = {
    Verdict.OK: "accepted",
    Verdict.WA: "wrong answer",
    Verdict.PE: "presentation error: output that cannot be read as an answer",
    Verdict.RE: "runtime error",
    Verdict.TLE: "time limit exceeded",
    Verdict.MLE: "memory limit exceeded",
    Verdict.OLE: "output limit exceeded",
    Verdict.CE: "compilation error",
    Verdict.UB: "undefined behaviour",
}


#: a passing run's words: every designed family, worst case and exhaustive space of the plan ran
#: to its end (docs/certify.md, "Verdicts")
CERTIFIED = "CERTIFIED"
#: nothing found, but the budget (or ``--phases``) left part of the plan out
INCOMPLETE = "PASSED (incomplete)"
#: stopped by the user (Ctrl-C) with nothing found so far
INTERRUPTED = "INTERRUPTED"
#: the words a run that found nothing ends with
PASSING = (CERTIFIED, INCOMPLETE)


def passing_status(verdict: str, strict: bool = False) -> int:
    """The exit status of a run that found nothing: 0 certified, 0 incomplete (1 with
    ``--strict``), 130 interrupted.

    >>> passing_status(CERTIFIED), passing_status(INCOMPLETE), passing_status(INCOMPLETE, strict=True)
    (0, 0, 1)
    """
    if verdict == INCOMPLETE:
        return 1 if strict else 0
    return 0 if verdict == CERTIFIED else 130
