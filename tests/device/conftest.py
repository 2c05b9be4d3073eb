"""The box on a table: the real app, store, screens and inputs on gpiozero's mock pins,
pressed as fingers would, and the OLED as luma's dummy device."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.device.box import Box, build
from cobi_companion.device.config import Config
from cobi_companion.device.display import MemoryDisplay
from cobi_companion.device.sim import MockPanel, drain
from cobi_companion.rules.dice import ScriptedDice
from gpiozero.pins.mock import MockFactory, MockPWMPin


class Table:
    """A box on mock pins with a finger to press it."""

    def __init__(self, state_dir: Path, dice: list[int], config: Config | None = None) -> None:
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.config = config or Config()
        self.display = MemoryDisplay()
        self.box: Box = build(self.config, self.display, pin_factory=self.factory,
                              dice=ScriptedDice(dice), state_dir=state_dir)
        self.panel = MockPanel(self.factory, self.config)
        self.box.loop.draw()

    def press(self, *words: str) -> None:
        for word in words:
            self.panel.act(word)
            drain(self.box)

    def serve(self, until: Callable[[], bool], timeout: float = 8.0) -> None:
        """Let events from other threads (a range sensor) reach the app, as the main loop
        does, until `until()`."""
        end = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < end, f"still on {self.view}"
            event = self.box.loop.wait(0.05)
            if event is not None:
                self.box.loop.step(event)

    @property
    def view(self) -> Any:
        return self.box.app.view()

    def close(self) -> None:
        self.box.close()
        self.factory.reset()


@pytest.fixture
def table_at(tmp_path: Path) -> Iterator[Callable[..., Table]]:
    made: list[Table] = []

    def make(dice: list[int], state_dir: Path = tmp_path / "state",
             config: Config | None = None) -> Table:
        made.append(Table(state_dir, dice, config))
        return made[-1]
    yield make
    for table in made:
        table.close()
