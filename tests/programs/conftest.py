"""Candidate programs in every supported language, run only through the sandbox (never imported)."""

collect_ignore_glob = ["*/*"]
