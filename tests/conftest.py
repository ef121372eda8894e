"""Collection settings for the project's own tests.

The candidate programs under ``tests/candidates*/`` are stdin/stdout programs the tests run as
subprocesses; importing them (as ``--doctest-modules`` would) would make them read stdin. The
games folders ``games_bad/`` and ``games_ok/`` are loaded through ``GAMECERT_GAMES`` by their
tests, never imported as test modules.

Tests marked ``long`` (long end-to-end certifications) are left out of the default run, which
must stay under ten minutes on two cores; ``GAMECERT_LONG_TESTS=1`` runs them too. So are the
cases of :data:`HEAVY`: single parameters of broader tests whose other cases stay in the default
run, whole tests whose idea a named default test also holds, each measured at 13 s or more on
a 2-core run (CI's, 590 s in all, too near the limit; then 727 and 815 s here), and since CI's
default run took 778 s, every test of 9 s or more but a few named; they are marked ``long``
here, so ``-m long`` selects them, and CI's second step runs them.

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
#: the controls (marker ``control``): a wrong program of the tests certified with its phase left
#: out, evidence for the phase's issue kept runnable but out of CI (tests/README.md)
CONTROLS = os.environ.get("GAMECERT_CONTROLS", "").strip() == "1"

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
    # measured here on 2026-12-06 (the default run took 727 and 815 s on an idle 2-core machine):
    # cases whose siblings stay, then tests whose idea another default test holds (named)
    "tests/test_wrong_programs.py::test_the_designed_phase_catches_it_whatever_the_seed[string_cut-run51]": 37,
    "tests/test_deciding.py::test_the_issue_digit_program_is_caught_under_the_default_profile[2]": 23,
    "tests/test_testpack_recipes.py::test_every_recipe_makes_its_test_byte_for_byte[stones_once]": 24,
    "tests/test_conformance.py::test_oracle_matches_minimax[string_cut-abc-strings-12]": 22,
    "tests/test_scale_out.py::test_every_registered_plan_has_even_items[default]": 21,
    "tests/test_conformance.py::test_solver_exhaustive[string_cut-periodic_table-ab-strings-18]": 17,
    "tests/test_conformance.py::test_solver_exhaustive[string_cut-periodic_table-abc-strings-12]": 14,
    "tests/test_conformance.py::test_solver_exhaustive[string_cut-quadratic_dp-abc-strings-12]": 13,
    "tests/test_contain.py::test_certify_says_whether_it_contained[no-contain]": 17,
    "tests/test_broken.py::test_correct_solvers_are_not_flagged[stones_once-greedy_moves]": 14,
    "tests/test_plain_box.py::test_the_plain_judges_memory_is_the_kernels_figure": 35,  # test_memory_box
    "tests/test_certify.py::test_random_phase_shrinks_and_replays_with_its_seed": 29,  # test_replay_reruns_the_input_and_tells_when_fixed
    "tests/test_certify.py::test_pytest_plugin_spreads_items_and_reports_through_pytest": 21,  # test_certify_all_progress
    "tests/test_certify.py::test_ctrl_c_keeps_a_fault_already_found": 16,  # test_interrupts
    "tests/test_deciding.py::test_a_late_fault_ends_within_the_budget_and_says_what_was_not_done": 16,  # test_budget_kept
    "tests/test_containment.py::test_rewriting_the_runner_is_caught_by_the_pytest_route[xdist]": 19,
    "tests/test_engine.py::test_a_nondeterministic_program_is_not_certified": 20,  # test_evidence_plain
    "tests/test_testset.py::test_check_against_live_line_and_pipe": 18,  # test_testset's other --check tests
    "tests/test_toolchains.py::test_certify_end_to_end_with_compile_option": 17,  # test_provenance
    "tests/test_scale_out_solvers.py::test_split_solvers_give_the_single_process_table_and_catch_a_broken_one": 14,
    "tests/test_native_testloop.py::test_slow_and_leftover_tests_are_handed_to_the_python_path": 14,
    "tests/test_evidence_plain.py::test_faults_that_never_show_plainly_are_not_the_candidates": 12,
    "tests/test_readable.py::test_the_verdict_word_appears_once_in_the_reason_lines": 11,
    # measured here on 2026-12-07 (808 s in all; CI's default run took 778 s): every test of 9 s
    # or more not yet here, but for a few kept as the default run's only holders of their idea
    # (a right program CERTIFIED end to end, a busy hang's TLE, a designed phase's catch, an
    # edited recipe, a budgeted exhaustive phase): CI's long step runs them all
    "tests/test_scale_out.py::test_a_worker_that_receives_other_bytes_refuses_them": 24,
    "tests/test_testpack_recipes.py::test_an_edited_recipe_gives_a_valid_test[stones_once]": 22,
    "tests/test_user_errors.py::test_replay_takes_any_file_of_the_report_folder": 20,
    "tests/test_guided.py::test_below_a_near_constant_fault_its_families_are_swept_fewest_counts_first": 19,
    "tests/test_deciding.py::test_the_issue_digit_program_is_caught_under_the_default_profile[1]": 19,
    "tests/test_conformance.py::test_solver_exhaustive[string_cut-quadratic_dp-ab-strings-18]": 18,
    "tests/test_game_mistakes.py::test_the_conformance_suite_catches_the_mistakes_in_a_games_folder": 18,
    "tests/test_testpack_recipes.py::test_a_broken_gen_is_caught": 17,
    "tests/test_certify.py::test_rare_wrong_answer_is_found_minimal": 17,
    "tests/test_scale_out.py::test_every_registered_plan_has_even_items[quick]": 16,
    "tests/test_engine.py::test_the_same_seed_gives_the_same_inputs_whatever_else_is_loaded": 15,
    "tests/test_certify.py::test_a_budgeted_exhaustive_phase_goes_deep_in_a_cheap_space[2]": 15,
    "tests/test_many.py::test_several_candidates_give_a_row_each_and_exit_1": 15,
    "tests/test_broken.py::test_broken_solver_is_caught_with_a_minimal_input[word_game-long_words_by_length]": 15,
    "tests/test_shrink.py::test_a_near_constant_fault_comes_down_to_its_smallest_count_and_level": 14,
    "tests/test_testset.py::test_mutants_cover_every_kind": 13,
    "tests/test_subjects.py::test_a_registered_solver_is_never_its_own_reference": 13,
    "tests/test_scale_out_solvers.py::test_a_claim_with_a_slice_not_run_is_not_established": 13,
    "tests/test_plugins.py::test_new_game_dir_writes_a_whole_game_that_is_listed_and_certified": 13,
    "tests/test_game_mistakes.py::test_control_the_toy_game_without_a_mistake_certifies_and_catches": 13,
    "tests/test_evidence_plain.py::test_a_recursion_fault_reproduces_under_plain_python": 13,
    "tests/test_families.py::test_wrong_program_fails_on_a_family[string_cut-run40_beside]": 13,
    "tests/test_certify_all_progress.py::test_certify_all_shows_tests_done_of_the_total_and_the_time_left_on_a_terminal": 13,
    "tests/test_evidence_plain.py::test_a_fault_seen_in_a_plain_run_that_does_not_come_back_is_reported": 12,
    "tests/test_contain.py::test_certify_says_whether_it_contained[bwrap-fails]": 12,
    "tests/test_provenance.py::test_a_certificate_records_the_binary_the_compile_command_and_the_compiler": 12,
    "tests/test_certify.py::test_process_faults_get_their_verdict[kill_parent.py-RE]": 12,
    "tests/test_game_mistakes.py::test_sigterm_ends_a_run_stuck_in_game_code_and_keeps_the_fault": 12,
    "tests/test_testpack_testlib.py::test_testlib_conventions_without_testlib_h": 12,
    "tests/test_certification_engine.py::test_the_engine_finds_a_wrong_program_and_writes_its_report": 12,
    "tests/test_broken.py::test_correct_solvers_are_not_flagged[stones_once-closed_form]": 12,
    "tests/test_many.py::test_a_folder_is_every_candidate_file_in_it_sorted": 12,
    "tests/test_families.py::test_wrong_program_fails_on_a_family[string_cut-run51]": 11,
    "tests/test_readable.py::test_explain_command_and_reports_beyond_reach": 11,
    "tests/test_deciding.py::test_a_fault_found_after_the_budget_is_still_shown_minimal_where_nothing_needs_a_run": 11,
    "tests/test_containment.py::test_rewriting_the_runner_is_caught_by_the_pytest_route[serial]": 11,
    "tests/test_evidence_plain.py::test_a_program_right_only_under_the_fork_server_is_not_certified[zygote_only_right_on_b.py-zygote]": 11,
    "tests/test_cli_robustness.py::test_a_daemon_left_behind_cannot_write_into_later_tests": 11,
    "tests/test_families.py::test_wrong_program_fails_on_a_family[stones_once-single_big]": 11,
    "tests/test_provenance.py::test_a_report_records_the_source_hash_and_the_judge": 10,
    "tests/test_game_mistakes.py::test_a_shrinker_that_hangs_is_stopped_and_named": 10,
    "tests/test_slow_budget.py::test_a_slow_program_ends_within_the_budget_and_says_what_ran[slow_right.py-0-PASSED (incomplete)]": 10,
    "tests/test_certify_all_progress.py::test_certify_all_writes_no_progress_to_a_pipe": 10,
    "tests/test_deciding.py::test_digit_game_every_digit_at_every_position_decides": 10,
    "tests/test_sanitize.py::test_the_sanitizer_phase_hands_back_a_fault_of_the_judges_build": 10,
    "tests/test_broken.py::test_broken_solver_is_caught_with_a_minimal_input[digit_game-truncated_digits]": 10,
    "tests/test_broken.py::test_correct_solvers_are_not_flagged[digit_game-play_out]": 10,
    "tests/test_guided_java.py::test_without_the_library_or_past_the_method_size_the_route_says_why": 10,
    "tests/test_certify.py::test_answers_are_compared_after_whitespace_normalisation": 10,
    "tests/test_certify.py::test_replay_reruns_the_input_and_tells_when_fixed": 10,
    "tests/test_shrink.py::test_a_parity_threshold_on_many_parts_comes_down_to_its_smallest": 10,
    "tests/test_families.py::test_wrong_program_fails_on_a_family[stones_once-slow_per_pile]": 10,
    "tests/test_broken.py::test_correct_solvers_are_not_flagged[string_cut-periodic_table]": 9,
    "tests/test_broken.py::test_correct_solvers_are_not_flagged[digit_game-closed_form]": 9,
    "tests/test_game_mistakes.py::test_a_fast_solver_that_hangs_is_stopped_and_named": 9,
    "tests/test_evidence_plain.py::test_a_program_right_only_under_the_fork_server_is_not_certified[forkserver_only_right_on_b.c-native fork server]": 9,
    "tests/test_guided_js.py::test_the_route_in_a_certification": 9,
    "tests/test_core.py::test_the_core_completed_is_certified_the_depth_begun_is_not_a_gap": 9,
    # and from a fresh clone's run (548 s, the build cache empty as on CI), the next five
    "tests/test_scale_out_solvers.py::test_split_proofs_print_what_prove_prints_and_a_slice_refutes": 15,
    "tests/test_guided_java.py::test_a_large_programs_record_fits_the_stderr_tail_the_runner_keeps": 10,
    "tests/test_broken.py::test_correct_solvers_are_not_flagged[string_cut-quadratic_dp]": 10,
    "tests/test_replay_trust.py::test_a_reports_limits_are_never_used": 9,
    "tests/test_engine.py::test_parallel_runners_report_the_same_counterexample": 9,
    # and eight more from the last fresh clone's run (532 s; the working tree's next run took 582 s
    # on a slower hour): parameters whose siblings stay, or tests whose idea a sibling holds
    "tests/test_proofs.py::test_registered_claim_holds[string_cut::string_cut: run game == octal 0.137]": 13,
    "tests/test_deciding.py::test_the_digit_family_catches_the_late_digit_program_at_n_20": 10,
    "tests/test_build_caps.py::test_a_compile_bomb_under_the_address_space_cap[cpp-constexpr]": 10,
    "tests/test_guided_java.py::test_java_rewrite_records_sides_operands_strings_and_hashes": 10,
    "tests/test_plugins.py::test_pytest_plugin_is_silent_in_a_session_without_gamecert": 9,
    "tests/test_diagnose.py::test_a_planted_fault_is_diagnosed_and_the_shuffled_control_states_nothing": 9,
    "tests/test_containment.py::test_code_before_the_fork_server_stops_the_program_is_charged_every_test[PREINIT]": 9,
    "tests/test_toolchains.py::test_right_and_wrong_programs[java]": 9,
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


#: seconds a long test took on a 2-core run of the long step with three workers (2026-12-07,
#: ``--durations=0``; a prefix ending in ``::`` or a test's name: about what its cases took), by
#: the longest node-id prefix that matches; for the order only (below)
LONG_SECONDS = {
    "tests/test_testset.py::test_package_of_each_game[string_cut]": 617,
    "tests/test_testset.py::test_package_of_each_game[stones_once]": 384,
    "tests/test_testset.py::test_package_of_each_game[digit_game]": 112,
    "tests/test_testset.py::test_package_of_each_game": 83,
    "tests/test_diagnose.py::test_classes_that_are_no_literal_value_are_found": 256,
    "tests/test_diagnose.py::test_shuffled_labels_state_no_class_for_the_classes_programs": 165,
    "tests/test_diagnose.py::test_the_wrong_programs_classes_are_found": 108,
    "tests/test_size_ladder.py::": 150,
    "tests/test_testset.py::test_word_game_package": 140,
    "tests/test_wrong_programs.py::test_the_designed_phase_catches_it_whatever_the_seed[digit_game-read100000]": 133,
    "tests/test_shrink.py::test_reported_at_the_exact_smallest_size": 60,
    "tests/test_guided.py::test_caught_by_the_guided_phase": 60,
    "tests/test_right_langs.py::": 61,
    "tests/test_wrong_kinds.py::": 45,
    "tests/test_testpack_cpp.py::test_every_game_cpp_agrees_with_gamecert": 35,
    "tests/test_sanitize.py::test_ub_programs_are_ub": 28,
    "tests/test_families.py::": 25,
    "tests/test_deciding.py::test_certify_reports_the_known_smallest_size": 40,
}


def _seconds(item: pytest.Item) -> float:
    if item.get_closest_marker("skip") is not None:
        return 0.0
    best = max((p for p in LONG_SECONDS if item.nodeid.startswith(p)), key=len, default=None)
    return LONG_SECONDS[best] if best is not None else 10.0


def _dealt(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The items in the order that ends soonest under ``--dist worksteal`` with ``workers``:
    it hands worker k the k-th of ``workers`` consecutive slices of the collection (each the
    rest's share, as pytest-xdist cuts them), and an idle worker takes the second half of the
    longest queue. So each slice gets an even share of the long tests (the longest first, each
    to the slice with the least time so far and room left), in its head, longest first; the
    short ones fill the tails, where a worker out of tests takes them."""
    sizes, left = [], len(items)
    for k in range(workers):
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    slices: list[list[pytest.Item]] = [[] for _ in sizes]
    load = [0.0] * workers
    for item in sorted(items, key=lambda i: -_seconds(i)):  # stable among equals
        room = [k for k in range(workers) if len(slices[k]) < sizes[k]]
        k = min(room, key=lambda k: (load[k], k))
        slices[k].append(item)
        load[k] += _seconds(item)
    return [item for part in slices for item in part]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in HEAVY:
            item.add_marker(pytest.mark.long)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow ones first
    if not CONTROLS:
        control = pytest.mark.skip(
            reason="control (a phase left out, the evidence of its issue): run with "
            "GAMECERT_CONTROLS=1 GAMECERT_LONG_TESTS=1 (tests/README.md)"
        )
        for item in items:
            if item.get_closest_marker("control") is not None:
                item.add_marker(control)
    if LONG:
        return
    skip = pytest.mark.skip(reason="long: run with GAMECERT_LONG_TESTS=1 (tests/README.md)")
    for item in items:
        if item.get_closest_marker("long") is not None:
            item.add_marker(skip)


# after -m and -k have deselected (trylast): the slices are of what runs
@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")
def pytest_collection_modifyitems_dealt(items: list[pytest.Item]) -> None:
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
    if LONG and workers > 1:
        items[:] = _dealt(items, workers)


@pytest.fixture(autouse=True)
def _no_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
