"""The box's config file: defaults, the shipped example, partial files, and one readable line
for each kind of mistake."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device import config as config_module
from cobi_companion.device.config import (
    Config,
    ConfigError,
    load_config,
    parse_config,
)
from cobi_companion.device.config_check import ConfigSchema, SensorSchema

HARDWARE_CONFIG = Path(__file__).resolve().parents[2] / "hardware" / "config.toml"


@pytest.fixture(autouse=True)
def _no_system_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the machine's own /etc file, overlay folders or $STATE_DIRECTORY."""
    monkeypatch.setattr(config_module, "SYSTEM_CONFIG", tmp_path / "etc" / "config.toml")
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", "")     # nor this machine's overlay folders
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults(tmp_path: Path) -> None:
    config = load_config(None)
    assert config == Config()
    assert (config.buttons.axis, config.buttons.allies, config.buttons.bounce_s,
            config.buttons.hold_s) == (17, 27, 0.02, 1.0)
    assert (config.encoder.a, config.encoder.b, config.encoder.button,
            config.encoder.long_press_s) == (5, 6, 13, 0.8)
    assert (config.buzzer.pin, config.leds.axis, config.leds.allies) == (12, 23, 24)
    display = config.display
    assert (display.driver, display.port, display.address, display.rotate, display.contrast,
            display.dim_after_min, display.dim_contrast) == ("ssd1306", 1, 0x3C, 0, 255, 5, 16)
    assert (config.game.language, config.game.rules, config.game.real_dice,
            config.game.sound) == ("en", "easy", False, True)
    assert config.paths.state_dir == tmp_path / "data" / "cobi-companion"
    assert config.paths.cards_dir is None


def test_state_dir_follows_systemd_then_xdg_then_home(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/cobi-companion")
    assert Config().paths.state_dir == Path("/var/lib/cobi-companion")
    monkeypatch.delenv("STATE_DIRECTORY")
    assert Config().paths.state_dir == tmp_path / "data" / "cobi-companion"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert Config().paths.state_dir == tmp_path / "home" / ".local" / "share" / "cobi-companion"


def test_the_shipped_config_file_is_exactly_the_defaults() -> None:
    assert load_config(HARDWARE_CONFIG) == Config()


def test_the_shipped_config_file_writes_every_key_out() -> None:
    data = tomllib.loads(HARDWARE_CONFIG.read_text(encoding="utf-8"))
    text = HARDWARE_CONFIG.read_text(encoding="utf-8")
    for section, info in ConfigSchema.model_fields.items():
        if section == "sensors":  # none by default: an example, commented out
            assert all(f"# {key} = " in text for key in SensorSchema.model_fields)
            continue
        keys = set(info.annotation.model_fields)  # type: ignore[union-attr]
        # paths: their defaults depend on the machine; test: off, for tests only. Both shown
        # commented out.
        if section in ("paths", "test"):
            assert all(f"# {key} = " in text for key in keys)
        else:
            assert set(data[section]) == keys, section


def test_a_partial_file_fills_the_rest_from_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, '[display]\ndriver = "sh1106"\naddress = "0x3D"\n'
                           '[buzzer]\npin = "none"\n[leds]\nallies = "none"\n'
                           '[paths]\ncards_dir = "/home/pi/cards"\n')
    config = load_config(path)
    assert config.display.driver == "sh1106" and config.display.address == 0x3D
    assert config.buzzer.pin is None and config.leds.allies is None and config.leds.axis == 23
    assert config.paths.cards_dir == Path("/home/pi/cards")
    assert config.buttons == Config().buttons and config.game == Config().game


def test_house_rules_keep_the_readings_set_otherwise(tmp_path: Path) -> None:
    """[house_rules]: a new battle's house rules; a key at the rules' own reading (the first
    value of rules/house.py) is as if it were not written."""
    path = write(tmp_path, '[house_rules]\nsherman_reload = "text"\neasy_round = "both_pass"\n'
                           'he_modifier = "table"\n')
    config = load_config(path)
    assert config.house_rules == {"sherman_reload": "text", "easy_round": "both_pass"}
    assert Config.from_plain(config.to_plain()) == config
    assert Config().house_rules == {}


def test_an_unfitted_part_frees_its_pin(tmp_path: Path) -> None:
    path = write(tmp_path, '[buzzer]\npin = "none"\n[leds]\naxis = 12\n')
    assert load_config(path).leds.axis == 12


def test_home_is_expanded_in_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/pi")
    path = write(tmp_path, '[paths]\nstate_dir = "~/state"\n')
    assert load_config(path).paths.state_dir == Path("/home/pi/state")


