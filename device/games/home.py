"""Home: the start menu, the long-press menu of a game, and the games' table the core asks
(`Table`), over the registry of the box's games (games/registry.py): each game gives its own
rows; home knows no game by name."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from cobi_companion.cards import CardBook
from cobi_companion.device.core.app import App, Next, Played, Screen
from cobi_companion.device.core.games import Registry, Row
from cobi_companion.device.core.views import Menu, View
from cobi_companion.device.games.registry import BOX_GAMES
from cobi_companion.device.ports.events import Key
from cobi_companion.device.ui.widgets import Choose, confirm, notice

# The games' screens (and the rules behind them) are imported when a row of a menu is chosen,
# or while the box is idle after its first frame (box.LATER_MODULES), which is sooner: the start
# menu waits only for the menu itself. So the imports below sit inside the functions that use
# them; a saved battle to resume loads its state (and its rules) before the menu is shown.

def start_menu(app: App, index: int = 0) -> Screen:
    """The first screen: the saved game to resume (if any), then the rest. While a game is
    saved, a row that would start another in its place asks first (`confirm`)."""
    items: list[tuple[str, Next]] = []
    games = registry(app)
    go_on = None if app.game is None else games.of(app.game).resume_row(app)
    if go_on is not None:
        items.append((app.t(go_on.word), lambda: again(app, go_on.then)))
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
    for row in (row for game in games.games for row in game.home_rows(app)):
        items.append((app.t(row.word), asked(row.ask or "new_battle_ask", row.then)))
    return StartMenu(app.t("start"), [label for label, _ in items],
                     lambda i: items[i][1](), back=lambda: start_menu(app), index=index)


def sound_notice(app: App) -> str:
    """The start menu's hint line where the voice is on but will not be heard (no speech
    engine, no sound out): told as the box starts, with no press added; gone once a speaker
    plugged in is found. Empty otherwise: the usual hint."""
    from cobi_companion.device.ports.speech import start_notice

    notice = start_notice(app.speech) if app.settings.voice != "off" else None
    return "" if notice is None else app.t(notice)


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


def registry(app: App) -> Registry:
    """The games of the app's table (the box's, or those a test gives its own table)."""
    table = app.games
    assert isinstance(table, Table)
    return table.registry


def _quick_dice() -> Screen:
    from cobi_companion.device.games.menus import QuickDice

    return QuickDice()


def _new_battle(app: App) -> Screen:
    from cobi_companion.device.games.roster import new_battle

    return new_battle(app)


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

    def view(self, app: App) -> View:
        """The menu; where the voice will not be heard, the hint line says why (asked at
        each frame: a speaker plugged in clears it)."""
        shown = super().view(app)
        notice = sound_notice(app)
        return replace(shown, hint=notice) if notice and isinstance(shown, Menu) else shown

    def on(self, app: App, key: Key) -> Screen:
        if key in (Key.AXIS, Key.ALLIES, Key.AXIS_LONG, Key.ALLIES_LONG):
            return _quick_dice().on(app, key)
        return super().on(app, key)


def battle_menu(app: App, back: Screen, index: int = 0) -> Screen:
    """The menu of a long press in a game, coming back to `back`: the game's own rows around
    the box's. A row that ends the game (Give up, End battle) asks first."""
    from cobi_companion.device.core.games import MenuRows
    from cobi_companion.device.games.menus import QuickDice, dice_stats

    own = MenuRows() if app.game is None else \
        registry(app).of(app.game).menu_rows(app, back)
    # "Say it again" right after "Back to the game": the last thing said, heard once more.
    # With the voice off it stays in its place, dimmed (the rows never move), and OK says why.
    quiet = app.settings.voice == "off"

    def again() -> Screen:
        if quiet:
            return notice(app, app.t("hear_again"), [app.t("voice_is_off")],
                          partial(battle_menu, app, back, 1))
        return app.say_again(back)
    items: list[tuple[str, Next]] = [(app.t("back_to_game"), lambda: back),
                                     (app.t("hear_again"), again)]

    def add(rows: Sequence[Row]) -> None:
        for row in rows:
            at = len(items)                  # this row: a "no" comes back to it
            items.append((app.t(row.word), row.then if row.ask is None else
                          _asked(app, row, partial(battle_menu, app, back, at))))
    add(own.first)
    items += [(app.t("dice_stats"), lambda: dice_stats(app, back)),
              (app.t("quick_dice"), lambda: QuickDice(back)),
              (app.t("settings"), lambda: _settings_menu(app, lambda: back)),
              (app.t("check_distance"), lambda: _check_distance(app, lambda: back))]
    add(own.last)
    return Choose(app.t("menu"), [label for label, _ in items], lambda i: items[i][1](),
                  back=lambda: back, index=index, dimmed=(1,) if quiet else (),
                  hints=["", app.t("dimmed_hint")] if quiet else ())


def _asked(app: App, row: Row, no: Next) -> Next:
    assert row.ask is not None
    ask = row.ask
    return lambda: confirm(app, app.t(ask), row.then, no)


class Table:
    """The games as the core sees them (`core.app.Games`): home's screens over a registry."""

    def __init__(self, games: Registry) -> None:
        self.registry = games

    def start(self, app: App) -> Screen:
        return start_menu(app)

    def menu(self, app: App, back: Screen) -> Screen:
        return battle_menu(app, back)

    def play(self, app: App) -> Screen:
        """The screen the game in play goes on with, by its game."""
        if app.game is None:
            raise RuntimeError("no game in play")
        return self.registry.of(app.game).play(app)

    def resume(self, data: dict[str, Any], book: CardBook) -> Played:
        return self.registry.resume(data, book)

    def saving(self, app: App, works: bool, back: Screen) -> Screen:
        """Saving stopped, or works again: a notice over `back`, OK going back to it."""
        from cobi_companion.device.ui.trouble import saving_notice

        return saving_notice(app, works, back)


GAMES = Table(BOX_GAMES)
