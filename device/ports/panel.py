"""The OLED panel's constants: its size, the drivers the display port builds, and the panel
settings of the config's [display] table with their defaults and allowed ranges. A module of its
own so that the boot screen and the config read them without loading luma."""
from __future__ import annotations

from typing import Any, Literal, get_args

WIDTH, HEIGHT = 128, 64

# "dummy" is luma's panel that needs no bus: for tests, and for trying the box without a panel.
# The one list of them: the config's type and its check read `Driver`, the others DRIVERS.
Driver = Literal["ssd1306", "sh1106", "dummy"]
DRIVERS: tuple[str, ...] = get_args(Driver)

# The panel keys of the config's [display] table and their defaults: `config.Display` takes its
# defaults from here, and they are `OledDisplay`'s arguments.
PANEL_DEFAULTS: dict[str, Any] = {"driver": "ssd1306", "port": 1, "address": 0x3C, "rotate": 0,
                                  "contrast": 255, "dim_contrast": 16}
# What `config.Display` allows for them (tests/device/test_boot.py keeps the two in step).
RANGES = {"port": (0, 31), "address": (0x03, 0x77), "rotate": (0, 3), "contrast": (0, 255),
          "dim_contrast": (0, 255)}
