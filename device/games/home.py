"""Home: the start menu, the long-press menu of a battle, and the games' table the core asks
(`Table`). This is the one module that knows every game."""
from __future__ import annotations

from typing import Any

from cobi_companion.device.core.app import App, Next, SavedGame, Screen
from cobi_companion.device.games import easy as easy_level
from cobi_companion.device.games.battle import (
    begin_round,
    end_battle,
    give_up,
    hidden_pieces,
    match_next,
)
from cobi_companion.device.games.menus import QuickDice, battle_log, dice_stats, status_board
from cobi_companion.device.games.roster import Roster, new_battle
from cobi_companion.device.games.settings import settings_menu
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.measure import check_distance
from cobi_companion.device.ui.widgets import Choose

# Cobra's screens and rules are imported when a Cobra game is played or saved, or while the box
# is idle before (box.LATER_SCREENS): a start that shows the menu does not wait for them.

def start_menu(app: App) -> Screen:
    items: list[tuple[str, Next]] = []
    if app.state is not None and app.state.winner is None:
        items.append((app.t("resume"), lambda: resume(app)))
    elif app.state is not None and app.state.match is not None:
        items.append((app.t("resume_match"), lambda: match_next(app)))
    if app.cobra is not None:                # only a Cobra game is kept there
        from cobi_companion.device.games import cobra

        if isinstance(app.cobra, cobra.CobraSession) and not app.cobra.game.over:
            items.append((app.t("resume_cobra"), lambda: cobra.hub(app)))
    items += [(app.t("new"), lambda: new_battle(app)),
              (app.t("quick_dice"), lambda: QuickDice()),
              (app.t("settings"), lambda: settings_menu(app, lambda: start_menu(app))),
              (app.t("check_distance"), lambda: check_distance(app, lambda: start_menu(app))),
              (app.t("cobra"), lambda: new_cobra_game(app)),
              (app.t("new_match"), lambda: Roster("tank", match=True))]
    return StartMenu(app.t("start"), [label for label, _ in items],
                     lambda i: items[i][1](), back=lambda: start_menu(app))


def new_cobra_game(app: App) -> Screen:
    from cobi_companion.device.games import cobra

    return cobra.new_game(app, lambda: start_menu(app))


class StartMenu(Choose):
    """The idle screen: a dice button rolls a quick D6 straight away (held: a D6+)."""

    @property
    def uses_holds(self) -> bool:
        return True

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.AXIS, Key.ALLIES, Key.AXIS_LONG, Key.ALLIES_LONG):
            return QuickDice().on(app, key)
        return super().on(app, key)


def resume(app: App) -> Screen:
    return app.games.next_action(app) if app.playing.active is not None else begin_round(app)


def battle_menu(app: App, back: Screen) -> Screen:
    items: list[tuple[str, Next]] = [(app.t("back_to_game"), lambda: back)]
    if app.state is not None:
        items.append((app.t("status_board"), lambda: status_board(app, back)))
        items.append((app.t("battle_log"), lambda: battle_log(app, back)))
    items += [(app.t("dice_stats"), lambda: dice_stats(app, back)),
              (app.t("quick_dice"), lambda: QuickDice(back)),
              (app.t("settings"), lambda: settings_menu(app, lambda: back)),
              (app.t("check_distance"), lambda: check_distance(app, lambda: back))]
    state = app.state
    if state is not None and state.level == "tank" and state.winner is None \
            and state.active is not None:
        items.append((app.t("hidden_pieces"), lambda: hidden_pieces(app, back)))
        items.append((app.t("give_up"), lambda: give_up(app, back)))
    if app.state is not None:
        items.append((app.t("end_battle"), lambda: end_battle(app)))
    return Choose(app.t("menu"), [label for label, _ in items], lambda i: items[i][1](),
                  back=lambda: back)



class Table:
    """The games as the core sees them (`core.app.Games`)."""

    def start(self, app: App) -> Screen:
        return start_menu(app)

    def menu(self, app: App, back: Screen) -> Screen:
        return battle_menu(app, back)

    def next_action(self, app: App) -> Screen:
        """The next action of the battle in play, at its level."""
        if app.playing.level != "tank":
            return easy_level.next_action(app)
        # The Tank Game's screens load when first needed, or while the box is idle before.
        from cobi_companion.device.games.tank.turn import turn_screen

        return turn_screen(app)

    def resume(self, data: dict[str, Any]) -> SavedGame:
        from cobi_companion.device.games import cobra

        return cobra.CobraSession.from_dict(data)


GAMES = Table()
