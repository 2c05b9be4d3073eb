"""Put the box together from its config: the store, the app, the display, sound, lights and
the inputs, around the one main loop. The same assembly serves the Pi and the simulator."""
from __future__ import annotations

import importlib
import importlib.util
import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, get_args

from cobi_companion.cards import CardBook, default_folders, learned_file
from cobi_companion.cards import card_book as cards_in_play
from cobi_companion.cards.snapshot import snapshot_file
from cobi_companion.device.boot import default_state_dir, panel_of, title_view
from cobi_companion.device.config import Config, Loaded, Remind, Rules, Speed, Voice
from cobi_companion.device.core import i18n, paired_dice
from cobi_companion.device.core.app import CONFIG_ONLY, App, Next, Screen, Settings, Sources
from cobi_companion.device.core.draws import Numbered, SecretDice
from cobi_companion.device.core.loop import Loop
from cobi_companion.device.core.setting_values import DICE_SOURCES
from cobi_companion.device.games.home import GAMES
from cobi_companion.device.ports.errors import ConfigError, StickError, reason
from cobi_companion.device.ports.events import DieEvent, Done, Stop
from cobi_companion.device.ports.inputs import Inputs, PinProblem
from cobi_companion.device.ports.notify import Notifier
from cobi_companion.device.ports.pin_factory import mock_pins, use_named_factory
from cobi_companion.device.ports.power import Power
from cobi_companion.device.ports.safe_text import printable
from cobi_companion.device.ports.sensors import Sensors
from cobi_companion.device.ports.smart_dice import NoSmartDice, SmartDice
from cobi_companion.device.ports.sound import BuzzerSound, Lights, NoLights, NoSound
from cobi_companion.device.ports.speech import NoSpeech, Speech
from cobi_companion.device.ports.store import (
    DATABASE_NAME,
    BadRow,
    MemoryStore,
    SqliteStore,
    Store,
)
from cobi_companion.device.ui import atlas
from cobi_companion.device.ui.glyphs import SIGNS
from cobi_companion.device.ui.renderer import pages, shared, warm_up
from cobi_companion.device.ui.trouble import Trouble, card_problems, notice, store_problems
from cobi_companion.rules.dice import Dice
from cobi_companion.words import languages

log = logging.getLogger("cobi-companion")
T = TypeVar("T")
Read = tuple[Loaded, CardBook]      # the settings files and the cards, read again


# The snapshots of what the checks made of the settings and card files (cards/snapshot.py): the
# box reads them at each start, checking the files (with pydantic) only when one has changed.
CONFIG_SNAPSHOT, CARDS_SNAPSHOT = "box-config", "box-cards"


def card_book(config: Config, learned: Path | None = None) -> CardBook:
    """The cards of the config's folders, with the Soft Targets Table's values the box
    learned at the table (the `learned` file in its state folder) under their table; from
    the snapshot of the last check while none of the files has changed."""
    book = cards_in_play(default_folders(config.paths.cards_dir), learned,
                         snapshot_file(CARDS_SNAPSHOT))
    for problem in book.problems:    # the simulator's log is on a terminal: no ESC of a file's
        log.warning("card file skipped: %s", printable(str(problem)))
    return book


def players_choices(settings: Settings, config: Config) -> dict[str, Any]:
    """The settings to save: those the settings files do not give as they are. A value the
    files give is left to the files, so that a file changed later (the USB stick put in or
    taken out) still counts: saving all of them once made every later file change unseen."""
    files = settings_from(config, {}).to_dict()
    return {key: value for key, value in settings.to_dict().items()
            if key not in CONFIG_ONLY and files.get(key) != value}


# The values a setting saved on the box may take (a row of another kind or value is not
# used: the setting comes from the files): the type of its default, and these words.
SETTING_WORDS: dict[str, Callable[[], tuple[object, ...]]] = {
    "language": languages.codes,        # asked each time: a test may add a language
    "rules": lambda: get_args(Rules), "voice": lambda: get_args(Voice),
    "speed": lambda: get_args(Speed),
    "remind_s": lambda: get_args(Remind)}
SETTING_RANGES = {"volume": (0, 100), "brightness": (0, 255), "screen_off_min": (0, 24 * 60)}


