"""The Bluetooth adapter (ports/ble_dice.py) run for real on its own thread and asyncio loop,
with a stand-in for bleak's scanner and client (its `radio` seam): scans, connecting, the
die's notifications read by its protocol's decoder, a die lost and found again, failures that
never escape, and close. Real bleak over real BlueZ is the booted-system test's
(tests/system/)."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from bleak.exc import (
    BleakBluetoothNotAvailableError,
    BleakBluetoothNotAvailableReason,
    BleakDBusError,
)
from cobi_companion.device.ports import ble_dice
from cobi_companion.device.ports.ble_dice import (
    LET_GO,
    LOST,
    NO_ADAPTER,
    NO_BLEAK,
    NO_BLUEZ,
    NO_PERMISSION,
    NOT_SEEN,
    SWITCHED_OFF,
    BleDice,
    problem_of,
)
from cobi_companion.device.ports.die_readings import Battery, Reading, Rolling, Settled
from cobi_companion.device.ports.events import DieFound, DieLink, DieSaid, ScanDone
from waiting import HANG_S, until


class PlainDie:
    """A maker's protocol of the shape of die_protocols.DieProtocol, with bytes of its own:
    b"R" tumbling, b"S" + face settled, b"B" + percent battery; b"!" makes its decoder raise
    (a bug the adapter must survive); anything else is garbage."""

    KIND = "plaindie"
    SERVICE = "0000aaaa-0000-1000-8000-00805f9b34fb"
    NOTIFY = "0000aaab-0000-1000-8000-00805f9b34fb"
    WRITE = "0000aaac-0000-1000-8000-00805f9b34fb"

    def __init__(self, kind: str = KIND, leds: bool = True) -> None:
        self.KIND, self.leds = kind, leds

    def advertises(self, name: str | None, service_uuids: Sequence[str]) -> bool:
        return (name or "").startswith(self.KIND) or (
            self.KIND == PlainDie.KIND and self.SERVICE in service_uuids)

    def decoder(self) -> Any:
        class Decoder:
            def feed(self, data: bytes) -> list[Reading]:
                if data == b"!":
                    raise ValueError("a decoder's bug")
                if data == b"R":
                    return [Rolling()]
                if len(data) == 2 and data[:1] == b"S":
                    return [Settled(data[1])]
                if len(data) == 2 and data[:1] == b"B":
                    return [Battery(data[1])]
                return []
        return Decoder()

    def hello(self) -> list[bytes]:
        return [b"hello"]

    def ask_battery(self) -> bytes:
        return b"battery?"

    def light(self, colour: tuple[int, int, int] | None) -> bytes | None:
        if not self.leds:
            return None
        return b"off" if colour is None else b"L" + bytes(colour)

    def flash(self) -> bytes:
        return b"flash"


PROTOCOLS = {PlainDie.KIND: PlainDie(), "darkdie": PlainDie("darkdie", leds=False)}
ONE, TWO, DARK = "AA:00:00:00:00:01", "AA:00:00:00:00:02", "AA:00:00:00:00:03"


class FakeClient:
    def __init__(self, radio: FakeRadio, device: Any, lost: Callable[[Any], None]) -> None:
        self.radio, self.address, self.lost = radio, device.address, lost
        self.connected = False
        self.written: list[bytes] = []
        self.callback: Callable[[Any, bytearray], None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    async def connect(self) -> None:
        self.loop = asyncio.get_running_loop()
        failure = self.radio.connect_fails.pop(self.address, None)
        if failure is not None:
            raise failure
        self.connected = True

    async def disconnect(self) -> None:
        self.connected = False
        self.radio.disconnected.append(self.address)

    async def start_notify(self, uuid: str, callback: Callable[[Any, bytearray], None]) -> None:
        assert uuid == PlainDie.NOTIFY
        self.callback = callback

    async def write_gatt_char(self, uuid: str, data: bytes, response: bool | None) -> None:
        assert uuid == PlainDie.WRITE and self.connected and response is None
        self.written.append(bytes(data))

    # what the die does, from the test's thread
    def notify(self, data: bytes) -> None:
        assert self.loop is not None and self.callback is not None
        self.loop.call_soon_threadsafe(self.callback, "characteristic", bytearray(data))

    def drop(self) -> None:
        """The link is lost (BlueZ says so), as when the die sleeps."""
        assert self.loop is not None
        self.connected = False
        self.loop.call_soon_threadsafe(self.lost, self)


class FakeScanner:
    def __init__(self, radio: FakeRadio, seen: Callable[[Any, Any], None]) -> None:
        self.radio, self.seen = radio, seen

    async def start(self) -> None:
        if self.radio.scan_fails is not None:
            raise self.radio.scan_fails
        for address, name, uuids in self.radio.adverts:
            self.seen(SimpleNamespace(address=address, name=None),
                      SimpleNamespace(local_name=name, service_uuids=uuids))

    async def stop(self) -> None:
        self.radio.scans_stopped += 1


class FakeRadio:
    """bleak's part, with dice that advertise (`present`), clients kept by address."""

    def __init__(self) -> None:
        self.present: set[str] = set()
        self.adverts: list[tuple[str, str | None, list[str]]] = []
        self.clients: dict[str, list[FakeClient]] = {}
        self.connect_fails: dict[str, BaseException] = {}
        self.scan_fails: BaseException | None = None
        self.scans_stopped = 0
        self.disconnected: list[str] = []
        self.thread: threading.Thread | None = None

    def scanner(self, seen: Callable[[Any, Any], None]) -> FakeScanner:
        return FakeScanner(self, seen)

    async def find(self, address: str, timeout: float) -> Any:
        self.thread = threading.current_thread()
        await asyncio.sleep(0)
        return SimpleNamespace(address=address) if address in self.present else None

    def client(self, device: Any, lost: Callable[[Any], None]) -> FakeClient:
        made = FakeClient(self, device, lost)
        self.clients.setdefault(device.address, []).append(made)
        return made

    def last(self, address: str) -> FakeClient:
        return self.clients[address][-1]


