"""Range sensors through real pseudo-terminals: the reader thread, unplugging and replugging,
a sensor that falls silent, on-request sensors, and the `range` command as a subprocess."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cobi_companion.device.core.battle_log import english, loaded
from cobi_companion.device.ports.events import SensorReading, SensorState
from cobi_companion.device.ports.fake_sensor import FakeSensor, ff_frame
from cobi_companion.device.ports.range_reader import Sample, SensorReader
from cobi_companion.device.ports.range_sensor import MODELS, Condition, parser_for
from waiting import HANG_S


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "usb-sensor-if00-port0"


def reader_for(model_name: str, port: Path, events: queue.Queue, **kw) -> SensorReader:
    model = MODELS[model_name]
    return SensorReader("table", str(port), model, parser_for(model), events.put, **kw).start()


def next_of(events: queue.Queue, kind: type, timeout: float = 120.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            event = events.get(timeout=max(0.01, end - time.monotonic()))
        except queue.Empty:
            break
        if isinstance(event, kind):
            return event
    raise AssertionError(f"no {kind.__name__} within {timeout} s")


def test_readings_are_handed_over_only_when_wanted(link, sensors):
    sensors.append(FakeSensor(link, ff_frame(1042) + b"\x07" + ff_frame(1045)))  # garbage too
    events: queue.Queue = queue.Queue()
    reader = reader_for("a02yyuw", link, events)
    try:
        assert next_of(events, SensorState).online
        time.sleep(0.3)
        assert events.empty()                    # talking all along, but nobody asked
        sample = Sample(7, offset_cm=2.0)
        reader.want(7)
        while not sample.done:
            sample.add(next_of(events, SensorReading).reading)
        result = sample.result()
        assert result.condition is Condition.OK and result.cm in (106.2, 106.5)
        assert set(result.readings) <= {106.2, 106.5} and result.spread_cm <= 0.3
    finally:
        reader.close()


class HeldPort:
    """A port whose open hangs until the test lets it go (a slow USB device): what the reader
    does with a port that opens after `close` stopped waiting for it."""

    def __init__(self) -> None:
        self.asked, self.go = threading.Event(), threading.Event()
        self.closed = False

    def open(self, name: str, baud: int) -> HeldPort:
        self.asked.set()
        self.go.wait()
        return self

    def close(self) -> None:
        self.closed = True


def test_a_port_that_opens_after_close_gave_up_waiting_is_closed_not_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its lock would keep the sensor "in use" for the next reader (a box started again,
    `cobi-companion range`) as long as the process lives."""
    monkeypatch.setattr(SensorReader, "JOIN_S", 0.0)      # close stops waiting at once
    held, events = HeldPort(), queue.Queue()
    model = MODELS["a02yyuw"]
    reader = SensorReader("table", "held", model, parser_for(model), events.put,
                          open_port=held.open).start()
    assert held.asked.wait(HANG_S)
    reader.close()                                        # the open still hangs
    held.go.set()
    reader._thread.join(HANG_S)
    assert not reader._thread.is_alive()
    assert held.closed and reader._port is None
    assert all(not (isinstance(event, SensorState) and event.online)
               for event in list(events.queue))           # never said online after close


def test_a_stray_header_before_every_frame_is_measured_through(link, sensors):
    """Issue 16: `FF FF 03 01 03` again and again (a stray 0xFF before 769 mm) on a real pty,
    in whatever reads the port gives: every frame is read, the impossible window quietly
    dropped; 76.9 cm is measured, not "out of range"."""
    sensors.append(FakeSensor(link, bytes.fromhex("FF FF 03 01 03") * 2))
    events: queue.Queue = queue.Queue()
    reader = reader_for("a02yyuw", link, events)
    try:
        assert next_of(events, SensorState).online
        sample = Sample(7)
        reader.want(7)
        while not sample.done:
            sample.add(next_of(events, SensorReading).reading)
        assert sample.result().cm == 76.9 and not sample.bad
    finally:
        reader.close()


