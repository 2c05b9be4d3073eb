"""Reading the settings and cards again (SIGHUP: a stick plugged in) never stops the main loop's
watchdog pings: the files are read on a thread of their own, and what was read is used on the
loop. Here the reading is held until the loop has pinged: a fact, not a race."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from cobi_companion.device.config import load_layers
from cobi_companion.device.ports.events import Reload, Stop
from cobi_companion.device.ports.notify import Notifier

SAFETY_S = 60.0          # only a safety net: the test waits for what happens, never for time


class Heard(Notifier):
    """systemd's side of the notify socket: every message, and who is waiting for pings."""

    def __init__(self) -> None:
        super().__init__("")
        self.watchdog_s = 0.01          # $WATCHDOG_USEC of 20 ms: a ping every 8 ms
        self.messages: list[str] = []
        self.pinged = threading.Condition()

    def send(self, message: str) -> None:
        with self.pinged:
            self.messages.append(message)
            self.pinged.notify_all()

    def pings_after(self, at: int, count: int) -> bool:
        """Wait until `count` pings came after message number `at`; False at the safety net."""
        with self.pinged:
            return self.pinged.wait_for(
                lambda: self.messages[at:].count("WATCHDOG=1") >= count, SAFETY_S)


def test_the_loop_pings_while_a_stick_s_files_are_read(table_at, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    stick = tmp_path / "stick"
    stick.mkdir()
    (stick / "config.toml").write_text("[game]\n" + "k" * 200_000 + " = 1\n")
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", str(stick))
    reading, go_on = threading.Event(), threading.Event()

    def load():         # the stick's files, read only once the test has heard the pings
        reading.set()
        assert go_on.wait(2 * SAFETY_S)
        return load_layers(None)
    heard = Heard()
    table = table_at([3], load=load, notifier=heard)
    loop = table.box.loop
    read = threading.Event()            # the loop has used what was read: its problem shown
    loop.on_frame = lambda view: read.set() if view.header.title == "Settings file" else None
    pinged: list[bool] = []

    def stick_plugged_in() -> None:     # systemd's side, while the loop runs on this thread
        try:
            assert reading.wait(SAFETY_S)
            # The loop goes on while the files are being read: on the loop's own thread the
            # reading would hold it, and no ping would come.
            pinged.append(heard.pings_after(len(heard.messages), 3))
        finally:
            go_on.set()
            read.wait(SAFETY_S)
            loop.put(Stop("test"))
    loop.put(Reload())
    threading.Thread(target=stick_plugged_in, daemon=True).start()
    assert loop.run() == "test"
    assert pinged == [True], heard.messages[-5:]
    assert read.is_set()
    lines = " ".join(table.view.lines)
    assert table.view.header.title == "Settings file"
    assert str(stick / "config.toml") in lines and "game.kkkk" in lines


@pytest.mark.parametrize("screen", ["Settings file", "Card files"])
def test_ok_on_a_problem_screen_pings_while_the_files_are_read(
        table_at, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screen: str) -> None:
    """OK on the settings-file or card-files screen reads the files again, its answer the next
    screen: the loop's thread waits for the reading and pings meanwhile."""
    boot = tmp_path / "boot"
    (boot / "cards").mkdir(parents=True)
    if screen == "Settings file":
        (boot / "config.toml").write_text("[game]\nlanguage = 5\n")
    else:
        (boot / "cards" / "bad.toml").write_text('id = "bad"\nname = 5\n')
    monkeypatch.setenv("COBI_COMPANION_OVERLAYS", str(boot))
    hold, reading, go_on = threading.Event(), threading.Event(), threading.Event()

    def load():         # once OK is pressed: read only when the test has heard the pings
        if hold.is_set():
            reading.set()
            assert go_on.wait(2 * SAFETY_S)
        return load_layers(None)
    heard = Heard()
    table = table_at([3], load=load, notifier=heard)
    table.reload()
    if table.view.header.title == "Settings read again":      # then the cards' problems
        table.press("ok")
    assert table.view.header.title == screen
    pinged: list[bool] = []

    def systemd() -> None:
        try:
            assert reading.wait(SAFETY_S)
            pinged.append(heard.pings_after(len(heard.messages), 3))
        finally:
            go_on.set()
    hold.set()
    if screen == "Card files":       # its OK reads the cards only: hold them instead
        from cobi_companion.device import box as box_module
        real = box_module.card_book

        def held(*args: object, **kwargs: object) -> object:
            reading.set()
            assert go_on.wait(2 * SAFETY_S)
            return real(*args, **kwargs)   # type: ignore[arg-type]
        monkeypatch.setattr(box_module, "card_book", held)
    threading.Thread(target=systemd, daemon=True).start()
    table.press("ok")                  # on this thread, as the loop handles a press
    assert pinged == [True], heard.messages[-5:]
    assert table.view.header.title == screen         # read again: the file is still bad
