"""A tour of the box's screens, for checks that look at every view it shows: the real box on
mock pins (the `table_at` fixture of conftest.py), pressed as players would, in one language.

It reaches every kind of screen: the start menu, quick dice, settings (files in use, restart
asked and declined), check distance; an Easy battle with a refused shot, a shot, a move, the
menu's status board, battle log and dice fairness; the same with real dice dialled; a Tank Game
turn by turn with squads, two models refused, a machine-gun template at figures in soft cover,
HE at a gun's crew, a pistol at a figure, a refused shot at a tank, hiding, taking cover, a
vehicle placed from off the map, a tank firing at a tank, running over a squad, a reload, the
commander out and in, hidden pieces, giving up and the figures left; Cobra's weather, an attack
dialled unit by unit with its shifts and supply, the combat result, the Allied supply, the
tracks and the victory level; and a match of two battles.

Menus are walked by what their items say in the language of the tour (`choose(key)` turns the
knob to the item the i18n key gives), so one tour serves every language. Every view after every
press is kept in `seen`, with the step it belongs to.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cobi_companion.device.config import Config
from cobi_companion.device.core import i18n
from cobi_companion.device.core.views import BigWord, Lines, Menu, Roll, View
from cobi_companion.device.ui.widgets import Show

# The dice of each part of the tour, in the order the box asks for them (see each part).
EASY_DICE = [5, 2, 5, 3, 2, 4, 1]                   # roll-off, to hit, D6+, D6+; to spare
TANK_DICE = [2, 4,                                  # roll-off: the Allies attack
             4, 2, 1, 3, 1, 3, 1, 3, 1, 3,          # MG 1 at Rifle 1: 4+1 v 2, then misses
             3, 3,                                  # Pistol 1 at MG 1: 3-2 v 3
             6, 2, 4, 3, 2, 5, 2, 5, 2, 5,          # Pz IV D's HE: hit, unloaded; the gun,
             #                                        its crew of 3
             5, 6, 4, 3, 2, 2, 5, 6, 6, 1, 3, 2, 4,  # Sherman 1 at Tiger 1: 9 dice, 2 extra
             5, 2,                                  # Tiger 1 runs over Rifle 1's two
             6, 3, 3, 3, 3]                         # Pz IV D reloads; to spare
COBRA_DICE = [3, 4]                                 # the weather, the attack
MATCH_DICE = [2, 4, 4, 2]                           # the two battles' roll-offs
FILLED_COBRA_TABLES = """
[crt]
{crt}

