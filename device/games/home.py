"""Home: the start menu, the long-press menu of a battle, and the games' table the core asks
(`Table`). This is the one module that knows every game."""
from __future__ import annotations

from typing import Any

from cobi_companion.device.core.app import App, Next, SavedGame, Screen
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.widgets import Choose, confirm
from cobi_companion.rules.status import Side

# The games' screens (and the rules behind them) are imported when a row of a menu is chosen,
# or while the box is idle after its first frame (box.LATER_MODULES), which is sooner: the start
# menu waits only for the menu itself. So the imports below sit inside the functions that use
# them; a saved battle to resume loads its state (and its rules) before the menu is shown.

def start_menu(app: App, index: int = 0) -> Screen:
    """The first screen: the saved game to resume (if any), then the rest. While a game is
    saved, a row that would start another in its place asks first (`confirm`)."""
    items: list[tuple[str, Next]] = []
    state = app.state
    if state is not None and state.winner is None:
        items.append((app.t("resume"), lambda: again(app, lambda: resume(app))))
    elif state is not None and state.match is not None:
        from cobi_companion.device.games.battle import match_next

        items.append((app.t("resume_match"), lambda: again(app, lambda: match_next(app))))
    elif state is not None and state.winner is not None and app.shown_again:
        # won by an action whose outcome a pulled plug may have hidden: shown, then the end
        winner = state.winner
        items.append((app.t("resume"), lambda: again(app, lambda: won(app, winner))))
    if app.cobra is not None:                # only a Cobra game is kept there
        from cobi_companion.device.games.cobra import hub as cobra
        from cobi_companion.device.games.cobra.session import CobraSession

        if isinstance(app.cobra, CobraSession) and not app.cobra.game.over:
            items.append((app.t("resume_cobra"), lambda: again(app, lambda: cobra.hub(app))))
    saved = bool(items)                      # a game to resume: one that a new one would end
    if app.kept is not None:                 # one that cannot go on now: it stays, with why
        items.append((app.t("kept_battle"), lambda: kept_battle(app)))

    def asked(key: str, start: Next) -> Next:
        at = len(items)                      # this row: a "no" comes back to it
        if app.kept is not None:             # a new game would save over it: asked first
            return lambda: confirm(app, app.t("kept_new_ask"), lambda: _put_away(app, start),
                                   lambda: start_menu(app, at))
        if not saved:
            return start
        return lambda: confirm(app, app.t(key), start, lambda: start_menu(app, at))
    items.append((app.t("new"), asked("new_battle_ask", lambda: _new_battle(app))))
    items += [(app.t("quick_dice"), _quick_dice),
              (app.t("settings"), lambda: _settings_menu(app, lambda: start_menu(app))),
              (app.t("check_distance"), lambda: _check_distance(app, lambda: start_menu(app)))]
    items.append((app.t("cobra"), asked("new_cobra_ask", lambda: new_cobra_game(app))))
    items.append((app.t("new_match"), asked("new_match_ask", _new_match)))
    return StartMenu(app.t("start"), [label for label, _ in items],
                     lambda i: items[i][1](), back=lambda: start_menu(app), index=index)


def kept_battle(app: App) -> Screen:
    """Why the saved battle cannot go on now, then: keep it, or put it away (asked)."""
    from cobi_companion.device.ui.trouble import notice

    kept = app.kept
    if kept is None:
        return start_menu(app)
    why = app.t("kept_card", card=kept.card) if kept.kind == "card" else \
        app.t("kept_format", format=kept.format) if kept.kind == "format" else \
        app.t("kept_unreadable")

    def choose() -> Screen:
        def chosen(i: int) -> Screen:
            if i == 0:
                return start_menu(app)
            return confirm(app, app.t("put_away_ask"),
                           lambda: _put_away(app, lambda: start_menu(app)),
                           lambda: start_menu(app))
        return Choose(app.t("kept_battle"), [app.t("keep_it"), app.t("put_away")], chosen,
                      back=lambda: start_menu(app))
    return notice(app, app.t("kept_battle"), [why, app.t("kept_stays")], choose)


def _put_away(app: App, then: Next) -> Screen:
    # Only a battle still kept: one the stick's return has resumed meanwhile is not the one
    # the players were asked about.
    if app.kept is not None:
        app.put_away()
    return then()


