"""The OLED port: push ready-made Pillow images to a luma device, and outlive I2C faults.

Frames go to an SSD1306 or SH1106 through `pages.py`: packed by Pillow, and only the pages
that changed since the last frame; other devices (luma's dummy) take them whole.

A loose wire or a brown-out must not end a battle. A bus transfer that fails is sent once
more at once (a lone NAK costs nothing); when that fails too the panel is marked lost, and
later calls rebuild it with exponential back-off and redraw the last wanted frame, whole.
Each device given up is let go of whole, its bus closed and luma's atexit hook taken out
(`luma_hooks.py`), and a panel that does not answer gets no device at all: a loose OLED
retried at every turn of the knob costs no memory.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from cobi_companion.device.ports.luma_hooks import unhook, unhook_half_built
from cobi_companion.device.ports.panel import DRIVERS, HEIGHT, WIDTH
from luma.core.const import common as luma_commands
from luma.core.device import dummy
from luma.core.error import Error as LumaError
from luma.core.interface.serial import i2c
from PIL import Image

log = logging.getLogger(__name__)

# What a NAK looks like through luma: its i2c turns EREMOTEIO/EIO in a command into
# DeviceNotFoundError, and lets the raw OSError of a data write through.
BUS_ERRORS = (LumaError, OSError)

FIRST_DELAY_S = 0.5
MAX_DELAY_S = 30.0
MakeDevice = Callable[[], Any]


class RetryOnce:
    """A luma serial interface that sends a failed transfer once more, at once.

    A failed data write is sent again behind the command sent before it: in luma's ssd1306
    and sh1106 drivers that command sets the address window (the whole frame, or one page),
    and a write the panel took in part has moved the panel's address on. So the retry puts
    the whole block where it belongs. A second failure in a row is raised.
    """

    def __init__(self, serial: Any) -> None:
        self.serial = serial
        self.retries = 0
        self._last: tuple[int, ...] = ()

    def command(self, *cmd: int) -> None:
        try:
            self.serial.command(*cmd)
        except BUS_ERRORS as exc:
            self._again("command", exc)
            self.serial.command(*cmd)
        self._last = cmd

    def data(self, data: Sequence[int]) -> None:
        try:
            self.serial.data(data)
        except BUS_ERRORS as exc:
            self._again("data", exc)
            if self._last:
                self.serial.command(*self._last)
            self.serial.data(data)

    def cleanup(self) -> None:
        self.serial.cleanup()

    def _again(self, what: str, exc: Exception) -> None:
        self.retries += 1
        log.debug("display %s transfer failed (%s): sending it again", what, exc)


def luma_factory(driver: str, port: int, address: int, rotate: int,
                 bus: Callable[[], Any] | None = None) -> MakeDevice:
    """A function building the panel; it closes the bus again if the panel is silent.

    `bus` makes the luma serial interface (default: I2C `port` at `address`); each of its
    transfers is retried once (`RetryOnce`). "dummy" is luma's panel without a bus.

    The panel is first sent the command luma's set-up begins with (display off), alone: a
    panel that does not answer it gets no luma device, whose atexit hook would outlive it.
    """
    if driver == "dummy":
        return lambda: dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    from luma.oled.device import sh1106, ssd1306  # the Pi needs them, the simulator does not

    cls = {"ssd1306": ssd1306, "sh1106": sh1106}[driver]
    open_bus = bus or (lambda: i2c(port=port, address=address))

    def make() -> Any:
        serial = RetryOnce(open_bus())
        try:
            serial.command(luma_commands.DISPLAYOFF)    # does the panel answer at all?
            return cls(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
        except BaseException:
            unhook_half_built(serial)   # a set-up that failed half-way left its device hooked
            serial.cleanup()            # else each retry leaks an open /dev/i2c-N
            raise

    return make


class OledDisplay:
    """An SSD1306/SH1106 on I2C (or luma's dummy), created at the first `show`. No method
    ever raises."""

    def __init__(self, driver: str = "ssd1306", port: int = 1, address: int = 0x3C,
                 rotate: int = 0, contrast: int = 255, make_device: MakeDevice | None = None,
                 clock: Callable[[], float] = time.monotonic, dim_contrast: int = 16) -> None:
        if driver not in DRIVERS:
            raise ValueError(f"unknown display driver {driver!r}; known: {', '.join(DRIVERS)}")
        self._make = make_device or luma_factory(driver, port, address, rotate)
        self._clock = clock
        self._levels = (contrast, dim_contrast)
        self._device: Any = None
        self._send: Callable[[Image.Image], None] = nowhere
        self._wanted: Image.Image | None = None
        self._dimmed = False
        self._on = True
        self._lost = False
        self._closed = False
        self._delay = FIRST_DELAY_S
        self._retry_at = float("-inf")
        self.errors = 0

    @property
    def healthy(self) -> bool:
        """False from a fault until the panel has been rebuilt."""
        return not self._lost

    def show(self, image: Image.Image) -> None:
        """Draw `image` now, or as soon as the panel is back."""
        self._wanted = image
        device = self._connected()
        if device is not None:
            self._push(device, image)

    def refresh(self) -> None:
        """Retry a lost panel without a new frame (call it on Tick)."""
        if self._lost and self._wanted is not None:
            self.show(self._wanted)

    def dim(self, on: bool) -> None:
        """Dim contrast (idle) or full contrast; remembered while the panel is lost."""
        self._dimmed = on
        if self._device is not None:
            self._guard("contrast", lambda device: device.contrast(self._level()))

    def brightness(self, level: int) -> None:
        """The full (not dimmed) contrast, 0-255, from the settings screen."""
        self._levels = (max(0, min(255, level)), self._levels[1])
        self.dim(self._dimmed)

    def wake(self) -> None:
        """A control was touched: a lost panel is tried again at the next `show`/`refresh`
        instead of after its back-off, and the back-off starts again from the first delay."""
        if self._lost:
            self._retry_at = float("-inf")
            self._delay = FIRST_DELAY_S

    def power(self, on: bool) -> None:
        """Switch the panel off (against burn-in; frames are still drawn into it, unseen) or
        on again; remembered while the panel is lost and applied when it is back."""
        self._on = on
        if self._device is not None:
            self._guard("power", self._apply_power)

    def close(self, keep_frame: bool = False) -> None:
        """Release the bus; the panel is blanked and switched off, or with `keep_frame` it
        keeps showing the last frame after the process has ended."""
        self._closed = True
        device = self._let_go()
        if device is not None:
            try:
                if keep_frame:
                    device.persist = True  # luma's cleanup then neither hides nor clears
                device.cleanup()
            except Exception as exc:
                log.warning("display cleanup failed: %s", exc)
                release(device)
            unhook(device)  # else luma's atexit hook would blank the panel again at the end

    def _let_go(self) -> Any:
        """The device, which the display no longer holds (nor does its sender)."""
        device, self._device, self._send = self._device, None, nowhere
        return device

    def _level(self) -> int:
        return self._levels[1] if self._dimmed else self._levels[0]

    def _connected(self) -> Any:
        if self._device is not None or self._closed or self._clock() < self._retry_at:
            return self._device
        try:
            device = self._make()
        except Exception as exc:
            self._fail("open", exc)
            return None
        self._device = device
        self._send = frames_to(device)      # a new panel: its first frame goes whole
        if self._lost:
            log.info("display is back after %d errors", self.errors)
        self._lost = False
        self._guard("contrast", lambda device: device.contrast(self._level()))
        if not self._on:  # luma's set-up switches the panel on: off again before any frame
            self._guard("power", self._apply_power)
        return self._device

    def _apply_power(self, device: Any) -> None:
        if self._on:
            device.show()
        else:
            device.hide()

    def _push(self, device: Any, image: Image.Image) -> None:
        if image.mode != device.mode:
            image = image.convert(device.mode)
        if self._guard("display", lambda device: self._send(image)):
            self._delay = FIRST_DELAY_S  # a frame got through: the panel really is back

    def _guard(self, what: str, action: Callable[[Any], object]) -> bool:
        device = self._device
        if device is None:
            return False
        try:
            action(device)
        except Exception as exc:
            self._fail(what, exc)
            return False
        return True

    def _fail(self, what: str, exc: Exception) -> None:
        self.errors += 1
        self._lost = True
        self._retry_at = self._clock() + self._delay
        if isinstance(exc, LumaError | OSError):
            # The words, not the exception: a log record kept (a test's capture) would keep
            # its traceback, whose frames hold a half-built luma device.
            log.warning("display %s failed (%s); retry in %.1f s", what, str(exc), self._delay)
        else:
            log.error("display %s failed; retry in %.1f s", what, self._delay, exc_info=exc)
        self._delay = min(self._delay * 2, MAX_DELAY_S)
        device = self._let_go()
        if device is not None:
            release(device)


def nowhere(image: Image.Image) -> None:
    """Where frames go while there is no panel."""


def frames_to(device: Any) -> Callable[[Image.Image], None]:
    """How frames reach `device`: page by page on a real panel, else its own `display`."""
    if isinstance(device, dummy):
        send: Callable[[Image.Image], None] = device.display
        return send
    from cobi_companion.device.ports.pages import sender  # loads luma.oled: a real panel's

    return sender(device) or device.display


def release(device: Any) -> None:
    """Close a lost panel's bus, skipping the blanking commands that would fail too, and
    let go of the device: luma's atexit hook would keep it (and an unclosed /dev/i2c-N) alive
    until the process ends.
    """
    try:
        device.persist = True
        device.cleanup()
    except Exception as exc:
        log.debug("closing the lost display: %s", exc)
    unhook(device)


class MemoryDisplay:
    """Test double on luma's `dummy` device: real pixels in `.image`, frames counted."""

    def __init__(self, width: int = WIDTH, height: int = HEIGHT, rotate: int = 0) -> None:
        self.device = dummy(width=width, height=height, rotate=rotate, mode="1")
        self.frames = 0
        self.dimmed = False
        self.level = 255
        self.off = False
        self.wakes = 0
        self.closed = False
        self.kept_frame = False
        self.errors = 0
        self.healthy = True

    @property
    def image(self) -> Image.Image | None:
        """The last frame as the panel holds it (mode "1", after rotation)."""
        image: Image.Image | None = self.device.image
        return image

    def show(self, image: Image.Image) -> None:
        self.device.display(image if image.mode == "1" else image.convert("1"))
        self.frames += 1

    def refresh(self) -> None:
        pass

    def dim(self, on: bool) -> None:
        self.dimmed = on

    def brightness(self, level: int) -> None:
        self.level = level

    def wake(self) -> None:
        self.wakes += 1

    def power(self, on: bool) -> None:
        self.off = not on

    def close(self, keep_frame: bool = False) -> None:
        self.closed = True
        self.kept_frame = keep_frame
