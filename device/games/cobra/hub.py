"""Cobra's phase indicator (the hub) on the box: the scenario chosen, the phases stepped
through in the sequence of play, each phase's actions from the table of Cobra's parts below,
the supply and victory point tracks, the long-press menu and the end of the game.

The rules (rules/cobra/) do every sum; these screens only collect what the players choose and
show the rules' trace. The hub imports its parts (games/cobra/*.py); a part never imports the
hub: it is given the way back to it (`home`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from cobi_companion.device.core.app import Next, Screen
from cobi_companion.device.core.battle_log import entry
from cobi_companion.device.core.spoken import prompt
from cobi_companion.device.core.views import BigWord, Menu, View
from cobi_companion.device.core.worded import joined
from cobi_companion.device.games.battle import end_battle
from cobi_companion.device.games.cobra import (
    attacks,
    bookkeeping,
    command,
    landing,
    movement,
    replacements,
    supply,
    victory,
    weather,
)
from cobi_companion.device.games.cobra.session import (
    CobraSession,
    Phased,
    header,
    number,
    press_for,
    reading,
    refusal,
    save,
    session,
)
from cobi_companion.device.games.menus import QuickDice, dice_stats
from cobi_companion.device.games.settings import settings_menu
from cobi_companion.device.ui.widgets import Choose, Show, confirm, yes_no
from cobi_companion.rules.cobra import bookkeeping as books
from cobi_companion.rules.cobra import special_rolls as rolls
from cobi_companion.rules.cobra.combat import Nation
from cobi_companion.rules.cobra.landing import PARATROOPS
from cobi_companion.rules.cobra.notes import Note, Why
from cobi_companion.rules.cobra.overrun import overruns_allowed
from cobi_companion.rules.cobra.turns import (
    ALLIED_PHASES,
    GERMAN_PHASES,
    LANDING,
    SCENARIOS,
    TRACKS,
    Budget,
    CobraGame,
    automatic_victory,
    marginal,
    player_turn,
)
from cobi_companion.rules.cobra.turns import victory as victory_level
from cobi_companion.rules.dice import Aim, Need, Roller
from cobi_companion.rules.errors import RulesError

if TYPE_CHECKING:
    from cobi_companion.device.core.app import App

EXTENSION = Need(Roller.ALLIES, Aim.EXTENSION, "campaign extension")
VP_MAX = 199
EVERY = (LANDING, *GERMAN_PHASES, *(p for p in ALLIED_PHASES if p not in GERMAN_PHASES))
# The phases stepped through with Next phase: every one but the Landing Phase, which has its
# own (leave_landing), and the Supply Phase and the turn's end, which step on by their action.
STEPPED = tuple(p for p in EVERY if p not in (LANDING, "supply", "turn_end"))

Offered = Callable[[CobraGame], bool]      # a condition of the rules for a row to be offered
Label = str | Callable[["App"], str]      # a word's key, or the words of a row that changes


@dataclass(frozen=True)
class Part:
    """A row of the phase hub: the phases it is offered in, the word of its item (a key, or
    the words of an item that changes) and its screen (given the way back to the hub); the
    side whose phase it must be (None: either) and the rules' conditions (all must hold);
    `track_line`, its line on the Tracks screen, and `track_screen`, what that line opens
    before `then`."""

    phases: tuple[str, ...]
    label: Label
    screen: Callable[[App, Next], Screen]
    side: Nation | None = None
    when: tuple[Offered, ...] = ()
    track_line: Callable[[App], str] | None = None
    track_screen: Callable[[App, Screen], Screen] | None = None

    def offered(self, game: CobraGame) -> bool:
        return game.phase.name in self.phases and \
            self.side in (None, game.phase.player) and all(holds(game) for holds in self.when)


def unrolled(game: CobraGame) -> bool:
    """This turn's weather is yet to be rolled. A game an older box saved between the weather
    and the next phase has it already: the phase goes on, with no second roll (the rules
    refuse one)."""
    return game.phase.name == "weather" and game.this_weather is None


def rolled(game: CobraGame) -> bool:
    return not unrolled(game)


def carpet_planned(game: CobraGame) -> bool:
    """This turn's planned carpet bombing is due (14.3d): not flown, not cancelled. A turn
    with none planned offers no *Carpet bombing*: it would only be refused (14.3a)."""
    return game.carpet_planned_now


def carpet_plan_turn(game: CobraGame) -> bool:
    return game.carpet_plannable


def with_landing(game: CobraGame) -> bool:
    """The scenarios with the landing (17.3): the Build-Up and the Campaign Game."""
    return SCENARIOS[game.scenario].landing


def overruns(game: CobraGame) -> bool:
    return overruns_allowed(game.turn)


# The hub's own screens, as the table's rows open them (the way back to the hub is `hub`).
def next_phase_row(app: App, home: Next) -> Screen:
    """Next phase; out of an Allied Combat Phase whose planned carpet bombing is neither
    flown nor cancelled, asked first: it is cancelled (14.3c, 14.3d)."""
    game = session(app).game
    if game.phase.name == "combat" and game.phase.player is Nation.ALLIED and \
            carpet_planned(game):
        return attacks.carpet_cancel(app, home, then=lambda: next_phase(app),
                                     kept="carpet_skip_kept")
    return next_phase(app)


def beaches_lost_row(app: App, home: Next) -> Screen:
    return beaches_asked(app)


def leave_landing_row(app: App, home: Next) -> Screen:
    return leave_landing(app)


def end_turn_row(app: App, home: Next) -> Screen:
    return end_turn(app)


def tracks_row(app: App, home: Next) -> Screen:
    return tracks(app)


# Cobra's phase hub, row by row: a phase offers the rows whose phases, side and conditions
# hold, in this order. A phase's own action comes first; Next phase is the first press of a
# phase where there is nothing else to do, the special rolls after it (15.1, 15.2); the
# withdrawal attack after Next game turn (17.3.4, 5.8: withdrawn "at the end of the Allied
# player turn"), as most turns withdraw none; the Tracks, then the HQs where one moves, is
# displaced or lost (11.0).
PARTS: tuple[Part, ...] = (
    Part(tuple(movement.PHASE), "movement", movement.movement),
    Part(("replacement",), "replacements", replacements.replacements,
         track_line=replacements.track_line, track_screen=replacements.track_screen),
    # a planned carpet bombing first, lit: "prior to conducting any other attacks" (14.3d)
    Part(("combat",), "carpet", attacks.carpet_bombing, side=Nation.ALLIED,
         when=(carpet_planned,)),
    Part(("combat",), "attack", attacks.attack),
    Part(tuple(attacks.OVERRUN_PHASES), "overrun", attacks.overrun, when=(overruns,)),
    # Brest, at the beginning of the turn (15.3), before the weather
    Part(("weather",), "brest", victory.brest, when=(unrolled, rolls.may_roll_brest)),
    Part(("weather",), "roll_weather", weather.weather_phase, when=(unrolled,)),
    Part(("supply",), "supply_points", supply.allied_supply),
    # the Landing Phase's steps, in the order the rules take them (17.3.2)
    Part((LANDING,), landing.drop_label, landing.paratroops),
    Part((LANDING,), "beach_defence", landing.beach_defence),
    Part((LANDING,), "landing_attrition", landing.attrition),
    Part((LANDING,), "beach_check", landing.beach_check),
    Part((LANDING,), "next_phase", leave_landing_row),
    Part(STEPPED, "next_phase", next_phase_row, when=(rolled,)),
    # after Next phase, as most turns plan none: this turn's planned mission cancelled
    # (14.3c), next turn's planned (14.3a)
    Part(("combat",), "carpet_cancel", attacks.carpet_cancel, side=Nation.ALLIED,
         when=(carpet_planned,)),
    Part(("combat",), attacks.carpet_plan_label, attacks.carpet_plan, side=Nation.ALLIED,
         when=(carpet_plan_turn,)),
    Part(("initial_movement",), "release", victory.release, side=Nation.GERMAN,
         when=(rolls.may_release,)),
    Part(("initial_movement",), "leclerc", victory.leclerc, side=Nation.ALLIED,
         when=(rolls.may_roll_leclerc,)),
    Part(("turn_end",), "end_turn", end_turn_row),
    Part(("turn_end",), "withdrawal", landing.withdrawal, when=(with_landing,)),
    # the campaign's bookkeeping, after the phase's way on (no press more on the main path):
    # the turn's delay unit (17.3.11) and rail (17.3.12), then the rules to remember
    Part(("initial_movement",), bookkeeping.delay_label, bookkeeping.delay, side=Nation.GERMAN,
         when=(books.delay_offered,)),
    Part(tuple(movement.PHASE), bookkeeping.rail_label, bookkeeping.rail, side=Nation.GERMAN,
         when=(books.rail_offered,)),
    *(Part(EVERY, "remind_" + why.value, partial(bookkeeping.reminder, why),
           when=(partial(bookkeeping.reminded, why),)) for why in bookkeeping.REMINDED),
    # no beach hex Allied (17.3.13, 17.4.3): told by the players in any Allied phase, asked
    Part(ALLIED_PHASES, "beaches_lost_row", beaches_lost_row, side=Nation.ALLIED,
         when=(with_landing,)),
    Part(EVERY, "tracks", tracks_row),
    Part(command.HQ_PHASES, "hqs", command.hqs_screen),
)
TrackRow = Callable[["App", Next, Next], Screen]      # (app, home, the tracks) → its screen
# a row of the tracks (the victory points), given the way back to the tracks
TRACK_ROWS: tuple[tuple[str, TrackRow], ...] = (("victory_points", victory.vp_menu),)


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
    """The phase indicator: the rows of the table of parts (PARTS) this phase offers."""
    game = session(app).game
    if game.over:
        return game_over(app)

    def home() -> Screen:
        return hub(app)
    rows = [part for part in PARTS if part.offered(game)]
    return Hub(phase_title(app, game), [words(app, part.label) for part in rows],
               lambda i: rows[i].screen(app, home), back=lambda: cobra_menu(app),
               remind=prompt("say_turn", side=game.phase.player.value))


def words(app: App, label: Label) -> str:
    return app.t(label) if isinstance(label, str) else label(app)


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
        if s.game.phase.player is Nation.ALLIED and beaches_in_doubt(s.game):
            return beaches_asked(app)
    return hub(app)


def beaches_in_doubt(game: CobraGame) -> bool:
    """The start of an Allied player turn the box asks whether a beach hex is left Allied
    (17.3.13, 17.4.3): only in a landing scenario where the landing abandoned a beach (17.3.2
    step 5c: its hexes are German), the one thing the box knows of the beaches; every other
    turn the players tell it with the hub's *All beaches lost* row, no press more."""
    return with_landing(game) and bool(game.landing.abandoned)


