"""The box's configuration: TOML files, every key optional, checked before anything starts.

Parents edit settings from any computer, so the config is read in layers, each over the one
before:

1. the built-in defaults (hardware/config.toml writes every default out);
2. the system file, /etc/cobi-companion/config.toml (SYSTEM_CONFIG), or the file given with
   `--config` in its place;
3. `config.toml` in each overlay folder, in order: $COBI_COMPANION_OVERLAYS (folders separated
   by os.pathsep; an empty value means none), else /boot/firmware/cobi (the FAT boot partition)
   then /media/cobi (a USB stick labelled COBI, mounted read-only).

Missing folders and files are skipped. Layers merge table by table and key by key: a later
file's [display] driver replaces only that key. An array of tables ([[sensors]]) in a later file
replaces the earlier list whole. Each file is merged and checked in turn; a file whose merged
result is invalid (or that cannot be read, or is not TOML) is skipped whole, the layers before
it stay, and its problems name the file, the line, the dotted field and what is allowed, like
`config /media/cobi/config.toml: line 7: buttons.axis: 40 is not allowed; allowed: ...`.

`load_layers` is the box's loader: it skips broken files and says which files it used.
`load_config` is the command line's: the same layers, but a broken file is an error.
"""
from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cobi_companion.cards.tomlfile import FileProblem, parse, read_text, shortened
from cobi_companion.device import boot
from cobi_companion.device.boot import CONFIG_NAME as CONFIG_NAME
from cobi_companion.device.boot import OVERLAY_FOLDERS as OVERLAY_FOLDERS
from cobi_companion.device.boot import OVERLAYS_ENV as OVERLAYS_ENV
from cobi_companion.device.boot import PANEL_DEFAULTS as PANEL
from cobi_companion.device.boot import SYSTEM_CONFIG as SYSTEM_CONFIG
from cobi_companion.device.boot import number_word
from cobi_companion.device.boot import overlay_card_folders as overlay_card_folders
from cobi_companion.device.boot import overlay_folders as overlay_folders
from cobi_companion.device.ports.errors import ConfigError as ConfigError
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails, PydanticCustomError

_PIN = "a BCM GPIO number from 0 to 27"
_OPT_PIN = _PIN + ', or "none"'
_SECONDS = "seconds from 0.1 to 10"
_LEVEL = "a contrast from 0 to 255"


def _none_word(value: Any) -> Any:
    # TOML has no null: "none" is how a file says that a part is not fitted.
    return None if isinstance(value, str) and value.strip().lower() == "none" else value


class _Section(BaseModel):
    # Strict: TOML already has types, so "17" or true where a pin belongs is a mistake.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Buttons(_Section):
    axis: int = Field(default=17, ge=0, le=27, description=_PIN)
    allies: int = Field(default=27, ge=0, le=27, description=_PIN)
    bounce_s: float = Field(default=0.02, ge=0.0, le=0.2, description="seconds from 0.0 to 0.2")
    hold_s: float = Field(default=1.0, ge=0.1, le=10.0, description=_SECONDS)


class Encoder(_Section):
    a: int = Field(default=5, ge=0, le=27, description=_PIN)
    b: int = Field(default=6, ge=0, le=27, description=_PIN)
    button: int = Field(default=13, ge=0, le=27, description=_PIN)
    long_press_s: float = Field(default=0.8, ge=0.1, le=10.0, description=_SECONDS)


class Buzzer(_Section):
    pin: int | None = Field(default=12, ge=0, le=27, description=_OPT_PIN)

    _none = field_validator("pin", mode="before")(_none_word)


class Leds(_Section):
    axis: int | None = Field(default=23, ge=0, le=27, description=_OPT_PIN)
    allies: int | None = Field(default=24, ge=0, le=27, description=_OPT_PIN)

    _none = field_validator("axis", "allies", mode="before")(_none_word)


