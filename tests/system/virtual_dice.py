"""Virtual smart dice for the system test, run in the guest as root (not on a box).

    /opt/virtual-dice/bin/python virtual_dice.py serve [--socket PATH] [--die KIND:ID:COLOUR ...]
    python3 virtual_dice.py say [--socket PATH] COMMAND ...

`serve` gives BlueZ a Bluetooth controller on /dev/vhci (the guest kernel's hci_vhci): bumble's
own controller, on a virtual radio link (bumble's LocalLink) shared with one more bumble
controller per die. Each die is a bumble device on its controller: it advertises as the maker's
dice do and serves the maker's GATT service (a characteristic it notifies on, one the box writes
to), with the bytes made by tests/system/die_peers.py. Nothing here touches real radio.

The test drives the dice through a UNIX socket, one line each way (`say` sends one):
    list                  every die: its id, address, name, kind, colour and link
    throw DIE FACE        the die rolls and settles on FACE
    tilt DIE | move DIE   a throw that ends tilted / the die picked up (not a roll)
    leave DIE             the die drops its link and stops advertising (out of reach)
    return DIE            the die advertises again
    lit DIE               the LEDs' colour the box last set, and the flashes it asked for
Each answer is one line of JSON: {"ok": true, ...} or {"ok": false, "error": TEXT}.

`say` and everything it needs are the standard library, so the agent's plain python3 runs it;
`serve` needs bumble (a venv of its own, /opt/virtual-dice).
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import socket
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SOCKET = Path("/run/virtual-dice.sock")
# Two of each maker's dice, one for each side: KIND:ID:COLOUR (a die_peers COLOURS key).
DICE = ("godice:godice-axis:red", "godice:godice-allies:blue",
        "pixels:pixels-axis:midnight_galaxy", "pixels:pixels-allies:aurora_sky")
# The controller BlueZ gets (hci0), and the dice's own static random addresses.
BLUEZ_ADDRESS = "F0:C0:B1:00:00:01"
# What /dev/vhci is first told: a vendor packet (0xff) asking for a primary controller (0x00).
VHCI_NEW = bytes([0xFF, 0x00])
DIE_ADDRESS = "C0:D1:CE:00:00:{:02X}"
ADVERTISING_MS = 100.0
BASE_UUID = "-0000-1000-8000-00805f9b34fb"     # the Bluetooth SIG's UUIDs: 0000xxxx + this
LOG = logging.getLogger("virtual-dice")


def advertisement(name: str, services: list[str], maker: dict[int, bytes]) -> bytes:
    """What a die advertises: flags, its services, the maker's data and its name. Real dice
    split it between the advertisement and the scan response; bumble's emulated radio answers a
    scan with the advertisement again, so everything goes into one extended advertisement."""
    fields = [(0x01, bytes([0x06]))]                   # LE General Discoverable, no BR/EDR
    short = [s for s in services if s.endswith(BASE_UUID) and s.startswith("0000")]
    if short:                                           # the SIG's own, as 16 bits
        fields.append((0x03, b"".join(int(s[4:8], 16).to_bytes(2, "little") for s in short)))
    if len(short) < len(services):
        fields.append((0x07, b"".join(uuid.UUID(s).bytes[::-1] for s in services
                                      if s not in short)))
    for company, data in maker.items():
        fields.append((0xFF, company.to_bytes(2, "little") + data))
    fields.append((0x09, name.encode()))
    return b"".join(bytes([len(data) + 1, kind]) + data for kind, data in fields)


def bumble(module: str) -> Any:
    """A module of bumble's: in the guest's dice venv only, never among the project's packages
    (nor its type checker's)."""
    return importlib.import_module(f"bumble.{module}")


def answer_json(ok: bool, **more: Any) -> bytes:
    return (json.dumps({"ok": ok, **more}) + "\n").encode()


# ---- the dice (bumble) -----------------------------------------------------------------------


@dataclass
class Die:
    """One virtual die: its peer (the maker's bytes), its bumble device and its link."""

    die_id: str
    peer: Any
    address: str
    device: Any = None
    notify: Any = None
    advertising: Any = None
    away: bool = False
    connections: list[Any] = field(default_factory=list)

    def describe(self) -> dict[str, Any]:
        return {"id": self.die_id, "address": self.address, "name": self.peer.name,
                "kind": self.peer.KIND, "colour": self.peer.colour, "away": self.away,
                "connected": len(self.connections), "lit": self.peer.lit,
                "flashes": self.peer.flashes}

    async def start(self, link: Any, index: int) -> None:
        device, gatt = bumble("device"), bumble("gatt")
        Characteristic, Address = gatt.Characteristic, bumble("hci").Address
        controller = bumble("controller").Controller(f"die-{index}", link=link)
        host = bumble("host").Host(controller, bumble("transport.common").AsyncPipeSink(
            controller))
        self.device = device.Device(name=self.peer.name, address=Address(self.address),
                             host=host)
        self.notify = Characteristic(
            self.peer.NOTIFY, Characteristic.Properties.NOTIFY | Characteristic.Properties.READ,
            Characteristic.READABLE, b"")
        write = Characteristic(
            self.peer.WRITE, Characteristic.Properties.WRITE
            | Characteristic.Properties.WRITE_WITHOUT_RESPONSE, Characteristic.WRITEABLE,
            gatt.CharacteristicValue(write=self.written))
        self.device.add_service(gatt.Service(self.peer.SERVICE, [self.notify, write]))
        self.device.on("connection", self.connected)
        await self.device.power_on()
        properties = device.AdvertisingEventProperties(is_connectable=True, is_scannable=False,
                                                is_legacy=False)
        self.advertising = await self.device.create_advertising_set(
            advertising_parameters=device.AdvertisingParameters(
                advertising_event_properties=properties,
                primary_advertising_interval_min=ADVERTISING_MS,
                primary_advertising_interval_max=ADVERTISING_MS),
            random_address=Address(self.address),
            advertising_data=advertisement(self.peer.name, self.peer.advertised_services(),
                                           self.peer.manufacturer_data()))
        await self.advertise()

    async def advertise(self) -> None:
        await self.advertising.start()

    def connected(self, connection: Any) -> None:
        LOG.info("%s: connected from %s", self.die_id, connection.peer_address)
        self.connections.append(connection)
        connection.on("disconnection", lambda reason: self.disconnected(connection, reason))

    def disconnected(self, connection: Any, reason: int) -> None:
        LOG.info("%s: disconnected (reason %s)", self.die_id, reason)
        if connection in self.connections:
            self.connections.remove(connection)
        if not self.away:            # a real die advertises again as soon as its link drops
            asyncio.get_running_loop().create_task(self.advertise())

    def written(self, connection: Any, value: bytes) -> None:
        replies = self.peer.answer(bytes(value))
        LOG.info("%s: the box wrote %s, answered by %d notifications", self.die_id,
                 bytes(value).hex(), len(replies))
        asyncio.get_running_loop().create_task(self.send(replies))

    async def send(self, notifications: list[bytes]) -> int:
        for value in notifications:
            await self.device.notify_subscribers(self.notify, value)
        return len(notifications)

    async def leave(self) -> None:
        self.away = True
        await self.advertising.stop()
        for connection in list(self.connections):
            await connection.disconnect()

    async def come_back(self) -> None:
        self.away = False
        await self.advertise()


class Dice:
    """Every virtual die and the commands of the test."""

    def __init__(self, dice: dict[str, Die]) -> None:
        self.dice = dice

    async def command(self, line: str) -> bytes:
        words = line.split()
        if not words:
            return answer_json(False, error="an empty line")
        verb, args = words[0], words[1:]
        if verb == "list":
            return answer_json(True, dice=[die.describe() for die in self.dice.values()])
        if not args or args[0] not in self.dice:
            return answer_json(False, error=f"which die? one of {', '.join(self.dice)}")
        die = self.dice[args[0]]
        started = time.time()          # the guest's clock, as the probe's (the latency)
        if verb == "throw" and len(args) == 2 and args[1].isdigit():
            sent = await die.send(die.peer.throw(int(args[1])))
        elif verb == "tilt":
            sent = await die.send(die.peer.tilt())
        elif verb == "move":
            sent = await die.send(die.peer.move())
        elif verb == "leave":
            await die.leave()
            sent = 0
        elif verb == "return":
            await die.come_back()
            sent = 0
        elif verb == "lit":
            sent = 0
        else:
            return answer_json(False, error=f"not a command: {line!r}")
        return answer_json(True, sent=sent, at=started, die=die.describe())

    async def client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                try:
                    reply = await self.command(line.decode(errors="replace"))
                except Exception as exc:       # one bad command ends nothing
                    LOG.exception("command %r", line)
                    reply = answer_json(False, error=f"{type(exc).__name__}: {exc}")
                writer.write(reply)
                await writer.drain()
        finally:
            writer.close()


def radio_link() -> Any:
    """bumble's LocalLink, with the sender's address of LE data taken from its connection: the
    LocalLink takes the sender's random address always, and BlueZ connects with its public one
    (its random address is the one it scans with), so the dice dropped all it sent."""
    le = bumble("core").PhysicalTransport.LE

    class Link(bumble("link").LocalLink):  # type: ignore[misc]
        def send_acl_data(self, sender_controller: Any, destination_address: Any,
                          transport: Any, data: bytes) -> None:
            connection = sender_controller.le_connections.get(destination_address)
            if transport != le or connection is None:
                super().send_acl_data(sender_controller, destination_address, transport, data)
                return
            destination = self.find_le_controller(destination_address)
            if destination is not None:
                asyncio.get_running_loop().call_soon(
                    destination.on_link_acl_data, connection.self_address, transport, data)

    return Link()


async def vhci() -> Any:
    """/dev/vhci as bumble's transport, its controller not made yet (VHCI_NEW makes it). Not
    bumble's own vhci transport: that one drops a whole read starting with the kernel's answer
    to VHCI_NEW, and on a slow machine (TCG) the kernel's first command, its Reset, comes in the
    same read."""
    transport = await bumble("transport.file").open_file_transport("/dev/vhci")
    source, answered = transport.source, False
    feed = source.data_received

    def data_received(data: bytes) -> None:
        nonlocal answered
        if not answered and data[:1] == VHCI_NEW[:1] and len(data) >= 4:
            answered = True                  # 0xff, the type, then the new index (2 bytes)
            LOG.info("vhci: hci%d", int.from_bytes(data[2:4], "big"))
            data = data[4:]
        if data:
            feed(data)
    source.data_received = data_received
    return transport


async def serve(socket_path: Path, specs: list[str]) -> None:
    """The dice first, then BlueZ's controller: once the kernel makes hci0 it waits for the
    answer to each command a few seconds at most, and the dice's start (bumble's imports, under
    emulation) kept the loop from answering in time ("Opcode 0x0c03 failed: -110")."""
    peers = importlib.import_module("die_peers").PEERS    # beside this file, in the guest
    link = radio_link()
    dice: dict[str, Die] = {}
    for index, spec in enumerate(specs, start=1):
        kind, die_id, colour = spec.split(":")
        dice[die_id] = Die(die_id, peers[kind](die_peers_name(kind, index), colour),
                           DIE_ADDRESS.format(index))
        await dice[die_id].start(link, index)
        LOG.info("%s: %s advertising as %r at %s", die_id, kind, dice[die_id].peer.name,
                 dice[die_id].address)
    transport = await vhci()
    bumble("controller").Controller("bluez", host_source=transport.source,
                                    host_sink=transport.sink, link=link,
                                    public_address=BLUEZ_ADDRESS)
    transport.sink.on_packet(VHCI_NEW)     # now the kernel makes hci0, and BlueZ starts it
    socket_path.unlink(missing_ok=True)
    server = await asyncio.start_unix_server(Dice(dice).client, path=str(socket_path))
    print(f"virtual dice ready: {', '.join(dice)} on {socket_path}", flush=True)
    async with server:
        await transport.source.terminated       # /dev/vhci closed: BlueZ's controller gone


def die_peers_name(kind: str, index: int) -> str:
    """The name a die advertises: GoDice's own pattern (GoDice_<6 hex>_<shell>_<version>, as
    the makers' dice say it), a Pixel's given name."""
    if kind == "godice":
        return f"GoDice_{0xC0D100 + index:06X}_K_v04"
    return f"Pixel{index}"


# ---- the client --------------------------------------------------------------------------------


def say(socket_path: Path, line: str, timeout: float = 60) -> dict[str, Any]:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(str(socket_path))
        sock.sendall(line.encode() + b"\n")
        got = b""
        while not got.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            got += chunk
    reply: dict[str, Any] = json.loads(got)
    return reply


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("serve", "say"))
    parser.add_argument("words", nargs="*")
    parser.add_argument("--socket", type=Path, default=SOCKET)
    parser.add_argument("--die", action="append", help="KIND:ID:COLOUR (repeat)")
    args = parser.parse_args(argv)
    if args.mode == "say":
        reply = say(args.socket, " ".join(args.words))
        print(json.dumps(reply))
        return 0 if reply.get("ok") else 1
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    asyncio.run(serve(args.socket, args.die or list(DICE)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
