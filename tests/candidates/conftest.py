"""The programs here are deliberately broken candidates, run only through the sandbox.

They must never be imported by pytest (doctest collection would run a fork bomb in the test
process), so this folder is excluded from collection.
"""

collect_ignore_glob = ["*.py", "*.cpp"]
