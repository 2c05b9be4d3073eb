"""Benchmark: the memory a panel that never answers costs, retried through the box's own
reconnect path.

The box's OLED port (`OledDisplay` with `luma_factory`, as the box builds it) over luma's real
i2c interface and ssd1306 driver, on an smbus stand-in for an open /dev/i2c-1 with no panel on
it: every write is NAKed (EREMOTEIO), which luma's i2c raises as DeviceNotFoundError. Each
retry is what a child turning the knob of a box with a loose OLED causes: `wake` (try the lost
panel again at once) and a frame to `show`. After 50 retries untimed, the growth over
`retries` more: VmRSS (no tracing); then, traced from 50 more retries on, Python's allocations
(tracemalloc) over as many again; and the luma devices still alive at the end.

    .venv/bin/python bench/dark_panel.py [--retries N]      # 1,000 by default: a few seconds
    python3 run.py bench                                     # bench/device.py prints its rows
"""
from __future__ import annotations

import argparse
import errno
import gc
import json
import logging
import sys
import tracemalloc
from pathlib import Path
from typing import Any

from cobi_companion.device.ports.display import OledDisplay, luma_factory
from luma.core.device import device as LumaDevice
from luma.core.interface.serial import i2c
from PIL import Image

RETRIES = 1000
WARM_UP = 50


class DarkSMBus:
    """smbus2.SMBus for a bus with no panel on it: every write is NAKed."""

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def close(self) -> None:
        pass


def vm_rss() -> int:
    """This process's resident memory in bytes."""
    status = Path("/proc/self/status").read_text().splitlines()
    return int(next(line.split()[1] for line in status if line.startswith("VmRSS"))) * 1024


def measure(retries: int = RETRIES) -> dict[str, Any]:
    """The growth in bytes (VmRSS, tracemalloc) over `retries` retries each, and what is left."""
    logging.disable(logging.WARNING)            # the port warns at every failed retry
    make = luma_factory("ssd1306", 1, 0x3C, 0, bus=lambda: i2c(bus=DarkSMBus()))
    display = OledDisplay("ssd1306", make_device=make)
    image = Image.new("1", (128, 64))

    def retry(times: int) -> None:
        for _ in range(times):
            display.wake()                      # a knob turned: the lost panel at once
            display.show(image)

    retry(WARM_UP)
    gc.collect()
    rss = vm_rss()
    retry(retries)
    gc.collect()
    rss = vm_rss() - rss
    tracemalloc.start()
    retry(WARM_UP)                              # once more: the first traced calls' one-offs
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0]
    retry(retries)
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] - traced
    tracemalloc.stop()
    logging.disable(logging.NOTSET)
    devices = sum(isinstance(thing, LumaDevice) for thing in gc.get_objects())
    return {"retries": retries, "errors": display.errors, "rss_bytes": rss,
            "traced_bytes": traced, "luma_devices": devices, "healthy": display.healthy}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--retries", type=int, default=RETRIES, metavar="N")
    parser.add_argument("--json", action="store_true", help="one line of JSON")
    args = parser.parse_args(argv)
    got = measure(args.retries)
    if args.json:
        print(json.dumps(got))
    else:
        print(f"{got['retries']:,} retries of a panel that never answers "
              f"({got['errors']:,} failed opens in all)")
        print(f"  VmRSS growth          {got['rss_bytes']:>14,} B")
        print(f"  tracemalloc growth    {got['traced_bytes']:>14,} B   (target 0)")
        print(f"  luma devices alive    {got['luma_devices']:>14,}")
    return 0 if got["errors"] == 2 * (WARM_UP + args.retries) and not got["healthy"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
