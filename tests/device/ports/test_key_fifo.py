"""The box's test input ([test] keys_fifo, screen_file) and its mock pins ([pins] factory): a
real FIFO, the real box built from settings files, its loop's queue read as the loop reads it."""
from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cobi_companion.device.box import Box, build
from cobi_companion.device.config import Config, load_config
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.errors import ConfigError
from cobi_companion.device.ports.events import Event, Key, Press
from cobi_companion.device.ports.key_fifo import KeyFifo, ScreenFile
from cobi_companion.device.ports.speech import NoSpeech
from gpiozero.pins.mock import MockFactory, MockPWMPin
from waiting import HANG_S

HARDWARE_CONFIG = Path(__file__).parents[3] / "hardware" / "config.toml"


@contextmanager
def box_of(tmp_path: Path, text: str) -> Iterator[Box]:
    """A box built from the settings `text`, closed when the block ends."""
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    box = build(load_config(path), MemoryDisplay(), state_dir=tmp_path / "state",
                pin_factory=MockFactory(pin_class=MockPWMPin), speech=NoSpeech())
    try:
        yield box
    finally:
        box.close()


def write_fifo(path: Path, data: bytes) -> None:
    # Not blocking: the box holds the FIFO open for reading, so a writer opens at once.
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def test_off_by_default_in_the_defaults_and_the_shipped_file(tmp_path: Path) -> None:
    assert Config().test.keys_fifo is None and Config().test.screen_file is None
    assert load_config(HARDWARE_CONFIG).test == Config().test
    with box_of(tmp_path, HARDWARE_CONFIG.read_text(encoding="utf-8")) as box:
        assert not [part for part in box.parts if isinstance(part, KeyFifo)]
        box.loop.draw()
        made = [path.name for path in tmp_path.rglob("*")
                if stat.S_ISFIFO(path.lstat().st_mode) or "screen" in path.name]
        assert made == []


def test_keys_written_to_the_fifo_are_presses_on_the_main_loop(tmp_path: Path) -> None:
    fifo = tmp_path / "keys"
    with box_of(tmp_path, f'[test]\nkeys_fifo = "{fifo}"\n') as box:
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
        assert stat.S_IMODE(os.lstat(fifo).st_mode) == 0o600
        # Garbage first: refused, and the reader goes on to the keys after it.
        write_fifo(fifo, b"\xff\x00 rm -rf /\ncw, OK\naxis_long\n")
        got = [box.loop.events.get(timeout=HANG_S) for _ in range(3)]
        assert got == [Press(Key.CW), Press(Key.OK), Press(Key.AXIS_LONG)]
        # As the loop handles a knob's press: the start menu's cursor moved.
        before = box.app.view()
        box.loop.step(Press(Key.CW))
        assert box.app.view() != before
    assert not fifo.exists()          # taken away with the box


def test_a_line_with_a_word_that_is_no_key_presses_nothing_and_is_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    got: list[Event] = []
    reader = KeyFifo(tmp_path / "keys", got.append)
    try:
        write_fifo(reader.path, b"cw jump ok\n\xff\xfe\x00\nwait 100\nok\nallies")
        with caplog.at_level(logging.WARNING, logger="cobi-companion"):
            reader.pump()
        assert got == [Press(Key.OK)]       # "allies" has no line end yet: it waits
        refused = [r.getMessage() for r in caplog.records]
        assert len(refused) == 3 and "'jump' is not a key" in refused[0]
        assert "'wait' is not a key" in refused[2]
        write_fifo(reader.path, b"\n" + b"x" * 5000)
        reader.pump()                        # the line ends now; a line too long is dropped
        assert got == [Press(Key.OK), Press(Key.ALLIES)] and reader.pending == b""
    finally:
        reader.close()


def test_a_file_in_the_fifos_place_is_left_and_the_box_plays_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    taken = tmp_path / "keys"
    taken.write_text("mine", encoding="utf-8")
    with caplog.at_level(logging.ERROR, logger="cobi-companion"), \
            box_of(tmp_path, f'[test]\nkeys_fifo = "{taken}"\n') as box:
        assert taken.read_text(encoding="utf-8") == "mine"
        assert any("is not a FIFO" in r.getMessage() for r in caplog.records)
        assert box.inputs is not None


def test_the_screen_file_has_each_frame_as_text(tmp_path: Path) -> None:
    screen = tmp_path / "screen.txt"
    with box_of(tmp_path, f'[test]\nscreen_file = "{screen}"\n') as box:
        box.loop.draw()
        first = screen.read_text(encoding="utf-8")
        assert "New battle" in first and "> " in first
        box.loop.step(Press(Key.CW))
        assert screen.read_text(encoding="utf-8") != first


def test_a_screen_file_that_cannot_be_written_is_logged_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    screen = ScreenFile(tmp_path / "missing" / "screen.txt")
    with caplog.at_level(logging.ERROR, logger="cobi-companion"):
        screen.write(["one"])
        screen.write(["two"])
    assert len(caplog.records) == 1 and "not written" in caplog.records[0].getMessage()


def test_relative_test_paths_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[test]\nkeys_fifo = "keys"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert "line 2: test.keys_fifo" in str(error.value)


def test_mock_pins_from_the_settings(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[pins]\nfactory = "mock"\n', encoding="utf-8")
    config = load_config(path)
    assert config.pins.factory == "mock" and Config().pins.factory == "real"
    box = build(config, MemoryDisplay(), state_dir=tmp_path / "state", speech=NoSpeech())
    try:
        assert isinstance(box.pin_factory, MockFactory)
        assert box.inputs is not None and not box.pin_problem
    finally:
        box.close()
