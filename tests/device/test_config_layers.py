"""The config in layers: the defaults, the system file, then config.toml on the boot partition
and on the USB stick, key by key; a broken file is skipped with its file, line, field and what
is allowed, and the rest still loads. The card folders and the title's peek follow the same
overlay folders."""
from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

import pytest
from cobi_companion.cards import default_folders, load_cards, shipped_folder
from cobi_companion.cards.tomlfile import MAX_DEPTH
from cobi_companion.device import boot
from cobi_companion.device import config as config_module
from cobi_companion.device.boot import PANEL_DEFAULTS, overlay_folders, peek_panel
from cobi_companion.device.config import (
    OVERLAY_FOLDERS,
    Config,
    ConfigError,
    Loaded,
    line_of,
    load_config,
    load_layers,
)


class Box:
    """A box's config folders in tmp_path: /etc's file, the boot partition and the USB stick."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.system = root / "etc" / "config.toml"
        self.boot = root / "boot" / "firmware" / "cobi"
        self.usb = root / "media" / "cobi"
        monkeypatch.setattr(config_module, "SYSTEM_CONFIG", self.system)
        monkeypatch.setattr(boot, "SYSTEM_CONFIG", self.system)
        monkeypatch.setenv("COBI_COMPANION_OVERLAYS", os.pathsep.join(
            [str(self.boot), str(self.usb)]))

    def write(self, where: Path, text: str | bytes) -> Path:
        path = where if where.suffix == ".toml" else where / "config.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path


@pytest.fixture
def box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Box:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return Box(tmp_path, monkeypatch)


SENSOR = 'name = "{name}"\nport = "/dev/ttyUSB0"\nmodel = "a02yyuw"\n'


def test_each_layer_goes_over_the_one_before_key_by_key(box: Box) -> None:
    system = box.write(box.system, '[display]\ndriver = "sh1106"\naddress = 0x3D\n'
                                   '[game]\nlanguage = "pl"\n')
    on_boot = box.write(box.boot, '[display]\naddress = 0x3C\ncontrast = 99\n'
                                  '[buttons]\naxis = 4\n')
    on_usb = box.write(box.usb, '[display]\ncontrast = 42\n[game]\nsound = false\n')
    loaded = load_layers()
    assert isinstance(loaded, Loaded)
    assert loaded.files == (system, on_boot, on_usb) and loaded.skipped == ()
    display, game = loaded.config.display, loaded.config.game
    assert (display.driver, display.address, display.contrast, display.rotate) == (
        "sh1106", 0x3C, 42, 0)
    assert (game.language, game.sound, game.rules) == ("pl", False, "easy")
    assert loaded.config.buttons.axis == 4 and loaded.config.buttons.allies == 27
    assert load_config(None) == loaded.config        # the command line sees the same


def test_the_file_given_takes_the_system_files_place(box: Box, tmp_path: Path) -> None:
    box.write(box.system, '[game]\nlanguage = "pl"\n')
    given = box.write(tmp_path / "mine.toml", '[game]\nrules = "tank"\n')
    on_usb = box.write(box.usb, "[game]\nreal_dice = true\n")
    loaded = load_layers(given)
    assert loaded.files == (given, on_usb)
    assert (loaded.config.game.language, loaded.config.game.rules,
            loaded.config.game.real_dice) == ("en", "tank", True)


def test_a_later_sensors_list_replaces_the_earlier_one_whole(box: Box) -> None:
    box.write(box.system, "[[sensors]]\n" + SENSOR.format(name="a") +
              "[[sensors]]\n" + SENSOR.format(name="b") + "samples = 5\n")
    assert [s.name for s in load_layers().config.sensors] == ["a", "b"]
    box.write(box.usb, "[[sensors]]\n" + SENSOR.format(name="c"))
    [only] = load_layers().config.sensors
    assert (only.name, only.samples) == ("c", 7)


def test_bad_toml_on_the_stick_is_skipped_and_named_with_its_line(box: Box) -> None:
    system = box.write(box.system, '[game]\nlanguage = "pl"\n')
    on_boot = box.write(box.boot, "[display]\ncontrast = 99\n")
    text = "[display]\ncontrast = 10\nrotate = \n"
    on_usb = box.write(box.usb, text)
    loaded = load_layers()
    assert loaded.files == (system, on_boot)
    assert (loaded.config.game.language, loaded.config.display.contrast) == ("pl", 99)
    [error] = loaded.skipped
    with pytest.raises(tomllib.TOMLDecodeError) as toml_error:
        tomllib.loads(text)
    assert error.path == on_usb and error.problems == [f"not valid TOML: {toml_error.value}"]
    assert "line 3" in str(error) and str(error).startswith(f"config {on_usb}: ")


def test_a_language_the_box_does_not_speak_skips_that_file_the_rest_loads(box: Box) -> None:
    system = box.write(box.system, '[game]\nlanguage = "de"\n')
    on_usb = box.write(box.usb, '[game]\nlanguage = "xx"\n')
    loaded = load_layers()
    assert loaded.files == (system,) and loaded.config.game.language == "de"
    [error] = loaded.skipped
    assert str(error) == (f'config {on_usb}: line 2: game.language: "xx" is not allowed; '
                          f'allowed: "en" (English), "pl" (Polski) or "de" (Deutsch)')


def test_a_bad_value_skips_that_file_whole_and_names_line_field_and_allowed(box: Box) -> None:
    on_boot = box.write(box.boot, '# set by Dad\n[game]\nlanguage = "pl"\n\n[buttons]\n'
                                  "allies = 4\naxis = 40\n")
    on_usb = box.write(box.usb, "[display]\ncontrast = 42\n")
    loaded = load_layers()
    assert loaded.files == (on_usb,)                 # the layers after it still apply
    assert loaded.config.game.language == "en"       # nothing of the broken file is used
    assert loaded.config.buttons.allies == 27 and loaded.config.display.contrast == 42
    [error] = loaded.skipped
    assert str(error) == (f"config {on_boot}: line 7: buttons.axis: 40 is not allowed; "
                          f"allowed: a BCM GPIO number from 0 to 27")


def test_a_problem_between_layers_is_named_in_the_later_file(box: Box) -> None:
    box.write(box.system, "[buttons]\naxis = 4\n")
    on_usb = box.write(box.usb, "[game]\nsound = false\n[leds]\nallies = 4\n")
    loaded = load_layers()
    assert loaded.config.buttons.axis == 4 and loaded.config.leds.allies == 24
    assert [str(e) for e in loaded.skipped] == [
        f"config {on_usb}: line 4: leds.allies: 4 is already used by buttons.axis; "
        f"allowed: a pin no other part uses"]


def test_a_pin_on_a_bus_an_earlier_layer_puts_in_use_is_named_in_the_later_file(
        box: Box) -> None:
    box.write(box.system, '[[sensors]]\nname = "a"\nport = "/dev/serial0"\nmodel = "us-100"\n')
    on_usb = box.write(box.usb, "[game]\nsound = false\n[encoder]\nb = 15\n")
    loaded = load_layers()
    assert loaded.config.encoder.b == 6 and loaded.config.game.sound is True
    assert [str(e) for e in loaded.skipped] == [
        f"config {on_usb}: line 4: encoder.b: GPIO 15 is the UART's RXD (sensors.0.port is "
        f"/dev/serial0); allowed: a pin no other part uses"]


def test_a_later_layer_may_free_a_bus_and_use_its_pins(box: Box) -> None:
    box.write(box.boot, '[display]\ndriver = "dummy"\n')
    box.write(box.usb, "[buttons]\naxis = 2\n")
    loaded = load_layers()
    assert loaded.skipped == () and loaded.config.buttons.axis == 2


def test_a_bad_sensor_in_an_overlay_names_the_line_of_its_table(box: Box) -> None:
    on_usb = box.write(box.usb, "[[sensors]]\n" + SENSOR.format(name="a") +
                       "[[sensors]]\n" + 'port = "x"\nmodel = "us-100"\n' +
                       "[[sensors]]\n" + SENSOR.format(name="c") + "samples = 99\n")
    [error] = load_layers().skipped
    assert error.path == on_usb
    assert error.problems[0].startswith("line 5: sensors.1.name: is missing")
    assert error.problems[1].startswith("line 12: sensors.2.samples: 99 is not allowed")


@pytest.mark.parametrize(("content", "says"), [
    (b'[game]\nlanguage = "pl\xe9"\n', "cannot be read: "),
    (None, "cannot be read: it is a folder; allowed: a regular file of at most 256 KiB"),
])
def test_an_unreadable_file_is_skipped_and_named(box: Box, content: bytes | None,
                                                 says: str) -> None:
    on_boot = box.write(box.boot, "[display]\ncontrast = 99\n")
    bad = box.usb / "config.toml"
    if content is None:
        bad.mkdir(parents=True)
    else:
        box.write(bad, content)
    loaded = load_layers()
    assert loaded.files == (on_boot,) and loaded.config.display.contrast == 99
    [error] = loaded.skipped
    assert error.path == bad and error.problems[0].startswith(says)
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(None)


REGULAR = "allowed: a regular file of at most 256 KiB"
DIGITS = sys.get_int_max_str_digits()
# How an odd config.toml on the stick is made, and the problem the box names it with.
ODD_FILES = {
    "fifo": (None, f"cannot be read: it is a pipe (FIFO); {REGULAR}"),
    "zero": (lambda p: p.symlink_to("/dev/zero"), f"cannot be read: it is a device; {REGULAR}"),
    "huge": (lambda p: p.write_text("# " + "x" * 300_000 + "\n"),
             "cannot be read: it is over 256 KiB (300003 bytes); " + REGULAR),
    "deep": (lambda p: p.write_text("[game]\nx = " + "[" * 600 + "]" * 600 + "\n"),
             f"tables and arrays are nested more than {MAX_DEPTH} deep; allowed: at most "
             f"{MAX_DEPTH} levels"),
    "dotted": (lambda p: p.write_text("a" + ".a" * 900 + " = 1\n[game]\nsound = false\n"),
               f"a{'.a' * MAX_DEPTH}: tables and arrays are nested more than {MAX_DEPTH} "
               f"deep; allowed: at most {MAX_DEPTH} levels"),
    "digits": (lambda p: p.write_text(f"[buttons]\naxis = {'1' * 5000}\n"),
               f"a whole number of more than {DIGITS} digits; allowed: a number of at most "
               f"{DIGITS} digits"),
    "hex": (lambda p: p.write_text(f"[game]\nsound = false\n[buttons]\naxis = 0x{'f' * 5000}\n"),
            f"line 4: buttons.axis: a whole number of more than {DIGITS} digits; allowed: a "
            f"number of at most {DIGITS} digits"),
}


@pytest.mark.parametrize("kind", list(ODD_FILES))
def test_an_odd_file_on_the_stick_is_skipped_named_and_never_hangs(box: Box, make_fifo,
                                                                   kind: str) -> None:
    on_boot = box.write(box.boot, "[display]\ncontrast = 99\n")
    make, says = ODD_FILES[kind]
    odd = box.usb / "config.toml"
    odd.parent.mkdir(parents=True)
    (make or make_fifo)(odd)
    loaded = load_layers()
    assert loaded.files == (on_boot,) and loaded.config.display.contrast == 99
    assert [str(error) for error in loaded.skipped] == [f"config {odd}: {says}"]
    with pytest.raises(ConfigError) as caught:         # the command line: one line, exit 2
        load_config(None)
    assert str(caught.value) == f"config {odd}: {says}"
    assert peek_panel(None) is None                     # the title waits for the full check


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads anything")
def test_a_file_without_read_permission_is_skipped_and_named(box: Box) -> None:
    bad = box.write(box.usb, "[display]\ncontrast = 99\n")
    bad.chmod(0)
    try:
        [error] = load_layers().skipped
    finally:
        bad.chmod(0o644)
    assert error.path == bad and error.problems == ["cannot be read: Permission denied"]


def test_missing_folders_and_files_are_skipped_silently(box: Box) -> None:
    box.boot.mkdir(parents=True)                     # the folder, but no config.toml in it
    assert load_layers() == Loaded(Config(), (), (), ())
    assert load_config(None) == Config()


def test_a_missing_file_asked_for_is_named(box: Box, tmp_path: Path) -> None:
    on_usb = box.write(box.usb, "[display]\ncontrast = 42\n")
    missing = tmp_path / "nope.toml"
    loaded = load_layers(missing)
    assert loaded.files == (on_usb,) and loaded.config.display.contrast == 42
    assert [str(e) for e in loaded.skipped] == [f"config {missing}: no such file"]
    with pytest.raises(ConfigError, match="no such file"):
        load_config(missing)


def test_the_command_line_refuses_a_broken_overlay_by_file_and_line(box: Box) -> None:
    box.write(box.system, '[game]\nlanguage = "pl"\n')
    on_boot = box.write(box.boot, '[display]\ndriver = "ssd1309"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(None)
    assert caught.value.path == on_boot
    assert str(caught.value).startswith(f'config {on_boot}: line 2: display.driver: "ssd1309" '
                                        f"is not allowed; allowed: ")


def test_the_overlay_folders_come_from_the_environment(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("COBI_COMPANION_OVERLAYS", raising=False)
    assert overlay_folders() == list(OVERLAY_FOLDERS) == [Path("/boot/firmware/cobi"),
                                                          Path("/media/cobi")]
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", "")
    assert overlay_folders() == []
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", os.pathsep.join(["/a", "", "/b/c", ""]))
    assert overlay_folders() == [Path("/a"), Path("/b/c")]


def test_no_overlays_is_the_system_file_alone(box: Box, monkeypatch: pytest.MonkeyPatch) -> None:
    system = box.write(box.system, '[game]\nlanguage = "pl"\n')
    box.write(box.usb, "[game]\nsound = false\n")
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", "")
    loaded = load_layers()
    assert loaded.files == (system,) and loaded.config.game.sound is True


def test_the_title_peeks_at_the_same_layers(box: Box) -> None:
    box.write(box.system, '[display]\naddress = "0x3D"\n')
    box.write(box.boot, '[display]\ndriver = "sh1106"\nrotate = 2\n')
    box.write(box.usb, "[display]\nrotate = 1\n[game]\nsound = false\n")
    peeked = peek_panel(None)
    assert peeked == {**PANEL_DEFAULTS, "driver": "sh1106", "address": 0x3D, "rotate": 1}
    assert peeked == boot.panel_of(load_layers().config.display)
    box.write(box.usb, '[display]\ndriver = "ssd1309"\n')
    assert peek_panel(None) is None                  # odd anywhere: no title


def test_the_dummy_panel_is_allowed(box: Box) -> None:
    box.write(box.usb, '[display]\ndriver = "dummy"\n')
    assert load_layers().config.display.driver == "dummy"
    assert peek_panel(None) == {**PANEL_DEFAULTS, "driver": "dummy"}


def card(set_number: int, name: str) -> str:
    return f'set_number = {set_number}\nname = "{name}"\ndamage = 3\n'


def test_the_overlays_card_folders_come_after_the_others_in_order(box: Box,
                                                                   tmp_path: Path) -> None:
    (box.usb / "cards").mkdir(parents=True)
    box.boot.mkdir(parents=True)                     # no cards/ in it: not listed
    assert load_layers().card_folders == (box.usb / "cards",)
    (box.boot / "cards").mkdir()
    overlays = [box.boot / "cards", box.usb / "cards"]
    assert list(load_layers().card_folders) == overlays
    assert default_folders() == overlays            # $COBI_COMPANION_CARDS is "" in the tests
    mine = tmp_path / "mine"
    assert default_folders(mine) == [mine, *overlays]


def test_a_card_on_the_stick_wins_over_the_boot_partition_and_the_shipped_one(box: Box) -> None:
    box.write(box.boot / "cards" / "tiger.toml", card(2477, "Tiger from boot"))
    box.write(box.boot / "cards" / "new.toml", card(9001, "Boot only"))
    box.write(box.usb / "cards" / "tiger.toml", card(2477, "Tiger from the stick"))
    box.write(box.usb / "cards" / "broken.toml", 'set_number = 9001\nname = "X"\ndamage = -1\n')
    book = load_cards(default_folders())
    assert book.get(2477).name == "Tiger from the stick"
    assert book.get(2477).source == str(box.usb / "cards" / "tiger.toml")
    assert book.get(9001).name == "Boot only"        # a broken file leaves the card before it
    assert [p.path for p in book.problems] == [str(box.usb / "cards" / "broken.toml")]
    assert load_cards([]).get(2477).source.startswith(str(shipped_folder()))


@pytest.mark.parametrize(("text", "place", "line"), [
    ('[display]\ndriver = "x"\n', ["display", "driver"], 2),
    ('[display]\ndriver = "x"\n', ["display", "rotate"], 1),       # missing: its table
    ('display.driver = "x"\n[game]\nsound = 1\n', ["display", "driver"], 1),
    ('display = { driver = "x" }\n', ["display", "driver"], 1),
    ('[ "display" ]\n"driver" = "x"  # the 1.3" one\n', ["display", "driver"], 2),
    ('[[sensors]]\nname = "a"\n[[sensors]]\nname = "b"\n', ["sensors", "1", "name"], 4),
    ('x = """\n[display]\ndriver = 1\n"""\n[display]\ndriver = 2\n', ["display", "driver"], 6),
    ("[game]\nsound = true\n", ["display", "driver"], None),
])
def test_the_line_of_a_field(text: str, place: list[str], line: int | None) -> None:
    assert line_of(text, place) == line


def test_checks_that_cannot_be_imported_stop_the_start_and_skip_no_file(
        box: Box, monkeypatch: pytest.MonkeyPatch) -> None:
    # The checks (and pydantic) are imported at the first file read, not at the start: a
    # broken install must still stop the box, not pass for a broken settings file.
    box.write(box.system, '[game]\nlanguage = "pl"\n')
    with monkeypatch.context() as patch, pytest.raises(ImportError):
        patch.setitem(sys.modules, "cobi_companion.device.config_check", None)
        load_layers()
    assert load_layers().config.game.language == "pl"
