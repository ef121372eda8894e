"""Finding and choosing a package's tests: the search for an input that kills a wrong program the
chosen tests miss (in certify's order, each input run once a build), the packing of small tests
into multi-game files, and the greedy set cover over the pool (:mod:`.testset` holds the tests,
the programs and their runs).

May import: the testpack room's own modules, the judge room, the kit, the engine's floor.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from gamecert.engine.judge.judge import expected_answer
from gamecert.engine.testpack import testset as ts
from gamecert.engine.testpack.margins import is_kill
from gamecert.engine.testpack.testset import Program, Test
from gamecert.errors import AnswerError, GamecertError
from gamecert.kit.tokens import verdict_of


def search_kill(
    entry: Any, program: Program, pool: Sequence[Test], answers: Sequence[Any], seconds: float
) -> tuple[Test, Any] | None:
    """The first input that kills ``program``, tried in certify's order (:func:`search_order`),
    never one already run on it in this build; at most ``seconds`` of runs. An input is judged
    against the cheapest solver's answer (as certify does) and, where it fails, against every
    solver's before it counts."""
    deadline = time.perf_counter() + seconds
    game = entry.game
    tried = 0
    for test, expected in search_order(entry, pool, answers):
        if time.perf_counter() > deadline:
            return None
        key = (program.spec, test.text)
        if key in ts._RUNS:
            continue
        if expected is None:
            expected = expected_answer(entry, test.instance)[0]
        used: list[float] = []
        ts._RUNS[key] = found = ts.run_verdict(
            entry, ts.runner_for(program, entry), test, expected, used
        )
        tried += 1
        if used:
            ts.USAGE[key] = (used[0], used[1])
        if ts.ON_RUN is not None:
            ts.ON_RUN(program, tried, 0)
        if not is_kill(found[0]):
            continue
        expected = expected_answer(entry, test.instance, every=True)[0]
        if found[0] in ("WA", "PE"):
            ts._RUNS[key] = found = judged_again(entry, test, expected, found)
            if not is_kill(found[0]):
                continue
        test.expected_text = game.format_answer(expected)
        return test, expected
    return None


def judged_again(
    entry: Any, test: Test, expected: Any, found: tuple[str, str, str]
) -> tuple[str, str, str]:
    """A WA or PE run's output judged again against ``expected`` (every solver's answer)."""
    game = entry.game
    if game.max_batch > 1 and len(game.split(test.instance)) > 1:
        try:
            got = game.parse_answer(found[2], test.instance)
        except AnswerError as exc:
            return str(exc.verdict), str(exc), found[2]
        for k, (single, part, exp) in enumerate(
            zip(
                game.split(test.instance),
                game.split_answer(test.instance, got),
                game.split_answer(test.instance, expected),
            ),
            1,
        ):
            why = game.judge(single, part, exp)
            if why is not None:
                return "WA", f"game {k}: {why}", found[2]
        return "OK", "", found[2]
    verdict, why = verdict_of(game, test.instance, found[2], expected)
    return verdict.value, why, found[2]