def setting_problem(name: str, value: object) -> str | None:
    """Why a saved setting's value cannot be used, or None."""
    default = getattr(Settings(), name)
    if type(value) is not type(default):
        return f"{type(value).__name__}, not {type(default).__name__}"
    words = SETTING_WORDS[name]() if name in SETTING_WORDS else None
    if words is not None and value not in words:
        return f"{str(value)[:40]!r} is not one of {', '.join(map(str, words))}"
    low, high = SETTING_RANGES.get(name, (None, None))
    if isinstance(value, int) and low is not None and high is not None \
            and not low <= value <= high:
        return f"{value} is not from {low} to {high}"
    if name == "dice" and isinstance(value, dict) and not all(
            side in BUTTON_SIDES and source in DICE_SOURCES for side, source in value.items()):
        return f"not a source ({', '.join(DICE_SOURCES)}) for axis and allies"
    if name == "armies" and isinstance(value, dict) and not all(
            isinstance(level, str) and isinstance(pieces, list)
            and all(isinstance(piece, dict) for piece in pieces)
            for level, pieces in value.items()):
        return "not lists of pieces by level"
    return None


def usable_settings(store: Store) -> dict[str, Any]:
    """The settings saved on the box that can be used; each other row is reported once (the
    store's `bad_rows`: the journal, and the files in use on the settings screen)."""
    usable: dict[str, Any] = {}

    def bad(key: str, why: str) -> None:
        if isinstance(store, SqliteStore | MemoryStore):
            store.bad_row(BadRow("settings", key, why))
    for name, value in store.settings().items():
        known = name in Settings.__dataclass_fields__ and name not in CONFIG_ONLY
        why = setting_problem(name, value) if known else None
        if why is None and name == "smart_dice":        # a bad die's row costs no other
            value, dice_bad = paired_dice.usable(value)
            for die, die_why in dice_bad:
                bad(f"smart_dice.{die}", die_why)
        if why is None:
            usable[name] = value
        else:
            bad(name, why)
    return usable


def settings_from(config: Config, saved: dict[str, Any]) -> Settings:
    settings = Settings(language=config.game.language, rules=config.game.rules,
                        dice=files_dice(config), sound=config.game.sound,
                        voice=config.game.voice, volume=config.game.volume,
                        speed=config.game.speed,
                        remind_s=config.game.remind_s,
                        brightness=config.display.contrast,
                        screen_off_min=config.display.off_after_min,
                        house_rules=dict(config.house_rules))
    if saved.get("real_dice") is True and "dice" not in saved:
        # saved by a box of the one Real dice switch: real dice, dialled, on both sides
        settings.dice = {side: "dial" for side in BUTTON_SIDES}
    for key, value in saved.items():
        if hasattr(settings, key) and key not in CONFIG_ONLY:
            setattr(settings, key, value)
    return settings


BUTTON_SIDES = ("axis", "allies")


def files_dice(config: Config) -> dict[str, str]:
    """Each side's dice source as the files give it: its own `dice_` key; one left at the
    buttons is real dice, dialled, where the old `real_dice` switch is on."""
    game = config.game

    def source(given: str) -> str:
        return "dial" if given == "buttons" and game.real_dice else given
    return {"axis": source(game.dice_axis), "allies": source(game.dice_allies)}


# The games' screens and the rules behind them, which the start menu and the games' table import
# only when a row first needs them: imported while the box is idle after its first frame, so that
# neither the start menu nor a press waits for them. One module a step, each after the modules it
# imports (tests/device/test_start_imports.py checks the order): a step is one module's own code,
# so that a knob turned meanwhile waits for little (a whole screen's imports are ~50 ms here and
# most of a second on a Pi Zero).
LATER_MODULES = GAMES.registry.warm_up        # each game's (games/registry.py)


def warm_up_for(app: App) -> Iterator[bool]:
    """While the box is idle: the screens that are imported late (first: the first press of a
    battle needs them), the cards' readiness the roster shows, the Soft Targets Table, then the
    glyphs and outcome words of the box's language drawn ahead (the glyph atlas written again
    if any was drawn that it lacked)."""
    language = app.settings.language
    names = [text for card in app.book.sorted()
             for text in (card.name_in(language), card.short_in(language))]
    words = [*i18n.outcome_words(language), title_view().word]     # and the title's
    sides = [i18n.text(language, side) for side in ("axis", "allies")]
    glyphs = warm_up([*i18n.every_text(language), *names, SIGNS],
                     [*words, *sides, "0123456789 =+-−:cm"], words)
    return itertools.chain(_import_ahead(LATER_MODULES), _ready_ahead(app), _table_ahead(app),
                           atlas.drawn_ahead(glyphs))


