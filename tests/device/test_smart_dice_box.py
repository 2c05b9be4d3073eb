"""The smart dice as the box is put together (box.py `build`): the [smart_dice] settings, the
port they make (none, the Pi's Bluetooth made at its first use, or virtual dice), the paired
dice kept from the start, closed with the box; the simulator's and the test keys' die words."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device import box as box_module
from cobi_companion.device import config as config_module
from cobi_companion.device.box import Box, build, die_roller
from cobi_companion.device.config import Config, ConfigError, load_config, load_layers
from cobi_companion.device.config_check import stick_part
from cobi_companion.device.ports.ble_dice import BleDice
from cobi_companion.device.ports.die_readings import GODICE, PIXELS, Settled
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import DieLink, Done, Key, Press
from cobi_companion.device.ports.fake_dice import SIM_DICE, FakeDice
from cobi_companion.device.ports.late_dice import NO_BLEAK, LateDice
from cobi_companion.device.ports.smart_dice import NoSmartDice
from cobi_companion.device.ports.speech import NoSpeech
from cobi_companion.device.sim import (
    MockPanel,
    SnapshotDisplay,
    TapClock,
    drain,
    parse_script,
    run_sim,
    split_keys,
    typed_keys,
)
from cobi_companion.rules.dice import ScriptedDice
from gpiozero.pins.mock import MockFactory, MockPWMPin
from waiting import HANG_S, until

HARDWARE_CONFIG = Path(__file__).resolve().parents[2] / "hardware" / "config.toml"
RED, BLUE, BLACK, SKY = (die.die for die in SIM_DICE)
PAIRED = {RED: {"kind": GODICE, "name": "GoDice", "side": "axis", "colour": "red"},
          SKY: {"kind": PIXELS, "name": "Pixel", "side": "allies", "colour": "aurora_sky"}}
FAKE = replace(Config(), smart_dice=replace(Config().smart_dice, adapter="fake"))


@pytest.fixture(autouse=True)
def _no_system_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(config_module, "SYSTEM_CONFIG", tmp_path / "etc" / "config.toml")
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", "")


@contextmanager
def box_of(tmp_path: Path, config: Config, paired: dict[str, Any] | None = None
           ) -> Iterator[Box]:
    """A box of `config` whose store has `paired` dice saved, closed when the block ends."""
    state = tmp_path / "state"
    if paired is not None:
        first = build(config, MemoryDisplay(), state_dir=state, speech=NoSpeech(),
                      pin_factory=MockFactory(pin_class=MockPWMPin))
        first.store.save_settings({"smart_dice": paired})
        first.close()
    made = build(config, MemoryDisplay(), state_dir=state, speech=NoSpeech(),
                 pin_factory=MockFactory(pin_class=MockPWMPin))
    try:
        yield made
    finally:
        made.close()


def queued(made: Box) -> list[Any]:
    events = []
    while not made.loop.events.empty():
        events.append(made.loop.events.get_nowait())
    return events


def test_on_by_default_through_bluetooth_and_the_shipped_file_says_so():
    assert (Config().smart_dice.enabled, Config().smart_dice.adapter) == (True, "bluetooth")
    assert load_config(HARDWARE_CONFIG).smart_dice == Config().smart_dice


def test_a_wrong_value_names_the_file_the_line_the_key_and_what_is_allowed(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text('[game]\nlanguage = "pl"\n\n[smart_dice]\nadapter = "radio"\n')
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert raised.value.problems == [
        'line 5: smart_dice.adapter: "radio" is not allowed; allowed: "bluetooth" (the Pi\'s '
        'Bluetooth) or "fake" (virtual dice, for the simulator and tests)']
    loaded = load_layers(path)          # the box: that file skipped, the box starts on the rest
    assert loaded.config == Config() and loaded.skipped[0].path == path
    path.write_text("[smart_dice]\nenabled = 1\n")
    with pytest.raises(ConfigError, match=r"line 2: smart_dice.enabled: 1 is not allowed; "
                                          r"allowed: true or false"):
        load_config(path)


def test_a_usb_stick_may_not_set_them():
    text = '[smart_dice]\nadapter = "fake"\n'
    kept, refused = stick_part({"smart_dice": {"adapter": "fake"}}, text)
    assert kept == {} and refused[0].startswith("line 2: smart_dice.adapter: a USB stick may "
                                                "not set it")


def test_off_there_are_none(tmp_path: Path):
    off = replace(Config(), smart_dice=replace(Config().smart_dice, enabled=False))
    with box_of(tmp_path, off, PAIRED) as made:
        assert type(made.app.smart) is NoSmartDice and made.app.smart.problem == ""


def test_bluetooth_is_made_only_once_a_die_is_paired(tmp_path: Path):
    with box_of(tmp_path, Config()) as made:
        smart = made.app.smart
        assert isinstance(smart, LateDice) and smart.port is None and smart in made.parts
    with box_of(tmp_path, Config(), PAIRED) as made:
        smart = made.app.smart
        assert isinstance(smart, LateDice) and isinstance(smart.port, BleDice)
        assert smart.kept == {RED: GODICE, SKY: PIXELS} and smart.port.running
        port = smart.port
    assert not port.running            # closed with the box


def test_without_bleak_the_box_plays_on_without_smart_dice(tmp_path: Path, monkeypatch):
    real = box_module.importlib.util.find_spec
    monkeypatch.setattr(box_module.importlib.util, "find_spec",
                        lambda name, *rest: None if name == "bleak" else real(name, *rest))
    with box_of(tmp_path, Config(), PAIRED) as made:
        assert isinstance(made.app.smart, NoSmartDice) and made.app.smart.problem == NO_BLEAK
        made.loop.step(Press(Key.CW))


def test_virtual_dice_paired_on_the_box_connect_at_the_start_and_close_with_it(tmp_path):
    with box_of(tmp_path, FAKE, PAIRED) as made:
        smart = made.app.smart
        assert isinstance(smart, FakeDice) and smart.kept == {RED: GODICE, SKY: PIXELS}
        events = queued(made)
        assert DieLink(RED, True) in events and DieLink(SKY, True) in events
        for event in events:
            made.loop.step(event)
        assert made.app.dice_board.online(RED) and made.app.dice_board.get(SKY).battery == 70
    assert smart.closed


def test_the_simulators_keys_throw_a_paired_die_of_the_side(tmp_path: Path):
    with box_of(tmp_path, FAKE, PAIRED) as made:
        drain(made)
        factory = made.pin_factory
        panel = MockPanel(factory, FAKE, TapClock(still=True), die_roller(made))
        panel.act("axis_die", 5)
        drain(made)
        assert made.app.dice_board.get(RED).last == Settled(5)
        panel.act("allies_die")
        drain(made)
        assert isinstance(made.app.dice_board.get(SKY).last, Settled)


def test_no_die_words_unless_the_dice_are_virtual(tmp_path: Path):
    with box_of(tmp_path, Config(), PAIRED) as made:
        assert die_roller(made) is None


def test_scripts_and_typed_keys_take_die_words():
    assert parse_script("axis_die, allies_die=6 # a six\nok") == [
        ("axis_die", 0), ("allies_die", 6), ("ok", 0)]
    for bad in ("axis_die=9", "axis_die 3", "allies_die=six"):
        with pytest.raises(Exception, match="takes a face from 1 to 6"):
            parse_script(bad)
    said: list[str] = []
    steps = list(typed_keys(["axis_die=2 ok\n", "allies_die=0\n", "allies_die\n"], said.append))
    assert steps == [("axis_die", 2), ("ok", 0), ("allies_die", 0)]
    assert said[0].startswith("'allies_die=0' is not a key") and "axis_die" in said[0]
    assert split_keys("sak") == (["axis_die", "axis", "allies_die"], "")     # the keyboard


def test_the_simulator_has_virtual_dice_whatever_its_settings_say(tmp_path: Path, monkeypatch):
    made: list[Box] = []

    def keep_box(*args: Any, **kwargs: Any) -> Box:
        made.append(build(*args, **kwargs))
        return made[-1]
    monkeypatch.setattr(box_module, "build", keep_box)
    assert run_sim(Config(), script=[("axis_die", 3), ("allies_die", 4)],
                   dice=ScriptedDice([1]), state_dir=tmp_path / "sim",
                   display=SnapshotDisplay(None), settings={"smart_dice": PAIRED}) == 0
    board = made[0].app.dice_board
    assert board.get(RED).last == Settled(3) and board.get(SKY).last == Settled(4)


def write_fifo(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def test_the_test_keys_throw_virtual_dice_only(tmp_path: Path, caplog):
    fifo = tmp_path / "keys"
    test = replace(FAKE.test, keys_fifo=fifo)
    with box_of(tmp_path, replace(FAKE, test=test), PAIRED) as made:
        drain(made)
        write_fifo(fifo, b"axis_die=6 cw\n")
        done = made.loop.events.get(timeout=HANG_S)
        assert isinstance(done, Done)
        assert made.loop.events.get(timeout=HANG_S) == Press(Key.CW)
        made.loop.step(done)
        drain(made)
        assert made.app.dice_board.get(RED).last == Settled(6)
    with box_of(tmp_path / "real", replace(Config(), test=test)) as made:
        write_fifo(fifo, b"axis_die ok\n")
        assert until(lambda: "'axis_die' is not a key" in caplog.text)
        assert made.loop.events.empty()
