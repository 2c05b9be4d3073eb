"""The tour of the box, for the tests that check every frame it draws (test_words_fit.py) and
every word it says (test_polish_screens.py): the real box (app, store, screens, renderer) on
gpiozero's mock pins, in English or Polish, with cards whose names and labels are as long as a
card may have them, played by a guide who tries every menu item, scrolls every text to its end
and presses the button each screen waits for.

The guide (`Guide`), the tour's state (`Tour`) and what it keeps are here; the journeys are
in journeys/, one module per game or area, and `journeys.take_tour(make, folder, language)`
returns every frame drawn, with its view, and what the boxes said through their word tables
(`Said`). `make(dice, state_dir, config, **parts)` builds a box on a table (conftest's
`Table`); the cards the box reads are the caller's (conftest's `taken_tour` puts `long_cards`
in $COBI_COMPANION_CARDS).

The tour goes through journeys (journeys/__init__.py lists them), each on boxes of its own: the
start menu, settings (the language switched and back) and the box's own screens; an Easy battle
begun after a tie, its roster's rows tried (the Rules row both ways, a piece removed), played
on to round 12 with 12 pieces of one model, its log read at its end, then the same armies
again; a Tank Game battle; fights resumed from saved battles (every outcome of a shot, the
armour turned on the knob, a Tiger's 17 damage dice, a damaged target at the Easy level, the
last shot again with one press, fire at squads and a soft vehicle, templates, each refusal of a
shot, real dice); squads riding on vehicles (getting on and off, fired at on a tank); the Soft
Targets Table learned at the table (a value dialled and remembered, a band that overlaps, each
reason a value is not saved); pieces under every mark; a match given up twice; Cobra at its
phases, attacks and levels of victory; a range sensor; the words the box says only inside its
sentences (a card's fields, Cobra's roles and shifts... in refusals; every kind of line of the
battle log; the die each roll asks for on the real-dice dial), each in a sentence of the box's
making with the longest values, where the box shows it; the screens of what is wrong with the
box, and the last frame of a stop. The guide's choices depend only on what the screens show and
on its seeds, so a tour draws the same frames every time; screens it would reach only by chance
are reached on purpose (`Guide.follow`).
"""
from __future__ import annotations

import gc
import random
import re
import string
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cobi_companion.cards import load_cards
from cobi_companion.cards.loader import shipped_folder
from cobi_companion.device.config import Config
from cobi_companion.device.core import i18n
from cobi_companion.device.core.app import App
from cobi_companion.device.core.battle_log import LogEntry
from cobi_companion.device.core.battle_state import EasyBattle, LastShot, TankBattle
from cobi_companion.device.core.views import BigWord, Lines, Menu, View
from cobi_companion.device.ports.speech import RecordingSpeech, Utterance
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.device.ui.renderer import Frame, frame, last_row, render
from cobi_companion.rules import house
from cobi_companion.rules.battle import Battle, Ride
from cobi_companion.rules.card import Facing, Kind
from cobi_companion.rules.house import HouseRules
from cobi_companion.rules.status import Side
from cobi_companion.rules.tank import turns
from cobi_companion.words import catalogue, languages
from PIL import Image

# The registry's languages (a language added there is toured too); a test's own language (the
# pseudo-language of test_pseudo_tour.py) is taken by its own test, not here.
LANGUAGES = tuple(language.code for language in languages.LANGUAGES)
# The tour keeps every frame it saw to its end: each many frames, what it kept is frozen out
# of the garbage collector's sight (as `box` does at each journey's start), or every young
# collection the box makes after a frame (core/loop.py's `tidy`) walks it again.
FROZEN_EVERY = 200


def group_of(language: str) -> str:
    """The xdist group of the tests of the tour in `language` (conftest's taken_tour): they
    share one worker, which alone takes that tour."""
    return f"tour-{language}"


def in_language(language: str) -> pytest.MarkDecorator:
    """The mark of a test that reads the tour in `language`."""
    return pytest.mark.xdist_group(group_of(language))


def each_language(languages: Iterable[str] = LANGUAGES) -> list[Any]:
    """pytest's parameters `language` for a test of the tour in each language, each in its
    language's group."""
    return [pytest.param(language, marks=in_language(language)) for language in languages]