def _import_ahead(modules: tuple[str, ...]) -> Iterator[bool]:
    for module in modules:
        importlib.import_module(f"cobi_companion.{module}")
        yield True


def _ready_ahead(app: App) -> Iterator[bool]:
    """The roster's readiness of each card (games/roster.ready_ahead), once the roster is
    imported: its first frame shows them all."""
    from cobi_companion.device.games.roster import ready_ahead

    yield from ready_ahead(app)


def _table_ahead(app: App) -> Iterator[bool]:
    """The Soft Targets Table made from its snapshot (which the book does when it is first
    read), so that the first fire at soft targets does not wait for it."""
    _ = app.book.table
    yield True


def range_sensors(config: Config, put: Callable[[Any], None]) -> Sensors:
    """A reader per [[sensors]] table, putting its readings on the main loop's queue."""
    if not config.sensors:
        return Sensors()
    # The readers and their parsers load only for a box with sensors.
    from cobi_companion.device.ports.range_reader import reader_for

    return Sensors({sensor.name: (reader_for(sensor, put), sensor) for sensor in config.sensors})


def smart_dice_port(config: Config, put: Callable[[DieEvent], None]) -> SmartDice:
    """The smart dice port of the config's [smart_dice]: none when switched off, the
    simulator's virtual dice ("fake"), else the Pi's Bluetooth, made when first needed (a box
    with none paired never loads it). Without bleak the box plays on with the buttons."""
    setup = config.smart_dice
    if not setup.enabled:
        return NoSmartDice()
    if setup.adapter == "fake":
        from cobi_companion.device.ports.fake_dice import FakeDice

        return FakeDice(put)
    from cobi_companion.device.ports.late_dice import NO_BLEAK, LateDice

    if importlib.util.find_spec("bleak") is None:
        log.warning("smart dice off: %s", NO_BLEAK)
        return NoSmartDice(NO_BLEAK)

    def bluetooth() -> SmartDice:
        from cobi_companion.device.ports.ble_dice import BleDice

        return BleDice(put)
    return LateDice(bluetooth)


PIN_RETRY_S = 3.0     # how often controls whose pins failed are tried again
Load = Callable[[], "Loaded"]


def hardware_of(config: Config) -> dict[str, Any]:
    """What cannot change while the box runs (pins, panel, sensors, where it saves): a new
    value takes a restart."""
    plain = config.to_plain()
    fixed = {key: plain[key] for key in ("buttons", "encoder", "buzzer", "leds", "sensors",
                                         "paths", "pins", "smart_dice", "test")}
    return fixed | {"panel": panel_of(config.display)}


def make_sound(config: Config, settings: Settings, pin_factory: Any,
               off: list[tuple[str, str]]) -> Any:
    """The buzzer, or silence when it is not fitted or its pin fails (said in `off`)."""
    if config.buzzer.pin is None:
        return NoSound()
    try:
        return BuzzerSound(config.buzzer.pin, settings.sound, pin_factory=pin_factory)
    except Exception as exc:   # an optional part: the box plays on without it
        log.warning("buzzer on GPIO %s switched off: %s", config.buzzer.pin, reason(exc))
        off.append(("buzzer", f"GPIO {config.buzzer.pin}: {reason(exc)}"))
        return NoSound()


def make_lights(config: Config, pin_factory: Any, off: list[tuple[str, str]]) -> Any:
    leds = config.leds
    if leds.axis is None and leds.allies is None:
        return NoLights()
    try:
        return Lights(leds.axis, leds.allies, pin_factory=pin_factory)
    except Exception as exc:
        pins = "/".join(str(pin) for pin in (leds.axis, leds.allies) if pin is not None)
        log.warning("LEDs on GPIO %s switched off: %s", pins, reason(exc))
        off.append(("leds", f"GPIO {pins}: {reason(exc)}"))
        return NoLights()


