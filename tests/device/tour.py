"""The tour of the box, for the tests that check every frame it draws (test_words_fit.py) and
every word it says (test_polish_screens.py): the real box (app, store, screens, renderer) on
gpiozero's mock pins, in English or Polish, with cards whose names and labels are as long as a
card may have them, played by a guide who tries every menu item, scrolls every text to its end
and presses the button each screen waits for.

`take_tour(make, folder, language)` returns every frame drawn, with its view, and what the
boxes said through their word tables (`Said`). `make(dice, state_dir, config, **parts)` builds
a box on a table (conftest's `Table`); the cards the box reads are the caller's (conftest's
`taken_tour` puts `long_cards` in $COBI_COMPANION_CARDS).

The tour goes through journeys, each on boxes of its own: the start menu, settings (the
language switched and back) and the box's own screens; an Easy battle begun after a tie, its
roster's rows tried (the Rules row both ways, a piece removed), played on to round 12 with 12
pieces of one model, its log read at its end, then the same armies again; a Tank Game battle;
fights resumed from saved battles (every outcome of a shot, the armour turned on the knob, a
Tiger's 17 damage dice, a damaged target at the Easy level, the last shot again with one
press, fire at squads and a soft vehicle, templates, each refusal of a shot, real dice); squads
riding on vehicles (getting on and off, fired at on a tank); the Soft Targets Table learned at
the table (a value dialled and remembered, a band that overlaps, each reason a value is not
saved); pieces under every mark; a match given up twice; Cobra at its
phases, attacks and levels of victory; a range sensor; the words the box says only inside its
sentences (a card's fields, Cobra's roles and shifts... in refusals; every kind of line of the
battle log; the die each roll asks for on the real-dice dial), each in a sentence of the box's
making with the longest values, where the box shows it; the screens of what is wrong with the
box, and the last frame of a stop. The guide's choices depend only on what the screens show and
on its seeds, so a tour draws the same frames every time; screens it would reach only by chance
are reached on purpose (`Guide.follow`).
"""
from __future__ import annotations

import errno
import os
import random
import re
import string
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cobi_companion.cards import CardProblem, check, learned_file, load_cards
from cobi_companion.cards.book import more_problems
from cobi_companion.cards.loader import shipped_folder
from cobi_companion.device.config import Config, Loaded
from cobi_companion.device.core import i18n
from cobi_companion.device.core.app import VOICES, App, Unresumable
from cobi_companion.device.core.battle_log import LogEntry, by_side, entry, won
from cobi_companion.device.core.battle_state import EasyBattle, LastShot, TankBattle
from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.battle import refuse
from cobi_companion.device.games.cobra import hub as cobra_hub
from cobi_companion.device.games.cobra import session as cobra
from cobi_companion.device.games.cobra.session import CobraSession
from cobi_companion.device.games.cobra.victory import vp_item
from cobi_companion.device.games.home import kept_battle, start_menu
from cobi_companion.device.games.menus import Scroll
from cobi_companion.device.games.rolling import face_for
from cobi_companion.device.games.settings import VOLUME_STEP
from cobi_companion.device.games.shots import shot_odds
from cobi_companion.device.games.tank import learn
from cobi_companion.device.ports.errors import ConfigError, StickError
from cobi_companion.device.ports.fake_sensor import FakeSensor, ff_frame
from cobi_companion.device.ports.power import RecordingPower
from cobi_companion.device.ports.range_sensor import Condition
from cobi_companion.device.ports.speech import NoSpeech
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore, StoreProblem
from cobi_companion.device.ui.details import shot_details
from cobi_companion.device.ui.renderer import last_row, render
from cobi_companion.device.ui.trouble import notice, saving_notice
from cobi_companion.rules import house
from cobi_companion.rules.battle import Battle, Ride
from cobi_companion.rules.card import PRINTED, Facing, Kind
from cobi_companion.rules.cobra import victory_points as vps
from cobi_companion.rules.cobra.combat import BY_LETTER, Nation, OverrunWhen, Role, ShiftKind
from cobi_companion.rules.cobra.command import ALLIED_ARMIES, Army, Command, HQEvent, HQState, hq
from cobi_companion.rules.cobra.exits import Exit
from cobi_companion.rules.cobra.landing import BEACHES, DIVISIONS, Landed, Landing, Target
from cobi_companion.rules.cobra.notes import Note, Why
from cobi_companion.rules.cobra.refusals import CobraRefusal
from cobi_companion.rules.cobra.replacements import KINDS, SIDES, Replacement
from cobi_companion.rules.cobra.scoresheet import Scoresheet, SpecialRoll
from cobi_companion.rules.cobra.tables import COLUMNS, Direction, Weather
from cobi_companion.rules.cobra.turns import SCENARIOS, CobraGame
from cobi_companion.rules.dice import Aim, Need, Roller
from cobi_companion.rules.distance import QUESTIONS, Call
from cobi_companion.rules.errors import Refusal, RulesError
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.status import Effect, Side
from cobi_companion.rules.tank import turns
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.rules.tank.soft_table import SITUATIONS, Wanted
from cobi_companion.rules.tank.turns import Action
from PIL import Image

LANGUAGES = ("en", "pl")
NAME_MAX, LABEL_MAX = 60, 10           # rules/card.py: the longest name and label a card has
# Filled in after a model's own name and label, so that the cards sort as the shipped ones do.
NAME_TAIL = {"en": " heavy tank, late production with side skirts, winter camouflage and",
             "pl": " ciężki czołg, późna produkcja z fartuchami, zimowy kamuflaż i"}
LABEL_TAIL = "wmwmwmwmwm"
# Two weapons where a card may carry them, for the screens that ask which: a second single
# weapon for the pistol soldier, a second template for the MG team;
MORE_WEAPONS = {
    "pistol-soldier": ('weapons = [{ name = "pistol" }]',
                       'weapons = [{ name = "pistol" }, { name = "rifle" }]'),
    "mg-gunner": ('template = "mg", shots = 2 }]',
                  'template = "mg", shots = 2 }, { name = "grenade", template = "grenade" }]'),
    # and the values a printed card gives a soft vehicle, for the fire at it
    "motorcycle-sidecar": ('kind = "soft"', 'kind = "soft"\narmour_front = 1\narmour_side = 1\n'
                           'armour_rear = 1\narmour_top = 0\ndestroy = 2\ndestroy_gun = "-"\n'
                           'weaken = "-"\nimmobilize = "-"\ncrew = 2')}
HARD_COVER = '\n[situations.hard_cover]\nmodifier = -2\nsource = "the tour of the box"\n'
HOLDS = {"buttons": {"hold_s": 0.1}, "encoder": {"long_press_s": 0.1}}   # the shortest holds
ROUNDS = 12            # the Easy battle is played on to this round (two digits)
PIECES = 12            # pieces of one model in the Easy battle (two-digit piece numbers)
LOOP = 36              # a title back that often among the last LOOP: the guide goes back
USB_PROBLEM = ConfigError(Path("/media/cobi/config.toml"), [
    "line 5: buttons.axis: 40 is not allowed; allowed: a BCM GPIO number from 0 to 27"])
STICK_REFUSAL = StickError(Path("/media/cobi/config.toml"), [
    "line 4: display.contrast: a USB stick may not set it; allowed: only in "
    "/etc/cobi-companion/config.toml or the boot partition's cobi/config.toml"])
SENSOR = "table"       # the range sensor's name in the owner's settings
QUIET = False          # while a view is made in the other language: nothing counts as said


@dataclass(frozen=True)
class Seen:
    """One frame the box drew on the tour, with its view and the language the box spoke."""

    language: str
    journey: str
    view: View
    image: Image.Image
    # The same screen's view had the language been switched the moment before it was drawn
    # (the settings reach the language from every screen, by the menu of a long press).
    switched: View | None = None


