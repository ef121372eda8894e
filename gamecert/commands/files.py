"""Reading what a user names on the command line (an input, a claims file, or ``-`` for standard
input): bounded in size, UTF-8, and any problem a one-line usage error."""

from __future__ import annotations

import sys

#: the most a command reads from an input or claims file (these are small by nature); a file
#: larger than this (or an endless one such as /dev/zero) is refused, not read into memory
MAX_READ_BYTES = 64 << 20


def read_text(path: str, limit: int = MAX_READ_BYTES) -> str:
    """A UTF-8 text file (``-``: standard input), at most ``limit`` bytes, else a UsageError.

    >>> read_text("/nonexistent/claims.txt")
    Traceback (most recent call last):
    gamecert.errors.UsageError: cannot read /nonexistent/claims.txt: No such file or directory
    """
    from gamecert.errors import UsageError

    where = "standard input" if path == "-" else path
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            if stdin is None:
                raise UsageError(
                    "cannot read standard input: it is closed; give a file, or pipe the input in"
                )
            data = stdin.read(limit + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {where}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise UsageError(
            f"cannot read {where}: larger than {limit >> 20} MB; inputs and claims files are small"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"cannot read {where}: not UTF-8 text (byte {exc.start}: {data[exc.start : exc.start + 1]!r})"
        ) from None