BAD = {
    "out of range": ("[display]\naddress = 153\n",
                     "line 2: display.address: 153 is not allowed; "
                     "allowed: an I2C address from 0x03 to 0x77"),
    "out of range, in hex": ('[display]\naddress = "0x99"\n',
                             "line 2: display.address: 153 is not allowed; "
                             "allowed: an I2C address from 0x03 to 0x77"),
    "unknown field": ("[display]\nadress = 60\n",
                      "line 2: display.adress: is not a config field (did you mean address?)"),
    "house rule value": ('[house_rules]\nsherman_reload = "paint"\n',
                         'line 2: house_rules.sherman_reload: "paint" is not allowed; '
                         'allowed: "card" or "text"'),
    "unknown house rule": ('[house_rules]\nsherman = "text"\n',
                           "line 2: house_rules.sherman: is not a config field (did you mean "
                           "sherman_reload?)"),
    "unknown table": ("[buttonz]\naxis = 17\n",
                      "line 1: buttonz: is not a config field (did you mean buttons?)"),
    "unknown, nothing close": ("[game]\nloudness = 3\n",
                               "line 2: game.loudness: is not a config field; "
                               "allowed: language, rules, real_dice, dice_axis, "
                               "dice_allies, sound, voice, volume, speed, remind_s"),
    "voice value": ('[game]\nvoice = "loud"\n',
                    'line 2: game.voice: "loud" is not allowed; allowed: "off", "outcomes" '
                    '(what happened) or "all" (outcomes, and whose button to press)'),
    "dice source value": ('[game]\ndice_allies = "magic"\n',
                          'line 2: game.dice_allies: "magic" is not allowed; allowed: '
                          '"buttons" (the box rolls), "dial" (real dice) or "smart" (smart '
                          'dice)'),
    "speed value": ('[game]\nspeed = "fast"\n',
                    'line 2: game.speed: "fast" is not allowed; allowed: "normal" or "slower"'),
    "remind value": ("[game]\nremind_s = 30\n",
                     "line 2: game.remind_s: 30 is not allowed; allowed: 0 (off), 20 or 60: the "
                     "seconds of quiet before a prompt is said again"),
    "language not of the box": ('[game]\nlanguage = "xx"\n',
                                'line 2: game.language: "xx" is not allowed; allowed: "en" '
                                '(English), "pl" (Polski) or "de" (Deutsch)'),
    "volume out of range": ("[game]\nvolume = 101\n",
                            "line 2: game.volume: 101 is not allowed; "
                            "allowed: a volume from 0 to 100"),
    "bad driver": ('[display]\ndriver = "ssd1309"\n',
                   'line 2: display.driver: "ssd1309" is not allowed; '
                   'allowed: "ssd1306" (most 0.96" boards), "sh1106" (most 1.3") or "dummy" '
                   '(no panel: for tests and trying the box without one)'),
    "pin out of range": ("[buttons]\naxis = 28\n",
                         "line 2: buttons.axis: 28 is not allowed; "
                         "allowed: a BCM GPIO number from 0 to 27"),
    "pin as text": ('[leds]\naxis = "23"\n',
                    'line 2: leds.axis: "23" is not allowed; '
                    'allowed: a BCM GPIO number from 0 to 27, or "none"'),
    "duplicate pin": ("[leds]\nallies = 17\n",
                      "line 2: leds.allies: 17 is already used by buttons.axis; "
                      "allowed: a pin no other part uses"),
    "button on the display's I2C": ("[buttons]\naxis = 2\n",
                                    "line 2: buttons.axis: GPIO 2 is the display's I2C SDA; "
                                    "allowed: a pin no other part uses"),
    "LED on the I2C of a panel set here": ('[display]\ndriver = "sh1106"\n[leds]\naxis = 3\n',
                                           "line 4: leds.axis: GPIO 3 is the display's I2C SCL; "
                                           "allowed: a pin no other part uses"),
    "bus set after the pin": ('[buzzer]\npin = 3\n[display]\nport = 1\n',
                              "line 2: buzzer.pin: GPIO 3 is the display's I2C SCL; "
                              "allowed: a pin no other part uses"),
    "encoder on the UART": ('[encoder]\na = 14\n[[sensors]]\nname = "x"\n'
                            'port = "/dev/serial0"\nmodel = "us-100"\n',
                            "line 2: encoder.a: GPIO 14 is the UART's TXD (sensors.0.port is "
                            "/dev/serial0); allowed: a pin no other part uses"),
    "buzzer on the UART of the second sensor": (
        '[buzzer]\npin = 15\n[[sensors]]\nname = "x"\nport = "/dev/ttyUSB0"\n'
        'model = "us-100"\n[[sensors]]\nname = "y"\nport = "/dev/ttyAMA0"\n'
        'model = "tf-luna"\n',
        "line 2: buzzer.pin: GPIO 15 is the UART's RXD (sensors.1.port is /dev/ttyAMA0); "
        "allowed: a pin no other part uses"),
    "button on the mini UART": ('[[sensors]]\nname = "x"\nport = "/dev/ttyS0"\n'
                                'model = "a02yyuw"\n[buttons]\nallies = 15\n',
                                "line 6: buttons.allies: GPIO 15 is the UART's RXD "
                                "(sensors.0.port is /dev/ttyS0); allowed: a pin no other part "
                                "uses"),
    "bounce too long": ("[buttons]\nbounce_s = 0.5\n",
                        "line 2: buttons.bounce_s: 0.5 is not allowed; "
                        "allowed: seconds from 0.0 to 0.2"),
    "not a bool": ('[game]\nsound = "yes"\n',
                   'line 2: game.sound: "yes" is not allowed; allowed: true or false'),
    "table is a value": ("display = 1\n",
                         "line 1: display: 1 is not allowed; allowed: the [display] table"),
    "relative path": ('[paths]\nstate_dir = "state"\n',
                      'line 2: paths.state_dir: "state" is not allowed; allowed: an absolute '
                      'folder path (~ allowed) of at most 1024 characters, like '
                      '/var/lib/cobi-companion'),
    # Every value and every key has a length a message shows: a key of 6,000 letters hung
    # the box's first screen, which names it.
    "a key of 6,000 letters": ("[game]\n" + "k" * 6000 + " = 1\n",
                               "line 2: game." + "k" * 39 + "…: is not a config field; "
                               "allowed: language, rules, real_dice, dice_axis, "
                               "dice_allies, sound, voice, volume, speed, remind_s"),
    "a path of 2,000 letters": ('[paths]\ncards_dir = "/' + "d" * 2000 + '"\n',
                                'line 2: paths.cards_dir: "/' + "d" * 57 + '… is not allowed; '
                                'allowed: an absolute folder path (~ allowed) of at most 1024 '
                                'characters with your card files'),
    "a serial port of 2,000 letters": (
        '[[sensors]]\nname = "x"\nport = "/dev/' + "t" * 2000 + '"\nmodel = "us-100"\n',
        'line 3: sensors.0.port: "/dev/' + "t" * 53 + '… is not allowed (a name in the path of '
        'more than 255 bytes); allowed: a serial '
        'port of at most 1024 characters, like "/dev/serial/by-id/usb-FTDI_...-port0" or '
        '"/dev/serial0"'),
}


