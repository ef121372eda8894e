"""Candidates sent to pytest-xdist workers that share no file system with the controller.

The controller packs each candidate into a :class:`Shipment`: for a source file or an
executable its bytes and their sha256, the file's name and the compile command override (if
any); for a command line the command alone. xdist carries the shipment to every worker in
``node.workerinput`` (plain strings and numbers, the bytes in base64). A worker unpacks it into a
folder of its own, checks the sha256 of what it wrote, and prepares the candidate there: a source
is compiled on the worker's host (its own build cache, its own toolchain). A worker whose bytes do
not match the hash, or whose prepared source does not hash the same, refuses to run it
(:class:`ShipmentError`), so no result of a different program is merged into the report.

A command line is shipped as text: whatever it names (an interpreter, a script) must exist at the
same place on every host.
"""

from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.errors import GamecertError

#: largest file shipped (bytes); a candidate is a program, not a data set
MAX_SHIPPED_BYTES = 64 << 20


class ShipmentError(GamecertError):
    """A shipped candidate cannot be packed, or arrived different from what was sent."""


@dataclass(frozen=True)
class Shipment:
    """One candidate as it travels: ``kind`` is ``source``, ``executable`` or ``command``."""

    spec: str
    kind: str
    name: str = ""
    sha256: str = ""
    data: bytes = b""
    compile: str | None = None

    def to_wire(self) -> dict[str, Any]:
        """Plain values execnet can carry to a worker.

        >>> w = Shipment("a.py", "source", "a.py", "x", b"print(1)").to_wire()
        >>> w["data"], Shipment.from_wire(w).data
        ('cHJpbnQoMSk=', b'print(1)')
        """
        return {
            "spec": self.spec,
            "kind": self.kind,
            "name": self.name,
            "sha256": self.sha256,
            "data": base64.b64encode(self.data).decode("ascii"),
            "compile": self.compile,
        }

    @classmethod
    def from_wire(cls, wire: dict[str, Any]) -> Shipment:
        try:
            data = base64.b64decode(wire["data"], validate=True)
            return cls(
                wire["spec"], wire["kind"], wire["name"], wire["sha256"], data, wire.get("compile")
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ShipmentError(
                f"the candidate sent by the controller is malformed: {exc}"
            ) from None


def sha256_of(data: bytes) -> str:
    """The hex sha256 of ``data``.

    >>> sha256_of(b"")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data).hexdigest()


def pack(candidate: Any, compile: str | None = None) -> Shipment:
    """The shipment of a prepared :class:`gamecert.engine.run.sandbox.Candidate` (in the controller)."""
    if candidate.source is not None:
        path, expected, kind = Path(candidate.source), candidate.source_sha256, "source"
    elif candidate.language == "executable" and candidate.binary is not None:
        path, expected, kind = Path(candidate.binary), candidate.binary_sha256, "executable"
    else:
        return Shipment(candidate.spec, "command", compile=compile)
    try:
        if path.stat().st_size > MAX_SHIPPED_BYTES:
            raise ShipmentError(
                f"candidate {candidate.spec!r} is larger than {MAX_SHIPPED_BYTES >> 20} MB; "
                "it cannot be sent to the workers"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise ShipmentError(
            f"cannot read candidate {candidate.spec!r} to send it to the workers: "
            f"{exc.strerror or exc}"
        ) from None
    digest = sha256_of(data)
    if expected and digest != expected:
        raise ShipmentError(
            f"candidate {candidate.spec!r} changed after it was prepared "
            f"(sha256 {expected[:16]}... then, {digest[:16]}... now)"
        )
    return Shipment(candidate.spec, kind, path.name, digest, data, compile)


def unpack(shipment: Shipment, folder: str | os.PathLike[str]) -> Any:
    """Write ``shipment`` into ``folder``, check it, and prepare the candidate (in a worker).

    Raises :class:`ShipmentError` when the bytes or the prepared program do not hash as sent,
    and what :meth:`Candidate.parse` raises when it cannot be prepared (a missing toolchain).
    """
    from gamecert.engine.run.sandbox import Candidate

    if shipment.kind == "command":
        return Candidate.parse(shipment.spec)
    if (
        shipment.kind not in ("source", "executable")
        or not shipment.name
        or "/" in shipment.name
        or shipment.name in (".", "..")
    ):
        raise ShipmentError(
            f"the candidate sent by the controller is malformed (kind {shipment.kind!r}, "
            f"name {shipment.name!r})"
        )
    path = Path(folder) / shipment.name
    path.write_bytes(shipment.data)
    written = sha256_of(path.read_bytes())
    if written != shipment.sha256:
        raise ShipmentError(
            f"candidate {shipment.spec!r} arrived with sha256 {written} but the controller sent "
            f"{shipment.sha256}; refusing to run a different program"
        )
    if shipment.kind == "executable":
        path.chmod(0o755)
    candidate = Candidate.parse(str(path), compile=shipment.compile)
    got = candidate.source_sha256 if shipment.kind == "source" else candidate.binary_sha256
    if got != shipment.sha256:
        raise ShipmentError(
            f"candidate {shipment.spec!r} was prepared from sha256 {got or '(unreadable)'}, "
            f"not the {shipment.sha256} the controller sent"
        )
    return candidate


__all__ = ["MAX_SHIPPED_BYTES", "Shipment", "ShipmentError", "pack", "sha256_of", "unpack"]