@dataclass
class Said:
    """What the boxes of the tour said through their word tables while they spoke Polish: the
    keys of the templates the screens asked for (`app.t`, the battle log's lines too), the
    values they were filled with, and the refusals and notes (`app.say`); the apps, for their
    cards, tables and files; and the system's own words the tour gave the boxes to show (a pin
    that is busy, a settings file's problem, the owner's name for a sensor). A value counts
    where the Polish template shows it (a log's line keeps values only its English says)."""

    keys: set[str] = field(default_factory=set)
    values: list[tuple[str, str]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    apps: dict[int, App] = field(default_factory=dict)
    system: set[str] = field(default_factory=set)

    @contextmanager
    def listening(self) -> Iterator[None]:
        """Every app's `t` and `say` recorded while the tour runs, from the app's first
        screen on (a box's first screens are made while it is built)."""
        t, say = App.t, App.say

        def recorded_t(app: App, key: str, **values: object) -> str:
            text = t(app, key, **values)
            self.apps[id(app)] = app
            if app.settings.language == "pl" and not QUIET:
                self.keys.add(key)
                shown = {name for _, name, _, _ in string.Formatter().parse(
                    i18n.STRINGS[key][1]) if name}          # a value the template names
                self.values += [(key, str(value)) for name, value in values.items()
                                if name in shown]
            return text

        def recorded_say(app: App, said: Any) -> str:
            text = say(app, said)
            if app.settings.language == "pl" and not QUIET:
                self.refusals.append(text)
            return text
        App.t, App.say = recorded_t, recorded_say          # type: ignore[method-assign]
        try:
            yield
        finally:
            App.t, App.say = t, say                        # type: ignore[method-assign]


@dataclass(frozen=True)
class Taken:
    """A tour taken in one language: its frames and what the boxes said."""

    seen: list[Seen]
    said: Said


def long_cards(folder: Path, language: str) -> Path:
    """The shipped cards again in `folder`, each with a name of NAME_MAX letters and a label
    of LABEL_MAX, in English and Polish (they replace the shipped ones: same set numbers and
    ids; a card named as its label keeps its name its label, for the roster's hint of such a
    card), MORE_WEAPONS,
    a squad without weapons, and the Soft Targets Table with a value for hard cover."""
    folder.mkdir(parents=True, exist_ok=True)
    table = shipped_folder() / "tables" / "soft-targets.toml"
    (folder / "tables").mkdir(exist_ok=True)
    (folder / "tables" / table.name).write_text(  # and a value for targets in hard cover
        table.read_text(encoding="utf-8") + HARD_COVER, encoding="utf-8")
    rifleman = (shipped_folder() / "rifleman.toml").read_text(encoding="utf-8")
    (folder / "unarmed.toml").write_text(       # a squad that has no weapon to fire
        re.sub(r"^(weapons|label|name|id|pl) = .*$\n", "", rifleman, flags=re.M)
        + 'id = "unarmed"\nname = "Unarmed crew"\nlabel = "Crew"\n', encoding="utf-8")
    for path in sorted(folder.glob("unarmed.toml")) + sorted(shipped_folder().glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        name = re.search(r'^name = "(.*)"$', text, re.M)
        label = re.search(r'^label = "(.*)"$', text, re.M)
        if name is None or label is None:
            continue
        long_label = (label[1].replace(" ", "") + LABEL_TAIL)[:LABEL_MAX]
        long_name = long_label if name[1] == label[1] else \
            (name[1] + NAME_TAIL[language])[:NAME_MAX].rstrip()
        text = text.replace(name[0], f'name = "{long_name}"').replace(
            label[0], f'label = "{long_label}"').replace(*MORE_WEAPONS.get(path.stem, ("", "")))
        if polish := re.search(r'^pl = \{ name = "(.*)", label = "(.*)" \}$', text, re.M):
            long_label = (polish[2].replace(" ", "") + LABEL_TAIL)[:LABEL_MAX]
            long_name = long_label if polish[1] == polish[2] else \
                (polish[1] + NAME_TAIL[language])[:NAME_MAX].rstrip()
            text = text.replace(
                polish[0], f'pl = {{ name = "{long_name}", label = "{long_label}" }}')
        (folder / path.name).write_text(text, encoding="utf-8")
    return folder


def config(language: str, **more: Any) -> Config:
    return Config.model_validate({**HOLDS, "game": {"language": language}, **more})


def pattern(template: str) -> re.Pattern[str]:
    """A string of i18n as a pattern: its {placeholders} match any text."""
    parts = re.split(r"\{[^}]*\}", template)
    return re.compile(".+?".join(re.escape(part) for part in parts))


def view_texts(view: View) -> list[str]:
    """Every text a view shows: header, body and hint."""
    header = view.header
    found = [header.title, header.side_label]
    match view:
        case Menu():
            found += [*view.items, view.hint]
        case Lines():
            found += [*view.lines, view.hint]
        case BigWord():
            found += [view.word, view.detail, view.hint]
        case _:
            found += [view.caption, view.needed, view.total]
    return [text for text in found if text]


def kind_of(text: str) -> str:
    """A menu item or title as the guide counts its tries: "• Rifle 3: front" and "Rifle 12"
    are one item, as are "German VP 3" and "German VP 4", and "Sound: on" and "Sound: off"."""
    return re.sub(r"\d+", "#", text.removeprefix("• ")).split(":")[0]


def switched(app: App, view: View) -> View | None:
    """The view of the app's screen in the other language, as the next frame would draw it
    had the language been switched now; the language back as it was. Nothing the boxes say
    meanwhile counts as said (`QUIET`). None for a frame not of the app's screen."""
    global QUIET
    language = app.settings.language
    if app.view() != view:
        return None                     # the boot title, a stop's last frame
    QUIET = True
    try:
        app.settings.language = "en" if language == "pl" else "pl"
        switched: View = app.view()
        return switched
    finally:
        app.settings.language, QUIET = language, False


class Guide:
    """Plays a box as someone who tries everything: in a menu, an item picked at random with
    the least tried ones likeliest (those that end a battle or a game least likely), every
    text scrolled to its end, the button a screen waits for, the knob turned a few detents
    (the armour of a shot before it is fired, the steps of a shot browsed back and forth), the
    last shot fired again by its button, the log of a battle read at its end; the frames the
    box draws are kept in `seen`."""

    def __init__(self, table: Any, language: str, journey: str, seen: list[Seen],
                 seed: int = 1, anywhere: Counter[str] | None = None,
                 unseen: dict[str, re.Pattern[str]] | None = None) -> None:
        self.table, self.language, self.journey, self.seen = table, language, journey, seen
        self.rng = random.Random(seed)
        self.tried: Counter[tuple[str, str]] = Counter()
        # Items tried on any box of the tour, and the strings of i18n no frame has shown yet:
        # an item never tried, or one that is such a string, is much likelier.
        self.anywhere: Counter[str] = Counter() if anywhere is None else anywhere
        self.unseen: dict[str, re.Pattern[str]] = {} if unseen is None else unseen
        self.read: set[str] = set()         # texts already looked for the unseen strings in
        self.prefer: Callable[[str], bool] = lambda item: False
        self.stuck = 0
        self.recent: list[str] = []         # the titles of the last screens
        self.browsed: set[int] = set()      # the results whose steps were browsed
        self.detailed: set[int] = set()     # the screens whose details (OK) were read
        self.logs_read: set[str] = set()    # the battles whose log was read at their end
        loop = table.box.loop
        draw = loop.render

        def recording(view: View) -> Image.Image:
            image = draw(view)
            self.saw(view, image)
            return image
        loop.render = recording
        self.keep(table.view)

    def saw(self, view: View, image: Image.Image) -> None:
        self.seen.append(Seen(self.app.settings.language, self.journey, view, image,
                              switched(self.app, view)))
        for text in view_texts(view):
            if text not in self.read:
                self.read.add(text)
                for key in [key for key, found in self.unseen.items() if found.search(text)]:
                    del self.unseen[key]

    def unseen_in(self, item: str) -> bool:
        """Whether a menu item is a string of i18n that no frame has shown yet."""
        return item not in self.read and any(
            found.search(item) for found in self.unseen.values())

    def t(self, key: str, **values: object) -> str:
        return i18n.text(self.language, key, **values)

    @property
    def app(self) -> Any:
        return self.table.box.app

    @property
    def view(self) -> View:
        view: View = self.table.view
        return view

    def keep(self, view: View) -> None:
        """A frame drawn outside the main loop (the boot title)."""
        self.saw(view, render(view))

    def press(self, *words: str) -> None:
        """Press as a player would; "back" holds the knob past its long press, on the
        table's tap clock."""
        self.table.press(*words)

    def turn_to(self, wanted: int) -> None:
        """The knob turned the shorter way round to item `wanted` of the menu shown."""
        view = self.view
        assert isinstance(view, Menu)
        steps = (wanted - view.index) % len(view.items)
        self.press(*(["cw"] * steps if steps <= len(view.items) // 2 else
                     ["ccw"] * (len(view.items) - steps)))

    def choose(self, text: str) -> bool:
        """The menu item that starts with `text`; False (and nothing pressed) when the screen
        has none."""
        view = self.view
        items = view.items if isinstance(view, Menu) else ()
        wanted = next((i for i, item in enumerate(items) if item.startswith(text)), None)
        if wanted is None:
            return False
        self.turn_to(wanted)
        self.press("ok")
        return True

    def show(self, screen: Any, steps: int = 40) -> None:
        """A screen of the box put on the panel, read to its end and left."""
        before = self.app.screen
        self.app.screen = screen
        self.table.box.loop.draw()
        self.play(steps, until=lambda: self.app.screen is before)

    def read_only(self, screen: Any) -> None:
        """A screen of the box put on the panel and read to its end; then the screen before
        again, as the box would go on (for a screen whose OK would really try again)."""
        before = self.app.screen
        self.app.screen = screen
        self.table.box.loop.draw()
        while self.view.index < last_row(self.view):
            self.press("cw")
        self.app.screen = before
        self.table.box.loop.draw()

    def aim(self, facing: Facing) -> None:
        """A shot before it is fired: the knob turned to the armour hit, the firer's button."""
        screen = self.app.screen
        for _ in range(len(Facing)):
            if screen.aim.facing is facing:
                break
            self.press("cw")
        self.press(screen.side)

    # ---- the guide's moves ----

    def play(self, steps: int, until: Callable[[], bool] = lambda: False) -> None:
        for _ in range(steps):
            if until():
                return
            before = (id(self.app.screen), self.view)
            self.step()
            self.stuck = self.stuck + 1 if (id(self.app.screen), self.view) == before else 0

    def step(self) -> None:
        screen, view = self.app.screen, self.view
        kind = type(screen).__name__
        title = f"{kind_of(view.header.title)} {view.header.round}"
        if isinstance(view, Menu):
            self.recent = [*self.recent[-(LOOP - 1):], title]
        if self.stuck >= 2:         # a screen that waits for something else: try each control
            self.press(("axis", "allies", "ok", "cw", "back")[self.stuck % 5])
        elif isinstance(view, Menu) and self.recent.count(title) > LOOP // 3:
            self.recent.clear()     # a menu that keeps coming back (refusals, or no way on
            self.press("back")      # but a long press): back
        elif view.header.title == self.t("game_over") and self.app.state is not None and \
                self.app.state.id not in self.logs_read:
            self.read_log()
        elif getattr(screen, "details", None) is not None and id(screen) not in self.detailed:
            self.detailed.add(id(screen))       # the figures behind a chance's words, once:
            self.press("ok")                    # OK, read (then OK goes back)
        elif kind == "Scroll" and screen.details is not None and \
                view.index >= last_row(view):   # read, its details too: back
            self.press("back")
        elif kind == "FirePreview":             # the armour turned a few detents, then fire
            self.press(*["cw"] * self.rng.choice((0, 0, 1, 2, 3)), screen.side)
        elif kind == "Show" and screen.steps and screen.index == screen.last > 0 and \
                id(screen) not in self.browsed:
            self.browsed.add(id(screen))        # the steps of a result, back and on again
            self.press(*["ccw"] * screen.last, *["cw"] * screen.last)
        elif isinstance(getattr(screen, "side", None), str):
            self.press(screen.side)                      # a screen that waits for a button
        elif kind == "RollOff":
            self.press("allies" if "axis" in {s.value for s in screen.faces} else "axis")
        elif kind == "Roster" and screen.squad is None:
            self.roster(screen)
        elif isinstance(view, Menu):
            self.menu(view)
        elif isinstance(view, Lines) and view.index < last_row(view):
            self.press("cw")
        elif kind == "QuickDice":               # a D6, and once a D6+ (held: slow)
            rolled = self.tried["D6+", ""]
            self.press("axis_long" if not rolled else ("axis", "ok")[rolled % 2])
            self.tried["D6+", ""] += 1
        elif kind == "Dial" or any(hasattr(screen, knob) for knob in ("cm", "value", "squad")):
            turns = self.rng.choice((-12, -3, 0, 1, 2, 5))         # a number dialled
            self.press(*(["cw"] * turns if turns > 0 else ["ccw"] * -turns), "ok")
        else:
            self.press("ok")

    def menu(self, view: Menu) -> None:
        title = kind_of(view.header.title)
        late = {self.t(key) for key in ("end_battle", "give_up", "end_game", "poweroff",
                                        "reboot", "back_to_game", "language")}

        def weight(item: str) -> float:
            if item.startswith(self.t("language")):
                return 0.0                      # the tour stays in its language
            tried = self.tried[title, kind_of(item)] + self.anywhere[kind_of(item)] // 4
            new = 20 if not self.anywhere[kind_of(item)] or self.unseen_in(item) else 1
            return (1000.0 if self.prefer(item) else 1.0) * new / (1 + tried) ** 2 * (
                0.05 if kind_of(item) in late else 1.0)
        weights = [weight(item) for item in view.items]
        wanted = self.rng.choices(range(len(view.items)), weights)[0] if any(weights) else 0
        self.tried[title, kind_of(view.items[wanted])] += 1
        self.anywhere[kind_of(view.items[wanted])] += 1
        state = self.app.state
        if " → " in view.items[wanted] and state is not None and state.active is not None \
                and self.rng.random() < 0.5:
            self.turn_to(wanted)                # the last shot again: the firer's button
            self.press(state.active.value)      # fires it (anywhere else it is refused)
        else:
            self.turn_to(wanted)
            self.press("ok")

    def follow(self, *items: str, steps: int = 30) -> bool:
        """Each menu item in turn, played on to (a screen waiting for a button is pressed, a
        text read) until a menu shows it; False where one never does."""
        for item in items:
            self.play(steps, until=lambda item=item: isinstance(self.view, Menu) and any(
                text.startswith(item) for text in self.view.items))
            if not self.choose(item):
                return False
        return True

    def read_log(self) -> None:
        """The battle's log read at its end, from the menu of a long press on its last
        screen."""
        self.logs_read.add(self.app.state.id)
        self.press("back")
        if self.choose(self.t("battle_log")):
            self.play(200, until=lambda: not isinstance(self.view, Lines))

    def roster(self, screen: Any) -> None:
        """Both sides get pieces, a card each in turn, and OK starts."""
        for number, card in enumerate(screen.cards(self.app)):
            self.go_to_card(card.key)
            self.press("axis" if number % 2 else "allies")
            self.play_squad()
        self.press("ok")

    def go_to(self, row: int) -> None:
        while self.app.screen.index != row:
            self.press("cw")

    def row_of(self, kind: str, key: str | None = None) -> int | None:
        """The roster's row of that kind ("card", "same", "rules", "remove"): of a card, the
        card with that key."""
        screen = self.app.screen
        return next((i for i, (found, value) in enumerate(screen.rows(self.app))
                     if found == kind and (key is None or value.key == key)), None)

    def go_to_card(self, key: str) -> None:
        row = self.row_of("card", key)
        assert row is not None
        self.go_to(row)

    def play_squad(self) -> None:
        """A squad just added: the knob dials its figures, OK."""
        if getattr(self.app.screen, "squad", None) is not None:
            self.press("cw", "cw", "ok")

    def dial_to(self, word: str) -> None:
        """The knob turned until the big word reads `word` ("30 cm")."""
        number = int(word.split()[0])
        while self.view.word != word:
            self.press("cw" if int(self.view.word.split()[0]) < number else "ccw")

    def many_pieces(self, count: int = PIECES) -> None:
        """One model `count` times for the Axis: the last is "<label> 12"."""
        key = self.app.screen.cards(self.app)[0].key
        self.go_to_card(key)
        for _ in range(count):
            self.press("axis")
            self.play_squad()


# ---- the journeys ----

Make = Callable[..., Any]


@dataclass
class Tour:
    """The tour in one language: the boxes it builds (`make`), where they keep their state,
    every frame seen and what the boxes said."""

    make: Make
    folder: Path
    language: str
    seen: list[Seen] = field(default_factory=list)
    said: Said = field(default_factory=Said)
    anywhere: Counter[str] = field(default_factory=Counter)
    unseen: dict[str, re.Pattern[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.unseen.update((key, pattern(i18n.text(self.language, key)))
                           for key in i18n.STRINGS)

    def box(self, name: str, faces: list[int] | None = None, **parts: Any) -> Any:
        """A box of its own for a journey, or again on the state `name` left."""
        more = parts.pop("config", {})
        return self.make(faces if faces is not None else dice(len(name)),
                         self.folder / name, config(self.language, **more), **parts)

    def guide(self, table: Any, journey: str, seed: int = 1) -> Guide:
        return Guide(table, self.language, journey, self.seen, seed, self.anywhere,
                     self.unseen)

    def t(self, key: str, **values: object) -> str:
        return i18n.text(self.language, key, **values)

    def save(self, name: str, game: dict[str, Any]) -> None:
        """A battle or game saved in the state of box `name`, as if played up to there."""
        (self.folder / name).mkdir(parents=True, exist_ok=True)
        store = SqliteStore(self.folder / name / DATABASE_NAME)
        store.save_battle(game, [])
        store.close()

    def system(self, *words: object) -> None:
        """The system's own words (or the owner's) the tour gives a box to show."""
        self.said.system |= {str(word) for word in words if str(word)}


@contextmanager
def only_shipped_cards() -> Iterator[None]:
    """No card folder but the shipped one, while a box is built."""
    saved = os.environ.get("COBI_COMPANION_CARDS")
    os.environ["COBI_COMPANION_CARDS"] = ""
    try:
        yield
    finally:
        if saved is None:
            del os.environ["COBI_COMPANION_CARDS"]
        else:
            os.environ["COBI_COMPANION_CARDS"] = saved


def labels() -> dict[str, str]:
    """The label of each card, by its key."""
    return {card.key: card.short for card in load_cards().sorted()}


def journey_box(tour: Tour) -> None:
    """A box with a settings file it skipped and only its own cards: the problem first, then
    the start menu, quick dice, the settings and the box's own rows, check distance; the
    language switched and back; and power off and restart asked of a system that does them."""
    tour.system(USB_PROBLEM.path, *USB_PROBLEM.problems, *STICK_REFUSAL.problems)
    loaded = Loaded(config(tour.language), (Path("/boot/firmware/cobi/config.toml"),),
                    (USB_PROBLEM,), (), refused=(STICK_REFUSAL,))
    with only_shipped_cards():
        table = tour.box("box", loaded=loaded)
    guide = tour.guide(table, "box")
    guide.prefer = lambda item: not any(item.startswith(tour.t(key)) for key in (
        "new", "cobra", "new_match", "resume", "resume_match", "resume_cobra"))
    guide.play(160)
    for action in ("reboot", "poweroff"):
        guide = tour.guide(tour.box(action, power=RecordingPower()), "box")
        # the voice row says why nothing is heard: no engine on one box, no sound on the other
        guide.app.speech = NoSpeech("voice_no_engine" if action == "reboot" else "voice_no_audio")
        guide.choose(tour.t("settings"))
        if action == "reboot":                          # the language row: the other one,
            guide.choose(tour.t("language"))            # and back
            guide.press("ok")
        else:                                           # the voice's every choice and volume
            guide.app.speech = NoSpeech()
            for _ in range(len(VOICES)):
                guide.choose(tour.t("voice"))
            for _ in range(100 // VOLUME_STEP):
                guide.choose(tour.t("volume"))
        for _ in range(6):                              # every step of the screen's timeout
            guide.choose(tour.t("screen_off"))
        guide.choose(tour.t("files_in_use"))            # no settings file: the built-in ones
        guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu))
        guide.choose(tour.t(action))
        guide.choose(tour.t("yes"))


def pass_and_say_yes(guide: Guide) -> Callable[[str], bool]:
    """Pass, and yes when asked whether to."""
    return lambda item: item == guide.t("pass") or (
        item == guide.t("yes") and guide.view.header.title == guide.t("pass_ask"))


def journey_easy(tour: Tour) -> None:
    """An Easy battle: the roster's rows (each side needs a vehicle, the Rules row to the Tank
    Game and back, a piece too many removed), PIECES of one model; the roll-off tied first;
    passes on to round ROUNDS, then fire and moves, the dice fairness and the log read, and
    the battle ended. Then a battle with the same armies again; then the box starts again,
    real dice on, and the battle is resumed."""
    guide = tour.guide(tour.box("easy", [3, 3, *dice(4)]), "easy", seed=11)
    guide.choose(tour.t("new"))
    guide.press("ok")                                   # no pieces yet: the roster says so
    guide.play(3, until=lambda: type(guide.app.screen).__name__ == "Roster")
    for _ in range(2):                                  # the Tank Game, and back
        guide.go_to(guide.row_of("rules"))
        guide.press("ok")
        if guide.app.screen.level == "tank":            # no pieces: each side needs a piece
            guide.press("cw", "ok")
            guide.play(3, until=lambda: type(guide.app.screen).__name__ == "Roster")
    house_rules_tried(guide, "easy")
    guide.many_pieces(PIECES + 1)
    guide.go_to(guide.row_of("remove"))                 # the last one out again
    guide.press("ok", "ccw", "ok")
    guide.roster(guide.app.screen)
    guide.prefer = pass_and_say_yes(guide)
    guide.play(900, until=lambda: guide.app.state is not None and
               guide.app.state.round >= ROUNDS)
    guide.prefer = lambda item: False
    guide.play(300)
    for item in ("dice_stats", "battle_log"):
        for _ in range(4):      # back to the battle's menu from wherever the guide stopped
            guide.press("back")
            if guide.choose(tour.t(item)):
                break
        guide.play(200, until=lambda: not isinstance(guide.view, Lines))
    guide.press("back")
    guide.choose(tour.t("end_battle"))
    guide.choose(tour.t("yes"))                         # asked first, "no" lit
    guide.choose(tour.t("new"))                         # the same armies again
    guide.choose(tour.t("same_armies"))
    guide.play(150)
    resumed(tour, "easy", 150)


def house_rules_tried(guide: Guide, level: str) -> None:
    """The roster's House rules row: each of the level's house rules turned through all its
    values (each one's meaning on the hint) back to the rules' own reading, then the first one
    changed for the battle (its line in the log, on the status board), then Done."""
    guide.go_to(guide.row_of("house"))
    guide.press("ok")
    for rule in house.for_level(level):
        guide.press(*["ok"] * len(rule.values), "cw")
    guide.press("ok")                                   # Done: back on the roster
    guide.press("ok", "ok", "ccw", "ok")                # the first rule once, then Done


def resumed(tour: Tour, name: str, steps: int) -> None:
    """The box `name` started again, real dice on: the battle or game it saved goes on."""
    guide = tour.guide(tour.box(name), name, seed=len(name))
    guide.choose(tour.t("settings"))
    guide.choose(tour.t("real_dice"))
    guide.press("back")
    item = next((item for item in guide.view.items if item.startswith(tuple(
        tour.t(key) for key in ("resume", "resume_match", "resume_cobra")))), None)
    if item is not None:
        guide.choose(item)
        guide.play(steps)


def journey_tank(tour: Tour) -> None:
    """A Tank Game battle with every card, figures and guns too (the roster's Rules row turned
    to it; each side needs a piece); then the box starts again and it is resumed."""
    guide = tour.guide(tour.box("tank"), "tank", seed=7)
    guide.choose(tour.t("new"))
    guide.go_to(guide.row_of("rules"))
    guide.press("ok")
    house_rules_tried(guide, "tank")
    guide.go_to(guide.row_of("rules"))
    guide.press("cw", "ok")                             # no pieces yet: the roster says so
    guide.play(900)
    resumed(tour, "tank", 100)


def seed_battle(tour: Tour, name: str, sides: dict[Side, list[tuple[str, dict[str, bool]]]],
                level: str = "tank", round: int = 3, log: tuple[LogEntry, ...] = (),
                last_shot: LastShot | None = None, riding: dict[int, int] | None = None,
                house: HouseRules = house.DEFAULT) -> None:
    """A battle saved in the state of box `name`: each side's pieces as (card, marks), the
    Axis to act in `round`, with the lines of its log and the Axis's last shot; `riding`:
    squads riding vehicles, by their places in the battle (Axis first); its house rules."""
    book = load_cards()
    battle = Battle(level)
    for side, pieces in sides.items():
        for key, mark in pieces:
            card = book.get(key)
            battle = battle.add(card, side, 3 if card.kind is Kind.FIGURE else None)
            piece = battle.pieces[-1]
            battle = battle.replace_piece(replace(piece, status=replace(piece.status, **mark)))
    for rider, vehicle in (riding or {}).items():
        carrier = battle.pieces[vehicle]
        battle = battle.replace_piece(replace(battle.pieces[rider],
                                              riding=Ride(carrier.label, carrier.kind)))
    state = TankBattle(level, battle, round=round, first=Side.AXIS, active=Side.AXIS,
                       log=list(log), house=house, defender=Side.AXIS,
                       turn=turns.Turn(2 * round - 1, Side.AXIS)) if level == "tank" else \
        EasyBattle(level, battle, round=round, first=Side.AXIS, active=Side.AXIS,
                   log=list(log), house=house)
    if last_shot is not None:
        state.last_shot[Side.AXIS] = last_shot
    tour.save(name, state.to_dict())


def journey_fights(tour: Tour) -> None:
    """Saved battles resumed and fought: tanks at tanks (every outcome of a shot, the armour
    turned on the knob), squads at squads, guns and a soft vehicle (fire at soft targets,
    templates), a tank whose enemies are all hidden or off the map (no target), a damaged
    target at the Easy level, and the last shot again, fired by the firer's button."""
    none: dict[str, bool] = {}
    label = labels()
    fights = {
        "tanks": ({Side.AXIS: [("2477", none), ("2474", none), ("pz-iv-d", none)],
                   Side.ALLIES: [("2464", none), ("2456", none), ("2508", none)]},
                  (tour.t("fire"),)),
        "squads": ({Side.AXIS: [("rifleman", none), ("mg-gunner", none),
                                ("pistol-soldier", none), ("bofors-37mm", none)],
                    Side.ALLIES: [("rifleman", none), ("motorcycle-sidecar", none),
                                  ("rifleman", {"hidden": True}), ("2456", none)]},
                   (tour.t("fire"),)),
        "alone": ({Side.AXIS: [("2477", none)],
                   Side.ALLIES: [("2464", {"hidden": True}), ("2456", {"off_map": True})]},
                  (tour.t("fire"),)),
        "placing": ({Side.AXIS: [("2456", {"off_map": True}), ("rifleman", {"off_map": True}),
                                 ("2477", none)],
                     Side.ALLIES: [("2464", none)]},
                    (tour.t("place_off_map", n=2), tour.t("place_off_map", n=1),
                     tour.t("on_its_own"), label["2456"] + " 1")),
    }
    for seed, (name, (sides, wanted)) in enumerate(fights.items()):
        seed_battle(tour, name, sides)
        guide = tour.guide(tour.box(name), name, seed=seed)
        guide.choose(tour.t("resume"))
        guide.prefer = lambda item, wanted=wanted: item in wanted
        guide.play(150)
        guide.prefer = lambda item: False
        guide.play(250)
    hits = {"immobilized": [6, 6, *[2] * 9], "weakened": [6, 6, 6, *[2] * 9],
            "gun-lost": [6, 6, 6, 6, 6, *[2] * 9], "no-effect": [6, 1, *[1] * 9]}
    for name, faces in hits.items():          # a Sherman at a Tiger's side: 9 dice v 8
        seed_battle(tour, name, {Side.AXIS: [("2464", none)], Side.ALLIES: [("2477", none)]})
        guide = tour.guide(tour.box(name, faces * 20), name)
        guide.choose(tour.t("resume"))
        guide.follow(label["2464"], tour.t("fire"), label["2477"], tour.t("no"), tour.t("no"))
        guide.aim(Facing.SIDE)
        guide.play(30)
    seed_battle(tour, "tiger", {Side.AXIS: [("2477", none)], Side.ALLIES: [("2464", none)]})
    guide = tour.guide(tour.box("tiger", [6, 6, 6, *[2] * 16] * 20), "tiger")
    guide.choose(tour.t("resume"))                # 16 damage dice and one more for the six
    guide.follow(label["2477"], tour.t("fire"), label["2464"], tour.t("no"), tour.t("no"))
    guide.aim(Facing.FRONT)
    guide.play(30)
    for level, firer, number in (("easy", "2477", 2), ("tank", "2464", 1)):   # the last shot
        name = f"again-{level}"
        seed_battle(tour, name, {Side.AXIS: [(firer, none)], Side.ALLIES: [("2477", none)]},
                    level, last_shot=LastShot(f"{label[firer]} 1", f"{label['2477']} {number}",
                                              Facing.REAR))
        guide = tour.guide(tour.box(name, [6, 6, 6, *[2] * 16] * 20), name)
        guide.choose(tour.t("resume"))
        guide.press("axis")                       # again, on its row: fired at once
        guide.play(20)
    seed_battle(tour, "turn-end", {Side.AXIS: [("rifleman", none), ("pistol-soldier", none)],
                                   Side.ALLIES: [("rifleman", none)]})
    guide = tour.guide(tour.box("turn-end"), "turn-end")
    guide.choose(tour.t("resume"))                # a move, no fire: the extra activation,
    guide.follow(label["rifleman"], tour.t("move"), tour.t("end_activation"),
                 tour.t("yes"), tour.t("pass"), tour.t("no"), tour.t("pass"), tour.t("yes"))
    guide.play(10)                                # then the turn ended: asked first
    for name, face in (("reload-fails", 1), ("reloads", 6)):    # the piece's menu says which
        seed_battle(tour, name, {Side.AXIS: [("2477", {"loaded": False})],
                                 Side.ALLIES: [("2464", none)]})
        guide = tour.guide(tour.box(name, [face] * 20), name)
        guide.choose(tour.t("resume"))
        guide.follow(label["2477"], tour.t("reload"))
        guide.play(3, until=lambda guide=guide: isinstance(guide.view, Menu))
    seed_battle(tour, "damaged", {Side.AXIS: [("2477", none)],
                                  Side.ALLIES: [("2464", {"weakened": True})]}, "easy")
    guide = tour.guide(tour.box("damaged", [6, 2] * 50), "damaged")
    guide.choose(tour.t("resume"))                # at the Easy level any hit destroys it
    guide.follow(label["2477"], tour.t("fire_at", target=label["2464"] + " 1"))
    guide.aim(Facing.FRONT)
    guide.play(10)
    scenes = {      # a firer, its target, and what to pick on the way: a screen each
        "no-target": ("2477", ("2456", {"off_map": True}), ()),
        "hidden": ("2477", ("2464", {"hidden": True}), (label["2464"],)),
        "no-weapon": ("unarmed", ("rifleman", none), (label["rifleman"],)),
        "templates": ("mg-gunner", ("rifleman", none), (label["rifleman"],)),
        "weapons": ("pistol-soldier", ("rifleman", none), (label["rifleman"],)),
        "squad": ("rifleman", ("rifleman", none), (label["rifleman"], tour.t("sit_open"))),
        "vehicle": ("rifleman", ("motorcycle-sidecar", none),
                    (label["motorcycle-sidecar"], tour.t("sit_open"), tour.t("front"))),
        "mg": ("mg-gunner", ("rifleman", none),
               (tour.t("template", weapon=tour.t("weapon_medium mg")), label["rifleman"],
                tour.t("sit_open"), tour.t("fire_now"))),
        "mg-cover": ("mg-gunner", ("rifleman", none),
                     (tour.t("template", weapon=tour.t("weapon_medium mg")), label["rifleman"],
                      tour.t("sit_hard_cover"), tour.t("fire_now"))),
        "mg-vehicle": ("mg-gunner", ("rifleman", none),
                       (tour.t("template", weapon=tour.t("weapon_medium mg")), label["rifleman"],
                        tour.t("sit_soft_vehicle"), tour.t("fire_now"))),
    }
    for seed, (name, (firer, (enemy, marks), picks)) in enumerate(scenes.items()):
        seed_battle(tour, name, {Side.AXIS: [(firer, none)], Side.ALLIES: [(enemy, marks)]})
        guide = tour.guide(tour.box(name, [6, 2, 3] * 200 if name == "vehicle" else None),
                           name, seed=seed)
        guide.choose(tour.t("resume"))
        guide.follow(label[firer], tour.t("fire"), *picks)
        if type(guide.app.screen).__name__ == "RangeDial":
            guide.press("ok")                   # the range the table has a value for
        guide.play(40)
    seed_battle(tour, "dialled", {Side.AXIS: [("2477", none)], Side.ALLIES: [("2464", none)]})
    guide = tour.guide(tour.box("dialled"), "dialled")
    guide.choose(tour.t("settings"))            # real dice: each face is dialled
    guide.choose(tour.t("real_dice"))
    guide.press("back")
    guide.choose(tour.t("resume"))
    guide.follow(label["2477"], tour.t("fire"), label["2464"], tour.t("no"), tour.t("no"))
    guide.aim(Facing.FRONT)
    guide.play(20)
    seed_battle(tour, "leaving", {Side.AXIS: [("2464", {"commander_killed": True})],
                                  Side.ALLIES: [("2477", none)]})
    guide = tour.guide(tour.box("leaving"), "leaving")
    guide.choose(tour.t("resume"))
    guide.press("back")                     # only figures hide in play: a tank is refused
    guide.follow(tour.t("hidden_pieces"), label["2477"])
    guide.play(3, until=lambda: guide.view.header.title == tour.t("hidden_pieces"))
    guide.press("back")
    guide.follow(label["2464"], tour.t("leave_map"))
    guide.play(10)
    # a hidden figure spotted by a tank's commander out in the turret; one nobody can spot
    seed_battle(tour, "spotting", {Side.AXIS: [("2477", {"commander_out": True})],
                                   Side.ALLIES: [("rifleman", {"hidden": True})]})
    guide = tour.guide(tour.box("spotting"), "spotting")
    guide.choose(tour.t("resume"))
    guide.press("back")
    guide.follow(tour.t("hidden_pieces"), "• " + label["rifleman"], tour.t(
        "commander_of", label=f"{label['2477']} 1"))
    guide.play(3, until=lambda: guide.view.header.title == tour.t("hidden_pieces"))
    seed_battle(tour, "no-spotter", {Side.AXIS: [("2477", none)],
                                     Side.ALLIES: [("rifleman", {"hidden": True})]})
    guide = tour.guide(tour.box("no-spotter"), "no-spotter")
    guide.choose(tour.t("resume"))
    guide.press("back")
    guide.follow(tour.t("hidden_pieces"), "• " + label["rifleman"])
    guide.play(3, until=lambda: guide.view.header.title == tour.t("hidden_pieces"))


def journey_riders(tour: Tour) -> None:
    """Figures riding on vehicles: a squad gets on a tank (the box asks which vehicle), a
    squad loaded in a soft vehicle is picked with it and gets off, then the enemy fires at the
    squad on the tank; the battle is played on."""
    label = labels()
    rifle, tank = label["rifleman"], label["2464"]
    seed_battle(tour, "riders", {Side.AXIS: [("rifleman", {}), ("2464", {}), ("rifleman", {}),
                                             ("motorcycle-sidecar", {})],
                                 Side.ALLIES: [("rifleman", {})]}, riding={2: 3})
    guide = tour.guide(tour.box("riders"), "riders")
    guide.choose(tour.t("resume"))
    guide.follow(f"{rifle} 1", tour.t("go"), tour.t("get_on"), f"{tank} 1",
                 tour.t("end_activation"), tour.t("yes"), f"{rifle} 2", tour.t("go"),
                 tour.t("get_off"), tour.t("end_activation"), f"{rifle} 3", tour.t("fire"))
    guide.play(150)


def journey_learn(tour: Tour) -> None:
    """The Soft Targets Table learned at the table: a rifle shot at a range the table lacks
    (it knows 45 cm), the value dialled and remembered for a band, then a band that overlaps
    it; a template the table lacks remembered for good; a box whose learned file is broken;
    and the notice of each reason a value is not saved (as learn.py says them)."""
    label = labels()
    grenade = tour.t("template", weapon=tour.t("weapon_grenade"))
    yours = HouseRules(soft_table="printed")     # your table: a value it lacks is asked
    for name in ("learn", "learn-broken"):
        seed_battle(tour, name, {Side.AXIS: [("rifleman", {})],
                                 Side.ALLIES: [("rifleman", {})]}, house=yours)
        if name == "learn-broken":
            path = learned_file(tour.folder / name)
            path.parent.mkdir(parents=True)
            path.write_text("[weapons.rifle]\nranges = [{ from_cm = 28, to_cm = 40 }]\n")
        guide = tour.guide(tour.box(name, [4, 3] * 100), name)
        if name == "learn-broken":               # the box says so first; hold: play on
            tour.system(*map(str, guide.app.book.problems))
            guide.press("back")
        guide.choose(tour.t("resume"))
        guide.follow(label["rifleman"], tour.t("fire"), label["rifleman"], tour.t("sit_open"))
        guide.dial_to("30 cm")
        guide.press("ok", "cw", "ok")           # the range; the table says +1
        guide.choose(tour.t("remember_band"))
        guide.press("ccw", "ccw", "ok", *["cw"] * 7, "ok")         # for 28-37 cm
        if name == "learn-broken":
            guide.play(12)
            continue
        # the squad's next shot: the first one's again, held for another range
        again = tour.t("shot_of", n=2, of=3)
        guide.play(30, until=lambda guide=guide, again=again: isinstance(guide.view, Lines)
                   and guide.view.header.title == again)
        guide.press("back")
        guide.follow(label["rifleman"], tour.t("sit_open"))
        guide.dial_to("40 cm")
        guide.press("ok", "ok")                 # the table says 0
        guide.choose(tour.t("remember_band"))
        guide.press("ccw", "ccw", "ccw", "ok", "ok")                 # 37-40 cm: overlaps
        guide.play(6, until=lambda guide=guide: type(guide.app.screen).__name__ == "BandDial")
        guide.press("cw", "cw", "cw", "ok", "ok")                    # 40-40 cm
        guide.play(12)
    seed_battle(tour, "learn-template", {Side.AXIS: [("mg-gunner", {})],
                                         Side.ALLIES: [("rifleman", {})]}, house=yours)
    guide = tour.guide(tour.box("learn-template", [4, 3] * 100), "learn")
    guide.choose(tour.t("resume"))
    guide.follow(label["mg-gunner"], tour.t("fire"), grenade, label["rifleman"])
    guide.play(4, until=lambda: isinstance(guide.view, Menu))
    guide.follow(tour.t("sit_open"), tour.t("fire_now"))
    guide.press("ok")                           # the template's value: 0
    guide.choose(tour.t("remember_always"))
    guide.play(12)
    app = guide.app
    wanted = Wanted(weapon="rifle", lack=learn.Lack.RANGE, cm=30.0)
    for why in (errno.EROFS, errno.ENOSPC, errno.EIO):
        said = learn.cannot_write(app, OSError(why, os.strerror(why)))
        guide.show(learn.not_remembered(app, said, -6, lambda screen=app.screen: screen))
    guide.show(learn.ValueDial(wanted, lambda value, screen=app.screen: screen,
                               lambda screen=app.screen: screen, value=-6))


def journey_marks(tour: Tour) -> None:
    """A Tank Game battle saved with a piece under every mark a piece can have: the status
    board, and the actions of pieces off the map, hidden, with their commander out or killed."""
    book = load_cards()
    battle = Battle("tank")
    marks = [{}, {"loaded": False}, {"weakened": True}, {"gun_destroyed": True},
             {"immobilized": True}, {"destroyed": True}, {"hidden": True},
             {"commander_out": True}, {"commander_killed": True}, {"off_map": True}]
    for number, card in enumerate(book.sorted()):
        for side in Side:
            battle = battle.add(card, side, 3 if card.kind is Kind.FIGURE else None)
            piece = battle.pieces[-1]
            mark = marks[(number + (side is Side.ALLIES)) % len(marks)]
            battle = battle.replace_piece(replace(piece, status=replace(piece.status, **mark)))
    state = TankBattle("tank", battle, round=3, first=Side.AXIS, active=Side.AXIS,
                        defender=Side.AXIS, turn=turns.Turn(5, Side.AXIS))
    tour.save("marks", state.to_dict())
    guide = tour.guide(tour.box("marks"), "marks", seed=13)
    guide.choose(tour.t("resume"))
    guide.press("back")
    guide.choose(tour.t("status_board"))
    guide.play(400)


def journey_match(tour: Tour) -> None:
    """A match: each battle played a while and given up (no, then yes, when asked); the box
    starts again between them."""
    guide = tour.guide(tour.box("match"), "match", seed=3)
    guide.choose(tour.t("new_match"))
    for seed, side in ((4, Side.AXIS), (5, Side.ALLIES)):     # the same team wins both
        guide.play(150)
        give_up(guide, side, tour.t("no"))
        give_up(guide, side, tour.t("yes"))
        guide = tour.guide(tour.box("match"), "match", seed=seed)         # started again
        guide.choose(tour.t("resume_match"))
        guide.play(12, until=lambda app=guide.app: app.state is None or
                   app.state.winner is None)
    guide.play(30)


def journey_slips(tour: Tour) -> None:
    """Nothing lost to a slip: in a match, End battle asks (no); the box started again with
    the match saved, New battle, Cobra and New match ask (no, each); New battle, yes, then a
    roster left with a piece on it asks (no, then yes)."""
    guide = tour.guide(tour.box("slips"), "slips", seed=6)
    guide.choose(tour.t("new_match"))
    guide.play(40, until=lambda: guide.app.state is not None)
    for _ in range(8):                  # long presses: back to the battle, then its menu
        if guide.view.header.title == guide.t("menu"):
            break
        guide.press("back")
    guide.choose(tour.t("end_battle"))
    guide.choose(tour.t("no"))
    guide = tour.guide(tour.box("slips"), "slips", seed=7)
    for item in ("new", "cobra", "new_match"):
        guide.choose(tour.t(item))
        guide.choose(tour.t("no"))
    guide.choose(tour.t("new"))
    guide.choose(tour.t("yes"))
    guide.press("axis")
    guide.play_squad()
    guide.press("back")
    guide.choose(tour.t("no"))
    guide.press("back")
    guide.choose(tour.t("yes"))


def give_up(guide: Guide, side: Side, answer: str) -> None:
    """`side` gives up (from the menu of a long press), asked first: `answer`; the battle's
    end is read."""
    for _ in range(8):                  # long presses: back to the battle, then its menu
        if guide.view.header.title == guide.t("menu"):
            break
        guide.press("back")
    if guide.choose(guide.t("give_up")):
        guide.choose(guide.t("gives_up", side=guide.app.side_word(side)))
        guide.choose(answer)
    guide.play(3)


def journey_cobra(tour: Tour) -> None:
    """Cobra from its start, and resumed at the weather of game turn 16 (with the owner's
    tables and without), in storms, at the Allied supply and combat, at the end of the last
    game turn of the campaign and of Cobra, and with the victory points of each level of
    victory."""
    guide = tour.guide(tour.box("cobra"), "cobra", seed=5)
    guide.choose(tour.t("cobra"))
    guide.play(200)
    tables = owners_tables(tour.folder / "owner")
    start = CobraGame.start("cobra")
    owner = {"paths": {"cards_dir": str(tables)}}
    games = {"weather": (at(16, 0, [C]), owner, 5), "reading": (at(16, 0, [C]), {}, 3),
             "storms": (at(16, 1, [C, S]), {}, 2), "combat": (at(16, 3, [C, C]), owner, 4),
             "crt": (at(16, 3, [C, C]), {}, 6), "supply": (at(16, 5, [C, C]), {}, 1),
             "allied": (at(16, 8, [C, C]), {}, 1),
             "extended": (at_turn_end("campaign", 27), {}, 5),
             "campaign": (at_turn_end("campaign", 27), {}, 2),
             "last": (at_turn_end("cobra", 27), {}, 3)}
    for seed, (name, (game, more, face)) in enumerate(games.items()):
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name, [face, 4, 2, 5, 3, 6] * 200, config=more), "cobra",
                           seed=seed)
        guide.choose(tour.t("resume_cobra"))
        guide.play(60)
    for supply in ("pay_us", "pay_british", "pay_german"):
        step = 3 if supply == "pay_german" else 8       # the German or the Allied Combat Phase
        tour.save("attack", CobraSession(at(16, step, [C, C])).to_dict())
        guide = tour.guide(tour.box("attack", [4] * 50), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("attack"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"))
        if supply == "pay_us":
            for shift in ("shift_naval", "shift_patton", "shift_air"):
                guide.follow(tour.t(shift, n="").strip())
        guide.follow(tour.t("roll_attack"), tour.t(supply, cost="", have="").split(":")[0])
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
        if supply == "pay_british":             # carpet bombing, before the next attacks
            guide.follow(tour.t("carpet"))
            guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
        guide.press("back")                             # the log: the result to read
        guide.follow(tour.t("battle_log"))
        guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu))
    journey_command(tour)
    journey_landing(tour)
    for step in (2, 8):             # an overrun: German moving (5.4a), Allied advancing (5.4b)
        tour.save("overrun", CobraSession(at(16, step, [C, C])).to_dict())
        guide = tour.guide(tour.box("overrun", [4] * 50), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("overrun"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("roll_attack"))
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
    # game turn 2 of the campaign: overcast, forced (5.3)
    tour.save("forced", CobraSession(on("campaign", 2, 0)).to_dict())
    guide = tour.guide(tour.box("forced"), "cobra")
    guide.choose(tour.t("resume_cobra"))
    guide.follow(tour.t("roll_weather"))
    guide.play(6, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
    # the turn's budgets on the tracks, each read: on defence in the German Combat Phase
    # (14.1a), in storms (14.4), with a carpet mission flown (14.3f)
    budgets = (at(16, 3, [C, C]), at(16, 8, [C, S]),
               replace(at(16, 8, [C, C]), carpets=(16,), air_used=3, naval_used=1))
    for game in budgets:
        tour.save("budgets", CobraSession(game).to_dict())
        guide = tour.guide(tour.box("budgets"), "cobra")
        guide.choose(tour.t("resume_cobra"))
        for kind in ("air", "naval", "carpet"):
            guide.choose(tour.t("tracks"))
            guide.choose(tour.t("budget_" + kind, left="", most="").split(":")[0])
            guide.play(8, until=lambda guide=guide: type(guide.app.screen).__name__ == "Phased")
            guide.press("back")
    # (German VP, Allied VP, the answer, the scenario): each level, the longest net VP either
    # way (the German VP below zero), and the Build-Up's own question (17.4.2)
    levels = ((0, 30, "no", start), (0, 15, "no", start), (0, 0, "no", start),
              (15, 0, "no", start), (0, 0, "yes", start), (15, 0, "yes", start),
              (30, 0, "yes", start), (-199, 199, "no", start), (199, 0, "yes", start),
              (0, 0, "yes", CobraGame.start("buildup")))
    for german, allied, intact, game in levels:
        tracks = replace(game.tracks, german_vp=german, allied_vp=allied)
        tour.save("victory", CobraSession(replace(game, tracks=tracks)).to_dict())
        guide = tour.guide(tour.box("victory"), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.choose(tour.t("tracks"))
        guide.choose(tour.t("victory_level"))
        guide.choose(tour.t(intact))
        guide.play(3)
    for _ in range(3):                                  # the game's menu: it ends
        guide.press("back")
        if guide.choose(tour.t("end_game")):
            guide.choose(tour.t("yes"))
            guide.play(4)
            break


def journey_command(tour: Tour) -> None:
    """Cobra's HQs and command limits (8.3.3, 9.1, 11.3): an Allied attack with the HQ of its
    shift asked (an inactive one refused) and its army asked when no track tells, the limits
    on the tracks, and the HQs flipped on their screen (moved, displaced, eliminated)."""
    moved, _ = Command().flip(hq("VII"), HQEvent.MOVED, 16, 9)
    gone, _ = moved.flip(hq("XIX"), HQEvent.ELIMINATED, 16, 3)
    limited = gone.with_levels(16, 20, 20)
    for pick in ("VII", "V:", tour.t("hq_other")):
        tour.save("command", CobraSession(replace(at(16, 8, [C, C]), command=limited)).to_dict())
        guide = tour.guide(tour.box("command", [4] * 50), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("attack"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("shift_att_hq", n="").strip())
        guide.follow(pick)
        guide.follow(tour.t("roll_attack"), tour.t("unsupplied"))
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
        guide.follow(tour.t("tracks"))
        guide.play(6)
    # a level dialled 0 refuses the attack, and says where it is put right (11.3)
    tour.save("command", CobraSession(replace(at(16, 8, [C, C]), command=gone.with_levels(
        16, 0, 0))).to_dict())
    guide = tour.guide(tour.box("command", [4] * 50), "cobra")
    guide.choose(tour.t("resume_cobra"))
    guide.follow(tour.t("attack"), tour.t("add_unit"))
    guide.follow(tour.t("units_done"), tour.t("add_unit"))
    guide.follow(tour.t("units_done"), tour.t("roll_attack"), tour.t("unsupplied"))
    guide.play(8, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
    for step in (3, 9):                 # German combat, Allied mechanized movement
        tour.save("hqs", CobraSession(replace(at(16, step, [C, C]), command=gone)).to_dict())
        guide = tour.guide(tour.box("hqs"), "cobra")
        guide.choose(tour.t("resume_cobra"))
        for name, event in (("XIX", "hqevent_displaced"), ("VII", "hqevent_moved"),
                            ("V:", "hqevent_displaced"), ("V:", "hqevent_displaced"),
                            ("I:", "hqevent_eliminated")):
            guide.follow(tour.t("hqs"), name)
            guide.follow(tour.t(event))
            guide.play(4, until=lambda guide=guide: isinstance(guide.view, Menu))
            guide.press("back")
            guide.play(4, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")


def journey_cobra_movement(tour: Tour) -> None:
    """Cobra's movement allowance in each Movement Phase (German in clear with its toggles,
    the increase and its air attack lost and not, after an Allied exit, overcast and storms;
    Allied British infantry, the landing turns), the replacements of each side (a refusal, the
    British limit, the tenth Allied step's VP) and the replacement tracks on the Tracks
    screen."""
    exited = (Exit(16, "us", "south"),)
    landing = CobraGame.start("campaign")
    games = {"clear": at(16, 2, [C, C]), "exit": replace(at(17, 2, [C, C, C]), exits=exited),
             "overcast": at(16, 4, [C, Weather.OVERCAST]), "storms": at(16, 2, [C, S]),
             "allied": at(16, 9, [C, C]),
             "landing": replace(landing, turn=2, step=7, weather=(C, Weather.OVERCAST)),
             "landing-mech": replace(landing, turn=2, step=9, weather=(C, Weather.OVERCAST))}
    for name, game in games.items():
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name, [3, 5] * 20), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("movement"))
        guide.press("ok")                               # the printed MA the knob starts on
        for toggle in ("ma_out_of_supply", "ma_replaced", "ma_british_infantry"):
            guide.choose("- " + tour.t(toggle))
        guide.choose(tour.t("ma_show", ma="").split(" ")[0])
        guide.play(6, until=lambda guide=guide: isinstance(guide.view, Menu))
        for thirds in (2, 1):                           # 3 on 1-4: lost; 5 on 1-2: not
            if guide.choose(tour.t("ma_increase", n=thirds, low="").split(",")[0]):
                guide.press("axis")
                guide.play(6, until=lambda guide=guide: isinstance(guide.view, Menu))
    steps = tuple(Replacement(19, "us", "inf") for _ in range(8))
    for name, game in {"german-steps": at(16, 1, [C, C]),
                       "allied-steps": replace(at(20, 6, [C] * 6), replacements=steps)}.items():
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("replacements"))
        for key in ("repl_german_mech", "repl_german_mech", "repl_german_inf", "repl_us_inf",
                    "repl_british_inf", "repl_british_inf", "repl_british_inf", "repl_us_mech",
                    "repl_british_mech", "repl_track", "repl_allied"):
            item = tour.t(key, n="", mech="", inf="", next="")
            item = item.split(" ")[0] if key in ("repl_track", "repl_allied") else item.strip()
            if guide.choose(item):
                guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu))
        guide.press("back")
        guide.follow(tour.t("tracks"), tour.t("repl_track", mech="", inf="").split(" ")[0])
        guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu))


