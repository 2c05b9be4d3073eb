"""The box on a table: the real app, store, screens and inputs on gpiozero's mock pins,
pressed as fingers would, and the OLED as luma's dummy device."""
from __future__ import annotations

import contextlib
import importlib
import os
import subprocess
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from cobi_companion.device.box import Box, build
from cobi_companion.device.config import Config
from cobi_companion.device.ports.display import MemoryDisplay
from cobi_companion.device.ports.events import Reload
from cobi_companion.device.ports.fake_dice import FakeDice
from cobi_companion.device.ports.fake_sensor import FakeSensor
from cobi_companion.device.ports.mock_pins import StampedFactory
from cobi_companion.device.sim import MockPanel, TapClock, drain
from cobi_companion.rules.dice import ScriptedDice
from PIL import Image, ImageChops

SNAPSHOTS = Path(__file__).parent / "snapshots"
SNAPSHOT_SCALE = 4
# Most of the tests' battles are Tank Game battles: their box's Rules setting is the Tank Game
# (a new box starts at the Easy level). Their holds are short (0.2 s; the shortest the config
# allows is 0.1 s) from the days a thread timed them in real time; a table's holds now pass on
# its tap clock, as its gaps do.
QUICK_HOLDS = Config.model_validate({"buttons": {"hold_s": 0.2}, "encoder": {"long_press_s": 0.2},
                                     "game": {"rules": "tank"}})
# The same box with its Rules setting at the Easy level: New battle opens the Easy roster.
EASY = replace(QUICK_HOLDS, game=replace(QUICK_HOLDS.game, rules="easy"))


def your_table(config: Config | None = None) -> Config:
    """The box (QUICK_HOLDS by default) whose new battles take "your table" for fire at soft
    targets (house rule soft_table=printed): a value the table lacks is asked for."""
    config = config or QUICK_HOLDS
    return replace(config, house_rules={**config.house_rules, "soft_table": "printed"})


def tap_pins() -> StampedFactory:
    """Mock pins for a Table, their edges stamped by a still tap clock of their own: only the
    finger's gaps and holds move it, however long the machine takes between two edges."""
    return StampedFactory(TapClock(still=True))


class Table:
    """A box on mock pins with a finger to press it."""

    def __init__(self, state_dir: Path, dice: list[int], config: Config | None = None,
                 factory: StampedFactory | None = None, **parts: Any) -> None:
        # A finger's gaps and holds pass on the tap clock, which the pins' edges are stamped
        # with, without a sleep.
        self.factory = factory or tap_pins()
        clock = self.factory.clock
        assert isinstance(clock, TapClock), "a table's pins read a tap clock"
        self.config = config or QUICK_HOLDS
        self.display = MemoryDisplay()
        # A table's box never reaches for the machine's Bluetooth: the real adapter's answers
        # (none here) come on its own thread whenever they come, and a screen would depend on
        # when. Its dice are the virtual ones (tests/device/ports test the real adapter).
        parts.setdefault("smart", FakeDice)
        self.box: Box = build(self.config, self.display, pin_factory=self.factory,
                              dice=ScriptedDice(dice), state_dir=state_dir, input_clock=clock,
                              **parts)
        self.panel = MockPanel(self.factory, self.config, clock)
        self.box.loop.draw()

    def press(self, *words: str) -> None:
        """Press as a player would, each press handled and its animations played out."""
        for word in words:
            self.panel.act(word)
            drain(self.box)

    def tap(self, word: str) -> None:
        """One press handled at once, with no time passing after it (a result still tumbling,
        steps not yet played)."""
        self.panel.act(word)
        loop = self.box.loop
        while not loop.events.empty():
            loop.step(loop.events.get_nowait())

    @property
    def steps(self) -> list[Any]:
        """The views of the result on the screen (its steps and outcome)."""
        screen: Any = self.box.app.screen         # a result's screen
        return list(screen.views)

    def to_card(self, name: str) -> None:
        """Turn the roster's knob to the card called `name` (its full name)."""
        roster: Any = self.box.app.screen
        rows = roster.rows(self.box.app)
        wanted = next(i for i, (kind, card) in enumerate(rows)
                      if kind == "card" and card.name == name)
        while self.view.index != wanted:
            self.press("cw")

    def choose(self, item: str) -> None:
        """Turn the knob to the menu item that starts with `item`, and press OK."""
        wanted = next(i for i, text in enumerate(self.view.items) if text.startswith(item))
        while self.view.index != wanted:
            self.press("cw")
        self.press("ok")

    def serve(self, until: Callable[[], bool], timeout: float = 120.0) -> None:
        """Let events from other threads (a range sensor) reach the app, as the main loop
        does, until `until()`."""
        end = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < end, f"still on {self.view}"
            event = self.box.loop.wait(0.05)
            if event is not None:
                self.box.loop.step(event)

    def reload(self) -> None:
        """SIGHUP: the settings and the cards read again (on a thread of the box's), and the
        result used, as the main loop does."""
        self.box.loop.step(Reload())
        self.serve(lambda: not self.box.reading)

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
             config: Config | None = None, **parts: Any) -> Table:
        made.append(Table(state_dir, dice, config, **parts))
        return made[-1]
    yield make
    for table in made:
        table.close()


@pytest.fixture
def sensors() -> Iterator[list[FakeSensor]]:
    """Fake range sensors a test starts (append them); closed after it."""
    made: list[FakeSensor] = []
    yield made
    for sensor in made:
        sensor.close()