def make_speech(settings: Settings, speech_dir: Path | None = None,
                cache_dir: Path | None = None) -> Speech:
    """The voice: the engine and its sentence cache, played through the computer's player;
    with `speech_dir` each utterance written there too. Without an engine the box plays on
    silent, and `notice` (shown at the start and by the settings) says why; without a player
    too, but the voice looks for one again when it has something to say (a speaker plugged in
    later). Nothing here ends the box."""
    from cobi_companion.device.ports import voice
    from cobi_companion.device.ports.audio_out import NoAudio, Player, find_player, refused
    from cobi_companion.device.ports.espeak import EngineMissing, find_library
    from cobi_companion.device.ports.phrase_cache import default_folder

    engine: voice.Engine | None = None
    said: Speech = NoSpeech(volume=settings.volume, speed=settings.speed)
    try:
        engine = voice.Engine(find_library(), cache_dir or default_folder())
    except EngineMissing as exc:
        log.info("voice off: %s", exc)
        said = NoSpeech(voice.NO_ENGINE, settings.volume, settings.speed)
    if engine is not None and refused():
        log.info("voice off: no player asked for")
        said = NoSpeech(voice.NO_AUDIO, settings.volume, settings.speed, chosen=True)
    elif engine is not None:
        player: Player | None = None
        try:
            player = Player(find_player())
        except NoAudio as exc:
            log.info("no sound out (looked for again when the box speaks): %s", exc)
        said = voice.Voice(engine, player, settings.volume, settings.speed,
                           find_player=lambda: Player(find_player()))
    if speech_dir is not None:
        said = voice.SpeechFiles(speech_dir, engine, said, settings.volume, settings.speed)
    return said


def render_ahead(app: App) -> Iterator[bool]:
    """A warm-up step: the voice's engine starts on its own thread once the box is idle after
    its first frame, so that the first sentence waits for no start, and renders there the
    sentences with no value in them that its cache lacks, in the box's language. The others
    are whole sentences with their values, rendered when first said (ports/voice.py
    `Voice.warm` says why)."""
    from cobi_companion.device.ports.voice import SpeechFiles, Voice

    speech = app.speech.then if isinstance(app.speech, SpeechFiles) else app.speech
    if isinstance(speech, Voice):
        from cobi_companion.device.core.spoken import fixed_sentences

        language = app.settings.language
        speech.warm(lambda: {language: fixed_sentences(language)})
    yield True


