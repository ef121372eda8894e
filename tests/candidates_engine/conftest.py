"""The programs here are candidates under test (stdin/stdout programs), run only through
``gamecert certify`` and the sandbox; pytest must not import them (doctest collection would
run them and read its own stdin), so this folder is excluded from collection."""

collect_ignore_glob = ["*.py"]
