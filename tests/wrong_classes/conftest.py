"""Wrong programs with a known failing class (``# class:`` headers), diagnosed by
``tests/test_diagnose.py``'s long test; pytest must never import them (they read stdin)."""

collect_ignore_glob = ["*.py"]