@dataclass
class Box:
    """The parts around the main loop. It keeps going without what failed: controls whose
    pins failed are tried again every few seconds, optional parts are switched off, and a
    settings file that could not be used is shown with what to do."""

    loop: Loop
    app: App
    store: SqliteStore
    display: Any
    config: Config
    pin_factory: Any = None
    load: Load | None = None          # reads the settings files again (SIGHUP, OK to retry)
    restart_on_change: bool = False   # the box restarts for new pins; the sim says so
    parts: list[Any] = field(default_factory=list)
    inputs: Inputs | None = None
    pin_problem: str = ""
    retry_at: float = 0.0
    pin_screen: tuple[Screen, Next] | None = None
    input_clock: Callable[[], float] = time.monotonic   # what the buttons' debounce reads
    learned: Path | None = None       # the Soft Targets Table's values learned at the table
    loaded: Loaded | None = None      # the settings files read last, for the files in use
    reading: bool = False             # the settings and cards are being read again (SIGHUP)
    read_again: bool = False          # and another SIGHUP came meanwhile: read once more
    # the state folders of the settings that could not be made, each with why (saved instead
    # in `state_dir`, the folder of the layer before)
    unusable: list[str] = field(default_factory=list)
    state_dir: Path | None = None

    def close(self, keep_frame: bool = False) -> None:
        """Close every part; with `keep_frame` the panel keeps its last frame lit."""
        for part in [self.inputs, *self.parts]:
            if part is None:
                continue
            try:
                part.close()
            except Exception:  # closing one part must not stop closing the others
                log.exception("closing %s", part)
        try:
            self.display.close(keep_frame=keep_frame)
        except Exception:
            log.exception("closing the display")
        self.app.save()                 # a write an event asked for is not lost
        self.store.close()
        try:
            self.app.speech.close()     # after the last save, which may say something
        except Exception:
            log.exception("closing the voice")

    # --- the controls ---

    def connect_inputs(self) -> bool:
        """Claim the buttons' and the knob's pins; False (and `pin_problem` said) if not."""
        buttons, encoder = self.config.buttons, self.config.encoder
        try:
            self.inputs = Inputs(self.loop.put, buttons.axis, buttons.allies, encoder.a,
                                 encoder.b, encoder.button, bounce_s=buttons.bounce_s,
                                 hold_s=buttons.hold_s, long_press_s=encoder.long_press_s,
                                 pin_factory=self.pin_factory, clock=self.input_clock)
            self.loop.inputs_due = self.inputs.due    # the loop times the controls
        except PinProblem as problem:
            if str(problem) != self.pin_problem:
                log.error("controls: %s", problem)
                self.loop.notifier.status(f"cannot read the controls: {problem}")
            self.pin_problem = str(problem)
            return False
        if self.pin_problem:
            log.info("controls work again")
            self.loop.notifier.status("running")
        self.pin_problem = ""
        return True

    def pins_trouble(self, then: Next) -> Screen:
        def retry() -> Screen:
            return then() if self.connect_inputs() else self.pins_trouble(then)
        app = self.app
        screen = Trouble(app.t("pin_trouble"), [app.t("pin_failed"), self.pin_problem,
                                                app.t("pin_fix")], retry)
        self.pin_screen = (screen, then)
        return screen

    def tick(self, now: float) -> None:
        """Try failed controls again now and then; once they work, go on from their screen."""
        if self.inputs is not None or now < self.retry_at:
            return
        self.retry_at = now + PIN_RETRY_S
        if self.connect_inputs() and self.pin_screen and self.app.screen is self.pin_screen[0]:
            self.app.screen = self.pin_screen[1]()

    # --- the settings files ---

    def config_trouble(self, skipped: tuple[ConfigError, ...], then: Next) -> Screen:
        app = self.app
        paragraphs: list[str] = []
        for error in skipped:
            lead = "config_refused" if isinstance(error, StickError) else "config_skipped"
            paragraphs += [app.t(lead), str(error.path or "?"), *error.problems]
        paragraphs.append(app.t("config_fix"))
        return Trouble(app.t("config_trouble"), paragraphs,
                       lambda: self.reloaded(then, quiet=True), back=then)

    def folder_trouble(self, then: Next) -> Screen:
        """The state folders of the settings that could not be made, and the one used."""
        app = self.app
        return notice(app, app.t("config_trouble"), [
            app.t("state_unusable"), *self.unusable,
            app.t("state_instead", folder=str(self.state_dir))], then)

    # --- the card files ---

    def cards_trouble(self, then: Next) -> Screen:
        """The card and table files not used, each with its reason; OK reads the cards again,
        a long press plays on with the others."""
        app = self.app
        paragraphs = [app.t("cards_skipped"), *card_problems(app, app.book.problems),
                      app.t("cards_fix")]
        return Trouble(app.t("cards_trouble"), paragraphs, lambda: self.cards_again(then),
                       back=then)

    def cards_again(self, then: Next) -> Screen:
        self.app.book = self.pinging(lambda: card_book(self.config, self.learned))
        self.app.resume_kept()
        self.app.sources = sources_of(self.loaded, self.app.card_folders or [], self.app.book,
                                      self.store)
        return self.cards_trouble(then) if self.app.book.problems else then()

    def after_cards(self, then: Next) -> Next:
        """`then`, after the card files' problems if there are any (after a reload; a settings
        file's problem is shown first, and the cards' stay listed in the files in use)."""
        return partial(self.cards_trouble, then) if self.app.book.problems else then

    def read(self) -> Read:
        """The settings files and the cards, read again (on any thread: nothing is changed)."""
        assert self.load is not None
        loaded = self.load()
        return loaded, card_book(loaded.config, self.learned)

    def pinging(self, work: Callable[[], T]) -> T:
        """`work()` (reading files) done on a thread of its own while the loop's thread waits
        for it and goes on pinging the watchdog: OK on a problem screen reads the files again
        and its answer is the next screen, but a big or slow file must not stop the pings
        (systemd would restart the box in the middle of a battle)."""
        done: list[T] = []
        failed: list[BaseException] = []

        def run() -> None:
            try:
                done.append(work())
            except BaseException as exc:        # raised again on the loop's thread
                failed.append(exc)
        reader = threading.Thread(target=run, name="read", daemon=True)
        reader.start()
        notifier = self.loop.notifier
        every = min(notifier.watchdog_s * 0.8, 1.0) if notifier.watchdog_s else 1.0
        while reader.is_alive():
            reader.join(every)
            notifier.watchdog()
        if failed:
            raise failed[0]
        return done[0]

    def reloaded(self, then: Next, quiet: bool = False, read: Read | None = None) -> Screen:
        """Read the settings files and the cards again (unless they were: `read`) and use
        what can change while the box runs; say what was read, and that new pins need a
        restart."""
        if self.load is None:
            return then()
        loaded, book = read or self.pinging(self.read)
        new = loaded.config
        fixed_changed = hardware_of(new) != hardware_of(self.config)
        self.config = new if not fixed_changed else replace(
            self.config, game=new.game, display=replace(
                self.config.display, **{k: getattr(new.display, k) for k in LIVE_DISPLAY}))
        app = self.app
        self.settings_again(new)
        app.book = book
        app.card_folders = default_folders(new.paths.cards_dir)
        app.resume_kept()          # a battle kept for a card of the stick: the stick is back
        self.loaded = loaded
        app.sources = sources_of(loaded, app.card_folders, app.book, self.store)
        self.loop.dim_after_s = new.display.dim_after_min * 60
        log.info("settings read again: %s; %d cards", ", ".join(map(str, loaded.files))
                 or "built-in", len(app.book.sorted()))
        for problem in loaded.skipped:      # as at the start (hardware.py): in the journal too
            log.error("settings file not used: %s", problem)
        for problem in loaded.refused:
            log.error("settings of the USB stick not used: %s", problem)
        if loaded.problems:
            return self.config_trouble(loaded.problems, then)
        lines = [app.t("reloaded_counts", files=len(loaded.files),
                       cards=len(app.book.sorted()))]
        if fixed_changed:
            log.warning("new pins, panel, sensors or paths: %s", "restarting"
                        if self.restart_on_change else "restart to use them")
            if self.restart_on_change:
                self.loop.put(Stop("restart"))
                lines.append(app.t("restart_needed"))
            else:
                lines.append(app.t("sim_restart_needed"))
        elif quiet:
            return self.after_cards(then)()
        return notice(app, app.t("reloaded"), lines, self.after_cards(then))

    def settings_again(self, config: Config) -> None:
        """The settings of the files, where the players have not chosen their own on the
        box (those are saved, and stay)."""
        fresh = settings_from(config, usable_settings(self.store))
        for name, value in fresh.to_dict().items():
            setattr(self.app.settings, name, value)
        self.display.brightness(fresh.brightness)
        self.loop.off_after_s = fresh.screen_off_min * 60
        self.app.sound.enabled = fresh.sound
        self.app.speech.volume, self.app.speech.speed = fresh.volume, fresh.speed

    def reload(self) -> None:
        """SIGHUP (a stick plugged in): read the settings and the cards again on a thread of
        their own, then say what was read and go back to the screen showing then. A big or
        slow file must not hold up the main loop: its watchdog pings would stop, and systemd
        would restart the box in the middle of a battle."""
        if self.load is None:
            return
        if self.reading:
            self.read_again = True
            return
        self.reading = True
        threading.Thread(target=self._read_for_loop, name="reload", daemon=True).start()

    def _read_for_loop(self) -> None:
        try:
            read: Read | None = self.read()
        except Exception:       # a bug in reading must not leave the box "reading" for good
            log.exception("reading the settings and cards again failed")
            read = None
        self.loop.put(Done(partial(self._use_read, read)))

    def _use_read(self, read: Read | None) -> None:
        """On the main loop: the settings and cards read, used."""
        try:
            if read is not None:
                self._apply_read(read)
        finally:          # a fault in using them must not leave the box "reading" for good
            self.reading = False
        if self.read_again:
            self.read_again = False
            self.reload()

    def _apply_read(self, read: Read) -> None:
        # Back to the screen that was showing; but a saved battle kept (the start menu and its
        # questions about it) that the cards read now resume goes to the start menu made anew,
        # where it can be resumed: the questions were about a battle that could not go on.
        app, current, kept = self.app, self.app.screen, self.app.kept

        def back() -> Screen:
            return GAMES.start(app) if kept is not None and app.kept is None else current
        app.screen = self.reloaded(back, read=read)

    # --- start ---

    def first_screens(self, off: list[tuple[str, str]], skipped: tuple[ConfigError, ...],
                      then: Next) -> Screen:
        """What is wrong, one screen each, before the start menu: the controls, a settings
        file not used, a state folder passed over, saving, parts switched off."""
        app = self.app
        chain: list[Callable[[Next], Screen]] = []
        if self.inputs is None:
            chain.append(self.pins_trouble)
        if skipped:
            chain.append(lambda nxt: self.config_trouble(skipped, nxt))
        if app.book.problems:
            chain.append(self.cards_trouble)
        if self.unusable:
            chain.append(self.folder_trouble)
        if self.store.problem:
            log.error("%s", self.store.problem)
            problem = store_problems(app, self.store.problems)
            chain.append(lambda nxt: notice(app, app.t("cannot_save"),
                                            [problem, app.t("cannot_save_fix")], nxt))
        if off:
            lines = [app.t("part_failed", part=app.t(part), reason=why) for part, why in off]
            chain.append(lambda nxt: notice(app, app.t("parts_off"),
                                            [*lines, app.t("parts_go_on")], nxt))
        if not chain:
            return app.screen           # nothing is wrong: the start menu the app has
        screen = then
        for step in reversed(chain):
            screen = partial(step, screen)
        return screen()