C, S = Weather.CLEAR, Weather.STORM


def journey_victory(tour: Tour) -> None:
    """Cobra's victory points reported from the tracks' menu in each scenario and game turn
    that has sources of its own (the longest items, every reason a value is what it is, a
    refusal, an entry taken back), and the special rolls at their phases with each outcome:
    Brest on GT 26 and 27 (15.3), the 15th Army with and without a corps HQ (15.2), Leclerc
    (15.1)."""
    four = tuple(Exit(20, "us", "west", "mech_division") for _ in range(4))
    menus = ((on("cobra", 20, 1, exits=four), ("exit_us_mech", "variant_4th_panzer",
                                                "variant_4th_panzer", "allied_regiment",
                                                "exit_us_west")),
             (on("cobra", 27, 1), ("exit_british_mech", "us_not_exited", "exit_us_mech")),
             (on("cobra", 19, 1), ("brest_entry",)), (on("campaign", 1, 1), ()),
             (on("campaign", 8, 1), ()), (on("campaign", 15, 1), ()),
             (on("buildup", 14, 1), ("caen",)))
    for seed, (game, keys) in enumerate(menus):
        tour.save("vp", CobraSession(game).to_dict())
        guide = tour.guide(tour.box("vp"), "cobra", seed=seed)
        guide.choose(tour.t("resume_cobra"))
        guide.choose(tour.t("tracks"))
        guide.choose(tour.t("victory_points"))
        for key in keys:
            guide.choose(vp_item(guide.app, vps.SOURCES[key], game.turn))
            if key == "us_not_exited":
                guide.press("cw", "cw", "cw", "cw", "ok")  # 5 × 3 VP: 12 at most (16.1)
            guide.play(8, until=lambda guide=guide: isinstance(guide.view, Menu) and
                       guide.view.header.title == tour.t("victory_points"))
        guide.choose(tour.t("vp_take_back", what="").split(":")[0])
        guide.play(30)
    released = Scoresheet(rolls=(SpecialRoll(22, "release", 1, True),))
    specials = (("brest", on("cobra", 26, 0), 2), ("brest", on("cobra", 27, 0), 5),
                ("release", on("cobra", 22, 2), 2), ("release", on("cobra", 23, 2, released), 1),
                ("release", on("cobra", 22, 2), 5), ("leclerc", on("cobra", 20, 7), 1),
                ("leclerc", on("cobra", 20, 7), 4))
    for key, game, face in specials:
        tour.save("special", CobraSession(game).to_dict())
        guide = tour.guide(tour.box("special", [face] * 10), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t(key))
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")


