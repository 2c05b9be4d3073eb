"""A serial range sensor read on its own thread.

The thread owns the port: it opens it (again and again while it is missing: an unplugged USB
adapter comes back by itself), reads or asks for frames, feeds the model's parser and hands
complete readings to `put`, and only while someone wants them (`want`), so an auto-output
sensor talking ten times a second does not wake the main loop. Going online or offline is
handed over too. Nothing a sensor sends can raise out of the thread.
"""
from __future__ import annotations

import contextlib
import errno
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cobi_companion.device.ports.events import SensorReading, SensorState
from cobi_companion.device.ports.range_sensor import (
    MODELS,
    Condition,
    Model,
    Parser,
    Reading,
    parser_for,
)
from cobi_companion.rules.distance import Measurement, measure
from cobi_companion.rules.errors import RulesError

log = logging.getLogger("cobi-companion")

RETRY_S = 1.0          # how often a missing port is tried again
REPLY_S = 0.12         # how long an on-request sensor may take to answer (US-100: ~91 ms)
REQUEST_GAP_S = 0.07   # on-request sensors want requests at least 70 ms apart


OpenPort = Callable[[str, int], Any]     # (port, baud) -> an open pyserial-like port


class SensorBusy(OSError):
    """Another process holds the port (its lock): the box, while `cobi-companion range`
    is run by hand, or the other way round."""

    def __init__(self, port: str) -> None:
        super().__init__(f"{port}: the box is using this sensor: stop the service first "
                         "(sudo systemctl stop cobi-companion)")
        self.port = port


def open_serial(port: str, baud: int) -> Any:
    """Open a port, or a pyserial URL (loop://, spy://, socket://, ...), for this process
    alone: pyserial's `exclusive` takes a POSIX flock on a real port, so two readers never
    share (and split) one sensor's bytes. Raises SensorBusy when another process has it."""
    import serial

    try:
        return serial.serial_for_url(port, baudrate=baud, timeout=0.05, exclusive=True)
    except serial.SerialException as exc:
        if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK):  # flock(LOCK_EX | LOCK_NB)
            raise SensorBusy(port) from exc
        raise


class SensorReader:
    def __init__(self, name: str, port: str, model: Model, parser: Parser,
                 put: Callable[[SensorReading | SensorState], None], *, baud: int | None = None,
                 request: bytes | None = None, open_port: OpenPort = open_serial) -> None:
        self.name, self.port_name, self.model, self.parser = name, port, model, parser
        self.baud = baud or model.baud
        self.request = request if request is not None else model.request
        self.put, self.open_port = put, open_port
        self.online = False
        self._port: Any = None
        self._wanted = 0
        self._flush = False
        self._busy_said = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"sensor-{name}", daemon=True)

    def start(self) -> SensorReader:
        self._thread.start()
        return self

    def open_now(self) -> None:
        """Open the port in the caller's thread, before `start`: SensorBusy is raised here
        at once; any other failure (no such port yet) is left to the thread's retries."""
        try:
            port = self.open_port(self.port_name, self.baud)
        except SensorBusy:
            raise
        except Exception:
            return
        self._opened(port)

    def want(self, count: int) -> None:
        """Hand over the next `count` readings (fresh ones: what waited in the port is
        dropped); 0 stops."""
        with self._lock:
            self._wanted = count
            self._flush = True

    # How long `close` waits for the thread (which reads with a short timeout) to end.
    JOIN_S = 2.0

    def close(self) -> None:
        self._stop.set()
        if self._thread.ident is not None:  # started (open_now may have run without it)
            self._thread.join(self.JOIN_S)
        self._drop_port()

    # --- the thread ---

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    if self._port is None:
                        self._connect()
                    elif self._wanted_now():
                        self._read()
                    else:
                        self._idle()
                except Exception as exc:  # a port that fails in any way: offline, try again
                    self._lost(exc)
        finally:
            # A port the thread opened while `close` no longer waited for it (an open that
            # hung past JOIN_S) is closed as the thread ends: it never keeps the sensor's
            # lock from the next reader (a box started again, `cobi-companion range`).
            self._drop_port()

    def _connect(self) -> None:
        try:
            port = self.open_port(self.port_name, self.baud)
        except Exception as exc:  # no such device, permission, a bad URL, another's lock
            if isinstance(exc, SensorBusy) and not self._busy_said:
                self._busy_said = True  # once, not every second: it stays offline, trying
                log.warning("range sensor %s: %s is in use by another program (is "
                            "`cobi-companion range` running?); trying again until it is "
                            "free", self.name, self.port_name)
            if self.online:
                self._lost(exc)
            self._stop.wait(RETRY_S)
            return
        if self._stop.is_set():          # closed while it opened: not online, not kept
            with contextlib.suppress(Exception):
                port.close()
            return
        self._opened(port)

    def _opened(self, port: Any) -> None:
        self._port = port
        self._busy_said = False
        self.parser.reset()
        self.online = True
        log.info("range sensor %s online (%s)", self.name, self.port_name)
        self.put(SensorState(self.name, True))

    def _wanted_now(self) -> bool:
        with self._lock:
            flush, self._flush = self._flush, False
            wanted = self._wanted
        if wanted and flush:
            self._port.reset_input_buffer()       # stale frames of an auto-output sensor
            self.parser.reset()
        return wanted > 0

    def _idle(self) -> None:
        # Reading keeps an auto-output sensor's buffer short and notices an unplugged port.
        data = self._port.read(max(1, self._port.in_waiting))
        if not data and self.request is not None:
            self._stop.wait(0.2)

    def _read(self) -> None:
        if self.request is None:
            readings = self.parser.feed(self._port.read(max(1, self._port.in_waiting)))
        else:
            readings = self._ask()
        for reading in readings:
            with self._lock:
                if self._wanted <= 0:
                    return
                if reading.condition is Condition.OK:
                    self._wanted -= 1
            self.put(SensorReading(self.name, reading))

    def _ask(self) -> list[Reading]:
        self._port.reset_input_buffer()
        self.parser.reset()
        self._port.write(self.request)
        deadline = time.monotonic() + REPLY_S
        while time.monotonic() < deadline:
            readings = self.parser.feed(self._port.read(max(1, self._port.in_waiting)))
            if readings:
                self._stop.wait(REQUEST_GAP_S)
                return readings
        return [Reading(None, Condition.NO_REPLY)]

    def _lost(self, exc: BaseException) -> None:
        self._drop_port()
        if self.online:
            self.online = False
            log.warning("range sensor %s lost (%s): %s", self.name, self.port_name, exc)
            self.put(SensorState(self.name, False))
            self.put(SensorReading(self.name, Reading(None, Condition.DISCONNECTED)))
        self._stop.wait(RETRY_S)

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(Exception):  # a vanished device: it is gone either way
                port.close()


