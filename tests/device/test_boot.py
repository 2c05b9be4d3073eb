"""The first frame: the title before the heavy imports, the panel settings peeked from the
config file without pydantic, and `cobi-companion run` handing the titled panel to the box."""
from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar, get_args

import pytest
from cobi_companion.device import boot, cli, hardware
from cobi_companion.device.boot import PANEL_DEFAULTS, panel_of, peek_panel, show_title
from cobi_companion.device.config import Config, ConfigError, Driver, read_config
from cobi_companion.device.config_check import DisplaySchema
from cobi_companion.device.ports import display as display_module
from cobi_companion.device.ports.display import MemoryDisplay, OledDisplay
from cobi_companion.device.ports.terminal import to_halfblocks
from luma.core.device import dummy
from PIL import Image


@pytest.fixture(autouse=True)
def _no_overlays(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads this machine's boot partition or USB stick."""
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", "")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_title_is_a_frame_of_its_own() -> None:
    image = boot.title_image()
    assert (image.size, image.mode) == ((128, 64), "1")
    assert image.getbbox() is not None


def test_the_peek_reads_the_panel_and_fills_in_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, '[display]\ndriver = "sh1106"\naddress = "0x3D"\nrotate = 2\n'
                           'dim_after_min = 1\n[buttons]\naxis = 4\n')
    assert peek_panel(path) == {**PANEL_DEFAULTS, "driver": "sh1106", "address": 0x3D,
                                "rotate": 2}


def test_a_missing_file_gives_the_defaults(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert peek_panel(tmp_path / "nowhere.toml") == PANEL_DEFAULTS
    monkeypatch.setattr(boot, "SYSTEM_CONFIG", tmp_path / "etc" / "config.toml")
    assert peek_panel(None) == PANEL_DEFAULTS
    assert panel_of(Config().display) == PANEL_DEFAULTS      # one set of defaults for both


def test_the_peek_reads_the_overlays_over_the_file(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, '[display]\naddress = "0x3D"\ncontrast = 99\n')
    on_boot, on_usb = tmp_path / "boot", tmp_path / "usb"
    on_boot.mkdir()
    (on_boot / "config.toml").write_text('[display]\ndriver = "sh1106"\ncontrast = 50\n')
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", os.pathsep.join([str(on_boot), str(on_usb)]))
    assert peek_panel(path) == {**PANEL_DEFAULTS, "driver": "sh1106", "address": 0x3D,
                                "contrast": 50}


def test_run_opens_the_panel_the_boot_partition_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        pi: list[tuple[Config, Any]]) -> None:
    path = write(tmp_path, "[display]\ncontrast = 99\n")
    (tmp_path / "boot").mkdir()
    (tmp_path / "boot" / "config.toml").write_text('[display]\ndriver = "sh1106"\n')
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", str(tmp_path / "boot"))
    assert cli.main(["run", "--config", str(path)]) == 0
    [panel] = Panel.opened
    assert panel.panel == {**PANEL_DEFAULTS, "driver": "sh1106", "contrast": 99}
    [(config, display)] = pi
    assert display is panel and config.display.driver == "sh1106"


ODD = ["address = 153", 'address = "sixty"', "port = -1", "port = 1.0", "port = true",
       "rotate = 4", "contrast = 256", 'contrast = "255"', "dim_contrast = -1",
       'driver = "ssd1309"', "driver = 1306", "[display.port]"]


@pytest.mark.parametrize("line", ODD)
def test_an_odd_panel_value_skips_the_title(tmp_path: Path, line: str) -> None:
    path = write(tmp_path, f"[display]\n{line}\n")
    assert peek_panel(path) is None
    with pytest.raises(ConfigError):           # and the full check reports it
        read_config(path)


@pytest.mark.parametrize("text", ["display = 5\n", "[display\n", "[display]\nport = \n"])
def test_a_file_that_is_not_a_config_skips_the_title(tmp_path: Path, text: str) -> None:
    assert peek_panel(write(tmp_path, text)) is None


@pytest.mark.parametrize("line", [
    "", 'driver = "sh1106"', 'driver = "SSD1306"', "port = 0", "port = 31", "port = 32",
    "address = 3", "address = 2", "address = 0x77", "address = 0x78", 'address = " 0x3c "',
    'address = "0o74"', 'address = "60"', "rotate = 3", "contrast = 0", "contrast = false",
    "dim_contrast = 255", "dim_contrast = 256", "dim_after_min = 7",
])
def test_the_peek_allows_what_the_config_allows(tmp_path: Path, line: str) -> None:
    path = write(tmp_path, f"[display]\n{line}\n")
    peeked = peek_panel(path)
    try:
        checked = read_config(path)
    except ConfigError:
        assert peeked is None
    else:
        assert peeked == panel_of(checked.display)