def test_unplugged_then_replugged_the_reader_comes_back(link, sensors):
    sensor = FakeSensor(link, ff_frame(925))
    sensors.append(sensor)
    events: queue.Queue = queue.Queue()
    reader = reader_for("a02yyuw", link, events)
    try:
        assert next_of(events, SensorState).online
        reader.want(1000)
        assert next_of(events, SensorReading).reading.cm == 92.5
        sensor.unplug()
        assert next_of(events, SensorState).online is False
        sensor.replug()
        assert next_of(events, SensorState).online
        reader.want(3)
        assert next_of(events, SensorReading).reading.cm == 92.5
    finally:
        reader.close()


def test_a_silent_on_request_sensor_gives_no_reply(link, sensors):
    sensors.append(FakeSensor(link, answers={b"\x55": b""}))
    events: queue.Queue = queue.Queue()
    reader = reader_for("us-100", link, events)
    try:
        next_of(events, SensorState)
        reader.want(1)
        assert next_of(events, SensorReading).reading.condition is Condition.NO_REPLY
    finally:
        reader.close()


def test_an_on_request_sensor_answers_each_request(link, sensors):
    sensors.append(FakeSensor(link, answers={b"\x55": b"\x03\xe8"}, every_s=0.005))
    events: queue.Queue = queue.Queue()
    reader = reader_for("us-100", link, events)
    try:
        next_of(events, SensorState)
        reader.want(3)
        got = [next_of(events, SensorReading).reading for _ in range(3)]
        assert [r.cm for r in got] == [100.0, 100.0, 100.0]
    finally:
        reader.close()


def test_a_sensor_takes_its_link_away_with_it(link, tmp_path):
    """As udev removes a by-id link with its device: the kernel gives a freed pty's number to
    the next pty made anywhere, so a link left behind leads a later opener (a `range` run, a
    reader still retrying) to another test's sensor, whose lock it then takes."""
    sensor = FakeSensor(link, ff_frame(1000))
    sensor.close()
    assert not link.is_symlink()
    sensor = FakeSensor(link, ff_frame(1000))
    sensor.unplug()
    sensor.replug()
    sensor.close()
    assert not link.is_symlink()
    first = FakeSensor(link, ff_frame(1000))
    second = FakeSensor(link, ff_frame(1000))          # put at the same link: it is second's
    first.close()
    assert link.readlink() == Path(second.slave_name)
    second.close()
    assert not link.is_symlink()


# A reading the sensor gives at once, whatever the machine's load: the command's own wait (at
# least 3 s by default) is what a slow start must not run out; it ends as soon as it has read.
PATIENT = ("--timeout", "60")


