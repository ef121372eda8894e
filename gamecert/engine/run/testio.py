"""A test's files and the gate runs pass through: what :mod:`gamecert.engine.run.sandbox` uses per run.

A test's stdin and stdout are anonymous files (``memfd``) made here: stdin sealed, the
candidate's descriptors read-only and write-only. Nothing has a name a candidate could replace.
"""

from __future__ import annotations

import fcntl
import os
import threading
from contextlib import contextmanager

_SEALS = fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE
_STDERR_TAIL_LINES = 20
_STDERR_TAIL_BYTES = 16384


class _Gate:
    """Runs of all runners of this process share the machine; a *quiet* run (a re-run that
    decides a time verdict) waits until no other run is in progress and keeps the others out
    while it runs, so that its CPU time is not inflated by this harness's own load."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._running = 0
        self._quiet = 0

    @contextmanager
    def run(self, quiet: bool):
        self.enter(quiet)
        try:
            yield
        finally:
            self.leave(quiet)

    def enter(self, quiet: bool) -> None:
        with self._cond:
            if quiet:
                self._quiet += 1
                self._cond.wait_for(lambda: self._running == 0)
            else:
                self._cond.wait_for(lambda: self._quiet == 0)
            self._running += 1

    def try_enter(self) -> bool:
        """Enter for a run that is not quiet if no quiet run waits (never blocks: for a test
        sent ahead, whose sender holds a run already)."""
        with self._cond:
            if self._quiet:
                return False
            self._running += 1
            return True

    def leave(self, quiet: bool) -> None:
        with self._cond:
            self._running -= 1
            if quiet:
                self._quiet -= 1
            self._cond.notify_all()


#: the gate every runner of this process passes through
GATE = _Gate()


def _test_files(data: bytes) -> tuple[int, int, int]:
    """A test's files, unnamed: stdin (``data``, sealed; a read-only descriptor for the
    candidate), stdout (a write-only descriptor for the candidate) and the harness's own
    read-write descriptor on stdout."""
    source = os.memfd_create("input", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(source, view) :]
        fcntl.fcntl(source, fcntl.F_ADD_SEALS, _SEALS)
        stdin = os.open(f"/proc/self/fd/{source}", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        os.close(source)
    out = os.memfd_create("output", os.MFD_CLOEXEC)
    stdout = os.open(f"/proc/self/fd/{out}", os.O_WRONLY | os.O_CLOEXEC)
    return stdin, stdout, out


def _read_head_fd(fd: int, limit: int) -> tuple[int, bytes]:
    """The bytes a program wrote to the file open on ``fd`` (its standard output): how many, and
    the first ``limit`` of them. Only what was written counts, as on a pipe: a program that
    seeks past its end (``lseek``, ``ftruncate``) leaves holes, which are neither output nor
    read (a 32 MB file of one written byte is one page of output, not 32 MB to judge). The
    file's written extents are found with ``SEEK_DATA``/``SEEK_HOLE`` (page-sized on a memfd:
    the zeros of a written page are output); a file without holes is one extent."""
    size = os.fstat(fd).st_size
    chunks, total, got, at = [], 0, 0, 0
    while at < size:
        try:
            start = os.lseek(fd, at, os.SEEK_DATA)
            end = min(os.lseek(fd, start, os.SEEK_HOLE), size)
        except OSError:  # ENXIO: no data after ``at``
            break
        total += end - start
        while start < end and got < limit:
            chunk = os.pread(fd, min(end - start, limit - got), start)
            if not chunk:
                break
            chunks.append(chunk)
            start += len(chunk)
            got += len(chunk)
        at = end
    return total, b"".join(chunks)


def _tail_lines(data: bytes) -> str:
    """The last lines of a stderr tail, decoded leniently."""
    lines = data[-_STDERR_TAIL_BYTES:].decode(errors="replace").splitlines()
    return "\n".join(lines[-_STDERR_TAIL_LINES:])
