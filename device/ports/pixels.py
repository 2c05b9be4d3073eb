"""PLACEHOLDER: the protocol engineer replaces this whole file."""
from __future__ import annotations

from collections.abc import Sequence

from cobi_companion.device.ports.die_readings import PIXELS, Reading

KIND = PIXELS
SERVICE = ""
NOTIFY = ""
WRITE = ""


class _Decoder:
    def feed(self, data: bytes) -> list[Reading]:
        return []


def advertises(name: str | None, service_uuids: Sequence[str]) -> bool:
    return False


def decoder() -> _Decoder:
    return _Decoder()


def hello() -> list[bytes]:
    return []


def ask_battery() -> bytes:
    return b""


def light(colour: tuple[int, int, int] | None) -> bytes | None:
    return None


def flash() -> bytes:
    return b""
