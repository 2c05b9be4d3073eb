"""The box's state machine: the current screen, the battle, the settings, and the services it
drives (store, sound, lights). Events in, a view out; the daemon draws the view."""
from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cobi_companion.cards import CardBook
from cobi_companion.device.core import i18n, reasons
from cobi_companion.device.core.battle_log import Line, LogEntry, english, said, words_kept
from cobi_companion.device.core.dice_board import DiceBoard
from cobi_companion.device.core.draws import Draws, Numbered
from cobi_companion.device.core.setting_values import REMINDS as REMINDS
from cobi_companion.device.core.setting_values import VOICES as VOICES
from cobi_companion.device.core.turn_lights import TurnLights
from cobi_companion.device.core.views import Header, Menu, View, view_from, view_saved
from cobi_companion.device.core.worded import Worded, again, said_in
from cobi_companion.device.ports.events import (
    DieFound,
    DieLink,
    DieSaid,
    Event,
    Key,
    Press,
    ScanDone,
    SensorReading,
    SensorState,
    Tick,
)
from cobi_companion.device.ports.sensors import Sensors
from cobi_companion.device.ports.smart_dice import NoSmartDice, SmartDice
from cobi_companion.device.ports.speech import NoSpeech, Speech, Utterance
from cobi_companion.device.ports.store import Roll, Store
from cobi_companion.rules.dice import Dice, Need
from cobi_companion.rules.status import Side
from cobi_companion.words import languages
from cobi_companion.words.grammar import SideName, side_is_many

if TYPE_CHECKING:
    from cobi_companion.device.core.battle_state import BattleState
    from cobi_companion.device.core.spoken import Spoken

log = logging.getLogger("cobi-companion")

HELD = {Key.AXIS_LONG: Key.AXIS, Key.ALLIES_LONG: Key.ALLIES}   # a held dice button: the button
DICE_BUTTONS = (Key.AXIS, Key.ALLIES)
KNOB_STEPS = (Key.CW, Key.CCW)
# How many times a prompt is said again after a quiet pause (Settings.remind_s) with no press:
# enough for a child who looked away (a minute at 20 s), few enough that a box left alone on
# the table stops talking after three minutes at most, not nagging for hours.
REMINDERS = 3


class Screen:
    """A screen of the box: what it shows and what it does with a press, a tick or a sensor.
    The hooks a screen has no use for do nothing, so the app and the loop call them all
    alike."""

    @property
    def uses_holds(self) -> bool:
        """True where holding a dice button means something of its own (a D6+, a piece off
        the map); everywhere else a held dice button is just that button."""
        return False

    @property
    def animating(self) -> bool:
        """True while the screen moves by itself (dice tumbling): the loop ticks it quickly."""
        return False

    def takes_roll(self, key: Key) -> bool:
        """Whether a press of this dice button here rolls a die (a result screen before this
        one hands such a press on instead of swallowing the child's roll)."""
        return False

    def view(self, app: App) -> View:
        raise NotImplementedError

    def on(self, app: App, key: Key) -> Screen:
        return self

    def tick(self, app: App, now: float) -> Screen:
        return self

    def on_sensor(self, app: App, event: SensorReading | SensorState) -> Screen:
        return self

    def dice_lit(self, app: App) -> Collection[str] | None:
        """The sides whose smart dice light in their colour now, where this screen awaits
        their throw; None: the dice of the side whose turn it is (device/core/turn_lights.py)."""
        return None

    def on_die(self, app: App, event: DieFound | ScanDone | DieSaid | DieLink) -> Screen:
        """A smart die's event (a roll, a die found by a scan, a die gone quiet), after the
        app has noted it in `app.dice_board`."""
        return self

    def prompt(self, app: App) -> Spoken | None:
        """What the box says when this screen comes up, where it waits for someone (whose
        button to press, and for what); None for a screen that waits for no one."""
        return None

    def reminder(self, app: App) -> Spoken | None:
        """What a reminder after a quiet pause (and a dice button refused) says before the
        item lit: the prompt, or on a side's menu whose turn it is (said once as the turn
        began, not each time the menu comes back up)."""
        return self.prompt(app)

    def said(self, app: App) -> Spoken | None:
        """An outcome this screen says now, once the frame it has come to is drawn (a step
        of a shot whose dice have stopped): asked after every event; None for nothing new."""
        return None

    def follows(self) -> bool:
        """Whether the outcome `said` just gave follows an earlier step of the same action
        said before it: the voice lets that one end rather than cut it."""
        return False

    @property
    def to_say(self) -> bool:
        """Whether frames still to come will say an outcome: what the box says of whose turn
        it is waits for them, so that it follows the outcome rather than coming first."""
        return False

    def lit(self, app: App) -> Spoken | None:
        """The item under the cursor, read aloud (kind "item") for a child who cannot read
        yet: when the screen comes up and at each knob step; None where the knob picks
        nothing. A screen showing a menu reads its lit row by its words; a screen with
        better words for it (a piece's side, a target) says so itself."""
        from cobi_companion.device.core.saying import said_item

        shown = self.view(app)
        if not isinstance(shown, Menu) or not 0 <= shown.index < len(shown.items):
            return None
        return said_item(shown.items[shown.index], shown.index in shown.dimmed)

    def outcome(self) -> list[View] | None:
        """The views of an outcome this screen shows (the dice and the result of an action
        just completed), kept with the save so that a restart can show them again; None for
        a screen that shows no outcome."""
        return None


