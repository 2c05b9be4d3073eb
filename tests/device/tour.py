"""A tour of the box for the tests that check every frame it draws: the real box (app, store,
screens, renderer) on gpiozero's mock pins, in English or Polish, with cards whose names and
labels are as long as a card may have them, played by a guide who tries every menu item,
scrolls every text to its end and presses the button each screen waits for.

`take_tour(make, folder, language)` returns every frame drawn, with its view. `make(dice,
state_dir, config, **parts)` builds a box on a table (conftest's `Table`); the cards the box
reads are the caller's (conftest's `tour_frames` puts `long_cards` in $COBI_COMPANION_CARDS).
The tour goes through journeys, each on boxes of its own: the start menu, settings and the
box's own screens; an Easy battle played on to round 12 with 12 pieces of one model; a Tank
Game battle; fights resumed from saved battles (every outcome of a shot, a Tiger's 17 damage
dice, fire at squads and a soft vehicle, templates, each refusal of a shot, real dice);
pieces under every mark; a match given up twice; Cobra at its phases, attacks and levels of
victory; a range sensor; the screens of what is wrong with the box, and the last frame of a
stop. The guide's choices depend only on what the screens show and on its seeds, so a tour
draws the same frames every time; screens it would reach only by chance are reached on
purpose (`Guide.follow`).
"""
from __future__ import annotations

import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cobi_companion.cards import load_cards
from cobi_companion.cards.loader import shipped_folder
from cobi_companion.device.config import Config, Loaded
from cobi_companion.device.core import i18n
from cobi_companion.device.core.battle_state import BattleState
from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, View
from cobi_companion.device.games.cobra import CobraSession
from cobi_companion.device.ports.errors import ConfigError
from cobi_companion.device.ports.fake_sensor import FakeSensor, ff_frame
from cobi_companion.device.ports.power import RecordingPower
from cobi_companion.device.ports.range_sensor import Condition
from cobi_companion.device.ports.store import DATABASE_NAME, SqliteStore
from cobi_companion.device.sim import drain
from cobi_companion.device.ui.renderer import last_row, render
from cobi_companion.device.ui.trouble import notice
from cobi_companion.rules import turns
from cobi_companion.rules.battle import Battle
from cobi_companion.rules.card import Kind
from cobi_companion.rules.cobra.tables import COLUMNS, Weather
from cobi_companion.rules.cobra.turns import CobraGame
from cobi_companion.rules.status import Side
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


@dataclass(frozen=True)
class Seen:
    """One frame the box drew on the tour, with its view and the language it was in."""

    language: str
    journey: str
    view: View
    image: Image.Image


