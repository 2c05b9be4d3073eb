"""The box's configuration: TOML files, every key optional, checked before anything starts.

Parents edit settings from any computer, so the config is read in layers, each over the one
before:

1. the built-in defaults (hardware/config.toml writes every default out);
2. the system file, /etc/cobi-companion/config.toml (SYSTEM_CONFIG), or the file given with
   `--config` in its place;
3. `config.toml` in each overlay folder, in order: $COBI_COMPANION_OVERLAYS (folders separated
   by os.pathsep; an empty value means none), else /boot/firmware/cobi (the FAT boot partition)
   then /media/cobi (a USB stick labelled COBI, mounted read-only); then the folder
   $COBI_COMPANION_STICK names, if it is not one of them.

The USB stick (/media/cobi, or $COBI_COMPANION_STICK's folder) can be plugged in by anyone at the
table: of its file only the players' choices are used (boot.STICK_TABLES: [game], [house_rules]);
every other key of the schema is left out and reported in `Loaded.refused` with its line, and the
rest of the file applies. Paths, pins, sensors, the panel and [test] come only from the system
file and the boot partition.

Missing folders and files are skipped. Layers merge table by table and key by key: a later
file's [display] driver replaces only that key. An array of tables ([[sensors]]) in a later file
replaces the earlier list whole. Each file is merged and checked in turn; a file whose merged
result is invalid (or that cannot be read, or is not TOML) is skipped whole, the layers before
it stay, and its problems name the file, the line, the dotted field and what is allowed, like
`config /media/cobi/config.toml: line 7: buttons.axis: 40 is not allowed; allowed: ...`.

`load_layers` is the box's loader: it skips broken files and says which files it used.
`load_config` is the command line's: the same layers, but a broken file is an error.

The config is plain data (the classes below). The files are checked with pydantic in
`config_check.py`, which is imported only when a file has changed since the snapshot of the last
check (`cards/snapshot.py`): while none has, the box starts from the snapshot without pydantic.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from cobi_companion.cards import tomlfile
from cobi_companion.cards.snapshot import Fingerprint, cached, checking_code
from cobi_companion.cards.tomlfile import FileProblem, parse, read_text, shortened
from cobi_companion.cards.tomlfile import line_of as line_of
from cobi_companion.device import boot
from cobi_companion.device.boot import CONFIG_NAME as CONFIG_NAME
from cobi_companion.device.boot import OVERLAY_FOLDERS as OVERLAY_FOLDERS
from cobi_companion.device.boot import OVERLAYS_ENV as OVERLAYS_ENV
from cobi_companion.device.boot import PANEL_DEFAULTS as PANEL
from cobi_companion.device.boot import SYSTEM_CONFIG as SYSTEM_CONFIG
from cobi_companion.device.boot import default_state_dir as default_state_dir
from cobi_companion.device.boot import overlay_card_folders as overlay_card_folders
from cobi_companion.device.boot import overlay_folders as overlay_folders
from cobi_companion.device.core.setting_values import DiceAdapter as DiceAdapter
from cobi_companion.device.core.setting_values import DiceSource as DiceSource
from cobi_companion.device.core.setting_values import PinKind as PinKind
from cobi_companion.device.core.setting_values import Remind as Remind
from cobi_companion.device.core.setting_values import Rules as Rules
from cobi_companion.device.core.setting_values import Speed as Speed
from cobi_companion.device.core.setting_values import Voice as Voice
from cobi_companion.device.ports.errors import ConfigError as ConfigError
from cobi_companion.device.ports.errors import StickError, reason
from cobi_companion.device.ports.panel import Driver as Driver
from cobi_companion.device.ports.wiring import PIN_FIELDS as PIN_FIELDS
from cobi_companion.words import languages

# A language's code: one of the registry's (words/languages.py), which the config check holds
# a file's value to (a type cannot: a test may add a language while the box runs).
Language = str


# The tables of the config: what each key allows is said in config_check.py's schema.

@dataclass(frozen=True, kw_only=True)
class Buttons:
    """The two dice buttons' pins, and their debounce and hold times."""

    axis: int = 17
    allies: int = 27
    bounce_s: float = 0.02
    hold_s: float = 1.0


@dataclass(frozen=True, kw_only=True)
class Encoder:
    """The rotary encoder's pins, its push switch's pin and its long-press time."""

    a: int = 5
    b: int = 6
    button: int = 13
    long_press_s: float = 0.8


@dataclass(frozen=True, kw_only=True)
class Buzzer:
    """The buzzer's pin, if one is fitted."""

    pin: int | None = 12          # None: no buzzer fitted


