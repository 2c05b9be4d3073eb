"""A panel that does not answer costs no memory however often it is retried: the OLED port
lets go of every luma device it gives up (luma's atexit hook held each one until the process
ended, ~0.3 MiB an ssd1306) and closes its bus. Counted in live luma device objects and in
opened and closed buses, never in wall time or RSS."""
from __future__ import annotations

import errno
import gc
import random
from collections.abc import Callable

import pytest
from cobi_companion.device.ports.display import FIRST_DELAY_S, OledDisplay, luma_factory
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from panel_bus import DISPLAY_OFF, Bus, Clock, noise, oled
from PIL import Image

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

RETRIES = 50


class DarkSMBus:
    """An smbus2.SMBus standing for an open /dev/i2c-1 with no panel on it: every write is
    NAKed (EREMOTEIO), which luma's i2c turns into DeviceNotFoundError."""

    def __init__(self, buses: list[DarkSMBus]) -> None:
        self.closed = False
        buses.append(self)

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def close(self) -> None:
        self.closed = True


class OwnBus(i2c):
    """luma's real i2c interface on a bus of its own, closed by its cleanup as luma's i2c closes
    the /dev/i2c-N it opened itself (luma leaves a bus handed to it open)."""

    def cleanup(self) -> None:
        self._bus.close()


def live_luma_devices() -> int:
    """luma's panel drivers alive in this process (not its dummy, which other tests' displays
    use: those come and go on their own)."""
    gc.collect()
    return sum(isinstance(thing, sh1106 | ssd1306) for thing in gc.get_objects())


def dark_panel(driver: str) -> tuple[OledDisplay, list[DarkSMBus]]:
    buses: list[DarkSMBus] = []
    make = luma_factory(driver, 1, 0x3C, 0, bus=lambda: OwnBus(bus=DarkSMBus(buses)))
    return OledDisplay(driver, make_device=make), buses


def retried(display: OledDisplay, times: int, turn: Callable[[], None]) -> None:
    image = Image.new("1", (128, 64))
    for _ in range(times):
        turn()                    # a knob turned: the lost panel is tried again at once
        display.show(image)


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_panel_that_never_answers_leaves_no_device_and_no_open_bus(driver):
    display, buses = dark_panel(driver)
    retried(display, 3, display.wake)
    before = live_luma_devices()
    retried(display, RETRIES, display.wake)
    assert display.errors == RETRIES + 3 and not display.healthy
    assert live_luma_devices() == before                  # was + RETRIES: ~0.3 MiB each
    assert len(buses) == RETRIES + 3 and all(bus.closed for bus in buses)


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_set_up_that_fails_half_way_leaves_no_device(driver):
    """The panel answers the first command, then NAKs luma's set-up (twice: its retry too)."""
    bus, clock = Bus(), Clock()
    display, opener = oled(driver, bus, clock)

    def half_answers() -> None:
        bus.nak_at = {bus.count + 2, bus.count + 3}
        display.wake()

    retried(display, 3, half_answers)
    before = live_luma_devices()
    retried(display, RETRIES, half_answers)
    assert display.errors == RETRIES + 3 and opener.opened == RETRIES + 3
    assert live_luma_devices() == before
    assert bus.cleanups == RETRIES + 3                    # each half-built panel's bus closed


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_panel_lost_again_and_again_keeps_one_device(driver):
    """Set up, a frame, then two NAKs in a row: lost, released, set up again at the next try;
    and `close` lets go of the last one too."""
    bus, clock = Bus(), Clock()
    display, opener = oled(driver, bus, clock)
    rng = random.Random(2)
    display.show(noise(rng))
    before = live_luma_devices()                          # the one panel in use
    for _ in range(RETRIES):
        bus.nak_at = {bus.count + 1, bus.count + 2}
        display.show(noise(rng))                          # lost
        clock.now += FIRST_DELAY_S
        wanted = noise(rng)
        display.show(wanted)                              # set up again, drawn
        assert display.healthy and bus.shows(wanted, driver)
    assert opener.opened == RETRIES + 1
    assert live_luma_devices() == before
    display.close()
    assert live_luma_devices() == before - 1


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_panel_that_never_answers_is_sent_only_the_first_command(driver):
    """No luma device is built for it: even a device let go of costs atexit a slot."""
    bus, clock = Bus(rate=1.0), Clock()
    display, opener = oled(driver, bus, clock)
    retried(display, 5, display.wake)
    assert opener.opened == 5 and bus.cleanups == 5
    assert [t.data for t in bus.log] == [(DISPLAY_OFF,)] * 10     # each sent once more