LIVE_DISPLAY = ("contrast", "dim_after_min", "dim_contrast", "off_after_min")


def sources_of(loaded: Loaded | None, folders: list[Path], book: CardBook,
               store: Store | None = None) -> Sources:
    """The files in use, and those skipped: settings files, then card and table files, then
    the database's rows not used."""
    rows = tuple(f"{getattr(store, 'path', 'database')}: {bad}"
                 for bad in getattr(store, "bad_rows", ()))
    skipped = tuple(str(error) for error in loaded.problems) if loaded else ()
    return Sources(loaded.files if loaded else (), tuple(f for f in folders if f.is_dir()),
                   skipped + tuple(str(problem) for problem in book.problems) + rows)


def die_roller(box: Box) -> Callable[[str, int], None] | None:
    """What throws a virtual smart die of a side ("axis", "allies") on a face (0: its own),
    for the simulator's keys and the test keys; None unless the box's dice are virtual
    ([smart_dice] adapter "fake"). Any thread may call it: the die is thrown on the main
    loop, which owns the settings that say which dice are the side's."""
    from cobi_companion.device.ports.fake_dice import FakeDice

    dice = box.app.smart
    if not isinstance(dice, FakeDice):
        return None

    def throw(side: str, face: int) -> None:
        if dice.roll_side(side, box.app.settings.smart_dice, face or None) is None:
            log.info("virtual dice: no %s die paired and awake to throw", side)

    def roll(side: str, face: int) -> None:
        box.loop.put(Done(partial(throw, side, face)))
    return roll