def on(key: str, turn: int, step: int, scoresheet: Scoresheet | None = None,
       exits: tuple[Exit, ...] = ()) -> CobraGame:
    """A game of scenario `key` at `step` of game turn `turn`, the weather known from its
    first turn on (none yet at the weather phase)."""
    game = CobraGame.start(key)
    played = tuple([Weather.OVERCAST] * (turn - game.first_turn + (1 if step else 0)))
    return replace(CobraGame(game.scenario, turn, step, played, game.tracks, game.last),
                   exits=exits, scoresheet=scoresheet or Scoresheet())


def journey_landing(tour: Tour) -> None:
    """The campaign's Allied Landing Phase (17.3.2), with the owner's tables and without: each
    drop landed and scattered, a resumed scatter, beach defence, attrition on a beach and on a
    paratroop unit, a beach held and abandoned, the nine drops done, the phase left before
    them; the withdrawal attack (17.3.4) at the end of an Allied turn, destroyed, withdrawn
    and read."""
    folder = owners_tables(tour.folder / "owner-landing")
    crt = "\n".join(f'"{c}" = ["", "{"-/1" if c == "3:1" else ""}", "", '
                    f'"{"1/2" if c == "2:1" else ""}", "", ""]' for c in COLUMNS)
    (folder / "cobra" / "tables.toml").write_text(f'[crt]\n{crt}\n[scatter]\n"4" = "south"\n')
    owner = {"paths": {"cards_dir": str(folder)}}
    start = CobraGame.start("campaign")
    pending = Landing(drops=((Target.US_82, 5, None),))
    nine = Landing(drops=tuple((Target.US_101, 1, 1) for _ in range(9)),
                   attritions=(Landed(Target.OMAHA, "4:1", 6, "3", 3),))
    withdrawal = CobraGame("campaign", 3, 10, (C, C, C), start.tracks, start.last)
    # (name, game, tables, dice, the items to choose, the keys to press then)
    runs = [("drop", start, {}, [1], ("para_drop", "landing_82nd"), ()),
            ("scatter", start, owner, [6, 4], ("para_drop", "landing_6th"), ()),
            ("scatter-read", replace(start, landing=pending), {}, [2], (), ()),
            ("defence", start, {}, [6], ("beach_defence",), ()),
            ("attrition", start, owner, [4], ("landing_attrition", "landing_juno"),
             ("cw", "cw", "ok")),
            ("para", start, {}, [2], ("landing_attrition", "landing_101st"), ("ccw", "ok")),
            ("held", replace(start, landing=nine), {}, [], ("beach_check", "landing_gold"),
             ("cw", "ok", "ok")),
            ("abandoned", replace(start, landing=nine), {}, [],
             ("beach_check", "landing_omaha"), ("ok", "ok")),
            ("nine", replace(start, landing=nine), {}, [], ("para_drop",), ()),
            ("leave", start, {}, [], ("next_phase",), ()),     # none dropped: asked first
            ("withdrawn", withdrawal, owner, [2], ("withdrawal",), ("ok",)),
            ("destroyed", withdrawal, {}, [6], ("withdrawal",), ("ok",)),
            ("leaving", start, {}, [], ("next_phase",), ())]    # drops left: asked first
    for name, game, more, faces, path, keys in runs:
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name, faces * 20, config=more), "cobra")
        guide.choose(tour.t("resume_cobra"))
        for key in path:        # the drops' item counts them: its first word
            text = tour.t(key, n=1, most=9)
            guide.follow(text.split(" ")[0] if key == "para_drop" else text)
        guide.press(*keys)
        guide.play(12)
    tour.save("landing", CobraSession(start).to_dict())
    guide = tour.guide(tour.box("landing", [5, 3, 6, 2, 4, 1] * 100), "cobra", seed=11)
    guide.choose(tour.t("resume_cobra"))
    guide.play(120)


