"""Deliberately wrong candidate programs, one folder per game, run by ``tests/test_families.py``
through the sandbox on the designed families; pytest must never import them (they read stdin)."""

collect_ignore_glob = ["*.py"]