def testing_hooks(box: Box) -> None:
    """For tests only, when the settings' [test] table asks (off by default): keys read from
    a FIFO as presses (and words that throw virtual smart dice, while they are virtual), each
    frame written as text (ports/key_fifo.py)."""
    test = box.config.test
    if test.keys_fifo is not None:
        from cobi_companion.device.ports.key_fifo import open_key_fifo

        fifo = open_key_fifo(test.keys_fifo, box.loop.put, die_roller(box))
        if fifo is not None:
            box.parts.append(fifo)
    if test.screen_file is not None:
        from cobi_companion.device.ports.key_fifo import ScreenFile
        from cobi_companion.device.ui.text import view_text

        screen = ScreenFile(test.screen_file)
        box.loop.on_frame = lambda view: screen.write(view_text(view))


def usable_state_dir(config: Config, loaded: Loaded | None) -> tuple[Path, list[str]]:
    """The folder to save in: the settings' own, else that of the layer before it (the earlier
    file's, else the default) that can be made; and, logged, what was wrong with each folder
    passed over. When none can be made it is the settings' own: the store says it cannot
    save."""
    wanted = config.paths.state_dir
    earlier = loaded.state_dirs if loaded else ()
    unusable: list[str] = []
    for folder in dict.fromkeys((wanted, *earlier, default_state_dir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as exc:
            log.error("settings value not used: paths.state_dir %s: %s", folder, reason(exc))
            unusable.append(f"{folder}: {reason(exc)}")
            continue
        if unusable:
            log.warning("saving in %s instead", folder)
        return folder, unusable
    return wanted, unusable


def build(config: Config, display: Any, *, pin_factory: Any = None,
          dice: Dice | Numbered | None = None, state_dir: Path | None = None,
          notifier: Notifier | None = None, power: Power | None = None,
          loaded: Loaded | None = None, load: Load | None = None,
          restart_on_change: bool = False,
          input_clock: Callable[[], float] = time.monotonic,
          speech_dir: Path | None = None, speech: Speech | None = None,
          smart: Callable[[Callable[[DieEvent], None]], SmartDice] | None = None) -> Box:
    """The box around `config`. Nothing that fails here stops it: see Box. `loaded` says
    which files `config` came from (for the settings screen and the problems shown);
    `load` reads them again. `input_clock`: the time the buttons' debounce reads (a mock
    panel's, which moves on by itself instead of sleeping between taps). `speech_dir`: a
    folder where each utterance is written as a WAV and its text, besides being said;
    `speech`: the voice to use instead of the one `make_speech` makes (tests); `smart`: what
    makes the smart dice port on the loop's queue instead of the config's (tests)."""
    state, unusable = (state_dir, []) if state_dir else usable_state_dir(config, loaded)
    atlas.use()           # the glyphs drawn at an earlier start, before the first screen
    if pin_factory is None and config.pins.factory == "mock":
        pin_factory = mock_pins()
    elif pin_factory is None:
        use_named_factory()       # $GPIOZERO_PIN_FACTORY's, without gpiozero's package search
    store = SqliteStore(state / DATABASE_NAME)
    settings = settings_from(config, usable_settings(store))
    off: list[tuple[str, str]] = []
    sound = make_sound(config, settings, pin_factory, off)
    lights = make_lights(config, pin_factory, off)
    learned = learned_file(state)
    if speech is None:
        speech = make_speech(settings, speech_dir)
    # The box's own dice come from its store's secret (device/core/draws.py): the same face
    # for the same die after a pulled plug.
    faces = dice if dice is not None else SecretDice(store.dice()[0])
    app = App(card_book(config, learned), store, faces, sound, lights, settings, GAMES, speech)
    app.card_folders = default_folders(config.paths.cards_dir)
    app.sources = sources_of(loaded, app.card_folders, app.book, store)
    # The displays only read a frame: they get the one the renderer keeps, not a copy.
    loop = Loop(app, display, shared, notifier=notifier,
                dim_after_s=config.display.dim_after_min * 60,
                off_after_s=settings.screen_off_min * 60,
                warm_up=itertools.chain(warm_up_for(app), render_ahead(app)), power=power)

    def changed(new: Settings) -> None:
        # after the frame, as a save; the box's own config: a reload may have changed it
        app.later(partial(store.save_settings, players_choices(new, box.config)))
        sound.enabled = new.sound
        speech.volume, speech.speed = new.volume, new.speed
        display.brightness(new.brightness)
        loop.off_after_s = new.screen_off_min * 60
    app.on_settings = changed
    app.sensors = range_sensors(config, loop.put).start()
    app.smart = smart(loop.put) if smart is not None else smart_dice_port(config, loop.put)
    app.smart.keep(paired_dice.kept(settings.smart_dice))
    app.smart.start()
    box = Box(loop, app, store, display, config, pin_factory=pin_factory, load=load,
              restart_on_change=restart_on_change, parts=[app.sensors, sound, lights, app.smart],
              input_clock=input_clock, learned=learned, loaded=loaded, unusable=unusable,
              state_dir=state)
    box.connect_inputs()
    testing_hooks(box)
    loop.on_reload, loop.on_tick, loop.pages = box.reload, box.tick, pages
    # After the troubles, the start menu is drawn anew (a file may have set the language).
    app.screen = box.first_screens(off, loaded.problems if loaded else (),
                                   lambda: GAMES.start(app))
    return box
