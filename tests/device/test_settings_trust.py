"""Issue 31, points 4 and 5: no settings file can stop the box from starting, and the USB stick
may set only what the players choose at the table.

A value the system cannot use (a path with a NUL or a name over 255 bytes, "~nosuchuser", a
number word too long to write out) is refused by the schema with the file, the line, the field
and why; a state folder that cannot be made is passed over for the layer before it. From the
stick (the folder $COBI_COMPANION_STICK names) only [game] and [house_rules] are used: every
other key is refused and named, and the rest of the file applies. A property test feeds the
loader random settings files and sees nothing but the reported problems come out."""
from __future__ import annotations

import json
import math
import os
import typing
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device import boot, config_check
from cobi_companion.device import config as config_module
from cobi_companion.device.boot import PANEL_DEFAULTS, STICK_TABLES, peek_panel
from cobi_companion.device.box import hardware_of, usable_state_dir
from cobi_companion.device.config import Config, ConfigError, load_config, load_layers
from cobi_companion.device.config_check import ConfigSchema
from cobi_companion.device.ports.errors import StickError
from hypothesis import given, settings
from hypothesis import strategies as st

TRUSTED = "only in /etc/cobi-companion/config.toml or the boot partition's cobi/config.toml"


class Layers:
    """/etc's file, the boot partition and the USB stick in tmp_path, as the box reads them."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.system = root / "etc" / "config.toml"
        self.boot = root / "boot" / "cobi"
        self.stick = root / "media" / "cobi"
        monkeypatch.setattr(config_module, "SYSTEM_CONFIG", self.system)
        monkeypatch.setattr(boot, "SYSTEM_CONFIG", self.system)
        monkeypatch.setenv("COBI_COMPANION_OVERLAYS", str(self.boot))
        monkeypatch.setenv("COBI_COMPANION_STICK", str(self.stick))

    def write(self, where: Path, text: str) -> Path:
        path = where if where.suffix == ".toml" else where / "config.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path


@pytest.fixture
def layers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layers:
    return Layers(tmp_path, monkeypatch)


# ---- values the system cannot use ----

UNUSABLE = {
    "no such user": ('[paths]\ncards_dir = "~nosuchuser/x"\n',
                     'line 2: paths.cards_dir: "~nosuchuser/x" is not allowed (no such '
                     "user's home folder)"),
    "4301 hex digits": ('[display]\naddress = "0x' + "1" * 4301 + '"\n',
                        'line 2: display.address: "0x1111111111'),
    "long name": ('[paths]\nstate_dir = "/tmp/' + "x" * 256 + '"\n',
                  "line 2: paths.state_dir: \"/tmp/xxx"),
    "NUL": ('[paths]\nstate_dir = "/tmp/a\\u0000b"\n',
            'line 2: paths.state_dir: "/tmp/a\\u0000b" is not allowed (a path cannot hold a '
            "NUL character); allowed: an absolute folder path"),
    "NUL in a port": ('[[sensors]]\nname = "a"\nmodel = "a02yyuw"\nport = "/dev/tty\\u0000"\n',
                      "line 4: sensors.0.port: "),
}


@pytest.mark.parametrize("name", list(UNUSABLE))
def test_a_value_the_system_cannot_use_is_refused_naming_line_field_and_why(
        layers: Layers, name: str) -> None:
    text, start = UNUSABLE[name]
    layers.write(layers.system, '[game]\nlanguage = "pl"\n')
    bad = layers.write(layers.boot, text)
    loaded = load_layers()
    assert loaded.config.game.language == "pl"          # the layer before stays
    [error] = loaded.skipped
    assert error.path == bad and len(error.problems) == 1
    assert error.problems[0].startswith(start), error.problems
    assert "allowed: " in error.problems[0] and len(error.problems[0]) < 400
    with pytest.raises(ConfigError):                    # the command line: one line, exit 2
        load_config(None)


@pytest.mark.parametrize("value", ["0x" + "f" * 4000, "[" * 40 + "]" * 40, "1"])
def test_a_key_of_thousands_of_characters_is_named_cut_short(layers: Layers,
                                                             value: str) -> None:
    key = "0x" + "f" * 4301
    layers.write(layers.boot, f'[buttons]\n"{key}" = {value}\n')
    layers.write(layers.stick, f'[display]\n"{key}" = {value}\n')
    loaded = load_layers()
    problems = [problem for error in loaded.problems for problem in error.problems]
    assert len(problems) == 2 and all(len(problem) < 300 for problem in problems), problems
    assert all(problem.startswith("line 2: ") and "0xfffff" in problem and "…" in problem
               for problem in problems)


def test_a_name_of_255_bytes_is_a_usable_path(layers: Layers, tmp_path: Path) -> None:
    folder = tmp_path / ("é" * 127)                      # 254 bytes
    layers.write(layers.boot, f'[paths]\nstate_dir = "{folder}"\n')
    loaded = load_layers()
    assert loaded.skipped == () and loaded.config.paths.state_dir == folder


def test_a_state_folder_that_cannot_be_made_gives_way_to_the_layer_before(
        layers: Layers, tmp_path: Path) -> None:
    etc_state, blocker = tmp_path / "etc-state", tmp_path / "a-file"
    blocker.write_text("")
    layers.write(layers.system, f'[paths]\nstate_dir = "{etc_state}"\n')
    layers.write(layers.boot, f'[paths]\nstate_dir = "{blocker / "state"}"\n')
    loaded = load_layers()
    assert loaded.skipped == () and loaded.state_dirs == (blocker / "state", etc_state)
    folder, unusable = usable_state_dir(loaded.config, loaded)
    assert folder == etc_state and etc_state.is_dir()
    [problem] = unusable
    assert problem.startswith(f"{blocker / 'state'}: ") and "Not a directory" in problem


def test_with_no_usable_layer_the_default_folder_is_used(layers: Layers, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "default"))
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    layers.write(layers.system, f'[paths]\nstate_dir = "{blocker / "state"}"\n')
    loaded = load_layers()
    assert usable_state_dir(loaded.config, loaded)[0] == tmp_path / "default"


# ---- the stick ----

def _other(default: Any, annotation: Any) -> Any:
    """A TOML value of a field's type that is not its default (or a path where it has none):
    what a hostile stick would write."""
    choices = [a for a in typing.get_args(annotation) if isinstance(a, str)]
    if choices:
        return next(choice for choice in choices if choice != default)
    if isinstance(default, bool):
        return not default
    if isinstance(default, int | float):
        return default + 1
    return "/tmp/from-the-stick"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, str) else repr(value)


def refused_keys() -> list[tuple[str, str]]:
    """Every table and key of the schema a stick may not set, from the schema itself: a new
    key is tried without a word here. [[sensors]] is one setting, the list."""
    keys: list[tuple[str, str]] = []
    for table, info in ConfigSchema.model_fields.items():
        if table in STICK_TABLES:
            continue
        model = info.annotation
        if table == "sensors":
            keys.append((table, ""))
            continue
        assert model is not None
        keys += [(table, key) for key in model.model_fields]
    return keys


def stick_line(table: str, key: str) -> str:
    if table == "sensors":
        return '[[sensors]]\nname = "x"\nport = "/dev/ttyUSB9"\nmodel = "a02yyuw"\n'
    info = ConfigSchema.model_fields[table].annotation.model_fields[key]  # type: ignore[union-attr]
    value = _other(info.get_default(call_default_factory=True), info.annotation)
    return f"[{table}]\n{key} = {_toml(str(value) if isinstance(value, Path) else value)}\n"


def test_every_table_but_the_players_choices_is_refused() -> None:
    tables = {table for table, _ in refused_keys()}
    assert tables == set(ConfigSchema.model_fields) - {"game", "house_rules"}
    assert {"paths", "pins", "test", "display", "leds", "buttons", "sensors"} <= tables


@pytest.mark.parametrize(("table", "key"), refused_keys())
def test_each_key_a_stick_may_not_set_is_refused_and_the_rest_applies(
        layers: Layers, table: str, key: str) -> None:
    layers.write(layers.system, '[game]\nvolume = 60\n')
    allowed = '[game]\nlanguage = "pl"\n[house_rules]\nsherman_reload = "text"\n'
    stick = layers.write(layers.stick, allowed + stick_line(table, key))
    loaded = load_layers()
    field, line = ("sensors", 5) if table == "sensors" else (f"{table}.{key}", 6)
    [refusal] = loaded.refused
    assert isinstance(refusal, StickError) and refusal.path == stick
    assert refusal.problems == [f"line {line}: {field}: a USB stick may not set it; allowed: "
                                f"{TRUSTED}"]
    assert loaded.skipped == () and loaded.files[-1] == stick
    # The allowed keys of the same file apply; the refused one changes nothing.
    game = loaded.config.game
    assert (game.language, game.volume, loaded.config.house_rules) == (
        "pl", 60, {"sherman_reload": "text"})
    with pytest.raises(StickError):                      # the command line stops at it
        load_config(None)
    layers.write(layers.stick, allowed)
    assert load_layers().config == loaded.config


def test_the_boot_partition_may_set_what_the_stick_may_not(layers: Layers) -> None:
    layers.write(layers.boot, "[display]\ncontrast = 0\n[leds]\naxis = 4\n")
    loaded = load_layers()
    assert loaded.refused == () and loaded.config.display.contrast == 0
    assert loaded.config.leds.axis == 4


def test_a_hostile_stick_keeps_the_etc_values(layers: Layers, tmp_path: Path) -> None:
    state = tmp_path / "state"
    layers.write(layers.system, f'[paths]\nstate_dir = "{state}"\n[display]\ncontrast = 200\n')
    stick = layers.write(layers.stick,
                         '[paths]\nstate_dir = "/dev/shm/cobi"\ncards_dir = "/media/cobi/db"\n'
                         "[leds]\naxis = 17\nallies = 27\n[display]\ncontrast = 0\n"
                         'driver = "dummy"\n[pins]\nfactory = "mock"\n'
                         '[test]\nkeys_fifo = "/tmp/keys"\n[game]\nsound = false\n')
    loaded = load_layers()
    config = loaded.config
    assert (config.paths.state_dir, config.paths.cards_dir) == (state, None)
    assert (config.leds.axis, config.leds.allies) == (23, 24)
    assert (config.display.contrast, config.display.driver) == (200, "ssd1306")
    assert (config.pins.factory, config.test.keys_fifo) == ("real", None)
    assert config.game.sound is False
    [refusal] = loaded.refused
    assert [p.split(": ")[1] for p in refusal.problems] == [
        "paths.state_dir", "paths.cards_dir", "leds.axis", "leds.allies", "display.contrast",
        "display.driver", "pins.factory", "test.keys_fifo"]
    assert str(refusal).startswith(f"config {stick}: line 2: paths.state_dir: a USB stick")
    assert loaded.state_dirs == (state,)


def test_a_stick_setting_many_keys_costs_a_few_lines(layers: Layers) -> None:
    keys = "".join(f"k{n} = {n}\n" for n in range(5000))
    layers.write(layers.stick, "[display]\n" + keys)
    [refusal] = load_layers().refused
    assert len(refusal.problems) == 21
    assert refusal.problems[-1].startswith("and 4980 more settings a USB stick may not set")


def test_the_title_never_reads_the_sticks_panel(layers: Layers,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # The stick among the overlay folders, as /media/cobi is by default: it is still the stick.
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", f"{layers.boot}{os.pathsep}{layers.stick}")
    layers.write(layers.boot, '[display]\ndriver = "sh1106"\n')
    layers.write(layers.stick, '[display]\ndriver = "dummy"\ncontrast = 0\n')
    assert peek_panel(None) == {**PANEL_DEFAULTS, "driver": "sh1106"}


def test_the_refusals_survive_the_snapshot(layers: Layers, tmp_path: Path) -> None:
    layers.write(layers.stick, "[display]\ncontrast = 0\n[game]\nvolume = 5\n")
    os.utime(layers.stick / "config.toml", (0, 0))       # old enough to be kept
    snapshot = tmp_path / "snapshot.json"
    first = load_layers(None, snapshot)
    assert snapshot.is_file()
    again = load_layers(None, snapshot)
    assert (again.config, again.files, again.state_dirs) == (
        first.config, first.files, first.state_dirs)
    [refusal] = again.refused
    assert isinstance(refusal, StickError) and str(refusal) == str(first.refused[0])


def test_the_stick_folder_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COBI_COMPANION_OVERLAYS")
    monkeypatch.delenv("COBI_COMPANION_STICK", raising=False)
    assert boot.overlay_folders() == [Path("/boot/firmware/cobi"), Path("/media/cobi")]
    assert boot.on_stick(Path("/media/cobi/config.toml"))
    assert not boot.on_stick(Path("/boot/firmware/cobi/config.toml"))
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", "/a")
    assert boot.overlay_folders() == [Path("/a")]        # the stick is not read unless named
    monkeypatch.setenv("COBI_COMPANION_STICK", "/s")
    assert boot.overlay_folders() == [Path("/a"), Path("/s")] and boot.on_stick(
        Path("/s/config.toml"))
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", "/s:/a")
    assert boot.overlay_folders() == [Path("/s"), Path("/a")]
    monkeypatch.setenv("COBI_COMPANION_STICK", "")
    assert not boot.on_stick(Path("/media/cobi/config.toml"))


# ---- any file at all ----

SCHEMA_KEYS = {table: list(getattr(info.annotation, "model_fields", {}))
               for table, info in ConfigSchema.model_fields.items()}
ODD_TEXT = st.text(st.characters(codec="utf-8"), max_size=40) | st.sampled_from(
    ["~nosuchuser/x", "~", "/tmp/a\x00b", "/" + "x" * 300, "0x" + "f" * 4301, "none", "0x3C",
     "/dev/serial0", "ÿ" * 200, "\u202e/tmp", "", " 0b1 ", "k" * 6000])
NUMBERS = st.integers() | st.integers(min_value=-(10**5000), max_value=10**5000) | st.floats()


DEEP: list[Any] = []
for _ in range(40):          # deeper than a file may nest (tomlfile.MAX_DEPTH)
    DEEP = [DEEP]


@cache     # built once a depth, not once a draw: a strategy describes; drawing is the work
def values(depth: int = 0) -> st.SearchStrategy[Any]:
    plain = st.booleans() | NUMBERS | ODD_TEXT | st.just(DEEP)
    if depth >= 3:
        return plain
    inner = st.deferred(lambda: values(depth + 1))
    return plain | st.lists(inner, max_size=4) | st.dictionaries(ODD_TEXT, inner, max_size=4)


@st.composite
def settings_tables(draw: st.DrawFn) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for table in draw(st.lists(st.sampled_from([*SCHEMA_KEYS, "junk"]), max_size=6)):
        keys = SCHEMA_KEYS.get(table) or ["x"]
        if table == "sensors" or draw(st.integers(0, 9)) == 0:
            data[table] = draw(values())
            continue
        data[table] = {key: draw(values()) for key in
                       draw(st.lists(st.sampled_from([*keys, "odd"]), max_size=6))}
    return data


def toml_text(value: Any) -> str:
    """`value` written as TOML, tables inline (JSON's escapes are TOML's, but for the odd
    surrogate, which makes the file not TOML: a reported problem too)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") \
            if math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() < 4000 else hex(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_text(item) for item in value) + "]"
    return "{" + ", ".join(f"{json.dumps(key)} = {toml_text(item)}"
                           for key, item in value.items()) + "}"


