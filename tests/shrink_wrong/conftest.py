"""Deliberately wrong candidate programs for structural shrinking, run by ``tests/test_shrink.py``
through ``gamecert certify``; pytest must never import them (they read stdin)."""

collect_ignore_glob = ["*.py"]