@pytest.mark.parametrize("name", list(BAD))
def test_each_mistake_is_one_line_naming_file_field_and_allowed(tmp_path: Path,
                                                                name: str) -> None:
    text, message = BAD[name]
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == f"config {path}: {message}"
    assert "\n" not in str(caught.value)


def test_several_mistakes_share_the_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "[display]\nrotate = 4\ncontrast = 300\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == (
        f"config {path}: line 2: display.rotate: 4 is not allowed; allowed: quarter turns: 0, 1, "
        f"2 or 3; line 3: display.contrast: 300 is not allowed; allowed: a contrast from 0 to 255")


def test_bad_toml(tmp_path: Path) -> None:
    text = "[display]\naddress = \n"
    path = write(tmp_path, text)
    with pytest.raises(tomllib.TOMLDecodeError) as toml_error:
        tomllib.loads(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == f"config {path}: not valid TOML: {toml_error.value}"
    assert "line 2" in str(caught.value) and "\n" not in str(caught.value)


def test_a_missing_config_file_given_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == f"config {path}: no such file"


def test_the_system_file_is_read_when_no_file_is_given(tmp_path: Path) -> None:
    system = config_module.SYSTEM_CONFIG
    system.parent.mkdir(parents=True)
    system.write_text("[game]\nlanguage = \"pl\"\n", encoding="utf-8")
    assert load_config(None).game.language == "pl"
    given = write(tmp_path, "[game]\nrules = \"easy\"\n")
    config = load_config(given)  # a file given on the command line wins over /etc
    assert (config.game.language, config.game.rules) == ("en", "easy")


def test_a_broken_system_file_is_named(tmp_path: Path) -> None:
    system = config_module.SYSTEM_CONFIG
    system.parent.mkdir(parents=True)
    system.write_text("[game]\nrules = \"hard\"\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(None)
    assert str(caught.value) == (f'config {system}: line 2: game.rules: "hard" is not allowed; '
                                 f'allowed: "easy" (Easy level) or "tank" (Tank Game)')


@pytest.mark.parametrize("settings", [
    {"display": {"driver": "dummy"}, "buttons": {"axis": 2}, "leds": {"allies": 3}},
    {"display": {"port": 3}, "buttons": {"axis": 2}},       # another bus: other pins
    {"sensors": [{"name": "usb", "port": "/dev/ttyUSB0", "model": "us-100"}],
     "encoder": {"a": 14, "b": 15}},
    {"encoder": {"a": 14, "b": 15}},                        # no sensor: the UART is free
])
def test_the_bus_pins_are_free_while_their_bus_is_not_in_use(settings: dict[str, Any]) -> None:
    Config.model_validate(settings)


def test_a_pin_on_a_bus_in_use_is_refused_in_code_too() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"buttons": {"axis": 2}})
    assert str(caught.value) == ("config (built in): buttons.axis: GPIO 2 is the display's I2C "
                                 "SDA; allowed: a pin no other part uses")