@settings(max_examples=150)
@given(settings_tables(), settings_tables())
def test_no_settings_file_raises_anything_but_its_reported_problem(
        tmp_path_factory: pytest.TempPathFactory, on_boot: dict[str, Any],
        on_stick: dict[str, Any]) -> None:
    root = tmp_path_factory.mktemp("files")
    boot_file, stick_file = root / "boot" / "config.toml", root / "stick" / "config.toml"
    for file, data in ((boot_file, on_boot), (stick_file, on_stick)):
        file.parent.mkdir()
        file.write_text("".join(f"{json.dumps(key)} = {toml_text(value)}\n"
                                for key, value in data.items()), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COBI_COMPANION_OVERLAYS", str(boot_file.parent))
        patch.setenv("COBI_COMPANION_STICK", str(stick_file.parent))
        patch.setattr(config_module, "SYSTEM_CONFIG", root / "none.toml")
        patch.setattr(boot, "SYSTEM_CONFIG", root / "none.toml")
        loaded = load_layers()
        peeked = peek_panel(None)
    for error in loaded.problems:
        assert error.path in (boot_file, stick_file) and error.problems
        long = [problem[:300] for problem in error.problems if len(problem) >= 1000]
        assert not long, long
    assert set(loaded.files) | {e.path for e in loaded.skipped} == {boot_file, stick_file}
    assert isinstance(loaded.config, Config)
    assert Config.from_plain(json.loads(json.dumps(loaded.config.to_plain()))) == loaded.config
    assert peeked is None or set(peeked) == set(PANEL_DEFAULTS)


def test_a_stick_put_in_while_the_box_runs_is_refused_its_keys_and_no_restart(
        table_at: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stick = tmp_path / "stick"
    monkeypatch.setenv("COBI_COMPANION_STICK", str(stick))
    table = table_at([3], load=lambda: load_layers(None))
    fixed = hardware_of(table.box.config)
    stick.mkdir()
    (stick / "config.toml").write_text('[game]\nlanguage = "pl"\n[leds]\naxis = 17\n'
                                       '[paths]\nstate_dir = "/dev/shm/x"\n')
    table.reload()                       # read on the box's thread, used on the loop
    view = table.view
    assert view.header.title == "Plik ustawień"          # the stick's language applies
    shown = " ".join(" ".join(view.lines).split())
    assert "Pendrive nie może zmienić tych ustawień" in shown
    assert "leds.axis: a USB stick may not set it" in shown.replace("- ", "")
    assert hardware_of(table.box.config) == fixed         # pins and paths as they were
    assert table.box.app.settings.language == "pl"


@pytest.mark.parametrize("where", ["boot", "stick"])
def test_a_settings_file_of_4000_mistakes_names_twenty_and_counts_the_rest(
        layers: Layers, where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each problem named is found in the file's text: 4,000 of them read a 28 KB file 4,000
    # times (114 s here before the cap, before the first screen: systemd's start timeout).
    seen: list[int] = []
    real = config_check.line_of
    monkeypatch.setattr(config_check, "line_of",
                        lambda text, place: seen.append(1) or real(text, place))
    bad = layers.write(getattr(layers, where), "[game]\n" + "".join(
        f"k{i:x} = 1\n" for i in range(4000)))
    [error] = load_layers().problems
    assert error.path == bad and len(error.problems) == config_check.MOST_PROBLEMS + 1
    assert error.problems[0] == "line 2: game.k0: is not a config field; allowed: language, " \
        "rules, real_dice, dice_axis, dice_allies, sound, voice, volume, speed, remind_s"
    assert error.problems[-1] == f"and {4000 - config_check.MOST_PROBLEMS} more problems"
    assert len(seen) <= config_check.MOST_PROBLEMS
