"""The adapter on bleak's own scanner and client (`BleakRadio`): bleak's front classes as the
box uses them (its detection callback, finding a die by its address, connecting, a
characteristic found by its UUID, notifications, writes as the characteristic allows, the
link lost), with a backend of bleak's own kind (`BaseBleakScanner`, `BaseBleakClient`)
standing in for BlueZ. BlueZ itself is the booted-system test's (tests/system/)."""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from typing import Any

import bleak
import pytest
from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from cobi_companion.device.ports import ble_dice
from cobi_companion.device.ports.ble_dice import LOST, BleakRadio, BleDice
from cobi_companion.device.ports.die_readings import Reading, Settled
from cobi_companion.device.ports.events import DieFound, DieLink, DieSaid, ScanDone
from waiting import until

SERVICE = "0000feed-0000-1000-8000-00805f9b34fb"
NOTIFY = "0000fee1-0000-1000-8000-00805f9b34fb"
WRITE = "0000fee2-0000-1000-8000-00805f9b34fb"
DIE = "DE:AD:BE:EF:00:01"


class Protocol:
    """A maker's protocol of die_protocols' shape: b"S" + face is a roll."""

    KIND, SERVICE, NOTIFY, WRITE = "feeddie", SERVICE, NOTIFY, WRITE

    def advertises(self, name: str | None, service_uuids: Sequence[str]) -> bool:
        return SERVICE in service_uuids

    def decoder(self) -> Any:
        class Decoder:
            def feed(self, data: bytes) -> list[Reading]:
                return [Settled(data[1])] if data[:1] == b"S" and len(data) == 2 else []
        return Decoder()

    def hello(self) -> list[bytes]:
        return [b"hi"]

    def ask_battery(self) -> bytes:
        return b"battery?"

    def light(self, colour: tuple[int, int, int] | None) -> bytes | None:
        return b"L" + bytes(colour or (0, 0, 0))

    def flash(self) -> bytes:
        return b"flash"


class Table:
    """The dice in reach: those advertising, and each one's connection."""

    def __init__(self) -> None:
        self.advertising: dict[str, tuple[str, list[str]]] = {}
        self.clients: list[Client] = []


TABLE = Table()


class Scanner(BaseBleakScanner):
    """Each die in reach advertises every few milliseconds while the scan lasts."""

    def __init__(self, detection_callback: Any, service_uuids: Any, scanning_mode: str,
                 **kwargs: Any) -> None:
        super().__init__(detection_callback, service_uuids)
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.seen_devices = {}
        self.task = asyncio.create_task(self.advertise())

    async def advertise(self) -> None:
        while True:
            for address, (name, uuids) in list(TABLE.advertising.items()):
                adv = AdvertisementData(name, {}, {}, uuids, None, -50, ())
                self.call_detection_callbacks(
                    self.create_or_update_device(address, address, name, None, adv), adv)
            await asyncio.sleep(0.005)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()


class Client(BaseBleakClient):
    """A die's GATT server: its service, a characteristic it notifies on and one it takes
    writes on (with a response or without)."""

    def __init__(self, address_or_ble_device: Any, **kwargs: Any) -> None:
        super().__init__(address_or_ble_device, **kwargs)
        self.connected = False
        self.written: list[tuple[str, bytes, bool]] = []
        self.notifying: Callable[[bytearray], None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        TABLE.clients.append(self)

    @property
    def mtu_size(self) -> int:
        return 23

    @property
    def is_connected(self) -> bool:
        return self.connected

    async def connect(self, pair: bool, **kwargs: Any) -> None:
        self.loop = asyncio.get_running_loop()
        services = BleakGATTServiceCollection()
        service = BleakGATTService(None, 1, SERVICE)
        services.add_service(service)
        for handle, uuid, properties in ((2, NOTIFY, ["notify"]),
                                         (4, WRITE, ["write", "write-without-response"])):
            characteristic = BleakGATTCharacteristic(None, handle, uuid, properties,
                                                     lambda: 20, service)
            services.add_characteristic(characteristic)
        self.services = services
        self.connected = True

    async def disconnect(self) -> None:
        self.connected = False

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError

    async def unpair(self) -> None:
        raise NotImplementedError

    async def read_gatt_char(self, characteristic: Any, **kwargs: Any) -> bytearray:
        raise NotImplementedError

    async def read_gatt_descriptor(self, descriptor: Any, **kwargs: Any) -> bytearray:
        raise NotImplementedError

    async def write_gatt_char(self, characteristic: BleakGATTCharacteristic, data: Any,
                              response: bool) -> None:
        self.written.append((characteristic.uuid, bytes(data), response))

    async def write_gatt_descriptor(self, descriptor: Any, data: Any) -> None:
        raise NotImplementedError

    async def start_notify(self, characteristic: BleakGATTCharacteristic,
                           callback: Callable[[bytearray], None], **kwargs: Any) -> None:
        assert characteristic.uuid == NOTIFY
        self.notifying = callback

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        self.notifying = None

    # what the die does, from the test's thread
    def notify(self, data: bytes) -> None:
        assert self.loop is not None and self.notifying is not None
        self.loop.call_soon_threadsafe(self.notifying, bytearray(data))

    def drop(self) -> None:
        assert self.loop is not None and self._disconnected_callback is not None
        self.connected = False
        self.loop.call_soon_threadsafe(self._disconnected_callback)


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setattr(bleak, "get_platform_scanner_backend_type", lambda: (Scanner, "test"))
    monkeypatch.setattr(bleak, "get_platform_client_backend_type", lambda: (Client, "test"))
    monkeypatch.setattr(ble_dice, "FIRST_RETRY_S", 0.01)
    monkeypatch.setattr(ble_dice, "AWAY_RETRY_S", 0.01)
    monkeypatch.setattr(ble_dice, "FIND_S", 0.2)
    TABLE.advertising.clear()
    TABLE.clients.clear()
    return TABLE


def test_a_die_found_connected_read_lit_lost_and_found_again_through_bleak(table):
    heard: list[Any] = []
    lock = threading.Lock()

    def put(event: Any) -> None:
        with lock:
            heard.append(event)

    def links() -> list[DieLink]:
        with lock:
            return [event for event in heard if isinstance(event, DieLink)]
    dice = BleDice(put, BleakRadio, protocols=lambda: {"feeddie": Protocol()})
    try:
        table.advertising[DIE] = ("FeedDie 01", [SERVICE])
        dice.scan(0.05)
        assert until(lambda: any(isinstance(event, ScanDone) for event in heard))
        assert heard == [DieFound(DIE, "feeddie", "FeedDie 01"), ScanDone()]
        dice.keep({DIE: "feeddie"})
        dice.start()
        assert until(lambda: links() == [DieLink(DIE, True)])
        first = table.clients[-1]
        first.notify(b"S\x04")
        assert until(lambda: DieSaid(DIE, Settled(4)) in heard)
        dice.flash(DIE)
        # "write" is among the characteristic's properties: bleak writes with a response
        assert until(lambda: first.written == [(WRITE, b"hi", True), (WRITE, b"flash", True)])
        del table.advertising[DIE]          # it sleeps
        first.drop()
        assert until(lambda: links()[1:] == [DieLink(DIE, False, LOST)])
        table.advertising[DIE] = ("FeedDie 01", [SERVICE])     # and wakes
        assert until(lambda: len(links()) == 3)
        assert links()[2] == DieLink(DIE, True) and table.clients[-1] is not first
    finally:
        dice.close()
    assert not dice.running and not any(client.connected for client in table.clients)
