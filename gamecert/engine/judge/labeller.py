"""The diagnosis's runs: inputs run on the candidate (a thread per runner) and labelled pass or
fail against the expected answer, each input once (:func:`fresh`)."""

from __future__ import annotations

import hashlib
import threading
import time
from typing import Any

from gamecert.engine.judge.judge import Judge, Stats


class Labeller:
    """Runs inputs on the candidate, one thread per runner, and keeps every label."""

    def __init__(
        self,
        entry: Any,
        runners: list[Any],
        expected_cache: dict[str, tuple[Any, str]],
        deadline: float,
    ) -> None:
        self.game = entry.game
        self.judges = [Judge(entry, r, Stats(), expected_cache=expected_cache) for r in runners]
        self.deadline = deadline
        self.seen: dict[bytes, bool] = {}
        self.runs = 0
        self.taken = 0  # inputs handed to a runner (the runs, and those running)
        #: runs in all, at most (None: the time alone bounds them)
        self.limit: int | None = None
        self.lock = threading.Lock()

    def label(self, items: list[tuple[Any, str]], until: float) -> list[tuple[Any, str, bool]]:
        """``items`` (instance, text) run and labelled (True: fails) until ``until`` or the limit of
        runs; those not reached are left out. The result is in the order of ``items``, and by
        counts the items run are the first ones whatever the threads' timing."""
        done: list[tuple[int, Any, str, bool]] = []
        queue = list(reversed(list(enumerate(items))))
        errors: list[BaseException] = []

        def work(judge: Judge) -> None:
            try:
                while time.monotonic() < min(until, self.deadline):
                    with self.lock:
                        if (
                            not queue
                            or errors
                            or (self.limit is not None and self.taken >= self.limit)
                        ):
                            return
                        k, (inst, text) = queue.pop()
                        self.taken += 1
                    failed = judge.run_one(inst, "diagnosis", text=text, count=False) is not None
                    with self.lock:
                        self.runs += 1
                        self.seen[digest(text)] = failed
                        done.append((k, inst, text, failed))
            except BaseException as exc:  # noqa: BLE001 - the other threads stop, then it is raised
                with self.lock:
                    errors.append(exc)

        threads = [threading.Thread(target=work, args=(j,), daemon=True) for j in self.judges[1:]]
        for t in threads:
            t.start()
        work(self.judges[0])
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        return [(inst, text, failed) for _, inst, text, failed in sorted(done, key=lambda d: d[0])]


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def fresh(labeller: Labeller, items: list[tuple[Any, str]]) -> list[tuple[Any, str]]:
    """``items`` never run in this diagnosis, each once."""
    out, seen = [], set()
    for inst, text in items:
        d = digest(text)
        if d not in labeller.seen and d not in seen:
            seen.add(d)
            out.append((inst, text))
    return out


__all__ = ["Labeller", "digest", "fresh"]
