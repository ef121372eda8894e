"""Collection settings for the project's own tests.

The candidate programs under ``tests/candidates*/`` are stdin/stdout programs the tests run as
subprocesses; importing them (as ``--doctest-modules`` would) would make them read stdin.
"""

collect_ignore_glob = ["candidates/*", "candidates_certify/*", "candidates_engine/*", "hostile/*", "golden/*"]