Next = Callable[[], Screen]


class Played(Protocol):
    """The game in play (a COBI battle, a Cobra game, ...) as the app keeps and saves it; its
    game (core/games.py) knows it by its type."""

    id: str
    log: list[Line]

    @property
    def grows(self) -> tuple[str, ...]:
        """The lists of its data that only grow: the store appends them (ports/grown.py)."""
        ...

    def snapshot(self) -> Played:
        """The game as it stands now, made data later (once the frame is on the panel): a
        copy of what changes in place, the rest shared."""
        ...

    def to_dict(self) -> dict[str, Any]: ...


class Games(Protocol):
    """What the games give the core (games/home.py's table, over the registry of games): the
    first screen, the menu of a long press, the screen the game in play goes on with, and a
    saved game resumed."""

    def start(self, app: App) -> Screen: ...

    def menu(self, app: App, back: Screen) -> Screen: ...

    def play(self, app: App) -> Screen: ...

    def resume(self, data: dict[str, Any], book: CardBook) -> Played: ...

    def saving(self, app: App, works: bool, back: Screen) -> Screen: ...


@dataclass(frozen=True)
class PowerRequest:
    """Asked for in the settings menu: the main loop saves, then asks the system to power off
    or restart; if it cannot, the app shows `refused(reason)`."""

    action: str                              # "poweroff" or "reboot"
    refused: Callable[[str], Screen]


class Sound(Protocol):
    enabled: bool              # the settings' sound switch, applied at once

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


# The settings only the config files set: a value saved on the box never hides the files'.
CONFIG_ONLY = frozenset({"house_rules"})


@dataclass
class Settings:
    """What the players chose on the box, kept in its store over the config's defaults."""

    language: str = languages.SOURCE
    rules: str = "easy"
    # Where each side's dice come from (by button side, "axis" and "allies"): one of
    # DICE_SOURCES ("buttons": the box rolls on the button; "dial": real dice, dialled;
    # "smart": smart dice over Bluetooth).
    dice: dict[str, str] = field(default_factory=lambda: {"axis": "buttons",
                                                          "allies": "buttons"})
    # The smart dice paired on the box, by id (their Bluetooth address): {"kind": "godice"
    # or "pixels", "name": as advertised, "side": "axis" or "allies", "colour": its colour}.
    smart_dice: dict[str, dict[str, str]] = field(default_factory=dict)
    sound: bool = True
    voice: str = "all"             # one of VOICES
    volume: int = 100              # the voice's volume, 0–100 (20 % steps are 6 dB apart)
    speed: str = "normal"          # the voice's speed: one of SPEEDS ("normal", "slower")
    brightness: int = 255
    screen_off_min: int = 10       # idle minutes before the panel goes dark; 0 never
    remind_s: int = 20             # a prompt said again after this quiet pause; 0 never (REMINDS)
    # The armies of the last battle at each level ("easy", "tank"), offered again by New
    # battle: the pieces as saved in a battle (label, side, card, figures, status).
    armies: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # The config's [house_rules] (by name): a new battle's house rules before the players
    # change them on the roster. Only the config sets them (`CONFIG_ONLY`).
    house_rules: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def source(self, side: str) -> str:
        """Where `side`'s dice come from now (a button side, "axis" or "allies")."""
        return self.dice.get(side, "buttons")

    def paired(self, side: str) -> list[str]:
        """The smart dice paired to `side`, by id, in the order they were paired."""
        return [die for die, paired in self.smart_dice.items() if paired.get("side") == side]