@dataclass(frozen=True, kw_only=True)
class Leds:
    """The two sides' LEDs' pins, if fitted."""

    axis: int | None = 23
    allies: int | None = 24


@dataclass(frozen=True, kw_only=True)
class Display:
    """The OLED panel: its driver, bus, address, turn and brightness, and when it dims and goes
    dark."""

    # The panel's defaults live in `boot`, which opens the panel before this module is loaded.
    driver: Driver = PANEL["driver"]
    port: int = PANEL["port"]
    address: int = PANEL["address"]
    rotate: int = PANEL["rotate"]
    contrast: int = PANEL["contrast"]
    dim_after_min: int = 5
    off_after_min: int = 10
    dim_contrast: int = PANEL["dim_contrast"]


@dataclass(frozen=True, kw_only=True)
class Game:
    """How a new box plays: language, rules level, real dice or the box's, sound, and its
    voice (off, outcomes, or outcomes and prompts) at a volume and a speed."""

    language: Language = languages.SOURCE
    # A new box starts at the Easy level, a family's first battle; the Rules setting (the
    # roster's last row) remembers the level the players choose after.
    rules: Rules = "easy"
    # The old switch for real dice on both sides: true means "dial" for a side whose
    # `dice_` source is left at "buttons" (`Settings.dice`).
    real_dice: bool = False
    # Where each side's dice come from: "buttons", "dial" (real dice) or "smart" (smart
    # dice over Bluetooth).
    dice_axis: DiceSource = "buttons"
    dice_allies: DiceSource = "buttons"
    sound: bool = True
    voice: Voice = "all"
    volume: int = 100
    speed: Speed = "normal"
    # After this many seconds with no press a prompt is said again (0: never).
    remind_s: Remind = 20


@dataclass(frozen=True, kw_only=True)
class Pins:
    """Whose pins the controls, the buzzer and the LEDs are: the Pi's GPIO ("real", through
    the pin factory $GPIOZERO_PIN_FACTORY names) or gpiozero's mock pins ("mock": no GPIO at
    all, for trying the box on another computer and for the system test)."""

    factory: PinKind = "real"


@dataclass(frozen=True, kw_only=True)
class SmartDiceSetup:
    """Smart dice: whether the box uses them, and how it reaches them: the Pi's Bluetooth
    ("bluetooth") or virtual dice ("fake": the simulator's, for tests)."""

    enabled: bool = True
    adapter: DiceAdapter = "bluetooth"


@dataclass(frozen=True, kw_only=True)
class Testing:
    """For tests only, never set on a box at the table: a FIFO the box makes and reads key
    names from, as presses (ports/key_fifo.py), and a file it writes each frame into as text
    (the system test, tests/system/, plays the installed box with them). None: off."""

    keys_fifo: Path | None = None
    screen_file: Path | None = None


@dataclass(frozen=True, kw_only=True)
class Paths:
    """Where the box keeps its battles, and the folder of the user's own cards."""

    state_dir: Path = field(default_factory=default_state_dir)
    cards_dir: Path | None = None


@dataclass(frozen=True, kw_only=True)
class Sensor:
    """A range sensor: its name, serial port, model and how its readings are taken."""

    name: str
    port: str
    model: str                       # one of wiring.SENSOR_MODELS
    baud: int | None = None          # None: the model's
    offset_cm: float = 0.0
    samples: int = 7
    margin_cm: float = 1.5
    header_in_checksum: bool = True
    request: int | None = None       # None: the model's


_SECTIONS = {"buttons": Buttons, "encoder": Encoder, "buzzer": Buzzer, "leds": Leds,
             "display": Display, "game": Game, "pins": Pins, "smart_dice": SmartDiceSetup}