def at(turn: int, step: int, history: list[Weather]) -> CobraGame:
    game = CobraGame.start("cobra")
    return CobraGame(game.scenario, turn, step, tuple(history), game.tracks, game.last)


def at_turn_end(key: str, turn: int) -> CobraGame:
    game = CobraGame.start(key)
    played = tuple([Weather.OVERCAST] * (turn - game.first_turn + 1))
    return CobraGame(game.scenario, turn, 10, played, game.tracks, game.last)


def owners_tables(folder: Path) -> Path:
    """A cards folder with an owner's tables file (as tests/device/test_cobra_box.py's)."""
    (folder / "cobra").mkdir(parents=True, exist_ok=True)
    crt = "\n".join(f'"{c}" = ["", "", "", "{"1/2" if c == "2:1" else ""}", "", ""]'
                    for c in COLUMNS)
    (folder / "cobra" / "tables.toml").write_text(
        f'[crt]\n{crt}\n[weather.C]\n"1" = "storm"\n"4" = "clear"\n[terrain]\ntown = -1\n')
    return folder


def journey_sensor(tour: Tour) -> None:
    """Check distance with a range sensor: measured and answered, then unplugged; and what
    the Measuring screen says when a measurement fails, for each way a reading goes wrong."""
    link = tour.folder / "sensor-link"
    sensor = FakeSensor(link, ff_frame(1000))
    tour.system(SENSOR)
    try:
        table = tour.box("sensor", [], config={"sensors": [
            {"name": SENSOR, "port": str(link), "model": "a02yyuw"}]})
        table.serve(lambda: table.box.app.sensors.online_names() == [SENSOR])
        guide = tour.guide(table, "sensor")
        guide.choose(tour.t("check_distance"))
        guide.press("ok", "ok")                         # over 100 cm? with the sensor
        table.serve(lambda: tour.t("measuring") != table.view.header.title)
        guide.press("ok", "ok")                         # too close to call: no
        sensor.talking = False
        guide.press("ok", "ok")
        sensor.unplug()
        table.serve(lambda: isinstance(table.view, Lines))
        guide.play(3)
        app = guide.app
        for condition in Condition:
            if condition is not Condition.OK:          # as Measuring says it
                guide.show(notice(app, app.t("no_measurement"), [
                    app.t(f"why_{condition.value}"), app.t("enter_instead")],
                    lambda screen=app.screen: screen))
    finally:
        sensor.close()