def search_order(
    entry: Any, pool: Sequence[Test], answers: Sequence[Any]
) -> Iterator[tuple[Test, Any]]:
    """Certify's order over the plan: the samples, the pool's designed inputs (the deciding
    features and the coverage ts.families, then the worst cases), then every designed family in full,
    the ts.families in turn as certify interleaves them (the deciding features first; for a
    multi-game format the one-game inputs of a family packed ``max_batch`` to a run), then the
    largest inputs, the packed smallest inputs and the rest of the pool (a first pass, a size
    ladder, whole before the ts.families in turn, as certify runs it). Each text once; the
    answer is None where it is not known yet."""
    from gamecert.kit.deciding import feature_families

    game = entry.game
    seen: set[str] = set()

    def phase(t: Test) -> int:
        g = t.group
        if g == "samples":
            return 0
        if g.startswith("deciding:") or (
            g.startswith("family:") and not t.origin.startswith("worst")
        ):
            return 1
        if g.startswith("family:"):
            return 2
        return {"largest": 4, "exhaustive-packed": 5}.get(g, 6)

    ranked = sorted(range(len(pool)), key=lambda k: phase(pool[k]))
    for k in ranked:
        if phase(pool[k]) > 2:
            break
        seen.add(pool[k].text)
        yield pool[k], answers[k]
    designed = [("deciding", f) for f in feature_families(game)]
    designed += [(f.kind, f) for f in sorted(ts.families(entry), key=lambda f: f.kind == "worst")]
    # a first pass (a size ladder) whole before the others, as certify runs it
    for kind, fam in designed:
        if getattr(fam, "first", False):
            for inst, where in _packed_runs(game, fam):
                text = game.format_input(inst)
                if text not in seen:
                    seen.add(text)
                    yield (
                        Test(inst, text, f"{kind} family {fam.name} {where}", f"family:{fam.name}"),
                        None,
                    )
    iterators = [(kind, fam.name, _packed_runs(game, fam)) for kind, fam in designed]
    while iterators:
        for item in list(iterators):
            kind, name, it = item
            got = next(it, None)
            if got is None:
                iterators.remove(item)
                continue
            inst, where = got
            text = game.format_input(inst)
            if text not in seen:
                seen.add(text)
                yield Test(inst, text, f"{kind} family {name} {where}", f"family:{name}"), None
    for k in ranked:
        if pool[k].text not in seen:
            seen.add(pool[k].text)
            yield pool[k], answers[k]


def _packed_runs(game: Any, fam: Any) -> Iterator[tuple[Any, str]]:
    """A family's inputs with where each stands (``#k``); for a multi-game format its one-game
    inputs packed ``max_batch`` to a run (``#a..#b``), its several-game inputs as they are."""
    held: list[tuple[int, Any]] = []

    def flush() -> Iterator[tuple[Any, str]]:
        if len(held) > 1:
            merged = game.merge([x for _, x in held])
            try:  # a run too long for the format's limits: its games one a run
                game.parse_input(game.format_input(merged))
                yield merged, f"#{held[0][0]}..#{held[-1][0]} packed"
                return
            except GamecertError:
                pass
        yield from ((x, f"#{k}") for k, x in held)

    for k, inst in enumerate(fam.instances(), 1):
        if game.max_batch <= 1 or len(game.split(inst)) > 1:
            yield inst, f"#{k}"
            continue
        held.append((k, inst))
        if len(held) == game.max_batch:
            yield from flush()
            held = []
    yield from flush()


def pack(entry: Any, tests: list[Test], keep: set[int]) -> list[Test]:
    """Multi-game formats: tests not in ``keep`` (by index) merged, in order, into files of up to
    ``max_batch`` games; ``parts`` records which tests each file holds."""
    game = entry.game
    if game.max_batch <= 1:
        return tests
    out: list[Test] = []
    batch: list[int] = []

    def flush() -> None:
        if not batch:
            return
        if len(batch) == 1:
            out.append(tests[batch[0]])
        else:
            inst = game.merge([tests[k].instance for k in batch])
            out.append(
                Test(
                    inst,
                    game.format_input(inst),
                    "packed: " + "; ".join(tests[k].origin for k in batch),
                    "packed",
                    parts=list(batch),
                )
            )
        batch.clear()

    count = 0
    for k, t in enumerate(tests):
        if k in keep:
            out.append(t)
            continue
        n = len(game.split(t.instance))
        if count + n > game.max_batch:
            flush()
            count = 0
        batch.append(k)
        count += n
    flush()
    return out


def greedy_cover(
    candidates: Sequence[int],
    kills: dict[int, set[str]],
    sizes: dict[int, int],
    covered: set[str],
    room: int,
) -> list[int]:
    """Greedy set cover: repeatedly the test killing the most not yet killed, the smallest among
    equals (then the earliest), until none adds a kill or ``room`` tests are taken.

    >>> greedy_cover([0, 1, 2], {0: {"a"}, 1: {"a", "b"}, 2: {"c"}}, {0: 1, 1: 5, 2: 2}, set(), 5)
    [1, 2]
    """
    chosen: list[int] = []
    covered = set(covered)
    left = list(candidates)
    while len(chosen) < room:
        best = max(
            left, key=lambda k: (len(kills.get(k, set()) - covered), -sizes[k], -k), default=None
        )
        if best is None or not kills.get(best, set()) - covered:
            break
        chosen.append(best)
        covered |= kills[best]
        left.remove(best)
    return chosen