def compare_snapshot(name: str, image: Image.Image) -> None:
    """Compare a 128×64 frame with snapshots/<name>.png (stored at 4× scale). A missing
    snapshot, or any when UPDATE_SNAPSHOTS=1, is written and the test skipped; a mismatch
    fails and writes <name>.actual.png beside it."""
    width, height = image.size
    big = image.resize((width * SNAPSHOT_SCALE, height * SNAPSHOT_SCALE),
                       Image.Resampling.NEAREST)
    path, actual = SNAPSHOTS / f"{name}.png", SNAPSHOTS / f"{name}.actual.png"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        big.save(path)
        pytest.skip(f"snapshot written: {path}; look at it, then run again to compare")
    with Image.open(path) as stored:
        expected = stored.convert("1").resize((width, height), Image.Resampling.NEAREST)
    diff = ImageChops.logical_xor(image.convert("1"), expected).histogram()[255]
    if diff:
        big.save(actual)
        pytest.fail(f"{name}: {diff} pixels differ from {path.name}; see {actual.name}")
    actual.unlink(missing_ok=True)


@pytest.fixture
def snapshot() -> Callable[[str, Image.Image], None]:
    """`snapshot(name, image)`: the frame must match tests/device/snapshots/<name>.png."""
    return compare_snapshot


@pytest.fixture(scope="session")
def tour() -> ModuleType:
    """tour.py, the tour of the box (its guide and what the tests look at)."""
    return importlib.import_module("tour")


def tour_folder(factory: pytest.TempPathFactory, language: str) -> Path:
    """The tour's folder in `language`, at the path a run without xdist gives it. The tour
    shows its paths (the files in use), whose length moves the guide's scrolling and so its
    path: in a worker's longer temporary folder (.../popen-gw0/) it would go elsewhere."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / f"tour-{language}0"         # as factory.mktemp(f"tour-{language}")
    folder.mkdir()                  # one process takes each language's tour (xdist_group)
    return folder


class Tours(Mapping[str, Any]):
    """The tour of the box in each language, a language taken when a test first reads it and
    kept for the process (TAKEN). A test reads only the languages of its xdist groups
    (tour.in_language): each language's tests share one worker, which alone takes that
    language's tour, while the other language's run on the other worker."""

    def __init__(self, factory: pytest.TempPathFactory, allowed: frozenset[str]) -> None:
        self.factory, self.allowed = factory, allowed

    def __getitem__(self, language: str) -> Any:
        tour = importlib.import_module("tour")
        if language not in tour.LANGUAGES:
            raise KeyError(language)
        if language not in self.allowed:
            raise AssertionError(
                f"this test reads the {language!r} tour outside its xdist group "
                f"({sorted(self.allowed) or 'none'}): mark it tour.in_language({language!r}) "
                f"(tour.each_language() for a test of every language)")
        if language not in TAKEN:
            TAKEN[language] = take_tour(self.factory, language)
        return TAKEN[language]

    def __iter__(self) -> Iterator[str]:
        return iter(importlib.import_module("tour").LANGUAGES)

    def __len__(self) -> int:
        return len(importlib.import_module("tour").LANGUAGES)


@pytest.fixture
def taken_tour(request: pytest.FixtureRequest,
               tmp_path_factory: pytest.TempPathFactory) -> Tours:
    """The tour of the box (tour.py, its journeys in journeys/) in each language the test's
    xdist groups name, taken once a process for all the tests that ask: each language a
    Taken, with every frame drawn and what the boxes said. Once a process, not a session
    fixture: an xdist worker may tear its session's fixtures down between two batches of
    tests and set them up again."""
    groups = {str(mark.args[0]) for mark in request.node.iter_markers("xdist_group")
              if mark.args}
    tour = importlib.import_module("tour")
    return Tours(tmp_path_factory, frozenset(language for language in tour.LANGUAGES
                                             if tour.group_of(language) in groups))


# The tour taken in this process, by language (Tours).
TAKEN: dict[str, Any] = {}


def take_tour(tmp_path_factory: pytest.TempPathFactory, language: str) -> Any:
    """The tour in `language`, in its own folder, with the cards, settings and data of its
    own."""
    journeys = importlib.import_module("journeys")
    tour = importlib.import_module("tour")
    made: list[Table] = []

    def make(dice: list[int], state_dir: Path, config: Config | None = None,
             **parts: Any) -> Table:
        made.append(Table(state_dir, dice, config, **parts))
        return made[-1]
    folder = tour_folder(tmp_path_factory, language)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COBI_COMPANION_CARDS", str(tour.long_cards(folder / "cards", language)))
        patch.setenv("COBI_COMPANION_OVERLAYS", "")
        patch.setenv("XDG_CONFIG_HOME", str(folder / "config"))
        patch.setenv("XDG_DATA_HOME", str(folder / "data"))
        try:
            return journeys.take_tour(make, folder, language)
        finally:
            for table in made:
                table.close()


@pytest.fixture
def tour_frames(taken_tour: Tours) -> Mapping[str, list[Any]]:
    """Every frame of the tour in each language of the test's groups: ["en"] is [Seen, ...]."""
    return Frames(taken_tour)


class Frames(Mapping[str, list[Any]]):
    """The frames of each language's tour (Tours), the tour taken when first read."""

    def __init__(self, tours: Tours) -> None:
        self.tours = tours

    def __getitem__(self, language: str) -> list[Any]:
        return list(self.tours[language].seen)

    def __iter__(self) -> Iterator[str]:
        return iter(self.tours)

    def __len__(self) -> int:
        return len(self.tours)


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder` remounted read-only, as an SD card the kernel found errors on (skips where
    bind mounts are not allowed)."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot bind-mount here: {exc}")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)