NAME_MAX, LABEL_MAX = 60, 10           # rules/card.py: the longest name and label a card has
# Filled in after a model's own name and label, so that the cards sort as the shipped ones do.
# (In the tour's own language: English's for a language without its own.)
NAME_TAIL = {"en": " heavy tank, late production with side skirts, winter camouflage and",
             "pl": " ciężki czołg, późna produkcja z fartuchami, zimowy kamuflaż i",
             "de": " schwerer Kampfpanzer, späte Ausführung mit Schürzen, Wintertarnung und"}
LABEL_TAIL = "wmwmwmwmwm"
# Two weapons where a card may carry them, for the screens that ask which: a second single
# weapon for the pistol soldier, a second template for the MG team;
MORE_WEAPONS = {
    "pistol-soldier": ('weapons = [{ name = "pistol" }]',
                       'weapons = [{ name = "pistol" }, { name = "rifle" }]'),
    "mg-gunner": ('template = "mg", shots = 2 }]',
                  'template = "mg", shots = 2 }, { name = "grenade", template = "grenade" }]'),
    # the rifle's damage dice as a family writes them from its card (none: the shipped card
    # does not say, and a rifle that could destroy the side-car below would be refused)
    "rifleman": ('weapons = [{ name = "rifle" }]',
                 'weapons = [{ name = "rifle", damage = "none" }]'),
    # and the values a printed card gives a soft vehicle, for the fire at it
    "motorcycle-sidecar": ('kind = "soft"', 'kind = "soft"\narmour_front = 1\narmour_side = 1\n'
                           'armour_rear = 1\narmour_top = 0\ndestroy = 2\ndestroy_gun = "-"\n'
                           'weaken = "-"\nimmobilize = "-"\ncrew = 2')}
HARD_COVER = '\n[situations.hard_cover]\nmodifier = -2\nsource = "the tour of the box"\n'
HOLDS = {"buttons": {"hold_s": 0.1}, "encoder": {"long_press_s": 0.1}}   # the shortest holds
ROUNDS = 12            # the Easy battle is played on to this round (two digits)
PIECES = 12            # pieces of one model in the Easy battle (two-digit piece numbers)
LOOP = 36              # a title back that often among the last LOOP: the guide goes back
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
    # The renderer's frame of the view, as it drew the image (what it shows where: the tests
    # of test_words_fit.py read it rather than draw the tour's ten thousand views again).
    drawn: Frame | None = None
    # What the box said once this frame was drawn (`Heard`), while it stayed on the panel:
    # test_outcomes_said.py finds each outcome's sentence with its frame.
    said: list[Utterance] = field(default_factory=list)
    voice: str = "all"             # the box's voice setting then (off: nothing is said)


class Heard(RecordingSpeech):
    """The tour's voice: each utterance kept with the frame on the panel when it was said
    (the last one drawn: the box says an event's words once its frame is drawn)."""

    def __init__(self, seen: list[Seen]) -> None:
        super().__init__()
        self.seen = seen

    def say(self, utterance: Utterance) -> None:
        if self.seen:
            self.seen[-1].said.append(utterance)


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
                shown = named(catalogue.text("pl", key))     # a value the template names
                self.values += [(key, str(value)) for name, value in values.items()
                                if name in shown]
            return text

        def recorded_say(app: App, said: Any) -> str:
            text = say(app, said)
            if app.settings.language == "pl" and not QUIET:
                self.refusals.append(text)
            return text
        # the class's methods recorded for the tour, put back below (a test's patch)
        App.t, App.say = recorded_t, recorded_say          # type: ignore[method-assign, assignment]
        try:
            yield
        finally:
            App.t, App.say = t, say                        # type: ignore[method-assign]