# ---- the words the box says only inside its sentences ----

def words_of(prefix: str) -> list[str]:
    """The rules' words that have keys with `prefix` in the word tables."""
    return [key.removeprefix(prefix) for key in i18n.STRINGS if key.startswith(prefix)]


def refusals(tour: Tour) -> list[RulesError]:
    """A refusal of a battle that names each word of the rules it may name (a card's field,
    a distance, an action, a kind of piece, a weapon, a side, a situation, a question, a list
    with "and" and one with none), with the longest values."""
    label, book = labels(), load_cards()
    piece, card = f"{label['rifleman']} {PIECES}", book.get("2508")
    table = book.table.source                  # the file the Soft Targets Table came from
    three = tuple(f"{label[key]} {PIECES}" for key in ("2477", "2464", "bofors-37mm"))
    r, t = Refusal, TankRefusal      # the shared refusals, the Tank Game's
    return [
        *(RulesError("-", r.NO_CARD_VALUE, name=card.title, field=name, source=card.source)
          for name in PRINTED),
        *(RulesError("-", t.IMPOSSIBLE_CM, quantity=name, cm=-1234.5)
          for name in words_of("quantity_")),
        *(RulesError("-", t.ALREADY_DONE, label=piece, action=action.value)
          for action in Action),
        *(RulesError("-", t.COVER_ONLY_FIGURES, label=piece, kind=kind)
          for kind in words_of("kind_")),
        *(RulesError("-", t.HARD_TARGET, label=piece, weapon=weapon)
          for weapon in words_of("weapon_")),
        *(RulesError("-", t.NOT_YOUR_PIECE, label=piece, side=side.value,
                     playing=side.enemy.value) for side in Side),
        *(RulesError("-", t.TABLE_NO_SITUATION, situation=situation, source=table)
          for situation in SITUATIONS),
        *(RulesError("-", t.NOT_FIRE_RANGE, question=question) for question in QUESTIONS),
        RulesError("-", t.ONE_MODEL, labels=three),
        RulesError("-", t.TABLE_NO_RANGE, weapon="medium mg", cm=1234.5, bands=(),
                   source=table),
    ]