def beaches_asked(app: App) -> Screen:
    """Is no beach hex friendly to the Allies? *No* is lit (a slip plays on); *yes* ends the
    game, an automatic decisive German victory (17.3.13, 17.4.3)."""
    def lost() -> Screen:
        s = session(app)
        try:
            s.game = s.game.beaches_lost()
        except RulesError as exc:
            return refusal(app, exc, hub(app))
        save(app, entry("log_beaches_lost"))
        return hub(app)
    return confirm(app, app.t("beaches_lost_ask"), lost, lambda: hub(app),
                   lost="beaches_lost_yes", kept="beaches_lost_no")


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
                     rolled, lambda: hub(app))


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
    # the parts' rows (what happened, and its VP: games/cobra/victory.py)
    rows += [(app.t(key), partial(other_row, app, screen)) for key, screen in TRACK_ROWS]
    rows += [(part.track_line(app), partial(part_row, app, part.track_screen))
             for part in PARTS if part.track_line and part.track_screen]
    rows += [(app.t("budget_" + b.kind, left=b.left, most=b.most), partial(read_budget, app, b))
             for b in game.budgets()]
    rows += carpet_rows(app, game)
    rows += landing.marker_rows(app, partial(tracks, app))
    rows += [(line, partial(lambda n, i: command.correct_level(
        app, lambda: hub(app), n, lambda: tracks(app, i)), n))
        for n, line in enumerate(command.limit_lines(app, game))]
    return Phased(app.t("tracks"), [label for label, _ in rows], lambda i: rows[i][1](i),
                  back=lambda: hub(app), index=index)