@cache
def named(template: str) -> frozenset[str]:
    """The values a template names (its placeholders), once a template: the boxes ask for
    half a million texts on a tour."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


@dataclass(frozen=True)
class Taken:
    """A tour taken in one language: its frames and what the boxes said."""

    seen: list[Seen]
    said: Said


def tail(language: str) -> str:
    return NAME_TAIL.get(language, NAME_TAIL[languages.SOURCE])


def long_cards(folder: Path, language: str) -> Path:
    """The shipped cards again in `folder`, each with a name of NAME_MAX letters and a label
    of LABEL_MAX, its own and in each language it has names in (they replace the shipped
    ones: same set numbers and ids; a card named as its label keeps its name its label, for
    the roster's hint of such a card), MORE_WEAPONS,
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
            (name[1] + tail(language))[:NAME_MAX].rstrip()
        text = text.replace(name[0], f'name = "{long_name}"').replace(
            label[0], f'label = "{long_label}"').replace(*MORE_WEAPONS.get(path.stem, ("", "")))
        for own in re.finditer(r'^(\w+) = \{ name = "(.*)", label = "(.*)" \}$', text, re.M):
            long_label = (own[3].replace(" ", "") + LABEL_TAIL)[:LABEL_MAX]
            long_name = long_label if own[2] == own[3] else \
                (own[2] + tail(language))[:NAME_MAX].rstrip()
            text = text.replace(
                own[0], f'{own[1]} = {{ name = "{long_name}", label = "{long_label}" }}')
        (folder / path.name).write_text(text, encoding="utf-8")
    return folder


def config(language: str, **more: Any) -> Config:
    return Config.model_validate({**HOLDS, "game": {"language": language}, **more})


def pattern(template: str) -> re.Pattern[str]:
    """A string of i18n as a pattern: its {placeholders} match any text."""
    parts = re.split(r"\{[^}]*\}", template)
    return re.compile(".+?".join(re.escape(part) for part in parts))


@dataclass(frozen=True)
class Unseen:
    """A string of i18n as a pattern (`pattern`), looked for in every new text the tour
    shows: with the longest of its own words (the text between its placeholders), which a
    text it matches has in it. `in` finds that word much sooner than the pattern finds no
    match, and most texts lack it: only they are searched."""

    found: re.Pattern[str]
    longest: str

    @classmethod
    def of(cls, template: str) -> Unseen:
        return cls(pattern(template), max(re.split(r"\{[^}]*\}", template), key=len))

    def search(self, text: str) -> bool:
        return self.longest in text and self.found.search(text) is not None


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


def other(language: str) -> str:
    """The language the settings row steps to from `language` (the registry's next, the first
    after the last)."""
    codes = languages.codes()
    return codes[(codes.index(language) + 1) % len(codes)]


def switched(app: App, view: View, shown: View | None = None) -> View | None:
    """The view of the app's screen in the next language, as the next frame would draw it
    had the language been switched now; the language back as it was. Nothing the boxes say
    meanwhile counts as said (`QUIET`). None for a frame not of the app's screen. `shown`:
    the app's view now, where it is known (the main loop's draw has just made it)."""
    global QUIET
    language = app.settings.language
    if (app.view() if shown is None else shown) != view:
        return None                     # the boot title, a stop's last frame
    QUIET = True
    try:
        app.settings.language = other(language)
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
                 unseen: dict[str, Unseen] | None = None) -> None:
        self.table, self.language, self.journey, self.seen = table, language, journey, seen
        self.rng = random.Random(seed)
        self.tried: Counter[tuple[str, str]] = Counter()
        # Items tried on any box of the tour, and the strings of i18n no frame has shown yet:
        # an item never tried, or one that is such a string, is much likelier.
        self.anywhere: Counter[str] = Counter() if anywhere is None else anywhere
        self.unseen: dict[str, Unseen] = {} if unseen is None else unseen
        self.read: set[str] = set()         # texts already looked for the unseen strings in
        self.prefer: Callable[[str], bool] = lambda item: False
        self.stuck = 0
        self.recent: list[str] = []         # the titles of the last screens
        # The results whose steps were browsed, the screens whose details (OK) were read: by
        # their ids, each kept with its screen (a screen let go, its id could be a new one's).
        self.browsed: dict[int, Any] = {}
        self.detailed: dict[int, Any] = {}
        self.logs_read: set[str] = set()    # the battles whose log was read at their end
        loop = table.box.loop
        draw, render = loop.draw, loop.render
        drawing = False         # in the loop's draw, which has just made the app's view

        def recording(view: View) -> Image.Image:
            image: Image.Image = render(view)
            # the frame of a draw is the app's view as the loop turned it (Loop.turned): the
            # view that draw made is the loop's screen_view
            self.saw(view, image, loop.screen_view if drawing else None)
            return image

        def drawn() -> None:
            nonlocal drawing
            drawing = True
            try:
                draw()
            finally:
                drawing = False
        loop.render, loop.draw = recording, drawn
        self.keep(table.view)

    def saw(self, view: View, image: Image.Image, shown: View | None = None) -> None:
        """A frame drawn; `shown`: the app's view now, where it is known."""
        self.seen.append(Seen(self.app.settings.language, self.journey, view, image,
                              switched(self.app, view, shown), frame(view),
                              voice=self.app.settings.voice))
        if len(self.seen) % FROZEN_EVERY == 0:
            gc.freeze()             # the frames kept, out of the young collections' walk
        for text in view_texts(view):
            if text not in self.read:
                self.read.add(text)
                for key in [key for key, found in self.unseen.items()   # found.search, inline
                            if found.longest in text and found.found.search(text)]:
                    del self.unseen[key]

    def unseen_in(self, item: str) -> bool:
        """Whether a menu item is a string of i18n that no frame has shown yet."""
        return item not in self.read and any(found.search(item)
                                             for found in self.unseen.values())

    def t(self, key: str, **values: object) -> str:
        return i18n.text(self.language, key, **values)

    @property
    def app(self) -> Any:
        return self.table.box.app

    @property
    def view(self) -> Any:
        # Any: the guide reads whichever view is on the screen as a player does (its index,
        # its items, its big word), each where the screen it is on has one.
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

    def play(self, steps: int, until: Callable[..., bool] = lambda: False) -> None:
        after = None            # the screen and view after a step: the next one's before
        for _ in range(steps):
            if until():
                return
            before = (self.app.screen, self.view) if after is None else after
            self.step(before)
            after = (self.app.screen, self.view)
            self.stuck = self.stuck + 1 if after[0] is before[0] and after[1] == before[1] \
                else 0

    def step(self, now: tuple[Any, Any] | None = None) -> None:
        """One move on the screen shown; `now`: that screen and its view, where play has
        just made them (nothing pressed since). Any, as `view` is: the guide reads whichever
        view is shown."""
        screen, view = (self.app.screen, self.view) if now is None else now
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
            self.detailed[id(screen)] = screen  # the figures behind a chance's words, once:
            self.press("ok")                    # OK, read (then OK goes back)
        elif kind == "Scroll" and screen.details is not None and \
                view.index >= last_row(view):   # read, its details too: back
            self.press("back")
        elif kind == "FirePreview":             # the armour turned a few detents, then fire
            self.press(*["cw"] * self.rng.choice((0, 0, 1, 2, 3)), screen.side)
        elif kind == "Show" and screen.steps and screen.index == screen.last > 0 and \
                id(screen) not in self.browsed:
            self.browsed[id(screen)] = screen   # the steps of a result, back and on again
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
        # rarely: what ends the play, and each side's dice (real or smart dice make every
        # roll after take longer; the words journey shows each of their values)
        late = {self.t(key) for key in ("end_battle", "give_up", "end_game", "poweroff",
                                        "reboot", "back_to_game", "language", "axis_dice",
                                        "allies_dice")}

        def weight(item: str) -> float:
            if item.startswith(self.t("language")):
                return 0.0                      # the tour stays in its language
            if item == self.t("smart_dice"):
                return 0.0                      # a journey of their own (journeys/dice.py)
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

    def go_to(self, row: int | None) -> None:
        assert row is not None, "the screen has no such row"
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
    unseen: dict[str, Unseen] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.unseen.update((key, Unseen.of(i18n.text(self.language, key)))
                           for key in i18n.panel_keys())

    def box(self, name: str, faces: list[int] | None = None, **parts: Any) -> Any:
        """A box of its own for a journey, or again on the state `name` left."""
        # What the tour made so far (its boxes, every frame seen) stays to its end: out of
        # the garbage collector's sight, as a box puts what its start made (core/loop.py's
        # `warmed`), a full collection does not walk it again and again (a fifth of the
        # tour's time); journeys.take_tour gives it back at the end.
        gc.freeze()
        more = parts.pop("config", {})
        parts.setdefault("speech", Heard(self.seen))
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


