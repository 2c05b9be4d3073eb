"""The box with a range sensor on a pty: the fire flow measures the range, the "check
distance" screen answers set-up questions, an unplugged sensor says so on the screen, and a
sensor that sends only invalid frames ends in "no measurement: use the tape" in bounded time,
with the real main loop."""
from __future__ import annotations

import threading

import pytest
from cobi_companion.device.config import parse_config
from cobi_companion.device.core.battle_log import english, loaded
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll
from cobi_companion.device.ports.events import SensorReading, Stop, Tick
from cobi_companion.device.ports.fake_sensor import FakeSensor, ff_frame
from cobi_companion.device.ports.range_sensor import Condition, Reading
from cobi_companion.device.ui.measure import GIVE_UP_S, MEASURE_LIMIT_S, Measuring
from waiting import HANG_S, until

TIGER_VS_SHERMAN = ["ok", "cw", "cw", "cw", "axis", "ccw", "ccw", "allies", "ok"]


def answered(table) -> bool:
    return isinstance(table.view, BigWord) and table.view.header.title != "Measuring"


@pytest.fixture
def table_with_sensor(tmp_path, table_at):
    sensors: list[FakeSensor] = []

    def make(mm: int, dice: list[int], frames: bytes | None = None):
        sensors.append(FakeSensor(tmp_path / "usb-sensor",
                                  ff_frame(mm) if frames is None else frames))
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
    assert table.view.lines[1] == "hit: 50–50"   # 3-6 to hit, −1 over 100 cm
    table.press("cw", "cw", "allies")                         # at the Tiger's rear
    to_hit = table.steps[0]
    assert isinstance(to_hit, Roll) and to_hit.faces == (3,)
    assert to_hit.needed == "3 − 1 = 2: needs 3+"                   # 3-6 to hit, -1 over 100 cm
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


# Only invalid frames: no echo (twice), beyond the A02YYUW's 450 cm (7500 mm), a bad checksum.
NOTHING_VALID = ff_frame(0) + ff_frame(0) + ff_frame(7500) + bytes.fromhex("FF 07 A1 A8")


def test_only_invalid_frames_give_up_in_bounded_time_with_the_real_loop(table_with_sensor):
    """The sensor talks every 30 ms and never says anything valid: the main loop (run in a
    thread, on a clock the test moves a second at a time) still ticks by the clock, the
    invalid frames are no progress, and after GIVE_UP_S the screen says "No measurement",
    why, and to use the tape; the knob takes over."""
    table, _ = table_with_sensor(0, [], frames=NOTHING_VALID)
    table.press("cw", "cw", "cw", "ok", "ok", "ok")           # Check distance: over 100 cm?
    measuring = table.box.app.screen
    assert isinstance(measuring, Measuring)
    loop, now, ticks = table.box.loop, [1000.0], []
    loop.clock = lambda: now[0]
    loop.on_tick = ticks.append
    handled, handle = [], loop.handle

    def counted(event) -> None:
        handled.append(event)
        handle(event)
    loop.handle = counted
    thread = threading.Thread(target=loop.run)
    thread.start()
    try:
        assert until(lambda: bool(handled))     # the loop runs: its clock starts at 1000
        while table.box.app.screen is measuring:
            assert now[0] < 1000.0 + 2 * MEASURE_LIMIT_S, "it never gave up"
            now[0] += 1.0
            assert until(lambda: ticks and ticks[-1] >= now[0]), "no tick while it talks"
    finally:
        loop.put(Stop("test"))
        thread.join(HANG_S)
    assert not thread.is_alive()
    first = measuring.started
    assert first is not None and GIVE_UP_S <= ticks[-1] - first <= GIVE_UP_S + 1.0
    assert measuring.sample.good == [] and measuring.sample.bad[Condition.NO_ECHO] > 0
    view = table.view
    assert isinstance(view, Lines) and view.header.title == "No measurement"
    assert view.lines == ("no echo: aim at a flat card", "Use the tape and enter cm")
    table.press("ok")
    assert isinstance(table.view, BigWord) and table.view.word == "100 cm"   # the knob


def test_a_slow_trickle_of_valid_readings_ends_at_the_limit(table_with_sensor):
    """Valid readings that come just often enough to keep the wait going still end the
    measurement MEASURE_LIMIT_S after it began: fewer than wanted, no measurement."""
    table, sensor = table_with_sensor(0, [], frames=NOTHING_VALID)
    sensor.talking = False
    table.press("cw", "cw", "cw", "ok", "ok", "ok")
    measuring = table.box.app.screen
    assert isinstance(measuring, Measuring)
    loop, start = table.box.loop, 1000.0
    valid = SensorReading("table", Reading(103.1, Condition.OK))
    elapsed = 0.0
    while table.box.app.screen is measuring:
        assert elapsed <= MEASURE_LIMIT_S, "it never gave up"
        loop.step(Tick(start + elapsed))
        if elapsed % (GIVE_UP_S - 1) == 0:
            loop.step(valid)
        elapsed += 1.0
    assert MEASURE_LIMIT_S <= elapsed - 1.0 < MEASURE_LIMIT_S + 1.0
    assert 0 < len(measuring.sample.good) < measuring.sample.wanted
    assert table.view.header.title == "No measurement"