def cobra_sayings() -> list[RulesError | Note]:
    """A refusal or note of Cobra that names each of Cobra's words it may name (a role, a
    modifier, a kind of shift, a nation, a level of victory, the weather)."""
    r, w = CobraRefusal, Why
    return [
        *(RulesError("-", r.NEEDS_A_UNIT, role=role.value) for role in Role),
        *(RulesError("-", r.MODIFIER_WRONG_ROLE, unit="40", modifier=letter,
                     role=Role.DEFENCE.value) for letter in BY_LETTER),
        *(RulesError("-", r.SHIFTS_DISAGREE, shift_kind=kind.value, columns=-3,
                     nation=nation.value, said=other.value)
          for kind in ShiftKind for nation, other in zip(Nation, reversed(Nation), strict=True)),
        *(RulesError("-", r.OVERRUN_MODIFIER, unit="40", modifier=letter)
          for letter in BY_LETTER),
        *(RulesError("-", r.OVERRUN_ADVANCE_SHIFT, shift_kind=kind.value) for kind in ShiftKind),
        *(Note("-", w.VICTORY_TOWARD_ALLIES, {"start": start, "allied": 199, "german": 199,
                                               "difference": -199, "levels": 3})
          for start in words_of("levelname_")),
        *(Note("-", w.GERMAN_SUPPLY_STOPS, {"gain": 3, "weather": weather.value, "most": 12})
          for weather in Weather),
        *(RulesError("-", r.HQ_OTHER_ARMY, name="LXXXIX", army=army.value, paid=paid.value)
          for army in Army for paid in ALLIED_ARMIES),
        *(RulesError("-", code, army=army.value, made=20, most=20)
          for code in (r.ATTACK_LIMIT, r.OVERRUN_LIMIT) for army in ALLIED_ARMIES),
        *(RulesError("-", r.VP_NOT_THIS_TURN, vp_source=key, turn=28, first=28, last=28,
                     article="17.3.2 step 5e") for key in vps.SOURCES),
        *(RulesError("-", r.NO_REPLACEMENT_STEP, turn=20, step_kind=kind, on_track="1½")
          for kind in KINDS),
        # the landing (17.3.2): each direction of the Scatter Diagram, each beach and division
        *(Note("-", w.PARA_SCATTERED, {"die": 6, "direction": d.value}) for d in Direction),
        *(RulesError("-", r.LANDING_SHIFT_WRONG_TARGET, landing=t.value) for t in Target),
    ]


def battle_log(tour: Tour) -> list[LogEntry]:
    """Every kind of line a battle's log has, each word of the rules it names, with the
    longest values."""
    label = labels()
    firer, target = f"{label['2477']} {PIECES}", f"{label['2464']} {PIECES}"
    squad = f"{label['rifleman']} {PIECES}"
    squads = tuple(f"{label[key]} {PIECES} (10)" for key in ("rifleman", "mg-gunner",
                                                           "pistol-soldier"))
    roster = (entry("log_roster_piece", name=squads[0], side="axis"),
              entry("log_roster_off_map", name=target, side="allies"))
    fired = [entry("log_fires_at", firer=firer, target=target, facing=facing.value,
                   effect=effect.value)
             for facing, effect in zip([*Facing, *Facing], Effect, strict=False)]
    done = [*fired,
            *(entry(key, firer=squad, weapon=weapon, targets=squads, down=10, of=10)
              for key in ("log_fires_weapon", "log_fires_weapon_miss")
              for weapon in words_of("weapon_")),
            *(entry("log_fires_weapon_guns", firer=squad, weapon=weapon, targets=squads,
                    down=10, of=10, guns=guns)
              for weapon in words_of("weapon_") for guns in (1, 2)),
            *(entry(key, label=target) for key in (
                "log_reloaded", "log_reload_failed", "log_moves", "log_hides",
                "log_takes_cover", "log_commander_out", "log_commander_in", "log_spotted",
                "log_starts_hidden", "log_places")),
            entry("log_spotted_by", label=target, spotter=squad),
            entry("log_spotted_by_commander", label=squad, spotter=target),
            *(entry(key, label=squad, vehicle=target) for key in (
                "log_gets_on", "log_gets_off")),
            entry("log_moves_up_to", label=target, cm=99),
            entry("log_leaves", label=target, turn=2 * ROUNDS + 1),
            entry("log_runs_over", tank=firer, pieces=squads, rolled=30, eliminated=30),
            entry("log_runs_over_guns", tank=firer, pieces=squads, rolled=30, eliminated=30,
                  guns=2),
            *(entry(key, members=(firer, *squads[:2])) for key in (
                "log_activates", "log_extra_activation")),
            entry("log_places_with", label=squads[0], carrier=target),
            entry("log_passes"), entry("log_ends_turn")]
    return [
        *(entry("log_new_battle", level=level, pieces=roster) for level in ("easy", "tank")),
        entry("log_house_rules", rules=tuple(
            entry("log_house_rule", rule=rule.name, choice=f"{rule.name}_{value}")
            for rule in house.RULES for value in rule.values)),
        entry("log_new_match", pieces=roster),
        *(entry("log_initiative", round=ROUNDS, side=side.value) for side in Side),
        *(entry("log_attacks", attacker=side.value, defender=side.enemy.value)
          for side in Side),
        entry("log_match_battle", n=2),
        *(entry("log_gives_up", side=side.value) for side in Side),
        *(by_side(side.value, line) for side in Side for line in done),
        *(won(by_side(side.value, fired[0]), side.enemy.value) for side in Side),
        *(entry(key, question=question, cm=1234.5, sign="≥", threshold=100, call=call.value,
                spread=12.5) for key in ("log_distance", "log_distance_measured")
          for question in QUESTIONS for call in Call),
        *(entry("log_learned_range", weapon=weapon, cm=1234.5, value=-6, low=1234,
                high=1235) for weapon in words_of("weapon_")),
        *(entry("log_learned_template", weapon=weapon, value=-6)
          for weapon in words_of("weapon_")),
        *(entry("log_learned_situation", situation=situation, value=-6)
          for situation in SITUATIONS),
    ]


def cobra_log() -> list[LogEntry]:
    """Every kind of line a Cobra game's log has, each word of the rules it names, with the
    longest values."""
    supply = Note("-", Why.GERMAN_SUPPLY_STOPS, {"gain": 3, "weather": "storm", "most": 12})
    rolled = entry("log_weather_roll", column="C", die=6, modifier=-2, modified=4)
    odds = entry("log_odds", attack=199, defence=199, base="1:1", net=-3, column="1:5")
    attacks = [entry("log_attack", nation=nation.value, odds=odds_of, die=6, result=result)
               for nation in Nation for odds_of in (odds, entry("log_carpet_odds"))
               for result in ("1/2", entry("read_crt"))]
    overruns = [entry("log_overrun", nation=nation.value, when=when.value, odds=odds, die=6,
                      result=result)
                for nation in Nation for when in OverrunWhen
                for result in ("1/2", entry("read_crt"))]
    lines = [
        *(entry("log_cobra_start", scenario=key, title=scenario.title, first=scenario.first,
                last=scenario.last) for key, scenario in SCENARIOS.items()),
        *(entry("log_cobra_phase", nation=nation.value, phase=phase)
          for nation in Nation for phase in words_of("phase_")),
        entry("log_cobra_turn_end"),
        *(entry("log_extension", die=6, result=entry(outcome))
          for outcome in ("one_more_turn", "game_ends")),
        *(entry("log_weather", weather=weather.value, how=how, supply=supply)
          for weather in Weather
          for how in (rolled, Note("-", Why.AFTER_THREE_STORMS, {}))),
        entry("log_allied_supply", note=Note("-", Why.HALF_SUPPLY_STORM,
                                             {"us": 10, "british": 10})),
        *attacks,
        *overruns,
        entry("log_unsupplied", line=attacks[0]),
        *(entry("log_support", line=entry("log_paid", line=attacks[0], cost=2, track=track),
                air=1, naval=2) for track in ("us", "british", "german")),
        *(entry("log_carpet", die=6, result=result, air=3) for result in ("2", entry("read_crt"))),
        *(entry("log_track", track=track, old=199, new=199) for track in cobra_hub.TRACKS),
        entry("log_hqs", line=attacks[0], hqs=("II SS Pz", "XLVII Pz")),
        *(entry("log_hq", name="II SS Pz", hq_event=event.value, hq_state=state.value)
          for event in HQEvent for state in HQState),
        entry("log_levels", us=20, british=20),
        *(entry(key, vp_source=source, vp=-15, track="german_vp")
          for key in ("log_vp", "log_vp_undo") for source in vps.SOURCES),
        *(entry("log_leclerc", die=6, result=entry(result))
          for result in ("log_mutiny", "log_no_mutiny")),
        *(entry("log_release", die=6, result=result)
          for result in (entry("log_not_released"), *(
              entry(key, division=347, units=3) for key in ("log_released",
                                                            "log_released_hq")))),
        *(entry("log_brest", die=6, modifier=-1, modified=5, result=entry(result))
          for result in ("log_fj_released", "log_not_released")),
        *(entry("log_air_attack", increase=2, ma=20, die=6, result=entry(outcome))
          for outcome in ("STEP_LOST", "NO_LOSS")),
        *(entry("log_replacement", army=army, step_kind=kind)
          for army in SIDES for kind in KINDS),
        entry("log_replacement_vp", line=entry("log_replacement", army="british",
                                               step_kind="mech"),
              note=Note("-", Why.REPLACEMENT_VP, {"steps": 990})),
        *(entry("log_replacement_back", army=army, step_kind=kind)
          for army in SIDES for kind in KINDS),
        entry("log_replacement_back_vp", line=entry("log_replacement_back", army="british",
                                                    step_kind="mech")),
        # the Allied Landing Phase (17.3.2) and the withdrawal attack (17.3.4)
        *(entry(key, landing=t.value, die=6) for key in ("log_para_landed", "log_para_scattered")
          for t in DIVISIONS),
        *(entry("log_para_direction", landing=t.value, die=6, where=where) for t in DIVISIONS
          for where in (*(entry("log_direction", direction=d.value) for d in Direction),
                        entry("log_read_diagram"))),
        *(entry("log_commit", die=6, result=entry(r)) for r in ("log_may_commit",
                                                                "log_no_commit")),
        *(entry("log_attrition", landing=t.value, start="1:3", column="10:1", die=6,
                result=result) for t in Target for result in ("2", entry("read_crt"))),
        *(entry("log_beach_check", landing=t.value, lost=99, landed=99, result=entry(r))
          for t in BEACHES for r in ("log_abandoned", "log_held")),
        *(entry("log_withdrawal", die=6, result=result) for result in ("2", entry("read_crt"))),
    ]
    return [entry("log_game_turn", turn=28, line=line) for line in lines]