@dataclass(frozen=True, kw_only=True)
class Config:
    """The box's settings, as checked (`config_check.py`), or the defaults."""

    buttons: Buttons = field(default_factory=Buttons)
    encoder: Encoder = field(default_factory=Encoder)
    buzzer: Buzzer = field(default_factory=Buzzer)
    leds: Leds = field(default_factory=Leds)
    display: Display = field(default_factory=Display)
    game: Game = field(default_factory=Game)
    paths: Paths = field(default_factory=Paths)
    pins: Pins = field(default_factory=Pins)
    smart_dice: SmartDiceSetup = field(default_factory=SmartDiceSetup)
    test: Testing = field(default_factory=Testing)
    sensors: list[Sensor] = field(default_factory=list)
    # [house_rules]: the house rules a new battle starts with (rules/house.py), by name: those
    # set to another reading than the rules' own. Kept as names and words: the rules' table is
    # read only to check a file (config_check.py).
    house_rules: dict[str, str] = field(default_factory=dict)

    @classmethod
    def validated(cls, data: Any) -> Config:
        """The config of a settings table, checked (pydantic's ValidationError if it is not
        right)."""
        from cobi_companion.device.config_check import checked

        return cls.from_plain(checked(data))

    # pydantic's name, which the config had until it became plain data (tests use it)
    model_validate = validated

    def to_plain(self) -> dict[str, Any]:
        """Every setting as JSON data, by table."""
        plain = {name: _plain(getattr(self, name)) for name in (*_SECTIONS, "paths", "test")}
        return {**plain, "sensors": [_plain(sensor) for sensor in self.sensors],
                "house_rules": dict(self.house_rules)}

    @classmethod
    def from_plain(cls, data: Mapping[str, Any]) -> Config:
        """The config of `to_plain`'s data, as it was checked: nothing is checked here."""
        paths = data["paths"]
        cards = paths["cards_dir"]
        test = {key: None if value is None else Path(value)
                for key, value in data["test"].items()}
        return cls(**{name: section(**data[name]) for name, section in _SECTIONS.items()},
                   paths=Paths(state_dir=Path(paths["state_dir"]),
                               cards_dir=None if cards is None else Path(cards)),
                   test=Testing(**test),
                   sensors=[Sensor(**sensor) for sensor in data["sensors"]],
                   house_rules={str(name): str(value)
                                for name, value in (data.get("house_rules") or {}).items()})


def _plain(section: Any) -> dict[str, Any]:
    values = {f.name: getattr(section, f.name) for f in fields(section)}
    return {name: str(value) if isinstance(value, Path) else value
            for name, value in values.items()}


def parse_config(data: dict[str, Any], path: Path | None = None) -> Config:
    """Validate a parsed TOML table; missing keys take their defaults (ConfigError if it is
    not right)."""
    from cobi_companion.device.config_check import parse

    return Config.from_plain(parse(data, path))


def read_config(path: Path) -> Config:
    """Read and validate one config file on its own over the defaults (it must exist)."""
    from cobi_companion.device.config_check import check

    text = _read_text(path)
    return Config.from_plain(check({}, path, text, _parse(path, text))[0])


def _read_text(path: Path) -> str:
    # As every file of the box is read (cards/tomlfile.py): a regular file of at most 256 KiB,
    # never a FIFO or a device that would hang the start.
    try:
        return read_text(path)
    except FileProblem as exc:
        raise ConfigError(path, [str(exc)]) from None


PLACE_CHARS = 100


def _parse(path: Path, text: str) -> dict[str, Any]:
    try:
        return parse(text)
    except FileProblem as exc:     # a TOML error's message ends "(at line 2, column 11)"
        line = line_of(text, exc.place.split(".")) if exc.place else None
        # the place holds keys of any length: named cut short (a place of 32 short keys whole)
        said = f"{shortened(exc.place, PLACE_CHARS)}: {exc.reason}" if exc.place else exc.reason
        raise ConfigError(path, [said if line is None else f"line {line}: {said}"]) from None


@dataclass(frozen=True)
class Loaded:
    """What `load_layers` made of the config files: the config, the files applied (in
    order), the files skipped with their problems, the overlay folders' cards/ folders, the
    settings of the USB stick's file that it may not set (the rest of that file is applied),
    and the state folders the files applied gave, the last one's first: where the box saves
    when a later one cannot be made (box.usable_state_dir; the default after them)."""

    config: Config
    files: tuple[Path, ...]
    skipped: tuple[ConfigError, ...]
    card_folders: tuple[Path, ...]
    refused: tuple[StickError, ...] = ()
    state_dirs: tuple[Path, ...] = ()

    @property
    def problems(self) -> tuple[ConfigError, ...]:
        """Every problem of the files: those skipped, then the stick's settings refused."""
        return self.skipped + self.refused


