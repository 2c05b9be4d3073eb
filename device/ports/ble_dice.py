"""Smart dice over Bluetooth Low Energy, with bleak (BlueZ over D-Bus on the Pi): the real
`SmartDice` port (ports/smart_dice.py).

Everything Bluetooth runs on one thread of its own, in its own asyncio loop: the port's methods
only hand work to that loop and return at once, so the main loop never waits for a die. What
the dice say goes onto the main loop's queue (`put`) as ordinary events.

Each paired die has a task that holds it: find it by its address (it advertises while awake),
connect, subscribe to its notifications, say hello, then wait until the link is lost and try
again, after a pause that doubles from FIRST_RETRY_S up to LAST_RETRY_S. A die that sleeps,
leaves the table or runs flat comes back by itself when it advertises again.

Nothing Bluetooth does ends the thread or reaches the main loop as an exception: a failure is
logged and becomes a `DieLink(die, False, why)` or a `ScanDone(problem)`, in a few plain words
(`problem_of`). bleak is imported on this thread, the first time a die is to be scanned for or
connected: a box with no smart dice paired never loads it.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from cobi_companion.device.ports import die_protocols
from cobi_companion.device.ports.die_protocols import Decoder, DieProtocol
from cobi_companion.device.ports.errors import reason
from cobi_companion.device.ports.events import DieEvent, DieFound, DieLink, DieSaid, ScanDone
from cobi_companion.device.ports.late_dice import NO_BLEAK as NO_BLEAK
from cobi_companion.device.ports.smart_dice import RGB

log = logging.getLogger("cobi-companion")

FIRST_RETRY_S, LAST_RETRY_S = 1.0, 30.0   # the pause before a die is tried again, doubling
AWAY_RETRY_S = 5.0       # the longest pause after a die was not seen (it may wake any moment)
FIND_S = 10.0            # how long a die is looked for by its address before a pause
CONNECT_S = 20.0         # a connection (with its services) that takes longer has failed
WRITE_S = 5.0            # a command, or a subscription, that takes longer has failed
STOP_S = 5.0             # how long a disconnect or a scanner's stop is waited for
BATTERY_S = 300.0        # how often a connected die is asked for its battery
JOIN_S = 8.0             # how long `close` waits for the thread (its disconnects are bounded)

# What keeps the box from Bluetooth, as the panel and the journal say it.
NO_BLUEZ = "the Bluetooth service (BlueZ) is not running"
NO_ADAPTER = "no Bluetooth adapter"
SWITCHED_OFF = "Bluetooth is switched off"
NO_PERMISSION = "no permission to use Bluetooth"
NOT_SEEN = "not in reach (asleep, or away from the box)"
LOST = "connection lost"
LET_GO = "no longer paired"

Put = Callable[[DieEvent], None]
Seen = Callable[[Any, Any], None]      # a scanner's callback: (device, advertisement data)


class Scanner(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class Client(Protocol):
    async def connect(self) -> None: ...

    async def disconnect(self) -> None: ...

    async def start_notify(self, uuid: str, callback: Callable[[Any, bytearray], None], /
                           ) -> None: ...

    async def write_gatt_char(self, uuid: str, data: bytes, response: bool | None, /
                              ) -> None: ...


class Radio(Protocol):
    """What the adapter asks of Bluetooth: bleak's scanner and client (`BleakRadio`), or a
    test's stand-in. Made on the adapter's thread, the first time it is needed."""

    def scanner(self, seen: Seen) -> Scanner:
        """A scanner that calls `seen(device, advertisement)` for each advertisement."""
        ...

    async def find(self, address: str, timeout: float) -> Any:
        """The device advertising with this address, or None when none did in `timeout`."""
        ...

    def client(self, device: Any, lost: Callable[[Any], None]) -> Client:
        """A client for a found device; `lost(client)` is called when its link drops."""
        ...


class BleakRadio:
    """bleak's scanner and client: BlueZ over the system's D-Bus on Linux."""

    def __init__(self) -> None:
        import bleak

        self.bleak = bleak

    def scanner(self, seen: Seen) -> Scanner:
        return self.bleak.BleakScanner(seen)

    async def find(self, address: str, timeout: float) -> Any:
        return await self.bleak.BleakScanner.find_device_by_address(address, timeout=timeout)

    def client(self, device: Any, lost: Callable[[Any], None]) -> Client:
        return self.bleak.BleakClient(device, disconnected_callback=lost, timeout=CONNECT_S)


def problem_of(exc: BaseException) -> str:
    """A failure of Bluetooth in a few plain words. bleak's own errors are told by what they
    carry (the reason Bluetooth is not available, the D-Bus error's name), so that this needs
    no bleak: a box without it says so too."""
    unavailable = getattr(getattr(exc, "reason", None), "name", "")
    dbus = str(getattr(exc, "dbus_error", "") or "")
    if unavailable in ("NO_BLUETOOTH", "NO_BLE_CENTRAL_ROLE"):
        return NO_ADAPTER
    if unavailable == "POWERED_OFF":
        return SWITCHED_OFF
    if unavailable.startswith("DENIED") or isinstance(exc, PermissionError) \
            or dbus.endswith(".AccessDenied"):
        return NO_PERMISSION
    # No system bus to talk over (its socket missing or refusing), or no BlueZ on it.
    if isinstance(exc, FileNotFoundError | ConnectionRefusedError) \
            or dbus.endswith(".ServiceUnknown"):
        return NO_BLUEZ
    if isinstance(exc, ImportError):
        return NO_BLEAK
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    return reason(exc)[:80]


class NotSeen(Exception):
    """A paired die did not advertise while it was looked for."""


@dataclass
class _Link:
    """A paired die as its task holds it."""

    die: str
    protocol: DieProtocol
    said: bool | None = None          # online as last put (None: nothing put yet)
    client: Client | None = None      # while connected


class BleDice:
    """The `SmartDice` port on bleak; `radio` makes the Bluetooth parts (tests pass their own),
    `protocols` gives each maker's protocol by kind."""

    def __init__(self, put: Put, radio: Callable[[], Radio] = BleakRadio, *,
                 protocols: Callable[[], Mapping[str, DieProtocol]] = die_protocols.protocols
                 ) -> None:
        self._put, self._make_radio, self._protocols = put, radio, protocols
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._started = self._closed = False
        self._kept: dict[str, str] = {}
        # On the adapter's thread only:
        self._radio: Radio | None = None
        self._links: dict[str, tuple[_Link, asyncio.Task[None]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._scanning: asyncio.Task[None] | None = None
        self._connecting: asyncio.Lock | None = None
        # Dice a scan saw (its device, by address): connected straight away, with no search of
        # their own while the scan still runs (BlueZ holds one discovery for the box).
        self._seen: dict[str, Any] = {}
        # Dice asked to blink before they were connected (a die picked from a scan, to be
        # paired): they blink as soon as they are.
        self._to_flash: set[str] = set()
        # The dice the running scan has said (kind, name), said again to a second asking.
        self._found: dict[str, tuple[str, str]] = {}

    # --- the port (any thread) ---

    def start(self) -> BleDice:
        with self._lock:
            self._started = True
            kept = dict(self._kept)
        if kept:
            self._soon(partial(self._sync, kept))
        return self

    def keep(self, dice: Mapping[str, str]) -> None:
        with self._lock:
            self._kept = dict(dice)
            started, running = self._started, self._thread is not None
        if started and (dice or running):
            self._soon(partial(self._sync, dict(dice)))

    def scan(self, seconds: float) -> None:
        self._soon(partial(self._begin_scan, seconds))

    def light(self, die: str, colour: RGB | None) -> None:
        self._soon(partial(self._command, die, lambda protocol: protocol.light(colour)),
                   only_running=True)

    def flash(self, die: str) -> None:
        self._soon(partial(self._flash, die),
                   only_running=True)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        with contextlib.suppress(RuntimeError):        # the loop has already stopped
            loop.call_soon_threadsafe(self._shut)
        thread.join(JOIN_S)
        if thread.is_alive():
            log.warning("smart dice: Bluetooth did not stop within %.0f s", JOIN_S)

    @property
    def running(self) -> bool:
        """Whether the adapter's thread is running (it starts at the first die or scan)."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def _soon(self, work: Callable[[], None], only_running: bool = False) -> None:
        """Run `work` on the adapter's loop, starting its thread first if need be."""
        with self._lock:
            if self._closed or (only_running and self._loop is None):
                return
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=self._serve, args=(self._loop,),
                                                name="smart-dice", daemon=True)
                self._thread.start()
            loop = self._loop
        with contextlib.suppress(RuntimeError):        # closed meanwhile: nothing to do
            loop.call_soon_threadsafe(work)

    # --- the adapter's thread ---

    def _serve(self, loop: asyncio.AbstractEventLoop) -> None:
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(self._unexpected)
        try:
            loop.run_forever()
        finally:
            loop.close()

    @staticmethod
    def _unexpected(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        # What escaped a callback (none should): logged, and the thread goes on.
        log.error("smart dice: %s", context.get("message"), exc_info=context.get("exception"))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _radio_now(self) -> Radio:
        if self._radio is None:
            self._radio = self._make_radio()
        return self._radio

    def _protocol_of(self, name: str | None, uuids: Sequence[str]) -> DieProtocol | None:
        return next((p for p in self._protocols().values() if p.advertises(name, uuids)), None)

    def _sync(self, dice: dict[str, str]) -> None:
        """Hold the dice of `dice`, and let go of the others."""
        known = self._protocols()
        for die, (link, task) in list(self._links.items()):
            if dice.get(die) != link.protocol.KIND:
                del self._links[die]
                self._to_flash.discard(die)
                task.cancel()
                self._put(DieLink(die, False, LET_GO))
        for die, kind in dice.items():
            if die in self._links:
                continue
            if kind not in known:
                log.warning("smart dice: %s is a %r, not a kind of die the box reads", die,
                            kind)
                self._put(DieLink(die, False, f"not a kind of die the box reads: {kind}"))
                continue
            link = _Link(die, known[kind])
            self._links[die] = (link, self._spawn(self._hold(link)))

    async def _hold(self, link: _Link) -> None:
        """Keep one die connected, for as long as it is paired."""
        pause = FIRST_RETRY_S
        while True:
            why = LOST
            try:
                await self._session(link)
                pause = FIRST_RETRY_S      # it was connected: the first try again is quick
            except asyncio.CancelledError:
                raise
            except NotSeen:
                why = NOT_SEEN
            except Exception as exc:       # bleak, D-Bus, the die: offline, and try again
                why = problem_of(exc)
                if link.said is not False:
                    log.warning("smart dice: %s: %s", link.die, reason(exc))
                    log.debug("smart dice: %s", link.die, exc_info=exc)
            if link.said is not False:
                log.info("smart dice: %s offline: %s", link.die, why)
                link.said = False
                self._put(DieLink(link.die, False, why))
            await asyncio.sleep(min(pause, AWAY_RETRY_S) if why == NOT_SEEN else pause)
            pause = min(pause * 2, LAST_RETRY_S)

    async def _session(self, link: _Link) -> None:
        """Find and connect the die, read it until its link is lost; disconnected after."""
        radio = self._radio_now()
        device = self._seen.pop(link.die, None) or await radio.find(link.die, FIND_S)
        if device is None:
            raise NotSeen(link.die)
        loop = asyncio.get_running_loop()
        lost = asyncio.Event()

        def dropped(_client: Any) -> None:
            with contextlib.suppress(RuntimeError):   # the loop has ended meanwhile
                loop.call_soon_threadsafe(lost.set)
        client = radio.client(device, dropped)
        try:
            if self._connecting is None:
                self._connecting = asyncio.Lock()
            async with self._connecting:    # one connection made at a time (BlueZ prefers)
                await asyncio.wait_for(client.connect(), CONNECT_S)
            await self._read(link, client, lost)
        finally:
            link.client = None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.disconnect(), STOP_S)

    async def _read(self, link: _Link, client: Client, lost: asyncio.Event) -> None:
        protocol = link.protocol
        heard = partial(self._heard, link.die, protocol.decoder())
        await asyncio.wait_for(client.start_notify(protocol.NOTIFY, heard), WRITE_S)
        link.client, link.said = client, True
        log.info("smart dice: %s connected", link.die)
        self._put(DieLink(link.die, True))     # before hello: its answers follow it
        for command in protocol.hello():
            await self._write(client, protocol, command)
        if link.die in self._to_flash:
            self._to_flash.discard(link.die)
            await self._write(client, protocol, protocol.flash())
        while not lost.is_set():
            try:
                await asyncio.wait_for(lost.wait(), BATTERY_S)
            except TimeoutError:
                await self._write(client, protocol, protocol.ask_battery())

    def _heard(self, die: str, decoder: Decoder, _sender: Any, data: bytearray) -> None:
        """A notification: its readings, each a DieSaid. A decoder never raises; if one did,
        the bytes are dropped and the die stays connected."""
        try:
            readings = decoder.feed(bytes(data))
        except Exception:
            log.exception("smart dice: %s: a notification could not be read", die)
            return
        for reading in readings:
            self._put(DieSaid(die, reading))

    @staticmethod
    async def _write(client: Client, protocol: DieProtocol, command: bytes) -> None:
        # As the characteristic allows (bleak reads its properties): with a response where it
        # takes one, so the die says it took the command; else without.
        await asyncio.wait_for(client.write_gatt_char(protocol.WRITE, command, None), WRITE_S)

    def _command(self, die: str, make: Callable[[DieProtocol], bytes | None]) -> None:
        held = self._links.get(die)
        link = held[0] if held else None
        if link is None or link.client is None:
            return                          # not connected: nothing to light
        command = make(link.protocol)
        if command is not None:
            self._spawn(self._send(link, link.client, command))

    def _flash(self, die: str) -> None:
        """Blink the die now, or as soon as it connects (a die kept but not connected yet)."""
        held = self._links.get(die)
        if held is not None and held[0].client is None:
            self._to_flash.add(die)
            return
        self._command(die, lambda protocol: protocol.flash())

    async def _send(self, link: _Link, client: Client, command: bytes) -> None:
        try:
            await self._write(client, link.protocol, command)
        except Exception as exc:    # the link's own task notices a lost link
            log.warning("smart dice: %s: a command was not taken: %s", link.die, reason(exc))

    def _begin_scan(self, seconds: float) -> None:
        """A scan, unless one is under way: then the dice it found so far are said again for
        the screen that asked now (its ScanDone ends both)."""
        if self._scanning is None or self._scanning.done():
            self._found = {}
            self._scanning = self._spawn(self._scan(seconds))
            return
        for address, (kind, name) in self._found.items():
            self._put(DieFound(address, kind, name))

    async def _scan(self, seconds: float) -> None:
        said: set[str] = set()
        unnamed: dict[str, str] = {}     # found before their name came (a scan response)

        def seen(device: Any, advertisement: Any) -> None:
            try:
                address = str(device.address)
                name = advertisement.local_name or device.name or ""
                if address in said:
                    return
                protocol = self._protocol_of(name or None, advertisement.service_uuids or [])
                if protocol is None:
                    return
                if not name:
                    unnamed[address] = protocol.KIND
                    self._seen[address] = device
                    return
                said.add(address)
                unnamed.pop(address, None)
                self._seen[address] = device
                self._found[address] = (protocol.KIND, str(name))
                self._put(DieFound(address, protocol.KIND, str(name)))
            except Exception:       # an odd advertisement: that one is passed over
                log.exception("smart dice: an advertisement could not be read")

        try:
            scanner = self._radio_now().scanner(seen)
            await scanner.start()
            try:
                await asyncio.sleep(seconds)
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(scanner.stop(), STOP_S)
        except Exception as exc:
            problem = problem_of(exc)
            log.warning("smart dice: cannot scan: %s (%s)", problem, reason(exc))
            self._put(ScanDone(problem))
            return
        for address, kind in unnamed.items():
            self._put(DieFound(address, kind, ""))
        self._put(ScanDone())

    def _shut(self) -> None:
        self._spawn(self._shutdown())

    async def _shutdown(self) -> None:
        """Every task ended (each link disconnects its die, bounded), then the loop."""
        current = asyncio.current_task()
        tasks = [task for task in self._tasks if task is not current]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=STOP_S + 1)
        asyncio.get_running_loop().stop()
