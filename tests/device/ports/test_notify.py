"""systemd notifications from the main loop, received on a real datagram socket."""
from __future__ import annotations

import socket
import threading
import time

from cobi_companion.device.core.app import App, Settings
from cobi_companion.device.core.loop import Loop
from cobi_companion.device.games.home import GAMES
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Key, Press, Stop
from cobi_companion.device.ports.notify import Notifier
from cobi_companion.device.ports.sound import RecordingLights, RecordingSound
from cobi_companion.device.ports.store import MemoryStore
from cobi_companion.device.ui.renderer import render
from cobi_companion.rules.dice import ScriptedDice
from waiting import HANG_S


def listen(path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(0.05)
    return sock


def received(sock: socket.socket) -> list[str]:
    """The datagrams queued on the socket now (a live loop keeps sending: reading until a
    pause would never end)."""
    messages = []
    sock.setblocking(False)
    try:
        while True:
            messages.append(sock.recv(256).decode())
    except BlockingIOError:
        return messages
    finally:
        sock.settimeout(0.05)


def make_loop(book, notifier: Notifier) -> Loop:
    app = App(book, MemoryStore(), ScriptedDice([]), RecordingSound(), RecordingLights(),
              Settings(), GAMES)
    return Loop(app, MemoryDisplay(), render, notifier=notifier)


def test_ready_watchdog_and_stopping(book, tmp_path, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "100000")          # ping every 0.04 s
    sock = listen(tmp_path / "notify")
    loop = make_loop(book, Notifier(str(tmp_path / "notify")))
    thread = threading.Thread(target=loop.run)
    thread.start()
    messages: list[str] = []
    # Read as systemd does, as they come, until three pings (however slow the machine).
    end = time.monotonic() + HANG_S
    while messages.count("WATCHDOG=1") < 3 and time.monotonic() < end:
        messages += received(sock)
        time.sleep(0.01)
    loop.put(Press(Key.CW))
    loop.put(Stop("SIGTERM"))
    thread.join(timeout=120)
    assert not thread.is_alive()
    messages += received(sock)
    assert messages[0].startswith("READY=1\n") and messages[-1] == "STOPPING=1"
    assert messages.count("WATCHDOG=1") >= 3
    assert loop.display.frames >= 2                       # first screen, then the knob's turn


def test_a_hung_loop_stops_pinging(book, tmp_path, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    sock = listen(tmp_path / "notify")
    loop = make_loop(book, Notifier(str(tmp_path / "notify")))
    hang = threading.Event()
    original = loop.app.handle

    def handle(event):
        if isinstance(event, Press):
            hang.wait(timeout=5)                           # a screen stuck in a loop
        original(event)
    loop.app.handle = handle
    thread = threading.Thread(target=loop.run)
    thread.start()
    time.sleep(0.2)
    received(sock)
    loop.put(Press(Key.CW))
    time.sleep(0.5)
    during = received(sock)
    hang.set()
    loop.put(Stop("test"))
    thread.join(timeout=120)
    # A live loop pings about 10 times in 0.5 s; a hung one at most once or twice (around the
    # moment it got stuck), so systemd's watchdog would restart the box.
    assert during.count("WATCHDOG=1") <= 2


def test_a_receiver_that_reads_nothing_never_blocks_the_loop(book, tmp_path, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "20000")           # a ping every 8 ms: a full queue
    sock = listen(tmp_path / "notify")                     # soon (10 datagrams), never read
    loop = make_loop(book, Notifier(str(tmp_path / "notify")))
    thread = threading.Thread(target=loop.run)
    thread.start()
    time.sleep(0.3)
    loop.put(Stop("SIGTERM"))
    thread.join(timeout=120)
    assert not thread.is_alive()                           # the pings were dropped instead
    assert len(received(sock)) <= 11                      # the queue, and one more


def test_no_socket_no_error():
    Notifier("").ready()
    Notifier(None).watchdog()


def test_a_watchdog_interval_that_is_no_number_means_no_watchdog(monkeypatch) -> None:
    for odd in ("²", "", "10 000", "-5"):
        monkeypatch.setenv("WATCHDOG_USEC", odd)
        assert Notifier("").watchdog_s is None