def needs() -> list[Need]:
    """The die of every kind of roll, for the real-dice dial: the longest piece, figure,
    shot and number where a roll names them."""
    target = f"{labels()['rifleman']} {PIECES}"
    r, a = Roller, Aim
    return [Need(r.FIRER, a.TO_HIT, "-"), Need(r.FIRER, a.RELOAD, "-"),
            Need(r.FIRER, a.DAMAGE, "-", number=17), Need(r.FIRER, a.DAMAGE, "-"),
            Need(r.TARGET, a.ARMOUR, "-"), Need(r.FIRER, a.EXTRA, "-", number=9),
            *(Need(roller, aim, "-", piece=target, figure=10, shot=shot)
              for roller, aim in ((r.ATTACKER, a.ATTACK), (r.DEFENDER, a.DEFENCE))
              for shot in (None, 10)),
            Need(r.ATTACKER, a.ATTACK, "-", piece=target),
            Need(r.DEFENDER, a.OVERRUN, "-", piece=target, figure=10),
            Need(r.AXIS, a.WEATHER, "-"), Need(r.ATTACKER, a.COMBAT, "-"),
            Need(r.ALLIES, a.EXTENSION, "-"), Need(r.EITHER, a.QUICK, "-"),
            Need(r.ALLIES, a.LECLERC, "-"), Need(r.AXIS, a.RELEASE, "-"),
            Need(r.AXIS, a.BREST, "-"), Need(r.AXIS, a.AIR_ATTACK, "-"),
            Need(r.ALLIES, a.SCATTER, "-")]


def journey_words(tour: Tour) -> None:
    """The words the box says only inside its sentences, each in a sentence of the box's own
    making with the longest values, where the box shows it: the words of the rules in the
    refusals of a battle (a notice) and of Cobra (under Cobra's header), every kind of line
    in the log of a battle and of a Cobra game (saved with them, resumed, and the log read
    from the menu), and the die of every kind of roll on the real-dice dial."""
    seed_battle(tour, "words", {Side.AXIS: [("2477", {})], Side.ALLIES: [("2464", {})]},
                round=ROUNDS, log=tuple(battle_log(tour)))
    guide = tour.guide(tour.box("words"), "words")
    guide.choose(tour.t("resume"))
    app = guide.app
    for exc in refusals(tour):
        guide.show(refuse(app, app.say(exc), lambda screen=app.screen: screen))
    for lines in chances(tour, app):
        guide.show(Scroll(app.t("details"), lines, app.screen))
    app.settings.real_dice = True
    for need in needs():
        guide.show(face_for(app, need, "axis", lambda face, screen=app.screen: screen))
    guide.press("back")
    guide.choose(tour.t("battle_log"))
    guide.play(400, until=lambda: not isinstance(guide.view, Lines))
    tour.save("cobra-words", CobraSession(at(28, 0, []), log=list(cobra_log())).to_dict())
    guide = tour.guide(tour.box("cobra-words"), "cobra")
    guide.choose(tour.t("resume_cobra"))
    app = guide.app
    for said in cobra_sayings():
        guide.show(cobra.reading(app, app.t("not_possible"), [app.say(said)], app.screen))
    guide.press("back")
    guide.choose(tour.t("battle_log"))
    guide.play(400, until=lambda: not isinstance(guide.view, Lines))


def chances(tour: Tour, app: App) -> list[list[str]]:
    """Each word of a chance in each line that says one, how many may fall, the dice said
    fair or not (as the dice statistics say them), and the details of a shot whose modifiers
    the players set all, at each level: every line in the words of the box's making."""
    label = labels()
    bands = [app.t(key) for key in ("chance_none", "chance_tiny", "chance_unlikely",
                                    "chance_even", "chance_likely", "chance_almost",
                                    "chance_sure")]
    said = [[app.t("hit_chance", hit=band), app.t("kill_chance", kill=band),
             app.t("soft_odds", down=band), app.t("all_down", all=band)] for band in bands]
    said.append([app.t("expected_down", low=9, high=10, n=10),
                 app.t("expected_down_one", low=10, n=10)])
    said.append([joined(" · ", app.t("rolls_counted", title=app.t("overall"), n=99999),
                        app.t(key)) for key in ("dice_fair", "dice_unfair", "dice_too_few")])
    aim = LastShot(f"{label['2477']} 1", f"{label['2464']} 1", Facing.REAR, hull_down=True,
                   over=True)
    odds = shot_odds(app, aim)
    assert not isinstance(odds, RulesError)
    said += [shot_details(app, odds, aim, level, crew_below_half=True)
             for level in ("tank", "easy")]
    return said


def journey_trouble(tour: Tour) -> None:
    """What the box says when something is wrong with it (as tests/device/test_trouble_frames.py
    draws them: its first screens when its pins, its card files, its saved battle or its parts
    fail), the title of a start and the last frame of a stop."""
    table = tour.box("trouble")
    guide = tour.guide(table, "trouble")
    box, app = table.box, table.box.app
    box.pin_problem = "buttons.axis (GPIO 17): GPIO busy"
    menu = app.screen
    saved = box.store.path
    problems = [StoreProblem("moved", saved.with_suffix(".unreadable-1"),
                             detail="file is not a database"),
                *(StoreProblem("cannot_save", saved, folder)
                  for folder in words_of("folder_")),
                StoreProblem("cannot_save", saved, detail="Input/output error"),
                StoreProblem("saving_again", saved)]
    off = [(part, f"GPIO {pin}: GPIO busy") for part, pin in (("buzzer", 12), ("leds", 5))]
    tour.system(box.pin_problem, *(why for _, why in off),
                *(word for problem in problems for word in (problem.path, problem.detail)))
    box.store.problems, box.store.problem = problems, "the saved battle: see above"
    app.book.problems = broken_card_files(tour.folder / "broken-cards")
    tour.system(*map(str, app.book.problems), *(p.path for p in app.book.problems))
    box.unusable, box.state_dir = ["/boot/firmware/cobi/state: Permission denied"], saved.parent
    tour.system(*box.unusable, saved.parent)
    guide.read_only(box.pins_trouble(lambda: menu))    # its pins stay busy: OK is no use
    guide.show(box.first_screens(off, (), lambda: menu), steps=100)
    # saving stopped during play, and works again: notices over the screen of the moment
    guide.show(saving_notice(app, False, app.screen))
    guide.show(saving_notice(app, True, app.screen))
    # a saved battle that cannot go on now: why (each reason), keep it or put it away (asked
    # first, answered no), and the question before a new game would put it away (no)
    for kept in (Unresumable("card", card="9100"), Unresumable("format", format="7"),
                 Unresumable("unreadable", detail="BadRow: battle row 'b1': not JSON")):
        app.kept = kept
        guide.read_only(kept_battle(app))
    app.screen = start_menu(app)
    box.loop.draw()
    guide.choose(tour.t("kept_battle"))
    guide.press(*["cw"] * last_row(guide.view), "ok", "cw", "ok", "ok")
    guide.choose(tour.t("new"))
    guide.press("ok")
    app.kept, app.screen = None, menu
    box.loop.draw()
    guide.show(notice(app, app.t("reloaded"), [app.t("reloaded_counts", files=2, cards=12),
                                               app.t("restart_needed"),
                                               app.t("sim_restart_needed")], lambda: menu))
    guide.keep(BigWord(Header("COBI Companion"), "COBI"))    # boot.py's title
    table = tour.box("stop")
    guide = tour.guide(table, "trouble")
    box, app = table.box, table.box.app
    box.loop.farewell()                                      # no battle: nothing to say
    guide.choose(tour.t("new"))
    guide.roster(app.screen)                                  # the battle begins
    box.loop.farewell()                                       # the battle is saved
    box.store.can_save = False                                # as after a failed write
    box.loop.farewell()


def broken_card_files(folder: Path) -> list[CardProblem]:
    """What the loader says of card files it cannot use: a FIFO named like a card and a card
    nested far too deep (the box's own words, as its first screens show them)."""
    folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(folder / "9001-fifo.toml")
    (folder / "9002-deep.toml").write_text("x = " + "[" * 600 + "]" * 600 + "\n")
    # and the line after a file's first MOST_PROBLEMS problems, saying how many more it has
    return [*check(folder)[1], *more_problems(str(folder / "tables" / "soft-targets.toml"),
                                              29980)]


def dice(seed: int) -> list[int]:
    """Faces for a whole journey, the same every time."""
    rng = random.Random(seed)
    return [rng.randint(1, 6) for _ in range(6000)]


JOURNEYS = (journey_box, journey_easy, journey_tank, journey_fights, journey_riders,
            journey_learn, journey_marks, journey_match, journey_slips, journey_cobra,
            journey_victory,
            journey_cobra_movement, journey_sensor,
            journey_words, journey_trouble)


# The main path: what a family sees playing Easy and the Tank Game, a battle begun from the
# start menu (the roster, the initiative, a piece and its action, the shot before it is fired,
# its steps and outcome, the move's questions, squads' fire, the battle's menu): the frames of
# these journeys, but for the screens a parent opens, by their titles (the house rules, the
# log, the status board, the settings, the exact figures of the details, the quick dice, the
# distances) and the rules' refusals, which name the rules' own terms. Its words are a child's
# (tests/device/test_vocabulary.py).
MAIN_PATH = ("easy", "tank")
PARENTS_SCREENS = ("house_rules", "battle_log", "status_board", "settings", "details",
                   "quick_dice", "check_distance", "how_measure", "enter_cm", "measuring",
                   "no_measurement", "not_possible", "language", "sound", "voice", "volume",
                   "brightness", "screen_off", "real_dice", "dial_face", "files_in_use",
                   "reboot_ask", "poweroff_ask")


def main_path(seen: list[Seen]) -> list[Seen]:
    """The frames of the tour on the main path."""
    titles: dict[str, set[str]] = {}
    for language in LANGUAGES:
        titles[language] = {i18n.text(language, key) for key in PARENTS_SCREENS}
    return [one for one in seen if one.journey in MAIN_PATH
            and one.view.header.title not in titles[one.language]]


def take_tour(make: Make, folder: Path, language: str) -> Taken:
    """Every frame of the tour in `language`, and what the boxes said; `folder` is the
    tour's own (state, cards)."""
    tour = Tour(make, folder, language)
    with tour.said.listening():
        for journey in JOURNEYS:
            journey(tour)
    return Taken(tour.seen, tour.said)