class App:
    def __init__(self, book: CardBook, store: Store, dice: Dice | Numbered, sound: Sound,
                 lights: Lights, settings: Settings, games: Games,
                 speech: Speech | None = None) -> None:
        self.book, self.store = book, store
        # The box's dice by number, counting on from the count saved with the last action
        # (device/core/draws.py): after a pulled plug the same dice come out again.
        self.dice = Draws(dice, store.dice()[1])
        # The faces smart dice gave rules before a restart, by draw number, not yet covered by
        # a saved action (ports/store.py): the rule that asks for that number takes it again.
        self.kept_throws = store.thrown()
        # The outcome shown by the last completed action (its views), saved with it, and the
        # one a resumed game shows again first (games/home.py `again`): a pulled plug may have
        # come before the players saw it.
        self.outcome: list[View] | None = None
        self.shown_again: list[View] | None = None
        self._keeping: list[_Kept] = []      # saves of this event, waiting for its outcome
        self.sound, self.lights, self.settings = sound, lights, settings
        self.speech: Speech = speech if speech is not None else NoSpeech()
        # What an event asked the voice to say, said by `save` once its frame is drawn, each
        # with what it was made of, so "Say it again" says it in the language of now.
        self.to_say: list[tuple[Utterance, tuple[Spoken, ...]]] = []
        # Prompts held back while the screen's frames still have an outcome to say (`_say`).
        self.held: list[tuple[Utterance, tuple[Spoken, ...]]] = []
        # Lines whose outcome the frames that show it say (`frames_say`): not said as logged.
        self._quiet = 0
        # The last thing said (an outcome, a prompt; never a menu item), said again on asking.
        self.last_said: Utterance | None = None
        self._last_spoken: tuple[Spoken, ...] = ()     # ... and what it was made of
        # The quiet pause of the reminders: the tick since which no one pressed anything (None
        # until the first tick after a press), and how many reminders it has had.
        self._quiet_since: float | None = None
        self._reminded = 0
        self._refused = False          # this press was refused with the error cue
        self._said_again = False       # "Say it again": the screen it goes back to says no more
        self.games = games
        self.card_folders: list[Path] | None = None    # where the cards (and tables) are
        # A saved game that cannot be resumed now, with why: it stays in the store (never
        # cleared for it) until the players put it away, or the cards it needs come back.
        self.kept: Unresumable | None = None
        self.game: Played | None = self._load()      # the one game in play, of any game
        # The rolls since the last save: (side, what for, face, die: "" the box's own, "dial"
        # a real die dialled, else the smart die's id).
        self.rolls: list[Roll] = []
        self.on_settings: Callable[[Settings], None] = lambda s: None
        # The store writes an event asked for, made by `save` once its frame is on the panel:
        # a write waits for the SD card (fsync), and a press must not wait for that.
        self.unsaved: list[Callable[[], None]] = []
        # The cues an event asked for (tune or None, side or None), started by `save` too.
        self.cues: list[tuple[str | None, str | None]] = []
        self.power_request: PowerRequest | None = None
        # What the settings screen lists as in use: config files, card folders, problems.
        self.sources: Sources = Sources()
        self.sensors = Sensors()
        # The smart dice port (ports/smart_dice.py) and what the app knows of each die now.
        self.smart: SmartDice = NoSmartDice()
        self.dice_board = DiceBoard()
        self.turn_lights = TurnLights()     # the dice lit in their side's colour on its turn
        # The log's lines in words, kept per language (`log_words`).
        self._log_words: dict[str, Callable[[Line], str]] = {}
        self.screen: Screen = games.start(self)

    def _load(self) -> Played | None:
        self.kept, data = None, None
        try:
            data = self.store.load_battle()
            _known_format(data)
            self.outcome = _views(data.get(OUTCOME) if data else None)
            self.shown_again = self.outcome
            if not data:
                return None
            # The game's state and its rules load only when there is a game to resume: a
            # start without one shows its menu without them (box.LATER_MODULES brings them).
            return self.games.resume(data, self.book)
        except Exception as exc:  # a saved battle from other cards or another version
            self.kept = unresumable(exc)
            self.outcome, self.shown_again = None, None
            log.error("the saved battle cannot be resumed now (it stays saved): %s", self.kept)
            return None

    def resume_kept(self) -> bool:
        """Try the saved game kept again (the cards were read again: a stick came back);
        True if it resumes now."""
        if self.kept is None or self.game is not None:
            return False
        self.game = self._load()
        if self.kept is None:
            log.info("the saved battle can be resumed again")
        return self.kept is None

    def put_away(self) -> None:
        """The players put the kept game away (they were asked): it is cleared."""
        self.kept = None
        self.later(partial(self.store.clear_battle, self.dice.drawn))

    # --- what the screens use ---

    def t(self, key: str, **values: object) -> str:
        """The word table's text of `key` in the app's language (a `Worded`: a screen that
        keeps it shows it in the language of the moment, see core/worded.py)."""
        language = self.settings.language

        def saying(other: str) -> str:
            return i18n.text(other, key, **{name: said_in(value, other)
                                            for name, value in values.items()})
        return Worded(i18n.text(language, key, **values), language, saying)

    def say(self, said: reasons.Said) -> str:
        """A refusal of the rules (any exception) or a game's note in the app's language, for
        the panel; the journal and the command line keep `str(exc)`, the rules' sentence."""
        language = self.settings.language

        def saying(other: str) -> str:
            return reasons.say(other, said, self.card_names(other))
        return Worded(saying(language), language, saying)

    def card_names(self, language: str) -> dict[str, str]:
        """The cards' titles and names as the rules give them, each as the screens in
        `language` show it (a card's table of names in that language: `pl`, `de`)."""
        return {} if language == languages.SOURCE else {
            own: shown for card in self.book.sorted() for own, shown in (
                (card.title, card.title_in(language)), (card.name, card.name_in(language)))}

    def side_name(self, side: Side | str) -> str:
        return self.t(side.value if isinstance(side, Side) else side)

    def side_word(self, side: Side | str, prefix: str = "") -> SideName:
        """The side for a template whose words agree with it ("{side} {side:gives|give} up"):
        a side of the rules, or Cobra's ("german", its words under `prefix` "cobra_")."""
        value = side.value if isinstance(side, Side) else side
        return SideName(self.t(prefix + value), side_is_many(value), value)

    def header(self, title: str) -> Header:
        state = self.state
        if state is None or state.active is None:
            return Header(title, state.round if state else None)
        return Header(title, state.round, state.active.value, self.side_name(state.active))

    def roll(self, need: Need, side: str) -> int:
        """The box rolls one die for `need`, thrown for `side`, and logs it. A face a smart die
        gave that number before a restart comes out again, as the box's own die would."""
        kept = self.kept_throw()
        if kept is not None:
            die, face = kept
            self.thrown(face, need, side, die)
            return face
        face = self.dice.roll(need)
        self.rolls.append((side, need.words, face, ""))
        return face

    def dice_for(self, side: str) -> Dice:
        """A dice source for a rule that rolls several dice for one side, each one logged."""
        return _SideDice(self, side)

    def record(self, face: int, need: Need, side: str, die: str) -> None:
        """A real die's face, dialled by the player ("dial") or thrown with a smart die (its
        id), logged like a rolled one, with the die that rolled it."""
        self.rolls.append((side, need.words, face, die))

    def thrown(self, face: int, need: Need, side: str, die: str) -> None:
        """A smart die's face given a rule: it takes the box's next draw number and is kept
        with it once the frame is drawn (no wait for the card on the event), so a plug pulled
        before the action's save brings the same face back for the same number; logged with
        its die."""
        number = self.dice.take()
        self.kept_throws.pop(number, None)
        self.record(face, need, side, die)
        self.later(partial(self.store.keep_thrown, number, die, face))

    def kept_throw(self) -> tuple[str, int] | None:
        """The die and face a smart die gave the next draw number before a restart; None:
        that number was not thrown, or it was saved with its action."""
        return self.kept_throws.get(self.dice.drawn)

    def cue(self, name: str, side: str | None = None) -> None:
        """A tune (when the sound is on) and a flash of `side`'s light, started by the next
        `save`, once the event's frame is drawn: starting a blink costs the main loop a
        thread, and a tune wakes the sound's, which the frame must not wait for."""
        self.cues.append((name if self.settings.sound else None, side))
        self._refused = self._refused or name == "error"

    def speak(self, what: Spoken, follows: bool = False) -> None:
        """Say `what` in the box's language, as the voice setting allows (outcomes, or
        outcomes, prompts and the menu items under the cursor), once the event's frame is
        drawn (`save`). `follows`: an outcome after an earlier step of its action (speech.py)."""
        voice = self.settings.voice
        if voice == "off" or (what.kind != "outcome" and voice != "all"):
            return
        from cobi_companion.device.core.spoken import utterance

        try:
            said = utterance(what, self.settings.language, self.book)
            self.to_say.append((replace(said, follows=follows) if follows else said, (what,)))
        except Exception:  # a missing word is never worth a battle
            log.exception("nothing to say for %s", what.key)

    @contextmanager
    def frames_say(self) -> Iterator[None]:
        """The lines logged meanwhile are not said as they are logged: the frames that show
        their outcome say it (a `Show`'s `says`), when each is drawn and in their order."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    def say_again(self, back: Screen) -> Screen:
        """"Say it again" (the long-press menu): the last thing said, in the language of now
        (it may have been switched since), or, before anything was said, the prompt of
        `back`; then back to `back`, which says nothing more."""
        if self.last_said is None:
            self._said_again = False
            return back
        if self.settings.voice != "off":
            self.to_say.append((self._again(), self._last_spoken))
        self._said_again = True
        return back

    def _again(self) -> Utterance:
        """The last thing said, made again from its words in the language of now."""
        from cobi_companion.device.core.spoken import utterance

        assert self.last_said is not None
        if self.last_said.language == self.settings.language:
            return self.last_said
        try:
            again = _joined([utterance(what, self.settings.language, self.book)
                             for what in self._last_spoken])
        except Exception:  # a missing word: said as it was heard
            log.exception("the last thing said could not be said again")
            return self.last_said
        return replace(again, kind=self.last_said.kind)

    def _say(self) -> None:
        """The event's utterances as one (its outcomes, then whose turn it is, then the item
        lit), so the prompt follows the outcome rather than cutting it short. While the
        screen's frames still have an outcome to say (a shot's steps playing), the prompts
        wait for it. What it says besides the item is the last thing said (`say_again`)."""
        pending, self.to_say = self.to_say, []
        outcomes = [said for said in pending if said[0].kind == "outcome"]
        prompts = self.held + [said for said in pending if said[0].kind != "outcome"]
        self.held = []
        try:
            later = self.screen.to_say
        except Exception:  # a prompt held back is never worth a battle
            log.exception("what %s has to say could not be asked", type(self.screen).__name__)
            later = False
        if later:
            self.held, prompts = prompts, []
        pending = outcomes + prompts
        if not pending:
            return
        heard = [each for each in pending if each[0].kind != "item"]
        if heard:
            self.last_said = _joined([said for said, _ in heard])
            self._last_spoken = tuple(what for _, made in heard for what in made)
        # Items after outcomes alone are said on their own, after them: joined, they would
        # be an outcome, which the knob's next step could not cut ("Like this! Volume: 40%").
        alone = outcomes and prompts and all(said.kind == "item" for said, _ in prompts)
        for each in (outcomes, prompts) if alone else (pending,):
            self._utter(_joined([said for said, _ in each]))

    def _utter(self, whole: Utterance) -> None:
        try:
            self.speech.volume, self.speech.speed = self.settings.volume, self.settings.speed
            self.speech.say(whole)
        except Exception:  # the voice is never worth a battle
            log.exception("saying %r failed", whole.text)

    def _play_cues(self) -> None:
        cues, self.cues = self.cues, []
        for name, side in cues:
            try:
                if name is not None:
                    self.sound.play(name)
                if side:
                    self.lights.flash(side)
            except Exception:  # a cue is never worth a battle
                log.exception("cue %s failed", name)

    def commit(self, line: LogEntry | None = None) -> None:
        """Save the battle (or the Cobra game) after a completed action, with the rolls it
        made and its line of the log (the journal gets it in English); outside a battle, save
        the rolls alone. The game is saved as it is now, written by `save`."""
        game, drawn = self.game, self.dice.drawn
        if game is None:
            if self.rolls:
                self.later(partial(self.store.save_rolls, self.rolls, drawn))
                self.rolls = []
            return
        if line is not None:
            game.log.append(line)
            log.info("battle %s: %s", game.id, english(line))
            if not self._quiet:
                self._speak_line(line)
        # The game as it stands, made data when the save is written, once the frame is drawn.
        data, rolls, grows = game.snapshot().to_dict, self.rolls, game.grows
        # The outcome this action shows: the screen it leads to, known once the event is
        # handled (`handle`); a save outside an event keeps the last one.
        kept = _Kept(self.outcome)
        self._keeping.append(kept)
        self.later(lambda: self.store.save_battle(kept.with_outcome(data()), rolls, drawn,
                                                  grows))
        self.rolls = []

    def later(self, write: Callable[[], None]) -> None:
        """A store write, made by the next `save` in the order asked."""
        self.unsaved.append(write)

    def save(self) -> None:
        """Start the cues and make the store writes asked for since the last call (the main
        loop calls it once the event's frame is drawn, before it takes the next event)."""
        self._play_cues()
        self._say()
        writes, self.unsaved = self.unsaved, []
        # a save asked for outside an event (a stop, a power request) keeps the last outcome
        self._keeping = []
        saving = self.store.can_save
        for write in writes:
            try:
                write()
            except Exception:  # the store keeps itself going; this would be a bug
                log.exception("saving failed")
        if self.store.can_save != saving:
            self._saving_changed(self.store.can_save)

    def _saving_changed(self, works: bool) -> None:
        """Saving stopped (the store plays on in memory and tries its file again) or works
        again: logged once each time, shown over the screen of the moment (OK comes back to
        it) and said."""
        from cobi_companion.device.core.saying import outcome

        if works:
            log.warning("saving works again: the battle is saved (%s)",
                        getattr(self.store, "path", "the store"))
        else:
            log.error("%s; the box keeps trying", self.store.problem)
        self.screen = self.games.saving(self, works, self.screen)
        self.speak(outcome("say_saving_again" if works else "say_cannot_save"))
        self._say()

    def menu(self, back: Screen) -> Screen:
        """The menu a long press opens, coming back to `back`."""
        return self.games.menu(self, back)

    @property
    def state(self) -> BattleState | None:
        """The COBI battle in play (Easy level or Tank Game); None without one (no game, or a
        game of another kind)."""
        if self.game is None:
            return None
        # Imported here: the start menu asks before any battle state is loaded.
        from cobi_companion.device.core.battle_state import BattleState

        return self.game if isinstance(self.game, BattleState) else None

    @property
    def playing(self) -> BattleState:
        """The battle in play: the screens of a battle are only reached with one."""
        state = self.state
        if state is None:
            raise RuntimeError("no battle in play")
        return state

    def begin(self, game: Played) -> None:
        """A new game replaces whatever was in play."""
        self.game = game

    def end(self) -> None:
        """The battle or game is over and forgotten: nothing is offered to resume."""
        # after a save this event asked for before
        self.later(partial(self.store.clear_battle, self.dice.drawn))
        self.game = None
        self.outcome = self.shown_again = None

    # --- events in, view out ---

    def log_line(self, line: LogEntry) -> None:
        """A line for the battle's log (saved with the next completed action) and, in English,
        the journal."""
        if self.state is not None:          # a battle's: a Cobra game logs its own
            self.state.log.append(line)
        log.info("%s", english(line))
        if not self._quiet:
            self._speak_line(line)

    def _speak_line(self, line: LogEntry) -> None:
        """A line of the log that is an outcome (a hit, a winner, a Cobra result) is said."""
        from cobi_companion.device.core.spoken import of_log

        try:
            what = of_log(line)
        except Exception:  # a missing word is never worth a battle
            log.exception("nothing to say for %s", line.key)
            return
        if what is not None:
            self.speak(what)

    def log_words(self, line: Line) -> str:
        """A line of the log in the app's language, from the word tables (`t`, `say`); an old
        saved battle's sentence as it was written."""
        language = self.settings.language
        return Worded(self._log_in(language, line), language,
                      lambda other: self._log_in(other, line))

    def _log_in(self, language: str, line: Line) -> str:
        if language == languages.SOURCE:
            return english(line)            # made for the journal as the line was logged
        words = self._log_words.get(language)
        if words is None:
            words = self._log_words[language] = words_kept(
                lambda line: said(line, language, partial(self._t_in, language),
                                  partial(self._say_in, language)))
        return words(line)

    # The word tables in `language`: the app's own `t` and `say` while it speaks it (which
    # tests watch), else the tables themselves; never the language of the moment for another.
    def _t_in(self, language: str, key: str, **values: object) -> str:
        return self.t(key, **values) if language == self.settings.language else \
            i18n.text(language, key, **values)

    def _say_in(self, language: str, said: reasons.Said) -> str:
        return self.say(said) if language == self.settings.language else \
            reasons.say(language, said, self.card_names(language))

    def handle(self, event: Event) -> None:
        before = self.screen
        if isinstance(event, SensorState):
            self.sensors.update(event)
        if isinstance(event, SensorReading | SensorState):
            self.screen = self.screen.on_sensor(self, event)
        elif isinstance(event, DieFound | ScanDone | DieSaid | DieLink):
            self.dice_board.update(event)
            self.screen = self.screen.on_die(self, event)
        elif isinstance(event, Press):
            key = event.key
            if key in HELD and not self.screen.uses_holds:
                key = HELD[key]
            self._refused = False
            self.screen = self.screen.on(self, key)
            self._quiet_since, self._reminded = None, 0      # a press: the pause begins again
            if self.screen is before:
                self._stayed(key)
        elif isinstance(event, Tick):
            self.screen = self.screen.tick(self, event.now)
            self._remind(event.now)
        self._frame_said()
        if self.screen is not before:
            self._quiet_since, self._reminded = None, 0
            if not self._said_again:
                self._prompt()
                self._lit()
            self._said_again = False
        self._kept()
        self._turn_lights(event)

    def _turn_lights(self, event: Event) -> None:
        """The smart dice lit in their side's colour: those whose throw the screen awaits,
        else those of the side whose turn it is in a battle. A box with no die paired and
        none lit has nothing to do: every event (each tick) comes here."""
        if not self.settings.smart_dice and not self.turn_lights.lit:
            return
        try:
            sides = self.screen.dice_lit(self)
        except Exception:  # the dice's lights are never worth a battle
            log.exception("the dice lit on %s failed", type(self.screen).__name__)
            sides = ()
        if sides is None:
            state = self.state
            sides = (state.active.value,) if state is not None and state.active is not None \
                else ()
        self.turn_lights.follow(event, sides, self.settings.smart_dice, self.dice_board,
                                self.smart)

    def _frame_said(self) -> None:
        """The outcome the screen's frame shows now, said once that frame is drawn."""
        try:
            what = self.screen.said(self)
            follows = what is not None and self.screen.follows()
        except Exception:  # an outcome's words are never worth a battle
            log.exception("what %s says could not be made", type(self.screen).__name__)
            return
        if what is not None:
            self.speak(what, follows)

    def came_up(self) -> None:
        """The box's first screen is on the panel: its lit row is read aloud (voice "all"),
        as any menu's is when it comes up, so a child who cannot read hears "New battle"."""
        self._lit()
        self._say()

    def _stayed(self, key: Key) -> None:
        """A press that kept the screen: a knob step reads the item now under the cursor; a
        dice button refused (the other side's, where one side's is awaited) says again whose
        button it is."""
        if key in KNOB_STEPS:
            self._lit()
        elif key in DICE_BUTTONS and self._refused:
            self._remind_now()
        elif key in DICE_BUTTONS or key is Key.OK:
            self._lit()                     # the lit row changed in place ("Rules: Easy")

    def _remind(self, now: float) -> None:
        """After `remind_s` with no press, the screen's prompt is said again, and again after
        each such pause, `REMINDERS` times at most."""
        pause = self.settings.remind_s
        if not pause:
            return
        if self._quiet_since is None:
            self._quiet_since = now
        elif self._reminded < REMINDERS and \
                now - self._quiet_since >= pause * (self._reminded + 1):
            self._reminded += 1
            self._remind_now()

    def _kept(self) -> None:
        """The saves this event asked for keep the outcome its screen shows now (or none: an
        action whose outcome was seen before it was saved, like a move)."""
        if not self._keeping:
            return
        try:
            self.outcome = self.screen.outcome()
        except Exception:  # showing it again is never worth a battle
            log.exception("the outcome of %s could not be kept", type(self.screen).__name__)
            self.outcome = None
        for kept in self._keeping:
            kept.views = self.outcome
        self._keeping = []

    def _prompt(self) -> None:
        """A screen that came up waiting for someone says so (whose button, for what)."""
        self._said_by(self.screen.prompt, "prompt")

    def _remind_now(self) -> None:
        """Whose turn, or whose button, said again (`Screen.reminder`), and the item lit:
        the same words as when the screen came up. A screen that waits for no one: nothing."""
        if self._said_by(self.screen.reminder, "reminder"):
            self._lit()

    def _said_by(self, words: Callable[[App], Spoken | None], what: str) -> bool:
        """Say what the screen's `words` give now (its prompt, its reminder), if anything;
        whether something was said."""
        try:
            said = words(self)
        except Exception:  # a screen's words are never worth a battle
            log.exception("the %s of %s failed", what, type(self.screen).__name__)
            return False
        if said is None:
            return False
        self.speak(said)
        return True

    def _lit(self) -> None:
        """The item under the cursor read aloud (voice "all"), after any prompt."""
        if self.settings.voice != "all":
            return                          # nothing to read: no view made for it
        try:
            what = self.screen.lit(self)
        except Exception:  # reading a menu aloud is never worth a battle
            log.exception("the item lit on %s failed", type(self.screen).__name__)
            return
        if what is not None:
            self.speak(what)

    def view(self) -> View:
        """The screen's view, every word of the word tables in it in the language now (a
        screen made before the language was switched keeps the words it was made with)."""
        return again(self.screen.view(self), self.settings.language)


def _joined(said: list[Utterance]) -> Utterance:
    whole = said[0]
    for more in said[1:]:
        whole = whole.then(more)
    return whole


OUTCOME = "outcome"          # the key of the last outcome's views in a saved game


@dataclass
class _Kept:
    """What a save keeps besides the game: the views of the outcome its action shows."""

    views: list[View] | None

    def with_outcome(self, data: dict[str, Any]) -> dict[str, Any]:
        data = {**data, FORMAT: SAVE_FORMAT}
        if self.views is None:
            return data
        return {**data, OUTCOME: [view_saved(view) for view in self.views]}


# The format of a saved game, written with it: a box that finds another format says so, and
# keeps the game (`Unresumable`). Saves from before it was written have none: format 1.
# Format 2: the lists that only grow are in rows of their own (ports/grown.py), and a battle
# of the Easy level has no "defender"; a box of format 1 would find them missing, and says
# instead that another version of the box wrote the save. This box reads both.
FORMAT, SAVE_FORMAT = "format", 2
READ_FORMATS = (1, 2)


@dataclass(frozen=True)
class Unresumable:
    """Why the saved game cannot be resumed now: a `card` not among the cards now (a card
    of a stick that is not in), a save `format` another version wrote, or a save this box
    cannot read at all ("unreadable": `detail` says it, in the journal's English)."""

    kind: str                   # "card", "format" or "unreadable"
    card: str = ""
    format: str = ""
    detail: str = ""

    def __str__(self) -> str:       # the journal's English
        if self.kind == "card":
            return f"it needs the card {self.card[:80]!r}, which is not among the cards now"
        if self.kind == "format":
            return f"save format {self.format}, this box reads formats {_formats()}"
        return self.detail


class FormatError(ValueError):
    def __init__(self, found: str) -> None:
        super().__init__(f"save format {found}, this box reads formats {_formats()}")
        self.found = found


def _formats() -> str:
    return " and ".join(map(str, READ_FORMATS))


def _known_format(data: dict[str, Any] | None) -> None:
    found = (data or {}).get(FORMAT, 1)
    if type(found) is not int or found not in READ_FORMATS:    # true or 1.0 is no format 1
        raise FormatError(repr(found)[:40])


def unresumable(exc: Exception) -> Unresumable:
    """The typed reason of a failed resume, from the exception's own fields."""
    from cobi_companion.rules.errors import Refusal, RulesError

    if isinstance(exc, FormatError):
        return Unresumable("format", format=exc.found)
    if isinstance(exc, RulesError) and exc.code is Refusal.UNKNOWN_CARD:
        return Unresumable("card", card=str(exc.values.get("card", "")))
    return Unresumable("unreadable", detail=f"{type(exc).__name__}: {exc}"[:200])


def _views(data: object) -> list[View] | None:
    """A saved outcome's views again; None for none, or one this version cannot read."""
    if not isinstance(data, list) or not data:
        return None
    try:
        return [view_from(item) for item in data]
    except (KeyError, TypeError, ValueError):
        log.warning("the last outcome saved could not be read: it is not shown again")
        return None


class _SideDice:
    def __init__(self, app: App, side: str) -> None:
        self.app, self.side = app, side

    def roll(self, need: Need) -> int:
        return self.app.roll(need, self.side)
