"""Put the box together from its config: the store, the app, the display, sound, lights and
the inputs, around the one main loop. The same assembly serves the Pi and the simulator."""
from __future__ import annotations

import importlib
import itertools
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cobi_companion.cards import CardBook, default_folders, load_cards
from cobi_companion.rules.dice import Dice, RandomDice

from . import i18n
from .app import App, Settings
from .config import Config
from .daemon import Display, Loop
from .inputs import Inputs
from .notify import Notifier
from .range_reader import Sensors, reader_for
from .screens import render, warm_up
from .sound import BuzzerSound, Lights, RecordingLights, RecordingSound
from .store import DATABASE_NAME, SqliteStore
from .widgets import notice

log = logging.getLogger("cobi-companion")


@dataclass
class Box:
    loop: Loop
    app: App
    inputs: Inputs
    store: SqliteStore
    parts: list[Any]

    def close(self) -> None:
        for part in [self.inputs, *self.parts]:
            try:
                part.close()
            except Exception:  # closing one part must not stop closing the others
                log.exception("closing %s", part)
        self.store.close()


def card_book(config: Config) -> CardBook:
    book = load_cards(default_folders(config.paths.cards_dir))
    for problem in book.problems:
        log.warning("card file skipped: %s", problem)
    return book


def settings_from(config: Config, saved: dict[str, Any]) -> Settings:
    settings = Settings(language=config.game.language, rules=config.game.rules,
                        real_dice=config.game.real_dice, sound=config.game.sound,
                        brightness=config.display.contrast)
    for key, value in saved.items():
        if hasattr(settings, key):
            setattr(settings, key, value)
    return settings


# Screen modules the flow imports only when a game first needs them (they import the flow
# back): imported while the box is idle, so that no press waits for an import.
LATER_SCREENS = ("tank_turn", "tank_fire", "overrun_box")


def warm_up_for(app: App) -> Iterator[bool]:
    """The glyphs and outcome words of the box's language, drawn ahead while it is idle, and
    the screens that are imported late."""
    language = app.settings.language
    names = [text for card in app.book.sorted() for text in (card.name, card.short)]
    words = i18n.outcome_words(language)
    sides = [i18n.text(language, side) for side in ("axis", "allies")]
    glyphs = warm_up([*i18n.every_text(language), *names, "0123456789%+-−=·→(),.:"],
                     [*words, *sides, "0123456789 =+-−:cm"], words)
    return itertools.chain(glyphs, _import_ahead(LATER_SCREENS))


def _import_ahead(modules: tuple[str, ...]) -> Iterator[bool]:
    for module in modules:
        importlib.import_module(f".{module}", __package__)
        yield True


def range_sensors(config: Config, put: Callable[[Any], None]) -> Sensors:
    """A reader per [[sensors]] table, putting its readings on the main loop's queue."""
    return Sensors({sensor.name: (reader_for(sensor, put), sensor) for sensor in config.sensors})


def build(config: Config, display: Display, *, pin_factory: Any = None,
          dice: Dice | None = None, state_dir: Path | None = None,
          notifier: Notifier | None = None) -> Box:
    folder = state_dir or config.paths.state_dir
    store = SqliteStore(folder / DATABASE_NAME)
    settings = settings_from(config, store.settings())
    sound: Any = RecordingSound()
    if config.buzzer.pin is not None:
        sound = BuzzerSound(config.buzzer.pin, settings.sound, pin_factory=pin_factory)
    lights: Any = RecordingLights()
    if config.leds.axis is not None or config.leds.allies is not None:
        lights = Lights(config.leds.axis, config.leds.allies, pin_factory=pin_factory)
    app = App(card_book(config), store, dice or RandomDice(), sound, lights, settings)
    app.card_folders = default_folders(config.paths.cards_dir)
    if store.problem:
        log.error("%s", store.problem)
        first = app.screen
        app.screen = notice(app, app.t("cannot_save"), [store.problem], lambda: first)

    def changed(new: Settings) -> None:
        store.save_settings(new.to_dict())
        sound.enabled = new.sound
        display.brightness(new.brightness)
    app.on_settings = changed
    loop = Loop(app, display, render, notifier=notifier,
                dim_after_s=config.display.dim_after_min * 60, warm_up=warm_up_for(app))
    app.sensors = range_sensors(config, loop.put).start()
    buttons, encoder = config.buttons, config.encoder
    inputs = Inputs(loop.put, buttons.axis, buttons.allies, encoder.a, encoder.b, encoder.button,
                    bounce_s=buttons.bounce_s, hold_s=buttons.hold_s,
                    long_press_s=encoder.long_press_s, pin_factory=pin_factory)
    return Box(loop, app, inputs, store, [app.sensors, sound, lights, display])
