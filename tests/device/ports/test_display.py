"""The OLED adapter against luma's own `dummy` device, with I2C faults injected."""
from __future__ import annotations

import itertools
from typing import Any

import pytest
from cobi_companion.device.ports.display import MAX_DELAY_S, MemoryDisplay, OledDisplay
from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError
from PIL import Image, ImageDraw


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Panel(dummy):
    """A luma dummy that records contrast and cleanup, and fails on demand."""

    def __init__(self, failing_frames: set[int] = frozenset(), **kwargs: Any) -> None:
        super().__init__(width=128, height=64, mode="1", **kwargs)
        self.failing_frames = failing_frames
        self.frame = 0
        self.levels: list[int] = []
        self.cleaned = False

    def display(self, image: Image.Image) -> None:
        self.frame += 1
        if self.frame in self.failing_frames:
            raise OSError(121, "Remote I/O error")
        super().display(image)

    def contrast(self, level: int) -> None:
        self.levels.append(level)

    def cleanup(self) -> None:
        self.cleaned = True
        super().cleanup()


class Maker:
    """make_device: raises DeviceNotFoundError for the first `missing` calls, then a Panel."""

    def __init__(self, missing: int = 0, panel: Panel | None = None) -> None:
        self.missing = missing
        self.panel = panel or Panel()
        self.calls = 0

    def __call__(self) -> Panel:
        self.calls += 1
        if self.calls <= self.missing:
            raise DeviceNotFoundError("I2C device not found on address: 0x3C")
        return self.panel


def frame(text: str) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((10, 20), text, fill=1)
    return image


def same(a: Image.Image | None, b: Image.Image) -> bool:
    return a is not None and a.tobytes() == b.tobytes()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_show_pushes_the_image_and_sets_contrast(clock):
    maker = Maker()
    oled = OledDisplay(contrast=200, make_device=maker, clock=clock)
    assert maker.calls == 0  # created lazily
    oled.show(frame("COBI"))
    assert same(maker.panel.image, frame("COBI"))
    assert maker.panel.levels == [200]
    assert oled.healthy and oled.errors == 0


def test_other_image_modes_are_converted(clock):
    maker = Maker()
    OledDisplay(make_device=maker, clock=clock).show(frame("L").convert("L"))
    assert maker.panel.image.mode == "1" and same(maker.panel.image, frame("L"))


@pytest.mark.parametrize(("failing", "rebuilt_at"), [
    ({2, 4, 6}, [0, 0.75, 1.5, 2.25]),    # every other frame: a good frame resets the delay
    ({2, 3, 4}, [0, 0.75, 1.75, 3.75]),   # rebuilt but still failing: 0.5, 1, 2 s
])
def test_a_flaky_bus_never_raises_and_backs_off(clock, failing, rebuilt_at):
    panel = Panel(failing_frames=failing)
    maker = Maker(panel=panel)
    oled = OledDisplay(make_device=maker, clock=clock)
    built = []
    while clock.now <= 5:
        calls = maker.calls
        oled.show(frame(f"{clock.now}"))  # a new frame every 0.25 s
        if maker.calls > calls:
            built.append(clock.now)
            assert same(panel.image, frame(f"{clock.now}")) or not oled.healthy
        clock.now += 0.25
    assert built == rebuilt_at
    assert oled.healthy and oled.errors == 3
    assert same(panel.image, frame("5.0"))


def test_refresh_redraws_the_last_wanted_frame_when_the_panel_is_back(clock):
    panel = Panel(failing_frames={2})
    oled = OledDisplay(make_device=Maker(panel=panel), clock=clock)
    oled.show(frame("old"))
    oled.show(frame("wanted"))  # fails
    oled.refresh()  # too early
    assert not oled.healthy and same(panel.image, frame("old"))
    clock.now = 0.5
    oled.refresh()
    assert oled.healthy and same(panel.image, frame("wanted"))
    oled.refresh()  # healthy: nothing to do
    assert panel.frame == 3


def test_a_missing_panel_is_retried_with_doubling_delays_up_to_30_s(clock):
    maker = Maker(missing=10)
    oled = OledDisplay(make_device=maker, clock=clock)
    attempts = []
    while clock.now < 200 and maker.calls <= maker.missing:
        calls = maker.calls
        oled.show(frame(f"{clock.now}"))
        if maker.calls > calls:
            attempts.append(clock.now)
        clock.now += 0.25
    gaps = [b - a for a, b in itertools.pairwise(attempts)]
    assert gaps == [0.5, 1, 2, 4, 8, 16, MAX_DELAY_S, MAX_DELAY_S, MAX_DELAY_S, MAX_DELAY_S]
    assert oled.healthy and oled.errors == 10
    assert same(maker.panel.image, frame(f"{attempts[-1]}"))


def test_construction_fails_then_succeeds_with_the_dim_state_kept(clock):
    maker = Maker(missing=1)
    oled = OledDisplay(contrast=255, dim_contrast=16, make_device=maker, clock=clock)
    oled.show(frame("boot"))
    assert not oled.healthy and maker.panel.image is None
    oled.dim(True)  # nothing to talk to: remembered
    clock.now = 1
    oled.refresh()
    assert oled.healthy and maker.panel.levels == [16] and same(maker.panel.image, frame("boot"))
    oled.dim(False)
    assert maker.panel.levels == [16, 255]


def test_faults_in_contrast_and_cleanup_do_not_escape(clock):
    class Broken(Panel):
        def contrast(self, level: int) -> None:
            raise DeviceNotFoundError("I2C device not found on address: 0x3C")

        def cleanup(self) -> None:
            raise OSError(121, "Remote I/O error")

    oled = OledDisplay(make_device=Maker(panel=Broken()), clock=clock)
    oled.show(frame("x"))
    oled.dim(True)
    oled.close()
    assert not oled.healthy and oled.errors == 1


def test_unexpected_errors_are_logged_not_raised(clock, caplog):
    def make() -> Panel:
        raise ModuleNotFoundError("No module named 'smbus2'")

    oled = OledDisplay(make_device=make, clock=clock)
    oled.show(frame("x"))
    assert "smbus2" in caplog.text and not oled.healthy


def test_close_cleans_up_and_later_frames_are_ignored(clock):
    maker = Maker()
    oled = OledDisplay(make_device=maker, clock=clock)
    oled.show(frame("bye"))
    oled.close()
    oled.show(frame("after"))
    assert maker.panel.cleaned and maker.calls == 1


def test_unknown_driver_is_a_config_error():
    with pytest.raises(ValueError, match="ssd1306"):
        OledDisplay(driver="st7735")


def test_memory_display_keeps_real_pixels():
    memory = MemoryDisplay()
    memory.show(frame("A"))
    memory.show(frame("B").convert("L"))
    memory.dim(True)
    assert memory.frames == 2 and memory.dimmed and memory.healthy
    assert same(memory.image, frame("B"))
    assert memory.image.getpixel((0, 0)) == 0


def test_memory_display_rotates_like_the_panel():
    memory = MemoryDisplay(rotate=1)  # a quarter turn: screens are drawn 64 wide, 128 high
    memory.show(Image.new("1", (64, 128)))
    assert memory.image.size == (128, 64)