def back_to(screen: Any) -> Callable[..., Any]:
    """Where a screen the tour shows goes back to: `screen`, the one it was shown over,
    whatever it is handed (a dial's value)."""
    return lambda *_: screen


def labels() -> dict[str, str]:
    """The label of each card, by its key."""
    return {card.key: card.short for card in load_cards().sorted()}


def seed_battle(tour: Tour, name: str, sides: dict[Side, list[tuple[str, dict[str, bool]]]],
                level: str = "tank", round: int = 3, log: tuple[LogEntry, ...] = (),
                last_shot: LastShot | None = None, riding: dict[int, int] | None = None,
                house: HouseRules = house.DEFAULT, figures: dict[int, int] | None = None
                ) -> None:
    """A battle saved in the state of box `name`: each side's pieces as (card, marks), the
    Axis to act in `round`, with the lines of its log and the Axis's last shot; `riding`:
    squads riding vehicles, by their places in the battle (Axis first); its house rules;
    `figures`: squads of other than 3 figures, by their places."""
    book = load_cards()
    battle = Battle(level)
    for side, pieces in sides.items():
        for key, mark in pieces:
            card = book.get(key)
            place = len(battle.pieces)
            battle = battle.add(card, side, (figures or {}).get(place, 3)
                                if card.kind is Kind.FIGURE else None)
            piece = battle.pieces[-1]
            battle = battle.replace_piece(replace(piece, status=replace(piece.status, **mark)))
    for rider, vehicle in (riding or {}).items():
        carrier = battle.pieces[vehicle]
        battle = battle.replace_piece(replace(battle.pieces[rider],
                                              riding=Ride(carrier.label, carrier.kind)))
    state = TankBattle(battle, round=round, first=Side.AXIS, active=Side.AXIS,
                       log=list(log), house=house, defender=Side.AXIS,
                       turn=turns.Turn(2 * round - 1, Side.AXIS)) if level == "tank" else \
        EasyBattle(battle, round=round, first=Side.AXIS, active=Side.AXIS,
                   log=list(log), house=house)
    if last_shot is not None:
        state.last_shot[Side.AXIS] = last_shot
    tour.save(name, state.to_dict())


