"""A range sensor on a pseudo-terminal that speaks real protocol bytes: the test double of
the serial sensors, reached through a stable link as `/dev/serial/by-id/...` is.

The link goes away with the sensor, as udev removes a by-id link with its device: the kernel
gives a freed pty's number to the next pty opened anywhere on the machine, so a link left
behind would lead whoever opens it later (a reader still retrying, a `range` run) to some
other program's pty, and its exclusive lock would take that sensor from its owner."""
from __future__ import annotations

import os
import pty
import select
import threading
import time
import tty
from pathlib import Path


def ff_frame(mm: int) -> bytes:
    high, low = divmod(mm, 256)
    return bytes([0xFF, high, low, (0xFF + high + low) & 0xFF])


class FakeSensor:
    """A sensor on a pty, reachable through a stable link (as /dev/serial/by-id/... is):
    it talks on its own (`frames`) or answers requests (`answers`); it can be unplugged
    (the pty goes away) and plugged in again (a new pty behind the same link)."""

    def __init__(self, link: Path, frames: bytes = b"", answers: dict[bytes, bytes] | None = None,
                 every_s: float = 0.03) -> None:
        self.link, self.frames, self.answers, self.every_s = link, frames, answers or {}, every_s
        self.talking = True
        self._stop = threading.Event()
        self._plug()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _plug(self) -> None:
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.slave_name = os.ttyname(slave)
        os.close(slave)
        if self.link.is_symlink():
            self.link.unlink()
        self.link.symlink_to(self.slave_name)

    def unplug(self) -> None:
        """The sensor pulled out: the link goes first (nothing new finds this pty), then
        the pty."""
        if self.link.is_symlink() and os.readlink(self.link) == self.slave_name:
            self.link.unlink()          # not another sensor's, put at the same link since
        master, self.master = self.master, -1
        os.close(master)

    def replug(self) -> None:
        self._plug()

    def _run(self) -> None:
        while not self._stop.is_set():
            time.sleep(self.every_s)
            master = self.master
            if master < 0 or not self.talking:
                continue
            try:
                if self.answers:
                    if select.select([master], [], [], 0)[0]:
                        asked = os.read(master, 64)
                        reply = self.answers.get(asked[-1:], b"")
                        if reply:
                            os.write(master, reply)
                elif self.frames:
                    os.write(master, self.frames)
            except OSError:
                continue

    def close(self) -> None:
        """Stop talking and go away, the link first (as `unplug`) unless already unplugged."""
        self._stop.set()
        self._thread.join(2)
        if self.master >= 0:
            self.unplug()


def main(argv: list[str] | None = None) -> int:
    """Run a fake 0xFF-frame sensor talking on its own: `python -m
    cobi_companion.device.ports.fake_sensor LINK MM [MM ...]` (until Ctrl-C or SIGTERM,
    which take its link away with it)."""
    import signal
    import sys

    def ended(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    args = sys.argv[1:] if argv is None else argv
    link, distances = Path(args[0]), [int(mm) for mm in args[1:]] or [1000]
    signal.signal(signal.SIGTERM, ended)
    sensor = FakeSensor(link, b"".join(ff_frame(mm) for mm in distances))
    print(f"talking on {link} -> {sensor.slave_name}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        sensor.close()


if __name__ == "__main__":
    raise SystemExit(main())
