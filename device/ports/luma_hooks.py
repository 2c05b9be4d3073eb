"""Letting go of a luma device: luma's `device.__init__` registers an atexit hook that switches
the panel off when the process ends, and the hook's closure holds the device, so every device
ever built lives until then (an ssd1306 with its pixel mask and offsets is ~0.3 MiB). The OLED
port takes out the hook of each device it gives up: one whose panel stopped answering, whose
set-up failed half-way, or that it closed itself.

atexit has no list to read; `atexit.unregister` compares each registered function with `==`
(documented: "function references do not need to have matching identities"), and a function has
no `==` of its own, so Python asks the other side's: `HookOf` is equal to exactly the hooks whose
closure holds what it picks. A taken-out hook still leaves atexit's C array one slot longer (8
bytes a device, never reused), which is why the port builds no device for a panel that does not
answer at all (display.py's `luma_factory`).
"""
from __future__ import annotations

import atexit
from collections.abc import Callable
from typing import cast

from luma.core.device import device as LumaDevice


class HookOf:
    """Equal to a function whose closure holds an object `picks` says yes to."""

    def __init__(self, picks: Callable[[object], bool]) -> None:
        self._picks = picks

    def __eq__(self, other: object) -> bool:
        for cell in getattr(other, "__closure__", None) or ():
            try:
                held = cell.cell_contents
            except ValueError:          # a cell not filled yet
                continue
            if self._picks(held):
                return True
        return False

    __hash__ = None  # type: ignore[assignment]  # equal to functions: never a dict key


def unhook(device: object) -> None:
    """Take out luma's atexit hook of `device`, so that it can be freed now."""
    unregister(lambda held: held is device)


def unhook_half_built(serial: object) -> None:
    """Take out the hook of a device whose set-up raised: the caller never got the device, only
    the serial interface it was built on (luma keeps it as `_serial_interface`)."""
    unregister(lambda held: isinstance(held, LumaDevice)
               and getattr(held, "_serial_interface", None) is serial)


def unregister(picks: Callable[[object], bool]) -> None:
    """Take out every atexit hook whose closure holds what `picks` says yes to."""
    atexit.unregister(cast(Callable[[], object], HookOf(picks)))  # only compared, never called
