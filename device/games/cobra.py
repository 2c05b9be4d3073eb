"""Cobra on the box: the scenario, a phase indicator stepping through the sequence of play, the
weather phase at the start of each German player turn, attacks dialled unit by unit with their
modifiers and shifts, the supply and victory point tracks, and the end of the game.

The rules (rules/cobra_*) do every sum; these screens only collect what the players choose and
show the rules' trace."""
from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from cobi_companion.cards import cobra_in_play, default_folders
from cobi_companion.cards.snapshot import snapshot_file
from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import Line, LogEntry, LogValue, entry, loaded, saved
from cobi_companion.device.core.spoken import prompt
from cobi_companion.device.core.views import BigWord, Header, Lines, Menu, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games import cobra_command
from cobi_companion.device.games.battle import end_battle
from cobi_companion.device.games.menus import QuickDice, Scroll, dice_stats
from cobi_companion.device.games.rolling import face_for
from cobi_companion.device.games.settings import settings_menu
from cobi_companion.device.ui.widgets import Choose, Count, Show, WaitPress, confirm, notice, yes_no
from cobi_companion.rules.cobra import weather as cobra_weather
from cobi_companion.rules.cobra.combat import (
    BY_LETTER,
    Nation,
    Odds,
    OverrunWhen,
    Role,
    Shift,
    ShiftChoice,
    ShiftKind,
    Unit,
    carpet_odds,
    odds,
    out_of_supply,
    roll,
    shift_choices,
    strength,
)
from cobi_companion.rules.cobra.command import Army
from cobi_companion.rules.cobra.landing import BEACH_SHIFT, PARATROOPS, beach_shift_offered
from cobi_companion.rules.cobra.notes import Note
from cobi_companion.rules.cobra.overrun import (
    overrun_modifier,
    overrun_odds,
    overrun_shift_choices,
    overruns_allowed,
)
from cobi_companion.rules.cobra.tables import CobraTables, Weather
from cobi_companion.rules.cobra.turns import (
    ATTACK_COST,
    LANDING,
    SCENARIOS,
    Budget,
    CobraGame,
    marginal,
    player_turn,
    victory,
)
from cobi_companion.rules.cobra.weather import CARPET_FROM
from cobi_companion.rules.dice import Aim, Need, Roller, ScriptedDice
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

log = logging.getLogger("cobi-companion")

BUTTON = {Nation.GERMAN: "axis", Nation.ALLIED: "allies"}     # whose dice button
EXTENSION = Need(Roller.ALLIES, Aim.EXTENSION, "campaign extension")
STRENGTH_MAX = 40           # the knob dials a unit's printed strength up to this
SP_MAX = 20                 # Allied supply points the knob dials for one turn
VP_MAX = 199
TRACKS = ("us", "british", "german", "german_vp", "allied_vp")
TOGGLED = "dsmbrux"         # the unit modifiers the box offers as toggles (by letter)
# The phases an overrun is made in: moving in the Initial Movement Phase (5.4a), advancing
# after an attack of the Combat Phase (5.4b); never in the Mechanized Movement Phase (5.4).
SUPPORT = (ShiftKind.AIR, ShiftKind.NAVAL)     # the shifts that spend the turn's points
OVERRUN_PHASES = {"initial_movement": OverrunWhen.MOVEMENT, "combat": OverrunWhen.ADVANCE}
# An Allied unit on a beach hex: two columns left against a German attack (17.3.10).
BEACH_CHOICE = ShiftChoice("beach", ShiftKind.BEACH, (0, BEACH_SHIFT))


@dataclass(frozen=True)
class Part:
    """A part of Cobra in a module of its own (games/cobra_*.py, which imports this one): the
    phases whose hub offers it, the word of its item and its screen; `track_line`, its line on
    the Tracks screen, and `track_screen`, what that line opens before `then`.
    games/cobra_parts.py lists them."""

    phases: tuple[str, ...]
    label: str
    screen: Callable[[App], Screen]
    track_line: Callable[[App], str] | None = None
    track_screen: Callable[[App, Screen], Screen] | None = None


PARTS: list[Part] = []          # filled by games/cobra_parts.py, through which Cobra starts


