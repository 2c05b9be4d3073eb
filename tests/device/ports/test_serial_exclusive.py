"""Serial ports are opened for one process only: a second opener (the box, or
`cobi-companion range` run by hand) hears at once that the sensor is taken, through real
pseudo-terminals and the real command."""
from __future__ import annotations

import contextlib
import logging
import os
import queue
import time
import tty
from collections.abc import Iterator

import pytest
import serial
from cobi_companion.device.config import Sensor
from cobi_companion.device.ports.events import SensorReading, SensorState
from cobi_companion.device.ports.fake_sensor import FakeSensor, ff_frame
from cobi_companion.device.ports.range_reader import SensorBusy, open_serial, reader_for
from waiting import HANG_S, until


def busy_line(port: str) -> str:
    return (f"cobi-companion: {port}: the box is using this sensor: stop the service first "
            "(sudo systemctl stop cobi-companion)\n")


@pytest.fixture
def pty_slave() -> Iterator[str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    os.close(slave)
    yield name
    os.close(master)


def test_a_port_is_opened_for_one_process_only(pty_slave, tmp_path):
    link = tmp_path / "usb-sensor-if00-port0"        # as /dev/serial/by-id/... is
    link.symlink_to(pty_slave)
    first = open_serial(pty_slave, 9600)
    try:
        assert first.exclusive is True
        for name in (pty_slave, str(link)):
            with pytest.raises(SensorBusy) as caught:
                open_serial(name, 9600)
            assert isinstance(caught.value, OSError)
            assert str(caught.value) == busy_line(name)[len("cobi-companion: "):-1]
    finally:
        first.close()
    open_serial(str(link), 9600).close()             # free again


def test_a_port_held_by_another_program_is_busy(pty_slave):
    with serial.Serial(pty_slave, exclusive=True), pytest.raises(SensorBusy):
        open_serial(pty_slave, 9600)
    with serial.Serial(pty_slave, exclusive=True):   # free again
        pass
    mine = open_serial(pty_slave, 9600)
    try:
        with pytest.raises(serial.SerialException, match="lock"):
            serial.Serial(pty_slave, exclusive=True)
    finally:
        mine.close()


def test_url_ports_still_open(pty_slave):
    loop = open_serial("loop://", 9600)
    try:
        loop.write(b"\xff\x03\xe8\xea")
        assert loop.read(4) == b"\xff\x03\xe8\xea"
    finally:
        loop.close()
    spy = open_serial(f"spy://{pty_slave}?file={os.devnull}", 9600)   # a URL on a real port
    try:
        with pytest.raises(SensorBusy):
            open_serial(pty_slave, 9600)
    finally:
        spy.close()
    with pytest.raises(serial.SerialException) as missing:
        open_serial("/dev/nothing-here", 9600)
    assert not isinstance(missing.value, SensorBusy)


def test_the_range_command_on_a_busy_port_ends_at_once(cli, pty_slave):
    with serial.Serial(pty_slave, exclusive=True):
        start = time.monotonic()
        done = cli("range", "--model", "a02yyuw", "--port", pty_slave, "--timeout", "30")
        took = time.monotonic() - start
    assert done.code == 2 and done.out == ""
    assert done.err == busy_line(pty_slave)                  # one line, no traceback
    assert took < 15                                         # not the 30 s timeout


def test_the_range_command_measures_once_the_port_is_free(cli, tmp_path, sensors):
    link = tmp_path / "usb-sensor-if00-port0"
    sensors.append(FakeSensor(link, ff_frame(1000)))
    holder = serial.Serial(str(link), exclusive=True)
    try:
        done = cli("range", "--model", "a02yyuw", "--port", str(link), "--raw",
                   "--samples", "2")
        assert done.code == 2 and done.err == busy_line(str(link))
    finally:
        holder.close()
    done = cli("range", "--model", "a02yyuw", "--port", str(link), "--json")
    assert done.code == 0, done.err
    assert done.json["cm"] == 100.0


@pytest.mark.long
def test_the_box_reader_stays_offline_says_so_once_and_comes_back(tmp_path, sensors, caplog):
    link = tmp_path / "usb-sensor-if00-port0"
    sensors.append(FakeSensor(link, ff_frame(925)))
    events: queue.Queue[SensorReading | SensorState] = queue.Queue()
    holder = serial.Serial(str(link), exclusive=True)      # `cobi-companion range` has it
    caplog.set_level(logging.INFO, logger="cobi-companion")
    reader = reader_for(Sensor(name="table", port=str(link), model="a02yyuw"), events.put)
    tries, open_port = [], reader.open_port

    def counted(name: str, baud: int):
        tries.append(name)
        return open_port(name, baud)
    reader.open_port = counted                               # type: ignore[method-assign]
    reader.want(3)
    reader.start()
    try:
        assert until(lambda: len(tries) >= 3)                 # three tries, RETRY_S apart
        assert not reader.online and events.empty()
        said = [r for r in caplog.records if str(link) in r.getMessage()]
        assert len(said) == 1 and said[0].levelno == logging.WARNING
        assert "in use by another program" in said[0].getMessage()
        holder.close()
        got: list[SensorReading | SensorState] = []
        end = time.monotonic() + HANG_S
        while time.monotonic() < end and not any(isinstance(e, SensorReading) for e in got):
            with contextlib.suppress(queue.Empty):
                got.append(events.get(timeout=0.2))
        assert reader.online and SensorState("table", True) in got
        assert any(isinstance(e, SensorReading) and e.reading.cm == 92.5 for e in got)
    finally:
        reader.close()
        holder.close()
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 1


def test_open_now_raises_busy_and_leaves_a_missing_port_to_the_thread(tmp_path, pty_slave):
    events: queue.Queue[SensorReading | SensorState] = queue.Queue()
    with serial.Serial(pty_slave, exclusive=True):
        reader = reader_for(Sensor(name="t", port=pty_slave, model="a02yyuw"), events.put)
        with pytest.raises(SensorBusy):
            reader.open_now()
        assert not reader.online
    missing = reader_for(Sensor(name="t", port=str(tmp_path / "none"), model="a02yyuw"),
                         events.put)
    missing.open_now()                                      # no port yet: not an error
    assert not missing.online and events.empty()
    free = reader_for(Sensor(name="t", port=pty_slave, model="a02yyuw"), events.put)
    free.open_now()
    try:
        assert free.online and events.get_nowait() == SensorState("t", True)
    finally:
        free.close()                                        # never started: drops the port


def test_the_lock_is_not_held_by_a_closed_reader(pty_slave):
    events: queue.Queue[SensorReading | SensorState] = queue.Queue()
    reader = reader_for(Sensor(name="t", port=pty_slave, model="a02yyuw"), events.put)
    reader.start()
    try:
        end = time.monotonic() + HANG_S
        while not reader.online and time.monotonic() < end:
            time.sleep(0.05)
        assert reader.online
        with pytest.raises(SensorBusy):
            open_serial(pty_slave, 9600)
    finally:
        reader.close()
    open_serial(pty_slave, 9600).close()