def test_the_drivers_are_the_configs() -> None:
    assert get_args(DisplaySchema.model_fields["driver"].annotation) == boot.DRIVERS
    assert get_args(Driver) == boot.DRIVERS


class SilentBus(dummy):
    """An OLED that is not there: every frame is an I2C error."""

    def display(self, image: Image.Image) -> None:
        raise OSError(121, "Remote I/O error")


def test_an_i2c_error_on_the_title_does_not_stop_the_start() -> None:
    def no_panel() -> Any:
        raise OSError(2, "No such file or directory: '/dev/i2c-1'")

    display = OledDisplay(make_device=no_panel)
    show_title(display)
    assert display.errors == 1 and not display.healthy
    display = OledDisplay(make_device=lambda: SilentBus(width=128, height=64, mode="1"))
    show_title(display)
    assert display.errors == 1 and not display.healthy


def test_a_display_that_raises_does_not_stop_the_start(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(MemoryDisplay):
        def show(self, image: Image.Image) -> None:
            raise RuntimeError("broken")

    show_title(Broken())
    assert "title frame" in caplog.text


class Panel(MemoryDisplay):
    """Stands in for OledDisplay: the panel arguments it was opened with, and its frames."""

    opened: ClassVar[list[Panel]] = []

    def __init__(self, **panel: Any) -> None:
        super().__init__()
        self.panel = panel
        Panel.opened.append(self)


class NoBox:
    """What hardware.build returns here: a loop that ends at once."""

    def __init__(self) -> None:
        self.loop = SimpleNamespace(handle_signals=lambda: None, run=lambda: "test")
        self.kept: bool | None = None

    def close(self, keep_frame: bool = False) -> None:
        self.kept = keep_frame


@pytest.fixture
def pi(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Config, Any]]:
    """`cobi-companion run` with a stand-in OLED and no box: what the box was built with
    (the settings and the panel; LOADED holds the files it read)."""
    Panel.opened = []
    runs: list[tuple[Config, Any]] = []
    monkeypatch.setattr(display_module, "OledDisplay", Panel)
    monkeypatch.setattr(hardware, "start_logging", lambda: None)
    monkeypatch.setattr(hardware, "install_thread_excepthook", lambda: None)

    def build(config: Config, display: Any, **parts: Any) -> NoBox:
        runs.append((config, display))
        LOADED[:] = [parts["loaded"]]
        return NoBox()
    monkeypatch.setattr(hardware, "build", build)
    return runs


LOADED: list[Any] = []


def test_run_shows_the_title_then_hands_that_panel_to_the_box(
        tmp_path: Path, pi: list[tuple[Config, Any]]) -> None:
    path = write(tmp_path, '[display]\naddress = "0x3D"\ncontrast = 99\n')
    assert cli.main(["run", "--config", str(path)]) == 0
    [panel] = Panel.opened
    assert panel.panel == {**PANEL_DEFAULTS, "address": 0x3D, "contrast": 99}
    assert panel.frames == 1 and panel.image is not None
    assert to_halfblocks(panel.image) == to_halfblocks(boot.title_image())
    [(config, display)] = pi
    assert display is panel and config.display.contrast == 99


def test_run_with_an_odd_panel_shows_the_title_on_the_usual_one_and_the_problem(
        tmp_path: Path, pi: list[tuple[Config, Any]]) -> None:
    path = write(tmp_path, "[display]\naddress = 153\n")
    assert cli.main(["run", "--config", str(path)]) == 0
    [panel] = Panel.opened                   # the title on the default panel, kept
    assert panel.panel == PANEL_DEFAULTS and panel.frames == 1 and not panel.closed
    [(config, display)] = pi
    assert display is panel and config == Config()
    [skipped] = LOADED[0].skipped            # the box shows it on the panel
    assert skipped.path == path and "line 2: display.address" in str(skipped)


def test_run_with_a_bad_config_keeps_the_titled_panel_for_the_problem(
        tmp_path: Path, pi: list[tuple[Config, Any]]) -> None:
    path = write(tmp_path, "[buttons]\naxis = 99\n")
    assert cli.main(["run", "--config", str(path)]) == 0
    [panel] = Panel.opened
    assert panel.frames == 1 and not panel.closed
    [(config, display)] = pi
    assert display is panel and config.buttons.axis == 17
    assert "buttons.axis: 99 is not allowed" in str(LOADED[0].skipped[0])
