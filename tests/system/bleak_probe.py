"""The system test's probe of Bluetooth from inside the box's sandbox (run in the guest, not on a
box): the Python of the box's venv (with bleak) under the unit's own sandbox properties.

    python bleak_probe.py scan SECONDS             the dice bleak sees through BlueZ
    python bleak_probe.py listen ADDRESS SERVICE NOTIFY WRITE SECONDS
                                                   connect, subscribe, write a byte, print the
                                                   notifications until SECONDS or the link drops
    python bleak_probe.py hci                      try to open a Bluetooth socket of its own

Each prints lines of JSON. Only bleak (and the standard library), as the box has them.
"""
from __future__ import annotations

import asyncio
import importlib
import json
import socket
import sys
import time
from typing import Any


def bleak() -> Any:
    """bleak, from the venv the guest runs this with (the box's), not the checker's."""
    return importlib.import_module("bleak")


def out(**message: Any) -> None:
    print(json.dumps(message), flush=True)


async def scan(seconds: float) -> None:
    found = await bleak().BleakScanner.discover(timeout=seconds, return_adv=True)
    out(found=sorted(({"address": device.address, "name": adv.local_name or device.name,
                       "uuids": sorted(adv.service_uuids),
                       "maker": {str(k): v.hex() for k, v in adv.manufacturer_data.items()}}
                      for device, adv in found.values()), key=lambda d: str(d["address"])))


async def listen(address: str, service: str, notify: str, write: str, seconds: float) -> None:
    device = await bleak().BleakScanner.find_device_by_address(address, timeout=30)
    if device is None:
        out(error=f"{address} not seen")
        return
    gone = asyncio.Event()
    async with bleak().BleakClient(device, disconnected_callback=lambda _: gone.set()) as client:
        services = [s.uuid for s in client.services]
        out(connected=address, services=services, has_service=service in services)
        await client.start_notify(notify, lambda _, data: out(notified=bytes(data).hex(),
                                                              at=time.time()))
        await client.write_gatt_char(write, b"\x03", response=False)
        out(subscribed=address)
        try:
            await asyncio.wait_for(gone.wait(), seconds)
            out(disconnected=address)
        except TimeoutError:
            out(timeout=seconds)


def hci() -> None:
    """The box never opens a controller itself: under the unit this must be refused."""
    try:
        sock = socket.socket(socket.AF_BLUETOOTH, socket.SOCK_RAW, socket.BTPROTO_HCI)
    except OSError as exc:
        out(hci=f"refused: {exc.strerror} (errno {exc.errno})")
        return
    sock.close()
    out(hci="opened")


def main(argv: list[str]) -> int:
    try:
        if argv[:1] == ["scan"]:
            asyncio.run(scan(float(argv[1])))
        elif argv[:1] == ["listen"]:
            asyncio.run(listen(argv[1], argv[2], argv[3], argv[4], float(argv[5])))
        elif argv[:1] == ["hci"]:
            hci()
        else:
            out(error=f"usage: {__doc__}")
            return 2
    except Exception as exc:          # the test reads what went wrong
        out(error=f"{type(exc).__name__}: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