class Display(_Section):
    # The panel's defaults live in `boot`, which opens the panel before this module is loaded.
    driver: Literal["ssd1306", "sh1106", "dummy"] = Field(
        default=PANEL["driver"],
        description='"ssd1306" (most 0.96" boards), "sh1106" (most 1.3") or "dummy" (no '
                    'panel: for tests and trying the box without one)')
    port: int = Field(default=PANEL["port"], ge=0, le=31,
                      description="an I2C bus number from 0 to 31")
    address: int = Field(default=PANEL["address"], ge=0x03, le=0x77,
                         description="an I2C address from 0x03 to 0x77")
    rotate: int = Field(default=PANEL["rotate"], ge=0, le=3,
                        description="quarter turns: 0, 1, 2 or 3")
    contrast: int = Field(default=PANEL["contrast"], ge=0, le=255, description=_LEVEL)
    dim_after_min: int = Field(default=5, ge=0, le=240,
                               description="whole minutes from 0 (never dim) to 240")
    off_after_min: int = Field(default=10, ge=0, le=240,
                               description="whole minutes from 0 (never off) to 240")
    dim_contrast: int = Field(default=PANEL["dim_contrast"], ge=0, le=255, description=_LEVEL)

    _hex = field_validator("address", mode="before")(number_word)


class Game(_Section):
    language: Literal["en", "pl"] = Field(default="en", description='"en" or "pl"')
    # A new box starts at the Easy level, a family's first battle; the Rules setting (the
    # roster's last row) remembers the level the players choose after.
    rules: Literal["easy", "tank"] = Field(
        default="easy", description='"easy" (Easy level) or "tank" (Tank Game)')
    real_dice: bool = Field(default=False, description="true or false")
    sound: bool = Field(default=True, description="true or false")


def default_state_dir() -> Path:
    """$STATE_DIRECTORY (set by systemd's StateDirectory=), else the user's data folder."""
    given = os.environ.get("STATE_DIRECTORY", "")
    if given:
        return Path(given.split(os.pathsep)[0])  # several StateDirectory= entries: the first
    data = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data) if os.path.isabs(data) else Path.home() / ".local" / "share"
    return base / "cobi-companion"


class Paths(_Section):
    state_dir: Path = Field(
        default_factory=default_state_dir,
        description="an absolute folder path (~ allowed), like /var/lib/cobi-companion")
    cards_dir: Path | None = Field(
        default=None, description="an absolute folder path (~ allowed) with your card files")

    @field_validator("state_dir", "cards_dir", mode="before")
    @classmethod
    def _absolute(cls, value: Any) -> Any:
        # A relative path would depend on the service's working directory.
        if not isinstance(value, str):
            return value
        path = Path(value).expanduser()
        if not path.is_absolute():
            raise ValueError("not an absolute path")
        return path


# The sensor models by name, as `device/range_sensor.MODELS` has them.
SENSOR_MODELS = ("a02yyuw", "a01nyub", "me007ys", "jsn-sr04t", "aj-sr04m", "us-100",
                 "maxbotix-lv", "maxbotix-xl", "maxbotix-hr", "tfmini", "tfmini-s", "tf-luna")


class Sensor(_Section):
    name: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$",
                      description="a short name of letters, digits, - or _, like axis-end")
    port: str = Field(min_length=1, description='a serial port, like "/dev/serial/by-id/'
                                                'usb-FTDI_...-port0" or "/dev/serial0"')
    model: Literal[SENSOR_MODELS] = Field(  # type: ignore[valid-type]
        description="one of " + ", ".join(SENSOR_MODELS))
    baud: int | None = Field(default=None, ge=1200, le=1_000_000,
                             description="a baud rate from 1200 to 1000000 (default: the "
                                         "model's)")
    offset_cm: float = Field(default=0.0, ge=-100.0, le=100.0,
                             description="cm from the sensor's face to where the rules "
                                         "measure from, -100 to 100")
    samples: int = Field(default=7, ge=1, le=31, description="valid readings per measurement, "
                                                             "1 to 31")
    margin_cm: float = Field(default=1.5, ge=0.0, le=20.0,
                             description="cm added to the readings' spread before a result "
                                         "is too close to call, 0 to 20")
    header_in_checksum: bool = Field(default=True, description="true or false (some AJ-SR04M "
                                                               "leave the 0xFF header out)")
    request: int | None = Field(default=None, ge=0, le=255,
                                description='the byte that asks for a reading, like "0x55", '
                                            'or "none" (default: the model\'s)')

    _none = field_validator("request", "baud", mode="before")(_none_word)
    _byte = field_validator("request", mode="before")(number_word)