def run_range(cli_path: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([cli_path, "range", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_the_range_command_measures_and_prints_json(cli_path, link, sensors):
    sensors.append(FakeSensor(link, ff_frame(1953)))
    done = run_range(cli_path, "--model", "a02yyuw", "--port", str(link), "--json", *PATIENT)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result == {"cm": 195.3, "condition": "ok", "readings": [195.3] * 7, "spread_cm": 0.0}


def test_the_range_command_names_the_condition_when_there_is_no_distance(cli_path, link,
                                                                          sensors):
    sensors.append(FakeSensor(link, ff_frame(0)))      # FF 00 00 FF: no echo, not 0 cm
    done = run_range(cli_path, "--model", "a02yyuw", "--port", str(link), "--json",
                     "--timeout", "1.5")
    assert done.returncode == 1
    assert json.loads(done.stdout) == {"cm": None, "condition": "no_echo", "readings": [],
                                       "spread_cm": None}


def test_the_range_command_without_a_port_says_disconnected_or_no_reply(cli_path, tmp_path):
    done = run_range(cli_path, "--model", "tf-luna", "--port", str(tmp_path / "nothing"),
                     "--json", "--timeout", "1.5")
    assert done.returncode == 1
    assert json.loads(done.stdout)["condition"] in ("disconnected", "no_reply")


def test_raw_prints_each_frame(cli_path, link, sensors):
    sensors.append(FakeSensor(link, ff_frame(925) + bytes.fromhex("FF 07 A1 A8")))
    done = run_range(cli_path, "--model", "a02yyuw", "--port", str(link), "--raw",
                     "--samples", "4", *PATIENT)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 4
    assert any("ff 03 9d 9f" in line and "92.5 cm" in line for line in lines)
    assert any("checksum_error" in line for line in lines)


def test_range_refuses_an_unknown_model_in_one_line(cli_path):
    done = run_range(cli_path, "--model", "hc-sr04", "--port", "/dev/null")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "hc-sr04" in done.stderr and "a02yyuw" in done.stderr


@pytest.mark.long
def test_the_daemon_measures_through_a_pty(cli_path, link, sensors, tmp_path):
    sensors.append(FakeSensor(link, ff_frame(1031)))
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nrules = "tank"\n[[sensors]]\nname = "table"\nport = "{link}"\n'
                      'model = "a02yyuw"\noffset_cm = 1.0\n')
    keys = ("wait 1500,ok,cw,cw,cw,axis,ccw,ccw,allies,ok,axis,allies,ok,"
            "ok,ok,ok,ok,ok,wait 1500")      # ... not hull down; Over 100 cm? Measure: table
    done = subprocess.run([cli_path, "sim", "--config", str(config), "--keys", keys,
                           "--dice", "4,2", "--state-dir", str(tmp_path / "state"),
                           "--state-json", str(tmp_path / "state.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["screen"] == "ShowThen"
    assert any("104.1 cm ±0 · > 100 cm: yes" in english(loaded(line))
               for line in state["battle"]["log"])


def test_the_range_command_against_a_fake_sensor_process(cli_path, link):
    sensor = subprocess.Popen([sys.executable, "-m", "cobi_companion.device.ports.fake_sensor",
                               str(link), "1953"], stdout=subprocess.PIPE, text=True)
    try:
        assert sensor.stdout is not None and "talking on" in sensor.stdout.readline()
        done = run_range(cli_path, "--model", "a02yyuw", "--port", str(link), "--json",
                         *PATIENT)
        assert json.loads(done.stdout)["cm"] == 195.3
        sensor.terminate()                         # the sensor, its pty and its link go away
        sensor.wait(60)
        assert not link.is_symlink()    # a link left to the freed pty's number would lead to
        #                                 the next pty made anywhere: another test's sensor
        done = run_range(cli_path, "--model", "a02yyuw", "--port", str(link), "--json",
                         "--timeout", "1.5")
        assert done.returncode == 1
        assert json.loads(done.stdout)["condition"] in ("disconnected", "no_reply")
    finally:
        sensor.kill()


def test_a_sensor_that_stops_talking_gives_no_reply(cli_path, link, sensors):
    sensor = FakeSensor(link, ff_frame(925))
    sensors.append(sensor)
    sensor.talking = False
    done = run_range(cli_path, "--model", "a02yyuw", "--port", str(link), "--json",
                     "--timeout", "1.5")
    assert done.returncode == 1 and json.loads(done.stdout)["condition"] == "no_reply"


def test_the_range_command_takes_a_sensor_of_the_config(cli_path, link, sensors, tmp_path):
    sensors.append(FakeSensor(link, ff_frame(1000)))
    config = tmp_path / "config.toml"
    config.write_text(f'[[sensors]]\nname = "axis-end"\nport = "{link}"\nmodel = "a02yyuw"\n'
                      'offset_cm = -2.5\nsamples = 3\n')
    done = run_range(cli_path, "--config", str(config), "--sensor", "axis-end", *PATIENT)
    assert done.returncode == 0
    assert done.stdout.strip() == "97.5 cm (median of 3 readings, spread 0 cm)"
    done = run_range(cli_path, "--config", str(config), "--sensor", "allies-end")
    assert done.returncode == 2
    assert done.stderr.strip().endswith("no sensor called 'allies-end' in the config; "
                                        "configured: axis-end")
