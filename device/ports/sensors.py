"""The box's range sensors as the app sees them: by name, each reader with its settings, and
which are online. Apart from the readers themselves (range_reader.py) so that a box without
sensors never loads their serial parsers."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cobi_companion.device.ports.events import SensorState
    from cobi_companion.device.ports.range_reader import SensorReader


class Sensors:
    """The box's range sensors by name: their readers and settings, and which are online."""

    def __init__(self, readers: dict[str, tuple[SensorReader, Any]] | None = None) -> None:
        self._readers = readers or {}
        self._online = {name: False for name in self._readers}

    def online_names(self) -> list[str]:
        return [name for name, online in self._online.items() if online]

    def config(self, name: str) -> Any:
        """The sensor's [[sensors]] table: samples, offset_cm, margin_cm, ..."""
        return self._readers[name][1]

    def want(self, name: str, count: int) -> None:
        self._readers[name][0].want(count)

    def update(self, event: SensorState) -> None:
        if event.sensor in self._online:
            self._online[event.sensor] = event.online

    def start(self) -> Sensors:
        for reader, _ in self._readers.values():
            reader.start()
        return self

    def close(self) -> None:
        for reader, _ in self._readers.values():
            reader.close()