[weather.A]
"1-2" = "clear"
"3-4" = "overcast"
"5-6" = "storm"
"""
CRT_COLUMNS = ("1:5", "1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1",
               "8:1", "9:1", "10:1")


@dataclass(frozen=True)
class Seen:
    step: str
    view: View


@dataclass
class Tour:
    """Drives new boxes (`table_at(dice, state_dir=..., config=...)`) through the screens in
    `language`; `ready(table)` runs on each box before its first press (to watch its app)."""

    table_at: Callable[..., Any]
    language: str
    folder: Path
    ready: Callable[[Any], None] = lambda table: None
    seen: list[Seen] = field(default_factory=list)
    step: str = ""
    table: Any = None

    # ---- fingers ----

    def box(self, name: str, dice: list[int], **config: Any) -> None:
        """A new box for the part `name`, with its own saved state."""
        settings = {"buttons": {"hold_s": 0.2}, "encoder": {"long_press_s": 0.2},
                    "game": {"language": self.language}, **config}
        self.table = self.table_at(dice, state_dir=self.folder / name,
                                   config=Config.model_validate(settings))
        self.ready(self.table)
        self.at(name)
        self.keep()

    def at(self, step: str) -> None:
        self.step = step

    def keep(self) -> None:
        self.seen.append(Seen(self.step, self.table.view))

    @property
    def view(self) -> View:
        view: View = self.table.view
        return view

    def press(self, *keys: str) -> None:
        for key in keys:
            self.table.press(key)
            self.keep()

    def t(self, key: str, **values: object) -> str:
        """What the box says for `key` in the tour's language (looked up, not said)."""
        return i18n.text(self.language, key, **values)

    def choose(self, item: str, key: bool = True) -> None:
        """Turn the knob to the item the i18n key `item` says (or, with key=False, the item
        that starts with `item`), then OK."""
        view = self.view
        assert isinstance(view, Menu), f"{self.step}: no menu to choose {item!r} in: {view}"
        wanted = self.t(item) if key else item
        found = [i for i, text in enumerate(view.items)
                 if text.removeprefix("• ").startswith(wanted)]
        assert found, f"{self.step}: no {wanted!r} in {view.items}"
        self.turn_to(found[0])
        self.press("ok")

    def turn_to(self, index: int) -> None:
        view = self.view
        assert isinstance(view, Menu)
        steps = (index - view.index) % len(view.items)
        self.press(*["cw"] * steps)

    def ok_until(self, done: Callable[[View], bool], limit: int = 20) -> None:
        """OK until the view is what `done` wants (the views of a shot, one by one)."""
        for _ in range(limit):
            if done(self.view):
                return
            self.press("ok")
        raise AssertionError(f"{self.step}: still on {self.view}")

    def new_battle(self, level: str) -> None:
        """New battle, at `level`: the roster's Rules row changes the level where needed."""
        self.choose("new")
        if self.table.box.app.screen.level != level:
            self.choose("rules")

    def menu(self) -> None:
        """The long press: the menu of the battle or game in play."""
        self.press("back")

    def titled(self, key: str, **values: object) -> Callable[[View], bool]:
        title = self.t(key, **values)
        return lambda view: view.header.title == title

    # ---- the tour ----

    def run(self) -> list[Seen]:
        for part in (self.start, self.easy, self.real_dice, self.tank, self.cobra, self.match):
            part()
        return self.seen

    def start(self) -> None:
        """The start menu's own screens."""
        self.box("start", [3, 4, 6, 2])
        self.at("quick dice")
        self.choose("quick_dice")
        self.press("axis", "allies_long", "ok")
        self.at("settings")
        self.choose("settings")
        rows = len(self.view.items)
        self.turn_to(3)                              # sound: off, then on again
        self.press("ok", "ok")
        self.turn_to(rows - 3)                       # files in use
        self.press("ok", "cw", "ok")
        self.turn_to(rows - 2)                       # restart? no
        self.press("ok", "ok")
        self.press("back")
        self.at("check distance")
        self.choose("check_distance")
        self.press("ok", "cw", "ok", "ok")           # over 100 cm: 101 cm is over
        self.press("cw", "ok", "ok")                 # spotted: 30 cm is within
        self.press("back")

    def easy(self) -> None:
        """Axis 5, Allies 2: the Axis start. The Sherman's shot at the Pz IV H is refused (its
        card lacks values); at the Tiger's front: 5 hits, 9 + D6+ 3 against 12 + D6+ 2: no
        effect. The Allies' Tiger moves. Then the menu."""
        self.box("easy", EASY_DICE)
        self.at("easy roster")
        self.new_battle("easy")
        self.roster(("Sherman M4A1", "axis"), ("Tiger I", "allies"),
                    ("Pz.Kpfw. IV Ausf. H", "allies"))
        self.press("ok", "axis", "allies")
        self.at("easy refusal")
        self.choose("Sherman 1", key=False)
        self.choose(self.t("fire_at", target="Pz IV 1"), key=False)
        self.press("cw", "axis", "back")            # the side: the reason; refused; back
        self.at("easy shot")
        self.choose(self.t("fire_at", target="Tiger 1"), key=False)
        self.press("axis", "allies")
        self.ok_until(self.titled("pick_vehicle"))
        self.at("easy move")
        self.choose("Tiger 1", key=False)
        self.choose("move")
        self.press("ok", "cw", "ok", "cw", "ok", "ok", "ok")   # forward, 1 turn, rough, no road
        self.at("easy menu")
        self.battle_menu()
        self.choose("end_battle")

    def battle_menu(self) -> None:
        """The long press menu's screens: status board, log, dice fairness, quick dice; then
        the menu again."""
        for item in ("status_board", "battle_log", "dice_stats"):
            self.menu()
            self.choose(item)
            self.press("cw", "ok")
        self.menu()
        self.choose("quick_dice")
        self.press("axis", "ok")
        self.menu()

    def real_dice(self) -> None:
        """Settings: real dice on; an Easy battle's roll-off and a shot, every face dialled."""
        self.box("real dice", [])
        self.at("real dice on")
        self.choose("settings")
        self.turn_to(2)
        self.press("ok", "back")
        self.at("real dice roll-off")
        self.new_battle("easy")
        self.roster(("Tiger I", "axis"), ("Sherman M4A1", "allies"))
        self.press("ok", "axis", "cw", "cw", "ok", "allies", "ok")   # 3 against 1
        self.at("real dice shot")
        self.choose("Tiger 1", key=False)
        self.choose(self.t("fire_at", target="Sherman 1"), key=False)
        self.press("axis")                           # the front: the to-hit dial
        self.press("cw", "cw", "cw", "ok")           # 4: a hit
        self.press("cw", "ok")                       # damage D6+: 2
        self.press("allies", "cw", "cw", "ok")       # the Sherman's armour D6+: 3
        self.ok_until(lambda view: isinstance(view, Menu))

    def roster(self, *pieces: tuple[str, str] | tuple[str, str, int] |
               tuple[str, str, int, bool]) -> None:
        """The cards by name onto their sides: (name, side[, figures[, off map]])."""
        for piece in pieces:
            name, side, *more = piece
            rows = self.table.box.app.screen.rows(self.table.box.app)
            self.turn_to(next(i for i, (kind, card) in enumerate(rows)
                              if kind == "card" and card.name == name))
            self.press(f"{side}_long" if more[1:] and more[1] else side)
            if more and more[0]:
                self.press(*["cw"] * (more[0] - 1), "ok")

    def tank(self) -> None:
        """Axis: Tiger 1, MG 1 (1), Pz IV D 1; Allies: Rifle 1 (3), Bofors 1, Pistol 1 (1), and
        Sherman 1 off the map. The Allies attack: the Axis play first (see TANK_DICE)."""
        self.box("tank", TANK_DICE)
        self.at("tank roster")
        self.new_battle("tank")
        self.roster(("Tiger I", "axis"), ("Medium MG team", "axis", 1),
                    ("Pz.Kpfw. IV Ausf. D", "axis"), ("Rifleman", "allies", 3),
                    ("37 mm Bofors AT gun", "allies"), ("Soldier with pistol", "allies", 1),
                    ("Sherman M4A1", "allies", 0, True))
        self.press("ok", "axis", "allies", "ok")
        self.tank_hidden_at_setup()
        self.tank_axis_template()
        self.tank_allies_soft_fire()
        self.tank_axis_he()
        self.tank_allies_tank_fire()
        self.tank_axis_overrun_and_reload()
        self.at("tank menu")
        self.battle_menu()
        self.choose("give_up")
        self.press("ok")                             # the Axis give up: asked first
        self.choose("yes")
        self.ok_until(lambda view: isinstance(view, Menu))

    def roll_until_menu(self, limit: int = 40) -> None:
        """Both players press their buttons, turn about (the box waits for the right one),
        through the dice and the views of the outcome, until a choice comes back."""
        for _ in range(limit):
            for key in ("axis", "allies"):
                if isinstance(self.view, Menu):
                    return
                screen = self.table.box.app.screen
                if isinstance(screen, Show) and screen.index == screen.last:
                    self.press("ok")                 # an outcome: read, then on
                else:
                    self.press(key)
        raise AssertionError(f"{self.step}: still on {self.view}")

    def tank_hidden_at_setup(self) -> None:
        self.at("tank hidden pieces")
        self.menu()
        self.choose("hidden_pieces")
        self.press("cw", "ok", "back")               # MG 1 starts hidden (at set-up)

    def tank_axis_template(self) -> None:
        """Two models refused; MG 1's medium MG at Rifle 1's three figures in soft cover: the
        first falls, every other shot misses."""
        self.at("tank activation")
        self.choose("Tiger 1", key=False)
        self.choose("Pz IV D 1", key=False)          # a second model: refused
        self.press("ok")
        self.choose("Tiger 1", key=False)            # dropped again
        self.choose("MG 1", key=False)
        self.choose("go")
        self.at("tank template")
        self.choose("fire")
        self.choose("Rifle 1", key=False)
        self.press("ok")                             # all 3 under the template
        self.choose("sit_soft_cover")
        self.choose("fire_now")
        self.roll_until_menu()
        self.choose("end_activation")

    def tank_allies_soft_fire(self) -> None:
        """Sherman 1 comes on; Pistol 1 is refused at the Tiger, misses MG 1, then hides."""
        self.at("tank place")
        self.choose(self.t("place_off_map", n=1), key=False)
        self.choose("Sherman 1", key=False)
        self.at("tank soft fire")
        self.choose("Pistol 1", key=False)
        self.choose("go")
        self.choose("fire")
        self.choose("Tiger 1", key=False)            # a pistol at a tank: refused
        self.press("ok")
        self.choose("MG 1", key=False)
        self.choose("sit_open")
        self.press("ok")                             # 44 cm, the band the table knows
        self.roll_until_menu()
        self.at("tank hide")
        self.choose("hide")
        self.press("ok", "ok", "ok")                 # cover: yes; enemy near: no; HIDDEN
        self.choose("end_activation")

    def tank_axis_he(self) -> None:
        """Pz IV D's HE template at the Bofors: a hit, unloaded; the gun falls, its crew
        does not."""
        self.at("tank he")
        self.choose("Pz IV D 1", key=False)
        self.choose("go")
        self.choose("fire")
        self.choose(self.t("template", weapon="HE"), key=False)
        self.choose("Bofors 1", key=False)
        self.press("ok")                             # its crew of 3
        self.choose("sit_open")
        self.choose("fire_now")
        self.choose("no")                            # not over 100 cm
        self.roll_until_menu()
        self.choose("end_activation")

    def tank_allies_tank_fire(self) -> None:
        """Rifle 1 takes cover; Sherman 1 at the Tiger's front: a hit, loaded, 10 damage
        against 12."""
        self.at("tank cover")
        self.choose("Rifle 1", key=False)
        self.choose("Sherman 1", key=False)
        self.choose("go")
        self.choose("Rifle 1", key=False)
        self.choose("take_cover")
        self.press("ok")
        self.at("tank fire at a tank")
        self.choose("Sherman 1", key=False)
        self.choose("fire")
        self.choose("Tiger 1", key=False)
        self.choose("no")                            # hull down
        self.choose("no")                            # over 100 cm: then the front, fired
        self.roll_until_menu()
        self.choose("end_activation")

    def tank_axis_overrun_and_reload(self) -> None:
        """The Tiger's commander out and in; it runs over Rifle 1's two figures: one falls.
        Then the extra activation: Pz IV D reloads."""
        self.at("tank commander")
        self.choose("Tiger 1", key=False)
        self.choose("go")
        self.choose("commander_out_do")
        self.choose("commander_in")
        self.at("tank overrun")
        self.choose("run_over")
        self.choose("Rifle 1", key=False)
        self.press("ok")                             # both its figures
        self.choose("sit_open")
        self.choose("run_over_now")
        self.roll_until_menu()
        self.choose("end_activation")
        self.at("tank reload")
        self.choose("yes")                           # the extra activation
        self.choose("Pz IV D 1", key=False)
        self.choose("go")
        self.choose("reload")
        self.roll_until_menu()
        self.choose("end_activation")

    def cobra(self) -> None:
        """The Cobra scenario: the weather (3 on column A: overcast), the German attack of a 4
        and a 6 out of supply against a 3, an air shift, paid; the Allied supply; the tracks
        and the victory level."""
        cards = self.folder / "cobra cards"
        (cards / "cobra").mkdir(parents=True, exist_ok=True)
        crt = "\n".join(f'"{c}" = ["1/2", "-/1", "e", "2/-", "-/3", "1/1"]' for c in CRT_COLUMNS)
        (cards / "cobra" / "tables.toml").write_text(FILLED_COBRA_TABLES.format(crt=crt))
        self.box("cobra", COBRA_DICE, paths={"cards_dir": str(cards)})
        self.at("cobra weather")
        self.choose("cobra")
        self.press("ok")                             # the Cobra scenario
        self.choose("roll_weather")
        self.press("axis", "ok", "ok")
        self.at("cobra attack")
        self.choose("next_phase")
        self.choose("next_phase")
        self.choose("attack")
        self.choose("add_unit")
        self.press("ok")                             # 4
        self.turn_to(3)                              # ½ out of supply
        self.press("ok")
        self.press("ccw", "ccw", "ccw", "ok")        # keep it
        self.choose("add_unit")
        self.press("cw", "cw", "ok", "ok")           # 6, kept
        self.choose("units_done")
        self.choose("add_unit")
        self.press("ccw", "ok", "ok")                # the defender: 3
        self.choose("units_done")
        self.turn_to(1)                              # a shift, then roll
        self.press("ok", "ccw", "ok")
        self.press("ok")                             # pay from the German track
        self.press("axis")
        self.press("ok", "cw", "cw", "ok")           # the result, its explanation
        self.at("cobra supply")
        self.choose("next_phase")
        self.choose("next_phase")
        self.choose("supply_points")
        self.press("cw", "cw", "ok", "cw", "ok", "ok")
        self.at("cobra tracks")
        self.choose("tracks")
        self.press("ok", "cw", "ok")                 # US supply +1
        self.choose("victory_level")
        self.choose("no")
        self.press("ok", "ok", "back")
        self.at("cobra menu")
        self.menu()
        self.choose("battle_log")
        self.press("ok")
        self.menu()
        self.choose("dice_stats")
        self.press("ok")
        self.menu()
        self.choose("end_game")

    def match(self) -> None:
        """A match: a rifleman against a pistol soldier; the Axis give up the first battle,
        the Allies (team 1 now) the second."""
        self.box("match", MATCH_DICE)
        self.at("match")
        self.choose("new_match")
        self.roster(("Rifleman", "axis", 1), ("Soldier with pistol", "allies", 1))
        self.press("ok", "axis", "allies", "ok")
        for side in ("axis", "allies"):
            self.menu()
            self.choose("give_up")
            self.choose(self.t("gives_up", side=self.t(side)), key=False)
            self.choose("yes")
            # game over, the figures left; then the second battle's roll-off, or the result
            self.ok_until(lambda view: isinstance(view, Roll | Menu))
            if side == "axis":
                self.press("axis", "allies", "ok")


def texts(view: View) -> list[str]:
    """Every text of a view, as its screen shows it."""
    header = [view.header.title, view.header.side_label]
    match view:
        case Menu():
            return [*header, *view.items, view.hint]
        case Roll():
            return [*header, view.caption, view.needed, view.total]
        case BigWord():
            return [*header, view.word, view.detail]
        case Lines():
            return [*header, *view.lines, view.hint]