# ---- the words the box says only inside its sentences ----

def words_of(prefix: str) -> list[str]:
    """The rules' words that have keys with `prefix` in the word tables."""
    return [key.removeprefix(prefix) for key in i18n.panel_keys() if key.startswith(prefix)]


def dice(seed: int) -> list[int]:
    """Faces for a whole journey, the same every time (a list of the box's own)."""
    return list(_faces(seed))


@cache
def _faces(seed: int) -> tuple[int, ...]:
    """The faces of `seed`, rolled once a process: the tour's boxes take a few seeds."""
    rng = random.Random(seed)
    return tuple(rng.randint(1, 6) for _ in range(6000))


# The main path: what a family sees playing Easy and the Tank Game, a battle begun from the
# start menu (the roster, the initiative, a piece and its action, the shot before it is fired,
# its steps and outcome, the move's questions, squads' fire, the battle's menu): the frames of
# these journeys, but for the screens a parent opens, by their titles (the house rules, the
# log, the status board, the settings, the exact figures of the details, the quick dice, the
# distances) and the rules' refusals, which name the rules' own terms. Its words are a child's
# (tests/device/ui/test_vocabulary.py).
MAIN_PATH = ("easy", "tank")
PARENTS_SCREENS = ("house_rules", "battle_log", "status_board", "settings", "details",
                   "quick_dice", "check_distance", "how_measure", "enter_cm", "measuring",
                   "no_measurement", "not_possible", "language", "sound", "voice", "volume",
                   "speed", "brightness", "screen_off", "axis_dice", "allies_dice", "dice_buttons",
                   "dice_dial", "dice_smart", "dice_smart_none", "dial_face", "files_in_use",
                   "reboot_ask", "poweroff_ask")


def main_path(seen: list[Seen]) -> list[Seen]:
    """The frames of the tour on the main path."""
    titles: dict[str, set[str]] = {}
    for language in LANGUAGES:
        titles[language] = {i18n.text(language, key) for key in PARENTS_SCREENS}
    return [one for one in seen if one.journey in MAIN_PATH
            and one.view.header.title not in titles[one.language]]


