"""Checking the config files: the schema of every [table] and key, with what each allows, and
each problem said in one line naming the file's line, the dotted field and what is allowed.

Pydantic checks a file's table (merged over the layers before it) against the schema, and gives
the checked values in their plain form: `config.py` builds its `Config` from it
(`Config.from_plain`), the same way it builds it from the snapshot of checked files. Only
checking a file imports this module (and pydantic): `config.py` does so when a file has changed.
This module does not import `config.py`: that one imports it.
"""
from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any, Literal

from cobi_companion.cards.tomlfile import (
    MOST_PROBLEMS,
    line_of,
    merge,
    more_said,
    place_shown,
    shortened,
)
from cobi_companion.device.boot import PANEL_DEFAULTS as PANEL
from cobi_companion.device.boot import STICK_TABLES, TRUSTED_FILES, default_state_dir, number_word
from cobi_companion.device.core.setting_values import (
    DiceAdapter,
    DiceSource,
    PinKind,
    Remind,
    Rules,
    Speed,
    Voice,
)
from cobi_companion.device.ports.errors import ConfigError
from cobi_companion.device.ports.panel import Driver
from cobi_companion.device.ports.wiring import PIN_FIELDS, SENSOR_MODELS, bus_pins
from cobi_companion.rules.house import BY_NAME
from cobi_companion.rules.house import RULES as HOUSE_RULES
from cobi_companion.rules.numbers import digits
from cobi_companion.words import languages
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

_PIN = "a BCM GPIO number from 0 to 27"
_OPT_PIN = _PIN + ', or "none"'
_SECONDS = "seconds from 0.1 to 10"
_LEVEL = "a contrast from 0 to 255"
# The longest path or serial port a settings file may name: far over any real one, and a
# value of megabytes never reaches the system, the log or the panel.
MAX_PATH = 1024


def _none_word(value: Any) -> Any:
    # TOML has no null: "none" is how a file says that a part is not fitted.
    return None if isinstance(value, str) and value.strip().lower() == "none" else value


# What the system allows of a path (Linux's NAME_MAX and PATH_MAX): a longer one cannot be
# made or opened, and a NUL cannot be passed to the system at all.
NAME_BYTES, PATH_BYTES = 255, 4095


class Unusable(ValueError):
    """A value the schema's type allows but the system cannot use: its message says why."""


def usable_path(text: str) -> str:
    """`text` if the system can use it as a path, else ValueError saying why."""
    if "\0" in text:
        raise Unusable("a path cannot hold a NUL character")
    if len(text.encode("utf-8", "surrogateescape")) > PATH_BYTES:
        raise Unusable(f"a path of more than {PATH_BYTES} bytes")
    if any(len(part.encode("utf-8", "surrogateescape")) > NAME_BYTES
           for part in text.split("/")):
        raise Unusable(f"a name in the path of more than {NAME_BYTES} bytes")
    return text


class _Section(BaseModel):
    # Strict: TOML already has types, so "17" or true where a pin belongs is a mistake.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ButtonsSchema(_Section):
    axis: int = Field(default=17, ge=0, le=27, description=_PIN)
    allies: int = Field(default=27, ge=0, le=27, description=_PIN)
    bounce_s: float = Field(default=0.02, ge=0.0, le=0.2, description="seconds from 0.0 to 0.2")
    hold_s: float = Field(default=1.0, ge=0.1, le=10.0, description=_SECONDS)


class EncoderSchema(_Section):
    a: int = Field(default=5, ge=0, le=27, description=_PIN)
    b: int = Field(default=6, ge=0, le=27, description=_PIN)
    button: int = Field(default=13, ge=0, le=27, description=_PIN)
    long_press_s: float = Field(default=0.8, ge=0.1, le=10.0, description=_SECONDS)


class BuzzerSchema(_Section):
    pin: int | None = Field(default=12, ge=0, le=27, description=_OPT_PIN)

    _none = field_validator("pin", mode="before")(_none_word)


class LedsSchema(_Section):
    axis: int | None = Field(default=23, ge=0, le=27, description=_OPT_PIN)
    allies: int | None = Field(default=24, ge=0, le=27, description=_OPT_PIN)

    _none = field_validator("axis", "allies", mode="before")(_none_word)


