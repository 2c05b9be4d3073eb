"""systemd's notify protocol: one datagram to $NOTIFY_SOCKET ("@" = abstract namespace).

Without a socket (not under systemd) every call does nothing.
"""
from __future__ import annotations

import os
import socket

from cobi_companion.rules.numbers import digits


class Notifier:
    def __init__(self, address: str | None = None) -> None:
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")
        usec = os.environ.get("WATCHDOG_USEC", "")
        # Ping at half the watchdog interval, as systemd recommends.
        self.watchdog_s = int(usec) / 2e6 if digits(usec) else None

    def send(self, message: str) -> None:
        if not self.address:
            return
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                # Never wait: a receiver whose queue is full (10 datagrams by default) would
                # block a plain sendto, and with it the main loop.
                sock.sendto(message.encode(), socket.MSG_DONTWAIT, target)
        except OSError:
            pass  # a notification lost never stops the box

    def ready(self, status: str = "") -> None:
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> None:
        """A line `systemctl status` shows (what the box is doing, or what is wrong)."""
        self.send(f"STATUS={text}")

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")