def long_cards(folder: Path, language: str) -> Path:
    """The shipped cards again in `folder`, each with a name of NAME_MAX letters and a label
    of LABEL_MAX (they replace the shipped ones: same set numbers and ids), MORE_WEAPONS, a
    squad without weapons, and the Soft Targets Table with a value for hard cover."""
    folder.mkdir(parents=True, exist_ok=True)
    table = shipped_folder() / "tables" / "soft-targets.toml"
    (folder / "tables").mkdir(exist_ok=True)
    (folder / "tables" / table.name).write_text(  # and a value for targets in hard cover
        table.read_text(encoding="utf-8") + HARD_COVER, encoding="utf-8")
    rifleman = (shipped_folder() / "rifleman.toml").read_text(encoding="utf-8")
    (folder / "unarmed.toml").write_text(       # a squad that has no weapon to fire
        re.sub(r"^(weapons|label|name|id) = .*$\n", "", rifleman, flags=re.M)
        + 'id = "unarmed"\nname = "Unarmed crew"\nlabel = "Crew"\n', encoding="utf-8")
    for path in sorted(folder.glob("unarmed.toml")) + sorted(shipped_folder().glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        name = re.search(r'^name = "(.*)"$', text, re.M)
        label = re.search(r'^label = "(.*)"$', text, re.M)
        if name is None or label is None:
            continue
        long_name = (name[1] + NAME_TAIL[language])[:NAME_MAX].rstrip()
        long_label = (label[1].replace(" ", "") + LABEL_TAIL)[:LABEL_MAX]
        text = text.replace(name[0], f'name = "{long_name}"').replace(
            label[0], f'label = "{long_label}"').replace(*MORE_WEAPONS.get(path.stem, ("", "")))
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
            found += [view.word, view.detail]
        case _:
            found += [view.caption, view.needed, view.total]
    return [text for text in found if text]


def kind_of(text: str) -> str:
    """A menu item or title as the guide counts its tries: "• Rifle 3: front" and "Rifle 12"
    are one item, as are "German VP 3" and "German VP 4", and "Sound: on" and "Sound: off"."""
    return re.sub(r"\d+", "#", text.removeprefix("• ")).split(":")[0]


class Guide:
    """Plays a box as someone who tries everything: in a menu, an item picked at random with
    the least tried ones likeliest (those that end a battle or a game least likely), every
    text scrolled to its end, the button a screen waits for, the knob turned a few detents;
    the frames the box draws are kept in `seen`."""

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
        loop = table.box.loop
        draw = loop.render

        def recording(view: View) -> Image.Image:
            image = draw(view)
            self.saw(view, image)
            return image
        loop.render = recording
        self.keep(table.view)

    def saw(self, view: View, image: Image.Image) -> None:
        self.seen.append(Seen(self.language, self.journey, view, image))
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

    def keep(self, view: View) -> None:
        """A frame drawn outside the main loop (the boot title)."""
        self.saw(view, render(view))

    def press(self, *words: str) -> None:
        for word in words:
            if word == "back":
                self.hold_knob()
            else:
                self.table.press(word)

    def hold_knob(self) -> None:
        """A long press of the knob, held until the box has it (gpiozero's hold thread runs in
        real time): as short as a long press can be, however busy the machine is."""
        pin = self.table.factory.pin(self.table.config.encoder.button)
        events, end = self.table.box.loop.events, time.monotonic() + 5
        pin.drive_low()
        while events.empty() and time.monotonic() < end:
            time.sleep(0.002)
        pin.drive_high()
        self.table.panel.clock.skip(self.table.config.buttons.bounce_s + 0.01)
        drain(self.table.box)

    def choose(self, text: str) -> bool:
        """The menu item that starts with `text`; False (and nothing pressed) when the screen
        has none."""
        view = self.table.view
        items = view.items if isinstance(view, Menu) else ()
        wanted = next((i for i, item in enumerate(items) if item.startswith(text)), None)
        if wanted is None:
            return False
        steps = (wanted - view.index) % len(items)
        self.press(*(["cw"] * steps if steps <= len(items) // 2 else
                     ["ccw"] * (len(items) - steps)), "ok")
        return True

    def show(self, screen: Any, steps: int = 12) -> None:
        """A screen of the box put on the panel, read to its end and left."""
        before = self.app.screen
        self.app.screen = screen
        self.table.box.loop.draw()
        self.play(steps, until=lambda: self.app.screen is before)

    # ---- the guide's moves ----

    def play(self, steps: int, until: Callable[[], bool] = lambda: False) -> None:
        for _ in range(steps):
            if until():
                return
            before = (id(self.app.screen), self.table.view)
            self.step()
            self.stuck = self.stuck + 1 if (id(self.app.screen), self.table.view) == before \
                else 0

    def step(self) -> None:
        screen, view = self.app.screen, self.table.view
        kind = type(screen).__name__
        title = f"{kind_of(view.header.title)} {view.header.round}"
        if isinstance(view, Menu):
            self.recent = [*self.recent[-(LOOP - 1):], title]
        if self.stuck >= 2:         # a screen that waits for something else: try each control
            self.press(("axis", "allies", "ok", "cw", "back")[self.stuck % 5])
        elif isinstance(view, Menu) and self.recent.count(title) > LOOP // 3:
            self.recent.clear()     # a menu that keeps coming back (refusals, or no way on
            self.press("back")      # but a long press): back
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
            self.press("axis_long" if not self.tried["D6+", ""] else ("axis", "ok")[
                len(self.seen) % 2])
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
        self.choose(view.items[wanted])

    def follow(self, *items: str, steps: int = 30) -> bool:
        """Each menu item in turn, played on to (a screen waiting for a button is pressed, a
        text read) until a menu shows it; False where one never does."""
        for item in items:
            self.play(steps, until=lambda item=item: isinstance(self.table.view, Menu) and any(
                text.startswith(item) for text in self.table.view.items))
            if not self.choose(item):
                return False
        return True

    def roster(self, screen: Any) -> None:
        """Both sides get pieces, a card each in turn, and OK starts."""
        for number in range(len(screen.cards(self.app))):
            self.go_to(number)
            self.press("axis" if number % 2 else "allies")
            self.play_squad()
        self.press("ok")

    def go_to(self, number: int) -> None:
        while self.app.screen.index != number:
            self.press("cw")

    def play_squad(self) -> None:
        """A squad just added: the knob dials its figures, OK."""
        if getattr(self.app.screen, "squad", None) is not None:
            self.press("cw", "cw", "ok")

    def many_pieces(self) -> None:
        """One model PIECES times for the Axis: the last is "<label> 12"."""
        self.go_to(0)
        for _ in range(PIECES):
            self.press("axis")
            self.play_squad()


# ---- the journeys ----

Make = Callable[..., Any]


@dataclass
class Tour:
    """The tour in one language: the boxes it builds (`make`), where they keep their state,
    and every frame seen."""

    make: Make
    folder: Path
    language: str
    seen: list[Seen] = field(default_factory=list)
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


def journey_box(tour: Tour) -> None:
    """A box with a settings file it skipped and only its own cards: the problem first, then
    the start menu, quick dice, the settings and the box's own rows, check distance; and
    power off and restart asked of a system that does them."""
    loaded = Loaded(config(tour.language), (Path("/boot/firmware/cobi/config.toml"),),
                    (USB_PROBLEM,), ())
    with only_shipped_cards():
        table = tour.box("box", loaded=loaded)
    guide = tour.guide(table, "box")
    guide.prefer = lambda item: not any(item.startswith(tour.t(key)) for key in (
        "new", "cobra", "new_match", "resume", "resume_match", "resume_cobra"))
    guide.play(160)
    for action in ("reboot", "poweroff"):
        guide = tour.guide(tour.box(action, power=RecordingPower()), "box")
        guide.choose(tour.t("settings"))
        for _ in range(6):                              # every step of the screen's timeout
            guide.choose(tour.t("screen_off"))
        guide.choose(tour.t("files_in_use"))            # no settings file: the built-in ones
        guide.play(8, until=lambda guide=guide: isinstance(guide.table.view, Menu))
        guide.choose(tour.t(action))
        guide.choose(tour.t("yes"))


def journey_easy(tour: Tour) -> None:
    """An Easy battle: PIECES of one model, passes on to round ROUNDS, then fire and moves;
    then the box starts again, real dice on, and the battle is resumed."""
    guide = tour.guide(tour.box("easy"), "easy", seed=11)
    guide.choose(tour.t("new"))
    guide.choose(tour.t("easy"))
    guide.press("ok")                                   # no pieces yet: the roster says so
    guide.play(3, until=lambda: type(guide.app.screen).__name__ == "Roster")
    guide.many_pieces()
    guide.roster(guide.app.screen)
    guide.prefer = lambda item: item == tour.t("pass")
    guide.play(900, until=lambda: guide.app.state is not None and
               guide.app.state.round >= ROUNDS)
    guide.prefer = lambda item: False
    guide.play(400, until=lambda: guide.app.state is None)
    resumed(tour, "easy", 150)


def resumed(tour: Tour, name: str, steps: int) -> None:
    """The box `name` started again, real dice on: the battle or game it saved goes on."""
    guide = tour.guide(tour.box(name), name, seed=len(name))
    guide.choose(tour.t("settings"))
    guide.choose(tour.t("real_dice"))
    guide.press("back")
    item = next((item for item in guide.table.view.items if item.startswith(tuple(
        tour.t(key) for key in ("resume", "resume_match", "resume_cobra")))), None)
    if item is not None:
        guide.choose(item)
        guide.play(steps)


def journey_tank(tour: Tour) -> None:
    """A Tank Game battle with every card, figures and guns too; then the box starts again
    and it is resumed."""
    guide = tour.guide(tour.box("tank"), "tank", seed=7)
    guide.choose(tour.t("new"))
    guide.choose(tour.t("tank"))
    guide.press("ok")                                   # no pieces yet: the roster says so
    guide.play(900)
    resumed(tour, "tank", 100)


def seed_battle(tour: Tour, name: str, sides: dict[Side, list[tuple[str, dict[str, bool]]]],
                level: str = "tank") -> None:
    """A battle saved in the state of box `name`: each side's pieces as (card, marks), the
    Axis to act in round 3."""
    book = load_cards()
    battle = Battle(level)
    for side, pieces in sides.items():
        for key, mark in pieces:
            card = book.get(key)
            battle = battle.add(card, side, 3 if card.kind is Kind.FIGURE else None)
            piece = battle.pieces[-1]
            battle = battle.replace_piece(replace(piece, status=replace(piece.status, **mark)))
    state = BattleState(level, battle, round=3, first=Side.AXIS, active=Side.AXIS,
                        defender=Side.AXIS)
    if level == "tank":
        state.turn = turns.Turn(5, Side.AXIS)
    tour.save(name, state.to_dict())


def journey_fights(tour: Tour) -> None:
    """Saved battles resumed and fought: tanks at tanks (every outcome of a shot), squads at
    squads, guns and a soft vehicle (fire at soft targets, templates), and a tank whose
    enemies are all hidden or off the map (no target)."""
    none: dict[str, bool] = {}
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
                     tour.t("on_its_own"), *(card.short + " 1" for card in load_cards().sorted()
                                             if card.key == "2456"))),
    }
    for seed, (name, (sides, wanted)) in enumerate(fights.items()):
        seed_battle(tour, name, sides)
        guide = tour.guide(tour.box(name), name, seed=seed)
        guide.choose(tour.t("resume"))
        guide.prefer = lambda item, wanted=wanted: item in wanted
        guide.play(150)
        guide.prefer = lambda item: False
        guide.play(250)
    label = {card.key: card.short for card in load_cards().sorted()}
    hits = {"immobilized": [6, 6, *[2] * 9], "weakened": [6, 6, 6, *[2] * 9],
            "gun-lost": [6, 6, 6, 6, 6, *[2] * 9], "no-effect": [6, 1, *[1] * 9]}
    for name, faces in hits.items():          # a Sherman at a Tiger's side: 9 dice v 8
        seed_battle(tour, name, {Side.AXIS: [("2464", none)], Side.ALLIES: [("2477", none)]})
        guide = tour.guide(tour.box(name, faces * 20), name)
        guide.choose(tour.t("resume"))
        guide.follow(label["2464"], tour.t("fire"), label["2477"], tour.t("side"),
                     tour.t("no"), tour.t("no"))
        guide.play(30)
    seed_battle(tour, "tiger", {Side.AXIS: [("2477", none)], Side.ALLIES: [("2464", none)]})
    guide = tour.guide(tour.box("tiger", [6, 6, 6, *[2] * 16] * 20), "tiger")
    guide.choose(tour.t("resume"))                # 16 damage dice and one more for the six
    guide.follow(label["2477"], tour.t("fire"), label["2464"], tour.t("front"), tour.t("no"),
                 tour.t("no"))
    guide.play(30)
    scenes = {      # a firer, its target, and what to pick on the way: a screen each
        "no-target": ("2477", ("2456", {"off_map": True}), ()),
        "hidden": ("2477", ("2464", {"hidden": True}), (label["2464"],)),
        "no-weapon": ("unarmed", ("rifleman", none), (label["rifleman"],)),
        "templates": ("mg-gunner", ("rifleman", none), (label["rifleman"],)),
        "weapons": ("pistol-soldier", ("rifleman", none), (label["rifleman"],)),
        "squad": ("rifleman", ("rifleman", none),
                  (label["rifleman"], tour.t("sit_open"), tour.t("fire"),
                   tour.t("done_firing"))),
        "vehicle": ("rifleman", ("motorcycle-sidecar", none),
                    (label["motorcycle-sidecar"], tour.t("sit_open"), tour.t("front"))),
        "mg": ("mg-gunner", ("rifleman", none),
               (tour.t("template", weapon="medium MG"), label["rifleman"],
                tour.t("sit_open"), tour.t("fire_now"))),
        "mg-cover": ("mg-gunner", ("rifleman", none),
                     (tour.t("template", weapon="medium MG"), label["rifleman"],
                      tour.t("sit_hard_cover"), tour.t("fire_now"))),
        "mg-vehicle": ("mg-gunner", ("rifleman", none),
                       (tour.t("template", weapon="medium MG"), label["rifleman"],
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
    guide.follow(label["2477"], tour.t("fire"), label["2464"], tour.t("front"), tour.t("no"),
                 tour.t("no"))
    guide.play(20)
    seed_battle(tour, "leaving", {Side.AXIS: [("2464", {"commander_killed": True})],
                                  Side.ALLIES: [("2477", none)]})
    guide = tour.guide(tour.box("leaving"), "leaving")
    guide.choose(tour.t("resume"))
    guide.press("back")                     # only figures hide in play: a tank is refused
    guide.follow(tour.t("hidden_pieces"), label["2477"])
    guide.play(3, until=lambda: guide.table.view.header.title == tour.t("hidden_pieces"))
    guide.press("back")
    guide.follow(label["2464"], tour.t("leave_map"))
    guide.play(10)


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
    state = BattleState("tank", battle, round=3, first=Side.AXIS, active=Side.AXIS,
                        defender=Side.AXIS, turn=turns.Turn(5, Side.AXIS))
    tour.save("marks", state.to_dict())
    guide = tour.guide(tour.box("marks"), "marks", seed=13)
    guide.choose(tour.t("resume"))
    guide.press("back")
    guide.choose(tour.t("status_board"))
    guide.play(400)


def journey_match(tour: Tour) -> None:
    """A match: each battle played a while and given up; the box starts again between them."""
    guide = tour.guide(tour.box("match"), "match", seed=3)
    guide.choose(tour.t("new_match"))
    for seed, side in ((4, Side.AXIS), (5, Side.ALLIES)):     # the same team wins both
        guide.play(150)
        give_up(guide, side)
        guide = tour.guide(tour.box("match"), "match", seed=seed)         # started again
        guide.choose(tour.t("resume_match"))
        guide.play(12, until=lambda app=guide.app: app.state is None or
                   app.state.winner is None)
    guide.play(30)


def give_up(guide: Guide, side: Side) -> None:
    """`side` gives up (from the menu of a long press), and the battle's end is read."""
    for _ in range(8):                  # long presses: back to the battle, then its menu
        if guide.table.view.header.title == guide.t("menu"):
            break
        guide.press("back")
    if guide.choose(guide.t("give_up")):
        guide.choose(guide.t("gives_up", side=guide.t(side.value)))
    guide.play(3)


def journey_cobra(tour: Tour) -> None:
    """Cobra from its start, and resumed at the weather of game turn 16 (with the owner's
    tables and without), in storms, at the end of the last game turn of the campaign and of
    Cobra, and with the victory points of each level of victory."""
    guide = tour.guide(tour.box("cobra"), "cobra", seed=5)
    guide.choose(tour.t("cobra"))
    guide.play(200)
    tables = owners_tables(tour.folder / "owner")
    start = CobraGame.start("cobra")
    owner = {"paths": {"cards_dir": str(tables)}}
    games = {"weather": (at(16, 0, [C]), owner, 5), "reading": (at(16, 0, [C]), {}, 3),
             "storms": (at(16, 0, [C, S]), {}, 2), "combat": (at(16, 3, [C, C]), owner, 4),
             "crt": (at(16, 3, [C, C]), {}, 6), "allied": (at(16, 8, [C, C]), {}, 1),
             "extended": (at_turn_end("campaign", 27), {}, 5),
             "campaign": (at_turn_end("campaign", 27), {}, 2),
             "last": (at_turn_end("cobra", 27), {}, 3)}
    for seed, (name, (game, more, face)) in enumerate(games.items()):
        tour.save(name, CobraSession(game).to_dict())
        guide = tour.guide(tour.box(name, [face, 4, 2, 5, 3, 6] * 200, config=more), "cobra",
                           seed=seed)
        guide.choose(tour.t("resume_cobra"))
        guide.play(60)
    for supply in ("pay_us", "pay_british"):
        tour.save("attack", CobraSession(at(16, 8, [C, C])).to_dict())
        guide = tour.guide(tour.box("attack", [4] * 50), "cobra")
        guide.choose(tour.t("resume_cobra"))
        guide.follow(tour.t("attack"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"), tour.t("add_unit"))
        guide.follow(tour.t("units_done"))
        if supply == "pay_us":
            for shift in ("shift_naval", "shift_patton", "shift_air"):
                guide.follow(tour.t(shift, n="").strip())
        else:                                   # carpet bombing takes no other shift
            guide.follow("- " + tour.t("carpet"))
        guide.follow(tour.t("roll_attack"), tour.t(supply, cost="", have="").split(":")[0])
        guide.play(12, until=lambda guide=guide: type(guide.app.screen).__name__ == "Hub")
        guide.press("back")                             # the log: the result to read
        guide.follow(tour.t("battle_log"))
        guide.play(8, until=lambda guide=guide: isinstance(guide.table.view, Menu))
    levels = ((0, 30, "no"), (0, 15, "no"), (0, 0, "no"), (15, 0, "no"), (0, 0, "yes"),
              (15, 0, "yes"), (30, 0, "yes"))
    for german, allied, intact in levels:
        tracks = replace(start.tracks, german_vp=german, allied_vp=allied)
        tour.save("victory", CobraSession(replace(start, tracks=tracks)).to_dict())
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


C, S = Weather.CLEAR, Weather.STORM


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
    try:
        table = tour.box("sensor", [], config={"sensors": [
            {"name": "table", "port": str(link), "model": "a02yyuw"}]})
        table.serve(lambda: table.box.app.sensors.online_names() == ["table"])
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


def journey_trouble(tour: Tour) -> None:
    """What the box says when something is wrong with it (as tests/device/test_trouble_frames.py
    draws them), the title of a start and the last frame of a stop."""
    table = tour.box("trouble")
    guide = tour.guide(table, "trouble")
    box, app = table.box, table.box.app
    box.pin_problem = "buttons.axis (GPIO 17): GPIO busy"
    menu = app.screen
    parts = [app.t("part_failed", part=app.t(part), reason=f"GPIO {pin}: GPIO busy")
             for part, pin in (("buzzer", 12), ("leds", 5))]
    for screen in (box.pins_trouble(lambda: menu),
                   notice(app, app.t("cannot_save"), ["cannot save: the folder is read-only",
                                                      app.t("cannot_save_fix")], lambda: menu),
                   notice(app, app.t("parts_off"), [*parts, app.t("parts_go_on")],
                          lambda: menu),
                   notice(app, app.t("reloaded"), [app.t("reloaded_counts", files=2, cards=12),
                                                   app.t("restart_needed"),
                                                   app.t("sim_restart_needed")],
                          lambda: menu)):
        guide.show(screen)
    guide.keep(BigWord(Header("COBI Companion"), "COBI"))    # boot.py's title
    table = tour.box("stop")
    guide = tour.guide(table, "trouble")
    box, app = table.box, table.box.app
    box.loop.farewell()                                      # no battle: nothing to say
    guide.choose(tour.t("new"))
    guide.choose(tour.t("easy"))
    guide.roster(app.screen)                                  # the battle begins
    box.loop.farewell()                                       # the battle is saved
    box.store.can_save = False                                # as after a failed write
    box.loop.farewell()


def dice(seed: int) -> list[int]:
    """Faces for a whole journey, the same every time."""
    rng = random.Random(seed)
    return [rng.randint(1, 6) for _ in range(6000)]


def take_tour(make: Make, folder: Path, language: str) -> list[Seen]:
    """Every frame of the tour in `language`; `folder` is the tour's own (state, cards)."""
    tour = Tour(make, folder, language)
    for journey in (journey_box, journey_easy, journey_tank, journey_fights, journey_marks,
                    journey_match, journey_cobra, journey_sensor, journey_trouble):
        journey(tour)
    return tour.seen