# The pins in the order they are checked: a reused pin names the earlier field as its owner.
PIN_FIELDS = ("buttons.axis", "buttons.allies", "encoder.a", "encoder.b", "encoder.button",
              "buzzer.pin", "leds.axis", "leds.allies")
# The pins the buses take while they are in use (platform notes: I2C bus 1 is GPIO 2 and 3, the
# header's UART GPIO 14 and 15, whichever of these names the Pi gives it).
I2C_PINS = {1: {2: "SDA", 3: "SCL"}}                  # by bus number
UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
UART_PINS = {14: "TXD", 15: "RXD"}


class Config(_Section):
    buttons: Buttons = Field(default_factory=Buttons, description="the [buttons] table")
    encoder: Encoder = Field(default_factory=Encoder, description="the [encoder] table")
    buzzer: Buzzer = Field(default_factory=Buzzer, description="the [buzzer] table")
    leds: Leds = Field(default_factory=Leds, description="the [leds] table")
    display: Display = Field(default_factory=Display, description="the [display] table")
    game: Game = Field(default_factory=Game, description="the [game] table")
    paths: Paths = Field(default_factory=Paths, description="the [paths] table")
    sensors: list[Sensor] = Field(default_factory=list, description="[[sensors]] tables")

    @model_validator(mode="after")
    def _sensor_names_once(self) -> Config:
        names = [sensor.name for sensor in self.sensors]
        for number, name in enumerate(names):
            if name in names[:number]:
                raise PydanticCustomError("sensor_name_reused", "sensor name {name} is used "
                                          "twice", {"name": name, "number": number})
        return self

    @model_validator(mode="after")
    def _pins_once(self) -> Config:
        owners: dict[int, str] = {}
        buses = self._bus_pins()
        for name in PIN_FIELDS:
            section, key = name.split(".")
            pin = getattr(getattr(self, section), key)
            if pin is None:
                continue
            if pin in buses:
                bus, place = buses[pin]
                raise PydanticCustomError(
                    "pin_on_bus", "GPIO {pin} of {field} is {bus}",
                    {"pin": pin, "field": name, "bus": bus, "place": place})
            if pin in owners:
                raise PydanticCustomError(
                    "pin_reused", "pin {pin} is used by {other} and {field}",
                    {"pin": pin, "field": name, "other": owners[pin]})
            owners[pin] = name
        return self

    def _bus_pins(self) -> dict[int, tuple[str, str]]:
        """The pins the display's I2C bus and a sensor on the Pi's UART take while they are
        in use: pin -> (what it is, in words; the field that puts the bus in use)."""
        pins: dict[int, tuple[str, str]] = {}
        if self.display.driver != "dummy":             # the dummy panel needs no bus
            for pin, line in I2C_PINS.get(self.display.port, {}).items():
                pins[pin] = (f"the display's I2C {line}", "display.port")
        for number, sensor in enumerate(self.sensors):
            if sensor.port in UART_PORTS:
                place = f"sensors.{number}.port"
                for pin, line in UART_PINS.items():
                    pins.setdefault(pin, (f"the UART's {line} ({place} is {sensor.port})",
                                          place))
        return pins


def _walk(loc: list[str]) -> tuple[Any, Any]:
    """The pydantic FieldInfo at a dotted location (None if there is none) and the model
    that holds the fields below it; list positions ("sensors.0") step into the list."""
    model: Any = Config
    info = None
    for name in loc:
        if name.isdigit():
            continue
        fields = getattr(model, "model_fields", {})
        if name not in fields:
            return None, None
        info = fields[name]
        model = info.annotation
        if getattr(model, "__origin__", None) is list:
            model = model.__args__[0]
    return info, model


