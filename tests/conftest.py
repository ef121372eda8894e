"""Collection settings for the project's own tests.

The candidate programs under ``tests/candidates*/`` are stdin/stdout programs the tests run as
subprocesses; importing them (as ``--doctest-modules`` would) would make them read stdin. The
games folders ``games_bad/`` and ``games_ok/`` are loaded through ``GAMECERT_GAMES`` by their
tests, never imported as test modules.

Tests marked ``long`` (long end-to-end certifications) are left out of the default run, which
must stay under ten minutes on two cores; ``GAMECERT_LONG_TESTS=1`` runs them too. So are the
cases of :data:`HEAVY`: single parameters of broader tests whose other cases stay in the default
run, each measured at 15 s or more on a loaded 2-core run (CI's, 590 s in all, too near the
limit); they are marked ``long`` here, so ``-m long`` selects them, and CI's second step runs them.

pytest-xdist sets ``COLUMNS`` in its workers, and gamecert wraps its lines to ``COLUMNS``: every
test starts without it (as a run without ``-n`` does), so what a test reads does not depend on
``-n``; a test about the width sets it itself (tests/test_width.py).

Tests marked ``slow`` (a certification or a build of tens of seconds) are moved to the front of
the collection, in their order, and ``-n`` without ``--dist`` schedules with ``--dist worksteal``:
the workers start on the long tests and end on the cheap ones, a worker out of tests taking half
of the other's queue, so that no worker is left running one long test while the other idles.
(Not in pyproject's addopts: a run with ``-p no:xdist``, as some tests start, would not know the
option.)

``-n auto`` starts one worker more than the CPUs this process may run on: part of the suite
waits rather than computes (a program held to its wall-clock limit, a run waiting for a signal or
a budget to end, a build), and with one worker per CPU a core idles while its worker waits.
"""

import os

import pytest

collect_ignore_glob = [
    "candidates/*",
    "candidates_certify/*",
    "candidates_engine/*",
    "candidates_evidence/*",
    "hostile/*",
    "golden/*",
    "games_bad/*",
    "games_ok/*",
    "slow_right/*",
    "unseen_wrong/*",
    "shrink_wrong/*",
    "uncaught/*",
    "guided_wrong/*",
    "wrong_kinds/*",
    "right_langs/*",  # right programs run only through the sandbox (they read stdin if imported)
]

LONG = os.environ.get("GAMECERT_LONG_TESTS", "").strip() == "1"

#: node ids (seconds on CI's loaded 2-core run, 2026-12-04) moved to the long run
HEAVY = {
    "tests/test_testset.py::test_word_game_package": 65,  # the C++ pair and plain judge: test_testpack_cpp
    "tests/test_broken.py::test_broken_solver_is_caught_with_a_minimal_input[string_cut-gives_up_on_long_input]": 32,
    "tests/test_broken.py::test_broken_solver_is_caught_with_a_minimal_input[string_cut-period_seventeen]": 29,
    "tests/test_broken.py::test_broken_solver_is_caught_with_a_minimal_input[stones_once-many_piles_by_parity]": 11,
    "tests/test_certify.py::test_process_faults_get_their_verdict[sleep_forever.py-TLE]": 27,  # hang_busy stays
    "tests/test_scale_out.py::test_two_gateways_give_the_one_process_verdicts": 27,
    "tests/test_wrong_programs.py::test_the_designed_phase_catches_it_whatever_the_seed[digit_game-first500]": 26,
    "tests/test_families.py::test_wrong_program_fails_on_a_family[string_cut-len4700_short_scan]": 24,
    "tests/test_families.py::test_wrong_program_fails_on_a_family[string_cut-len3001]": 19,
    "tests/test_families.py::test_wrong_program_fails_on_a_family[digit_game-n777_at_100]": 19,
    "tests/test_many.py::test_pytest_route_with_several_candidates_writes_the_summary": 19,
    "tests/test_slow_budget.py::test_a_slow_program_ends_within_the_budget_and_says_what_ran[slow_wrong.py-1-TLE]": 15,
}
# the diagnosis after a fault (up to 15% of a certification's budget) is off for the suite's many
# certifications of wrong programs, and their subprocesses; tests/test_diagnose.py turns it on
os.environ.setdefault("GAMECERT_DIAGNOSE", "0")


@pytest.hookimpl(optionalhook=True)  # a run with -p no:xdist does not know the hook
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    return len(os.sched_getaffinity(0)) + 1


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    # before pytest-xdist's own hook, which turns an unset --dist into "load" when -n is given
    option = config.option
    if getattr(option, "numprocesses", None) and getattr(option, "dist", None) == "no":
        option.dist = "worksteal"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in HEAVY:
            item.add_marker(pytest.mark.long)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow ones first
    if LONG:
        return
    skip = pytest.mark.skip(reason="long: run with GAMECERT_LONG_TESTS=1 (tests/README.md)")
    for item in items:
        if item.get_closest_marker("long") is not None:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
