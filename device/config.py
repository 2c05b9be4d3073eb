"""The box's configuration: one TOML file, every key optional, checked before anything starts.

`load_config` reads the file given on the command line, else /etc/cobi-companion/config.toml,
else uses the built-in defaults; hardware/config.toml writes every default out. Any problem
becomes one ConfigError line naming the file, the dotted field and what is allowed.
"""
from __future__ import annotations

import difflib
import json
import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from .boot import PANEL_DEFAULTS as PANEL
from .boot import SYSTEM_CONFIG as SYSTEM_CONFIG
from .errors import ConfigError as ConfigError

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
    driver: Literal["ssd1306", "sh1106"] = Field(
        default=PANEL["driver"],
        description='"ssd1306" (most 0.96" boards) or "sh1106" (most 1.3")')
    port: int = Field(default=PANEL["port"], ge=0, le=31,
                      description="an I2C bus number from 0 to 31")
    address: int = Field(default=PANEL["address"], ge=0x03, le=0x77,
                         description="an I2C address from 0x03 to 0x77")
    rotate: int = Field(default=PANEL["rotate"], ge=0, le=3,
                        description="quarter turns: 0, 1, 2 or 3")
    contrast: int = Field(default=PANEL["contrast"], ge=0, le=255, description=_LEVEL)
    dim_after_min: int = Field(default=5, ge=0, le=240,
                               description="whole minutes from 0 (never dim) to 240")
    dim_contrast: int = Field(default=PANEL["dim_contrast"], ge=0, le=255, description=_LEVEL)

    @field_validator("address", mode="before")
    @classmethod
    def _hex(cls, value: Any) -> Any:
        # Addresses are printed in hex on the boards: accept "0x3C" as well as 60.
        if isinstance(value, str):
            try:
                return int(value.strip(), 0)
            except ValueError:
                return value
        return value


class Game(_Section):
    language: Literal["en", "pl"] = Field(default="en", description='"en" or "pl"')
    rules: Literal["easy", "tank"] = Field(
        default="tank", description='"easy" (Easy level) or "tank" (Tank Game)')
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


# The pins in the order they are checked: a reused pin names the earlier field as its owner.
PIN_FIELDS = ("buttons.axis", "buttons.allies", "encoder.a", "encoder.b", "encoder.button",
              "buzzer.pin", "leds.axis", "leds.allies")


class Config(_Section):
    buttons: Buttons = Field(default_factory=Buttons, description="the [buttons] table")
    encoder: Encoder = Field(default_factory=Encoder, description="the [encoder] table")
    buzzer: Buzzer = Field(default_factory=Buzzer, description="the [buzzer] table")
    leds: Leds = Field(default_factory=Leds, description="the [leds] table")
    display: Display = Field(default_factory=Display, description="the [display] table")
    game: Game = Field(default_factory=Game, description="the [game] table")
    paths: Paths = Field(default_factory=Paths, description="the [paths] table")

    @model_validator(mode="after")
    def _pins_once(self) -> Config:
        owners: dict[int, str] = {}
        for name in PIN_FIELDS:
            section, key = name.split(".")
            pin = getattr(getattr(self, section), key)
            if pin is None:
                continue
            if pin in owners:
                raise PydanticCustomError(
                    "pin_reused", "pin {pin} is used by {other} and {field}",
                    {"pin": pin, "field": name, "other": owners[pin]})
            owners[pin] = name
        return self


def _field(loc: list[str]) -> Any:
    """The pydantic FieldInfo at a dotted location, or None."""
    model: Any = Config
    info = None
    for name in loc:
        fields = getattr(model, "model_fields", {})
        if name not in fields:
            return None
        info = fields[name]
        model = info.annotation
    return info


def _shown(value: Any) -> str:
    # Values written as TOML would write them: "text", true, 153.
    return json.dumps(value, ensure_ascii=False, default=str)


def _problem(error: ErrorDetails) -> str:
    loc = [str(part) for part in error["loc"]]
    ctx = error.get("ctx") or {}
    if error["type"] == "pin_reused":
        return (f"{ctx['field']}: {ctx['pin']} is already used by {ctx['other']}; "
                f"allowed: a pin no other part uses")
    where = ".".join(loc)
    if error["type"] == "extra_forbidden":
        parent = _field(loc[:-1]).annotation if len(loc) > 1 else Config
        names = list(getattr(parent, "model_fields", {}))
        close = difflib.get_close_matches(loc[-1], names, n=1)
        hint = f" (did you mean {close[0]}?)" if close else f"; allowed: {', '.join(names)}"
        return f"{where}: is not a config field{hint}"
    info = _field(loc)
    allowed = info.description if info is not None and info.description else error["msg"]
    return f"{where}: {_shown(error.get('input'))} is not allowed; allowed: {allowed}"


def parse_config(data: dict[str, Any], path: Path | None = None) -> Config:
    """Validate a parsed TOML table; missing keys take their defaults."""
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(path, [_problem(e) for e in exc.errors()]) from None


def read_config(path: Path) -> Config:
    """Read and validate one config file (it must exist)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(path, ["no such file"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ConfigError(path, [f"cannot be read: {reason}"]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, [f"not valid TOML ({exc})"]) from None
    return parse_config(data, path)


def load_config(path: Path | None = None) -> Config:
    """The given file, else SYSTEM_CONFIG if it exists, else the defaults."""
    if path is not None:
        return read_config(path)
    if SYSTEM_CONFIG.exists():
        return read_config(SYSTEM_CONFIG)
    return Config()
