"""The box's state machine: the current screen, the battle, the settings, and the services it
drives (store, sound, lights). Events in, a view out; the daemon draws the view."""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cobi_companion.cards import CardBook
from cobi_companion.rules.dice import Dice
from cobi_companion.rules.status import Side

from . import i18n
from .battle_state import BattleState
from .events import Event, Press, SensorReading, SensorState, Tick
from .range_reader import Sensors
from .store import Store
from .views import Header, View
from .widgets import Screen

if TYPE_CHECKING:
    from cobi_companion.rules.cobra_tables import CobraTables

    from .cobra_box import CobraSession

log = logging.getLogger("cobi-companion")


class Sound(Protocol):
    def play(self, cue: str) -> None: ...


class Lights(Protocol):
    def flash(self, side: str, times: int = 3) -> None: ...


@dataclass(frozen=True)
class Sources:
    """Where the box's settings and cards came from, for the settings screen: the config files
    applied in order, the card folders read, and the files skipped with their problems."""

    files: tuple[Path, ...] = ()
    card_folders: tuple[Path, ...] = ()
    skipped: tuple[str, ...] = ()


@dataclass
class Settings:
    language: str = "en"
    rules: str = "tank"
    real_dice: bool = False
    sound: bool = True
    brightness: int = 255
    screen_off_min: int = 10       # idle minutes before the panel goes dark; 0 never

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class App:
    def __init__(self, book: CardBook, store: Store, dice: Dice, sound: Sound, lights: Lights,
                 settings: Settings) -> None:
        self.book, self.store, self.dice = book, store, dice
        self.sound, self.lights, self.settings = sound, lights, settings
        self.cobra: CobraSession | None = None         # a Cobra game, instead of a battle
        self.cobra_tables: CobraTables | None = None   # the owner's Cobra tables, read once
        self.card_folders: list[Path] | None = None    # where the cards (and tables) are
        self.state: BattleState | None = self._load()
        self.rolls: list[tuple[str, str, int]] = []
        self.on_settings: Callable[[Settings], None] = lambda s: None
        # Set by the settings menu ("poweroff" or "reboot"); the main loop saves and acts on it,
        # and goes back to `screen_before_power` with the reason if it cannot.
        self.power_request: str | None = None
        self.screen_before_power: Screen | None = None
        # What the settings screen lists as in use: config files, card folders, problems.
        self.sources: Sources = Sources()
        self.sensors = Sensors()
        from .flow import start_menu

        self.screen: Screen = start_menu(self)

    def _load(self) -> BattleState | None:
        try:
            data = self.store.load_battle()
            if data and data.get("game") == "cobra":
                from .cobra_box import CobraSession  # Cobra's modules load when needed

                self.cobra = CobraSession.from_dict(data)
                return None
            return BattleState.from_dict(data, self.book) if data else None
        except Exception as exc:  # a saved battle from other cards or an older version
            log.error("the saved battle could not be resumed: %s", exc)
            self.store.clear_battle()
            return None

    # --- what the screens use ---

    def t(self, key: str, **values: object) -> str:
        return i18n.text(self.settings.language, key, **values)

    def side_name(self, side: Side | str) -> str:
        return self.t(side.value if isinstance(side, Side) else side)

    def header(self, title: str) -> Header:
        state = self.state
        if state is None or state.active is None:
            return Header(title, state.round if state else None)
        return Header(title, state.round, state.active.value, self.side_name(state.active))

    def roll(self, purpose: str, side: str) -> int:
        face = self.dice.roll(purpose)
        self.rolls.append((side, purpose, face))
        return face

    def dice_for(self, side: str) -> Dice:
        """A dice source for a rule that rolls several dice for one side, each one logged."""
        return _SideDice(self, side)

    def record(self, face: int, purpose: str, side: str) -> None:
        self.rolls.append((side, purpose, face))

    def cue(self, name: str, side: str | None = None) -> None:
        if self.settings.sound:
            self.sound.play(name)
        if side:
            self.lights.flash(side)

    def commit(self, line: str | None = None) -> None:
        """Save the battle (or the Cobra game) after a completed action, with the rolls it
        made; outside a battle, save the rolls alone."""
        game = self.state or self.cobra
        if game is None:
            if self.rolls:
                self.store.save_rolls(self.rolls)
                self.rolls = []
            return
        if line:
            game.log.append(line)
            log.info("battle %s: %s", game.id, line)
        self.store.save_battle(game.to_dict(), self.rolls)
        self.rolls = []

    def menu(self, back: Screen) -> Screen:
        from .flow import battle_menu

        return battle_menu(self, back)

    # --- events in, view out ---

    def log_line(self, line: str) -> None:
        """A line for the battle's log (saved with the next completed action) and the journal."""
        if self.state is not None:
            self.state.log.append(line)
        log.info("%s", line)

    def handle(self, event: Event) -> None:
        if isinstance(event, SensorState):
            self.sensors.update(event)
        if isinstance(event, SensorReading | SensorState):
            on_sensor = getattr(self.screen, "on_sensor", None)
            if on_sensor is not None:
                self.screen = on_sensor(self, event)
        elif isinstance(event, Press):
            self.screen = self.screen.on(self, event.key)
        elif isinstance(event, Tick):
            tick = getattr(self.screen, "tick", None)
            if tick is not None:
                self.screen = tick(self, event.now)

    def view(self) -> View:
        return self.screen.view(self)


class _SideDice:
    def __init__(self, app: App, side: str) -> None:
        self.app, self.side = app, side

    def roll(self, purpose: str) -> int:
        return self.app.roll(purpose, self.side)