def reader_for(sensor: Any, put: Callable[[SensorReading | SensorState], None]) -> SensorReader:
    """The reader of one [[sensors]] table of the config (not started)."""
    model = MODELS[sensor.model]
    request = None if sensor.request is None else bytes([sensor.request])
    return SensorReader(sensor.name, sensor.port, model,
                        parser_for(model, header_in_checksum=sensor.header_in_checksum), put,
                        baud=sensor.baud, request=request)


@dataclass(frozen=True)
class RangeResult:
    """One measurement: the median of the valid readings and their spread, or why not."""

    cm: float | None
    condition: Condition
    readings: tuple[float, ...] = ()
    spread_cm: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"cm": self.cm, "condition": self.condition.value,
                "readings": list(self.readings), "spread_cm": self.spread_cm}


@dataclass
class Sample:
    """Collects readings until `wanted` valid ones are in, and sums them up."""

    wanted: int
    offset_cm: float = 0.0
    good: list[float] = field(default_factory=list)
    bad: Counter[Condition] = field(default_factory=Counter)

    def add(self, reading: Reading) -> None:
        if reading.condition is Condition.OK and reading.cm is not None:
            self.good.append(reading.cm)
        else:
            self.bad[reading.condition] += 1

    @property
    def done(self) -> bool:
        return len(self.good) >= self.wanted or Condition.DISCONNECTED in self.bad

    def measurement(self) -> Measurement | None:
        """The median and spread of the first `wanted` valid readings, if there are enough."""
        if len(self.good) < self.wanted or Condition.DISCONNECTED in self.bad:
            return None
        try:
            return measure(self.good[:self.wanted], self.offset_cm)
        except RulesError:  # an offset that takes a reading below 0 cm
            return None

    def result(self) -> RangeResult:
        """The measurement; with too few valid readings, the commonest reason (no reply when
        the sensor said nothing at all)."""
        if Condition.DISCONNECTED in self.bad:
            return RangeResult(None, Condition.DISCONNECTED)
        if len(self.good) < self.wanted:
            common = self.bad.most_common(1)
            return RangeResult(None, common[0][0] if common else Condition.NO_REPLY)
        taken = self.measurement()
        if taken is None:
            return RangeResult(None, Condition.INVALID)
        return RangeResult(round(taken.cm, 1), Condition.OK, taken.readings,
                           round(taken.spread_cm, 1))