def _field(loc: list[str]) -> Any:
    return _walk(loc)[0]


def _shown(value: Any) -> str:
    # Values written as TOML would write them: "text", true, 153; a long one cut short.
    return shortened(json.dumps(value, ensure_ascii=False, default=str))


def _problem(error: ErrorDetails) -> str:
    return _placed(error)[1]


def _placed(error: ErrorDetails) -> tuple[list[list[str]], str]:
    """The problem's line for the log and the screen, and the dotted places in the file it
    is about (the first one found in the file gives the line number)."""
    loc = [str(part) for part in error["loc"]]
    ctx = error.get("ctx") or {}
    if error["type"] == "sensor_name_reused":
        return [["sensors", str(ctx["number"]), "name"]], (
            f"sensors.{ctx['number']}.name: {_shown(ctx['name'])} is already the name of "
            f"another sensor; allowed: a name no other sensor has")
    if error["type"] == "pin_on_bus":
        return [ctx["field"].split("."), ctx["place"].split(".")], (
            f"{ctx['field']}: GPIO {ctx['pin']} is {ctx['bus']}; "
            f"allowed: a pin no other part uses")
    if error["type"] == "pin_reused":
        return [ctx["field"].split("."), ctx["other"].split(".")], (
            f"{ctx['field']}: {ctx['pin']} is already used by {ctx['other']}; "
            f"allowed: a pin no other part uses")
    return [loc], _message(error, loc)


def _message(error: ErrorDetails, loc: list[str]) -> str:
    where = ".".join(loc)
    info = _field(loc)
    if error["type"] == "missing":
        needed = info.description if info is not None and info.description else "a value"
        return f"{where}: is missing; needed: {needed}"
    if error["type"] == "extra_forbidden":
        parent = _walk(loc[:-1])[1]
        names = list(getattr(parent, "model_fields", {}))
        close = difflib.get_close_matches(loc[-1], names, n=1)
        hint = f" (did you mean {close[0]}?)" if close else f"; allowed: {', '.join(names)}"
        return f"{where}: is not a config field{hint}"
    allowed = info.description if info is not None and info.description else error["msg"]
    return f"{where}: {_shown(error.get('input'))} is not allowed; allowed: {allowed}"


def parse_config(data: dict[str, Any], path: Path | None = None) -> Config:
    """Validate a parsed TOML table; missing keys take their defaults."""
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(path, [_problem(e) for e in exc.errors()]) from None


def read_config(path: Path) -> Config:
    """Read and validate one config file on its own over the defaults (it must exist)."""
    text = _read_text(path)
    return _check({}, path, text, _parse(path, text))[0]


def _read_text(path: Path) -> str:
    # As every file of the box is read (cards/tomlfile.py): a regular file of at most 256 KiB,
    # never a FIFO or a device that would hang the start.
    try:
        return read_text(path)
    except FileProblem as exc:
        raise ConfigError(path, [str(exc)]) from None


