"""The box with a range sensor on a pty: the fire flow measures the range, the "check
distance" screen answers set-up questions, and an unplugged sensor says so on the screen."""
from __future__ import annotations

import pytest
from cobi_companion.device.config import parse_config
from cobi_companion.device.core.battle_log import english, loaded
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll
from cobi_companion.device.ports.fake_sensor import FakeSensor, ff_frame

TIGER_VS_SHERMAN = ["ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok"]


def answered(table) -> bool:
    return isinstance(table.view, BigWord) and table.view.header.title != "Measuring"


@pytest.fixture
def table_with_sensor(tmp_path, table_at):
    sensors: list[FakeSensor] = []

    def make(mm: int, dice: list[int]):
        sensors.append(FakeSensor(tmp_path / "usb-sensor", ff_frame(mm)))
        config = parse_config({"game": {"rules": "tank"},
                               "sensors": [{"name": "table", "port": str(tmp_path / "usb-sensor"),
                                            "model": "a02yyuw", "offset_cm": 1.0}]})
        table = table_at(dice, config=config)
        table.serve(lambda: table.box.app.sensors.online_names() == ["table"])
        return table, sensors[-1]
    yield make
    for sensor in sensors:
        sensor.close()


def test_the_fire_flow_measures_the_range_and_the_rules_use_it(table_with_sensor):
    table, _ = table_with_sensor(1031, [4, 2, 3, 5, 3, 6, 4, 4, 6, 3, 1, 2, 4, 4, 2])
    table.press(*TIGER_VS_SHERMAN, "axis", "allies", "ok")
    table.press("ok", "ok", "ok", "ok")      # Sherman 1 alone; Fire; Tiger 1; not hull down
    assert isinstance(table.view, Menu) and table.view.items[0] == "Measure: table"
    table.press("ok")                                         # the sensor is offered first
    table.serve(lambda: answered(table))
    assert table.view.word == "YES"                           # 103.1 cm + the 1 cm offset
    assert table.view.detail == "104.1 cm ±0 · > 100 cm"
    table.press("ok")
    assert table.view.lines[1].startswith("hit 3 in 6 · kill")   # 3-6 to hit, −1 over 100 cm
    table.press("cw", "cw", "allies")                         # at the Tiger's rear
    to_hit = table.steps[0]
    assert isinstance(to_hit, Roll) and to_hit.faces == (3,)
    assert to_hit.needed == "needs 3+ (-1)"                   # 3-6 to hit, -1 over 100 cm
    assert to_hit.total == "MISS"
    battle = table.box.store.load_battle()
    assert any("104.1 cm" in english(loaded(line)) for line in battle["log"])


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