def other_row(app: App, screen: TrackRow, row: int) -> Screen:
    """A part's row of the tracks: its screen, back to the tracks' first row."""
    return screen(app, lambda: hub(app), lambda: tracks(app))


def part_row(app: App, screen: Callable[[App, Screen], Screen], row: int) -> Screen:
    """A part's own line of the tracks: its screen, then the tracks again (games/cobra/*)."""
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
    return number(app, app.t("track_" + track, n=""), old, set_to, lambda: hub(app), low=low,
                  high=top)


def carpet_rows(app: App, game: CobraGame) -> list[Row]:
    """Beside the carpet track: the mission planned (14.3a), and, once one is flown this
    turn, that the other three AP may not be used on its front (14.3e)."""
    rows: list[Row] = []
    plan = game.carpet_plan
    if plan is not None and plan >= game.turn:
        rows.append((app.t("carpet_planned_for", turn=plan),
                     lambda i: attacks.plan_reading(app, plan, tracks(app, i))))
    if game.carpet_flown_now:
        front = app.t("carpet_front")
        rows.append((front, lambda i: reading(app, front, [app.say(Note(
            Why.CARPET_OTHER_FRONT))], tracks(app, i))))
    return rows


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
        level, note = victory_level(game.scenario, yes, t.german_vp, t.allied_vp)
        return Show([BigWord(header(app, app.t("victory_level")), app.t("level_" + level),
                             app.t("vp_score", german=t.german_vp, allied=t.allied_vp))],
                    lambda: reading(app, app.t("victory_level"), [app.say(note)], back()))
    return yes_no(app, app.t(marginal(game.scenario).key), answered, back)


def game_over(app: App) -> Screen:
    def finished() -> Screen:
        return app.games.start(app)
    game = session(app).game
    if game.automatic:          # no beach hex left to the Allies (17.3.13, 17.4.3)
        level, note = automatic_victory(game.scenario)
        t = game.tracks
        return Show([BigWord(header(app, app.t("victory_level")), app.t("level_" + level),
                             app.t("vp_score", german=t.german_vp, allied=t.allied_vp))],
                    lambda: reading(app, app.t("victory_level"), [app.say(note)], finished()))
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