def _parse(path: Path, text: str) -> dict[str, Any]:
    try:
        return parse(text)
    except FileProblem as exc:     # a TOML error's message ends "(at line 2, column 11)"
        line = line_of(text, exc.place.split(".")) if exc.place else None
        raise ConfigError(path, [str(exc) if line is None else f"line {line}: {exc}"]) \
            from None


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` on top of `base`, table by table and key by key; anything else in `over` (a
    value, or an array of tables such as [[sensors]]) replaces what `base` has whole."""
    merged = dict(base)
    for key, value in over.items():
        below = merged.get(key)
        if isinstance(value, dict) and isinstance(below, dict):
            merged[key] = merge(below, value)
        else:
            merged[key] = value
    return merged


def _check(base: dict[str, Any], path: Path, text: str,
           data: dict[str, Any]) -> tuple[Config, dict[str, Any]]:
    """`data` (the file at `path`, whose text is `text`) merged over `base` and checked: the
    config and the merged table, or ConfigError with the line of each problem in the file."""
    merged = merge(base, data)
    try:
        return Config.model_validate(merged), merged
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            places, message = _placed(error)
            line = next((n for n in (line_of(text, p) for p in places) if n is not None), None)
            problems.append(message if line is None else f"line {line}: {message}")
        raise ConfigError(path, problems) from None


_BARE_OR_QUOTED = r'[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\''
_KEY = re.compile(rf"^\s*((?:{_BARE_OR_QUOTED})(?:\s*\.\s*(?:{_BARE_OR_QUOTED}))*)\s*=")
_HEADER = re.compile(rf"^\s*(\[\[?)\s*((?:{_BARE_OR_QUOTED})(?:\s*\.\s*(?:{_BARE_OR_QUOTED}))*)"
                     rf"\s*\]")
_PART = re.compile(_BARE_OR_QUOTED)


def _dotted(text: str) -> list[str]:
    return [part.strip("\"'") for part in _PART.findall(text)]


def _places(text: str) -> Iterator[tuple[int, list[str]]]:
    """Each table header and key line of a TOML text: its line number and dotted place, with
    the position of an array of tables, like ["sensors", "1", "port"]."""
    table: list[str] = []
    counts: dict[tuple[str, ...], int] = {}
    in_string = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string:                      # inside a multi-line string: no keys here
            if line.count(in_string) % 2:
                in_string = ""
            continue
        header = _HEADER.match(line)
        if header:
            table = _dotted(header.group(2))
            if header.group(1) == "[[":
                index = counts.get(tuple(table), 0)
                counts[tuple(table)] = index + 1
                table = [*table, str(index)]
            yield number, table
            continue
        key = _KEY.match(line)
        if key:
            yield number, [*table, *_dotted(key.group(1))]
            rest = line[key.end():]
            for quotes in ('"""', "'''"):
                if rest.count(quotes) % 2:
                    in_string = quotes


def line_of(text: str, place: list[str]) -> int | None:
    """The line of a TOML text that sets the dotted `place`, else the line of the closest
    table or key above it (the header of a table with a missing key); None if there is none."""
    best: tuple[int, int] | None = None
    for number, found in _places(text):
        if found and found == place[:len(found)] and (best is None or len(found) > best[0]):
            best = (len(found), number)
    return best[1] if best else None


@dataclass(frozen=True)
class Loaded:
    """What `load_layers` made of the config files: the config, the files applied (in
    order), the files skipped with their problems, and the overlay folders' cards/ folders."""

    config: Config
    files: tuple[Path, ...]
    skipped: tuple[ConfigError, ...]
    card_folders: tuple[Path, ...]


def _layers(path: Path | None, strict: bool) -> Loaded:
    config = Config()
    data: dict[str, Any] = {}
    files: list[Path] = []
    skipped: list[ConfigError] = []
    for file in boot.config_files(path or SYSTEM_CONFIG):
        try:
            text = _read_text(file)
            config, data = _check(data, file, text, _parse(file, text))
        except ConfigError as error:
            missing = error.problems == ["no such file"]
            if missing and file != path:       # only a file asked for must be there
                continue
            if strict:
                raise
            skipped.append(error)
            continue
        files.append(file)
    return Loaded(config, tuple(files), tuple(skipped), tuple(overlay_card_folders()))


def load_layers(path: Path | None = None) -> Loaded:
    """The box's config: the defaults, then `path` (else SYSTEM_CONFIG), then each overlay
    folder's config.toml, each over the one before. A file that cannot be read, is not TOML or
    makes the config invalid is skipped whole (the layers before it stay) and is in `skipped`;
    a missing file is skipped silently, unless it is the `path` asked for."""
    return _layers(path, strict=False)


def load_config(path: Path | None = None) -> Config:
    """The config of the command line: the same layers as `load_layers`, but the given file
    must exist and a broken file, an overlay too, raises its ConfigError."""
    return _layers(path, strict=True).config