def _layers(path: Path | None) -> Loaded:
    """Every file over the one before, checked; a broken file is skipped (see load_layers).
    The checks (and pydantic) are imported once a file is there to check: a box with no
    settings file starts on the defaults without them."""
    config = Config()
    data: dict[str, Any] = {}
    files: list[Path] = []
    skipped: list[ConfigError] = []
    refused: list[StickError] = []
    state_dirs: list[Path] = []
    for file in boot.config_files(path or SYSTEM_CONFIG):
        try:
            text = _read_text(file)
            # a file to check: the checks (and pydantic) loaded now, at the first one
            from cobi_companion.device.config_check import check, stick_part

            table = _parse(file, text)
            if boot.on_stick(file):        # the players' choices only; the rest is refused
                table, problems = stick_part(table, text)
                refused += [StickError(file, problems)] if problems else []
            plain, data = check(data, file, text, table)
            config = Config.from_plain(plain)
        except ConfigError as error:
            missing = error.problems == ["no such file"]
            if missing and file != path:       # only a file asked for must be there
                continue
            skipped.append(error)
            continue
        except ImportError:            # the box's own code is broken, not the file: stop
            raise
        except Exception as exc:       # nothing a file holds may stop the start: skip it too
            skipped.append(ConfigError(file, [f"cannot be used: {reason(exc)}"]))
            continue
        files.append(file)
        state_dirs.append(config.paths.state_dir)
    return Loaded(config, tuple(files), tuple(skipped), tuple(overlay_card_folders()),
                  tuple(refused), tuple(dict.fromkeys(reversed(state_dirs))))


# The code that decides what the settings files become: a change to any of these files (an
# upgrade, an edit) makes the snapshot of checked settings stale.
_DEVICE = Path(__file__).parent
CHECKING_CODE = (*(_DEVICE / name for name in ("config.py", "config_check.py", "boot.py",
                                               "ports/panel.py", "ports/errors.py",
                                               "ports/wiring.py", "ports/sensor_models.py",
                                               "core/setting_values.py")),
                 # the check reads a list position ("sensors.0") with rules.numbers.digits
                 _DEVICE.parent / "rules" / "numbers.py",
                 # and the house rules and their values from the rules' table
                 _DEVICE.parent / "rules" / "house.py",
                 # and the overlay folders, where the config files are, from the cards'
                 _DEVICE.parent / "cards" / "overlays.py",
                 # and the languages a file may choose from the registry
                 _DEVICE.parent / "words" / "languages.py",
                 Path(tomlfile.__file__))


def _config_files(path: Path | None) -> Fingerprint:
    """Every config file `_layers(path)` may read, the code that checks them, and the default
    state folder (a default that depends on the environment)."""
    fingerprint = Fingerprint().code(checking_code(CHECKING_CODE))
    fingerprint.value("asked", None if path is None else str(path))
    fingerprint.value("state_dir", str(default_state_dir()))
    for file in boot.config_files(path or SYSTEM_CONFIG):
        fingerprint.file(file)
    return fingerprint


def _loaded_data(loaded: Loaded) -> dict[str, Any]:
    return {"config": loaded.config.to_plain(), "files": [str(f) for f in loaded.files],
            "skipped": [[None if e.path is None else str(e.path), e.problems]
                        for e in loaded.skipped],
            "refused": [[str(e.path), e.problems] for e in loaded.refused],
            "state_dirs": [str(folder) for folder in loaded.state_dirs]}


def _loaded(data: Mapping[str, Any]) -> Loaded:
    skipped = tuple(ConfigError(None if where is None else Path(where), list(problems))
                    for where, problems in data["skipped"])
    refused = tuple(StickError(Path(where), list(problems)) for where, problems in data["refused"])
    return Loaded(Config.from_plain(data["config"]), tuple(Path(f) for f in data["files"]),
                  skipped, tuple(overlay_card_folders()), refused,
                  tuple(Path(folder) for folder in data["state_dirs"]))


def load_layers(path: Path | None = None, snapshot: Path | None = None) -> Loaded:
    """The box's config: the defaults, then `path` (else SYSTEM_CONFIG), then each overlay
    folder's config.toml, each over the one before. A file that cannot be read, is not TOML or
    makes the config invalid is skipped whole (the layers before it stay) and is in `skipped`;
    a missing file is skipped silently, unless it is the `path` asked for. With a `snapshot`
    file, what the files made last time is used while none of them has changed."""
    return cached(snapshot, lambda: _config_files(path), lambda: _layers(path), _loaded_data,
                  _loaded)


def load_config(path: Path | None = None, snapshot: Path | None = None) -> Config:
    """The config of the command line: the same layers as `load_layers`, but the given file
    must exist and a broken file, an overlay too, raises its ConfigError (the first one: the
    layers are read in order, and a file is checked over the ones before it that are right);
    so does a setting the USB stick may not set."""
    loaded = load_layers(path, snapshot)
    if loaded.problems:
        raise loaded.problems[0]
    return loaded.config