class DisplaySchema(_Section):
    # The panel's defaults live in `boot`, which opens the panel before this module is loaded.
    driver: Driver = Field(
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


def _language_choices() -> str:
    """The registry's languages as a config file writes them: each code in quotes with its
    name, the last after "or"."""
    said = [f'"{language.code}" ({language.name})' for language in languages.every()]
    return ", ".join(said[:-1]) + " or " + said[-1] if len(said) > 1 else said[0]


_DICE_SOURCE = '"buttons" (the box rolls), "dial" (real dice) or "smart" (smart dice)'


class GameSchema(_Section):
    language: str = Field(default=languages.SOURCE, description=_language_choices())
    # A new box starts at the Easy level, a family's first battle; the Rules setting (the
    # roster's last row) remembers the level the players choose after.
    rules: Rules = Field(
        default="easy", description='"easy" (Easy level) or "tank" (Tank Game)')
    real_dice: bool = Field(default=False, description="true or false")
    dice_axis: DiceSource = Field(default="buttons", description=_DICE_SOURCE)
    dice_allies: DiceSource = Field(default="buttons", description=_DICE_SOURCE)
    sound: bool = Field(default=True, description="true or false")
    voice: Voice = Field(
        default="all", description='"off", "outcomes" (what happened) or "all" (outcomes, '
                                   'and whose button to press)')
    volume: int = Field(default=100, ge=0, le=100, description="a volume from 0 to 100")
    speed: Speed = Field(default="normal", description='"normal" or "slower"')
    remind_s: Remind = Field(
        default=20, description="0 (off), 20 or 60: the seconds of quiet before a prompt is "
                                "said again")

    @field_validator("language")
    @classmethod
    def _spoken(cls, value: str) -> str:
        # One of the registry's codes now: a test's language, added while the box runs, too.
        if value not in languages.codes():
            raise ValueError("not a language of the box")
        return value


class PathsSchema(_Section):
    state_dir: Path = Field(
        default_factory=default_state_dir,
        description="an absolute folder path (~ allowed) of at most 1024 characters, like "
                    "/var/lib/cobi-companion")
    cards_dir: Path | None = Field(
        default=None, description="an absolute folder path (~ allowed) of at most 1024 "
                                 "characters with your card files")

    @field_validator("state_dir", "cards_dir", mode="before")
    @classmethod
    def _absolute(cls, value: Any) -> Any:
        # A relative path would depend on the service's working directory.
        if not isinstance(value, str):
            return value
        if len(value) > MAX_PATH:
            raise ValueError(f"a path of over {MAX_PATH} characters")
        path = Path(usable_path(value))
        try:
            path = path.expanduser()
        except RuntimeError:       # "~nosuchuser/x": Python cannot say whose home it is
            raise Unusable("no such user's home folder") from None
        if not path.is_absolute():
            raise ValueError("not an absolute path")
        return path


class PinsSchema(_Section):
    factory: PinKind = Field(
        default="real", description='"real" (the Pi\'s GPIO) or "mock" (no GPIO: gpiozero\'s '
                                    'mock pins, for trying the box and for tests)')


class SmartDiceSchema(_Section):
    enabled: bool = Field(default=True, description="true or false")
    adapter: DiceAdapter = Field(
        default="bluetooth", description='"bluetooth" (the Pi\'s Bluetooth) or "fake" (virtual '
                                         'dice, for the simulator and tests)')


class TestingSchema(_Section):
    # For tests only (config.Testing): never set on a box at the table.
    keys_fifo: Path | None = Field(
        default=None, description='an absolute path of at most 1024 characters, like '
                                  '"/run/cobi-companion/keys", or "none" (tests only)')
    screen_file: Path | None = Field(
        default=None, description='an absolute path of at most 1024 characters, like '
                                  '"/run/cobi-companion/screen.txt", or "none" (tests only)')

    @field_validator("keys_fifo", "screen_file", mode="before")
    @classmethod
    def _absolute(cls, value: Any) -> Any:
        return PathsSchema._absolute(_none_word(value))


class SensorSchema(_Section):
    name: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$",
                      description="a short name of letters, digits, - or _, like axis-end")
    port: str = Field(min_length=1, max_length=MAX_PATH,
                      description='a serial port of at most 1024 characters, like '
                                  '"/dev/serial/by-id/usb-FTDI_...-port0" or "/dev/serial0"')

    @field_validator("port", mode="before")
    @classmethod
    def _usable(cls, value: Any) -> Any:
        return usable_path(value) if isinstance(value, str) else value
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


def _house_rules_schema() -> Any:
    """[house_rules]: a key for each house rule of rules/house.py, one of its values (the
    first, the rules notes' reading, by default). Made from the rules' table, so that a new
    house rule is a key of the config without a word here."""
    keys: dict[str, Any] = {
        row.name: (Literal[row.values], Field(
            default=row.default, description=" or ".join(f'"{v}"' for v in row.values)))
        for row in HOUSE_RULES}
    return create_model("HouseRulesSchema", __base__=_Section, **keys)


HouseRulesSchema = _house_rules_schema()


