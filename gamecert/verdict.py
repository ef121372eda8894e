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
    Verdict.PE: "presentation error (malformed output)",
    Verdict.RE: "runtime error",
    Verdict.TLE: "time limit exceeded",
    Verdict.MLE: "memory limit exceeded",
    Verdict.OLE: "output limit exceeded",
    Verdict.CE: "compilation error",
    Verdict.UB: "undefined behaviour",
}
