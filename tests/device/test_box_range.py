"""The box with a range sensor on a pty: the fire flow measures the range, the "check
distance" screen answers set-up questions, and an unplugged sensor says so on the screen."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from cobi_companion.device.box import build
from cobi_companion.device.config import parse_config
from cobi_companion.device.display import MemoryDisplay
from cobi_companion.device.fake_sensor import FakeSensor, ff_frame
from cobi_companion.device.sim import MockPanel, drain
from cobi_companion.device.views import BigWord, Lines, Menu, Roll
from cobi_companion.rules.dice import ScriptedDice
from gpiozero.pins.mock import MockFactory, MockPWMPin

TIGER_VS_SHERMAN = ["ok", "ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok"]


class Table:
    def __init__(self, state_dir: Path, link: Path, dice: list[int]) -> None:
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.config = parse_config({"sensors": [{"name": "table", "port": str(link),
                                                 "model": "a02yyuw", "offset_cm": 1.0}]})
        self.display = MemoryDisplay()
        self.box = build(self.config, self.display, pin_factory=self.factory,
                         dice=ScriptedDice(dice), state_dir=state_dir)
        self.panel = MockPanel(self.factory, self.config)
        self.box.loop.draw()

    def press(self, *words: str) -> None:
        for word in words:
            self.panel.act(word)
            drain(self.box)

    def serve(self, until, timeout: float = 8.0) -> None:
        """Let the sensor's events reach the app, as the main loop does, until `until()`."""
        end = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < end, f"still on {self.view}"
            event = self.box.loop.wait(0.05)
            if event is not None:
                self.box.loop.step(event)

    @property
    def view(self):
        return self.box.app.view()

    def close(self) -> None:
        self.box.close()
        self.factory.reset()


def answered(table: Table) -> bool:
    return isinstance(table.view, BigWord) and table.view.header.title != "Measuring"


@pytest.fixture
def table_with_sensor(tmp_path):
    made: list = []

    def make(mm: int, dice: list[int]) -> tuple[Table, FakeSensor]:
        sensor = FakeSensor(tmp_path / "usb-sensor", ff_frame(mm))
        table = Table(tmp_path / "state", tmp_path / "usb-sensor", dice)
        made.append((table, sensor))
        table.serve(lambda: table.box.app.sensors.online_names() == ["table"])
        return table, sensor
    yield make
    for table, sensor in made:
        table.close()
        sensor.close()


def test_the_fire_flow_measures_the_range_and_the_rules_use_it(table_with_sensor):
    table, _ = table_with_sensor(1031, [4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok", "ok")
    table.press("ok", "ok", "ok", "cw", "cw", "ok", "ok")    # Sherman fires at the Tiger's rear
    assert isinstance(table.view, Menu) and table.view.items[0] == "Measure: table"
    table.press("ok")                                         # the sensor is offered first
    table.serve(lambda: answered(table))
    assert table.view.word == "YES"                           # 103.1 cm + the 1 cm offset
    assert table.view.detail == "104.1 cm ±0 · > 100 cm"
    table.press("ok")
    assert "kill" in " ".join(table.view.lines)
    table.press("allies")
    assert isinstance(table.view, Roll) and table.view.faces == (3,)
    assert table.view.needed == "needs 3+ (-1)"               # 3-6 to hit, -1 over 100 cm
    assert table.view.total == "MISS"
    battle = table.box.store.load_battle()
    assert any("104.1 cm" in line for line in battle["log"])


def test_too_close_to_call_asks_the_players(table_with_sensor):
    table, _ = table_with_sensor(1000, [])
    table.press("cw", "cw", "cw", "ok")                       # Check distance
    assert table.view.header.title == "Check distance"
    table.press("ok", "ok")                                   # Over 100 cm? Measure: table
    table.serve(lambda: answered(table))
    assert table.view.word == "TOO CLOSE TO CALL"             # 101 cm, spread 0 + 1.5 margin
    table.press("ok")
    assert isinstance(table.view, Menu) and table.view.items == ("no", "yes")


def test_set_up_check_answers_no(table_with_sensor):
    table, _ = table_with_sensor(200, [])
    table.press("cw", "cw", "cw", "ok", "cw", "cw", "cw", "cw", "ok", "ok")
    table.serve(lambda: answered(table))      # defender ≥ 30 cm from attackers?
    assert table.view.word == "NO" and table.view.detail.startswith("21 cm")
    table.press("ok")
    assert table.view.header.title == "Check distance"


def test_an_unplugged_sensor_says_so_and_the_knob_takes_over(table_with_sensor):
    table, sensor = table_with_sensor(925, [])
    sensor.talking = False
    table.press("cw", "cw", "cw", "ok", "ok", "ok")           # measuring the fire range
    assert table.view.header.title == "Measuring"
    sensor.unplug()
    table.serve(lambda: isinstance(table.view, Lines))
    assert table.view.header.title == "Sensor lost"
    table.press("ok")
    assert isinstance(table.view, BigWord) and table.view.word == "100 cm"   # the knob
    table.press("cw", "cw", "ok")
    assert table.view.word == "YES" and table.view.detail == "102 cm · > 100 cm"