class ConfigSchema(_Section):
    buttons: ButtonsSchema = Field(default_factory=ButtonsSchema,
                                   description="the [buttons] table")
    encoder: EncoderSchema = Field(default_factory=EncoderSchema,
                                   description="the [encoder] table")
    buzzer: BuzzerSchema = Field(default_factory=BuzzerSchema,
                                 description="the [buzzer] table")
    leds: LedsSchema = Field(default_factory=LedsSchema,
                             description="the [leds] table")
    display: DisplaySchema = Field(default_factory=DisplaySchema,
                                   description="the [display] table")
    game: GameSchema = Field(default_factory=GameSchema,
                             description="the [game] table")
    paths: PathsSchema = Field(default_factory=PathsSchema,
                               description="the [paths] table")
    pins: PinsSchema = Field(default_factory=PinsSchema, description="the [pins] table")
    smart_dice: SmartDiceSchema = Field(default_factory=SmartDiceSchema,
                                        description="the [smart_dice] table")
    test: TestingSchema = Field(default_factory=TestingSchema,
                                description="the [test] table (tests only)")
    sensors: list[SensorSchema] = Field(default_factory=list, description="[[sensors]] tables")
    house_rules: HouseRulesSchema = Field(  # type: ignore[valid-type]
        default_factory=HouseRulesSchema, description="the [house_rules] table")

    @model_validator(mode="after")
    def _sensor_names_once(self) -> ConfigSchema:
        names = [sensor.name for sensor in self.sensors]
        for number, name in enumerate(names):
            if name in names[:number]:
                raise PydanticCustomError("sensor_name_reused", "sensor name {name} is used "
                                          "twice", {"name": name, "number": number})
        return self

    @model_validator(mode="after")
    def _pins_once(self) -> ConfigSchema:
        owners: dict[int, str] = {}
        buses = bus_pins(self)
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


def checked(data: Any) -> dict[str, Any]:
    """The plain form of the config of a settings table (`config.Config.from_plain` builds
    the config), or pydantic's ValidationError listing its problems. Of [house_rules] it keeps
    the rules set to another reading than the rules' own: a file that writes the defaults out
    is the defaults, and the config needs no table of them."""
    plain: dict[str, Any] = ConfigSchema.model_validate(data).model_dump(mode="json")
    plain["house_rules"] = {name: value for name, value in plain["house_rules"].items()
                            if value != BY_NAME[name].default}
    return plain


def _walk(loc: list[str]) -> tuple[Any, Any]:
    """The pydantic FieldInfo at a dotted location (None if there is none) and the model
    that holds the fields below it; list positions ("sensors.0") step into the list."""
    model: Any = ConfigSchema
    info = None
    for name in loc:
        if digits(name):
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
    if isinstance(value, int) and value.bit_length() > 64:
        return "a number too big for any setting"   # writing it out may be past Python's limit
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
    where = place_shown(loc)       # a key may be thousands of characters long
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
    # A path the system cannot use says why: the text may look right (a NUL, a long name).
    why = (error.get("ctx") or {}).get("error")
    unusable = f" ({why})" if isinstance(why, Unusable) else ""
    return f"{where}: {_shown(error.get('input'))} is not allowed{unusable}; allowed: {allowed}"


def parse(data: dict[str, Any], path: Path | None = None) -> dict[str, Any]:
    """The plain config of a parsed TOML table (missing keys take their defaults), or
    ConfigError."""
    try:
        return checked(data)
    except ValidationError as exc:
        errors = exc.errors()
        problems = [_problem(e) for e in errors[:MOST_PROBLEMS]]
        raise ConfigError(path, problems + _more(len(errors))) from None


def _more(count: int) -> list[str]:
    """The line for a file's problems past the first MOST_PROBLEMS, if any."""
    return [more_said(count - MOST_PROBLEMS)] if count > MOST_PROBLEMS else []


def check(base: dict[str, Any], path: Path, text: str,
          data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """`data` (the file at `path`, whose text is `text`) merged over `base` and checked: the
    plain config and the merged table, or ConfigError with the line of each problem in the
    file."""
    merged = merge(base, data)
    try:
        return checked(merged), merged
    except ValidationError as exc:
        problems = []
        errors = exc.errors()
        for error in errors[:MOST_PROBLEMS]:
            places, message = _placed(error)
            line = next((n for n in (line_of(text, p) for p in places) if n is not None), None)
            problems.append(message if line is None else f"line {line}: {message}")
        raise ConfigError(path, problems + _more(len(errors))) from None


def stick_part(data: dict[str, Any], text: str) -> tuple[dict[str, Any], list[str]]:
    """What the USB stick's file `data` (whose text is `text`) may set: its tables of
    boot.STICK_TABLES; and a problem for each other [table] or key of the schema it sets, with
    its line (the first MOST_PROBLEMS of them, then how many more). Keys the schema does not
    know are kept, for the check to name as usual."""
    kept: dict[str, Any] = {}
    places: list[list[str]] = []
    for name, value in data.items():
        if name in STICK_TABLES or name not in ConfigSchema.model_fields:
            kept[name] = value
        elif isinstance(value, dict) and value:
            places += [[name, str(key)] for key in value]
        else:
            places.append([name])
    refused = [_refused(text, place) for place in places[:MOST_PROBLEMS]]
    if len(places) > MOST_PROBLEMS:
        refused.append(f"and {len(places) - MOST_PROBLEMS} more settings a USB stick may not "
                       f"set; allowed: only in {TRUSTED_FILES}")
    return kept, refused


def _refused(text: str, place: list[str]) -> str:
    # An array of tables ([[sensors]]) is found by its first table.
    line = line_of(text, place) or line_of(text, [*place, "0"])
    # A key of any length may be on a stick: the message names it cut short.
    where = shortened(".".join(place))
    problem = f"{where}: a USB stick may not set it; allowed: only in {TRUSTED_FILES}"
    return problem if line is None else f"line {line}: {problem}"