@dataclass
class CobraSession:
    """A Cobra game as the box keeps it: saved in the battle slot after every action."""

    game: CobraGame
    id: str = field(default_factory=lambda: secrets.token_hex(6))
    log: list[Line] = field(default_factory=list)     # typed entries (old saves: strings)

    def saved_later(self) -> Callable[[], dict[str, Any]]:
        """Made data now (the save is written after the frame)."""
        data = self.to_dict()
        return lambda: data

    def to_dict(self) -> dict[str, Any]:
        return {"game": "cobra", "id": self.id, "cobra": self.game.to_dict(),
                "log": [saved(line) for line in self.log]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CobraSession:
        return cls(CobraGame.from_dict(data["cobra"]), str(data["id"]),
                   [loaded(line) for line in data["log"]])


def session(app: App) -> CobraSession:
    """The Cobra game in play: Cobra's screens are only reached with one."""
    if not isinstance(app.game, CobraSession):
        raise RuntimeError("no Cobra game in play")
    return app.game


def save(app: App, line: LogEntry) -> None:
    """Commit the game after a completed action, with the rolls it made and its line of the
    log, under the game turn."""
    app.commit(entry("log_game_turn", turn=session(app).game.turn, line=line))


def tables(app: App) -> CobraTables:
    if app.cobra_tables is None:
        # From the snapshot of the last check while the tables files are as they were.
        folders = default_folders() if app.card_folders is None else app.card_folders
        app.cobra_tables, problems = cobra_in_play(folders, snapshot_file("box-cobra"))
        for problem in problems:
            # the journal's: the tables are read for a Cobra game, which has no battle log
            # this could join (and a file's problem is the loader's English)
            log.info("Cobra tables skipped: %s", problem)
    return app.cobra_tables


def header(app: App, title: str) -> Header:
    game = session(app).game
    player = game.phase.player
    return Header(title, None, BUTTON[player],
                  joined(" ", app.t("game_turn", n=game.turn),
                         app.t("cobra_short_" + player.value)))


@dataclass
class Reading(Scroll):
    """Text to scroll with the knob under the Cobra header; OK goes on."""

    def view(self, app: App) -> View:
        return Lines(header(app, self.title), tuple(self.lines), self.index, app.t("ok_next"))


def reading(app: App, title: str, texts: Sequence[str], then: Screen) -> Reading:
    return Reading(title, list(texts), then)


def refusal(app: App, exc: RulesError, then: Screen) -> Reading:
    """The rules' reason, then `then`: a refusal returns to the choice it came from."""
    return reading(app, app.t("not_possible"), [app.say(exc)], then)


def result_screen(app: App, title: str, word: str, detail: str, notes: Sequence[Note],
            read_as: str | None = None) -> Screen:
    """A roll's outcome big under `title`, then the rules' notes to read (under `read_as`,
    else the same title), then the phase indicator."""
    return Show([BigWord(header(app, title), word, detail)],
                lambda: reading(app, read_as or title, [app.say(n) for n in notes], hub(app)))


# ---- start, resume, the phase hub ----

def new_game(app: App, back: Next) -> Screen:
    keys = list(SCENARIOS)

    def chosen(i: int) -> Screen:
        app.begin(CobraSession(CobraGame.start(keys[i])))
        picked = SCENARIOS[keys[i]]
        save(app, entry("log_cobra_start", scenario=picked.key, title=picked.title,
                        first=picked.first, last=picked.last))
        return hub(app)
    items = [app.t("cobra_scenario", name=app.t("scenario_" + k), turns=SCENARIOS[k].turns)
             for k in keys]
    return Choose(app.t("cobra"), items, chosen, back=back)


def phase_title(app: App, game: CobraGame) -> str:
    """"2/5 Refit": the phase's place in its player turn. The Allied Landing Phase is in no
    player turn, it comes before the German one (17.3.2): its name alone."""
    name = app.t("phase_" + game.phase.name)
    if game.phase.name == LANDING:
        return name
    phases = player_turn(game.scenario, game.turn, game.phase.player)
    return joined(" ", f"{phases.index(game.phase) + 1}/{len(phases)}", name)


def hub(app: App) -> Screen:
    """The phase indicator: this phase's action first, then the next phase and the tracks."""
    game = session(app).game
    if game.over:
        return game_over(app)
    name = game.phase.name
    items: list[tuple[str, Next]] = []
    # A game an older box saved between the weather and the next phase has this turn's
    # weather already: the phase goes on, with no second roll (the rules refuse one).
    if name == "weather" and game.this_weather is None:
        items += special_items(app, game)       # Brest, at the beginning of the turn (15.3)
        items.append((app.t("roll_weather"), lambda: weather_phase(app)))
    elif name == "supply":
        items.append((app.t("supply_points"), lambda: allied_supply(app)))
    elif name == "turn_end":
        items.append((app.t("end_turn"), lambda: end_turn(app)))
        items += special_items(app, game)       # the withdrawal attack (17.3.4)
    elif name == LANDING:
        items += special_items(app, game)       # the landing's steps (17.3.2)
        items.append((app.t("next_phase"), lambda: leave_landing(app)))
    else:
        items += [(app.t(part.label), partial(part.screen, app)) for part in PARTS
                  if name in part.phases]
        if name == "combat":
            items.append((app.t("attack"), lambda: Attack(
                game.turn, game.phase.player,
                beach=beach_shift_offered(game.phase.player, SCENARIOS[game.scenario].landing)
            ).units(app)))
        when = OVERRUN_PHASES.get(name)
        if when is not None and overruns_allowed(game.turn):
            items.append((app.t("overrun"), lambda: Attack(
                game.turn, game.phase.player, overrun=when, beach=beach_shift_offered(
                    game.phase.player, SCENARIOS[game.scenario].landing)).units(app)))
        # none is offered before game turn 5 (14.3f "during GTs 5 through 14")
        if name == "combat" and game.phase.player is Nation.ALLIED and game.turn >= CARPET_FROM:
            items.append((app.t("carpet"), lambda: carpet_bombing(app)))
        items.append((app.t("next_phase"), lambda: next_phase(app)))
        # the special rolls of the phase (15.1, 15.2): after Next phase, which stays the
        # one press of a phase without them
        items += special_items(app, game)
    items.append((app.t("tracks"), lambda: tracks(app)))
    if name in cobra_command.HQ_PHASES:        # where an HQ moves, is displaced or lost
        items.append((app.t("hqs"), lambda: cobra_command.hqs_screen(KIT, app)))
    return Hub(phase_title(app, game), [label for label, _ in items],
               lambda i: items[i][1](), back=lambda: cobra_menu(app))


# The parts of Cobra in modules of their own join the hub where the rules put them; they import
# this module, never the other way round (games import one way, tests/device/test_layers.py),
# and games/cobra_parts.py imports them all. Two lists for the hub, one for the tracks:
# - PARTS (above): a phase's own action, first (the movement allowance, the replacements);
# - HUB_ITEMS: what a module offers in the phase it is given, where the hub puts such items:
#   the Landing Phase's steps and, after End turn, the withdrawal attack (cobra_landing.py,
#   17.3.2, 17.3.4); the special rolls, before the weather (Brest, 15.3) or after Next phase,
#   which stays the one press of a phase without them (15.1, 15.2: cobra_victory.py);
# - TRACKS_ITEMS: a row of the tracks (the victory points).
HubItems = Callable[["App", CobraGame], list[tuple[str, Next]]]
HUB_ITEMS: list[HubItems] = []
TRACKS_ITEMS: list[tuple[str, Callable[[App], Screen]]] = []     # (i18n key, screen)


def special_items(app: App, game: CobraGame) -> list[tuple[str, Next]]:
    return [item for items in HUB_ITEMS for item in items(app, game)]


class Hub(Choose):
    def view(self, app: App) -> View:
        return Menu(header(app, self.title), tuple(self.items), self.index, app.t("ok_choose"))


def leave_landing(app: App) -> Screen:
    """The Landing Phase is left for good: with paratroop units not yet dropped, the players
    are asked first (17.3.2 step 1a: "his nine paratroop units")."""
    dropped = len(session(app).game.landing.drops)
    if dropped >= PARATROOPS:
        return next_phase(app)
    return yes_no(app, app.t("leave_landing", n=dropped, most=PARATROOPS),
                  lambda yes: next_phase(app) if yes else hub(app), lambda: hub(app))


def next_phase(app: App) -> Screen:
    s = session(app)
    before = s.game.phase.player
    s.game = s.game.advance()
    save(app, entry("log_cobra_phase", nation=s.game.phase.player.value, phase=s.game.phase.name))
    if s.game.phase.player is not before:      # a player turn starts
        app.speak(prompt("say_turn", side=s.game.phase.player.value))
    return hub(app)


def end_turn(app: App) -> Screen:
    s = session(app)
    if not s.game.needs_extension_roll:
        s.game = s.game.advance()
        save(app, entry("log_cobra_turn_end"))
        if not s.game.over:
            app.speak(prompt("say_turn", side=s.game.phase.player.value))
        return hub(app)

    def rolled(face: int) -> Screen:
        s.game = s.game.advance(extension_die=face)
        outcome = "one_more_turn" if not s.game.over else "game_ends"
        word = app.t(outcome)
        save(app, entry("log_extension", die=face, result=entry(outcome)))
        return Show([BigWord(header(app, app.t("extension")), word,
                             app.t("extension_detail", die=face))],
                    lambda: hub(app))
    return press_for(app, Nation.ALLIED, [app.t("extension_roll")], EXTENSION,
                     rolled)


def press_for(app: App, nation: Nation, lines: Sequence[str], need: Need,
              then: Callable[[int], Screen]) -> Screen:
    """Wait for `nation`'s dice button, then roll one die (or dial a real one)."""
    side = BUTTON[nation]

    def pressed() -> Screen:
        return face_for(app, need, side, then)
    press = app.t("press_to_roll", side=app.t(f"cobra_{nation.value}"))
    shown = Lines(header(app, app.t("roll")), (*lines, press))
    return WaitPress(side, shown, pressed, back=lambda: hub(app), says="say_press_roll",
                     who=nation.value)


# ---- weather & German supply ----

def weather_phase(app: App) -> Screen:
    game = session(app).game
    history = game.history()
    if cobra_weather.forced(game.turn, history) is not None:
        return weather_rolled(app, cobra_weather.determine(
            game.turn, history, ScriptedDice([]), tables(app)))
    column, _ = cobra_weather.column(game.turn, history)
    drm, _ = cobra_weather.modifier(history)
    line = app.t("weather_column", column=column, drm=f"{drm:+d}")
    weather = Need(Roller.AXIS, Aim.WEATHER, f"weather GT{game.turn}")
    return press_for(app, Nation.GERMAN, [line], weather, lambda face: (
        weather_rolled(app, cobra_weather.determine(game.turn, history, ScriptedDice([face]),
                                                    tables(app)))))


def weather_rolled(app: App, result: cobra_weather.WeatherRoll) -> Screen:
    if result.weather is not None:
        return weather_set(app, result, result.weather)
    ask = app.t("read_weather", column=result.column, row=result.row)
    choices = list(Weather)
    return Phased(ask, [app.t("weather_" + w.value) for w in choices],
                  lambda i: weather_set(app, result, choices[i]), back=lambda: hub(app))


def weather_set(app: App, result: cobra_weather.WeatherRoll, weather: Weather) -> Screen:
    s = session(app)
    try:
        game, supply = s.game.with_weather(weather)
    except RulesError as exc:               # the reason, then the phase indicator
        return refusal(app, exc, hub(app))
    # The phase is over once its weather is known: saved at the next phase, so that a game
    # resumed after a pulled plug goes on from there and never asks for the weather again.
    s.game = game.advance()
    rolled = f"{result.column}: {result.die}{result.modifier:+d} = {result.modified}"
    how = app.say(result.forced) if result.forced else rolled
    save(app, entry("log_weather", weather=weather.value, how=weather_how(result),
                    supply=supply))
    effects = cobra_weather.effects(weather, s.game.turn)     # no air on GT 1 (17.3.10)
    lines = (how, app.t("german_ma", ma=german_ma(app, effects["german_ma"])),
             app.t("air_points", n=effects["allied_air_points"]),
             app.t("german_sp", n=effects["german_supply_points"], total=s.game.tracks.german))
    word = BigWord(header(app, app.t("phase_weather")), app.t("WEATHER_" + weather.value),
                   how)
    return Show([word, Lines(header(app, app.t("phase_weather")), lines,
                             hint=app.t("ok_next"))], lambda: hub(app))


def weather_how(result: cobra_weather.WeatherRoll) -> LogValue:
    """How the weather was found, for the log: why it was not rolled, or the roll."""
    if result.forced is not None:
        return result.forced
    assert result.die is not None and result.modified is not None   # rolled, not forced
    return entry("log_weather_roll", column=result.column, die=result.die,
                 modifier=result.modifier, modified=result.modified)


def german_ma(app: App, ma: str) -> str:
    """The German movement allowance in the weather: full, or a fraction off it."""
    return app.t("ma_full") if ma == "full" else ma


# ---- Allied supply ----

class Number(Count):
    """A count under the Cobra header."""

    def view(self, app: App) -> View:
        return BigWord(header(app, self.title), str(self.value), self.hint)


def number(app: App, title: str, value: int, then: Callable[[int], Screen], low: int = 0,
           high: int = 99) -> Number:
    return Number(title, value, low, high, then, lambda: hub(app), app.t("turn_ok"))


def allied_supply(app: App) -> Screen:
    def received(us: int, british: int, levelled: CobraGame) -> Screen:
        s = session(app)
        game, note = levelled.receive_allied(us, british)
        s.game = game.advance()      # saved past the phase: a resumed game receives no more
        save(app, entry("log_allied_supply", note=note))
        t = s.game.tracks
        lines = [app.say(note), app.t("sp_now", us=t.us, british=t.british)]
        if cobra_command.limited(s.game):
            us_level, british_level = s.game.command.levels
            lines.append(app.t("levels_now", us=us_level, british=british_level))
        return notice(app, app.t("phase_supply"), lines, lambda: hub(app))
    # Game turns 1 and 2 of the landing scenarios bring no Allied supply points (17.3) and
    # have no command limits (17.3e): nothing to dial, the phase's notice at once.
    if session(app).game.allied_supply_free:
        return received(0, 0, session(app).game)
    # the supply points printed on the turn record track, then the command levels (11.3)
    return number(app, app.t("printed_us"), 0, lambda us: number(
        app, app.t("printed_british"), 0, lambda british: cobra_command.dial_levels(
            KIT, app, lambda levelled: received(us, british, levelled)), high=SP_MAX),
        high=SP_MAX)


# ---- an attack, dialled unit by unit ----

@dataclass
class Attack(Screen):
    """What the players have dialled for one attack so far."""

    turn: int               # the game turn: an Allied HQ gives two shifts from 17
    attacker: Nation
    sides: dict[Role, list[Unit]] = field(default_factory=lambda: {Role.ATTACK: [],
                                                                    Role.DEFENCE: []})
    shifts: dict[str, int] = field(default_factory=dict)     # "att_hq" → columns, ...
    overrun: OverrunWhen | None = None       # an overrun (5.4), and when; None: an attack
    hqs: dict[str, str] = field(default_factory=dict)        # "att_hq" → the HQ giving it
    army: Army | None = None     # US or British: counted against its command limit (11.3)
    beach: bool = False      # a German attack may be on an Allied unit on a beach (17.3.10)

    @property
    def defender(self) -> Nation:
        return Nation.ALLIED if self.attacker == Nation.GERMAN else Nation.GERMAN

    def units(self, app: App, role: Role = Role.ATTACK) -> Screen:
        listed = self.sides[role]
        def add() -> Screen:
            return number(app, app.t("unit_strength"), 4, lambda n: self.toggles(
                app, role, len(listed), Unit(n)), low=1, high=STRENGTH_MAX)
        items: list[tuple[str, Next]] = [(app.t("add_unit"), add)]
        def edit(i: int) -> Screen:
            return self.toggles(app, role, i, listed[i])
        items += [(unit_text(app, u), partial(edit, i)) for i, u in enumerate(listed)]
        if listed:
            done = (lambda: self.units(app, Role.DEFENCE)) if role is Role.ATTACK else \
                (lambda: self.shift_menu(app))
            items.insert(0, (app.t("units_done"), done))
        title = joined(" ", app.t("attacker" if role is Role.ATTACK else "defender"),
                       str(total(listed, role)))
        return Phased(title, [label for label, _ in items], lambda i: items[i][1](),
                      back=lambda: hub(app))

    def toggles(self, app: App, role: Role, index: int, unit: Unit) -> Screen:
        """Switch the unit's modifiers on and off; Done keeps it, Remove drops it."""
        nation = self.attacker if role is Role.ATTACK else self.defender
        # only this side's own: a British brigade's or a US and British stack's halving is
        # never offered to German units (8.3.2a, 8.8k); an overrun's attackers only what
        # 5.4.1 allows
        offered = [m for m in (BY_LETTER[c] for c in TOGGLED)
                   if role in m.roles and nation in m.nations and not (
                       self.overrun and role is Role.ATTACK and not overrun_modifier(m.letter))]
        listed = self.sides[role]

        def chosen(i: int) -> Screen:
            if i == 0:
                listed[index:index + 1] = [unit]
                return self.units(app, role)
            if i == 1:
                del listed[index:index + 1]
                return self.units(app, role)
            flip = offered[i - 2]
            mods = tuple(m for m in unit.modifiers if m != flip) if flip in unit.modifiers \
                else (*unit.modifiers, flip)
            screen = self.toggles(app, role, index, Unit(unit.strength, mods))
            assert isinstance(screen, Choose)
            screen.index = i
            return screen
        items = [app.t("unit_keep", unit=unit_text(app, unit)), app.t("unit_remove")]
        items += [joined(" ", "+" if m in unit.modifiers else "-", app.t("mod_" + m.letter))
                  for m in offered]
        return Phased(app.t("modifiers"), items, chosen, back=lambda: self.units(app, role))

    # -- shifts --

    def offered(self) -> tuple[ShiftChoice, ...]:
        """The shifts this attack may take; an overrun's are fewer (5.4.1c, 5.4.1d, 14.2c)."""
        if self.overrun is not None:
            offered = overrun_shift_choices(self.attacker, self.turn, self.overrun)
            return (*offered, BEACH_CHOICE) if self.beach else offered
        if self.beach:
            return (*shift_choices(self.attacker, self.turn), BEACH_CHOICE)
        return shift_choices(self.attacker, self.turn)

    def shift_menu(self, app: App, index: int = 0) -> Screen:
        offered = self.offered()

        def chosen(i: int) -> Screen:
            if i == 0:
                return self.supply(app)
            choice = offered[i - 1]
            now = self.shifts.get(choice.key, 0)
            values = choice.columns
            # an HQ's shift asks which HQ gives it (9.1i, 8.3.3a): cobra_command
            return cobra_command.step_shift(KIT, app, self, choice, values[
                (values.index(now) + 1) % len(values)], lambda: self.shift_menu(app, i))
        items = [app.t("roll_attack")]
        items += [app.t("shift_" + c.key, n=f"{self.shifts.get(c.key, 0):+d}")
                  for c in offered]
        game = session(app).game     # on the air and naval shifts: what they may still spend
        left = app.t("support_left", air=game.air_left, naval=game.naval_left)
        hints = ["", *(left if c.kind in SUPPORT else "" for c in offered)]
        return Phased(app.t("shifts"), items, chosen, back=lambda: self.units(
            app, Role.DEFENCE), index=index, hints=hints)

    def chosen_shifts(self) -> list[Shift]:
        return [Shift(c.kind, self.shifts[c.key])
                for c in self.offered() if self.shifts.get(c.key, 0)]

    # -- supply, odds, the roll --

    def supply(self, app: App) -> Screen:
        game = session(app).game
        cost = ATTACK_COST[self.attacker]
        # An overrun spends no supply points (11.0a); its units must be in supply (5.4e).
        if self.overrun is not None or (self.attacker == Nation.ALLIED and
                                        game.allied_supply_free):
            return cobra_command.with_army(KIT, app, self, None, lambda: self.preview(app, None),
                                           lambda: self.shift_menu(app))
        tracks = ["german"] if self.attacker == Nation.GERMAN else ["us", "british"]
        payable = [t for t in tracks if getattr(game.tracks, t) >= cost]
        items = [app.t("pay_" + t, cost=cost, have=getattr(game.tracks, t)) for t in payable]
        items.append(app.t("unsupplied"))
        def chosen(i: int) -> Screen:
            track = payable[i] if i < len(payable) else None
            # whose attack, for its command limit (11.3): back to this choice if refused
            return cobra_command.with_army(KIT, app, self, track, lambda: self.preview(app, track),
                                           lambda: self.supply(app))
        return Phased(app.t("attack_supply"), items, chosen, back=lambda: self.shift_menu(app))

    def odds(self, app: App, paid: bool) -> Odds:
        game = session(app).game
        attackers = self.sides[Role.ATTACK]
        if self.overrun is not None:
            return overrun_odds(attackers, self.sides[Role.DEFENCE], self.chosen_shifts(),
                                when=self.overrun, attacker=self.attacker, turn=game.turn,
                                weather=game.this_weather)
        attack = attackers if paid else [out_of_supply(u) for u in attackers]
        return odds(attack, self.sides[Role.DEFENCE], self.chosen_shifts(),
                    attacker=self.attacker, turn=game.turn, weather=game.this_weather)

    def preview(self, app: App, track: str | None) -> Screen:
        """The odds, then the attacker's button. Nothing is spent until the die is rolled:
        backing out of the roll leaves every track as it was. An overrun spends no supply
        points (11.0a)."""
        paid = track is not None or session(app).game.allied_supply_free or \
            self.overrun is not None
        try:
            planned = self.odds(app, paid)
            session(app).game.check_support(planned)    # its air and naval points (14.0, 14.4)
        except RulesError as exc:
            return refusal(app, exc, self.shift_menu(app))
        lines = odds_lines(app, planned)
        if self.overrun is not None:
            lines.insert(0, app.t("overrun_when", when=app.t("when_" + self.overrun.value)))

        def rolled(face: int) -> Screen:
            s = session(app)
            s.game, _ = s.game.pay_attack(planned, track)   # checked above: nothing between
            s.game, hqs = cobra_command.spend_hqs(s.game, self)     # flipped once used (8.3.3)
            s.game = cobra_command.count_made(s.game, self)         # its command limit (11.3)
            combat = roll(planned, ScriptedDice([face]), tables(app))
            # the CRT's cell, as the owner's tables write it; none: read the printed one
            result: LogValue = combat.result.text if combat.result else entry("read_crt")
            line = self.log_line(planned, face, result)
            save(app, cobra_command.hq_entry(support_entry(planned, supply_entry(
                line, track, self.attacker, paid)), hqs))
            big = combat.result.text.upper() if combat.result else \
                f"{planned.column} · {face}"
            detail = joined(" ", f"{planned.column},", app.t("die"), str(face))
            return result_screen(app, app.t("result"), big, detail, combat.notes)
        need = Need(Roller.ATTACKER, Aim.COMBAT, f"combat {planned.column}")
        return press_for(app, self.attacker, lines, need, rolled)

    def log_line(self, planned: Odds, face: int, result: LogValue) -> LogEntry:
        """The attack's line of the log, or the overrun's with when it was made."""
        if self.overrun is not None:
            return entry("log_overrun", nation=self.attacker.value, when=self.overrun.value,
                         odds=odds_entry(planned), die=face, result=result)
        return entry("log_attack", nation=self.attacker.value, odds=odds_entry(planned),
                     die=face, result=result)


def supply_entry(line: LogEntry, track: str | None, attacker: Nation,
                 supplied: bool) -> LogEntry:
    """An attack's log line with what it paid for its supply: the supply points and their
    track (11.0), or unsupplied; as it is where no supply points are needed (17.3e)."""
    if track is not None:
        return entry("log_paid", line=line, cost=ATTACK_COST[attacker], track=track)
    return line if supplied else entry("log_unsupplied", line=line)


def support_entry(planned: Odds, line: LogEntry) -> LogEntry:
    """An attack's log line with the air and naval points it spent, where it spent any."""
    if not planned.air_points and not planned.naval_points:
        return line
    return entry("log_support", line=line, air=planned.air_points, naval=planned.naval_points)


# ---- carpet bombing: an air mission, before the Allied attacks (14.3) ----

def carpet_bombing(app: App) -> Screen:
    """Three air points against one hex, no attacking units and no supply point, always on
    6:1 (14.3e, 14.3g): refused, with the reason, where the turn does not allow it."""
    game = session(app).game
    planned = carpet_odds()         # the turn, its weather and missions: check_support's
    try:
        game.check_support(planned)
    except RulesError as exc:
        return refusal(app, exc, hub(app))
    lines = [app.t("carpet_column"), app.t("carpet_cost", n=planned.air_points,
                                           have=game.air_left)]

    def rolled(face: int) -> Screen:
        s = session(app)
        s.game, _ = s.game.pay_attack(planned, None)
        combat = roll(planned, ScriptedDice([face]), tables(app))
        # the defender's part of the cell only: there is no attacker (14.3g)
        result: LogValue = combat.result.defender.text if combat.result else entry("read_crt")
        save(app, entry("log_carpet", die=face, result=result, air=planned.air_points))
        big = combat.result.defender.text.upper() if combat.result else \
            f"{planned.column} · {face}"
        return result_screen(app, app.t("carpet"), big,
                             joined(" ", f"{planned.column},", app.t("die"), str(face)),
                             combat.notes,
                             read_as=app.t("result"))
    need = Need(Roller.ATTACKER, Aim.COMBAT, f"carpet bombing {planned.column}")
    return press_for(app, Nation.ALLIED, lines, need, rolled)


def total(listed: list[Unit], role: Role) -> int:
    return strength(listed, role).total if listed else 0


def unit_text(app: App, unit: Unit) -> str:
    return joined(" ", str(unit.strength), *(app.t("modshort_" + m.letter)
                                             for m in unit.modifiers))


def odds_entry(planned: Odds) -> LogEntry:
    """The odds of an attack as the log says them."""
    assert planned.attack is not None and planned.defence is not None
    return entry("log_odds", attack=planned.attack.total, defence=planned.defence.total,
                 base=planned.base, net=planned.net, column=planned.column)


def odds_lines(app: App, planned: Odds) -> list[str]:
    assert planned.attack is not None and planned.defence is not None
    return [f"{planned.attack.total} : {planned.defence.total} = {planned.base}",
            f"{planned.net:+d} → {planned.column}"]


class Phased(Choose):
    """A choice under the Cobra header (game turn and player)."""

    def view(self, app: App) -> View:
        hint = self.hints[self.index] if self.index < len(self.hints) else ""
        return Menu(header(app, self.title), tuple(self.items), self.index,
                    hint or self.hint or app.t("ok_choose"))


# ---- tracks, menu, the end ----

Row = tuple[str, Callable[[int], Screen]]   # a row of the tracks: its words, what OK on it does


def tracks(app: App, index: int = 0) -> Screen:
    """The supply and victory point tracks, the net VP and the victory level, then this turn's
    budgets (14.0, 14.1a, 14.3f, 14.4) and command limits (11.3): each row chosen returns
    here, on the same row."""
    game = session(app).game
    rows: list[Row] = [(app.t("track_" + t, n=getattr(game.tracks, t)), partial(set_track, app, t))
                       for t in TRACKS]
    rows += [(net_vp(app, game.tracks.net_vp), lambda i: victory_screen(app, lambda: tracks(
        app, i))), (app.t("victory_level"), lambda i: victory_screen(app, lambda: tracks(app, i)))]
    # other modules' rows (what happened, and its VP: games/cobra_victory.py)
    rows += [(app.t(key), partial(other_row, app, screen)) for key, screen in TRACKS_ITEMS]
    rows += [(part.track_line(app), partial(part_row, app, part.track_screen))
             for part in PARTS if part.track_line and part.track_screen]
    rows += [(app.t("budget_" + b.kind, left=b.left, most=b.most), partial(read_budget, app, b))
             for b in game.budgets()]
    rows += [(line, partial(lambda n, i: cobra_command.correct_level(
        KIT, app, n, lambda: tracks(app, i)), n))
        for n, line in enumerate(cobra_command.limit_lines(KIT, app, game))]
    return Phased(app.t("tracks"), [label for label, _ in rows], lambda i: rows[i][1](i),
                  back=lambda: hub(app), index=index)


def other_row(app: App, screen: Callable[[App], Screen], row: int) -> Screen:
    return screen(app)


def part_row(app: App, screen: Callable[[App, Screen], Screen], row: int) -> Screen:
    """A part's own line of the tracks: its screen, then the tracks again (games/cobra_*)."""
    return screen(app, tracks(app, row))


def set_track(app: App, track: str, row: int) -> Screen:
    """A track's marker set with the knob, and logged."""
    old = getattr(session(app).game.tracks, track)

    def set_to(value: int) -> Screen:
        s = session(app)
        s.game = s.game.adjust(track, value - old)
        save(app, entry("log_track", track=track, old=old, new=getattr(s.game.tracks, track)))
        return tracks(app, row)
    top = 12 if track == "german" else VP_MAX if track.endswith("vp") else 99
    # the German player loses VP (15.2b, 18.0): his track goes below zero
    low = -VP_MAX if track == "german_vp" else 0
    return number(app, app.t("track_" + track, n=""), old, set_to, low=low, high=top)


def read_budget(app: App, budget: Budget, row: int) -> Screen:
    return reading(app, app.t("budget_" + budget.kind, left=budget.left, most=budget.most),
                   budget_lines(app, session(app).game, budget), tracks(app, row))


def budget_lines(app: App, game: CobraGame, budget: Budget) -> list[str]:
    """Where a budget of the turn comes from, and what is left of it (14.0, 14.1, 14.3f,
    14.4): the rules' numbers, for the players to check."""
    spent = app.t("budget_spent", used=budget.used, left=budget.left)
    if budget.kind == "carpet":
        return [app.t("budget_carpet_missions"),
                app.t("budget_carpet_flown", used=budget.used, most=budget.most),
                app.t("budget_carpet_clear")]
    if budget.kind == "air":
        lines = [app.t("budget_air_given", turn=game.turn, n=budget.given, rule=budget.rule
                       if budget.rule != "14.1a" else "14.0")]
        if budget.most < budget.given:
            lines.append(app.t("budget_air_defence", n=budget.most))
    else:
        lines = [app.t("budget_naval_given", turn=game.turn, n=budget.given)]
        if budget.most < budget.given:
            lines.append(app.t("budget_naval_storm"))
    return [*lines, spent, app.t("budget_lost")]


def net_vp(app: App, net: int) -> str:
    """The Allied VP minus the German (16.3), said as who is ahead and by how many."""
    if net == 0:
        return app.t("net_vp_even")
    return app.t("net_vp_allied" if net > 0 else "net_vp_german", n=abs(net))


def victory_screen(app: App, back: Next) -> Screen:
    """The scenario's question for the initial level (16.3.1, 16.3.2; the Build-Up's
    objectives, 17.4.2), then the level the VP shift it to (16.3.3)."""
    game = session(app).game

    def answered(yes: bool) -> Screen:
        t = session(app).game.tracks
        level, note = victory(game.scenario, yes, t.german_vp, t.allied_vp)
        return Show([BigWord(header(app, app.t("victory_level")), app.t("level_" + level),
                             app.t("vp_score", german=t.german_vp, allied=t.allied_vp))],
                    lambda: reading(app, app.t("victory_level"), [app.say(note)], back()))
    return yes_no(app, app.t(marginal(game.scenario).key), answered, back)


def game_over(app: App) -> Screen:
    def finished() -> Screen:
        return app.games.start(app)
    return victory_screen(app, finished)


def cobra_menu(app: App, index: int = 0) -> Screen:
    """The menu of a long press in a Cobra game; End game asks first."""
    back = hub(app)
    items: list[tuple[str, Next]] = [
        (app.t("back_to_game"), lambda: back),
        (app.t("tracks"), lambda: tracks(app)),
        (app.t("battle_log"), lambda: reading(app, app.t("battle_log"), [
            app.log_words(line) for line in reversed(session(app).log)], back)),
        (app.t("dice_stats"), lambda: dice_stats(app, back)),
        (app.t("quick_dice"), lambda: QuickDice(back)),
        (app.t("settings"), lambda: settings_menu(app, lambda: back)),
        (app.t("end_game"), lambda: confirm(app, app.t("end_game_ask"), lambda: end_battle(app),
                                            lambda: cobra_menu(app, len(items) - 1)))]
    return Choose(app.t("menu"), [label for label, _ in items], lambda i: items[i][1](),
                  back=lambda: back, index=index)


# What the HQs' and command limits' screens use of these (games/cobra_command.py)
KIT = cobra_command.Kit(session, save, reading, number, Phased, header, hub)