class Heard:
    """The events put, from any thread."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.lock = threading.Lock()

    def put(self, event: Any) -> None:
        with self.lock:
            self.events.append(event)

    def of(self, kind: type) -> list[Any]:
        with self.lock:
            return [event for event in self.events if isinstance(event, kind)]

    def links(self, die: str) -> list[DieLink]:
        return [event for event in self.of(DieLink) if event.die == die]

    def said(self, die: str) -> list[Reading]:
        return [event.reading for event in self.of(DieSaid) if event.die == die]


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    # The pauses between tries, short: the tests wait on what happens, never on a clock.
    monkeypatch.setattr(ble_dice, "FIRST_RETRY_S", 0.01)
    monkeypatch.setattr(ble_dice, "AWAY_RETRY_S", 0.01)
    monkeypatch.setattr(ble_dice, "LAST_RETRY_S", 0.05)


@pytest.fixture
def radio() -> FakeRadio:
    return FakeRadio()


@pytest.fixture
def heard() -> Heard:
    return Heard()


@pytest.fixture
def dice(radio: FakeRadio, heard: Heard):
    made = BleDice(heard.put, lambda: radio, protocols=lambda: PROTOCOLS)
    yield made
    made.close()


def connected(radio: FakeRadio, heard: Heard, die: str, times: int = 1) -> FakeClient:
    assert until(lambda: sum(link.online for link in heard.links(die)) >= times)
    return radio.last(die)


def test_a_scan_finds_each_die_once_then_says_it_is_done(dice, radio, heard):
    radio.adverts = [(ONE, "plaindie-1", []), (ONE, "plaindie-1", []),      # said twice
                     ("BB:00:00:00:00:09", "Headphones", ["0000110b-0000"]),  # not a die
                     (TWO, None, [PlainDie.SERVICE]),      # its name comes later: ...
                     (DARK, "darkdie-3", [])]
    dice.scan(0.01)
    assert until(lambda: heard.of(ScanDone))
    assert heard.of(DieFound) == [DieFound(ONE, "plaindie", "plaindie-1"),
                                  DieFound(DARK, "darkdie", "darkdie-3"),
                                  DieFound(TWO, "plaindie", "")]    # ... or never: said at the end
    assert heard.of(ScanDone) == [ScanDone()]
    assert radio.scans_stopped == 1
    assert dice.running


@pytest.mark.parametrize(("failure", "problem"), [
    (FileNotFoundError(2, "No such file or directory"), NO_BLUEZ),         # no system bus
    (BleakDBusError("org.freedesktop.DBus.Error.ServiceUnknown", []), NO_BLUEZ),
    (BleakDBusError("org.freedesktop.DBus.Error.AccessDenied", []), NO_PERMISSION),
    (BleakBluetoothNotAvailableError("No Bluetooth adapters found.",
                                     BleakBluetoothNotAvailableReason.NO_BLUETOOTH), NO_ADAPTER),
    (BleakBluetoothNotAvailableError("off", BleakBluetoothNotAvailableReason.POWERED_OFF),
     SWITCHED_OFF),
    (RuntimeError("a strange thing"), "a strange thing"),
])
def test_a_scan_that_cannot_scan_says_why_and_the_next_one_scans(dice, radio, heard, failure,
                                                                   problem):
    radio.scan_fails = failure
    dice.scan(0.01)
    assert until(lambda: heard.of(ScanDone))
    assert heard.of(ScanDone) == [ScanDone(problem)]
    radio.scan_fails, radio.adverts = None, [(ONE, "plaindie-1", [])]
    dice.scan(0.01)
    assert until(lambda: len(heard.of(ScanDone)) == 2)
    assert heard.of(ScanDone)[1] == ScanDone() and heard.of(DieFound)


def test_without_bleak_a_scan_says_so(heard):
    def no_bleak() -> Any:
        raise ModuleNotFoundError("No module named 'bleak'")
    made = BleDice(heard.put, no_bleak, protocols=lambda: PROTOCOLS)
    try:
        made.scan(0.01)
        assert until(lambda: heard.of(ScanDone))
        assert heard.of(ScanDone) == [ScanDone(NO_BLEAK)]
        made.keep({ONE: "plaindie"})
        made.start()
        assert until(lambda: heard.links(ONE))
        assert heard.links(ONE) == [DieLink(ONE, False, NO_BLEAK)]
    finally:
        made.close()


def test_a_kept_die_connects_and_its_notifications_become_readings(dice, radio, heard):
    radio.present.add(ONE)
    dice.keep({ONE: "plaindie"})
    dice.start()
    client = connected(radio, heard, ONE)
    assert until(lambda: client.written == [b"hello"])       # after it subscribed
    assert radio.thread is not threading.current_thread()
    for data in (b"R", b"\xff\x00garbage", b"!", b"S\x05", b"B\x4b"):
        client.notify(data)
    assert until(lambda: len(heard.said(ONE)) == 3)
    assert heard.said(ONE) == [Rolling(), Settled(5), Battery(75)]
    assert heard.links(ONE) == [DieLink(ONE, True)]     # a decoder's failure lost nothing


def test_nothing_runs_before_a_die_is_paired_or_a_scan_asked_for(dice):
    dice.keep({})
    dice.start()
    dice.light(ONE, (255, 0, 0))
    dice.flash(ONE)
    assert not dice.running


def test_a_die_lost_is_said_offline_then_connected_again(dice, radio, heard):
    radio.present.add(ONE)
    dice.keep({ONE: "plaindie"})
    dice.start()
    first = connected(radio, heard, ONE)
    radio.present.discard(ONE)          # it falls asleep: no longer advertising
    first.drop()
    assert until(lambda: len(heard.links(ONE)) >= 2)
    assert heard.links(ONE)[1] == DieLink(ONE, False, LOST)
    assert until(lambda: ONE in radio.disconnected)
    radio.present.add(ONE)              # it wakes
    second = connected(radio, heard, ONE, times=2)
    assert second is not first
    assert heard.links(ONE) == [DieLink(ONE, True), DieLink(ONE, False, LOST), DieLink(ONE, True)]
    second.notify(b"S\x02")
    assert until(lambda: Settled(2) in heard.said(ONE))


def test_a_die_not_in_reach_is_said_offline_once_and_connects_when_it_comes(dice, radio, heard):
    dice.keep({ONE: "plaindie"})
    dice.start()
    assert until(lambda: heard.links(ONE))
    assert ONE not in radio.clients         # never connected: it was not seen
    radio.present.add(ONE)
    connected(radio, heard, ONE)
    assert heard.links(ONE) == [DieLink(ONE, False, NOT_SEEN), DieLink(ONE, True)]


def test_a_failing_connection_never_escapes_and_the_die_is_tried_again(dice, radio, heard):
    radio.present.add(ONE)
    radio.connect_fails[ONE] = RuntimeError("le-connection-abort-by-local")
    dice.keep({ONE: "plaindie"})
    dice.start()
    connected(radio, heard, ONE)
    assert heard.links(ONE) == [DieLink(ONE, False, "le-connection-abort-by-local"),
                                DieLink(ONE, True)]
    assert len(radio.clients[ONE]) == 2 and dice.running


def test_a_connected_die_is_asked_its_battery_now_and_then(dice, radio, heard, monkeypatch):
    monkeypatch.setattr(ble_dice, "BATTERY_S", 0.01)
    radio.present.add(ONE)
    dice.keep({ONE: "plaindie"})
    dice.start()
    client = connected(radio, heard, ONE)
    assert until(lambda: client.written.count(b"battery?") >= 2)
    assert client.written[0] == b"hello"


def test_lights_and_flashes_reach_connected_dice_with_leds_only(dice, radio, heard):
    radio.present.update({ONE, DARK})
    dice.keep({ONE: "plaindie", DARK: "darkdie", TWO: "plaindie"})   # TWO never comes
    dice.start()
    one, dark = connected(radio, heard, ONE), connected(radio, heard, DARK)
    for die in (ONE, DARK, TWO):
        dice.light(die, (0, 0, 255))
        dice.flash(die)
    dice.light(ONE, None)
    assert until(lambda: one.written == [b"hello", b"L\x00\x00\xff", b"flash", b"off"])
    assert until(lambda: dark.written == [b"hello", b"flash"])
    assert TWO not in radio.clients


def test_a_die_no_longer_kept_is_let_go(dice, radio, heard):
    radio.present.update({ONE, TWO})
    dice.keep({ONE: "plaindie", TWO: "plaindie"})
    dice.start()
    connected(radio, heard, ONE)
    connected(radio, heard, TWO)
    dice.keep({TWO: "plaindie"})
    assert until(lambda: DieLink(ONE, False, LET_GO) in heard.links(ONE))
    assert until(lambda: ONE in radio.disconnected)
    assert TWO not in radio.disconnected and len(radio.clients[ONE]) == 1


def test_an_unknown_kind_is_said_offline_and_the_others_connect(dice, radio, heard):
    radio.present.add(ONE)
    dice.keep({ONE: "plaindie", TWO: "polyhedral"})
    dice.start()
    connected(radio, heard, ONE)
    assert heard.links(TWO) == [DieLink(TWO, False, "not a kind of die the box reads: polyhedral")]


def test_close_disconnects_every_die_and_ends_the_thread(dice, radio, heard):
    radio.present.update({ONE, TWO})
    dice.keep({ONE: "plaindie", TWO: "plaindie"})
    dice.start()
    connected(radio, heard, ONE)
    connected(radio, heard, TWO)
    dice.close()
    assert not dice.running
    assert sorted(radio.disconnected) == [ONE, TWO]
    dice.scan(0.01)                     # after close: nothing, no error
    dice.flash(ONE)
    assert not dice.running


def test_problems_in_plain_words():
    assert problem_of(PermissionError(13, "Permission denied")) == NO_PERMISSION
    denied = BleakBluetoothNotAvailableError(
        "x", BleakBluetoothNotAvailableReason.DENIED_BY_SYSTEM)
    assert problem_of(denied) == NO_PERMISSION
    assert problem_of(ConnectionRefusedError()) == NO_BLUEZ
    assert problem_of(TimeoutError()) == "no answer in time"
    assert len(problem_of(RuntimeError("x" * 500))) == 80


def test_bleak_is_loaded_only_once_a_die_is_paired_or_scanned_for():
    code = """