def again(app: App, then: Next) -> Screen:
    """A game resumed after a start: its last outcome first, as it was shown (a pulled plug
    may have come before the players saw it), OK going on to `then`; once a start."""
    views, app.shown_again = app.shown_again, None
    if not views:
        return then()
    from cobi_companion.device.ui.widgets import Show

    # From its first step, going on by itself to the outcome (the dice do not tumble again:
    # they are rolled): a step the plug hid (the armour die) is seen too. OK skips ahead.
    return Show(views, then, steps=True, play=True)


def won(app: App, winner: Side) -> Screen:
    from cobi_companion.device.games.battle import game_over

    return game_over(app, winner)


def new_cobra_game(app: App) -> Screen:
    from cobi_companion.device.games.cobra import hub as cobra

    return cobra.new_game(app, lambda: start_menu(app))


def _quick_dice() -> Screen:
    from cobi_companion.device.games.menus import QuickDice

    return QuickDice()


def _new_battle(app: App) -> Screen:
    from cobi_companion.device.games.roster import new_battle

    return new_battle(app)


def _new_match() -> Screen:
    from cobi_companion.device.games.roster import Roster

    return Roster("tank", match=True)


def _settings_menu(app: App, back: Next) -> Screen:
    from cobi_companion.device.games.settings import settings_menu

    return settings_menu(app, back)


def _check_distance(app: App, back: Next) -> Screen:
    from cobi_companion.device.ui.measure import check_distance

    return check_distance(app, back)


class StartMenu(Choose):
    """The idle screen: a dice button rolls a quick D6 straight away (held: a D6+)."""

    @property
    def uses_holds(self) -> bool:
        return True

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.AXIS, Key.ALLIES, Key.AXIS_LONG, Key.ALLIES_LONG):
            return _quick_dice().on(app, key)
        return super().on(app, key)


def resume(app: App) -> Screen:
    from cobi_companion.device.games.battle import begin_round

    return app.games.next_action(app) if app.playing.active is not None else begin_round(app)


def battle_menu(app: App, back: Screen, index: int = 0) -> Screen:
    """The menu of a long press in a battle, coming back to `back`. Give up and End battle,
    which end it, ask first."""
    from cobi_companion.device.games.battle import end_battle, give_up, hidden_pieces
    from cobi_companion.device.games.menus import QuickDice, battle_log, dice_stats, status_board

    items: list[tuple[str, Next]] = [(app.t("back_to_game"), lambda: back)]
    if app.state is not None:
        items.append((app.t("status_board"), lambda: status_board(app, back)))
        items.append((app.t("battle_log"), lambda: battle_log(app, back)))
    items += [(app.t("dice_stats"), lambda: dice_stats(app, back)),
              (app.t("quick_dice"), lambda: QuickDice(back)),
              (app.t("settings"), lambda: _settings_menu(app, lambda: back)),
              (app.t("check_distance"), lambda: _check_distance(app, lambda: back))]
    state = app.state
    if state is not None and state.level == "tank" and state.winner is None \
            and state.active is not None:
        items.append((app.t("hidden_pieces"), lambda: hidden_pieces(app, back)))
        items.append((app.t("give_up"), lambda: give_up(app, back)))
    if state is not None:
        at = len(items)
        ask = "end_match_ask" if state.match is not None else "end_battle_ask"
        items.append((app.t("end_battle"), lambda: confirm(
            app, app.t(ask), lambda: end_battle(app), lambda: battle_menu(app, back, at))))
    return Choose(app.t("menu"), [label for label, _ in items], lambda i: items[i][1](),
                  back=lambda: back, index=index)


class Table:
    """The games as the core sees them (`core.app.Games`)."""

    def start(self, app: App) -> Screen:
        return start_menu(app)

    def menu(self, app: App, back: Screen) -> Screen:
        return battle_menu(app, back)

    def next_action(self, app: App) -> Screen:
        """The next action of the battle in play, at its level."""
        if app.playing.level != "tank":
            from cobi_companion.device.games import easy

            return easy.next_action(app)
        # The Tank Game's screens load when first needed, or while the box is idle before.
        from cobi_companion.device.games.tank.turn import turn_screen

        return turn_screen(app)

    def resume(self, data: dict[str, Any]) -> SavedGame:
        from cobi_companion.device.games.cobra.session import CobraSession

        return CobraSession.from_dict(data)

    def saving(self, app: App, works: bool, back: Screen) -> Screen:
        """Saving stopped, or works again: a notice over `back`, OK going back to it."""
        from cobi_companion.device.ui.trouble import saving_notice

        return saving_notice(app, works, back)


GAMES = Table()