def test_a_duplicate_pin_is_refused_in_code_too() -> None:
    with pytest.raises(ValueError, match=r"buttons\.axis"):
        Config.model_validate({"encoder": {"button": 17}})


def test_sensors_are_tables_with_names_ports_and_models(tmp_path: Path) -> None:
    path = write(tmp_path, '[[sensors]]\nname = "axis-end"\nport = "/dev/ttyUSB0"\n'
                           'model = "a02yyuw"\noffset_cm = 2.5\n'
                           '[[sensors]]\nname = "allies-end"\nport = "loop://"\n'
                           'model = "us-100"\nrequest = "0x55"\nsamples = 5\n')
    first, second = load_config(path).sensors
    assert (first.name, first.model, first.offset_cm, first.samples) == ("axis-end", "a02yyuw",
                                                                          2.5, 7)
    assert (second.request, second.samples, second.margin_cm) == (0x55, 5, 1.5)


@pytest.mark.parametrize(("table", "says"), [
    ('name = "a"\nport = "x"\nmodel = "hc-sr04"', "sensors.0.model: \"hc-sr04\" is not allowed; "
                                                   "allowed: one of a02yyuw"),
    ('name = "a"\nport = "x"\nmodel = "us-100"\nsamplez = 3',
     "sensors.0.samplez: is not a config field (did you mean samples?)"),
    ('port = "x"\nmodel = "us-100"', "sensors.0.name: is missing; needed: a short name"),
    ('name = "a"\nport = "x"\nmodel = "us-100"\nrequest = "0x155"',
     "sensors.0.request: 341 is not allowed; allowed: the byte that asks"),
])
def test_a_bad_sensor_table_is_named_with_what_is_allowed(tmp_path: Path, table: str,
                                                            says: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(says)):
        load_config(write(tmp_path, f"[[sensors]]\n{table}\n"))


def test_two_sensors_cannot_share_a_name(tmp_path: Path) -> None:
    text = '[[sensors]]\nname = "a"\nport = "x"\nmodel = "us-100"\n' * 2
    with pytest.raises(ConfigError, match=re.escape('sensors.1.name: "a" is already the name')):
        load_config(write(tmp_path, text))


@pytest.mark.parametrize(("toml", "saved", "dice"), [
    ("", {}, {"axis": "buttons", "allies": "buttons"}),
    ("real_dice = true\n", {}, {"axis": "dial", "allies": "dial"}),
    ('real_dice = true\ndice_axis = "smart"\n', {}, {"axis": "smart", "allies": "dial"}),
    ('dice_allies = "smart"\n', {}, {"axis": "buttons", "allies": "smart"}),
    # saved by a box of the one Real dice switch: real dice on both sides, nothing lost
    ("", {"real_dice": True}, {"axis": "dial", "allies": "dial"}),
    ("", {"real_dice": True, "dice": {"axis": "smart", "allies": "dial"}},
     {"axis": "smart", "allies": "dial"}),
])
def test_each_side_s_dice_come_from_the_files_or_the_old_real_dice_switch(
        tmp_path: Path, toml: str, saved: dict[str, object], dice: dict[str, str]) -> None:
    from cobi_companion.device.box import settings_from

    path = tmp_path / "config.toml"
    path.write_text("[game]\n" + toml, encoding="utf-8")
    assert settings_from(load_config(path), saved).dice == dice


def test_a_saved_dice_source_that_is_none_of_them_is_not_used() -> None:
    from cobi_companion.device.box import setting_problem

    assert setting_problem("dice", {"axis": "smart", "allies": "dial"}) is None
    assert setting_problem("dice", {"axis": "magic"}) == \
        "not a source (buttons, dial, smart) for axis and allies"
    assert setting_problem("dice", {"navy": "dial"}) is not None