import sys
from cobi_companion.device.ports.ble_dice import BleDice
dice = BleDice(lambda event: None).start()
dice.keep({})
dice.light("AA:00:00:00:00:01", (1, 2, 3))
dice.close()
print("bleak" in sys.modules, any(name.startswith("dbus_fast") for name in sys.modules))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=HANG_S).stdout
    assert out.split() == ["False", "False"]


def test_a_die_picked_from_a_scan_is_connected_as_seen_and_blinks_once_it_is(dice, radio,
                                                                              heard):
    # Picked while the scan still runs (to be paired): no search of its own (the radio does
    # not find it by its address at all), and the blink asked for before it is connected is
    # sent once it is, after its hello.
    radio.adverts = [(ONE, "plaindie-1", [])]
    dice.start()
    dice.scan(0.01)
    assert until(lambda: heard.of(ScanDone))
    dice.keep({ONE: PlainDie.KIND})
    dice.flash(ONE)
    client = connected(radio, heard, ONE)
    assert until(lambda: client.written == [b"hello", b"flash"])
    assert radio.thread is None                    # never looked for by its address


def test_a_scan_asked_for_again_while_one_runs_says_the_dice_found_so_far_again(
        dice, radio, heard, monkeypatch):
    # Find dice left and opened again within the scan's time: the new screen hears of the
    # dice the running scan found, then of its end (no second scan: BlueZ holds one).
    radio.adverts = [(ONE, "plaindie-1", [])]
    dice.scan(600)                                  # still running at the second asking
    assert until(lambda: heard.of(DieFound))
    dice.scan(600)
    assert until(lambda: len(heard.of(DieFound)) == 2)
    assert heard.of(DieFound) == [DieFound(ONE, "plaindie", "plaindie-1")] * 2
    assert heard.of(ScanDone) == []                 # one scan: the first, still looking
